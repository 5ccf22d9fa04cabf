"""G2ConS with the default local model on musique/dev (κ = 0.2 by default).

Builds the core KG on the ⌈κ·n⌉ chunks ranked by concept PageRank (chunks a KET-RAG core
already extracted are reused, not paid twice), then compares Coverage and Recall@5 of
`text`, `keyword`, `concept`, the core KG alone, `g2cons` and `ket` (β = κ, when built) at
the given budget, each with the extraction tokens of the core it reads, and `g2cons` at
smaller λ_w (the core KG's share of the budget). Writes JSON.

    .venv/bin/python benchmarks/g2cons_dev.py [--data ../shared/data/musique/dev] [--kappa 0.2] [--budget 12000]

Reuses .edgerag/bench/musique-dev (benchmarks/ket_dev.py builds its β = 0.2 KET core).
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
from edgerag.graph.kg import stage_name
from edgerag.store.stages import stage_record


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/musique/dev")
    ap.add_argument("--index", default=".edgerag/bench/musique-dev")
    ap.add_argument("--kappa", type=float, default=0.2)
    ap.add_argument("--budget", type=int, default=12_000)
    ap.add_argument("--out", default="benchmarks/results/g2cons_dev.json")
    args = ap.parse_args()

    dataset = load_dataset(args.data)
    base = Settings(progress=sys.stderr.isatty(), kappa=args.kappa, beta=args.kappa)
    rag = EdgeRAG(args.index, base)
    rag.insert([dataset.corpus])
    plan = rag.plan("g2cons")
    print(plan.summary())
    t = time.perf_counter()
    built = rag.build("g2cons")
    build_s = time.perf_counter() - t
    core = core_chunks(rag.index, args.kappa, "concept", base)
    ket_core = set(core_chunks(rag.index, args.kappa, "pagerank", base))
    spent = extraction_tokens(rag, core)
    print(
        f"core: {len(core)} chunks, {len(set(core) & ket_core)} shared with the KET-RAG β={args.kappa:g} core; "
        f"its extraction cost {spent['input']:,} input / {spent['output']:,} output tokens "
        f"({spent['fresh_output']:,} of those output tokens fresh from the model, the rest cache hits)"
    )

    rows = {  # label → (method, settings, the core whose extraction tokens it reads)
        "text": ("text", base, None),
        "keyword": ("keyword", base, None),
        "concept": ("concept", base, None),
        "core KG alone (κ)": ("skeleton", base.replace(core_selection="concept"), core),
        "g2cons": ("g2cons", base, core),
        # λ_w: how much of λ the core KG may take (the paper's 0.6 first)
        "g2cons (λ_w=0.4)": ("g2cons", base.replace(lambda_w=0.4), core),
        "g2cons (λ_w=0.2)": ("g2cons", base.replace(lambda_w=0.2), core),
    }
    if stage_record(rag.index.tables, stage_name("pagerank", args.kappa)) is not None:
        rows[f"ket (β={args.kappa:g})"] = ("ket", base, sorted(ket_core))
    results = {}
    for label, (method, settings, reads) in rows.items():
        rag.settings = settings
        r = evaluate(rag, dataset, method=method, budget=args.budget)
        tok = extraction_tokens(rag, reads) if reads else {"input": 0, "output": 0}
        results[label] = {
            "method": method,
            "coverage": r.coverage,
            "recall_at_5": r.recall_at_5,
            "latency_ms": r.latency_ms,
            "index_llm_input": tok["input"],
            "index_llm_output": tok["output"],
        }
    print(
        f"\n{'musique/dev, λ=' + format(args.budget, ','):<22}{'Coverage %':>11}{'Recall@5 %':>11}{'index LLM in':>14}{'index LLM out':>14}{'median ms':>10}"
    )
    for label, r in results.items():
        print(
            f"{label:<22}{100 * r['coverage']:>11.1f}{100 * (r['recall_at_5'] or 0):>11.1f}"
            f"{r['index_llm_input']:>14,}{r['index_llm_output']:>14,}{r['latency_ms']['median']:>10.0f}"
        )
    write_result(
        args.out,
        {
            "benchmark": "g2cons_dev",
            "dataset": dataset.name,
            "kappa": args.kappa,
            "budget": args.budget,
            "chunks": plan.chunks,
            "core_chunks": len(core),
            "shared_with_ket_core": len(set(core) & ket_core),
            "core_extraction_tokens": spent,
            "plan": plan.to_dict(),
            "extraction": built.get("extraction"),
            "kg": built.get("kg"),
            "concepts": built.get("concepts"),
            "build_seconds": build_s,
            "results": results,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
