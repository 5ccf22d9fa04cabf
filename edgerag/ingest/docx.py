"""Word (.docx) → documents with python-docx: headings become the section path, tables rows.

The body is read in document order (paragraphs and tables interleaved). A paragraph styled
``Heading N`` (or ``Title``) opens a section: the path is the chain of open headings,
``Results › Costs``. Each table row is one block written with its header (text/rows.py):
``Caption — Item: bolts; Cost: 3 EUR``, the header being the rows marked "Header Row", else
the first; the caption a paragraph just above styled Caption or opening "Table 3", else the
heading above, with a line just above that reads as a title (short, no full stop: "Earnings
release: Full-year results (Unit: KRW billion)", "Membership fees: Valid from 1 April 2024"). A merged cell, which python-docx returns once per grid column (and row), is
written once; a table of one column keeps its cells as they stand. The archive is checked
for zip bombs before python-docx opens it (archive.py); old binary ``.doc`` files, and
anything else that is not a zip, are refused by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..text.rows import grid_lines
from .archive import UnsafeArchive, open_zip
from .blocks import Block, Skipped, pack, reads_as_title

_LEVEL = re.compile(r"heading\s*(\d)", re.I)
_TABLE_NO = re.compile(r"(?:table|tab\.)\s*(?:\d+\b|[:.–-])", re.I)


def read_docx(path: Path, part_chars: int) -> Iterator:
    import docx
    from docx.table import Table

    from ..provenance import SECTION_SEP

    try:
        open_zip(path, "DOCX").close()
    except UnsafeArchive as e:
        yield Skipped(str(path), str(e))
        return
    try:
        document = docx.Document(str(path))
    except Exception as e:  # python-docx raises KeyError, ValueError, lxml errors… for a broken package
        yield Skipped(str(path), f"damaged DOCX: python-docx cannot open it ({type(e).__name__}: {e})")
        return
    title = " ".join((document.core_properties.title or "").split())

    def blocks() -> Iterator[Block]:
        heads: list[tuple[int, str]] = []
        above = ""  # the caption a table may have just above it (styled Caption, "Table 3: …")
        titled = ""  # a line just above that reads as the table's title, said with the heading
        for item in document.iter_inner_content():
            section = SECTION_SEP.join(t for _, t in heads)
            if isinstance(item, Table):
                grid = [[" ".join(c.text.split()) for c in row.cells] for row in item.rows]
                heading = heads[-1][1] if heads else ""
                caption = above or (f"{heading}: {titled}" if heading and titled else titled or heading)
                lines = grid_lines(grid, caption, _header_rows(item), strong=_bold_labels(item))
                if lines is None:  # one column, or prose in a cell: the cells as they stand
                    lines = [" | ".join(c for c in dict.fromkeys(r) if c) for r in grid]
                for line in lines:
                    if line:
                        yield Block(line, section=section)
                above = titled = ""
                continue
            text = item.text.strip()
            if not text:
                continue
            above = _caption(item, text)
            level = _heading_level(item)
            line = " ".join(text.split())[:200]
            titled = line if not above and level is None and reads_as_title(line) else ""
            if level is not None:
                while heads and heads[-1][0] >= level:
                    heads.pop()
                heads.append((level, " ".join(text.split())[:120]))
                section = SECTION_SEP.join(t for _, t in heads)
            yield Block(text, section=section)

    found = 0
    try:
        for doc in pack(path, "docx", blocks(), title or path.stem, part_chars):
            found += 1
            yield doc
    except Exception as e:  # a malformed part deep in the package, met while reading
        if not found:
            yield Skipped(str(path), f"damaged DOCX: {type(e).__name__}: {e}")
            return
        raise
    if not found:
        yield Skipped(str(path), "no text in the document (empty, or only images)")


def _bold_labels(table) -> frozenset[str]:
    """The row labels (first cells) of a table whose every run of text is bold (a section
    heading, a subtotal)."""
    out = set()
    for row in table.rows:
        try:
            cell = row.cells[0]
        except IndexError:
            continue
        runs = [r for p in cell.paragraphs for r in p.runs if r.text.strip()]
        if runs and all(r.bold for r in runs):
            out.add(" ".join(cell.text.split()))
    return frozenset(out)


def _header_rows(table) -> int:
    """Rows marked to repeat as the table's header on each page (Word's "Header Row"), else 1."""
    n = 0
    for row in table.rows:
        if not row._tr.xpath("./w:trPr/w:tblHeader"):
            break
        n += 1
    return max(1, min(n, 3))


def _caption(paragraph, text: str) -> str:
    """A paragraph's text when it is a caption (style "Caption", or "Table 3: …"), else ""."""
    try:
        style = (paragraph.style.name or "") if paragraph.style is not None else ""
    except (KeyError, ValueError):
        style = ""
    return " ".join(text.split())[:200] if text and (style.lower() == "caption" or _TABLE_NO.match(text)) else ""


def _heading_level(paragraph) -> int | None:
    try:
        name = (paragraph.style.name or "") if paragraph.style is not None else ""
    except (KeyError, ValueError):
        return None
    if name.lower() == "title":
        return 0
    m = _LEVEL.match(name)
    return int(m.group(1)) if m else None
