"""Dense search: exact or hnswlib, and where one gives way to the other (issue #40).

    .venv/bin/python benchmarks/dense_search.py                      # about 6 minutes on 2 cores
    .venv/bin/python benchmarks/dense_search.py --skip-recall        # latency only

**Latency.** An exact query is one product of the query with every vector, then the top 10:
p50 / p95 milliseconds over 100 queries at 10,000 to 300,000 vectors of 384 dimensions
(unit-length random vectors: an exact query's cost depends on the count alone), beside
hnswlib's at ef 200 at the sizes where building it here is quick. ``store.vectors.EXACT_MAX``
(``Settings.exact_search_max``) sits where the exact query still costs about as much as the
rest of a `text` query.

**Recall.** hnswlib's recall@10 against exact search on real indexes, the vectors read from
each index and a fresh hnswlib graph built over them per (M, ef_construction 200) and queried
at each ef: the three dev splits and musique/paper with their questions, and the 10,000 one-line
notes of tests/test_hostile.py with 50 questions about them plus the one about the planted
note ("needle": whether it comes first). Indexes are built under ``--work`` when missing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import hnswlib
import numpy as np
from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import ensure_indexed

SIZES = (10_000, 30_000, 100_000, 300_000)
HNSW_SIZES = (10_000, 30_000)
SPLITS = {
    "musique dev": "musique/dev",
    "2wiki dev": "2wikimultihopqa/dev",
    "hotpotqa dev": "hotpotqa/dev",
    "musique/paper": "musique/paper",
}
GRID_M = (16, 32)
GRID_EF = (200, 400, 800)
NEEDLE = "What is the access code of the Zorblax vault?"


def _p(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {"p50_ms": statistics.median(ms), "p95_ms": ms[int(0.95 * (len(ms) - 1))]}


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _exact_top(q: np.ndarray, m: np.ndarray, k: int = 10) -> np.ndarray:
    s = q @ m.T
    head = np.argpartition(-s, k - 1, axis=1)[:, :k]
    return np.take_along_axis(head, np.argsort(-np.take_along_axis(s, head, axis=1), axis=1, kind="stable"), axis=1)


def latency(dim: int = 384) -> dict:
    rng = np.random.default_rng(40)
    out = {}
    for n in SIZES:
        m = _unit(rng.normal(size=(n, dim)))
        qs = _unit(rng.normal(size=(100, dim)))
        ms = []
        for q in qs:
            t = time.perf_counter()
            _exact_top(q[None, :], m)
            ms.append(1000 * (time.perf_counter() - t))
        row = {"exact": _p(ms)}
        if n in HNSW_SIZES:
            index = hnswlib.Index(space="ip", dim=dim)
            index.init_index(max_elements=n, ef_construction=200, M=16)
            t = time.perf_counter()
            index.add_items(m)
            row["hnsw_build_s"] = time.perf_counter() - t
            index.set_ef(200)
            ms = []
            for q in qs:
                t = time.perf_counter()
                index.knn_query(q, k=10)
                ms.append(1000 * (time.perf_counter() - t))
            row["hnsw_ef200"] = _p(ms)
        out[str(n)] = row
        hn = row.get("hnsw_ef200", {}).get("p50_ms")
        print(
            f"  {n:>8,} vectors: exact p50 {row['exact']['p50_ms']:6.2f} ms  p95 {row['exact']['p95_ms']:6.2f} ms"
            + (f"   hnswlib ef 200 p50 {hn:.2f} ms (build {row['hnsw_build_s']:.0f} s)" if hn else ""),
            flush=True,
        )
        del m
    return out


def notes_index(work: Path) -> tuple[EdgeRAG, list[str]]:
    """The 10,000 notes of tests/test_hostile.py, indexed once, and 50 questions plus the needle."""
    root = work / "notes"
    if not root.exists():
        for i in range(10_000):
            d = root / f"{i // 1000:02d}"
            d.mkdir(parents=True, exist_ok=True)
            (d / f"note{i:05d}.txt").write_text(f"Note {i}: shelf {i % 50} holds box {i}.")
        (root / "05" / "note05123.txt").write_text("Note 5123: the Zorblax vault access code is tangerine-42.")
    rag = EdgeRAG(work / "notes-index", Settings(progress=sys.stderr.isatty()))
    if not (work / "notes-index" / "manifest.json").exists():
        rag.insert([root])
    qs = [f"Which box is on shelf {i % 50} in note {i}?" for i in range(0, 10_000, 200)] + [NEEDLE]
    return rag, qs


def recall(data: str, work: Path) -> dict:
    out = {}
    sets = []
    for name, folder in SPLITS.items():
        dataset = load_dataset(f"{data}/{folder}")
        rag = EdgeRAG(work / folder.replace("/", "-"), Settings(progress=sys.stderr.isatty()))
        ensure_indexed(rag, dataset)
        sets.append((name, rag, [q.question for q in dataset.questions]))
    sets.append(("10,000 notes", *notes_index(work)))
    for name, rag, qs in sets:
        ids, m = rag.index.vectors["chunks"].all()
        qv = rag.embedder.encode(qs)
        truth = _exact_top(qv, m)
        row: dict = {"vectors": len(ids), "questions": len(qs), "grid": {}}
        for links in GRID_M:
            index = hnswlib.Index(space="ip", dim=m.shape[1])
            index.init_index(max_elements=len(m), ef_construction=200, M=links, random_seed=100)
            index.add_items(m, np.arange(len(m)))
            for ef in GRID_EF:
                index.set_ef(ef)
                t = time.perf_counter()
                got, _ = index.knn_query(qv, k=10)
                ms = 1000 * (time.perf_counter() - t) / len(qs)
                r = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(got, truth)]))
                cell = {
                    "recall_at_10": r,
                    "ms_per_query": ms,
                    "worst_question": float(min(len(set(a) & set(b)) / 10 for a, b in zip(got, truth))),
                }
                if name == "10,000 notes":
                    cell["needle_first"] = bool(got[-1][0] == truth[-1][0])
                row["grid"][f"M{links} ef{ef}"] = cell
        out[name] = row
        cells = "  ".join(
            f"{k}: {v['recall_at_10']:.3f}" + ("" if v.get("needle_first", True) else " (needle missed)") for k, v in row["grid"].items()
        )
        print(f"  {name:<14} {len(ids):>6,} vectors  recall@10  {cells}", flush=True)
        rag.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--work", default=".edgerag/dense")
    ap.add_argument("--skip-recall", action="store_true")
    ap.add_argument("--out", default="benchmarks/results/dense_search.json")
    args = ap.parse_args()
    from edgerag.llm.cpu import cpu_class, cpu_flags, cpu_model

    result: dict = {"benchmark": "dense search", "cpu": cpu_model(), "cpu_class": cpu_class(cpu_flags())}
    print("latency: one query, top 10", flush=True)
    result["latency"] = latency()
    if not args.skip_recall:
        print("recall: hnswlib against exact search", flush=True)
        result["recall"] = recall(args.data, Path(args.work))
    write_result(args.out, result)
    print(json.dumps({"cpu_class": result["cpu_class"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
