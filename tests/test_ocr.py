"""Scanned pages become text (issue #34): image-only PDF pages and image files are read by
the real OCR engine (RapidOCR's ONNX models from its wheel), the text is found by a query
with its page, marked as OCR with its confidence, and a page of noise is named, not indexed."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.ingest import ocr

from .docmaker import make_scanned_pdf, noise_image, text_image

pytestmark = [
    pytest.mark.skipif(ocr.engine_name() is None, reason="no OCR engine installed (pip install 'edgerag[ocr]'; the test extra has it)"),
    pytest.mark.slow,  # five pages through the real OCR models: about 30 s on 2 cores
]

LETTER = [
    "Dear Mr Harwick,",
    "The pump at Oakley Weir failed on the third of March.",
    "It was replaced by a unit from Dorrance Engineering.",
    "Yours sincerely, Edith Varga",
]
MEMO = ["Memo to the board", "The northern reservoir was drained in October", "for repairs to the Kettering valve."]
FAINT = ["Minutes of the spring meeting", "The auditors from Pellmore and Quell signed the accounts."]


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    d = tmp_path_factory.mktemp("scans")
    mp = pytest.MonkeyPatch()
    mp.setenv("EDGERAG_CACHE", str(d / "cache"))  # a fresh OCR cache: every page is really recognised
    pdf = make_scanned_pdf(
        d / "archive.pdf",
        [text_image(LETTER), text_image(MEMO, angle=2.5), text_image(FAINT, ink=110, paper=170), noise_image(), None],
        text_pages={5: "This last page has a real text layer about the Brannock orchard and its forty pear trees."},
    )
    png = d / "letter.png"
    text_image(["Invoice 4471 from Dorrance Engineering", "for one replacement pump, paid in April."]).save(png)
    rag = EdgeRAG(d / "ix", progress=False)
    report = rag.insert([pdf, png])
    yield rag, report
    rag.close()
    mp.undo()


def test_scanned_pages_are_read_and_marked(scans):
    rag, report = scans
    assert report.ocr_pages == 4  # three PDF pages and the PNG; the noise page is not one of them
    assert report.ocr_seconds >= 0 and "by OCR" in report.summary()
    ctx = rag.retrieve("Who replaced the pump at Oakley Weir?", method="text", budget=200)
    top = ctx.units[0]
    assert "Dorrance Engineering" in top.text
    assert top.provenance["pages"] == [1, 1] and top.provenance["ocr"] >= ocr.MIN_CONFIDENCE
    assert top.provenance["label"] == "archive.pdf p. 1 (OCR)"


@pytest.mark.parametrize(
    ("question", "words", "page"),
    [
        ("What was drained in October?", "northern reservoir", 2),  # a page turned by 2.5°
        ("Who signed the accounts at the spring meeting?", "Pellmore", 3),  # grey on grey
    ],
)
def test_rotated_and_faint_scans_are_found_on_their_page(scans, question, words, page):
    rag, _ = scans
    top = rag.retrieve(question, method="text", budget=200).units[0]
    assert words in top.text and top.provenance["pages"] == [page, page] and top.provenance.get("ocr")


def test_a_page_of_noise_is_named_not_indexed(scans):
    rag, report = scans
    [(source, why)] = [s for s in report.skipped if "archive.pdf" in s[0]]
    assert source.endswith("p. 4") and "OCR found no confident text" in why
    [row] = [r for r in rag.documents() if r["source"].endswith("archive.pdf")]
    assert row["ocr_pages"] == [1, 2, 3]
    assert row["skipped_pages"] == {"OCR: no confident text": [4]}
    page5 = rag.retrieve("pear trees of the orchard", method="text", budget=200).units[0]
    assert page5.provenance["label"] == "archive.pdf p. 5" and "ocr" not in page5.provenance  # a text layer stays text


def test_an_image_file_is_a_document(scans):
    rag, _ = scans
    top = rag.retrieve("Which invoice was for the replacement pump?", method="text", budget=200).units[0]
    assert "4471" in top.text and top.provenance["label"] == "letter.png p. 1 (OCR)"
    [row] = [r for r in rag.documents() if r["source"].endswith("letter.png")]
    assert row["ocr_pages"] == [1]


def test_ocr_is_remembered_per_page(tmp_path, monkeypatch):
    """A killed run does not OCR finished pages again: the same page image is answered from the cache."""
    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path))
    first = ocr.recognise(text_image(LETTER))
    again = ocr.recognise(text_image(LETTER))
    assert not first.cached and again.cached and again.text == first.text and "Oakley Weir" in again.text


def test_without_an_engine_images_are_named_with_the_extra(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGERAG_OCR", "off")
    ocr.engine_name.cache_clear()
    try:
        png = tmp_path / "scan.png"
        text_image(["Nothing will read this."]).save(png)
        pdf = make_scanned_pdf(tmp_path / "scan.pdf", [text_image(["Nor this."])])
        from edgerag.ingest import Skipped, iter_documents

        why = {s.source: s.reason for s in iter_documents([png, pdf]) if isinstance(s, Skipped)}
        assert "pip install 'edgerag[ocr]'" in why[str(png)] and "pip install 'edgerag[ocr]'" in why[str(pdf)]
    finally:
        ocr.engine_name.cache_clear()
