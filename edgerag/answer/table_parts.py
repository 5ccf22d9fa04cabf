"""The rows a table's section or sum holds, asked as a list (issue #63): "What financial items does
revenue consist of?", "What are the components factored in when calculating the net cash inflow
from operating activities?".

A report prints a sum below its parts and groups rows under a section heading ("Revenues:" over
"Subscription solutions", "Merchant solutions"). Asked for a section's or a sum's items, the
answer is those rows in the table's words, decided in code: the 1.5B read them right, the 0.5B
listed words of the prose ("Cost; related payroll taxes") or the row below.

* a **section**: the question's own words (less the words of asking for a list, `_ASKING`) are
  the heading's words exactly; its rows up to its first total or result row (`_RESULT`), which
  ends its items ("Cost of sales" after "Net revenue" is no part of revenue);
* a **sum**: the question asks for parts (`_PARTS`) and its words are a row's label exactly;
  the rows above that row back to the table's start, its section's start or the last total row
  above, at least two, and only where they add up to it (within each printed cell's rounding) in every
  column that holds them all: a row that merely sits below others is no sum of them.

Two tables that answer apart decide nothing. Model-free on the TAT-QA test pages: 5 questions
decided, all as the gold (the 0.5B had 3 of them wrong); on the report excerpts written here
(benchmarks/reports.py), 2, both as the gold (the 0.5B's "Wages" and "Operating budget;
Expenditure" before). The words naming the document itself ("… in the budget", "… in the
table") ask nothing of the rows.
"""

from __future__ import annotations

import re

from ..text.rows import SECTION_MARK
from ..types import Unit
from .binding import lemma
from .compare import Decision
from .several import SEPARATOR, asks_several
from .table_cells import Grid, content, grids

_ASKING = frozenset(
    "financial item items component components consist consists comprise comprises comprised make made up include includes "
    "included type types category categories line lines different various main major key factored factor calculating calculate "
    "calculated when used use arrive arriving company company's source sources kind kinds element elements part parts"
    " table note report statement budget accounts schedule summary".split()
)
"""Words of asking for a list, not of the thing whose items are asked."""
_ASKING_ROOTS = frozenset(lemma(w) for w in _ASKING)
_PARTS = re.compile(
    r"\b(?:components?|factored\s+in|making\s+up|make\s+up|made\s+up\s+of|comprising|comprised\s+of|parts?|items?|consists?\s+of)\b", re.I
)
_HOW = re.compile(r"^\s*how\s+(?:many|much)\b", re.I)
_TOTAL = re.compile(r"^\s*(?:total|subtotal|sub-total)\b", re.I)
_RESULT = re.compile(r"^\s*(?:total|subtotal|net|gross)\b", re.I)
"""A row that sums or results from the rows above it, no item of them."""


def _words(text: str) -> frozenset[str]:
    return frozenset(lemma(w) for w in content(text)) - _ASKING_ROOTS


def _own(label: str) -> str:
    return label.rpartition(SECTION_MARK)[2]


def _section(label: str) -> str:
    return label.rpartition(SECTION_MARK)[0]


def _section_items(grid: Grid, want: frozenset[str]) -> list[tuple[str, ...]]:
    heads: dict[str, list[str]] = {}
    rows_of: dict[str, list[int]] = {}
    closed: set[str] = set()
    for i, label in enumerate(grid.labels):
        head = _section(label)
        if SECTION_MARK not in label or head in closed:
            continue
        own = _own(label)
        if _TOTAL.match(own) or (_RESULT.match(own) and len(rows_of.get(head, [])) >= 2 and _adds_up(grid, i, rows_of[head])):
            closed.add(head)  # "Total revenue", or a "Net revenue" that sums the rows above: the section's items end there
        else:
            heads.setdefault(head, []).append(own)
            rows_of.setdefault(head, []).append(i)
    out = []
    for head, rows in heads.items():
        items = rows
        if _words(re.sub(r"\(\d+\)", "", head)) == want and len(items) >= 2:
            out.append(tuple(items))
    return out


def _adds_up(grid: Grid, total: int, parts: list[int]) -> bool:
    """Whether the parts add up to the total in every column where all of them have a value (one
    at least, not all nothing): a sum in one year only is a coincidence."""
    checked = 0
    for header in grid.headers:
        whole, cells = grid.value(total, header), [grid.value(k, header) for k in parts]
        if whole is not None and all(c is not None for c in cells) and any(c.amount.value for c in cells):
            places = max(len(c.amount.text.rpartition(".")[2]) if "." in c.amount.text else 0 for c in [whole, *cells])
            slack = 0.5 * (len(cells) + 1) * 10.0**-places  # each printed cell rounded: "0.40 + 0.39" is no "0.20"
            if abs(sum(c.amount.value for c in cells) - whole.amount.value) > slack:
                return False
            checked += 1
    return checked > 0


def _sum_items(grid: Grid, want: frozenset[str]) -> list[tuple[str, ...]]:
    out = []
    for i, label in enumerate(grid.labels):
        if _words(_own(label)) != want:
            continue
        j = i
        while j > 0 and not _RESULT.match(_own(grid.labels[j - 1])) and _section(grid.labels[j - 1]) == _section(label):
            j -= 1
        parts = list(range(j, i))
        if len(parts) >= 2 and _adds_up(grid, i, parts):
            out.append(tuple(_own(grid.labels[k]) for k in parts))
    return out


def table_parts(question: str, units: list[Unit]) -> Decision | None:
    """The rows of the section or sum ``question`` asks the items of (the module doc), or None."""
    if _HOW.match(question) or not (asks_several(question) or _PARTS.search(question)):  # "… made up of?" asks parts
        return None  # "How many components does X consist of?" asks a count
    want = _words(question)
    if not want:
        return None
    found: dict[tuple[str, ...], Grid] = {}
    for g in grids([(u.chunk_id, u.text) for u in units]):
        for items in _section_items(g, want) + (_sum_items(g, want) if _PARTS.search(question) else []):
            found.setdefault(items, g)
    if len(found) != 1:
        return None
    ((items, grid),) = found.items()
    read = [u for u in units if u.chunk_id in set(grid.keys)]
    return Decision(
        answer=SEPARATOR.join(items), units=read, reason=f"the table's rows under what was asked: {', '.join(items)}", kind="table"
    )
