"""Word (.docx) → documents with python-docx: headings become the section path, tables rows.

The body is read in document order (paragraphs and tables interleaved). A paragraph styled
``Heading N`` (or ``Title``) opens a section: the path is the chain of open headings,
``Results › Costs``. Each table row is one block, its cells joined by " | " (a merged cell,
which python-docx returns once per grid column, is written once). The archive is checked
for zip bombs before python-docx opens it (archive.py); old binary ``.doc`` files, and
anything else that is not a zip, are refused by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .archive import UnsafeArchive, open_zip
from .blocks import Block, Skipped, pack

_LEVEL = re.compile(r"heading\s*(\d)", re.I)


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
        for item in document.iter_inner_content():
            section = SECTION_SEP.join(t for _, t in heads)
            if isinstance(item, Table):
                for row in item.rows:
                    cells = [" ".join(c.text.split()) for c in row.cells]
                    cells = [c for c in dict.fromkeys(cells) if c]
                    if cells:
                        yield Block(" | ".join(cells), section=section)
                continue
            text = item.text.strip()
            if not text:
                continue
            level = _heading_level(item)
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


def _heading_level(paragraph) -> int | None:
    try:
        name = (paragraph.style.name or "") if paragraph.style is not None else ""
    except (KeyError, ValueError):
        return None
    if name.lower() == "title":
        return 0
    m = _LEVEL.match(name)
    return int(m.group(1)) if m else None
