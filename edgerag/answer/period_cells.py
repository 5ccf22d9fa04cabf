"""One row's cells in the parts of years a question names (periods.py), where a table's columns
are quarters, halves or months ("Q1 … Q4, Full year", "Q3 2020", "First Quarter · 2019", "H1"):

    "Total budgeted income for Q1 and Q2 combined?"         → Total income: Q1 + Q2
    "By how much does membership fee income change from Q3 to Q4?" → Membership fees: Q4 - Q3
    "Average quarterly budget for swimming lessons income?"  → the mean of Q1 … Q4, never "Full year"

A period binds the one column of its part ("Q3") and its year ("Q3 2020"); a part said with no
year binds where the table's columns of that part are one ("Q3" beside "Q3 2020" and "Q3 2019"
binds nothing); a year said whole beside a part ("Q1 2019 revenue and 2018 revenue") binds its
own column ("2018"), never its part's ("Q1 2018"). An average that names no period is over every column of one kind, where no
column is a year's alone and the question says that kind ("quarterly") or the table has no other.
A half no column is ("the first half of 2020" beside quarters only) is its two quarters, where a
sum or an average of it alone is asked (`halves_as_quarters`). A table with no column of the kind asked is read by its years, as before (operands.py); the
cells come back earliest first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .operation import Operation
from .periods import KIND_WORDS, Period, column_period, periods_asked
from .table_cells import Cell, Grid, column_rank, header_year


def _columns(grid: Grid) -> dict[str, Period]:
    """The columns that name a part of a year, by header."""
    return {h: p for h in grid.headers if (p := column_period(h, header_year(h))) is not None}


def _binds(asked: Period, column: Period, dated: bool) -> bool:
    """Whether a column of ``column`` is the period ``asked``: its part, and its year where both
    say one (a column with no year is the asked year's only where no column of the table has one)."""
    if (asked.part, asked.index) != (column.part, column.index):
        return False
    if asked.year is None or column.year is not None:
        return asked.year is None or asked.year == column.year
    return not dated


def period_columns(grid: Grid, period: Period, dated: bool | None = None) -> list[str]:
    """The columns of ``period``: those of its part (`_binds`), or for a whole year ("Q1 2019
    revenue and 2018 revenue": 2018) that year's own columns, never one of its parts ("Q1 2018")."""
    columns = _columns(grid)
    if dated is None:
        dated = any(header_year(h) is not None for h in grid.headers)
    if not period.part:
        return [h for h in grid.headers if h not in columns and period.year is not None and header_year(h) == period.year]
    return [h for h, p in columns.items() if _binds(period, p, dated)]


def year_periods(grid: Grid, question: str) -> dict[int, list[str]]:
    """Each year ``question`` names one period of (a part, or the whole year beside a part:
    "Q1 2019 revenue and 2018 revenue"), with that period's columns in ``grid`` (`period_columns`);
    {} where the grid has no columns of parts, or the question names no part or two of a year."""
    asked = periods_asked(question)
    years = [p.year for p in asked]
    if not asked or None in years or len(set(years)) < len(years) or not by_period(grid):
        return {}
    return {p.year: period_columns(grid, p) for p in asked if p.year is not None}


def by_period(grid: Grid, part: str = "") -> bool:
    """Whether ``grid`` has columns of parts of years (of ``part``, "quarter", where one is said)."""
    return any(not part or p.part == part for p in _columns(grid).values())


def halves_as_quarters(op: Operation, grid: Grid) -> Operation:
    """``op`` with each half it names that no column of ``grid`` is ("the first half of 2020"
    beside quarters only) as its two quarters (Q1 and Q2 of 2020), where both are columns;
    ``op`` as it is otherwise."""
    if not any(p.part == "half" for p in op.periods) or op.op not in ("sum", "average", "change", "percent_change", "difference"):
        return op
    dated = any(header_year(h) is not None for h in grid.headers)
    out: list[Period] = []
    for p in op.periods:
        quarters = [Period(p.year, "quarter", 2 * p.index - 1), Period(p.year, "quarter", 2 * p.index)]
        if p.part != "half" or period_columns(grid, p, dated) or not all(period_columns(grid, q, dated) for q in quarters):
            out.append(p)
        elif op.op in ("sum", "average") and len(op.periods) == 1:
            out += quarters  # "the total revenue in the first half of 2020": Q1 + Q2 of 2020
        else:
            return op  # a change between halves printed as quarters: each half a sum, not bound here
    return replace(op, periods=tuple(out))


def period_cells(op: Operation, grid: Grid, row: int, words: Sequence[str], question: str) -> list[Cell] | None:
    """``row``'s cells in the periods ``op`` names, earliest first (the module doc); None where
    the table has columns of the periods' kind and they do not bind."""
    columns = _columns(grid)
    dated = any(header_year(h) is not None for h in grid.headers)
    asked = [p for p in op.periods if p.part]
    if not asked:
        return _every_part(op, grid, row, columns, question)
    if len(op.periods) < 2:
        return None  # one quarter: from which other a change is, sequential or the year before's, is not said
    cells: list[Cell] = []
    for period in sorted(op.periods, key=Period.order):
        cols = [h for h in period_columns(grid, period, dated) if grid.value(row, h) is not None]
        cols.sort(key=lambda h: column_rank(grid, h, words, row))
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words, row) == column_rank(grid, cols[1], words, row)):
            return None  # no column of that period, or two the question does not choose between
        cells.append(grid.value(row, cols[0]))  # type: ignore[arg-type]
    if len({c.header for c in cells}) < len(cells) or len({c.amount.percent for c in cells}) > 1:
        return None
    return cells


def _every_part(op: Operation, grid: Grid, row: int, columns: dict[str, Period], question: str) -> list[Cell] | None:
    """An average over every column of one kind: the kind the question says ("the average
    quarterly budget"), in the one year it names or the columns have; else the table's one kind,
    where the question names no year and no column is a year's alone."""
    if op.op != "average" or len(op.years) > 1:
        return None
    kinds = {p.part for p in columns.values()}
    said = {k for k, w in KIND_WORDS.items() if re.search(rf"\b{w}\b|\b(?:per|a|each)\s+{k}\b", question, re.I)}
    alone = any(header_year(h) is not None and h not in columns for h in grid.headers)
    kind = next(iter(said)) if len(said) == 1 else next(iter(kinds)) if len(kinds) == 1 and not alone and not op.years else None
    cols = sorted((p.order(), h) for h, p in columns.items() if p.part == kind and (not op.years or p.year == op.years[0]))
    if len({h for _, h in cols}) < 2 or len({columns[h].year for _, h in cols}) > 1 or len({o for o, _ in cols}) < len(cols):
        return None  # no kind named, parts of several years, or two columns of one part ("Q1 Budget", "Q1 Actual")
    cells = [grid.value(row, h) for _, h in cols]
    if any(c is None for c in cells) or len({c.amount.percent for c in cells}) > 1:  # type: ignore[union-attr]
        return None
    return cells  # type: ignore[return-value]
