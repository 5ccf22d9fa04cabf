"""An amount per unit of another that no row prints, computed from the two (issue #63).

    "What is the average group loan per borrower, in cedis?"
      → "Group loans" row: Gross loans (GH¢'000) 142,310 / Active borrowers 61,284 = 2,322.15
    "What was the soybean yield in 2023/24, in tonnes per hectare?"
      → "Soybean" row: Production (tonnes) · 2023/24 149,420 / Hectares planted · 2023/24 48,200 = 3.10

The question says "X per Y" (derived.py `asks_computed` reads it as a ratio; a row that prints
it, "Revenue per skier day", is read as printed and this step is not asked). Y is a column whose
header says its word ("Active borrowers", "Hectares planted"), X another column saying one of the
words before "per" ("loan" of "Gross loans", "tonnes" of "Production (tonnes)"), both of the year
asked where the table has years; the row is the one the question's other words name. Else, two
rows so named (X's and Y's) in the column of the year asked. Each side is taken at its scale
("GH¢'000" is thousands of cedis), so the result is in the currency or unit itself; the count
divided by takes a scale only its own row or column says ("Skier days (thousand)"), never the
table's money scale. None where a side, the row or the year is not bound, or two tables bind apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cell_lookup import sole_row
from .computed import Computed, rounded
from .operation import Operation, years_in
from .per_asked import asked_per, printed_per
from .table_cells import Cell, Grid, best_row, close, content, grids, header_year

_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "": 1.0}
_OWN_SCALE = re.compile(r"\b(?:thousands?|millions?|billions?|mn|bn|m)\b|'000|’000", re.I)
"""A scale the count's own row or column says ("Skier days (thousand)"), not only the table's."""


def _says(header: str, words: Sequence[str]) -> bool:
    return any(close(w, h) for w in words for h in content(header) if not years_in(h))


def _in_columns(grid: Grid, x: list[str], unit: list[str], year: int | None) -> tuple[Cell, Cell] | None:
    cols = [h for h in grid.headers if year is None or header_year(h) in (year, None)]
    if year is not None and any(header_year(h) == year for h in cols):
        cols = [h for h in cols if header_year(h) == year]
    ys = [h for h in cols if _says(h, unit[-1:])]
    xs = [h for h in cols if h not in ys and _says(h, x)]
    if len(ys) != 1 or len(xs) != 1:
        return None
    used = {w for h in (*xs, *ys) for w in content(h)}
    words = [w for w in x if not any(close(w, u) for u in used)]
    row = best_row(grid, x)  # "group loan": the "Group loans (solidarity)" row, its column's word and all
    row = best_row(grid, words) if row is None and words else row
    row = sole_row(grid, " ".join(words)) if row is None and words else row
    if row is None:
        return None
    a, b = grid.value(row, xs[0]), grid.value(row, ys[0])
    return (a, b) if a is not None and b is not None else None


def _in_rows(grid: Grid, x: list[str], unit: list[str], year: int | None) -> tuple[Cell, Cell] | None:
    top, per = best_row(grid, x), best_row(grid, unit) or sole_row(grid, " ".join(unit))
    if top is None or per is None or top == per:
        return None
    cols = [h for h in grid.headers if (year is None or header_year(h) == year) and "%" not in h]
    found = [(a, b) for h in cols if (a := grid.value(top, h)) is not None and (b := grid.value(per, h)) is not None]
    return found[0] if len(found) == 1 or (found and year is not None) else None


def per_unit(question: str, units_texts: Sequence[tuple[str, str]]) -> tuple[float, Operation, tuple[Cell, Cell]] | None:
    """X per Y for ``question`` over the tables read (the module doc), with its two cells; None
    where it is no such question or the tables do not bind it."""
    sides = asked_per(question)
    years = set(years_in(question))
    if sides is None or len(years) > 1:
        return None
    x, unit = sides
    if printed_per(question, units_texts):
        return None  # "Revenue per skier day (EUR)": printed, read as it is (cell_lookup.py)
    year = next(iter(years), None)
    found = []
    for grid in grids(units_texts):
        cells = _in_columns(grid, x, unit, year) or _in_rows(grid, x, unit, year)
        if cells is None or any(c.amount.percent for c in cells) or cells[1].amount.value == 0:
            continue
        a, b = cells
        if b.scale and not _OWN_SCALE.search(f"{b.label} {b.header}"):
            continue  # "Passengers carried" in a "EUR million" table: the table's scale is its money's, the count's is unknown
        value = a.amount.value * _SCALES.get(a.scale, 1.0) / (b.amount.value * _SCALES.get(b.scale, 1.0))
        found.append((round(value, 6), cells))
    if len({v for v, _ in found}) != 1:
        return None
    value, cells = found[0]
    return value, Operation("ratio", (), tuple(years), 2, f"per {' '.join(unit)}"), cells


def _per(value: float, op: Operation, cells: tuple[Cell, Cell]) -> Computed:
    """One amount per unit of another (per_unit.py), to two decimals, each side at its scale."""
    a, b = cells
    answer = rounded(value, 2)
    side = lambda c: f"{c.amount.text}{' ' + c.scale if c.scale else ''} ({c.label}, {c.header})"  # noqa: E731
    return Computed(answer, f"{answer} ({side(a)} / {side(b)})", value, op, cells)


def per_unit_computed(question: str, units_texts: Sequence[tuple[str, str]]) -> Computed | None:
    """`per_unit` as the reader's computed answer, or None."""
    found = per_unit(question, units_texts)
    return _per(*found) if found is not None else None
