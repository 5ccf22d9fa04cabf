"""Blocks of text with their page or section → `Document`s with `Mark`s, in bounded parts; and
what every reader shares: `Skipped` (what was left out, and why) and `content_id`.

Every structured reader (PDF, DOCX, HTML, EPUB) yields `Block`s: a paragraph, a table row,
a heading, or a PDF page, each with the page it is on or the heading path it sits under.
`pack` joins them with blank lines into documents of at most about ``part_chars``
characters (the same bound as plain text files, readers.py), recording a `Mark` wherever the
page or section changes, so a 2,000-page PDF is never held whole and each chunk later knows
its page range (provenance.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..types import Document, Mark


@dataclass(frozen=True)
class Skipped:
    """A file, record or pages left out, and why (reported by name, never fatal)."""

    source: str
    reason: str
    pages: tuple[int, ...] = ()
    """Pages of a file otherwise indexed that were left out (scanned, damaged); kept on the
    file's record so `edgerag docs` shows what is missing."""
    what: str = ""
    """Why those pages, in a few words (``no text layer``, ``unreadable``)."""


CAPTION_WORDS = 15


def reads_as_title(text: str) -> bool:
    """Whether a line just above a table reads as its title, not a sentence: short, no full stop,
    colon or question mark at its end, no pipe ("Consolidated income statement summary (Unit:
    KRW billion)", "**Projects 2025**" without its marks)."""
    return bool(text) and len(text.split()) <= CAPTION_WORDS and not text.endswith((".", ":", "!", "?")) and "|" not in text


def content_id(text: str) -> str:
    """A document's id when its record names none: a hash of its text."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Block:
    text: str
    page: int = 0
    section: str = ""
    ocr: float = 0.0
    """OCR confidence when the text was recognised from an image (ocr.py), else 0."""
    ocr_seconds: float = 0.0


def pack(path: Path, kind: str, blocks: Iterable[Block], title: str, part_chars: int, pages: int = 0) -> Iterator[Document]:
    """Documents of ``blocks`` (blank blocks dropped); one if the text fits ``part_chars``,
    else consecutive parts titled ``<title> (part n)`` with source ``<path>#part<n>``.
    ``pages`` may be a callable giving the file's page count once the blocks are read."""
    parts: list[tuple[str, tuple[Mark, ...]]] = []
    pieces: list[str] = []
    marks: list[Mark] = []
    size = 0
    where: tuple[int, str, float] | None = None

    seconds = 0.0  # OCR time of the part being packed

    def flush() -> None:
        nonlocal pieces, marks, size, where, seconds
        if pieces:
            parts.append(("\n\n".join(pieces), tuple(marks), seconds))
        pieces, marks, size, where, seconds = [], [], 0, None, 0.0

    def emit(n: int, text: str, mk: tuple[Mark, ...], ocr_seconds: float, many: bool) -> Document:
        return Document(
            id=content_id(text),
            text=text,
            title=f"{title} (part {n})" if many else title,
            source=f"{path}#part{n}" if many else str(path),
            marks=mk,
            kind=kind,
            pages=pages() if callable(pages) else pages,
            ocr_seconds=ocr_seconds,
        )

    n = 0
    for b in blocks:
        text = b.text.strip()
        if not text:
            continue
        if pieces and size + len(text) > part_chars:
            flush()
            if len(parts) == 2:  # more than one part: the first can go now
                n += 1
                yield emit(n, *parts.pop(0), True)
        start = size + (2 if pieces else 0)
        if (b.page, b.section, b.ocr) != where:
            marks.append(Mark(start=start, page=b.page, section=b.section, ocr=b.ocr))
            where = (b.page, b.section, b.ocr)
        seconds += b.ocr_seconds
        pieces.append(text)
        size = start + len(text)
    flush()
    many = n > 0 or len(parts) > 1
    for text, mk, secs in parts:
        n += 1
        yield emit(n, text, mk, secs, many)
