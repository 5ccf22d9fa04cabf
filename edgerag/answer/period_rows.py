"""A table whose ROWS are quarters or halves of years ("Q1 2019" … "Q4 2020", "2Q20", "H1 2020",
"First half 2020", with "Full year 2019" rows between), read as the table of periods by column
it prints turned on its side (issue #63): each row a column headed by its period, each column of
values ("Revenue (DKKm)", "EBIT margin (%)") a row. So what period_cells.py and the readers of
columns do for quarters as columns they do for quarters as rows, by the same period reading
(periods.py): "the revenue in the second quarter of 2020" binds the row "Q2 2020", "the average
quarterly EBIT in 2020" the mean of 2020's quarter rows, "the % change in revenue from Q3 to Q4
2020" the two rows' cells.

A table whose rows are years and nothing else ("FY2023" | "FY2022" down the side of a results
summary, its columns "Operating revenue", "Ordinary income") is turned too, its years as columns.
A table is turned only where two rows or more name a part of a year with its year (or all its
rows are years), and no column does; a compact label ("2Q20", "1H20") is headed as the periods' reading writes it
("Q2 2020", "H1 2020"). The table as printed is read too (table_cells.py `grids`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Protocol, TypeVar

from ..text.rows import SECTION_MARK
from .periods import Period, column_period, named_period, year_of


class _Table(Protocol):
    """What is turned of a table read back (table_cells.py `Grid`, which imports this module)."""

    label_header: str
    headers: list[str]
    labels: list[str]
    cells: list[dict[str, str]]
    keys: list[str]
    lines: list[str]


Grid = TypeVar("Grid", bound=_Table)

_SHORT = {"quarter": "Q", "half": "H"}


def row_period(label: str) -> Period | None:
    """The quarter or half of a year a row's label names with its year ("Q2 2020", "2Q20",
    "Fiscal 2019 › First Quarter"); None for anything else (a month, a year alone, no year)."""
    own = label.rpartition(SECTION_MARK)[2]
    p = named_period(own)
    if p is None and (q := column_period(own, None)) is not None:
        p = Period(year_of(own) or year_of(label), q.part, q.index)  # "Fiscal 2019 › First Quarter": its section's year
    return None if p is None or p.year is None or p.part not in _SHORT else p


_YEAR_LABEL = re.compile(r"(?:FY\s?'?)?(?:19|20)?\d{2}(?:/\d{2}(?:\d{2})?)?", re.I)


def year_row(label: str) -> bool:
    """Whether a row's label is a year and nothing else ("FY2023", "2023", "2023/24"), as a
    results summary prints its years down the side."""
    own = label.rpartition(SECTION_MARK)[2].strip()
    return bool(_YEAR_LABEL.fullmatch(own)) and year_of(own) is not None


def _heading(label: str, period: Period | None) -> str:
    """The column's header: the period as written, or as the periods' reading writes it where
    the label holds no four-digit year ("2Q20" → "Q2 2020")."""
    if period is None or str(period.year) in label:
        return label
    return f"{_SHORT[period.part]}{period.index} {period.year}"


def turned(grid: Grid) -> Grid | None:
    """``grid`` with its rows of periods as columns (the module doc); None where its rows are no
    periods, or its columns already are."""
    periods = [row_period(label) for label in grid.labels]
    if all(year_row(label) for label in grid.labels) and len(grid.labels) >= 2 and not any(year_of(h) for h in grid.headers):
        heads = list(grid.labels)  # years as rows ("FY2023" | "FY2022" over "Operating revenue", "Ordinary income"): a column each
    elif sum(p is not None for p in periods) < 2 or any(column_period(h, None) for h in grid.headers):
        return None
    else:
        heads = [_heading(label, p) for label, p in zip(grid.labels, periods)]
    if len(set(heads)) < len(heads):
        return None  # two rows of one name: no column each
    cells = [{grid.label_header: h, **{heads[i]: grid.cells[i].get(h, "") for i in range(len(heads))}} for h in grid.headers]
    keep = [n for n, row in enumerate(cells) if any(row[x] for x in heads)]
    return replace(
        grid,
        label_header=grid.label_header,
        headers=heads,
        labels=[grid.headers[n] for n in keep],
        cells=[cells[n] for n in keep],
        keys=[max(set(grid.keys), key=grid.keys.count)] * len(keep),
        lines=["\n".join(grid.lines)] * len(keep),
    )
