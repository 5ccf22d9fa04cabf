"""The rows a superlative over a table compares (text/tables.py): of a table in sections
("1. Independent Directors › Aman Mehta", "Total Managerial Remuneration › Ceiling as per the
Act"), the rows of the section the question names ("Which independent director had the highest
commission?"); and never a total row ("Total", "Total revenue") the question does not ask for,
which is the sum of the others, not one of them. Measured on TAT-QA's report excerpts, where a
total or another section's row was answered for "which …".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .rows import SECTION_MARK

_WORD = re.compile(r"[a-z][a-z'-]+")
_TOTAL = re.compile(r"^\s*(?:grand\s+)?total\b", re.I)
_SMALL = frozenset("the a an of and or for in on at to by with".split())


def _stem(word: str) -> str:
    w = word.lower()
    for end in ("ies", "es", "s"):
        if w.endswith(end) and len(w) - len(end) >= 3:
            return w[: -len(end)] + ("y" if end == "ies" else "")
    return w


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _SMALL}


def compared_rows(question: str, labels: Sequence[str], rows: Sequence[int]) -> list[int]:
    """Of ``rows`` (indexes into ``labels``, the tables' first-column cells), those a superlative
    compares: the rows of the sections the question names, where it names some and not all;
    without a total row, unless the question says "total"."""
    asked = _words(question)
    out = list(rows)
    sections = {i: labels[i].rpartition(SECTION_MARK)[0] for i in out}
    named = [i for i in out if (w := _words(sections[i])) and w <= asked]
    if named and len(named) < len(out):
        out = named
    if "total" not in asked:
        out = [i for i in out if not _TOTAL.search(labels[i].rpartition(SECTION_MARK)[2])]
    return out
