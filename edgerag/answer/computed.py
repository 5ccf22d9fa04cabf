"""A number computed in code from a report's cells, as the reader gives it (issue #63): the answer,
its formula shown, the operation and the cells read (`Computed`), and a number rounded as a report
prints it (`rounded`). arithmetic.py makes most; count_rows.py, against_plan.py and per_unit.py
their own forms.
"""

from __future__ import annotations

from dataclasses import dataclass

from .operation import Operation
from .table_cells import Cell


@dataclass(frozen=True)
class Computed:
    """A number computed in code from cells read."""

    answer: str
    """The short answer: the number rounded, with "%" or its scale word ("-8.43%", "329 million")."""
    shown: str
    """The answer with its formula and the rows and columns it read."""
    value: float
    operation: Operation
    cells: tuple[Cell, ...]


def rounded(value: float, decimals: int) -> str:
    """``value`` rounded to ``decimals`` places, thousands grouped, trailing zeros dropped ("1,885", "3.1")."""
    text = f"{round(value, decimals):,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
