"""bridge-ppr's walk pushed locally against iterated over the whole graph (issue #32 item 3).

At 100,000 passages bridge-ppr spent 60 % of its 279 ms p50 in power iteration: ~43 sparse
products over every link of the corpus per query. ``bridge_ppr_eps`` ε > 0 pushes the walk out
from the seeds instead (graph/pagerank.py `ppr_push`), and the fused head is chosen by partial
selection. This measures what that changes where it must change nothing: Coverage and Recall@5
of `bridge-ppr` at λ 2,000 and 12,000 on the three dev splits and musique/paper, for ε in
``--eps`` (0 = power iteration), beside the figures committed before the change
(benchmarks/results/embedder.json, onnx-int8 column: the same indexes, the same loop); how
many of the exact walk's top-20 passages the pushed walk also ranks top-20; and the ranking's
median latency. Query latency at 100,000 passages is benchmarks/scale.py's.

    .venv/bin/python benchmarks/ppr_push.py [--eps 0,1e-5,1e-6,1e-7]

Indexes are embedder.py's onnx-int8 ones (.edgerag/bench/NAME-int8), built here when missing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, recall_at_k
from edgerag.eval.runner import ensure_indexed
from edgerag.graph.links import load_links
from edgerag.retrieve.bridge import ppr_scores, top_rows

CORPORA = {  # name in embedder.json → (data folder, index)
    "musique dev": ("musique/dev", ".edgerag/bench/musique-dev-int8"),
    "2wiki dev": ("2wikimultihopqa/dev", ".edgerag/bench/2wikimultihopqa-dev-int8"),
    "hotpotqa dev": ("hotpotqa/dev", ".edgerag/bench/hotpotqa-dev-int8"),
    "musique/paper": ("musique/paper", ".edgerag/bench/musique-paper-int8"),
}
BUDGETS = (2_000, 12_000)
TOP = 20


def before(name: str, budget: int) -> float | None:
    """bridge-ppr's Coverage on the onnx-int8 index as committed before the change."""
    path = Path(__file__).parent / "results" / "embedder.json"
    try:
        return json.loads(path.read_text())["quality"][name][str(budget)]["bridge-ppr"]["onnx-int8"]["coverage"]
    except (OSError, KeyError):
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--eps", default=f"0,{Settings().bridge_ppr_eps:g}", help="ε values, comma-separated (0 = power iteration)")
    ap.add_argument("--out", default="benchmarks/results/ppr_push.json")
    args = ap.parse_args()
    eps_values = [float(e) for e in args.eps.split(",")]
    results: dict[str, dict] = {}
    for name, (folder, path) in CORPORA.items():
        dataset = load_dataset(f"{args.data}/{folder}")
        rag = EdgeRAG(path, Settings(progress=sys.stderr.isatty(), embed_backend="onnx-int8"))
        ensure_indexed(rag, dataset)
        g = load_links(rag.index, rag.settings)
        qvs = rag.embedder.encode([q.question for q in dataset.questions])
        base = rag.settings
        exact_top = [
            top_rows(ppr_scores(g, q.question, qv, base.replace(bridge_ppr_eps=0)), TOP)
            for q, qv in zip(dataset.questions, qvs, strict=True)
        ]
        row: dict[str, dict] = {"passages": len(g.ids), "links": int(g.K.nnz)}
        for eps in eps_values:
            st = base.replace(bridge_ppr_eps=eps)
            rag.settings = st
            out: dict = {}
            ms, agree = [], []
            for q, qv, top in zip(dataset.questions, qvs, exact_top, strict=True):
                t = time.perf_counter()
                walk = ppr_scores(g, q.question, qv, st)
                ms.append(1000 * (time.perf_counter() - t))
                agree.append(len(set(top_rows(walk, TOP).tolist()) & set(top.tolist())) / TOP)
            out["walk_ms_p50"] = statistics.median(ms)
            out["top20_agreement"] = 100 * float(np.mean(agree))
            for budget in BUDGETS:
                cov, r5 = [], []
                for q in dataset.questions:
                    ctx = rag.retrieve(q.question, method="bridge-ppr", budget=budget)
                    cov.append(coverage(q.answers, ctx.text()))
                    r = recall_at_k(q.supporting_ids, ctx.doc_ids, 5)
                    if r is not None:
                        r5.append(r)
                out[str(budget)] = {"coverage": 100 * float(np.mean(cov)), "recall_at_5": 100 * float(np.mean(r5)) if r5 else None}
            row[f"eps={eps:g}"] = out
            print(
                f"{name:<14} ε {eps:<6g} walk p50 {out['walk_ms_p50']:6.1f} ms  top-{TOP} agreement {out['top20_agreement']:5.1f} %  "
                + "  ".join(
                    f"λ {b:,} Coverage {out[str(b)]['coverage']:5.1f} (before {before(name, b) or float('nan'):5.1f})" for b in BUDGETS
                ),
                flush=True,
            )
        row["before"] = {str(b): before(name, b) for b in BUDGETS}
        results[name] = row
        rag.close()
    write_result(args.out, {"benchmark": "ppr_push", "budgets": list(BUDGETS), "corpora": results})
    return 0


if __name__ == "__main__":
    sys.exit(main())
