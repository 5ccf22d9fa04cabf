"""A number the model read from a report's table, moved to the column of the year asked (issue
#63, "the wrong column"): asked "What were the inventories of work in progress in 2018?", the
model reads the row right and gives the neighbouring year's cell ("10,269", the 2019 column).

Where the question proper names one year and asks no computation (operation.py; "the total
charges for fiscal 2019" names a cell, not a sum), and the reply is one bare number held by
exactly one row of the tables read, in a column of another year, the answer is that row's cell in
the year asked, as printed (said with its scale after, as any number read from a table is:
scaled.py). A number the row already holds in the year asked, one held by several rows, by a
column of no year, or by no table is left as it is. The same holds for a row code looked up by
its label (read.py `decided`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..types import Unit
from .operation import operation, years_in
from .scaled import BARE
from .table_cells import amount, content, grids, header_year, year_columns

_YEAR = re.compile(r"(?:19|20)\d{2}")


@dataclass(frozen=True)
class Moved:
    answer: str
    why: str


def in_year_asked(short: str, asked: str, units: Sequence[Unit]) -> Moved | None:
    """The row's cell of the year ``asked`` names, where the reply ``short`` read another
    year's (the module doc); None to leave the reply as it is."""
    years = years_in(asked)
    op = operation(asked)
    if len(years) != 1 or not BARE.match(short.strip()) or _YEAR.fullmatch(short.strip()):
        return None
    if op is not None and op.op != "sum":  # "the total charges for fiscal 2019" is a cell, not a sum of years
        return None
    said = amount(short.strip())
    if said is None:
        return None
    hits = []
    for grid in grids([(u.chunk_id, u.text) for u in units]):
        for i, row in enumerate(grid.cells):
            for header in grid.headers:
                cell = amount(row.get(header, ""))
                if cell is not None and abs(cell.value) == abs(said.value):
                    hits.append((grid, i, header))
    rows = {(id(g), i) for g, i, _ in hits}
    if len(rows) != 1 or any(header_year(h) in (None, years[0]) for _, _, h in hits):
        return None
    grid, i, header = hits[0]
    columns = year_columns(grid, years[0], content(asked), i)
    cell = grid.value(i, columns[0]) if columns else None
    if cell is None:
        return None
    return Moved(
        re.sub(r"(?<=[$€£¥])\s+", "", cell.amount.text),
        f"the year asked: {grid.labels[i]}, {columns[0]}: {cell.amount.text} (the reply read {header})",
    )
