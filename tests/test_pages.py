"""Citations name the page, not the chunk's page range (issue #30): a chunk that spans the
pages of a PDF knows where each of its sentences starts, the evidence reader's units name the
pages of the sentences they hold, and `edgerag docs` lists the pages left out of the index."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.answer.citations import verified_citations
from edgerag.answer.evidence import evidence_units
from edgerag.provenance import label_at

from .docmaker import make_pdf

PAGES = [
    "The annual report of the Harwick Water Board covers the year 2024. The board met eleven times.",
    "Rainfall in the catchment was close to the long-term average. Reservoir levels stayed above half.",
    "The pump at Oakley Weir failed in March and was replaced by a unit from Dorrance Engineering. "
    "The replacement cost forty thousand pounds.",
    "Water quality met every standard. Two samples from the northern mains were retested.",
    "The board thanks its staff. The next report will be published in the spring.",
]


@pytest.fixture(scope="module")
def report_rag(tmp_path_factory):
    """The report in chunks that run across pages (``chunk_breaks`` off, as indexes built
    before it were): the case where a citation must find the page inside the chunk."""
    d = tmp_path_factory.mktemp("pages")
    make_pdf(d / "report.pdf", PAGES)
    rag = EdgeRAG(d / "ix", progress=False, chunk_breaks=False)
    rag.insert([d / "report.pdf"])
    yield rag
    rag.close()


def test_each_page_starts_a_chunk_by_default(tmp_path):
    pdf = make_pdf(tmp_path / "report.pdf", [PAGES[0], PAGES[1] + " The text runs on", "across the break. " + PAGES[2]])
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([pdf])
    chunks = [rag.index.get("chunks", c) for c in rag.index.ids("chunks")]
    assert sorted(c["loc"]["pages"] for c in chunks) == [[1, 1], [2, 2], [3, 3]]
    sentences = [rag.index.get("sentences", s) for c in chunks for s in c["sentences"]]
    assert all(s["loc"]["pages"][0] == s["loc"]["pages"][1] for s in sentences)  # none runs across a page
    ctx = rag.retrieve("Who replaced the pump at Oakley Weir?", method="text", budget=2000)
    assert ctx.units[0].provenance["label"] == "report.pdf p. 3"


def test_a_chunk_spanning_pages_knows_where_each_page_starts(report_rag):
    ctx = report_rag.retrieve("Who replaced the pump at Oakley Weir?", method="text", budget=2000)
    chunk = next(u for u in ctx.units if u.kind == "chunk")
    assert chunk.provenance["pages"] == [1, 5] and chunk.provenance["label"] == "report.pdf p. 1–5"
    starts = chunk.provenance["page_starts"]
    assert [p for _, p in starts] == [1, 2, 3, 4, 5]
    at = chunk.text.index("Dorrance")
    assert label_at(chunk.provenance, chunk.text, "Dorrance Engineering") == "report.pdf p. 3"
    assert starts[2][0] <= at < starts[3][0]
    # the citation of a short answer names its page; --json carries page_starts
    [cite] = verified_citations([1], [chunk], "Dorrance Engineering")
    assert cite.how == "cited" and cite.where == "report.pdf p. 3"
    assert "page_starts" in ctx.to_dict()["units"][0]["provenance"]


def test_an_answer_on_the_last_page_is_cited_there(report_rag):
    ctx = report_rag.retrieve("When will the next report be published?", method="text", budget=2000)
    [cite] = verified_citations([], ctx.units[:1], "spring")
    assert cite.how == "matched" and cite.where == "report.pdf p. 5"


def test_evidence_names_the_pages_of_its_sentences(report_rag):
    rag = report_rag
    question = "Which company supplied the replacement pump?"
    ctx = rag.retrieve(question, method="text", budget=2000)
    [ev] = evidence_units(rag.index, rag.embedder, question, ctx.units, budget=40)
    assert "Dorrance Engineering" in ev.text
    pages = ev.provenance["pages"]
    assert pages[0] <= 3 <= pages[1] and pages != [1, 5]  # narrower than the chunk
    assert label_at(ev.provenance, ev.text, "Dorrance Engineering") == "report.pdf p. 3"


def test_pieces_of_a_chunk_too_big_for_the_budget_cite_their_own_page(report_rag):
    ctx = report_rag.retrieve("Who replaced the pump at Oakley Weir?", method="bridge-ppr", budget=40)
    assert ctx.units and all(u.kind in ("subchunk", "sentence") for u in ctx.units)
    best = ctx.units[0]
    assert "Dorrance" in best.text and best.provenance["label"] == "report.pdf p. 3"


def test_docs_lists_the_pages_left_out(tmp_path, no_ocr):
    f = make_pdf(tmp_path / "mixed.pdf", ["Real text on page one.", "", "Real text on page three.", ""], image_pages=(2, 4))
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([f])
    [row] = rag.documents()
    assert row["skipped_pages"] == {"no text layer (images only)": [2, 4]}
    rag.insert([f])  # unchanged: not read again, and the record keeps what was left out
    assert rag.documents()[0]["skipped_pages"] == {"no text layer (images only)": [2, 4]}


def test_a_page_heading_is_the_passage_title(tmp_path):
    """A PDF page headed "Max Mack" is found by that name, as a passage titled so would be
    (hops and comparisons find a person's passage by title), and the heading is no part of
    the first sentence's names."""
    pages = [
        "A Day of Roses in August\nA Day of Roses in August is a 1927 German silent film directed by Max Mack.",
        "Max Mack\nMax Mack (2 October 1884 – 18 February 1973) was a German screenwriter and film director born in Halberstadt.",
    ]
    pdf = make_pdf(tmp_path / "films.pdf", pages)
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([pdf])
    titles = {u.title for u in rag.retrieve("Max Mack", method="text", budget=500).units}
    assert titles == {"Max Mack", "A Day of Roses in August"}
    from edgerag.answer.relations import find_passage
    from edgerag.text.linkkeys import capitalised_runs

    found = find_passage("Max Mack", [], rag.passages_named)
    assert found is not None and "Halberstadt" in found.text and found.provenance["label"] == "films.pdf p. 2"
    first = rag.index.get("sentences", rag.index.get("chunks", found.chunk_id)["sentences"][1])
    assert "Max Mack" in capitalised_runs(first["text"])  # not "Max Mack Max Mack"
