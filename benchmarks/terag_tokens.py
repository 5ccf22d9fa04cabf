"""TERAG against the full KG extractor on the same passages, with the default local model.

Builds TERAG's names graph over every passage and the KG at β (1.0 = full KG-RAG, every
passage) through the KG extractor, then prints extraction input and output tokens and
seconds for both — totals, and per passage over the passages both extracted — and Coverage /
Recall@5 of `text`, `terag` and `kg` (or `skeleton` when β < 1) at the given budget.
TERAG's claim is 3–11 % of the output tokens of full-KG extraction. Writes JSON.

    .venv/bin/python benchmarks/terag_tokens.py --data ../shared/data/2wikimultihopqa/small [--beta 1.0] [--budget 12000]

``--passages kg`` names only the passages the KG extractor has already done (any β or κ
core on this index) and builds nothing else: the token comparison on the same passages,
without TERAG's retrieval figures (its graph needs every passage).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import evaluate
from edgerag.graph.names_graph import extract_names


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/2wikimultihopqa/small")
    ap.add_argument("--index", help="default: .edgerag/bench/<dataset>-<split>")
    ap.add_argument("--beta", type=float, default=1.0, help="β of the KG to compare with (1.0 = full KG)")
    ap.add_argument("--budget", type=int, default=12_000)
    ap.add_argument("--out", help="default: benchmarks/results/terag_<dataset>_<split>.json")
    ap.add_argument(
        "--passages",
        choices=["all", "kg"],
        default="all",
        help="all: TERAG over every passage, KG at β; kg: name only the passages the KG already extracted",
    )
    args = ap.parse_args()
    data = Path(args.data)
    tag = f"{data.parent.name}-{data.name}"
    index = args.index or f".edgerag/bench/{tag}"
    out = args.out or f"benchmarks/results/terag_{tag.replace('-', '_')}.json"

    dataset = load_dataset(args.data)
    rag = EdgeRAG(index, Settings(progress=sys.stderr.isatty(), beta=args.beta))
    rag.insert([dataset.corpus])
    kg_method = "kg" if args.beta == 1.0 else "skeleton"
    builds, seconds = {}, {}
    if args.passages == "kg":
        out = out.replace(".json", "_kg_passages.json")
        s = rag.settings
        ids = rag.index.ids("chunks")
        done = [c for c, e in zip(ids, rag.index.get_many("extractions", ids)) if e]
        print(f"naming the {len(done)} passages the KG extractor has done ({len(ids)} in the corpus)")
        t = time.perf_counter()
        rag.index.lock()
        try:
            builds["terag"] = {
                "extraction": asdict(
                    extract_names(rag.index, rag.llm, done, batch=s.terag_batch, max_tokens=s.terag_max_tokens, progress=s.progress)
                )
            }
        finally:
            rag.index.unlock()
        seconds["terag"] = time.perf_counter() - t
    else:
        for method in ("terag", kg_method):
            print(rag.plan(method).summary())
            t = time.perf_counter()
            builds[method] = rag.build(method)
            seconds[method] = time.perf_counter() - t
    chunks = rag.index.ids("chunks")
    names = dict(zip(chunks, rag.index.get_many("names", chunks)))
    kgs = dict(zip(chunks, rag.index.get_many("extractions", chunks)))
    both = [c for c in chunks if names[c] and kgs[c]]
    tok = {
        "terag": _tokens([names[c] for c in chunks if names[c]]),
        "kg": _tokens([kgs[c] for c in chunks if kgs[c]]),
        "terag_same_passages": _tokens([names[c] for c in both]),
        "kg_same_passages": _tokens([kgs[c] for c in both]),
    }
    ledger = rag.ledger()["by_method"]
    ratio_out = tok["terag_same_passages"]["output"] / max(tok["kg_same_passages"]["output"], 1)
    ratio_in = tok["terag_same_passages"]["input"] / max(tok["kg_same_passages"]["input"], 1)
    print(f"\nextraction on the {len(both)} passages both extracted ({len(chunks)} in the corpus):")
    print(f"{'':<12}{'input':>10}{'output':>10}{'in/passage':>12}{'out/passage':>12}{'fresh LLM s':>13}")
    for m, key, led in (("terag", "terag_same_passages", "terag"), (kg_method, "kg_same_passages", kg_method)):
        t = tok[key]
        print(
            f"{m:<12}{t['input']:>10,.0f}{t['output']:>10,.0f}{t['input'] / max(t['passages'], 1):>12.0f}"
            f"{t['output'] / max(t['passages'], 1):>12.1f}{ledger.get(led, {}).get('seconds', 0):>13.0f}"
        )
    print(f"TERAG / KG output tokens: {100 * ratio_out:.1f} % (the paper: 3–11 %); input tokens: {100 * ratio_in:.1f} %")

    rows = {}
    for m in ("text", kg_method) if args.passages == "kg" else ("text", "terag", kg_method):
        r = evaluate(rag, dataset, method=m, budget=args.budget)
        rows[m] = {"coverage": r.coverage, "recall_at_5": r.recall_at_5, "latency_ms": r.latency_ms}
    print(f"\n{dataset.name} ({len(dataset.questions)} q), λ={args.budget:,}{'':<4}{'Coverage %':>11}{'Recall@5 %':>11}{'median ms':>10}")
    for m, r in rows.items():
        print(f"{m:<34}{100 * r['coverage']:>11.1f}{100 * (r['recall_at_5'] or 0):>11.1f}{r['latency_ms']['median']:>10.0f}")
    write_result(
        out,
        {
            "benchmark": "terag_tokens",
            "dataset": dataset.name,
            "beta": args.beta,
            "budget": args.budget,
            "passages": len(chunks),
            "passages_both": len(both),
            "tokens": tok,
            "output_ratio": ratio_out,
            "input_ratio": ratio_in,
            "build_seconds": seconds,
            "ledger_by_method": ledger,
            "results": rows,
            "passages_named": args.passages,
            "extraction": {m: b.get("extraction") for m, b in builds.items()},
            "terag_graph": builds["terag"].get("terag"),
        },
    )
    return 0


def _tokens(recs: list[dict]) -> dict[str, float]:
    """Extraction tokens as stored with each passage's result (a batched call's tokens are
    shared evenly among its passages)."""
    return {
        "passages": len(recs),
        "input": sum(r.get("prompt_tokens", 0) for r in recs),
        "output": sum(r.get("output_tokens", 0) for r in recs),
    }


if __name__ == "__main__":
    sys.exit(main())
