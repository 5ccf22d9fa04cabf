"""PDF, DOCX, HTML and EPUB readers, their bad inputs, provenance to the unit, and in-place
updates of edited files. Every fixture is made here (tests/docmaker.py): nothing committed,
nothing downloaded; the end-to-end tests use the real LMDB, hnswlib and embedder."""

from __future__ import annotations

import os
import zipfile

import pytest

from edgerag import EdgeRAG
from edgerag.answer.citations import citation
from edgerag.ingest import Skipped, iter_documents
from edgerag.provenance import locate
from edgerag.types import Document, Mark

from .docmaker import encrypt_pdf, html_page, make_docx, make_epub, make_pdf, zip_bomb

PAGE3 = "The Zorblax vault access code is tangerine-42, says the third page."


def _split(items):
    docs = [i for i in items if isinstance(i, Document)]
    skipped = {s.source: s.reason for s in items if isinstance(s, Skipped)}
    return docs, skipped


def _pages(n=5):
    pages = [f"Page {i} is about the harvest of region {i}. The weather there was mild in spring. " * 4 for i in range(1, n + 1)]
    pages[2] = PAGE3 + " " + pages[2]
    return pages


@pytest.fixture
def library(tmp_path):
    """One good file of each kind, plus every bad case, in one folder."""
    d = tmp_path / "library"
    d.mkdir()
    make_pdf(d / "report.pdf", _pages())
    make_docx(
        d / "notes.docx",
        [
            ("h", 1, "Results"),
            ("p", "The pear harvest reached forty tonnes."),
            ("h", 2, "Costs"),
            ("t", [["item", "cost"], ["bolts", "3 EUR"], ["nuts", "2 EUR"]]),
            ("h", 1, "Outlook"),
            ("p", "Next year the orchard doubles."),
        ],
    )
    (d / "page.html").write_text(
        html_page(
            "Lighthouse log",
            "<article><h1>Lighthouse</h1><p>The keeper is named Ada Quill.</p>"
            "<h2>Lamps</h2><p>The lamp burns whale oil.</p><ul><li>wick trimmed daily</li></ul></article>",
        )
    )
    make_epub(
        d / "book.epub",
        "The Mill Book",
        [
            (
                "Chapter One",
                "<h1>Chapter One</h1><p>The dragon sleeps under the old mill.</p><h2>Night</h2><p>At night it dreams of grain.</p>",
            ),
            ("Chapter Two", "<p>The miller never notices.</p>"),
        ],
    )
    # bad input
    encrypt_pdf(d / "report.pdf", d / "locked.pdf")
    make_pdf(d / "scanned.pdf", ["", ""], image_pages=(1, 2))
    (d / "truncated.pdf").write_bytes((d / "report.pdf").read_bytes()[:900])
    (d / "notzip.docx").write_text("I am plain text pretending to be Word.")
    zip_bomb(d / "bomb.docx")
    zip_bomb(d / "bomb.epub", member="OEBPS/ch1.xhtml")
    (d / "scripts.html").write_text(
        "<html><head><script>var a = 1;</script></head><body><script>track()</script><style>p{}</style></body></html>"
    )
    (d / "text.pdf").write_text("Plain words saved with a .pdf name.")
    (d / "pdf.txt").write_bytes((d / "report.pdf").read_bytes())
    return d


def test_pdf_pages_are_marked_and_chunks_know_their_page_range(tmp_path):
    f = make_pdf(tmp_path / "report.pdf", _pages())
    docs, skipped = _split(list(iter_documents([f])))
    assert not skipped and len(docs) == 1
    doc = docs[0]
    assert doc.kind == "pdf" and doc.pages == 5 and [m.page for m in doc.marks] == [1, 2, 3, 4, 5]
    at = doc.text.index("tangerine-42")
    assert locate(doc.marks, at, at + 10) == {"pages": [3, 3]}
    page2 = doc.marks[1].start
    assert locate(doc.marks, page2 - 20, page2 + 20) == {"pages": [1, 2]}  # across a page break


def test_a_long_pdf_is_read_in_parts_that_keep_their_pages(tmp_path):
    f = make_pdf(tmp_path / "long.pdf", _pages(12))
    docs, _ = _split(list(iter_documents([f], part_chars=1500)))
    assert len(docs) > 2 and all(d.title.startswith("long (part ") for d in docs)
    pages = [m.page for d in docs for m in d.marks]
    assert pages == sorted(pages) and set(pages) == set(range(1, 13))


def test_docx_headings_become_the_section_path_and_tables_rows(library):
    (doc,), _ = _split(list(iter_documents([library / "notes.docx"])))
    assert "Costs — item: bolts; cost: 3 EUR" in doc.text and "Costs — item: nuts; cost: 2 EUR" in doc.text
    at = doc.text.index("bolts")
    assert locate(doc.marks, at, at + 5) == {"section": "Results › Costs"}
    at = doc.text.index("Next year")
    assert locate(doc.marks, at, at + 5) == {"section": "Outlook"}


def test_html_keeps_the_article_and_drops_navigation_scripts_and_furniture(library):
    (doc,), _ = _split(list(iter_documents([library / "page.html"])))
    assert doc.title == "Lighthouse log"
    for kept in ("The keeper is named Ada Quill.", "The lamp burns whale oil.", "wick trimmed daily"):
        assert kept in doc.text
    for dropped in ("Menu entry", "cookies", "Sidebar teaser", "Copyright", "script text", "tracking", "color"):
        assert dropped not in doc.text, dropped
    at = doc.text.index("whale")
    assert locate(doc.marks, at, at + 5) == {"section": "Lighthouse › Lamps"}


def test_epub_chapters_in_spine_order_titled_by_the_table_of_contents(library, tmp_path):
    (doc,), _ = _split(list(iter_documents([library / "book.epub"])))
    assert doc.title == "The Mill Book"
    assert doc.text.index("dragon sleeps") < doc.text.index("miller never")
    at = doc.text.index("dreams")
    assert locate(doc.marks, at, at + 5) == {"section": "Chapter One › Night"}
    at = doc.text.index("miller")
    assert locate(doc.marks, at, at + 5) == {"section": "Chapter Two"}
    plain = make_epub(tmp_path / "plain.epub", "Plain", [("", "<h2>Only a heading</h2><p>Body text.</p>")], nav=False)
    (doc,), _ = _split(list(iter_documents([plain])))
    assert doc.marks[0].section == "Only a heading"


def test_every_bad_file_is_named_with_its_reason_and_the_rest_is_read(library, no_ocr):
    docs, skipped = _split(list(iter_documents([library])))
    assert sorted(os.path.basename(d.source) for d in docs) == ["book.epub", "notes.docx", "page.html", "report.pdf"]
    why = {os.path.basename(k): v for k, v in skipped.items()}
    assert "encrypted" in why["locked.pdf"] and "password" in why["locked.pdf"]
    assert why["scanned.pdf"].startswith("no text layer:") and "edgerag[ocr]" in why["scanned.pdf"]
    assert "damaged or truncated PDF" in why["truncated.pdf"]
    assert "not a DOCX" in why["notzip.docx"] and "not a zip" in why["notzip.docx"]
    assert "zip bomb" in why["bomb.docx"] and "zip bomb" in why["bomb.epub"]
    assert "no readable text" in why["scripts.html"]
    assert "not a PDF" in why["text.pdf"] and "plain text" in why["text.pdf"]
    assert "it is a PDF" in why["pdf.txt"] and "name it .pdf" in why["pdf.txt"]


def test_a_pdf_with_a_few_scanned_pages_indexes_the_rest_and_names_them(tmp_path, no_ocr):
    f = make_pdf(tmp_path / "mixed.pdf", ["Real text on page one.", "", "Real text on page three."], image_pages=(2,))
    docs, skipped = _split(list(iter_documents([f])))
    assert [m.page for m in docs[0].marks] == [1, 3]
    assert "no text layer on 1 of 3 pages" in skipped[f"{f} p. 2"]


def test_a_docx_with_a_lying_member_size_is_refused(tmp_path):
    """A member that declares a small size but is not what it claims: zipfile's CRC check."""
    f = tmp_path / "broken.docx"
    make_docx(f, [("p", "hello")])
    data = bytearray(f.read_bytes())
    i = data.find(b"word/document.xml") + 40  # corrupt compressed bytes of the main part
    data[i : i + 20] = b"\xff" * 20
    f.write_bytes(bytes(data))
    docs, skipped = _split(list(iter_documents([f])))
    assert not docs and "DOCX" in skipped[str(f)]


# ---- end to end: real index ------------------------------------------------------------------
def test_index_a_folder_of_formats_and_query_returns_the_page(library, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, text_unit="subchunks")
    report = rag.insert([library])
    assert report.docs_added == 4
    named = {os.path.basename(s) for s, _ in report.skipped}
    assert {"locked.pdf", "scanned.pdf", "truncated.pdf", "bomb.docx", "scripts.html"} <= named
    ctx = rag.retrieve("What is the access code of the Zorblax vault?", method="text", budget=200)
    top = ctx.units[0]
    assert "tangerine-42" in top.text
    a, b = top.provenance["pages"]
    assert a <= 3 <= b and top.provenance["label"] == ("report.pdf p. 3" if a == b else f"report.pdf p. {a}–{b}")
    assert top.to_dict()["provenance"]["file"].endswith("report.pdf")  # what query --json prints
    assert citation(1, top, "cited").where == top.provenance["label"]
    sentence = next(r for r in rag.index.get_many("sentences", rag.index.ids("sentences")) if "tangerine-42" in r["text"])
    assert sentence["loc"] == {"pages": [3, 3]}
    ctx = rag.retrieve("Who keeps the lighthouse?", method="keyword", budget=200)
    hit = next(u for u in ctx.units if "Ada Quill" in u.text)
    assert hit.provenance["label"].startswith("page.html § Lighthouse")
    rows = {os.path.basename(r["source"]): r for r in rag.documents()}
    assert rows["report.pdf"]["pages"] == [1, 5] and rows["report.pdf"]["file_pages"] == 5
    assert rows["notes.docx"]["kind"] == "docx" and "pages" not in rows["notes.docx"]


def test_an_edited_file_replaces_its_old_version_and_unchanged_files_are_not_read(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    note = d / "note.md"
    note.write_text("# Note\n\nThe Quillmoor bridge is painted ochre.\n\nThe ferry leaves at noon.")
    make_pdf(d / "report.pdf", _pages(3))
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    first = rag.insert([d])
    assert first.docs_added == 2

    again = rag.insert([d])
    assert again.files_unchanged == 2 and again.docs_added == 0 and again.docs_present == 2 and again.texts_embedded == 0

    note.write_text("# Note\n\nThe Quillmoor bridge is painted violet.\n\nThe ferry leaves at noon.")
    os.utime(note, ns=(note.stat().st_atime_ns, note.stat().st_mtime_ns + 10**9))
    edited = rag.insert([d])
    assert edited.files_unchanged == 1 and edited.docs_added == 1 and edited.docs_replaced == 1
    notes = [r for r in rag.documents() if r["source"].endswith("note.md")]
    assert len(notes) == 1
    for method in ("text", "keyword", "knng"):
        text = rag.retrieve("What colour is the Quillmoor bridge?", method=method, budget=300).text()
        assert "violet" in text and "ochre" not in text, method

    os.utime(note, ns=(note.stat().st_atime_ns, note.stat().st_mtime_ns + 10**9))  # touched, same bytes
    touched = rag.insert([note])
    assert touched.files_unchanged == 1 and touched.docs_added == 0 and touched.texts_embedded == 0


def test_a_file_read_by_older_readers_is_read_again_keeping_what_reads_the_same(tmp_path, monkeypatch):
    from edgerag.ingest import files

    d = tmp_path / "docs"
    d.mkdir()
    (d / "note.md").write_text("# Note\n\nThe Quillmoor bridge is painted ochre.")
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    assert rag.insert([d]).docs_added == 1
    monkeypatch.setattr(files, "READER_VERSION", files.READER_VERSION + 1)  # the readers improved since
    again = rag.insert([d])
    assert again.files_unchanged == 0 and again.docs_added == 0 and again.docs_present == 1 and again.texts_embedded == 0
    assert rag.insert([d]).files_unchanged == 1  # now recorded as read by this version


def test_delete_accepts_a_file_path_and_indexing_it_again_reads_it(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("Alpha text about owls.")
    make_docx(d / "b.docx", [("h", 1, "Owls"), ("p", "Barn owls hunt at dusk.")])
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([d])
    r = rag.delete([str(d / "b.docx")])
    assert len(r.deleted) == 1 and not r.missing
    assert [os.path.basename(x["source"]) for x in rag.documents()] == ["a.txt"]
    assert rag.delete([str(d / "nothing.pdf")]).missing == [str(d / "nothing.pdf")]
    back = rag.insert([d])
    assert back.docs_added == 1 and back.files_unchanged == 1


def test_a_zip_that_is_not_an_epub_package_is_named():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as t:
        f = Path(t) / "odd.epub"
        with zipfile.ZipFile(f, "w") as z:
            z.writestr("hello.txt", "no container here")
        _, skipped = _split(list(iter_documents([f])))
        assert "damaged EPUB" in skipped[str(f)] and "container.xml" in skipped[str(f)]


def test_locate_without_marks_and_with_sections():
    assert locate((), 0, 10) == {}
    marks = (Mark(0, section="A"), Mark(50, section="A › B"))
    assert locate(marks, 10, 60) == {"section": "A"} and locate(marks, 55, 60) == {"section": "A › B"}
