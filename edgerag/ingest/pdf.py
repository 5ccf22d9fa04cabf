"""PDF → documents, page by page, with pypdfium2 (PDFium in the wheel; Apache-2.0/BSD).

PDFium opens the file lazily and each page's text is taken and the page closed before the
next, so memory holds one page plus at most two parts of text (blocks.py), whatever the
page count. Every page's text is a `Block` with its 1-based page number, so chunks know the
pages they span.

Refused, by name, with the reason: a file that is not a PDF (wrong extension), a password-
protected PDF, a damaged or truncated one PDFium cannot open, and a PDF with no text layer
(scanned pages: "no text layer: OCR it first"). Pages that are images with no text inside an
otherwise text PDF are reported in one line, and the rest is indexed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..types import Document
from .blocks import Block, pack
from .sniff import looks_like

_CONTROL = dict.fromkeys([*range(0, 9), 11, 12, *range(14, 32), 0xFFFE, 0xFFFF])
"""PDFium marks soft hyphens and odd glyphs with control characters: dropped."""
_BLANKS = re.compile(r"[ \t]+\n")


def read_pdf(path: Path, part_chars: int) -> Iterator:
    """`Document`s of a PDF's text (parts of about ``part_chars``), or `Skipped` records."""
    import pypdfium2 as pdfium

    from .readers import Skipped

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
        found = 0
        for doc in pack(path, "pdf", _pages(pdf, scanned, broken), path.stem, part_chars, pages):
            found += 1
            yield doc
        if not found:
            why = (
                "no text layer: OCR it first"
                if not broken
                else f"no page could be read (damaged? PDFium failed on {len(broken)} of {pages} pages)"
            )
            yield Skipped(str(path), f"{why} ({pages} page{'s' * (pages != 1)}, no extractable text)")
            return
        if scanned:
            yield Skipped(
                f"{path} {_pages_list(scanned)}",
                f"no text layer on {len(scanned)} of {pages} pages (images only): OCR them; the other pages are indexed",
                pages=tuple(scanned),
                what="no text layer (images only)",
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


def _pages(pdf, scanned: list[int], broken: list[int]) -> Iterator[Block]:
    import pypdfium2 as pdfium

    for i in range(len(pdf)):
        try:
            page = pdf[i]
        except pdfium.PdfiumError:
            broken.append(i + 1)
            continue
        try:
            tp = page.get_textpage()
            try:
                text = tp.get_text_range()
            finally:
                tp.close()
            text = _BLANKS.sub("\n", text.replace("\r\n", "\n").replace("\r", "\n").translate(_CONTROL)).strip()
            if not text and _has_images(page):
                scanned.append(i + 1)
        except pdfium.PdfiumError:
            broken.append(i + 1)
            continue
        finally:
            page.close()
        if text:
            yield Block(_headings_apart(text), page=i + 1)


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
