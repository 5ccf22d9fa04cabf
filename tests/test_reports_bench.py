"""The report-excerpts benchmark's data and scoring (benchmarks/reports/, benchmarks/reports.py;
issue #63), without a model: every excerpt is written and read by edgerag's readers, every value
a table or text question asks is in its excerpt as read, the questions file is well formed, and
a reply is scored at the gold's rounding, scale and sign as the script's doc says."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from edgerag.ingest import iter_documents
from edgerag.ingest.blocks import Skipped
from edgerag.types import Document

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))  # the benchmark scripts import their neighbours

import reports  # noqa: E402

QUESTIONS = reports.load_questions()


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, str]:
    """Each excerpt's file name → the text edgerag's readers make of it."""
    written = reports.write_docs(tmp_path_factory.mktemp("reports"))
    texts: dict[str, str] = {}
    for item in iter_documents(list(written.values())):
        assert not isinstance(item, Skipped), item
        if isinstance(item, Document):
            name = Path(item.path or item.source).name
            texts[name] = texts.get(name, "") + "\n" + item.text
    return texts


def test_every_excerpt_is_written_and_read(docs):
    assert sorted(Path(n).suffix for n in docs) == [".docx", ".html", ".html", ".md", ".pdf"]
    assert all(len(t.split()) > 150 for t in docs.values()), {n: len(t.split()) for n, t in docs.items()}


def test_questions_are_well_formed(docs):
    assert len({q["id"] for q in QUESTIONS}) == len(QUESTIONS) >= 45
    assert set(Counter(q["kind"] for q in QUESTIONS)) == set(reports.KINDS)
    assert sum(q["answer_type"] == "none" for q in QUESTIONS) == 5
    for q in QUESTIONS:
        assert q["doc"] in docs and q["op"] in reports.OPS, q
        assert {"number": "value", "numbers": "values", "list": "items", "choice": "options"}.get(q["answer_type"], "answers") in q, q


def test_each_looked_up_value_is_in_its_excerpt(docs):
    """A value asked of a table or the text is printed in the excerpt as read (its size: a sign
    may be parentheses), so no gold rests on a typo."""
    for q in QUESTIONS:
        if q["kind"] in ("table", "text") and q["answer_type"] == "number":
            printed = f"{abs(q['value']):,.{q['decimals']}f}"
            assert printed in docs[q["doc"]], (q["id"], printed)
        if q["answer_type"] == "list":
            assert all(i in docs[q["doc"]] for i in q["items"]), q["id"]


def _q(words: str) -> dict:
    return next(q for q in QUESTIONS if words in q["question"])


@pytest.mark.parametrize(
    ("words", "reply", "right"),
    [
        ("Rail in 2018", "£131.4m", True),
        ("Rail in 2018", "131.4", True),  # the table's unit taken as read: counted apart as bare
        ("Rail in 2018", "£389.1m", False),  # the other year's column
        ("Energy segment in 2019", "a loss of £12.7 million", True),
        ("Energy segment in 2019", "12.7", False),  # the sign lost
        ("net finance costs", "Note 8", True),
        ("net finance costs", "8 million", False),  # a note number is no amount
        ("Aerospace revenue from", "6.04%", True),
        ("Aerospace revenue from", "6.0%", False),  # coarser than the two decimals asked
        ("Aerospace revenue in 2019", "49.9%", True),
        ("change in total revenue", "a decrease of £14.6m", False),
        ("cost of revenue in fiscal 2017", "$180.3 million", True),  # within 0.1 %, equal at its own rounding
        ("cost of revenue in fiscal 2017", "$180 million", False),
        ("impairment of receivables", "-$215,000", True),
        ("impairment of receivables", "215 thousand", False),
        ("Energy revenue in 2019", "£268.3m and £291.7m", True),
        ("Energy revenue in 2019", "£291.7m and £268.3m", False),  # respectively: in order
        ("reportable operating segments", "Aerospace, Energy and Rail", True),
        ("reportable operating segments", "Aerospace and Energy", False),
        ("underlying operating profit larger", "2018 (55.1 against 41.5 in 2019)", True),
        ("underlying operating profit larger", "2019", False),
        ("pay award", "It takes effect on 1 October 2020.", True),
        ("room hire income for Q4", "The budgeted room hire income for Q4 is £14,600.", True),  # "Q4" is no amount
        ("room hire income for Q4", "Q4: 4", False),
        ("ratio of capital expenditure", "In 2019 it was 103.2 / 69.3 = 1.49.", True),  # a worked answer: its result
        ("ratio of capital expenditure", "1.49 / 1.0 = 1.49 - 0.49 = 1.0", False),
    ],
)
def test_scoring(words, reply, right):
    assert bool(reports.judge(_q(words), reply)) is right


def test_a_reply_finer_than_the_gold_is_right_at_its_own_rounding():
    """Gold 7.446 printed "7.4%" (one decimal): "7.45%" is the exact value at two decimals, right,
    though rounding it again to one would make 7.5; "7.47%" is not."""
    q = {"scale": "percent", "op": "pct_change", "decimals": 1}
    assert reports.number_match("7.45", "percent", "7.45%", q, 7.446) == "scaled"
    assert reports.number_match("7.4", "percent", "7.4%", q, 7.446) == "scaled"
    assert reports.number_match("7.47", "percent", "7.47%", q, 7.446) == ""


def test_abstention_and_unanswerable_verdicts():
    row = {"id": "x", "short": "", "text": "The documents do not say.", "abstained": "flag"}
    assert reports.score_row(row, _q("free cash flow"))["verdict"] == "right"
    assert reports.score_row(row, _q("Rail in 2018"))["verdict"] == "abstained"
    answered = {**row, "short": "1,204 thousand", "text": "1,204", "abstained": ""}
    assert reports.score_row(answered, _q("free cash flow"))["verdict"] == "wrong"


# ---- the held-out sets (``--set heldout`` … ``heldout7``) ----------------------------------------

HELDOUT_SOURCES, HELDOUT_FILE = reports.SETS["heldout"]
HELDOUT = reports.load_questions(HELDOUT_FILE)
HELDOUT_SETS = ("heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7")


@pytest.fixture(scope="module", params=HELDOUT_SETS)
def heldout_set(request, tmp_path_factory) -> tuple[str, list[dict], dict[str, str]]:
    """A held-out set's name, its questions, and each of its excerpts' file name → the text
    edgerag's readers make of it, its white space made single spaces (a PDF's lines wrap inside
    a phrase)."""
    sources, questions = reports.SETS[request.param]
    written = reports.write_docs(tmp_path_factory.mktemp(request.param), sources)
    texts: dict[str, str] = {}
    for item in iter_documents(list(written.values())):
        assert not isinstance(item, Skipped), item
        if isinstance(item, Document):
            name = Path(item.path or item.source).name
            texts[name] = texts.get(name, "") + " " + " ".join(item.text.split())
    return request.param, reports.load_questions(questions), texts


def test_heldout_questions_parse_and_name_their_sources(heldout_set):
    """Every held-out question is well formed and names an excerpt that is written and read; no
    two sets share an excerpt."""
    name, questions, docs = heldout_set
    assert len({q["id"] for q in questions}) == len(questions) >= 40
    assert all(q["id"].startswith(f"{name}-") for q in questions)
    assert set(Counter(q["kind"] for q in questions)) == set(reports.KINDS)
    others = {q["doc"] for other, (_, file) in reports.SETS.items() if other != name for q in reports.load_questions(file)}
    assert not {q["doc"] for q in questions} & others
    assert {q["doc"] for q in questions} == set(docs)
    for q in questions:
        assert q["op"] in reports.OPS and q["scale"] in (*reports.SCALES, "percent") if "scale" in q else True, q
        assert {"number": "value", "numbers": "values", "list": "items", "choice": "options"}.get(q["answer_type"], "answers") in q, q
        if q["answer_type"] == "choice":
            assert set(q["answers"]) <= set(q["options"]), q
        assert reports.gold_text(q)


def test_heldout_looked_up_values_are_in_their_excerpts(heldout_set):
    _, questions, docs = heldout_set
    for q in questions:
        if q["kind"] in ("table", "text") and q["answer_type"] == "number":
            printed = f"{abs(q['value']):,.{q['decimals']}f}"
            assert printed in docs[q["doc"]], (q["id"], printed)
        for v in q.get("values", []):
            assert f"{v:,.{q['decimals']}f}" in docs[q["doc"]], (q["id"], v)
        if q["answer_type"] == "list":
            assert all(i in docs[q["doc"]] for i in q["items"]), q["id"]


# ---- another system's answers beside edgerag's (``--answers-from``) ------------------------------


def _record(q: dict, short: str, abstained: str = "") -> dict:
    return {"id": q["id"], "question": q["question"], "short": short, "text": short, "abstained": abstained, "seconds": 1.0}


def test_answers_from_scores_both_systems_side_by_side(tmp_path, capsys):
    """Two hand-written records of each system, scored by reports.py's own rules and tallied by
    kind: edgerag right on a table value and abstaining on an unanswerable question, the other
    system reading the other year's column and answering the unanswerable with a number."""
    rail, cash = _q("Rail in 2018"), _q("free cash flow")
    ours = {"model": "edgerag.gguf", "rows": [_record(rail, "£131.4m"), _record(cash, "", "flag")]}
    theirs = tmp_path / "plain.json"
    theirs.write_text(json.dumps({"model": "plain.gguf", "rows": [_record(rail, "£389.1m"), _record(cash, "1,204 thousand")]}))
    by_id = {q["id"]: q for q in QUESTIONS}
    assert reports.compare(theirs, ours, by_id, QUESTIONS) == 0
    lines = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| ") and line.count("|") == 5
    }
    assert lines["table"] == ["1", "1 / 0 / 0", "0 / 0 / 1"]
    assert lines["unanswerable"] == ["1", "1 / 0 / 0", "0 / 0 / 1"]
    assert lines["all"] == ["2", "2 / 0 / 0", "0 / 0 / 2"]
    scored = json.loads((tmp_path / "plain_scored.json").read_text())
    assert [r["verdict"] for r in scored["rows"]] == ["wrong", "wrong"] and scored["model"] == "plain.gguf"


def test_plain_rag_asks_each_excerpt_of_its_own_index_over_the_written_files(tmp_path, monkeypatch):
    """llamaindex_rag.py ``--set heldout``: one index per excerpt, over the files reports.py
    writes (the DOCX and PDF too), each holding exactly its excerpt's questions. (The script
    runs `write_docs` in edgerag's venv; here it is called in this process.)"""
    import argparse

    import llamaindex_rag

    monkeypatch.setattr(llamaindex_rag, "write_docs", lambda args, folder: reports.write_docs(folder, HELDOUT_SOURCES))
    args = argparse.Namespace(set="heldout", work=str(tmp_path), skip=0, limit=None)
    plan = llamaindex_rag.questions_and_pages(args)
    assert [files[0].name for _, files, _ in plan] == list(dict.fromkeys(q["doc"] for q in HELDOUT))
    assert all(len(files) == 1 and files[0].stat().st_size > 1000 for _, files, _ in plan)
    assert {f.suffix for _, files, _ in plan for f in files} >= {".docx", ".pdf"}
    assert all(q["doc"] == files[0].name for _, files, qs in plan for q in qs)
    assert sorted(q["id"] for _, _, qs in plan for q in qs) == sorted(q["id"] for q in HELDOUT)
