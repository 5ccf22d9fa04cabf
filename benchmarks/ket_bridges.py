"""KET-RAG's channels fused with the bridges (#50): does the KG's θ·λ add anything to `bridge-ppr`?

KET-RAG (§4.2) gives θ·λ to KG local search on its skeleton and (1−θ)·λ to a keyword channel.
On the dev splits its keyword channel carries its Coverage (docs/benchmarks.md, "The papers'
graphs by model"), and `bridge-ppr` retrieves more than that channel with no LLM work. This
puts `bridge-ppr` in the keyword channel's place, both orders (the KG's lines first, as
KET-RAG does, or the bridges first), over a KG the benchmark `papers_by_model.py` built, and
measures Coverage and Recall@5 at every λ beside `text`, `ket` and `bridge-ppr` alone. No LLM
call: the skeleton is read as built.

    .venv/bin/python benchmarks/ket_bridges.py --data ../shared/data/2wikimultihopqa/dev \
        --index .edgerag/bench/2wikimultihopqa-dev-by-qwen2.5-coder-1.5b-instruct-q4_k_m [--beta 0.2]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.context import combine
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, recall_at_k
from edgerag.retrieve.bridge import bridge_units
from edgerag.retrieve.kg_search import kg_stage, kg_units


def fused(rag: EdgeRAG, query: str, budget: int, theta: float, kg_first: bool):
    """θ·λ of KG local search and (1−θ)·λ of `bridge-ppr`, in either order."""
    s = rag.settings
    qv = rag.embedder.encode_one(query)
    kg_budget = int(theta * budget)
    stage = kg_stage(rag.index, s.core_selection, s.beta, "ket")
    kg = (kg_units(rag.index, rag.embedder, query, kg_budget, s, stage, qv=qv, source="ket:kg"), kg_budget)
    bridges = (bridge_units(rag.index, query, qv, budget - kg_budget, s, "bridge-ppr"), budget - kg_budget)
    return combine(query, "ket-bridges", budget, [kg, bridges] if kg_first else [bridges, kg])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/2wikimultihopqa/dev")
    ap.add_argument("--index", required=True, help="an index whose β core's KG is built (papers_by_model.py)")
    ap.add_argument("--beta", type=float, default=0.2)
    ap.add_argument("--thetas", default="0.2,0.4")
    ap.add_argument("--budgets", default="2000,4000,12000")
    ap.add_argument("--out", help="default: benchmarks/results/ket_bridges_<dataset>_<split>.json")
    args = ap.parse_args()

    dataset = load_dataset(args.data)
    rag = EdgeRAG(args.index, Settings(progress=False, beta=args.beta))
    runs: list[tuple[str, object]] = [
        ("text", lambda q, b: rag.retrieve(q, method="text", budget=b)),
        ("bridge-ppr", lambda q, b: rag.retrieve(q, method="bridge-ppr", budget=b)),
        (f"ket θ={Settings().theta}", lambda q, b: rag.retrieve(q, method="ket", budget=b)),
    ]
    for theta in (float(t) for t in args.thetas.split(",")):
        runs.append((f"KG θ={theta} + bridge-ppr", lambda q, b, t=theta: fused(rag, q, b, t, kg_first=True)))
        runs.append((f"bridge-ppr + KG θ={theta}", lambda q, b, t=theta: fused(rag, q, b, t, kg_first=False)))
    rows = []
    budgets = [int(b) for b in args.budgets.split(",")]
    for name, retrieve in runs:
        row: dict = {"run": name}
        for budget in budgets:
            ctxs = [retrieve(q.question, budget) for q in dataset.questions]
            cov = sum(coverage(q.answers, c.text()) for q, c in zip(dataset.questions, ctxs)) / len(ctxs)
            recalls = [r for q, c in zip(dataset.questions, ctxs) if (r := recall_at_k(q.supporting_ids, c.doc_ids, 5)) is not None]
            row[str(budget)] = {"coverage": 100 * cov, "recall_at_5": 100 * sum(recalls) / max(len(recalls), 1)}
        rows.append(row)
        print(
            f"{name:<28}" + "".join(f"  λ={b:>6} cov {row[str(b)]['coverage']:5.1f} R@5 {row[str(b)]['recall_at_5']:5.1f}" for b in budgets)
        )
    rag.close()
    out = args.out or f"benchmarks/results/ket_bridges_{dataset.name.replace('/', '_')}.json"
    write_result(
        Path(out), {"benchmark": "ket_bridges", "index": args.index, "beta": args.beta, "questions": len(dataset.questions), "runs": rows}
    )
    print()
    print("| retriever | " + " | ".join(f"Cov. λ={b:,}" for b in budgets) + f" | R@5 λ={budgets[1]:,} |")
    print("|---|" + "---:|" * (len(budgets) + 1))
    for r in rows:
        print(
            f"| {r['run']} | "
            + " | ".join(f"{r[str(b)]['coverage']:.0f}" for b in budgets)
            + f" | {r[str(budgets[1])]['recall_at_5']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
