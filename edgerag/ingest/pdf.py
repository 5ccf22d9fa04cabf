"""PDF → documents, page by page, with pypdfium2 (PDFium in the wheel; Apache-2.0/BSD).

PDFium opens the file lazily and each page's text is taken and the page closed before the
next, so memory holds one page plus at most two parts of text (blocks.py), whatever the
page count. Every page's text is a `Block` with its 1-based page number, so chunks know the
pages they span. A table the page's layout shows (columns set apart by gaps) is written one
line a row with its header, in place of its cells' text (pdf_tables.py).

Scanned pages (images with fewer than `MIN_TEXT_CHARS` characters of text layer) are
rendered and read by OCR (ocr.py) when an engine is installed; their blocks carry the OCR
confidence, and pages OCR cannot read with confidence are named and left out. Without an
engine they are named and skipped ("pip install 'edgerag[ocr]' to read them by OCR").

Refused, by name, with the reason: a file that is not a PDF (wrong extension), a password-
protected PDF, a damaged or truncated one PDFium cannot open, and a PDF with no text at all.
Pages left out of an otherwise indexed PDF are reported in one line, and the rest is indexed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..types import Document
from . import ocr
from .blocks import Block, Skipped, pack
from .pdf_tables import Heading
from .sniff import looks_like

_CONTROL = dict.fromkeys([*range(0, 9), 11, 12, *range(14, 32), 0xFFFE, 0xFFFF])
"""PDFium marks soft hyphens and odd glyphs with control characters: dropped."""
_BLANKS = re.compile(r"[ \t]+\n")


def read_pdf(path: Path, part_chars: int) -> Iterator:
    """`Document`s of a PDF's text (parts of about ``part_chars``), or `Skipped` records."""
    import pypdfium2 as pdfium

    with open(path, "rb") as f:
        head = f.read(1024)
    if b"%PDF-" not in head:
        yield Skipped(str(path), f"not a PDF (no %PDF header; {looks_like(head)}): wrong extension?")
        return
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as e:
        yield Skipped(str(path), _why_unopened(e))
        return
    except OSError as e:
        yield Skipped(str(path), f"unreadable: {e.strerror or e}")
        return
    try:
        pages = len(pdf)
        if pages == 0:
            yield Skipped(str(path), "a PDF with no pages (damaged or truncated?)")
            return
        scanned: list[int] = []
        broken: list[int] = []
        unclear: list[int] = []
        found = 0
        for doc in pack(path, "pdf", _pages(pdf, path, scanned, broken, unclear), path.stem, part_chars, pages):
            found += 1
            yield doc
        if not found:
            if broken:
                why = f"no page could be read (damaged? PDFium failed on {len(broken)} of {pages} pages)"
            elif unclear:
                why = f"OCR found no confident text on any page (confidence below {ocr.MIN_CONFIDENCE}, or blank)"
            else:
                why = f"no text layer: {ocr.INSTALL} to read scanned pages by OCR"
            yield Skipped(str(path), f"{why} ({pages} page{'s' * (pages != 1)}, no extractable text)")
            return
        if scanned:
            yield Skipped(
                f"{path} {_pages_list(scanned)}",
                f"no text layer on {len(scanned)} of {pages} pages (images only): {ocr.INSTALL} to read them by OCR; "
                "the other pages are indexed",
                pages=tuple(scanned),
                what="no text layer (images only)",
            )
        if unclear:
            yield Skipped(
                f"{path} {_pages_list(unclear)}",
                f"OCR found no confident text on {len(unclear)} of {pages} pages (confidence below {ocr.MIN_CONFIDENCE}, "
                "or blank): left out; the other pages are indexed",
                pages=tuple(unclear),
                what="OCR: no confident text",
            )
        if broken:
            yield Skipped(
                f"{path} {_pages_list(broken)}",
                f"PDFium could not read {len(broken)} of {pages} pages (damaged); the other pages are indexed",
                pages=tuple(broken),
                what="unreadable (damaged)",
            )
    finally:
        pdf.close()


MIN_TEXT_CHARS = 20
"""A page whose text layer holds fewer characters than this (none, a page number, a stamp)
but that has images is a scanned page: it is read by OCR when an engine is installed."""


def _pages(pdf, path: Path, scanned: list[int], broken: list[int], unclear: list[int]) -> Iterator[Block]:
    import pypdfium2 as pdfium

    engine = ocr.engine_name()
    progress = None
    carried: Heading | None = None  # the last table's heading on the page before (pdf_tables.py)
    try:
        for i in range(len(pdf)):
            try:
                page = pdf[i]
            except pdfium.PdfiumError:
                broken.append(i + 1)
                continue
            block = None
            try:
                tp = page.get_textpage()
                try:
                    text, carried = _rows(tp, tp.get_text_range(), carried)
                finally:
                    tp.close()
                text = _BLANKS.sub("\n", text.replace("\r\n", "\n").replace("\r", "\n").translate(_CONTROL)).strip()
                if len("".join(text.split())) < MIN_TEXT_CHARS and _has_images(page):
                    if engine is None:
                        if not text:
                            scanned.append(i + 1)
                    else:
                        if progress is None:
                            from ..progress import bar

                            progress = bar(total=len(pdf), desc=f"OCR {path.name}", unit="page")
                            progress.update(i)
                        read = ocr.recognise(page.render(scale=ocr.RENDER_SCALE).to_pil())
                        if read.readable and len(read.text) > len(text):
                            block = Block(
                                _headings_apart(read.text), page=i + 1, ocr=read.confidence, ocr_seconds=0 if read.cached else read.seconds
                            )
                        elif not text:
                            unclear.append(i + 1)
            except pdfium.PdfiumError:
                broken.append(i + 1)
                continue
            finally:
                page.close()
                if progress is not None:
                    progress.update(1)
            if block is None and text:
                block = Block(_headings_apart(text), page=i + 1)
            if block is not None:
                yield block
    finally:
        if progress is not None:
            progress.close()


def _rows(tp, text: str, carried: Heading | None = None) -> tuple[str, Heading | None]:
    """The page's text with each table found by its layout written one line a row
    (pdf_tables.py), and its last table's heading for the next page (``carried``: the page
    before's); the text as PDFium gave it if that fails."""
    from .pdf_tables import with_tables

    try:
        return with_tables(tp.raw, text, carried)
    except Exception:  # a layout PDFium reports oddly must cost the page its tables, never its text
        return text, None


_END = tuple(".!?:;,")


def _headings_apart(text: str) -> str:
    """A blank line after each heading-like line of a page: short (at most 60 % of the page's
    long lines), not ending in punctuation, with a capitalised line below. PDFium gives a
    page's lines joined by single newlines, so a heading ran into the sentence under it
    ("Charles Mathew\nCharles Mathew (1872–1923) was …" was one sentence, and one
    capitalised run "Charles Mathew Charles Mathew" that linked nothing: on 2Wiki's
    passages packed one a page, bridge-ppr's Coverage at λ 2,000 fell from 82 to 72)."""
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    lengths = sorted(len(line) for line in lines)
    wide = lengths[-(-9 * (len(lengths) - 1) // 10)]  # the 90th percentile, rounded up
    out = []
    for line, below in zip(lines, lines[1:] + [""]):
        out.append(line)
        head = line.strip()
        if head and below[:1].isupper() and len(head) <= 0.6 * wide and not head.endswith(_END):
            out.append("")
    return "\n".join(out)


def _has_images(page) -> bool:
    import pypdfium2.raw as raw

    return next(iter(page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2)), None) is not None


def _why_unopened(e: Exception) -> str:
    import pypdfium2.raw as raw

    code = getattr(e, "err_code", None)
    text = str(e)
    if code == raw.FPDF_ERR_PASSWORD or "password" in text.lower():
        return "encrypted (password-protected) PDF: remove the password (e.g. `qpdf --decrypt`) and index it again"
    if code == raw.FPDF_ERR_SECURITY or "security" in text.lower():
        return "PDF with an unsupported security handler (encrypted): decrypt it first"
    return f"damaged or truncated PDF: PDFium cannot open it ({text.rstrip('.')})"


def _pages_list(pages: list[int]) -> str:
    shown = ", ".join(map(str, pages[:10])) + (f", … ({len(pages)} pages)" if len(pages) > 10 else "")
    return f"p. {shown}"


__all__ = ["Document", "read_pdf"]
