"""A year's cell a report leaves empty ("—"), read as nothing (issue #63; operands.py): the sum or
the average of the years a question names counts it as 0 ("PSAs granted: 36,982; —; 371,672").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .operation import Operation
from .table_cells import Amount, Cell, Grid, year_columns

CHANGE_HEADER = re.compile(r"\b(?:chang|varian|increas|decreas|growth|movement)", re.I)
"""A column of changes ("Change Amount · 2017"), not a year's own."""


def nil_years(op: Operation, grid: Grid, row: int, years: Sequence[int], words: list[str]) -> dict[int, Cell]:
    """The years the question names whose one column the row leaves empty, each as a cell of 0:
    a report prints nothing as "—" ("PSAs granted: 36,982; —; 371,672"), and the sum or the
    average of the years named counts it as nothing (a change from or to an empty year is left to
    the model: the row may not have existed). Only where the row has a value in another year
    named and the year one column of its own."""
    if op.op not in ("average", "sum") or not op.years:
        return {}
    empty: dict[int, str] = {}
    filled: list[Cell] = []
    for y in years:
        cols = [h for h in year_columns(grid, y, words, row) if not CHANGE_HEADER.search(h)]
        if len(cols) != 1:
            return {}
        if (cell := grid.value(row, cols[0])) is not None:
            filled.append(cell)
        elif not grid.cells[row].get(cols[0], "").strip():
            empty[y] = cols[0]
    if not filled or not empty or any(c.amount.percent for c in filled):
        return {}
    like = filled[0]
    return {y: replace(like, header=h, amount=Amount(0.0, False, "", "0")) for y, h in empty.items()}
