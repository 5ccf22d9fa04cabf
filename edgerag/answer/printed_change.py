"""A change the report prints in a column of its own, read as printed (issue #63).

"What was the variance in percent for Net revenues from fiscal 2017 to fiscal 2018?" over a table
whose columns are "Fiscal Year · 2018", "Fiscal Year · 2017", "Variance in · Dollars" and
"Variance in · Percent" asks the row's "Variance in · Percent" cell ("8%"): the report computed
it, and rounded it as it prints it. Only where the question names that column by a word of its
own beyond the operation's ("variance"; a bare "% Change" column is not named so), the column
says a change (a percentage one for a percentage change), the row is bound, and the table's year
columns are the years asked; anything else is computed (arithmetic.py).
"""

from __future__ import annotations

import re

from .operation import Operation
from .table_cells import Cell, Grid, best_row, content, header_year, named_columns

_CHANGE = re.compile(r"chang|varian|increas|decreas|growth|movement|differen", re.I)
_PERCENT = re.compile(r"%|percent", re.I)


def printed_change(op: Operation, grid: Grid, question: str) -> Cell | None:
    """The cell of ``grid``'s own change column ``question`` asks for (the module doc), or None."""
    if op.op not in ("change", "percent_change", "difference") or op.parts:
        return None
    words = content(question)
    columns = [h for h in named_columns(grid, words) if _CHANGE.search(h) and bool(_PERCENT.search(h)) == (op.op == "percent_change")]
    years = {y for h in grid.headers if (y := header_year(h)) is not None}
    if len(columns) != 1 or (op.years and set(op.years) != years) or (not op.years and len(years) != 2):
        return None
    named = content(columns[0])
    row = best_row(grid, [w for w in words if w not in named])  # the row by the words the column does not take
    return None if row is None else grid.value(row, columns[0])
