"""Columns headed by a day's date, named by the dates a question says (issue #63): "What was NTA
per unit at 31 December 2023 and 30 June 2023 respectively?" over "31 Dec 2023" and "30 Jun 2023",
two dates of one year that a year alone cannot tell apart (cell_lookup.py); and the columns of one
year a question names apart by their headers' own words ("the target and the actual … for
FY2024, respectively": "FY2024 target", "FY2024 actual", `named_apart`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .operation import years_in
from .table_cells import Grid, close, content, header_year

_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_DATE = re.compile(
    r"\b(?:(?P<d1>\d{1,2})\s+(?P<m1>"
    + _MONTHS
    + r")[a-z]*\.?|(?P<m2>"
    + _MONTHS
    + r")[a-z]*\.?\s+(?P<d2>\d{1,2}),?)\s+(?P<y>(?:19|20)\d{2})\b",
    re.I,
)
"""A day's date as a question or a column names it: "31 December 2023", "Dec 31, 2023", "30 Jun 2023"."""


def dated_columns(grid: Grid, question: str, rows: Sequence[int]) -> list[str] | None:
    """The columns of the dates ``question`` names, in its order, where it names two or more and
    the columns are dates ("NTA per unit at 31 December 2023 and 30 June 2023": "31 Dec 2023",
    "30 Jun 2023"); None where it names fewer, or a date no one column is."""
    asked = [(m["m1"] or m["m2"]).lower()[:3] + m["y"] for m in _DATE.finditer(question)]
    if len(set(asked)) < 2:
        return None
    by_date: dict[str, list[str]] = {}
    for h in grid.headers:
        for m in _DATE.finditer(h):
            by_date.setdefault((m["m1"] or m["m2"]).lower()[:3] + m["y"], []).append(h)
    cols = [by_date.get(a, []) for a in dict.fromkeys(asked)]
    if any(len(c) != 1 for c in cols):
        return None
    out = [c[0] for c in cols]
    return out if all(grid.value(i, h) is not None for i in rows for h in out) else None


def named_apart(grid: Grid, question: str, year: int, rows: Sequence[int]) -> list[str] | None:
    """The columns of one year a question names apart, in the order it names them ("the target
    and the actual … for FY2024": "FY2024 target", "FY2024 actual"); None unless it asks several
    ("respectively", "and") and names two or more by a word only their own header says."""
    if not re.search(r"\brespectively\b|\band\b", question, re.I):
        return None
    cols = [h for h in grid.headers if header_year(h) == year and all(grid.value(i, h) is not None for i in rows)]
    said = content(question)
    named = []
    for h in cols:
        own = [w for w in content(h) if not years_in(w) and not any(w in content(o) for o in cols if o != h)]
        at = [n for n, w in enumerate(said) if any(close(w, x) for x in own)]
        if at:
            named.append((at[0], h))
    return [h for _, h in sorted(named)] if len(named) >= 2 else None
