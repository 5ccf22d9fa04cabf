"""Annual-report excerpts nobody tuned on (issue #63): five short excerpts of invented companies
written in the style of real ones, in five formats and layouts, each asked about nine questions
as a finance user asks them; a check of how far the TAT-QA results carry to reports in other
formats. Writes JSON (benchmarks/results/reports_<model>.json) and prints Markdown tables.

    .venv/bin/python benchmarks/reports.py                      # the 0.5B answering, every other default
    .venv/bin/python benchmarks/reports.py --model 1.5b         # the 1.5B answering
    .venv/bin/python benchmarks/reports.py --skip 20 --limit 20 # a slice, merged into --out
    .venv/bin/python benchmarks/reports.py --rescore            # score --out's rows again; ask nothing
    .venv/bin/python benchmarks/reports.py --set heldout        # the held-out set (below), apart
    .venv/bin/python benchmarks/reports.py --set heldout2       # the second held-out set (below)
    .venv/bin/python benchmarks/reports.py --set heldout3       # the third held-out set (below)
    .venv/bin/python benchmarks/reports.py --set heldout4       # the fourth held-out set (below)
    .venv/bin/python benchmarks/reports.py --set heldout5       # the fifth held-out set (below)
    .venv/bin/python benchmarks/reports.py --set heldout6       # the sixth held-out set (below)
    .venv/bin/python benchmarks/reports.py --set heldout7       # the seventh held-out set (below)
    .venv/bin/python benchmarks/reports.py --answers-from benchmarks/results/reports_llamaindex_0_5b.json  # plain RAG beside

``--set heldout`` asks the held-out set instead (benchmarks/reports/heldout/{sources,questions.jsonl}):
six more excerpts, written by an outside tester after the rounds tuned on the first five, of other
invented companies, industries and countries (a Singapore cash-flow statement with two header rows,
a Danish interim report with quarters as rows, a Spanish segment note with the same region under
revenue and operating profit, "% of revenue" columns and footnote marks, a Dutch five-year summary
whose scale is only in the prose, a New Zealand review with its amounts in the prose and a list of
risks, a US 10-Q with three- and six-month column groups); 55 questions of the same kinds, scored
the same way. Its indexes are built under ``<work>/heldout`` and its default out file is
benchmarks/results/reports_heldout_<model>.json; the first set's defaults are unchanged.

``--set heldout2`` asks a second held-out set (benchmarks/reports/heldout2/{sources,questions.jsonl}),
written by another outside tester who saw neither set's excerpts: eight excerpts of invented companies
in other industries, countries and currencies (a Japanese airline's results summary with years as rows
and a "%" beside each column, "¥ million" and "—"; a German insurer's key figures in "€ thousand" with
restated IFRS 17 comparatives, section rows and "–" negatives; an Indian bank's highlights in "₹ crore"
with lakh-grouped totals ("1,18,263") and two header rows; a Canadian gold miner's quarters with the
scale only in the prose and "nil"; a Swiss pharma half year with CHF and CER change columns over three
header rows; a UK retailer's income statement with a Note column, "£'000" and parentheses; a South
African utility's segments with years ascending under Revenue and EBITDA groups; a Brazilian software
release in "R$ mil" with quarter and year column groups); 66 questions of the same kinds, some in the
user's own words, scored the same way. Its indexes are built under ``<work>/heldout2`` and its default
out file is benchmarks/results/reports_heldout2_<model>.json, as for any set but the first.

``--set heldout3`` asks a third held-out set (benchmarks/reports/heldout3/{sources,questions.jsonl}),
written by an outside tester who saw no earlier set's excerpts: seven excerpts of invented companies in
yet other countries, industries and currencies (a French telecom's key figures in M€ with "Exercice
2023" columns, years descending, "Var." columns in M€ and %, "o/w" rows and subscriber counts; an
Australian REIT's half year, "1H24"/"1H23" with a June year end, parentheses, "n.m." and "-",
cents per unit and occupancy; a Korean chip maker's quarters as columns in "KRW billion" with QoQ/YoY
and "%p" columns and "KRW 10.83 trillion" in the prose; a Mexican cement maker's PDF in "Ps." with
years ascending, the scale only in the prose and volumes in tonnes and m3; a Norwegian logistics
group's Q4 and full-year columns over three header rows with restated comparatives and minus signs; a
Hong Kong hotel group's segment note in "HK$'000" with section rows, "—" and a footnote mark, beside
occupancy and RevPAR by city; a UAE food group's quarter and year groups in "AED million" with "nil",
"n.m." and fils per share); 56 questions of the same kinds, scored the same way. Its indexes are built
under ``<work>/heldout3`` and its default out file is benchmarks/results/reports_heldout3_<model>.json.

``--set heldout4`` asks a fourth held-out set (benchmarks/reports/heldout4/{sources,questions.jsonl}),
written by an outside tester who saw no earlier set's excerpts: eight excerpts of invented companies
and a charity (a Polish bank's selected data in "PLN m" with section rows, parentheses, a "%" change
column beside "p.p." changes, a footnote mark and "zł" in the prose; a Swedish industrial's year-end
report with quarter and full-year columns, "Δ%", figures in brackets in the prose and a rolling-12-month
ratio; an Irish dairy co-op's income statement in "€'000" with a Notes column and "–", beside a segment
note with years ascending under Revenue and Operating profit groups; a Chilean copper miner's PDF whose
operating table runs over two pages without its header, quarters beside years, US$/lb and the scale only
in the prose; an Indonesian palm-oil group's three years ascending with a unit column, "n/a", footnote
marks and "Rp billion"; a Nigerian telco's revenue by service in "N'000" with a units row and a KPI table
mixing millions, ₦ and N'000; a UK charity's statement of financial activities in £ with unrestricted,
restricted and total columns under three header rows; an Italian multi-utility's restated key figures in
"€ million" with "Δ" and "Δ%" columns, "n.s." and "of which" rows); 64 questions of the same kinds, a
third in the user's own words, scored the same way. Its indexes are built under ``<work>/heldout4`` and
its default out file is benchmarks/results/reports_heldout4_<model>.json.

``--set heldout5`` asks a fifth held-out set (benchmarks/reports/heldout5/{sources,questions.jsonl}),
written by an outside tester who saw no earlier set's excerpts: eight excerpts of invented companies and
a city (a Finnish forestry group's interim key figures in "EUR million" with Q3, Q1–Q3 and "Change, %"
columns beside the prior full year and figures in brackets in the prose, and a business-area table; a
US regional bank's 10-K selected data over five years descending in "(dollars in thousands, except per
share data)" with section rows, a parenthesised reversal, "n/m" and a footnoted non-GAAP ratio; a
Canadian city's budget-to-actual statement of operations with a "fav. / (unfav.)" variance column and
the scale only in the prose; an Austrian ski-lift operator's PDF for a May–April financial year
("2023/24"), its key-figures table running over two pages without its header, minus-sign expenses,
"n/a" and ">100", the scale and skier days only in the prose; a Kenyan tea exporter's five-year summary
ascending with a "KShs '000" units row, parentheses, a section row, footnote marks and amounts in
KShs billion in the prose; a Belgian biotech's half year with H1 columns beside the full year, bold
totals, a cash-position table and its cash runway in words; a Thai hospital group's revenue structure
in "Baht million" with "%" of revenue columns and an operating-statistics table with Q4 beside
full-year columns; an Argentine agribusiness restated in constant currency under IAS 29, "—" and "nil",
beside a crop table whose hectares and tonnes each span two years under a two-row header); 65 questions
of the same kinds, more than a third in the user's own words, scored the same way. Its indexes are
built under ``<work>/heldout5`` and its default out file is benchmarks/results/reports_heldout5_<model>.json.

``--set heldout6`` asks a sixth held-out set (benchmarks/reports/heldout6/{sources,questions.jsonl}), by
an outside tester who saw no earlier set's excerpts: eight excerpts (a Portuguese port's terminals under
a two-row header in TEU, tonnes and moves/hour, "thousand euros" and "M€"; a Turkish brewer's Q4 and
year in "TL million" with TL per hl and decimal commas in the prose; a Pakistani steel maker's July–June
year in "Rupees in million", its table over two PDF pages; a Vietnamese airport's plan against actual
with "Unit" and "% of plan" columns; an Icelandic fishery's restated "EUR thousand" and catch in tonnes
under section rows; a Colombian acquirer's KPIs in mixed units with "bps"/"pp" changes; a Greek football
club's "2023/24" year; a Ghanaian savings and loans company's "GH¢'000" with a levy row and a
portfolio-at-risk table); 65 questions of the same kinds, scored the same way, built under
``<work>/heldout6``, written to benchmarks/results/reports_heldout6_<model>.json.

``--set heldout7``: a seventh held-out set (benchmarks/reports/heldout7/), by an outside tester who saw no
earlier set's excerpts: seven excerpts (a Moroccan fertiliser maker's half year in "MMAD" beside FY; a Czech
railway's restated CZK million with minus signs and a mixed-unit KPI table; a Malaysian builder's June year in
"RM'000" under a two-row segment header and quarters; a Peruvian oil producer's PDF over two pages, quarters
beside years and "nil"; an Estonian game studio's "EUR thousand" with "n.m." and ARPDAU; a Philippine cinema
chain's budget against actual in ₱ millions; a Saudi water utility's September year, targets and Zakat in
"SR '000"); 65 questions of the same kinds, scored the same way.

``--answers-from FILE`` scores another system's answer records (benchmarks/llamaindex_rag.py
``--set reports``, ``heldout`` … ``heldout7``: plain RAG at LlamaIndex's defaults, one index per excerpt
over the same files) as edgerag's are scored, writes them beside FILE (``<stem>_scored.json``)
and prints them by kind beside ``--out``'s rows on the questions both answered; it asks nothing.

The excerpts (benchmarks/reports/sources/, text only; DOCX and PDF written at run time by
benchmarks/office/make_docs.py into ``<work>/docs``):

* ``harrowgate_segments.html``: a UK plc segment note, "2019 £m" / "2018 £m" columns, a Notes
  column, section rows, negatives in parentheses, "–" for nil;
* ``corvallis_10k.md``: a US 10-K statement of operations as a pipe table, "(in thousands, except
  per share data)", three fiscal years and a "% change" column;
* ``kestrel_expenses.docx``: an Australian expenses note, "30 June 2019" headers, a "$'000" units row;
* ``norfield_capex.pdf``: capital expenditure by region, two years and a total row;
* ``westmoor_budget.html``: a quarterly budget, Q1..Q4 and "Full year" as columns.

One index per excerpt (``<work>/<name>``), as tatqa.py does and as a reader of one report would
build it: the questions, like TAT-QA's, do not name the company ("What was depreciation in
2018?"), so one index of all five would make them ambiguous. Each question is asked at every
default as ``edgerag query --answer`` asks it (open_sets.py `ask`: retrieve, plan, answer).

Scoring (questions.jsonl ``answer_type``): **abstained** when the answer says the documents do not
say (office.py `abstained`); otherwise **right** when

* ``number``: the reply's first number (a year only where the gold is one; a quarter or half
  label, "Q4", is none; after a worked "… = x", x) equals ``value`` at
  ``decimals``, read in the gold's ``scale``: with the reply's own scale word ("£14.6m",
  "6.04 %"), or none (counted apart as ``bare`` where the gold has a scale: the table's unit is taken as read, or the number
  as printed, "$215,000"); a number rounded coarser than the gold but within 0.1 % of it and
  equal at its own rounding is right too ("$180.3 million" for 180,311 thousand), and so is one
  rounded finer than the gold that equals its exact value at its own rounding ("7.45%" for 7.446,
  where the gold is printed "7.4%": rounding 7.45 again would make 7.5); a word of
  decrease or loss in the reply makes its number negative ("a decrease of 14.6") where the gold is
  below zero, or where the question asks a change;
* ``numbers`` ("… in 2019 and 2018 respectively"): the reply's first numbers, in order, each so;
* ``list``: every item of ``items`` is in the reply, with at most a few words more than they hold;
* ``choice`` ("In which year …"): the first of ``options`` the reply names is the gold;
* ``text``: office.py `match` (the accepted answer, or the reply containing it within a few words,
  naming none of ``reject``: "8 million" is no note number);
* ``none`` (unanswerable): right when abstained, wrong when answered.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import open_sets as sets
from office import CONTAINED_SLACK, canon, match
from tatqa_metric import numbers_in

HERE = sets.REPO / "benchmarks" / "reports"
SOURCES = HERE / "sources"
QUESTIONS = HERE / "questions.jsonl"
SETS = {
    "reports": (SOURCES, QUESTIONS),
    **{
        name: (HERE / name / "sources", HERE / name / "questions.jsonl")
        for name in ("heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7")
    },
}
"""Each ``--set``: its excerpts and its questions (module doc)."""
KINDS = ("table", "text", "list", "arithmetic", "unanswerable")
OPS = ("value", "items", "respectively", "change", "pct_change", "average", "sum", "proportion", "ratio", "which_year", "none")
SCALES = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9}
DECREASE = re.compile(
    r"\b(decrease[sd]?|declined?|fell|fall|drop(ped)?|lower|down|reduc(ed|tion)|loss|negative|reversal|below|short|under(?:spen[dt])?|unfavou?rable)\b",
    re.I,
)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_docs(folder: Path, sources: Path = SOURCES) -> dict[str, Path]:
    """The excerpts written into ``folder`` (again only when a source or the writer changed:
    DOCX and PDF bytes differ from run to run, and a changed file is indexed again), by name."""
    sys.path.insert(0, str(sets.REPO / "benchmarks" / "office"))
    from make_docs import build, output_name

    h = hashlib.sha1()
    for p in sorted(sources.iterdir()) + [sets.REPO / "benchmarks" / "office" / "make_docs.py"]:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    stamp = folder / ".sources.sha1"
    if not (stamp.exists() and stamp.read_text() == h.hexdigest()):
        build(folder, sources)
        stamp.write_text(h.hexdigest())
    return {output_name(s): folder / output_name(s) for s in sorted(sources.iterdir()) if s.is_file()}


# ---- scoring ------------------------------------------------------------------------------------


def number_match(number: str, scale: str, reply: str, q: dict, value: float) -> str:
    """How one number of the reply meets ``value`` (module doc): ``scaled``, ``bare`` or ""."""
    if (q["scale"] == "percent") != (scale == "percent") and scale:
        return ""
    factor = 1.0 if q["scale"] == "percent" or not scale else SCALES[scale] / SCALES[q["scale"]]
    printed = 10.0 ** -len(number.partition(".")[2])  # the reply's own rounding, in its scale
    sign = -1 if DECREASE.search(reply) and (value < 0 < float(number) or (value > 0 and q["op"] in ("change", "pct_change"))) else 1
    readings = [(sign * float(number) * factor, printed * factor, "scaled" if scale or not q["scale"] else "bare")]
    if not scale and q["scale"] not in ("", "percent"):  # "$215,000" where the table is in thousands
        readings.append((sign * float(number) / SCALES[q["scale"]], printed / SCALES[q["scale"]], "scaled"))
    for units, step, how in readings:
        if abs(round(units, q["decimals"]) - round(value, q["decimals"])) < 10 ** -(q["decimals"] + 3):
            return how
        if step <= 1e-3 * abs(value) and abs(units - value) <= step / 2 + 1e-9:  # "$180.3 million" for 180,311 thousand
            return how
        if (
            step < 10 ** -q["decimals"] and abs(units - value) <= step / 2 + 1e-9
        ):  # "7.45%" for 7.446 (gold "7.4%"): finer, and right at its rounding
            return how
    return ""


PERIOD_LABEL = re.compile(r"\b(?:Q[1-4]|H[12])\b", re.I)
"""A quarter or half named by its number ("Q4", "H1"): a label, never an amount."""


def reply_numbers(reply: str, gold: list[float]) -> list[tuple[str, str]]:
    """The reply's numbers in order, period labels left out; where one number is asked and the
    reply works it out ("214.0 / 120.2 = 1.78"), what follows its last "=" first."""
    is_year = all(float(g).is_integer() and 1900 <= g <= 2099 for g in gold)
    reply = PERIOD_LABEL.sub(" ", reply)
    if len(gold) == 1 and "=" in reply:
        worked, _, result = reply.rpartition("=")
        return numbers_in(result, years=is_year) + numbers_in(worked, years=is_year)
    return numbers_in(reply, years=is_year)


def judge(q: dict, short: str) -> str:
    """How an answered (not abstained) ``short`` is right (``exact``, ``contained``, ``scaled``,
    ``bare``, ``items``, ``choice``), or "" when it is wrong."""
    kind = q["answer_type"]
    if kind == "none":
        return ""
    if kind == "number":
        found = reply_numbers(short, [q["value"]])
        return number_match(*found[0], short, q, q["value"]) if found else ""
    if kind == "numbers":
        found = reply_numbers(short, q["values"])
        if len(found) < len(q["values"]):
            return ""
        hows = [number_match(n, s, short, q, v) for (n, s), v in zip(found, q["values"])]
        return "" if not all(hows) else ("bare" if "bare" in hows else "scaled")
    if kind == "list":
        p = f" {canon(short)} "
        items = [canon(i) for i in q["items"]]
        fits = len(p.split()) <= sum(len(i.split()) for i in items) + CONTAINED_SLACK
        return "items" if fits and all(f" {i} " in p for i in items) else ""
    if kind == "choice":
        p = f" {canon(short)} "
        named = sorted((p.find(f" {canon(o)} "), o) for o in q["options"] if f" {canon(o)} " in p)
        return "choice" if named and named[0][1] in q["answers"] else ""
    return match(short, q["answers"], q.get("reject", []))


def score_row(row: dict, q: dict) -> dict:
    """An answer record (open_sets.py) scored against ``q`` (module doc)."""
    abst = sets.abstention(row)
    how = "" if abst else judge(q, row["short"])
    if q["answer_type"] == "none":
        verdict = "right" if abst else "wrong"
    else:
        verdict = "abstained" if abst else ("right" if how else "wrong")
    keep = ("kind", "op", "answer_type", "doc", "answers", "value", "values", "items", "scale", "decimals")
    return {**row, **{k: q[k] for k in keep if k in q}, "abstained": abst, "match": how, "verdict": verdict}


def gold_text(q: dict) -> str:
    if q["answer_type"] == "none":
        return "(none: not in the excerpt)"
    if q["answer_type"] == "list":
        return "; ".join(q["items"])
    if q["answer_type"] in ("number", "numbers"):
        values = q.get("values") or [q["value"]]
        unit = {"percent": "%", "": ""}.get(q["scale"], f" {q['scale']}")
        return " and ".join(f"{v:,.{q['decimals']}f}{unit}" for v in values)
    return " | ".join(q["answers"])


# ---- the run ------------------------------------------------------------------------------------


def summarise(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["kind"] != "unanswerable"]
    return {
        "kinds": sets.group(rows, "kind", KINDS),
        "ops": sets.group(rows, "op", OPS),
        "answerable": sets.tally(answerable),
        "all": sets.tally(rows),
        "right_bare": sum(r["verdict"] == "right" and r["match"] == "bare" for r in rows),
        "seconds": sets.seconds(rows),
    }


def tables(s: dict) -> str:
    line = lambda name, t: [name, *sets.verdict_cells(t)]  # noqa: E731
    kinds = [line(k, t) for k, t in s["kinds"].items()] + [line("**answerable**", s["answerable"]), line("**all**", s["all"])]
    out = [sets.markdown(["kind", *sets.VERDICT_HEAD], kinds)]
    out.append(sets.markdown(["operation", *sets.VERDICT_HEAD], [line(k, t) for k, t in s["ops"].items()]))
    return "\n\n".join(out)


def failures(rows: list[dict], by_id: dict[str, dict]) -> str:
    """Every wrong answer and every abstention on an answerable question, with what the
    answer says of how it was made."""
    out = []
    for r in rows:
        if r["verdict"] == "right" or (r["kind"] == "unanswerable" and r["verdict"] != "wrong"):
            continue
        q = by_id[r["id"]]
        out.append(
            f"- {r['id']} [{r['verdict']}] {q['doc']} ({q['kind']}/{q['op']}) {q['question']}\n"
            f"    gold: {gold_text(q)}\n    short: {r['short']!r}\n"
            f"    decided: {r.get('decided')!r}; rules: {r.get('rules')}; reason: {r.get('reason')!r}"
        )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sets.add_arguments(ap, "reports")
    ap.add_argument(
        "--set",
        choices=sorted(SETS),
        default="reports",
        help="reports (the first five excerpts), heldout, heldout2, heldout3, heldout4, heldout5, heldout6 or heldout7 (the held-out sets; module doc)",
    )
    args = ap.parse_args()
    sources, questions_file = SETS[args.set]
    name = "reports" if args.set == "reports" else f"reports_{args.set}"
    questions = load_questions(questions_file)
    by_id = {q["id"]: q for q in questions}
    out = Path(args.out) if args.out else sets.default_out(name, args.model)
    previous = sets.load(out)
    if args.answers_from:
        return compare(Path(args.answers_from), previous, by_id, questions)
    if args.rescore:
        rows = [score_row(r, by_id[r["id"]]) for r in previous.get("rows", []) if r["id"] in by_id]
        return report(out, {k: v for k, v in previous.items() if k not in ("rows", "summary")}, rows, by_id)

    spec = sets.answer_model(args.model)
    work = Path(args.work) if args.set == "reports" else Path(args.work) / args.set
    docs = write_docs(work / "docs", sources)
    asked = questions[args.skip :][: args.limit]
    kept = {r["id"]: r for r in previous.get("rows", [])}
    model = meta = None
    for doc in dict.fromkeys(q["doc"] for q in asked):
        rag = sets.open_index(work / Path(doc).stem, [docs[doc]], spec)
        model = rag.answer_llm.llm.path.name
        if previous.get("model") not in (None, model):
            kept, previous = {}, {}
        ask = lambda q, rag=rag: score_row({"id": q["id"], "question": q["question"], **sets.ask(rag, q["question"])}, q)  # noqa: E731
        sets.run([q for q in asked if q["doc"] == doc], ask, kept, lambda q: f"{q['kind']}/{q['op']}")
        meta = {"why": rag.answer_choice.reason, "speeds": sets.speeds(rag) or (meta or {}).get("speeds")}
        rag.close()
    meta = {"benchmark": name, "system": "edgerag", "model": model, "answer_model": args.model, **(meta or {}), "host": sets.host()}
    return report(out, meta, sets.ordered(kept.values(), questions), by_id)


def report(out: Path, meta: dict, rows: list[dict], by_id: dict[str, dict]) -> int:
    from common import write_result

    s = summarise(rows)
    print()
    print(tables(s))
    a, secs, sp = s["all"], s["seconds"], meta.get("speeds")
    speed = f"{sp['prompt']:.0f} / {sp['generation']:.1f} tok/s prompt / generation" if sp else "speed not measured"
    print(
        f"\n{len(rows)} of {len(by_id)} questions; right {a['right_pct']:.0f} % ({s['right_bare']} numbers without their scale word), "
        f"abstained {a['abstained_pct']:.0f} %, wrong {a['wrong_pct']:.0f} %; seconds per answer p50 {secs['p50'] or 0:.1f}, "
        f"p95 {secs['p95'] or 0:.1f} ({secs['timed']} timed)\nmodel {meta.get('model')} ({meta.get('why', '')}); {speed}; host {meta.get('host', '')}"
    )
    missed = failures(rows, by_id)
    if missed:
        print("\nWrong, and abstained on an answerable question:\n" + missed)
    write_result(out, {**{k: v for k, v in meta.items() if k not in ("machine", "when")}, "summary": s, "rows": rows})
    return 0


def side_by_side(mine: list[dict], theirs: list[dict]) -> str:
    """Two systems' scored rows by kind on the questions both answered: right / abstained / wrong."""
    both = {r["id"] for r in mine} & {r["id"] for r in theirs}
    a, b = (summarise([r for r in rows if r["id"] in both]) for rows in (mine, theirs))
    groups = lambda s: {**s["kinds"], "answerable": s["answerable"], "all": s["all"]}  # noqa: E731
    return sets.side_by_side(groups(a), groups(b))


def compare(path: Path, ours: dict, by_id: dict[str, dict], questions: list[dict]) -> int:
    """Another system's answer records scored as ours are, written beside them
    (``<file stem>_scored.json``) and printed by kind with ours on the questions both answered."""
    theirs = sets.load(path)
    rows = sets.ordered([score_row(r, by_id[r["id"]]) for r in theirs.get("rows", []) if r["id"] in by_id], questions)
    meta = {k: v for k, v in theirs.items() if k not in ("rows", "summary", "machine", "when")}
    report(path.with_name(path.stem + "_scored.json"), meta, rows, by_id)
    mine = [score_row(r, by_id[r["id"]]) for r in ours.get("rows", []) if r["id"] in {x["id"] for x in rows}]
    if mine:
        print(
            f"\nSide by side on the {len(mine)} questions both answered (edgerag {ours.get('model')}, plain RAG {theirs.get('model')}):\n"
        )
        print(side_by_side(mine, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
