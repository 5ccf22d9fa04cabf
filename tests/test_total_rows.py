"""A total a report prints under its rows with no label is the table's "Total" row (answer/total_rows.py)."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.table_cells import grids
from edgerag.text.rows import grid_lines


def _text(rows: list[list[str]]) -> list[tuple[str, str]]:
    return [("p", "\n".join(grid_lines(rows, "(in thousands)")))]


BONDS = [
    ["Item", "Amortized Cost", "Fair Value"],
    ["Municipal bonds", "$44,802", "$44,705"],
    ["Corporate bonds", "48,499", "48,296"],
    ["", "$93,301", "$93,001"],
]


def test_an_unlabeled_row_that_sums_the_rows_above_is_their_total():
    grid = next(g for g in grids(_text(BONDS)) if "Municipal bonds" in g.labels)
    assert grid.labels == ["Municipal bonds", "Corporate bonds", "Total"]
    asked = "What is the value of the amortized costs of the municipal bonds as a percentage of the total amortized cost?"
    assert compute(asked, _text(BONDS)).answer == "48.02%"


def test_an_unlabeled_row_that_sums_nothing_is_no_total():
    rows = [*BONDS[:3], ["", "$90,000", "$93,001"]]  # one column is not the sum
    grid = next(g for g in grids(_text(rows)) if "Municipal bonds" in g.labels)
    assert grid.labels == ["Municipal bonds", "Corporate bonds"]
