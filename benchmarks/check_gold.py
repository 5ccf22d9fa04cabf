"""What the reader's check (answer/check.py) costs a right answer, without the model: each dev
question's gold answer is put through the check as if the model had replied it, over the
evidence the plan has the model read at every default. A gold answer the check drops or
changes is a right answer it would lose (an upper bound: a chain question's steps are read
with their own evidence, here the whole question's). Prints a table per split and writes JSON.

    .venv/bin/python benchmarks/check_gold.py                 # the three dev splits, 100 questions each
    .venv/bin/python benchmarks/check_gold.py --limit 30 --splits 2wikimultihopqa
    .venv/bin/python benchmarks/check_gold.py --office benchmarks/results/office_1_5b_unchecked.json

``--office RESULTS``: the office benchmark's questions (benchmarks/office.py, its index built),
each through the check twice, without the model: its gold answer (kept?) and the answer an
unchecked run replied (RESULTS: a wrong one dropped or mended, a right one kept?), over the
evidence the plan reads; the same code, office questions for the dev splits' gold.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.answer.check import check_answer
from edgerag.answer.in_code import decide_in_code
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, exact_match
from edgerag.eval.runner import ensure_indexed

SPLITS = ("musique", "2wikimultihopqa", "hotpotqa")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--splits", default=",".join(SPLITS))
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--out", default="benchmarks/results/check_gold.json")
    ap.add_argument("--office", metavar="RESULTS", help="check the office benchmark's gold and RESULTS' unchecked answers instead")
    args = ap.parse_args()
    if args.office:
        return check_office(Path(args.office))
    runs = []
    for split in args.splits.split(","):
        dataset = load_dataset(Path(args.data) / split / "dev", limit=args.limit)
        rag = EdgeRAG(f".edgerag/bench/{split}-dev", Settings(progress=False))
        ensure_indexed(rag, dataset)
        t0 = time.perf_counter()
        rows, steps = [], Counter()
        for q in dataset.questions:
            ctx = rag.retrieve(q.question)
            plan = rag.plan_answer(q.question, ctx)
            in_code = plan.decision is not None or decide_in_code(q.question, ctx.units, rag.passages_named) is not None
            read = " ".join(u.text for u in plan.units)
            gold = q.answers[0]
            row = {"id": q.id, "question": q.question, "gold": gold, "read": coverage(q.answers, read), "in_code": in_code}
            if row["read"] and not in_code:
                asked = plan.hop.question if plan.hop is not None else q.question
                checked = check_answer(gold, gold, asked, plan.units)
                row.update(kept=not checked.abstained and bool(exact_match(checked.short, q.answers)), step=checked.step, why=checked.why)
                if not row["kept"]:
                    steps[checked.step or "changed"] += 1
                    print(f"{split}: {q.question}\n    gold {gold!r}: {checked.step} — {checked.why}", flush=True)
            rows.append(row)
        checked_rows = [r for r in rows if "kept" in r]
        lost = [r for r in checked_rows if not r["kept"]]
        runs.append(
            {
                "split": split,
                "questions": len(rows),
                "read": sum(r["read"] for r in rows),
                "checked": len(checked_rows),
                "lost": len(lost),
                "by_step": dict(steps),
                "seconds": round(time.perf_counter() - t0, 1),
                "rows": rows,
            }
        )
        rag.close()
    print("\n| split | questions | gold read | checked (read, not decided in code) | a right answer lost | by step |")
    print("|---|---:|---:|---:|---:|---|")
    for r in runs:
        by = ", ".join(f"{k} {v}" for k, v in sorted(r["by_step"].items())) or "–"
        print(f"| {r['split']} | {r['questions']} | {r['read']} | {r['checked']} | {r['lost']} | {by} |")
    write_result(Path(args.out), {"benchmark": "check_gold", "limit": args.limit, "runs": runs})
    return 0


def check_office(results: Path) -> int:
    """The office questions' gold and unchecked answers through the check (the module doc)."""
    import json

    from office import load_questions, score_row

    replied = {r["id"]: r for r in json.loads(results.read_text())["rows"]}
    rag = EdgeRAG(".edgerag/bench/office", Settings(progress=False))
    tally = Counter()
    for q in load_questions():
        r = replied.get(q["id"])
        asked = r["asked"] if r else q["question"]
        ctx = rag.retrieve(asked)
        plan = rag.plan_answer(asked, ctx)
        decided = plan.decision or decide_in_code(asked, ctx.units, rag.passages_named)
        if decided is not None:
            answer = getattr(decided, "answer", "")
            row = score_row({"short": answer, "text": answer, "abstained": "" if answer else "flag"}, q)
            tally[f"in code → {row['verdict']}"] += 1
            if row["verdict"] != "right":
                print(f"{q['id']} in code {answer!r} → {row['verdict']}: {getattr(decided, 'reason', '')[:120]}\n    {asked}")
            continue
        question = plan.hop.question if plan.hop is not None else asked
        for who, short in (("gold", (q["answers"] or [""])[0]), ("reply", r["short"] if r else "")):
            if not short:
                continue
            checked = check_answer(short, short, question, plan.units)
            row = score_row({"short": checked.short, "text": checked.short, "abstained": "flag" if checked.abstained else ""}, q)
            was = "right" if who == "gold" else r["verdict"]
            tally[f"{who} {was} → {row['verdict']} ({checked.step or 'kept'})"] += 1
            if row["verdict"] == "wrong" or (was == "right" and row["verdict"] != "right"):
                print(f"{q['id']} {who} {short!r} → {row['verdict']} {checked.short!r}: {checked.step} — {checked.why}\n    {question}")
    rag.close()
    for k, v in sorted(tally.items()):
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
