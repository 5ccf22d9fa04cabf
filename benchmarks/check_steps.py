"""What each step of the answer check (answer/check.py) does to answers: for every question
asked, the short answer before the check and after it, and the step that decided (issue #62,
item 4: "a step that costs more right answers than it saves wrong ones changes or goes").

    flock /tmp/edgerag-cpu.lock .venv/bin/python benchmarks/check_steps.py --limit 30
    .venv/bin/python benchmarks/check_steps.py --questions benchmarks/office/questions.jsonl --docs <folder> ...

Questions are ConditionalQA-shaped JSON lines (``text`` or ``question``, ``answers``, ``kind``:
``yesno``, ``span`` or ``none``; the office set's ``answer_type`` "yes-no" reads as ``yesno``).
The documents in ``--docs`` are indexed once into ``--index`` (kept between runs, so the LLM cache
makes a rerun of unchanged reads free). Each question is asked at every default, as
``edgerag query --answer`` asks it.

Per step, counted over the questions it decided (the check's step is the one ``Answer.rules``
records; a question no check step touched is ``kept``):

* ``right→abstained``: a right answer the step dropped (over-abstention: its cost);
* ``wrong→abstained``: a wrong answer it stopped (its gain);
* ``wrong→right`` / ``right→wrong``: an answer it changed, for the better or the worse;
* ``wrong→wrong``: changed, still wrong.

Scoring is the office benchmark's (benchmarks/office.py `is_right`: normalised, contained
within a few words; a yes/no by its first word); a question no document answers (``none``, or no
answers) is right when abstained.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from office import abstained, answer_model, is_right

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "conditionalqa" / "dev-open"
CHECK_STEPS = ("said", "kind", "stands", "about", "asked", "subject", "sides", "polarity", "form", "rule", "items")


def kind_of(q: dict) -> str:
    if q.get("kind"):
        return q["kind"]
    if not q.get("answers"):
        return "none"
    return "yesno" if q.get("answer_type") == "yes-no" else "span"


def outcome(q: dict, short: str, dropped: bool) -> str:
    """right | abstained | wrong of one short answer."""
    if kind_of(q) == "none" or not q.get("answers"):
        return "right" if dropped else "wrong"
    if dropped:
        return "abstained"
    return "right" if is_right(short, q["answers"], q.get("reject", []), yes_no=kind_of(q) == "yesno") else "wrong"


def deciding_step(ans) -> tuple[str, str]:
    """(the check step that changed or dropped the answer, the answer before the check); ("", short) when none did."""
    steps = [r for r in ans.rules if r.get("rule") in CHECK_STEPS]
    if not steps and getattr(ans, "abstained", False) and ans.rules[-1:] != [] and ans.rules[-1].get("rule") == "about":
        return "about", ""  # a long answer refused before the model wrote (check.py `unnamed`)
    if not steps and getattr(ans, "abstained", False):
        return "said", ""  # the model said it found nothing (no rule recorded: nothing was changed)
    if not steps:
        return "", ans.short
    return steps[-1]["rule"], steps[0]["before"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", default=str(DATA / "docs"))
    ap.add_argument("--questions", default=str(DATA / "questions.jsonl"))
    ap.add_argument("--index", default="/tmp/edgerag-check-steps")
    ap.add_argument("--model", default="0.5b", help="0.5b, 1.5b, auto, or a GGUF path")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--every", type=int, default=1, help="ask every n-th question (a spread over the pages)")
    ap.add_argument("--kind", default="", help="ask only questions of this kind (yesno, span, none)")
    ap.add_argument("--out", default="")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a setting for this run (answer_section=true)")
    args = ap.parse_args()

    from edgerag import EdgeRAG

    with open(args.questions, encoding="utf-8") as f:
        questions = [json.loads(line) for line in f if line.strip()]
    if args.kind:
        questions = [q for q in questions if kind_of(q) == args.kind]
    questions = questions[args.skip :: args.every][: args.limit]
    fresh = not Path(args.index).exists()
    extra = {
        k: json.loads(v) if v in ("true", "false") or v.replace(".", "").isdigit() else v for k, v in (x.split("=", 1) for x in args.set)
    }
    rag = EdgeRAG(args.index, answer_model=answer_model(args.model), **extra)
    if fresh:
        t0 = time.perf_counter()
        rag.insert([args.docs])
        print(f"indexed {args.docs} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    rows, steps = [], defaultdict(Counter)
    for q in questions:
        text = q.get("text") or q["question"]
        t0 = time.perf_counter()
        ctx = rag.retrieve(text)
        plan = rag.plan_answer(text, ctx)
        ans = rag.answer(text, ctx, plan=plan)
        step, before = deciding_step(ans)
        dropped = bool(abstained(ans))
        after = outcome(q, ans.short, dropped)
        was = outcome(q, before, not before.strip()) if step else after
        steps[step or "kept"][f"{was}→{after}" if step else after] += 1
        rows.append(
            {
                "id": q.get("id", ""),
                "kind": kind_of(q),
                "question": text,
                "answers": q.get("answers", []),
                "short": ans.short,
                "text": ans.text,
                "before_check": before,
                "step": step,
                "why": ans.reason,
                "was": was,
                "outcome": after,
                "seconds": round(time.perf_counter() - t0, 1),
                "cached": ans.cached,
            }
        )
        print(f"{q.get('id', '')}\t{after}\t{step or '-'}\t{ans.short[:50]!r}\t← {before[:40]!r}\t{ans.reason[:90]}", flush=True)
    totals = Counter(r["outcome"] for r in rows)
    answerable = [r for r in rows if r["kind"] != "none"]
    over = sum(r["outcome"] == "abstained" for r in answerable)
    print(f"\n{len(rows)} questions: right {totals['right']}, abstained {totals['abstained']}, wrong {totals['wrong']}")
    print(f"over-abstention: {over} of {len(answerable)} answerable")
    by_kind = defaultdict(Counter)
    for r in rows:
        by_kind[r["kind"]][r["outcome"]] += 1
    print("\n| kind | right | abstained | wrong |\n|---|---:|---:|---:|")
    for k, c in sorted(by_kind.items()):
        print(f"| {k} | {c['right']} | {c['abstained']} | {c['wrong']} |")
    print("\n| step | right→abstained | wrong→abstained | wrong→right | right→wrong | wrong→wrong | kept right | kept wrong |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for s, c in sorted(steps.items()):
        print(
            f"| {s} | {c['right→abstained']} | {c['wrong→abstained']} | {c['wrong→right']} | {c['right→wrong']} | {c['wrong→wrong']} "
            f"| {c['right'] + c['right→right']} | {c['wrong']} |"
        )
    if args.out:
        from common import write_result

        write_result(
            args.out,
            {
                "args": vars(args),
                "totals": dict(totals),
                "over_abstention": over,
                "steps": {k: dict(v) for k, v in steps.items()},
                "rows": rows,
                "models": os.environ.get("EDGERAG_MODELS", ""),
            },
        )
    rag.close()


if __name__ == "__main__":
    main()
