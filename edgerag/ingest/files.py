"""What the index remembers of each file, so an edited file replaces its old version and an
unchanged one is not read again.

The index's ``files`` table maps a file's real path to a `FileState` record: size, mtime
(ns), sha1 of the bytes, page count and the ids of the documents read from it. Before a
file is read, `iter_documents` asks the indexer for that record (``known``):

* same size and mtime → `Unchanged` (the text is not read);
* otherwise the bytes are hashed: same sha1 → `Unchanged` with the new mtime to store (a
  ``touch`` or a copy costs one hash, no parsing, no embedding);
* otherwise the file is read, its documents yielded, then a `FileDone` with the new state;
  the indexer stores it and removes the file's old documents that the new version no longer
  has (indexing.py).

A file read by an older version of the readers (`READER_VERSION`, stored in its record) is read
again whatever its bytes: a better reading of a report's tables reaches an index built before
it on its next insert. Documents whose text the new reading keeps are kept, with the LLM work
done on them; only what reads differently is embedded again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

_BLOCK = 1 << 20
READER_VERSION = 18
"""The readers' version: raise it when a reader reads the same bytes into other text (a table's
rows, a page's sections), so files read before are read again. 1: report tables read as printed
(stray brackets, year blocks side by side, issue #63); 2: a scale with its currency spelled out,
"(U.S. $ in thousands)", alone on a header row; 3: a currency code's scale ("USDm",
"RMB'Million") in a header; 4: an upper header's labels given to their groups where the page
lost its column spans; 5: a row spanning the table (`<th colspan>` "Income") is a section, not
a header, and Markdown cells lose their bold marks; 6: a period's row under the years ("Year
ended 31 December", empty cells) is the header's, and a row of "n/a" or dashes keeps them, no
section; 7: a subtotal ends its section (bold labels from HTML, Markdown and DOCX; "Net cash
from …", "Cash generated from operations"), a list's heading ("Adjustments for:") is a section
inside the one above it, and columns named alike take their years ("2021 · % of revenue"); 8:
cells and scales as other countries print them (a typeset minus, spaced thousands, "TEUR",
"Mio.", "$000"), a PDF header of periods with digits ("Q1 2023"), and a period's or a basis' row
("Year ended 30 June", "(unaudited)") under the header's; 9: a PDF header of years set left of
its numbers heads them in order; 10: a DOCX paragraph just above a table that reads as a title
("Full-year results (Unit: KRW billion)") is its caption; 11: "of which:" under a row of values is
that row's breakdown, its dash-marked items ending at the first row not so marked, and a scale
taken from "(€ million)" leaves no "()" behind; 12: a PDF table that runs on to the next page
without its header goes on under it; 13: only from the top of the page, its first line a label and
values, and a DOCX note above a table joins the heading in its caption; 14: a DOCX paragraph
"Table: …" is the caption alone. A record without one is 0."""


@dataclass(frozen=True)
class FileState:
    path: str
    """The file's real path (symlinks resolved): the key of the ``files`` table."""
    size: int
    mtime_ns: int
    sha1: str
    kind: str = ""
    pages: int = 0
    docs: tuple[str, ...] = field(default_factory=tuple)
    skipped_pages: dict[str, list[int]] = field(default_factory=dict)
    """Pages left out of an indexed file, by why (``no text layer``: scanned; ``unreadable``)."""
    reader: int = field(default_factory=lambda: READER_VERSION)
    """The readers' version that read it (`READER_VERSION`)."""

    def record(self) -> dict[str, Any]:
        rec = asdict(self)
        rec["docs"] = list(self.docs)
        del rec["path"]
        if not self.skipped_pages:
            del rec["skipped_pages"]
        return rec


@dataclass(frozen=True)
class Unchanged:
    """A file indexed before and not changed since: skipped without reading its text."""

    source: str
    path: str
    docs: int
    """How many documents the index holds from it (counted as already indexed)."""
    touched: FileState | None = None
    """Set when only the mtime changed (same bytes): the record to store instead."""


@dataclass(frozen=True)
class FileDone:
    """Every document of a file has been yielded; ``state`` is what to remember of it."""

    state: FileState


Known = Callable[[str], "dict[str, Any] | None"]
"""Looks up the stored record of a real path (None when the file was never indexed)."""


def real_path(path: str | os.PathLike) -> str:
    return os.path.realpath(path)


def file_sha1(path: Path) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def check(path: Path, st: os.stat_result, known: Known) -> Unchanged | str:
    """`Unchanged` when the index already holds this file's current bytes, else the sha1 of
    those bytes (to store once the file is read)."""
    key = real_path(path)
    rec = known(key)
    if rec and rec.get("reader", 0) != READER_VERSION:
        rec = None  # read by older readers: read again (the module doc)
    if rec and rec.get("size") == st.st_size and rec.get("mtime_ns") == st.st_mtime_ns:
        return Unchanged(str(path), key, len(rec.get("docs", [])))
    digest = file_sha1(path)
    if rec and rec.get("sha1") == digest:
        state = FileState(
            key,
            st.st_size,
            st.st_mtime_ns,
            digest,
            rec.get("kind", ""),
            rec.get("pages", 0),
            tuple(rec.get("docs", [])),
            rec.get("skipped_pages", {}),
        )
        return Unchanged(str(path), key, len(state.docs), touched=state)
    return digest
