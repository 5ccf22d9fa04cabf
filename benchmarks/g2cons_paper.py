"""G2ConS's concept retrieval on the KET-RAG paper's MuSiQue corpus, with its ablations.

Coverage at λ = 2,000 / 4,000 / 12,000 cl100k tokens for `concept` (paper defaults:
θ_sem = 0.65, θ_co = 3, k = 25, N = 2) and for each design choice switched off (G2ConS
Table 4), beside `text` and `keyword` on the same index and embedder. Prints the concept
graph's build time and edge count for every variant. Writes JSON.

    .venv/bin/python benchmarks/g2cons_paper.py [--data ../shared/data/musique/paper]

Reuses the index of benchmarks/text_rag_paper.py (.edgerag/bench/musique-paper).
"""

from __future__ import annotations

import argparse
import sys
import time

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import evaluate
from edgerag.graph.concept_graph import build_concept_graph, stage
from edgerag.store.stages import stage_record

BUDGETS = (2_000, 4_000, 12_000)
# name → Settings changes from the paper's defaults
VARIANTS = {
    "concept (G2ConS defaults)": {},
    "  chunk-averaged concept vectors": {"concept_vectors": "chunk"},
    "  sentence-level co-occurrence": {"concept_cooccurrence": "sentence"},
    "  no similarity filter": {"concept_similarity_filter": False},
    "  naive rerank (one pool)": {"concept_rerank": "naive"},
    "  top-20 tf·idf concepts per chunk": {"concepts_per_chunk": 20},
}
BASELINES = ("text", "keyword")
# G2ConS paper, MuSiQue: G2ConS-Concept Coverage (CR) on its own sample and setting.
PAPER_CONCEPT_CR = 68.4
BAR = {"dense passages (reference here)": (59.8, 69.0, 78.8)}


def _paths(rag: EdgeRAG, dataset, budget: int = 12_000) -> dict:
    """How `concept` filled its contexts: units by path (direct concepts, BFS-expanded, or one
    naive pool), and the share of queries whose context holds any BFS-reached unit."""
    counts: dict[str, int] = {}
    with_bfs = 0
    for q in dataset.questions:
        ctx = rag.retrieve(q.question, method="concept", budget=budget)
        paths = [u.meta.get("path", "?") for u in ctx.units]
        for p in paths:
            counts[p] = counts.get(p, 0) + 1
        with_bfs += any(p in ("expanded", "pooled") for p in paths)
    total = max(sum(counts.values()), 1)
    return {"unit_share": {k: v / total for k, v in sorted(counts.items())}, "queries_with_bfs": with_bfs / len(dataset.questions)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/musique/paper")
    ap.add_argument("--index", default=".edgerag/bench/musique-paper")
    ap.add_argument("--variants", default="all", help="comma-separated indexes into the variant list, or all")
    ap.add_argument("--out", default="benchmarks/results/g2cons_paper.json")
    args = ap.parse_args()
    names = list(VARIANTS) if args.variants == "all" else [list(VARIANTS)[int(i)] for i in args.variants.split(",")]

    dataset = load_dataset(args.data)
    base = Settings(progress=sys.stderr.isatty())
    rag = EdgeRAG(args.index, base)
    rag.insert([dataset.corpus])

    coverage: dict[str, dict[str, float]] = {}
    latency: dict[str, dict[str, dict]] = {}
    graphs: dict[str, dict] = {}
    for m in BASELINES:
        for b in BUDGETS:
            r = evaluate(rag, dataset, method=m, budget=b)
            coverage.setdefault(m, {})[str(b)] = r.coverage
            latency.setdefault(m, {})[str(b)] = r.latency_ms
        print(f"{m:<36}" + "".join(f"{100 * coverage[m][str(b)]:>8.1f}" for b in BUDGETS))
    for name in names:
        settings = base.replace(**VARIANTS[name])
        rag.settings = settings
        s_name = stage(settings)
        if stage_record(rag.index.tables, s_name) is not None:  # time a fresh build
            with rag.index.tables.write() as txn:
                txn.delete(s_name.encode(), db=rag.index.tables.db["stages"])
        t = time.perf_counter()
        rec = build_concept_graph(rag.index, settings)
        graphs[name.strip()] = {**rec, "wall_seconds": time.perf_counter() - t, "settings": VARIANTS[name]}
        print(
            f"{name.strip()}: {rec['concepts']:,} concepts, {rec['candidate_pairs']:,} pairs co-occurring ≥ θ_co, "
            f"{rec['edges']:,} edges, built in {graphs[name.strip()]['wall_seconds']:.1f}s"
        )
        for b in BUDGETS:
            r = evaluate(rag, dataset, method="concept", budget=b)
            coverage.setdefault(name.strip(), {})[str(b)] = r.coverage
            latency.setdefault(name.strip(), {})[str(b)] = r.latency_ms
        graphs[name.strip()]["paths_12000"] = _paths(rag, dataset)
        print(
            f"{name:<36}"
            + "".join(f"{100 * coverage[name.strip()][str(b)]:>8.1f}" for b in BUDGETS)
            + f"   median {latency[name.strip()]['12000']['median']:.0f} ms"
        )
    print()
    head = f"{'Coverage % (musique/paper, 500 q)':<36}" + "".join(f"{b:>8,}" for b in BUDGETS) + f"{'edges':>10}{'build s':>9}"
    print(head)
    print("-" * len(head))
    for m in BASELINES:
        print(f"{'edgerag ' + m:<36}" + "".join(f"{100 * coverage[m][str(b)]:>8.1f}" for b in BUDGETS))
    for name in names:
        g = graphs[name.strip()]
        print(
            f"{name:<36}"
            + "".join(f"{100 * coverage[name.strip()][str(b)]:>8.1f}" for b in BUDGETS)
            + f"{g['edges']:>10,}{g['wall_seconds']:>9.1f}"
        )
    for ref, figs in BAR.items():
        print(f"{ref:<36}" + "".join(f"{v:>8.1f}" for v in figs))
    print("\nWhere the 12,000-token contexts came from (share of units by path; queries that used the BFS):")
    for name in names:
        p = graphs[name.strip()]["paths_12000"]
        print(
            f"{name:<36}"
            + "  ".join(f"{k} {100 * v:.1f}%" for k, v in p["unit_share"].items())
            + f"  | BFS reached in {100 * p['queries_with_bfs']:.1f}% of queries"
        )
    print(f"{'G2ConS paper, Concept CR (its sample)':<36}{'':>16}{PAPER_CONCEPT_CR:>8.1f}")
    write_result(
        args.out,
        {
            "benchmark": "g2cons_paper",
            "dataset": dataset.name,
            "questions": len(dataset.questions),
            "coverage": coverage,
            "latency_ms": latency,
            "concept_graphs": graphs,
            "paper_g2cons_concept_cr": PAPER_CONCEPT_CR,
            "reference_here": {k: dict(zip(map(str, BUDGETS), v)) for k, v in BAR.items()},
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
