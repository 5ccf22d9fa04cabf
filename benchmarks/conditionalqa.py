"""ConditionalQA on real GOV.UK guidance pages (issue #62): the 35 pages in one index, each
question asked as a person types it (their situation, then the question), scored CRAG-style per
kind with over-abstention apart. Writes JSON and prints Markdown tables (docs/benchmarks.md,
"ConditionalQA: guidance pages").

    .venv/bin/python benchmarks/conditionalqa.py                  # 186 + our unanswerable, the 0.5B answering
    .venv/bin/python benchmarks/conditionalqa.py --model 1.5b     # the 1.5B answering
    .venv/bin/python benchmarks/conditionalqa.py --no-extra       # ConditionalQA's 186 only
    .venv/bin/python benchmarks/conditionalqa.py --answers-from benchmarks/results/conditionalqa_llamaindex_0_5b.json

Data: ../shared/data/conditionalqa/dev-open (186 dev questions on 35 pages; Sun, Cohen,
Salakhutdinov, ACL 2022; pages under the Open Government Licence v3.0), and
benchmarks/conditionalqa/unanswerable.jsonl: near misses written here over the same pages
(``written_by``: edgerag), each checked against the page text: no page answers them. The
pages are inserted from their folder through `EdgeRAG.insert` into ``<work>/index`` (kept, so a
rerun reuses it); each question's ``text`` is asked at every default (open_sets.py `ask`).

Scoring (cqa_metric.py): right / abstained / wrong per kind (yesno, span, none), answers only;
**over-abstention** = answerable questions answered "the documents do not say"; an
unanswerable question is right only when the answer says so. Beside it ConditionalQA's own EM /
F1 on the answers, and, apart, whether a reply states a condition ("if", "unless", …) where the
gold answer has conditions and where it has none. Seconds per answer: fresh model calls only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import open_sets as sets
from common import write_result
from cqa_metric import cqa_em_f1, gold_answers, gold_conditional, predicted_answers, states_condition, verdict

CQA = sets.DATA / "conditionalqa" / "dev-open"
EXTRA = sets.REPO / "benchmarks" / "conditionalqa" / "unanswerable.jsonl"
KINDS = ("yesno", "span", "none")


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_questions(extra: bool = True) -> list[dict]:
    """ConditionalQA's questions, then (``extra``) ours that no page answers."""
    return read_jsonl(CQA / "questions.jsonl") + (read_jsonl(EXTRA) if extra else [])


def score_row(row: dict, q: dict) -> dict:
    """An answer record (open_sets.py) scored against ``q``."""
    abst = sets.abstention(row)
    reply = row["short"] or row["text"]
    v = verdict(q, reply, abst)
    em, f1 = cqa_em_f1(predicted_answers(q, reply, abst), gold_answers(q))
    return {
        **row,
        "abstained": abst,
        "kind": q["kind"],
        "answerable": bool(gold_answers(q)),
        "written_by": q.get("written_by", "conditionalqa"),
        "answers": q["answers"],
        "verdict": v,
        "em": em,
        "f1": f1,
        "gold_conditional": gold_conditional(q),
        "states_condition": not abst and states_condition(row["text"]),
    }


def summarise(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    answered = [r for r in answerable if not r["abstained"]]
    conditions = {
        f"{'conditional' if c else 'unconditional'} gold": {
            "answered": len(part),
            "states a condition": sum(r["states_condition"] for r in part),
            "right": sum(r["verdict"] == "right" for r in part),
        }
        for c in (True, False)
        for part in [[r for r in answered if r["gold_conditional"] == c]]
    }
    means = ("em", "f1")
    return {
        "answerable": {**sets.group(answerable, "kind", KINDS, means), "all": sets.tally(answerable, means)},
        "unanswerable": {
            **{w: sets.tally([r for r in unanswerable if r["written_by"] == w], means) for w in ("conditionalqa", "edgerag")},
            "all": sets.tally(unanswerable, means),
        },
        "all": sets.tally(rows, means),
        "over_abstention_pct": 100 * sum(r["verdict"] == "abstained" for r in answerable) / max(len(answerable), 1),
        "wrong_pct": 100 * sum(r["verdict"] == "wrong" for r in rows) / max(len(rows), 1),
        "conditions": conditions,
        "seconds": sets.seconds(rows),
    }


def tables(s: dict) -> str:
    head = ["answerable", "n", "right", "over-abstained", "wrong", "CRAG %", "s / answer (p50)", "EM", "F1"]
    line = lambda name, t: [name, *sets.verdict_cells(t), f"{t['em']:.1f}", f"{t['f1']:.1f}"]  # noqa: E731
    a = sets.markdown(head, [line(k if k != "all" else "**all answerable**", t) for k, t in s["answerable"].items()])
    u = sets.markdown(
        ["unanswerable", "n", "said not in the documents (right)", "answered (wrong)", "s / answer (p50)"],
        [
            [
                {"conditionalqa": "ConditionalQA's", "edgerag": "written here", "all": "**all unanswerable**"}[k],
                t["n"],
                t["right"],
                t["wrong"],
                sets.verdict_cells(t)[-1],
            ]
            for k, t in s["unanswerable"].items()
            if t["n"]
        ],
    )
    c = sets.markdown(
        ["answered (answerable)", "n", "states a condition", "right"],
        [[k, v["answered"], v["states a condition"], v["right"]] for k, v in s["conditions"].items()],
    )
    return "\n\n".join((a, u, c))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sets.add_arguments(ap, "conditionalqa")
    ap.add_argument("--no-extra", action="store_true", help="leave out the unanswerable questions written here")
    args = ap.parse_args()
    questions = load_questions(not args.no_extra)
    by_id = {q["id"]: q for q in load_questions(True)}
    out = Path(args.out) if args.out else sets.default_out("conditionalqa", args.model)
    previous = sets.load(out)
    if args.answers_from:
        return compare(Path(args.answers_from), previous, by_id, questions)
    if args.rescore:
        rows = [score_row(r, by_id[r["id"]]) for r in previous.get("rows", []) if r["id"] in by_id]
        return report(out, {k: v for k, v in previous.items() if k not in ("rows", "summary")}, sets.ordered(rows, questions))

    rag = sets.open_index(Path(args.work) / "index", [CQA / "docs"], sets.answer_model(args.model))
    model = rag.answer_llm.llm.path.name
    kept = {r["id"]: r for r in previous.get("rows", [])} if previous.get("model") == model else {}
    ask_one = lambda q: score_row({"id": q["id"], "question": q["question"], **sets.ask(rag, q["text"])}, q)  # noqa: E731
    sets.run(questions[args.skip :][: args.limit], ask_one, kept, lambda q: q["kind"] + (" (ours)" if q.get("written_by") else ""))
    meta = {"benchmark": "conditionalqa", "system": "edgerag", "model": model, "answer_model": args.model, "why": rag.answer_choice.reason}
    meta.update(speeds=sets.speeds(rag) or previous.get("speeds"), host=sets.host(), extra=not args.no_extra)
    rag.close()
    return report(out, meta, sets.ordered(kept.values(), questions))


def report(out: Path, meta: dict, rows: list[dict]) -> int:
    s = summarise(rows)
    print()
    print(tables(s))
    a, secs = s["answerable"]["all"], s["seconds"]
    print(
        f"\n{len(rows)} answers; answerable right {a['right_pct']:.0f} %, over-abstention {s['over_abstention_pct']:.0f} %, "
        f"wrong {s['wrong_pct']:.0f} % of all; ConditionalQA EM / F1 (answers) {a['em']:.1f} / {a['f1']:.1f}; "
        f"seconds per answer p50 {secs['p50'] or 0:.1f}, p95 {secs['p95'] or 0:.1f} ({secs['timed']} timed); model {meta.get('model')}; host {meta.get('host', '')}"
    )
    write_result(out, {**meta, "summary": s, "rows": rows})
    return 0


def compare(path: Path, ours: dict, by_id: dict[str, dict], questions: list[dict]) -> int:
    """Another system's answer records scored as ours are, written beside them
    (``<file stem>_scored.json``) and printed with ours on the same questions."""
    theirs = sets.load(path)
    rows = sets.ordered([score_row(r, by_id[r["id"]]) for r in theirs.get("rows", []) if r["id"] in by_id], questions)
    meta = {k: v for k, v in theirs.items() if k not in ("rows", "summary", "machine", "when")}
    report(path.with_name(path.stem + "_scored.json"), meta, rows)
    ids = {r["id"] for r in rows}
    mine = [score_row(r, by_id[r["id"]]) for r in ours.get("rows", []) if r["id"] in ids]
    if mine:
        a, b = summarise(mine), summarise([r for r in rows if r["id"] in {m["id"] for m in mine}])
        groups = lambda s: {**s["answerable"], **{f"unanswerable ({k})": t for k, t in s["unanswerable"].items() if t["n"]}}  # noqa: E731
        print(
            f"\nSide by side on the {len(mine)} questions both answered (edgerag {ours.get('model')}, plain RAG {theirs.get('model')}):\n"
        )
        print(sets.side_by_side(groups(a), groups(b)))
        print(f"\nover-abstention: edgerag {a['over_abstention_pct']:.0f} %, plain RAG {b['over_abstention_pct']:.0f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
