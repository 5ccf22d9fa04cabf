"""The papers' LLM-made graphs built by each model: do they beat `text` and `bridge-ppr`? (#50)

For one dev split and each extracting model, builds KET-RAG's skeleton KG over its PageRank
core (β) and G2ConS's KG over its concept core (κ), both read by LightRAG's modes too, then
measures Coverage and Recall@5 at every λ beside the LLM-free `text` and `bridge-ppr`, with the
index tokens and minutes each model spent. Each model extracts into its own copy of the split's
index (an index holds one extraction per chunk), so neither overwrites the other's graph; the
copy starts from ``.edgerag/bench/<split>`` when that is built, else the split is indexed.
The result file is rewritten after every stage, so a long run that is stopped keeps what it
measured; run it again and the builds resume where they stopped.

    .venv/bin/python benchmarks/papers_by_model.py --data ../shared/data/2wikimultihopqa/dev \
        [--models qwen2.5-coder-0.5b-instruct-q4_k_m,qwen2.5-coder-1.5b-instruct-q4_k_m] \
        [--beta 0.2] [--kappa 0.2] [--budgets 2000,4000,12000]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from common import extraction_tokens, write_result

from edgerag import EdgeRAG, Settings
from edgerag.build import hms, llm_chunks
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage
from edgerag.eval.runner import evaluate

FREE = ("text", "bridge-ppr")
BUILT = (("ket", ("skeleton", "ket", "lightrag-local", "lightrag-hybrid")), ("g2cons", ("g2cons",)))
"""(the method whose build makes the KG, the methods that read that KG)."""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/2wikimultihopqa/dev")
    ap.add_argument("--models", default="qwen2.5-coder-0.5b-instruct-q4_k_m,qwen2.5-coder-1.5b-instruct-q4_k_m")
    ap.add_argument("--beta", type=float, default=0.2)
    ap.add_argument("--kappa", type=float, default=0.2)
    ap.add_argument("--budgets", default="2000,4000,12000")
    ap.add_argument("--builds", default="ket,g2cons", help="which KGs to build (ket: β PageRank core; g2cons: κ concept core)")
    ap.add_argument("--out", help="default: benchmarks/results/papers_<dataset>_<split>.json")
    ap.add_argument("--table", help="only print the tables of this result file")
    args = ap.parse_args()
    if args.table:
        print(markdown(json.loads(Path(args.table).read_text())))
        return 0

    dataset = load_dataset(args.data)
    slug = dataset.name.replace("/", "-")
    out_path = args.out or f"benchmarks/results/papers_{dataset.name.replace('/', '_')}.json"
    budgets = [int(b) for b in args.budgets.split(",")]
    builds = [b for b in BUILT if b[0] in args.builds.split(",")]
    result: dict = {
        "benchmark": "papers_by_model",
        "dataset": dataset.name,
        "beta": args.beta,
        "kappa": args.kappa,
        "budgets": budgets,
        "models": {},
        "coverage": {},
    }

    if Path(out_path).exists():  # a rerun keeps what earlier runs measured of builds it finds done
        earlier = json.loads(Path(out_path).read_text())
        if earlier.get("dataset") == dataset.name and (earlier.get("beta"), earlier.get("kappa")) == (args.beta, args.kappa):
            result["models"] = earlier.get("models", {})

    def save() -> None:
        write_result(out_path, result)

    for spec in args.models.split(","):
        base = Path(f".edgerag/bench/{slug}")
        path = Path(f".edgerag/bench/{slug}-by-{spec}")
        if not path.exists() and base.exists():
            shutil.copytree(base, path)
        settings = Settings(progress=sys.stderr.isatty(), model=spec, beta=args.beta, kappa=args.kappa)
        rag = EdgeRAG(str(path), settings)
        rag.insert([dataset.corpus])
        m = result["models"].setdefault(spec, {"builds": {}})
        for builder, _readers in builds:
            plan = rag.plan(builder)
            print(plan.summary())
            t = time.perf_counter()
            built = rag.build(builder)
            seconds = time.perf_counter() - t
            _table, core, _made_by = llm_chunks(rag, builder)
            before = m["builds"].get(builder)
            tokens = extraction_tokens(rag, core)
            fresh = before is None or tokens["fresh_output"] > 0  # else re-parsed from the LLM cache: keep the run that paid
            m["builds"][builder] = {
                **(
                    {"plan": plan.to_dict(), "build_seconds": seconds, "extraction": built.get("extraction")}
                    if fresh
                    else {k: before[k] for k in ("plan", "build_seconds", "extraction")}  # the run that extracted
                ),
                "kg": {k: v for k, v in (built.get("kg") or {}).items() if k not in ("arrays",)},
                "tokens": tokens if fresh else {**tokens, "fresh_output": before["tokens"]["fresh_output"]},
                "core": {
                    **core_yield(rag, core),
                    **({} if fresh else _paid(before)),
                },
                "reach": core_reach(rag, dataset, core),
            }
            ex = built.get("extraction") or {}
            print(
                f"[{spec}] {builder}: {ex.get('extracted', 0)} extracted in {hms(seconds)}; "
                f"{ex.get('entities', 0)} entities, {ex.get('relations', 0)} relations, {len(ex.get('zero_yield', []))} zero-yield"
            )
            save()
        methods = [r for _b, readers in builds for r in readers]
        if not result["coverage"].get("text"):
            methods = list(FREE) + methods
        for method in methods:
            for budget in budgets:
                r = evaluate(rag, dataset, method=method, budget=budget)
                key = method if method in FREE else f"{method}@{spec}"
                result["coverage"].setdefault(key, {})[str(budget)] = {
                    "coverage": r.coverage,
                    "recall_at_5": r.recall_at_5,
                    "latency_ms": r.latency_ms,
                    "query_tokens": r.query_tokens,
                    "index_tokens": r.index_tokens,
                    "index_seconds": r.index_seconds,
                }
                print(f"{key:<50} λ={budget:>6}  coverage {100 * r.coverage:5.1f}  recall@5 {100 * (r.recall_at_5 or 0):5.1f}")
            save()
        rag.close()

    save()
    print()
    print(markdown(result))
    return 0


def short(spec: str) -> str:
    return spec.replace("qwen2.5-coder-", "").replace("-instruct-q4_k_m", "").upper()


def markdown(result: dict) -> str:
    """The result as docs/benchmarks.md's tables: Coverage per method, model and λ with the
    index cost, then what each model's extraction gave and how much evidence its core holds."""
    budgets = result["budgets"]
    builds = {b: readers for b, readers in BUILT}
    head = "| method | built by | " + " | ".join(f"Cov. λ={b:,}" for b in budgets) + " | R@5 λ=4,000 | index tokens in / out | index min |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for key, by in result["coverage"].items():
        method, _, spec = key.partition("@")
        cost = "0 / 0 | 0"
        if spec:
            builder = next(b for b, readers in builds.items() if method in readers)
            got = result["models"][spec]["builds"][builder]
            t = got["tokens"]
            seconds = got["core"]["seconds"] if "core" in got else got["extraction"]["seconds"]
            cost = f"{t['input']:,} / {t['output']:,} | {seconds / 60:.0f}"
        cells = " | ".join(f"{100 * by[str(b)]['coverage']:.0f}" for b in budgets)
        r5 = by.get("4000", by[str(budgets[0])])["recall_at_5"] or 0
        lines.append(f"| `{method}` | {short(spec) if spec else '–'} | {cells} | {100 * r5:.1f} | {cost} |")
    lines += [
        "",
        "| core | built by | chunks | entities | relations | zero-yield | names dropped | s / chunk | supporting passages in core | answer in a core passage |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for spec, m in result["models"].items():
        for builder, got in m["builds"].items():
            kg, reach = got["kg"], got.get("reach", {})
            ex = got.get("core") or {  # an older file: what its build extracted (a shared core's new chunks only)
                "chunks": got["extraction"]["extracted"],
                "zero_yield": len(got["extraction"]["zero_yield"]),
                "dropped": got["extraction"]["invented"],
                "seconds": got["extraction"]["seconds"],
            }
            n = got["tokens"]["chunks"]
            core = "β PageRank" if builder == "ket" else "κ concept"
            lines.append(
                f"| {core} | {short(spec)} | {n} | {kg.get('entities', 0):,} | {kg.get('relations', 0):,} | "
                f"{ex['zero_yield']} | {ex['dropped']} | {ex['seconds'] / max(ex.get('paid_chunks', ex['chunks']), 1):.1f} | "
                f"{100 * reach.get('supporting_in_core', 0):.0f} % | {100 * reach.get('answer_in_core', 0):.0f} % |"
            )
    return "\n".join(lines)


def _paid(before: dict) -> dict:
    """Model seconds of the run that extracted (a rerun re-parses from the LLM cache in no time),
    and over how many chunks (a shared core's build extracted only its new ones)."""
    core = before.get("core", {})
    if "paid_chunks" in core:
        return {"seconds": core["seconds"], "paid_chunks": core["paid_chunks"]}
    return {"seconds": before["extraction"]["seconds"], "paid_chunks": before["extraction"]["extracted"]}


def core_yield(rag: EdgeRAG, core: list[str]) -> dict[str, float]:
    """What the stored extractions of the core hold, whichever build made them: chunks with no
    entity, names dropped as not in their passage, unparsed lines, and model seconds."""
    recs = [r for r in rag.index.get_many("extractions", core) if r]
    return {
        "chunks": len(recs),
        "zero_yield": sum(not r["entities"] for r in recs),
        "dropped": sum(r.get("invented", 0) for r in recs),
        "unparsed": sum(r.get("unparsed", 0) for r in recs),
        "seconds": sum(r.get("seconds", 0.0) for r in recs),
    }


def core_reach(rag: EdgeRAG, dataset, core: list[str]) -> dict[str, float]:
    """How much of the questions' evidence the core holds, the ceiling of a method that reads
    the KG alone (`skeleton`, LightRAG's modes): the share of supporting passages in the core,
    of questions with every supporting passage there, and of questions whose answer is in a
    core passage's text."""
    texts = [(c or {}).get("text", "") for c in rag.index.get_many("chunks", core)]
    docs = {cid.rsplit(":", 1)[0] for cid in core}
    qs = dataset.questions
    shares = [sum(s in docs for s in q.supporting_ids) / len(q.supporting_ids) for q in qs if q.supporting_ids]
    return {
        "supporting_in_core": sum(shares) / len(shares) if shares else 0.0,
        "questions_all_in_core": sum(share == 1 for share in shares) / len(shares) if shares else 0.0,
        "answer_in_core": sum(any(coverage(q.answers, t) for t in texts) for q in qs) / len(qs),
    }


if __name__ == "__main__":
    sys.exit(main())
