"""TAT-QA on real annual reports (issue #63): each excerpt's HTML page in its own index, its
questions asked as a user asks them, scored with TAT-QA's EM / F1 with the scale and CRAG-style.
Writes JSON and prints Markdown tables (docs/benchmarks.md, "TAT-QA: annual reports").

    .venv/bin/python benchmarks/tatqa.py                       # the fixed sample (~300), the 0.5B answering
    .venv/bin/python benchmarks/tatqa.py --model 1.5b          # the 1.5B answering
    .venv/bin/python benchmarks/tatqa.py --all                 # all 1,663 questions
    .venv/bin/python benchmarks/tatqa.py --skip 60 --limit 60  # a slice, merged into --out
    .venv/bin/python benchmarks/tatqa.py --answers-from benchmarks/results/tatqa_llamaindex_0_5b.json  # plain RAG scored beside

Data: ../shared/data/tatqa/test (TAT-QA's test split with its gold answers; CC BY 4.0; Zhu et
al., ACL 2021). Each excerpt's page (pages/NNNN.html) is inserted through `EdgeRAG.insert` into
``<work>/NNNN``, kept there, so a rerun reuses it; each question is asked at every default
(open_sets.py `ask`: retrieve, plan, answer).

The sample: about 300 questions, whole excerpts (fewer indexes), chosen once with a fixed seed so
that the mix of answer type × source matches the whole set's (`stratified_sample`); its ids are
kept in benchmarks/tatqa/sample_ids.txt, which the script reads when it exists.

Scoring (tatqa_metric.py): TAT-QA's EM and F1 with the scale, the reply's number and scale read as
a person reads them; **right** = EM 1, **abstained** = the answer says the documents do not say
(Answer.abstained or in words, office.py `ABSTAINS`), **wrong** otherwise. Tables per answer type
(span, multi-span, arithmetic, count) and per source (table, text, table-text). Seconds per
answer: fresh model calls only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import open_sets as sets
from common import write_result
from tatqa_metric import read_prediction, score_reading

TATQA = sets.DATA / "tatqa" / "test"
SAMPLE_IDS = sets.REPO / "benchmarks" / "tatqa" / "sample_ids.txt"
SAMPLE_SIZE = 300
SEED = 63
TYPES = ("span", "multi-span", "arithmetic", "count")
SOURCES = ("table", "text", "table-text")


def load_questions(path: Path = TATQA / "questions.jsonl") -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def stratified_sample(questions: list[dict], size: int = SAMPLE_SIZE, seed: int = SEED) -> list[dict]:
    """Whole excerpts, in a seeded random order, each taken when it brings the sample's count
    of every answer type × source closest to its share of the whole set, until ``size``
    questions are in; returned in the set's order."""
    stratum = lambda q: (q["answer_type"], q["answer_from"])  # noqa: E731
    share = Counter(map(stratum, questions))
    target = {k: size * v / len(questions) for k, v in share.items()}
    by_context: dict[str, list[dict]] = {}
    for q in questions:
        by_context.setdefault(q["context"], []).append(q)
    pool = sorted(by_context)
    random.Random(seed).shuffle(pool)
    have: Counter = Counter()
    chosen: set[str] = set()

    def cost(c: str, have: Counter) -> float:
        after = have + Counter(map(stratum, by_context[c]))
        return sum((after[k] - t) ** 2 for k, t in target.items())

    while sum(have.values()) < size and len(chosen) < len(pool):
        best = min((c for c in pool if c not in chosen), key=lambda c: cost(c, have))  # ties: the seeded order
        chosen.add(best)
        have += Counter(map(stratum, by_context[best]))
    return [q for q in questions if q["context"] in chosen]


def select(questions: list[dict], everything: bool) -> list[dict]:
    """The questions a run asks: all, or the fixed sample (its kept ids when present)."""
    if everything:
        return questions
    if SAMPLE_IDS.exists():
        ids = set(SAMPLE_IDS.read_text().split())
        return [q for q in questions if q["id"] in ids]
    return stratified_sample(questions)


def page(q: dict) -> Path:
    return TATQA / "pages" / f"{q['context'].rsplit('-', 1)[1]}.html"


def asker(rag):
    """Ask a question of ``rag`` as a user asks it, and score the answer."""
    return lambda q: score_row({"id": q["id"], "question": q["question"], **sets.ask(rag, q["question"])}, q)


def score_row(row: dict, q: dict) -> dict:
    """An answer record (open_sets.py) scored against ``q``."""
    abst = sets.abstention(row)
    reading = read_prediction("" if abst else row["short"] or row["text"], q["answers"], q["answer_type"])
    em, f1 = (0.0, 0.0) if abst else score_reading(reading, q["answers"], q["scale"], q["answer_type"])
    verdict = "abstained" if abst else ("right" if em == 1.0 else "wrong")
    return {
        **row,
        "abstained": abst,
        "answer_type": q["answer_type"],
        "answer_from": q["answer_from"],
        "answers": q["answers"],
        "scale": q["scale"],
        "read": reading.items,
        "read_scale": reading.scale,
        "em": em,
        "f1": f1,
        "verdict": verdict,
    }


def summarise(rows: list[dict]) -> dict:
    means = ("em", "f1")
    return {
        "types": sets.group(rows, "answer_type", TYPES, means),
        "sources": sets.group(rows, "answer_from", SOURCES, means),
        "all": sets.tally(rows, means),
        "seconds": sets.seconds(rows),
    }


def tables(s: dict) -> str:
    head = ["", *sets.VERDICT_HEAD, "EM", "F1"]
    line = lambda name, t: [name, *sets.verdict_cells(t), f"{t['em']:.1f}", f"{t['f1']:.1f}"]  # noqa: E731
    out = [sets.markdown(["answer type", *head[1:]], [line(k, t) for k, t in s["types"].items()] + [line("**all**", s["all"])])]
    out.append(sets.markdown(["source", *head[1:]], [line(k, t) for k, t in s["sources"].items()]))
    return "\n\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sets.add_arguments(ap, "tatqa")
    ap.add_argument("--all", action="store_true", help="ask all 1,663 questions, not the fixed sample")
    ap.add_argument("--write-sample", action="store_true", help="write the sample's ids to benchmarks/tatqa/sample_ids.txt and stop")
    args = ap.parse_args()
    questions = load_questions()
    if args.write_sample:
        SAMPLE_IDS.parent.mkdir(parents=True, exist_ok=True)
        SAMPLE_IDS.write_text("\n".join(q["id"] for q in stratified_sample(questions)) + "\n")
        print(f"wrote {SAMPLE_IDS}")
        return 0
    chosen = select(questions, args.all)
    by_id = {q["id"]: q for q in questions}
    out = Path(args.out) if args.out else sets.default_out("tatqa", args.model)
    previous = sets.load(out)
    if args.answers_from:
        return compare(Path(args.answers_from), previous, by_id, chosen)
    if args.rescore:
        rows = [score_row(r, by_id[r["id"]]) for r in previous.get("rows", []) if r["id"] in by_id]
        return report(out, {k: v for k, v in previous.items() if k not in ("rows", "summary")}, rows, chosen)

    spec = sets.answer_model(args.model)
    asked = chosen[args.skip :][: args.limit]
    kept = {r["id"]: r for r in previous.get("rows", [])}
    model = meta = None
    for context in dict.fromkeys(q["context"] for q in asked):
        rag = sets.open_index(Path(args.work) / context.rsplit("-", 1)[1], [page({"context": context})], spec)
        model = rag.answer_llm.llm.path.name
        if previous.get("model") not in (None, model):
            kept, previous = {}, {}
        sets.run([q for q in asked if q["context"] == context], asker(rag), kept, lambda q: f"{q['answer_type']}/{q['answer_from']}")
        meta = {"why": rag.answer_choice.reason, "speeds": sets.speeds(rag) or (meta or {}).get("speeds")}
        rag.close()
    meta = {"benchmark": "tatqa", "system": "edgerag", "model": model, "answer_model": args.model, **(meta or {})}
    meta.update(sample="all" if args.all else f"stratified {len(chosen)} (seed {SEED})", host=sets.host())
    return report(out, meta, sets.ordered(kept.values(), questions), chosen)


def report(out: Path, meta: dict, rows: list[dict], chosen: list[dict]) -> int:
    s = summarise(rows)
    print()
    print(tables(s))
    a, secs = s["all"], s["seconds"]
    print(
        f"\n{len(rows)} answers ({len(chosen)} questions chosen); EM {a['em']:.1f}, F1 {a['f1']:.1f}; right {a['right_pct']:.0f} %, "
        f"abstained {a['abstained_pct']:.0f} %, wrong {a['wrong_pct']:.0f} %; seconds per answer p50 {secs['p50'] or 0:.1f}, "
        f"p95 {secs['p95'] or 0:.1f} ({secs['timed']} timed); model {meta.get('model')}; host {meta.get('host', '')}"
    )
    write_result(out, {**meta, "summary": s, "rows": rows})
    return 0


def compare(path: Path, ours: dict, by_id: dict[str, dict], chosen: list[dict]) -> int:
    """Another system's answer records scored as ours are, written beside them
    (``<file>`` → ``<file stem>_scored.json``) and printed with ours on the same questions."""
    theirs = sets.load(path)
    rows = [score_row(r, by_id[r["id"]]) for r in theirs.get("rows", []) if r["id"] in by_id]
    meta = {k: v for k, v in theirs.items() if k not in ("rows", "summary", "machine", "when")}
    report(path.with_name(path.stem + "_scored.json"), meta, rows, chosen)
    mine = [r for r in ours.get("rows", []) if r["id"] in {x["id"] for x in rows}]
    if mine:
        mine = [score_row(r, by_id[r["id"]]) for r in mine]
        a, b = summarise(mine), summarise([r for r in rows if r["id"] in {m["id"] for m in mine}])
        print(
            f"\nSide by side on the {len(mine)} questions both answered (edgerag {ours.get('model')}, plain RAG {theirs.get('model')}):\n"
        )
        print(sets.side_by_side({**a["types"], **a["sources"], "all": a["all"]}, {**b["types"], **b["sources"], "all": b["all"]}))
        print(f"\nEM / F1: edgerag {a['all']['em']:.1f} / {a['all']['f1']:.1f}, plain RAG {b['all']['em']:.1f} / {b['all']['f1']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
