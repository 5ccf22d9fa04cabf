"""Do LLM-extracted entity names make better link keys than capitalised spans? (issue #7)

On `musique/dev` every passage has been through both LLM extractions that edgerag has (TERAG's
names, and the KG extraction at β = 1; default 0.5B model), so the bridges can link passages
through the names the model wrote (kinds ``terag`` and ``kg``) instead of, or beside, the
LLM-free spans and numbers. Everything else stays at the defaults. Recall@5/10 and Coverage at
2,000 / 4,000 / 12,000 tokens per key set, for `bridge-ppr` and `bridge` with the default fusion
and for `bridge-ppr` unfused (where the keys alone decide). No LLM call is made: the names are
read from the index; a passage without them is reported, not extracted.

    .venv/bin/python benchmarks/bridge_llm_keys.py [--data ../shared/data/musique/dev]

Reuses .edgerag/bench/musique-dev (built by benchmarks/terag_tokens.py and the KG sweep).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, recall_at_k
from edgerag.graph.links import load_links

BUDGETS = (2_000, 4_000, 12_000)
KEY_SETS = ("span,num", "terag", "kg", "span,num,terag", "span,num,kg")
RUNS = {  # label → (method, settings changes)
    "bridge-ppr (default fusion)": ("bridge-ppr", {}),
    "bridge-ppr (unfused)": ("bridge-ppr", {"bridge_fusion": "none"}),
    "bridge (default fusion)": ("bridge", {}),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/musique/dev")
    ap.add_argument("--index", default=".edgerag/bench/musique-dev")
    ap.add_argument("--out", default="benchmarks/results/bridge_llm_keys.json")
    args = ap.parse_args()
    dataset = load_dataset(args.data)
    rag = EdgeRAG(args.index, Settings(progress=False))
    with rag.index.tables.read() as txn:
        covered = {t: rag.index.tables.count(txn, t) for t in ("names", "extractions")}
    chunks = len(rag.index.vectors["chunks"])
    print(f"{chunks:,} passages; LLM names for {covered['names']:,} (terag) and {covered['extractions']:,} (kg)")
    g = load_links(rag.index, rag.settings)
    live = {k: int((g.kinds == k).sum()) for k in ("span", "num", "word", "terag", "kg")}
    print(f"live keys by kind: {live}")
    base = rag.settings
    results: dict[str, dict] = {}
    print(f"{'method · link keys':<44}{'R@5':>8}{'R@10':>8}" + "".join(f"{b:>8,}" for b in BUDGETS))
    for label, (method, changes) in [
        ("text", ("text", {})),
        *((f"{r} · {k}", (m, {**c, "link_kinds": k})) for r, (m, c) in RUNS.items() for k in KEY_SETS),
    ]:
        rag.settings = base.replace(**changes)
        cov = np.zeros((len(dataset.questions), len(BUDGETS)))
        r5, r10 = [], []
        for i, q in enumerate(dataset.questions):
            for j, b in enumerate(BUDGETS):
                ctx = rag.retrieve(q.question, method=method, budget=b)
                cov[i, j] = coverage(q.answers, ctx.text())
            r5.append(recall_at_k(q.supporting_ids, ctx.doc_ids, 5))
            r10.append(recall_at_k(q.supporting_ids, ctx.doc_ids, 10))
        results[label] = {
            "recall_at_5": float(np.mean(r5)),
            "recall_at_10": float(np.mean(r10)),
            "coverage": dict(zip(map(str, BUDGETS), map(float, cov.mean(axis=0)))),
        }
        r = results[label]
        print(
            f"{label:<44}{100 * r['recall_at_5']:>8.1f}{100 * r['recall_at_10']:>8.1f}"
            + "".join(f"{100 * v:>8.1f}" for v in r["coverage"].values()),
            flush=True,
        )
    write_result(
        args.out,
        {
            "benchmark": "bridge_llm_keys",
            "dataset": dataset.name,
            "questions": len(dataset.questions),
            "passages": chunks,
            "llm_names_for": covered,
            "live_keys": live,
            "results": results,
        },
    )
    rag.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
