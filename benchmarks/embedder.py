"""A faster embedder (issue #32): which backend runs the model, and what indexing embeds.

    .venv/bin/python benchmarks/embedder.py                 # speed on the sample and musique/dev, Coverage on 4 corpora
    .venv/bin/python benchmarks/embedder.py --skip-quality  # speed only (about 6 minutes on 2 cores)

**Speed.** Each configuration indexes the same corpus into a fresh directory, in one process
(the model loaded and warmed first, so the seconds are indexing's own):

* ``torch, every piece`` — what indexing did before #32: sentence-transformers on torch, every
  chunk, sub-chunk and sentence embedded;
* ``torch, chunks`` — sub-chunks and sentences left to first use (pieces.py);
* ``onnx-int8, every piece`` — the same model through ONNX Runtime with int8 weights;
* ``onnx-int8, chunks`` — both: the default from #32 to #40;
* ``onnx, chunks`` — float32 through ONNX Runtime, chunks only: the default since #40.

Reported: texts embedded, seconds of the whole insert (splitting, embedding, LMDB and hnswlib),
passages per second, and the speed-up over the first row.

**Quality.** Laziness does not change a vector (a piece embedded later gets the vector it would
have got: tests/test_embed_backends.py); the backend does. So Coverage and Recall@5 of
``text`` and ``bridge-ppr`` at λ 2,000 and 12,000 are compared between a torch index (the
benchmark indexes under .edgerag/bench, built before #32) and an onnx-int8 one built beside it
(``-int8``), on the three dev splits and musique/paper. Answer EM: benchmarks/answers.py
``--index-suffix -int8`` (docs/benchmarks.md, "A faster embedder").

**Backends on this CPU** (issue #40; ``--backends``, about 2 minutes): the same held-out passages
and questions embedded by every backend, one process, the model warmed first. Reported per
backend: texts/s, cosine to torch (mean / min, passages and questions apart) and the overlap of
each question's top-10 passages with torch's. ``--save-vectors F`` keeps the vectors, and
``--against F`` compares them with a file another CPU saved (same texts, same backends): the
cosine between the two CPUs' vectors and their top-10 overlap. The CPU's flags name the JSON.

    .venv/bin/python benchmarks/embedder.py --backends --save-vectors /tmp/v-$(hostname).npz
    .venv/bin/python benchmarks/embedder.py --backends --against /tmp/v-other.npz
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time

import numpy as np
from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, recall_at_k
from edgerag.eval.runner import ensure_indexed

CONFIGS = {  # label → settings
    "torch, every piece": {"embed_backend": "torch", "embed_pieces_at_index": True},
    "torch, chunks": {"embed_backend": "torch", "embed_pieces_at_index": False},
    "onnx-int8, every piece": {"embed_backend": "onnx-int8", "embed_pieces_at_index": True},
    "onnx-int8, chunks": {"embed_backend": "onnx-int8", "embed_pieces_at_index": False},
    "onnx, chunks (default since #40)": {"embed_backend": "onnx", "embed_pieces_at_index": False},
}
QUALITY = {  # corpus → (data folder, torch index)
    "musique dev": ("musique/dev", ".edgerag/bench/musique-dev"),
    "2wiki dev": ("2wikimultihopqa/dev", ".edgerag/bench/2wikimultihopqa-dev"),
    "hotpotqa dev": ("hotpotqa/dev", ".edgerag/bench/hotpotqa-dev"),
    "musique/paper": ("musique/paper", ".edgerag/bench/musique-paper"),
}


def speed(corpus: str) -> dict[str, dict]:
    out = {}
    for label, changes in CONFIGS.items():
        with tempfile.TemporaryDirectory(prefix="edgerag-embedder-") as tmp:
            rag = EdgeRAG(f"{tmp}/index", Settings(progress=False, **changes))
            rag.embedder.encode(["load the model and warm it up"])
            rag.tokenizer.count("and the tokenizer")
            t0 = time.perf_counter()
            report = rag.insert([corpus])
            seconds = time.perf_counter() - t0
            rag.close()
        out[label] = {
            "passages": report.docs_added,
            "texts": report.texts_embedded,
            "seconds": seconds,
            "passages_per_s": report.docs_added / seconds,
        }
        print(
            f"  {label:<28} {report.texts_embedded:>7,} texts {seconds:>7.1f} s {report.docs_added / seconds:>7.1f} passages/s", flush=True
        )
    base = out[next(iter(CONFIGS))]["passages_per_s"]
    for row in out.values():
        row["speedup"] = row["passages_per_s"] / base
    return out


def quality(data: str, budgets: list[int]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name, (folder, torch_index) in QUALITY.items():
        dataset = load_dataset(f"{data}/{folder}")
        for backend, path in (("torch", torch_index), ("onnx-int8", torch_index + "-int8")):
            rag = EdgeRAG(path, Settings(progress=sys.stderr.isatty(), embed_backend=backend))
            t = ensure_indexed(rag, dataset)
            for budget in budgets:
                for method in ("text", "bridge-ppr"):
                    cov, r5 = [], []
                    for q in dataset.questions:
                        ctx = rag.retrieve(q.question, method=method, budget=budget)
                        cov.append(coverage(q.answers, ctx.text()))
                        r = recall_at_k(q.supporting_ids, ctx.doc_ids, 5)
                        if r is not None:
                            r5.append(r)
                    row = {"coverage": 100 * float(np.mean(cov)), "recall_at_5": 100 * float(np.mean(r5)) if r5 else None}
                    out.setdefault(name, {}).setdefault(str(budget), {}).setdefault(method, {})[backend] = row
            out[name].setdefault("index_seconds", {})[backend] = t
            rag.close()
        for budget in budgets:
            for method, rows in out[name][str(budget)].items():
                d = rows["onnx-int8"]["coverage"] - rows["torch"]["coverage"]
                print(
                    f"  {name:<14} λ {budget:>6,} {method:<11} Coverage torch {rows['torch']['coverage']:5.1f}  onnx-int8 {rows['onnx-int8']['coverage']:5.1f}  ({d:+.1f})",
                    flush=True,
                )
    return out


AGREEMENT_BACKENDS = ("torch", "onnx", "onnx-int8")


def _texts(data: str, passages: int, questions: int) -> tuple[list[str], list[str]]:
    """The first ``passages`` passages and ``questions`` questions of MuSiQue dev."""
    dataset = load_dataset(f"{data}/musique/dev")
    texts = []
    with open(dataset.corpus, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            texts.append(f"{rec.get('title', '')}\n{rec['text']}".strip())
            if len(texts) == passages:
                break
    return texts, [q.question for q in dataset.questions[:questions]]


def _top10(q: np.ndarray, p: np.ndarray) -> np.ndarray:
    return np.argsort(-(q @ p.T), axis=1, kind="stable")[:, :10]


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean([len(set(x) & set(y)) / len(x) for x, y in zip(a, b)]))


def _cos(a: np.ndarray, b: np.ndarray) -> dict:
    c = np.sum(a * b, axis=1)
    return {"mean": float(c.mean()), "min": float(c.min())}


def agreement(
    data: str, passages: int, questions: int, backends: list[str], save: str | None, against: str | None, label: str | None = None
) -> dict:
    from edgerag.embed.embedder import Embedder
    from edgerag.llm.cpu import cpu_class, cpu_flags, cpu_model

    texts, qs = _texts(data, passages, questions)
    vectors: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    out: dict = {
        "cpu": cpu_model(),
        "cpu_class": label or cpu_class(cpu_flags()),
        "passages": len(texts),
        "questions": len(qs),
        "backends": {},
    }
    for backend in backends:
        e = Embedder(backend=backend, batch_size=64)
        e.encode(["load the model and warm it up"])
        t0 = time.perf_counter()
        p = e.encode(texts)
        q = e.encode(qs)
        seconds = time.perf_counter() - t0
        vectors[backend] = (p, q)
        out["backends"][backend] = {"texts_per_s": (len(texts) + len(qs)) / seconds, "model_id": e.model_id}
    ref = vectors.get("torch")
    for backend, (p, q) in vectors.items():
        row = out["backends"][backend]
        if ref is not None:
            row["cosine_to_torch"] = {"passages": _cos(p, ref[0]), "questions": _cos(q, ref[1])}
            row["top10_overlap_with_torch"] = _overlap(_top10(q, p), _top10(ref[1], ref[0]))
        print(
            f"  {backend:<10} {row['texts_per_s']:7.1f} texts/s"
            + (
                f"  cosine to torch {row['cosine_to_torch']['passages']['mean']:.4f} / {row['cosine_to_torch']['passages']['min']:.4f}"
                f"  top-10 overlap {row['top10_overlap_with_torch']:.3f}"
                if ref is not None
                else ""
            ),
            flush=True,
        )
    if save:
        np.savez(save, cpu_class=out["cpu_class"], **{f"{b}.{k}": v for b, pv in vectors.items() for k, v in zip("pq", pv)})
    if against:
        other = np.load(against)
        out["against"] = {"cpu_class": str(other["cpu_class"]), "backends": {}}
        for backend, (p, q) in vectors.items():
            if f"{backend}.p" not in other:
                continue
            op, oq = other[f"{backend}.p"][: len(p)], other[f"{backend}.q"][: len(q)]
            n, m = len(op), len(oq)
            row = {
                "passages": _cos(p[:n], op),
                "questions": _cos(q[:m], oq),
                "top10_overlap": _overlap(_top10(q[:m], p[:n]), _top10(oq, op)),
                "same_top1": int(np.sum(_top10(q[:m], p[:n])[:, 0] == _top10(oq, op)[:, 0])),
                "questions_compared": m,
            }
            out["against"]["backends"][backend] = row
            print(
                f"  {backend:<10} against {out['against']['cpu_class']}: cosine {row['passages']['mean']:.6f} / {row['passages']['min']:.6f}"
                f"  top-10 overlap {row['top10_overlap']:.3f}  same top-1 {row['same_top1']} of {m}",
                flush=True,
            )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument(
        "--corpora", default="edgerag/data/sample/corpus.jsonl,../shared/data/musique/dev/corpus.jsonl", help="speed: corpora to index"
    )
    ap.add_argument("--budgets", default="2000,12000")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--out", default=None, help="default benchmarks/results/embedder.json (--backends: embedder_backends_<cpu class>.json)")
    ap.add_argument("--backends", action="store_true", help="only the backends on this CPU: speed, cosine to torch, top-10 overlap")
    ap.add_argument("--which", default=",".join(AGREEMENT_BACKENDS), help="--backends: the backends to run")
    ap.add_argument("--passages", type=int, default=400)
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--save-vectors", default=None)
    ap.add_argument("--against", default=None, help="vectors saved by --save-vectors on another CPU")
    ap.add_argument("--cpu-label", default=None, help="the CPU class to report (under an emulator /proc/cpuinfo names the host's)")
    args = ap.parse_args()
    if args.backends:
        out = agreement(args.data, args.passages, args.questions, args.which.split(","), args.save_vectors, args.against, args.cpu_label)
        write_result(args.out or f"benchmarks/results/embedder_backends_{out['cpu_class']}.json", {"benchmark": "embedder backends", **out})
        return 0
    args.out = args.out or "benchmarks/results/embedder.json"
    result: dict = {"benchmark": "embedder", "speed": {}, "quality": {}}
    for corpus in args.corpora.split(","):
        print(f"speed: {corpus}", flush=True)
        result["speed"][corpus] = speed(corpus)
    if not args.skip_quality:
        print("quality: Coverage, torch index vs onnx-int8 index", flush=True)
        result["quality"] = quality(args.data, [int(b) for b in args.budgets.split(",")])
    write_result(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
