"""KET-RAG with the default local model on musique/dev (β = 0.2 by default).

Indexes the split, plans and builds the skeleton KG, checks that the ledger shows extraction on
exactly ⌈β·n⌉ chunks, and compares Coverage (and Recall@5) of `text`, `keyword`, `skeleton` and
`ket` at the given budget, with the LLM tokens each method's stages spent. Writes JSON.

    .venv/bin/python benchmarks/ket_dev.py [--data ../shared/data/musique/dev] [--beta 0.2] [--budget 12000]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import evaluate

METHODS = ("text", "keyword", "skeleton", "ket")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/musique/dev")
    ap.add_argument("--index", default=".edgerag/bench/musique-dev")
    ap.add_argument("--beta", type=float, default=0.2)
    ap.add_argument("--budget", type=int, default=12_000)
    ap.add_argument("--out", default="benchmarks/results/ket_dev.json")
    args = ap.parse_args()

    dataset = load_dataset(args.data)
    rag = EdgeRAG(args.index, Settings(progress=sys.stderr.isatty(), beta=args.beta))
    t = time.perf_counter()
    rag.insert([dataset.corpus])
    index_s = time.perf_counter() - t
    n = rag.stats()["counts"]["chunks"]
    plan = rag.plan("ket")
    print(plan.summary())
    t = time.perf_counter()
    built = rag.build("ket")
    build_s = time.perf_counter() - t
    ex = built["extraction"]
    ledger = rag.ledger()
    extract = ledger["by_stage"].get("extract", {})
    n_extracted = len([1 for _ in rag.index.get_many("extractions", [c for c in _all_chunks(rag)]) if _])
    expect = math.ceil(args.beta * n)
    print(
        f"chunks {n}; ⌈β·n⌉ = {expect}; extractions stored {n_extracted}; ledger extract calls {extract.get('calls')} "
        f"({extract.get('cached_calls')} cached)"
    )
    rows = {}
    for m in METHODS:
        r = evaluate(rag, dataset, method=m, budget=args.budget)
        rows[m] = r
        print(
            f"{m:<9} coverage {100 * r.coverage:5.1f}%  recall@5 {100 * (r.recall_at_5 or 0):5.1f}%  median {r.latency_ms['median']:.0f} ms"
        )
    llm_methods = {"skeleton", "ket"}
    print(f"\n{'method':<10}{'Coverage %':>11}{'Recall@5 %':>11}{'index LLM in':>14}{'index LLM out':>14}")
    for m in METHODS:
        tin = extract.get("input", 0) if m in llm_methods else 0
        tout = extract.get("output", 0) if m in llm_methods else 0
        print(f"{m:<10}{100 * rows[m].coverage:>11.1f}{100 * (rows[m].recall_at_5 or 0):>11.1f}{tin:>14,}{tout:>14,}")
    out = {
        "benchmark": "ket_dev",
        "dataset": dataset.name,
        "beta": args.beta,
        "budget": args.budget,
        "chunks": n,
        "expected_core": expect,
        "extractions": n_extracted,
        "plan": plan.to_dict(),
        "extraction": ex,
        "kg": built.get("kg"),
        "ledger": ledger,
        "index_seconds": index_s,
        "build_seconds": build_s,
        "coverage": {m: rows[m].coverage for m in METHODS},
        "recall_at_5": {m: rows[m].recall_at_5 for m in METHODS},
        "latency_ms": {m: rows[m].latency_ms for m in METHODS},
    }
    write_result(args.out, out)
    return 0


def _all_chunks(rag: EdgeRAG) -> list[str]:
    with rag.index.tables.read() as txn:
        return [k for k, _ in rag.index.tables.items(txn, "chunks")]


if __name__ == "__main__":
    sys.exit(main())
