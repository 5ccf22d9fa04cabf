"""The office benchmark's data (benchmarks/office/, benchmarks/office.py; issue #56), without a
model: the generator writes every document, every document reads through edgerag's readers,
every accepted answer is in the documents it names, the questions file is well formed, and
the CRAG scoring reads answers as it says."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from edgerag.ingest import iter_documents
from edgerag.ingest.blocks import Skipped
from edgerag.types import Document

REPO = Path(__file__).resolve().parent.parent
OFFICE = REPO / "benchmarks" / "office"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sys.path.insert(0, str(REPO / "benchmarks"))  # benchmarks/office.py imports its neighbour common.py
bench = _load("office_bench", REPO / "benchmarks" / "office.py")
make_docs = _load("office_make_docs", OFFICE / "make_docs.py")
QUESTIONS = bench.load_questions()


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> dict[str, str]:
    """Each written file's name → the text edgerag's readers make of it."""
    folder = tmp_path_factory.mktemp("office")
    written = make_docs.build(folder)
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in written)
    texts: dict[str, str] = {}
    for item in iter_documents([folder]):
        assert not isinstance(item, Skipped), item
        if isinstance(item, Document):
            name = Path(item.path or item.source).name
            texts[name] = texts.get(name, "") + "\n" + item.text
    return texts


def test_every_source_is_written_and_read(docs):
    sources = [p for p in (OFFICE / "sources").iterdir() if p.is_file()]
    assert len(sources) >= 12
    assert set(docs) == {make_docs.output_name(p) for p in sources}
    formats = Counter(Path(name).suffix for name in docs)
    assert formats[".md"] >= 2 and formats[".html"] >= 2 and formats[".docx"] >= 2 and formats[".pdf"] >= 2, formats
    assert all(len(text.split()) > 100 for text in docs.values()), {n: len(t.split()) for n, t in docs.items()}


def test_tables_are_real_tables(tmp_path):
    import docx

    make_docs.build(tmp_path)
    with_tables = [p for p in tmp_path.glob("*.docx") if docx.Document(str(p)).tables]
    assert len(with_tables) >= 2
    assert len(docx.Document(str(tmp_path / "annual_report_2025.docx")).tables[0].rows) == 5
    assert sum("<table" in p.read_text() for p in tmp_path.glob("*.html")) >= 2
    assert sum(bool(re.search(r"^\|---", p.read_text(), re.M)) for p in tmp_path.glob("*.md")) >= 2


def test_sources_stay_small():
    size = sum(p.stat().st_size for p in OFFICE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert size < 200_000, size


def test_the_questions_file_is_well_formed(docs):
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids)) and len(ids) >= 90
    kinds = Counter(q["kind"] for q in QUESTIONS)
    assert set(kinds) == set(bench.KINDS), kinds
    assert kinds["unanswerable"] >= 15
    types = {q["answer_type"] for q in QUESTIONS}
    assert {"who", "role", "department", "when", "how-much", "how-many", "where", "yes-no", "title"} <= types
    for q in QUESTIONS:
        assert set(q) <= {"id", "question", "answers", "kind", "answer_type", "doc", "history", "reject"}, q
        assert q["question"].strip() and isinstance(q["answers"], list) and q["doc"], q
        assert all(d in docs for d in q["doc"]), q
        assert (q["kind"] == "unanswerable") == (q["answers"] == []), q
        assert (q["kind"] == "follow-up") == bool(q.get("history")), q
        if q["answer_type"] == "yes-no":
            assert q["answers"] in (["yes"], ["no"]), q


def test_every_accepted_answer_is_in_its_documents(docs):
    for q in QUESTIONS:
        if not q["answers"] or q["answer_type"] == "yes-no":
            continue
        text = f" {bench.canon(' '.join(docs[d] for d in q['doc']))} "
        assert any(f" {bench.canon(a)} " in text for a in q["answers"]), q


def test_the_scoring_reads_answers_as_documented():
    assert bench.is_right("£2,500", ["2,500 pounds"]) and bench.is_right("2,500 pounds", ["£2,500"])
    assert bench.is_right("£9.4m", ["£9.4 million"]) and not bench.is_right("£94 million", ["£9.4 million"])
    assert bench.is_right("Dr Miriam Okafor, the Director", ["Miriam Okafor"])
    assert not bench.is_right("25", ["31"]) and not bench.is_right("", ["31"])
    assert not bench.is_right("the Deputy Director", ["Director"], ["Deputy Director"])
    assert bench.is_right("The Director", ["Director"], ["Deputy Director"])
    assert bench.is_right("No, only standard class.", ["no"], yes_no=True)
    assert not bench.is_right("Yes, but not on Sundays.", ["no"], yes_no=True)
    assert bench.is_right("3.5%", ["3.5 per cent"])
    assert bench.match("9.4 million", ["£9.4 million"]) == "no unit" and bench.match("£9.4 million", ["£9.4 million"]) == "exact"
    assert not bench.is_right("£640", ["£640,000"]) and not bench.is_right("9.4 million euros", ["£6.8 million"])
    long = "Durham, Kendal, Hexham and Whitby each published papers in 2025 as the table shows for every site listed"
    assert not bench.is_right(long, ["Durham"])
    unanswerable = {"answers": [], "answer_type": "who"}
    assert bench.verdict(unanswerable, "", "flag") == ("right", 1)
    assert bench.verdict(unanswerable, "Gareth Pryce", "") == ("wrong", -1)
    assert bench.verdict({"answers": ["31"], "answer_type": "how-many"}, "", "words") == ("abstained", 0)
    said = type("A", (), {"short": "I do not know", "text": "I do not know"})()
    assert bench.abstained(said) == "words"
