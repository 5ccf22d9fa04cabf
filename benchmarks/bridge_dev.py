"""Do entity bridges generalise beyond MuSiQue? Recall@5/10 and Coverage on the three `dev`
splits (MuSiQue, 2WikiMultihopQA, HotpotQA), beside dense, with the defaults chosen on
musique/paper (benchmarks/bridge_paper.py). Writes JSON.

    .venv/bin/python benchmarks/bridge_dev.py [--budgets 12000]
    .venv/bin/python benchmarks/bridge_dev.py --budgets 2000,4000 --out …   # issue #31 item 4
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, recall_at_k
from edgerag.eval.runner import ensure_indexed

SPLITS = ("musique", "2wikimultihopqa", "hotpotqa")
METHODS = {  # label → (method, settings changes); the defaults fuse with dense + BM25
    "text": ("text", {}),
    "bridge (unfused)": ("bridge", {"bridge_fusion": "none"}),
    "bridge + RRF(dense+bm25) (default)": ("bridge", {}),
    "bridge-ppr (unfused)": ("bridge-ppr", {"bridge_fusion": "none"}),
    "bridge-ppr + RRF(dense)": ("bridge-ppr", {"bridge_fusion": "dense"}),
    "bridge-ppr + RRF(dense+bm25) (default)": ("bridge-ppr", {}),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--budgets", default="12000", help="λ values, comma-separated")
    ap.add_argument("--out", default="benchmarks/results/bridge_dev.json")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    methods = dict(METHODS)
    results: dict[str, dict] = {}
    for name in SPLITS:
        dataset = load_dataset(f"{args.data}/{name}/dev")
        rag = EdgeRAG(f".edgerag/bench/{name}-dev", Settings(progress=sys.stderr.isatty()))
        ensure_indexed(rag, dataset)
        base = rag.settings
        for budget in budgets:
            for label, (method, changes) in methods.items():
                rag.settings = base.replace(**changes)
                cov, r5, r10 = [], [], []
                for q in dataset.questions:
                    ctx = rag.retrieve(q.question, method=method, budget=budget)
                    cov.append(coverage(q.answers, ctx.text()))
                    r5.append(recall_at_k(q.supporting_ids, ctx.doc_ids, 5))
                    r10.append(recall_at_k(q.supporting_ids, ctx.doc_ids, 10))
                results.setdefault(str(budget), {}).setdefault(name, {})[label] = {
                    "coverage": float(np.mean(cov)),
                    "recall_at_5": float(np.mean(r5)),
                    "recall_at_10": float(np.mean(r10)),
                }
        rag.close()
    width = max(map(len, methods)) + 2
    print(f"{'λ':>7}  {'dev split':<17}{'method':<{width}}{'Recall@5':>9}{'Recall@10':>10}{'Coverage':>9}")
    for budget, splits in results.items():
        for name, rows in splits.items():
            for label, r in rows.items():
                print(
                    f"{int(budget):>7,}  {name:<17}{label:<{width}}"
                    f"{100 * r['recall_at_5']:>9.1f}{100 * r['recall_at_10']:>10.1f}{100 * r['coverage']:>9.1f}"
                )
    write_result(args.out, {"benchmark": "bridge_dev", "budgets": budgets, "results": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
