"""The amount per unit of another a question asks ("What is the average group loan per borrower?":
"group loan" per "borrower"), and whether a table read prints it ("Revenue per skier day (EUR)"),
for per_unit.py (which computes it) and cell_lookup.py (which reads only a printed one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import row_spans
from .operation import years_in
from .table_cells import content

_PER = re.compile(
    r"^(?P<before>.*?)\b(?:per|for\s+each)\s+(?P<unit>[a-z][\w-]*(?:\s+(?!in\b|of\b|for\b|during\b|at\b)[a-z][\w-]*)?)", re.I | re.S
)
_NOT_UNITS = frozenset("share shares cent annum year years month months week weeks day quarter hour".split())
_ASKING = frozenset("what was is were are how much many did does the average mean company make made earn".split())


def asked_per(question: str) -> tuple[list[str], list[str]] | None:
    """The words before "per" and the unit after it ("group loan", "borrower"); None where the question asks no amount per unit."""
    m = _PER.match(question)
    if m is None:
        return None
    unit = content(m["unit"])
    if not unit or unit[0] in _NOT_UNITS:
        return None
    before = [w for w in content(m["before"]) if w not in _ASKING and not years_in(w)]
    return (before, unit) if before else None


def printed_per(question: str, units_texts: Sequence[tuple[str, str]]) -> bool:
    """Whether a table read prints the amount per unit ``question`` asks ("Revenue per skier day
    (EUR)", "Cost / boe"): then it is read as printed, not computed."""
    sides = asked_per(question)
    if sides is None:
        return False
    unit = sides[1][-1]
    printed = re.compile(rf"\bper\s+(?:[\w-]+\s+)?{re.escape(unit[:4])}|/\s*{re.escape(unit[:3])}", re.I)
    return any(printed.search(text[a:b]) for _, text in units_texts for a, b in row_spans(text))
