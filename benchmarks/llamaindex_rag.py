"""Plain RAG as LlamaIndex builds it by default, over the same GGUF and the same embedder as
edgerag, on the same questions as tatqa.py, conditionalqa.py and reports.py: the baseline beside them.

Runs in its own venv (never needed by `make test`):

    python3 -m venv .venv-llamaindex
    .venv-llamaindex/bin/pip install -r benchmarks/llamaindex-requirements.txt
    .venv-llamaindex/bin/python benchmarks/llamaindex_rag.py --set tatqa            # the fixed sample, the 0.5B
    .venv-llamaindex/bin/python benchmarks/llamaindex_rag.py --set conditionalqa --model 1.5b
    .venv/bin/python benchmarks/tatqa.py --answers-from benchmarks/results/tatqa_llamaindex_0_5b.json   # scored beside edgerag
    .venv-llamaindex/bin/python benchmarks/llamaindex_rag.py --set reports          # or --set heldout / heldout2 / … / heldout7 (reports.py's sets)
    .venv/bin/python benchmarks/reports.py --answers-from benchmarks/results/reports_llamaindex_0_5b.json

What "by default" is here (LlamaIndex's own defaults, read from the installed package and kept
in the JSON): `SimpleDirectoryReader` reads the same files edgerag indexes (one TAT-QA page per
index, the 35 ConditionalQA pages in one, one report excerpt per index as reports.py builds
them; an .html or .md file as its text, markup and all, since LlamaIndex has no default reader
for either; a .pdf with its default `PDFReader` (pypdf, a document per page) and a .docx with its
`DocxReader` (docx2txt), both from llama-index-readers-file), `VectorStoreIndex.from_documents` splits them with
the default `SentenceSplitter` (1,024-token chunks, 200 overlap), `as_query_engine()` retrieves
the default top-k chunks and answers in the default "compact" mode with the default QA prompt.
The model is `LlamaCPP` (llama-index-llms-llama-cpp) at its defaults (temperature 0.1, 256 new
tokens, a 3,900-token window), its prompts in the GGUF's own chat template as LlamaIndex's
llama.cpp guide has users set them (``--raw-prompt``: LlamaCPP's bare default), on the GGUF that edgerag's ``--model`` resolves to
(edgerag/llm/models.py), with as many threads as edgerag uses; the embedder is
`HuggingFaceEmbedding` on the sentence-transformers folder edgerag's default embedder ships
(edgerag/embed/embedder.py `resolve_embedder_path`). ``--top-k`` changes only the top-k.

Both paths are found by asking edgerag's own venv (``--edgerag-python``, default ``.venv``), or
given with ``--gguf`` / ``--embedder``. The answers are written as the same answer records as
edgerag's (open_sets.py), unscored; tatqa.py / conditionalqa.py ``--answers-from`` score them with
the same functions. An index is kept per page set under ``--work`` and reused.

The report excerpts' DOCX and PDF files are written at run time, as reports.py writes them
(its `write_docs`, run in edgerag's venv, which has the writers) into ``<work>/<set>/docs``, so
LlamaIndex reads the same files edgerag reads.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import conditionalqa
import open_sets as sets
import reports
import tatqa

RESOLVE = """
import sys
from edgerag.llm.models import ANSWER_MODEL, DEFAULT_MODEL, resolve_model
from edgerag.embed.embedder import resolve_embedder_path
spec = {"0.5b": DEFAULT_MODEL, "1.5b": ANSWER_MODEL}.get(sys.argv[1].lower(), sys.argv[1])
print(resolve_model(spec)); print(resolve_embedder_path())
"""


WRITE_DOCS = """
import json, sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import reports
docs = reports.write_docs(Path(sys.argv[2]), reports.SETS[sys.argv[1]][0])
print(json.dumps({name: str(path) for name, path in docs.items()}))
"""
OUT_NAMES = {name: name if name == "reports" else f"reports_{name}" for name in reports.SETS}
"""The result name of each set whose name differs (reports.py's)."""


def resolve(args) -> tuple[Path, Path]:
    """The GGUF and the embedder folder edgerag would use, asked of its venv where not given."""
    if args.gguf and args.embedder:
        return Path(args.gguf), Path(args.embedder)
    env = {**os.environ, "PYTHONPATH": str(sets.REPO)}
    done = subprocess.run([args.edgerag_python, "-c", RESOLVE, args.model], capture_output=True, text=True, env=env, cwd=sets.REPO)
    if done.returncode:
        raise SystemExit(f"cannot ask edgerag's venv ({args.edgerag_python}) for the model paths:\n{done.stderr}")
    gguf, embedder = done.stdout.split()[-2:]
    return Path(args.gguf or gguf), Path(args.embedder or embedder)


def write_docs(args, folder: Path) -> dict[str, Path]:
    """The set's report excerpts written into ``folder`` by reports.py `write_docs`, in edgerag's
    venv (python-docx and pypdfium2 write the DOCX and PDF), by name."""
    env = {**os.environ, "PYTHONPATH": str(sets.REPO)}
    done = subprocess.run(
        [args.edgerag_python, "-c", WRITE_DOCS, args.set, str(folder.resolve())], capture_output=True, text=True, env=env, cwd=sets.REPO
    )
    if done.returncode:
        raise SystemExit(f"cannot write the excerpts with edgerag's venv ({args.edgerag_python}):\n{done.stderr}")
    return {name: Path(path) for name, path in json.loads(done.stdout.splitlines()[-1]).items()}


def threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def chat_template(gguf: Path):
    """``messages_to_prompt`` and ``completion_to_prompt`` in the GGUF's own chat template, as
    llama.cpp applies it (LlamaCPP's default is a bare "user: … assistant:" text, which an
    instruction-tuned model is not trained on; LlamaIndex's llama.cpp guide has users pass
    their model's format)."""
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    vocab = Llama(str(gguf), vocab_only=True, verbose=False)
    token = lambda t: vocab.detokenize([t]).decode("utf-8", "ignore") if t >= 0 else ""  # noqa: E731
    fmt = Jinja2ChatFormatter(
        vocab.metadata["tokenizer.chat_template"], eos_token=token(vocab.token_eos()), bos_token=token(vocab.token_bos())
    )

    def messages_to_prompt(messages) -> str:
        return fmt(messages=[{"role": m.role.value, "content": m.content or ""} for m in messages]).prompt

    def completion_to_prompt(completion: str) -> str:
        return fmt(messages=[{"role": "user", "content": completion}]).prompt

    return messages_to_prompt, completion_to_prompt


def questions_and_pages(args) -> list[tuple[str, list[Path], list[dict]]]:
    """(index name, files, questions) per index, the questions in the set's order."""
    if args.set in reports.SETS:
        chosen = reports.load_questions(reports.SETS[args.set][1])[args.skip :][: args.limit]
        docs = write_docs(args, Path(args.work) / args.set / "docs")
        by_doc = dict.fromkeys(q["doc"] for q in chosen)
        return [(Path(d).stem, [docs[d]], [q for q in chosen if q["doc"] == d]) for d in by_doc]
    if args.set == "tatqa":
        chosen = tatqa.select(tatqa.load_questions(), args.all)[args.skip :][: args.limit]
        contexts = dict.fromkeys(q["context"] for q in chosen)
        return [(c.rsplit("-", 1)[1], [tatqa.page({"context": c})], [q for q in chosen if q["context"] == c]) for c in contexts]
    chosen = conditionalqa.load_questions(not args.no_extra)[args.skip :][: args.limit]
    return [("index", sorted((conditionalqa.CQA / "docs").glob("*.html")), chosen)]


def query_engine(folder: Path, files: list[Path], top_k: int | None):
    from llama_index.core import SimpleDirectoryReader, StorageContext, VectorStoreIndex, load_index_from_storage

    if (folder / "docstore.json").exists():
        index = load_index_from_storage(StorageContext.from_defaults(persist_dir=str(folder)))
    else:
        index = VectorStoreIndex.from_documents(SimpleDirectoryReader(input_files=[str(f) for f in files]).load_data())
        index.storage_context.persist(persist_dir=str(folder))
    return index.as_query_engine(**({"similarity_top_k": top_k} if top_k else {}))


def ask(engine, q: dict, text: str) -> dict:
    """One question asked of the query engine: an answer record (open_sets.py)."""
    t0 = time.perf_counter()
    response = engine.query(text)
    seconds = time.perf_counter() - t0
    reply = str(response).strip()
    reply = "" if reply == "Empty Response" else reply
    row = {
        "id": q["id"],
        "question": q["question"],
        "asked": text,
        "short": reply,
        "text": reply[:600],
        "seconds": seconds,
        "cached": False,
    }
    row["abstained"] = sets.abstention(row)
    row["read"] = [Path(n.node.metadata.get("file_name", "")).name + f" ({n.score:.2f})" for n in response.source_nodes]
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", required=True, choices=("tatqa", "conditionalqa", *reports.SETS))
    ap.add_argument("--model", default="0.5b", help="as edgerag's --model: 0.5b, 1.5b, or a GGUF path")
    ap.add_argument("--limit", type=int, help="ask at most this many questions (after --skip)")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N questions")
    ap.add_argument("--all", action="store_true", help="tatqa: all questions, not the fixed sample")
    ap.add_argument("--no-extra", action="store_true", help="conditionalqa: leave out the unanswerable questions written here")
    ap.add_argument("--top-k", type=int, help="chunks retrieved (default: LlamaIndex's own)")
    ap.add_argument("--raw-prompt", action="store_true", help="LlamaCPP's bare default prompt, not the GGUF's chat template")
    ap.add_argument("--gguf", help="the GGUF file (default: the one edgerag resolves --model to)")
    ap.add_argument("--embedder", help="the sentence-transformers folder (default: edgerag's default embedder)")
    ap.add_argument("--edgerag-python", default=str(sets.REPO / ".venv" / "bin" / "python"), help="edgerag's venv python, to find both")
    ap.add_argument("--work", default=".edgerag/bench/llamaindex", help="the indexes are kept under <work>/<set>")
    ap.add_argument("--out", help="answer records JSON (default benchmarks/results/<set>_llamaindex_<model>.json); rows there are kept")
    args = ap.parse_args()
    gguf, embedder = resolve(args)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # both models are local folders and files

    from llama_index.core import Settings
    from llama_index.core import constants as li
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding
    from llama_index.llms.llama_cpp import LlamaCPP

    formats = {} if args.raw_prompt else dict(zip(("messages_to_prompt", "completion_to_prompt"), chat_template(gguf)))
    Settings.llm = LlamaCPP(model_path=str(gguf), model_kwargs={"n_threads": threads()}, verbose=False, **formats)
    Settings.embed_model = HuggingFaceEmbedding(model_name=str(embedder), device="cpu")
    splitter = SentenceSplitter()
    out = Path(args.out) if args.out else sets.RESULTS / f"{OUT_NAMES.get(args.set, args.set)}_llamaindex_{sets.model_tag(args.model)}.json"
    previous = sets.load(out)
    kept = {r["id"]: r for r in previous.get("rows", [])} if previous.get("model") == gguf.name else {}
    for name, files, questions in questions_and_pages(args):
        engine = query_engine(Path(args.work) / args.set / name, files, args.top_k)
        for n, q in enumerate(questions, 1):
            row = ask(engine, q, q["text"] if args.set == "conditionalqa" else q["question"])
            kept[q["id"]] = row
            print(f"[{name} {n}/{len(questions)}] {q['question'][:60]!r} → {row['short'][:70]!r} ({row['seconds']:.1f}s)", flush=True)
    every = {
        "tatqa": tatqa.load_questions,
        "conditionalqa": lambda: conditionalqa.load_questions(True),
        **{name: lambda name=name: reports.load_questions(reports.SETS[name][1]) for name in reports.SETS},
    }[args.set]()
    result = {
        "benchmark": OUT_NAMES.get(args.set, args.set),
        "system": "llamaindex",
        "model": gguf.name,
        "answer_model": args.model,
        "embedder": str(embedder),
        "versions": {
            p: version(p)
            for p in ("llama-index-core", "llama-index-llms-llama-cpp", "llama-index-embeddings-huggingface", "llama-cpp-python")
            + (("llama-index-readers-file", "pypdf", "docx2txt") if args.set in reports.SETS else ())
        },
        "defaults": {
            "chunk_size": splitter.chunk_size,
            "chunk_overlap": splitter.chunk_overlap,
            "similarity_top_k": args.top_k or li.DEFAULT_SIMILARITY_TOP_K,
            "context_window": Settings.llm.context_window,
            "max_new_tokens": Settings.llm.max_new_tokens,
            "temperature": Settings.llm.temperature,
            "n_threads": threads(),
            "prompt": "LlamaCPP's bare default" if args.raw_prompt else "the GGUF's chat template",
        },
        "rows": sets.ordered(kept.values(), every),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "when": time.strftime("%Y-%m-%d %H:%M"),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, default=str))
    secs = sets.seconds(result["rows"])
    print(f"wrote {out}: {len(result['rows'])} answers, seconds per answer p50 {secs['p50'] or 0:.1f}; defaults {result['defaults']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
