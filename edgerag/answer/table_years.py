"""Which years a report's table covers, read from its header (issue #63): "Which years does the
table provide information for accounts receivable?", "What fiscal years are included in the
table?", "Which financial year's information is shown in the table?", and of a row's years as a
whole, "In which years was Inventories calculated?" (plural, a verb of being there, no
condition: "… above 65?" is computed, operation.py). The row form, model-free on the TAT-QA test
pages: 16 questions decided, all as the gold (the 1.5B had read 15 of them right, the 0.5B
missed some; one abstention becomes right).

The answer is the years its columns are headed by, once each, in the table's order, as the table
writes them ("2019; 2018", "F19; F18"). The table is the one holding a row the question names (its
label's words), else any table read (the question names the table's subject: "… for Property,
plant and equipment" over its rows "Land", "Buildings"); two tables that would answer apart
decide nothing.
"""

from __future__ import annotations

import re

from ..types import Unit
from .compare import Decision
from .table_cells import best_row, content, grids, header_year

_ASKS = re.compile(
    r"^\s*(?:which|what)\s+(?:(?:fiscal|financial|calendar)\s+)?years?(?:'s|s'|’s|s’)?\b.*\b(?:tables?|notes?)\b"
    r"|^\s*(?:in|for)\s+(?:which|what)\s+(?:(?:fiscal|financial|calendar)\s+)?years\s+(?:is|are|was|were)\b.*\b"
    r"(?:calculated|provided|recorded|available|included|accounted|shown|presented|reported|disclosed|given)\b",
    re.I,
)
"""Asked of the table itself ("Which years does the table / this note …?"), or of a row's years as a whole
("In which years was Inventories calculated?": plural, a verb of being there, no condition)."""
_ABOUT_THE_TABLE = frozenset(
    "table tables note notes provide provides provided information info show shows shown include included includes compared "
    "listed list relate relates related chronological order year years fiscal financial calendar data calculated recorded "
    "available accounted presented reported disclosed given".split()
)
_WRITTEN = re.compile(r"\b(?:FY|F)\s?'?\d{2}\b", re.I)


def _years(headers: list[str]) -> list[str]:
    out: dict[str, None] = {}
    for h in headers:
        y = header_year(h)
        if y is not None:
            written = _WRITTEN.search(h)
            out.setdefault(written.group() if written else str(y), None)
    return list(out)


def table_years(question: str, units: list[Unit]) -> Decision | None:
    """The years of the table ``question`` asks about (the module doc), or None."""
    if not _ASKS.search(question):
        return None
    tables = grids([(u.chunk_id, u.text) for u in units])
    words = [w for w in content(question) if re.sub(r"['’]s?$", "", w) not in _ABOUT_THE_TABLE]  # "year's"
    named = [g for g in tables if words and best_row(g, words) is not None] or tables  # no row named: the table's subject
    answers = {tuple(_years(g.headers)) for g in named}
    if len(answers) != 1 or not (years := next(iter(answers))):
        return None
    keys = {k for g in named for k in g.keys}
    read = [u for u in units if u.chunk_id in keys]
    return Decision(answer="; ".join(years), units=read, reason=f"the table's columns are headed {', '.join(years)}", kind="table")
