"""``edgerag …``: the command line for batch scripts (the TUI and Python use the same API)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import textwrap
from importlib import resources
from pathlib import Path

from . import offline  # noqa: F401

DEFAULT_INDEX = os.environ.get("EDGERAG_INDEX", ".edgerag/index")


def _settings_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("index settings (fixed when an index is created)")
    g.add_argument("--chunk-tokens", type=int, help="ℓ: chunk length in tokens (default 1200)")
    g.add_argument("--overlap", type=int, dest="chunk_overlap", help="tokens shared by consecutive chunks (default 100)")
    g.add_argument("--tau", type=int, help="τ: sub-chunks of ⌈ℓ/2^τ⌉ tokens (default 3)")
    g.add_argument("--tokenizer", help="token unit: cl100k (default) or gguf:PATH")
    g.add_argument("--embedder", help="sentence-transformers model folder (default: bundled all-MiniLM-L6-v2)")
    g.add_argument("--device", help="auto (default), cpu or cuda")


def _open(args, **extra):
    from .api import EdgeRAG

    keys = ("chunk_tokens", "chunk_overlap", "tau", "tokenizer", "embedder", "device")
    overrides = {k: getattr(args, k) for k in keys if getattr(args, k, None) is not None}
    overrides.update({k: v for k, v in extra.items() if v is not None})
    if getattr(args, "quiet", False):
        overrides["progress"] = False
    return EdgeRAG(args.index, **overrides)


def cmd_index(args) -> int:
    rag = _open(args)
    report = rag.insert(args.paths)
    print(report.summary())
    if report.docs_added == 0 and report.docs_present == 0:
        print("edgerag: nothing indexable was found", file=sys.stderr)
        return 1
    return 0


def cmd_query(args) -> int:
    rag = _open(args)
    ctx = rag.retrieve(args.question, method=args.method, budget=args.budget)
    if args.json:
        print(json.dumps(ctx.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print_context(ctx)
    return 0


def _print_context(ctx, width: int = 100, max_units: int | None = None) -> None:
    print(f"{len(ctx.units)} units, {ctx.tokens}/{ctx.budget} tokens ({ctx.method})")
    for i, u in enumerate(ctx.units[:max_units], 1):
        head = f"[{i}] {u.score:.3f}  {u.doc_id} / {u.chunk_id}  ({u.tokens} tokens)"
        print(head + (f"  {u.title}" if u.title else ""))
        body = " ".join(u.text.split())
        print(textwrap.indent(textwrap.shorten(body, width * 2, placeholder=" …"), "    "))
    if max_units is not None and len(ctx.units) > max_units:
        print(f"… and {len(ctx.units) - max_units} more units")


def cmd_eval(args) -> int:
    from .eval.datasets import load_dataset
    from .eval.runner import evaluate

    dataset = load_dataset(args.data, limit=args.limit)
    if args.index is None:
        digest = hashlib.sha1(str(Path(args.data).resolve()).encode()).hexdigest()[:8]
        args.index = f".edgerag/eval/{dataset.name.replace('/', '-')}-{digest}"
    rag = _open(args)
    result = evaluate(rag, dataset, method=args.method, budget=args.budget)
    print(result.table())
    if args.out:
        result.write(args.out)
        print(f"wrote {args.out}")
    return 0


def cmd_stats(args) -> int:
    from .api import EdgeRAG

    stats = EdgeRAG(args.index).stats()
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    print(f"index     {stats['index']} (format {stats['format']})")
    print(f"embedder  {stats['embedder']['id']} (dim {stats['embedder']['dim']})")
    print("settings  " + ", ".join(f"{k}={v}" for k, v in stats["settings"].items()))
    for name, n in stats["counts"].items():
        print(f"{name:<10}{n}")
    return 0


def cmd_demo(args) -> int:
    """Index the bundled sample corpus and answer its first question."""
    from .eval.datasets import load_dataset

    sample = Path(str(resources.files("edgerag") / "data" / "sample"))
    dataset = load_dataset(sample)
    rag = _open(args)
    print(f"indexing the bundled sample ({sample}) into {args.index} …")
    print(rag.insert([dataset.corpus]).summary())
    q = dataset.questions[0]
    question = args.question or q.question
    print(f"\nquestion: {question}")
    ctx = rag.retrieve(question, method=args.method, budget=args.budget)
    _print_context(ctx, max_units=5)
    if not args.question:
        from .eval.metrics import coverage

        print(f"\ngold answer: {q.answers[0]!r} — {'found' if coverage(q.answers, ctx.text()) else 'not found'} in the retrieved context")
    print("\ntoken account: 0 LLM input / 0 output tokens (text retrieval uses no LLM)")
    return 0


def cmd_tui(args) -> int:
    from tui.app import run

    run(args.index)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .retrieve import METHODS

    p = argparse.ArgumentParser(prog="edgerag", description="Offline Graph-RAG with a local GGUF model.")
    sub = p.add_subparsers(dest="command", required=True)

    def with_index(sp, default=DEFAULT_INDEX):
        sp.add_argument("--index", default=default, help=f"index directory (default {default}; env EDGERAG_INDEX)")
        sp.add_argument("-q", "--quiet", action="store_true", help="no progress bars")

    sp = sub.add_parser("index", help="add files/folders (.txt, .md, corpus .jsonl) to an index")
    sp.add_argument("paths", nargs="+")
    with_index(sp)
    _settings_args(sp)
    sp.set_defaults(func=cmd_index)

    methods = sorted(METHODS)
    sp = sub.add_parser("query", help="retrieve context for a question")
    sp.add_argument("question")
    with_index(sp)
    sp.add_argument("--method", default="text", choices=methods)
    sp.add_argument("--budget", type=int, help="λ: context budget in tokens (default 12000)")
    sp.add_argument("--json", action="store_true", help="print the context as JSON")
    sp.set_defaults(func=cmd_query)

    sp = sub.add_parser("eval", help="evaluate a method on a benchmark folder (corpus.jsonl + questions.jsonl)")
    sp.add_argument("--data", required=True)
    sp.add_argument("--method", default="text", choices=methods)
    with_index(sp, default=None)
    sp.add_argument("--budget", type=int)
    sp.add_argument("--limit", type=int, help="first N questions only")
    sp.add_argument("--out", help="write the result as JSON here")
    _settings_args(sp)
    sp.set_defaults(func=cmd_eval)

    sp = sub.add_parser("stats", help="what an index holds")
    with_index(sp)
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_stats)

    sp = sub.add_parser("demo", help="index the bundled sample corpus and answer a sample question")
    with_index(sp, default=".edgerag/demo")
    sp.add_argument("--question")
    sp.add_argument("--method", default="text", choices=methods)
    sp.add_argument("--budget", type=int, default=2000)
    sp.set_defaults(func=cmd_demo)

    sp = sub.add_parser("tui", help="start the terminal UI")
    sp.add_argument("--index", default=DEFAULT_INDEX)
    sp.set_defaults(func=cmd_tui)
    return p


def main(argv: list[str] | None = None) -> int:
    from .embed import EmbedderError
    from .store import IndexError_

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (IndexError_, EmbedderError, ValueError, FileNotFoundError) as e:
        print(f"edgerag: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("edgerag: interrupted; committed batches are kept, run the same command again to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
