"""A number the model read from a table, said with the table's scale (issue #63): "4,779" read
from a table "(in thousands)" is 4,779 thousand, as code's own cell answers say it
(cell_lookup.py), and as a reader of the report takes it.

A short answer that is one bare number, or a list of them ("4,779; 4,195"), each found as an
amount of a table read whose scale is known (its header, caption, label, or the prose beside
it: table_cells.py), gets that scale after each number; a number already said with a scale, a
percentage is left as it is, and so is a number found in tables of different scales. A number of a
row or column of percentages ("ROFE (%): 9.6") gets its "%". A number found in no table gets the
scale the prose says it in ("$180.6 million"), where the prose says it in one.

A note reference is no amount: a number read from a column headed "Note(s)" (table_cells.py
`note_column`) gets no scale, and neither does the reply to a question asking which note, page,
section, item, line, paragraph, chapter, schedule or exhibit ("Which note gives details of the
net finance costs?" → "8", not "8 million"; `asks_reference`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.printed import CURRENCY_SIGN
from ..text.rows import row_spans
from ..types import Unit
from .several import SEPARATOR as _SEPARATOR
from .table_cells import grids, note_column

BARE = re.compile(r"^\(?-?" + CURRENCY_SIGN + r"?\s?-?\d[\d,]*(?:\.\d+)?\)?$")
_PLACES = r"(?:notes?|pages?|sections?|paragraphs?|chapters?|schedules?|exhibits?|appendix|appendices)"
"""Where a report says a thing; not "line" or "item", which ask of amounts too ("Which line of
business had revenue of $5 million?", "What items were included in …?")."""
_REFERENCE = re.compile(
    rf"\b(?:which|what)\s+(?:of\s+the\s+)?{_PLACES}\b|\b(?:{_PLACES}|items?|lines?)\s+(?:number|no\b\.?)",
    re.I,
)
"""A question asking where something is said, not how much: "Which note …", "In which note …",
"What note number …", "What page …", "Which of the notes …"."""


def asks_reference(question: str) -> bool:
    """Whether ``question`` asks for a note, page, section or schedule, or an item's or line's number (`_REFERENCE`): its reply
    is a reference number, no amount."""
    return bool(_REFERENCE.search(question))


def _scales(number: str, units: Sequence[Unit]) -> set[str]:
    key = number.strip("()$€£¥ -")
    out = set()
    for grid in grids([(u.chunk_id, u.text) for u in units]):
        for i, row in enumerate(grid.cells):
            for header, cell in row.items():
                if cell.strip("()$€£¥ -").replace(" ", "") != key:
                    continue
                if note_column(header):
                    out.add("")  # a note's number: no amount, no scale
                elif (c := grid.value(i, header)) is not None:
                    out.add("%" if c.amount.percent and "%" not in cell else "" if c.amount.percent else c.scale)
    return out


def _said(number: str, units: Sequence[Unit]) -> set[str]:
    """The scales the prose read says ``number`` in ("$180.6 million" for "180.6")."""
    key = re.escape(number.strip("()$€£¥ -"))
    said = re.compile(rf"(?<![\d.,]){key}\s*(thousand|million|billion)\b", re.I)
    out = set()
    for u in units:
        prose = u.text
        for start, end in reversed(row_spans(prose)):
            prose = prose[:start] + prose[end:]
        out |= {m.group(1).lower() for m in said.finditer(prose)}
    return out


def with_scale(short: str, units: Sequence[Unit], question: str = "") -> str:
    """``short`` with the scale of the table its numbers were read from, else the one the prose
    says them in; a percentage cell with its "%" (the module doc). No scale for a reply to a
    ``question`` asking which note, page or section (`asks_reference`)."""
    items = short.split(_SEPARATOR)
    if not short.strip() or not all(BARE.match(i.strip()) for i in items) or asks_reference(question):
        return short
    scales = set().union(*(_scales(i.strip(), units) for i in items))
    if len(scales) == 1 and (scale := next(iter(scales))):
        return _SEPARATOR.join(f"{i.strip()}%" if scale == "%" else f"{i.strip()} {scale}" for i in items)
    if not scales and len(items) == 1 and len(said := _said(short, units)) == 1:
        return f"{short.strip()} {next(iter(said))}"
    return short
