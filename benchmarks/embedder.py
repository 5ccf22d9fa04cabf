"""A faster embedder (issue #32): which backend runs the model, and what indexing embeds.

    .venv/bin/python benchmarks/embedder.py                 # speed on the sample and musique/dev, Coverage on 4 corpora
    .venv/bin/python benchmarks/embedder.py --skip-quality  # speed only (about 6 minutes on 2 cores)

**Speed.** Each configuration indexes the same corpus into a fresh directory, in one process
(the model loaded and warmed first, so the seconds are indexing's own):

* ``torch, every piece`` — what indexing did before #32: sentence-transformers on torch, every
  chunk, sub-chunk and sentence embedded;
* ``torch, chunks`` — sub-chunks and sentences left to first use (pieces.py);
* ``onnx-int8, every piece`` — the same model through ONNX Runtime with int8 weights;
* ``onnx-int8, chunks`` — both: today's default.

Reported: texts embedded, seconds of the whole insert (splitting, embedding, LMDB and hnswlib),
passages per second, and the speed-up over the first row.

**Quality.** Laziness does not change a vector (a piece embedded later gets the vector it would
have got: tests/test_embed_backends.py); the backend does. So Coverage and Recall@5 of
``text`` and ``bridge-ppr`` at λ 2,000 and 12,000 are compared between a torch index (the
benchmark indexes under .edgerag/bench, built before #32) and an onnx-int8 one built beside it
(``-int8``), on the three dev splits and musique/paper. Answer EM: benchmarks/answers.py
``--index-suffix -int8`` (docs/benchmarks.md, "A faster embedder").
"""

from __future__ import annotations

import argparse
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
    "onnx-int8, chunks (default)": {"embed_backend": "onnx-int8", "embed_pieces_at_index": False},
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument(
        "--corpora", default="edgerag/data/sample/corpus.jsonl,../shared/data/musique/dev/corpus.jsonl", help="speed: corpora to index"
    )
    ap.add_argument("--budgets", default="2000,12000")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--out", default="benchmarks/results/embedder.json")
    args = ap.parse_args()
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
