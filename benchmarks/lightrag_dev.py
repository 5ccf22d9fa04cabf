"""LightRAG's three modes with the default local model on musique/dev, beside `text`.

Reads the KG at β (default 0.2, the KET-RAG PageRank core that benchmarks/ket_dev.py built:
extraction on 1,890 chunks at β = 1 is ~5 h of the 0.5B model on 2 cores) and compares
Coverage and Recall@5 of `text`, KG local search on the same KG (`skeleton`), and
`lightrag-local` / `-global` / `-hybrid` at the given budget, with the tokens each spends:
the KG's extraction tokens (index time) and the query-keywords calls (query time; the modes
share one call per question through the LLM cache). Writes JSON.

    .venv/bin/python benchmarks/lightrag_dev.py [--data ../shared/data/musique/dev] [--beta 0.2] [--budget 12000]
"""

from __future__ import annotations

import argparse
import sys
import time

from common import extraction_tokens, write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import evaluate
from edgerag.graph.core_chunks import core_chunks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/musique/dev")
    ap.add_argument("--index", default=".edgerag/bench/musique-dev")
    ap.add_argument("--beta", type=float, default=0.2)
    ap.add_argument("--budget", type=int, default=12_000)
    ap.add_argument("--out", default="benchmarks/results/lightrag_dev.json")
    args = ap.parse_args()

    dataset = load_dataset(args.data)
    settings = Settings(progress=sys.stderr.isatty(), beta=args.beta)
    rag = EdgeRAG(args.index, settings)
    rag.insert([dataset.corpus])
    print(rag.plan("lightrag-local").summary())
    built = rag.build("lightrag-local")
    core = core_chunks(rag.index, args.beta, settings.core_selection, settings)
    index_tok = extraction_tokens(rag, core)
    results = {}
    for method in ("text", "skeleton", "lightrag-local", "lightrag-global", "lightrag-hybrid"):
        t = time.time()
        r = evaluate(rag, dataset, method=method, budget=args.budget)
        q = rag.ledger(since=t)["by_stage"].get("query-keywords", {})
        results[method] = {
            "coverage": r.coverage,
            "recall_at_5": r.recall_at_5,
            "latency_ms": r.latency_ms,
            "index_llm_input": index_tok["input"] if method != "text" else 0,
            "index_llm_output": index_tok["output"] if method != "text" else 0,
            "query_calls_fresh": q.get("calls", 0) - q.get("cached_calls", 0),
            "query_input": q.get("input", 0),
            "query_output": q.get("output", 0),
            "query_seconds": q.get("seconds", 0.0),
        }
    head = (
        f"{'musique/dev, λ=' + format(args.budget, ','):<22}{'Cov %':>7}{'R@5 %':>7}{'index in':>10}{'index out':>10}"
        f"{'query calls':>12}{'query in':>10}{'query out':>10}{'median ms':>10}"
    )
    print("\n" + head + "\n" + "-" * len(head))
    for m, r in results.items():
        print(
            f"{m:<22}{100 * r['coverage']:>7.1f}{100 * (r['recall_at_5'] or 0):>7.1f}{r['index_llm_input']:>10,}{r['index_llm_output']:>10,}"
            f"{r['query_calls_fresh']:>12}{r['query_input']:>10,}{r['query_output']:>10,}{r['latency_ms']['median']:>10.0f}"
        )
    write_result(
        args.out,
        {
            "benchmark": "lightrag_dev",
            "dataset": dataset.name,
            "beta": args.beta,
            "budget": args.budget,
            "core_chunks": len(core),
            "core_extraction_tokens": index_tok,
            "kg": built.get("kg"),
            "results": results,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
