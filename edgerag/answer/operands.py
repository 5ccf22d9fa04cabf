"""The cells an arithmetic question's operands bind (arithmetic.py computes over them), by what
the question names:

* one row and two or more years (or none: a change takes the two latest years, an average
  every year; one: a change in that year is from the year before): the row's cells in those
  years' columns, of one kind of column;
* two things apart ("the ratio of A to B", "A as a percentage of B", "the sum of A and B"):
  two rows in one column (the year named, else the table's only column), or two columns of one
  row; named with "and" in them ("the sum of research and development and sales and marketing
  expenses"), split at the one "and" where each side names one row (`split_at_rows`);
* one row and two or more quarters, halves or months, where the columns are such parts
  (period_cells.py); two things apart that are only such parts ("between Q3 and Q4 2020") are
  those periods;
* a table of years by row (a year in each label): the years' rows in the column named; where a
  year has several rows ("FY2019 › First Quarter", "FY2019 › Second Quarter"), the one the
  question names.
* a sum or an average over rows the question names by their labels, two or more, in the one
  column it names (its header not a year's): "the average number of shares owned by L. Gordon
  Crovitz and Donald P. Hutchison". (Every row of a column, "the NEOs' total salary", was tried:
  a question's words may pick a subset the rows do not tell apart, "the Vice Presidents".)

None where they are not bound in code: the model reads the question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..text.rows import SECTION_MARK
from .operation import Operation, names_a_period, years_in
from .period_cells import by_period, halves_as_quarters, period_cells
from .table_cells import (
    Cell,
    Grid,
    best_row,
    column_rank,
    content,
    header_when,
    header_year,
    named_columns,
    question_words,
    year_columns,
)


def _year_cells(op: Operation, grid: Grid, row: int, words: list[str]) -> list[Cell] | None:
    years = sorted(op.years)
    found = sorted({y for h in grid.headers if (y := header_year(h)) is not None and grid.value(row, h) is not None})
    if not years:
        if op.op in ("change", "percent_change", "difference"):
            years = found[-2:]
        elif op.op == "average":
            years = found
    elif len(years) == 1 and op.op in ("change", "percent_change") and years[0] - 1 in found:
        years = [years[0] - 1, years[0]]  # "the change in capitalized interest in 2019": from the year before
    if len(years) < 2:
        return None
    cells: list[Cell] = []
    for y in years:
        cols = [h for h in year_columns(grid, y, words, row) if grid.value(row, h) is not None]
        if cells:  # the same kind of column as the first year's ("Amount", not "% to Net Sales")
            cols = sorted(cols, key=lambda h: _family(h) != _family(cells[0].header))
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words, row) == column_rank(grid, cols[1], words, row) and not cells):
            return None  # no column of that year, or two the question does not choose between
        cells.append(grid.value(row, cols[0]))  # type: ignore[arg-type]
    if len({c.amount.percent for c in cells}) > 1:
        return None  # a percentage and an amount: no operands of one operation
    return cells


def _family(header: str) -> str:
    """A column's header without its year: "2019 · Amount" and "2018 · Amount" are one family."""
    return " ".join(w for w in content(header) if not years_in(w))


def _year_rows(op: Operation, grid: Grid, words: list[str]) -> list[Cell] | None:
    """A table of years by row: the years' rows in the one column the question names."""
    by_year: dict[int, list[int]] = {}
    for i, label in enumerate(grid.labels):
        if len(ys := years_in(label)) == 1 and ys[0] in op.years:
            by_year.setdefault(ys[0], []).append(i)
    rows = {}
    for y, found in by_year.items():  # a year's several rows ("FY2019 › First Quarter", "FY2019 › Second Quarter"): the one named
        i = found[0] if len(found) == 1 else best_row(grid, [w for w in words if not years_in(w)], found)
        if i is None:
            return None
        rows[y] = i
    cols = named_columns(grid, words)
    if len(op.years) < 2 or len(rows) != len(op.years) or not cols:
        return None
    cells = [grid.value(rows[y], cols[0]) for y in sorted(op.years)]
    return None if any(c is None for c in cells) else cells  # type: ignore[return-value]


def _one_column(op: Operation, grid: Grid, rows: Sequence[int], words: list[str]) -> str | None:
    if len(op.years) == 1:
        for h in year_columns(grid, op.years[0], words):
            if all(grid.value(i, h) is not None for i in rows):
                return h
        return None
    named = [h for h in named_columns(grid, words) if all(grid.value(i, h) is not None for i in rows)]
    if named:
        return named[0]
    filled = [h for h in grid.headers if all(grid.value(i, h) is not None for i in rows)]
    totals = [h for h in filled if content(h) == ["total"]]
    if len(filled) > 1 and len(totals) == 1 and not years_in(" ".join(filled)):
        return totals[0]  # "… of the total contractual obligations": the Total column, where no column is named
    return filled[0] if len(filled) == 1 else None


def _part_columns(grid: Grid, part: str, words: list[str], op: Operation, others: list[str]) -> list[str]:
    """The columns a part names: by its date ("November 2018" → "November 30, 2018"), else its
    words, in the one year the question names where the columns have years ("In the first
    quarter of 2018, … the high and low price": 2018's High and Low). Of a date's columns, the
    one the part's words name, else the question's ``others`` ("consolidated … between FY 2018
    and FY 2019": the Consolidated columns, not the Unconsolidated)."""
    when = header_when(part)
    if when is None:
        named = named_columns(grid, words)
        if len(op.years) == 1 and any(header_year(h) is not None for h in named):
            return [h for h in named if header_year(h) == op.years[0]]
        return named
    dated = [h for h in grid.headers if (w := header_when(h)) is not None and w[0] == when[0] and (not when[1] or w[1] == when[1])]
    said = [w for w in words if not years_in(w)] + others
    if len(dated) > 1 and said:
        named = [h for h in named_columns(grid, said) if h in dated]  # "Q3 2020": of 2020's columns, the one headed Q3
        if len(named) > 1 and column_rank(grid, named[0], said) == column_rank(grid, named[1], said):
            return []  # two columns the question does not choose between
        return named[:1]
    return dated


def _names_more(grid: Grid, row: int, part: str) -> bool:
    """Whether ``part``, a list ("A and B", "A, B"), names beside ``row`` another whole row by one
    of its items ("investor relations and consultants"); never where ``row``'s own label is such
    a list ("Research and development")."""
    label = _own(grid.labels[row])
    if re.search(r"\band\b|,", label) or not re.search(r"\s+and\s+|,\s", part):
        return False
    own = set(content(label))
    others = [j for j in range(len(grid.labels)) if j != row]
    items = [x for x in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", part) if x.strip()]
    return any(best_row(grid, content(x), others) is not None for x in items if not set(content(x)) <= own)


def split_at_rows(grid: Grid, joined: str) -> tuple[str, str] | None:
    """``joined`` ("research and development and sales and marketing expenses") split at the one
    "and" where each side names one row of ``grid``, the two rows apart; None where no split, or
    several splits naming different rows, does."""
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for m in re.finditer(r"\s+and\s+(?:the\s+)?", joined, re.I):
        a, b = joined[: m.start()].strip(), joined[m.end() :].strip()
        i, j = best_row(grid, content(a)), best_row(grid, content(b))
        if i is not None and j is not None and i != j and not _names_more(grid, i, a) and not _names_more(grid, j, b):
            found.setdefault((i, j), (a, b))
    return next(iter(found.values())) if len(found) == 1 else None


def _part_cells(op: Operation, grid: Grid, question: str) -> list[Cell] | None:
    a, b = best_row(grid, content(op.parts[0])), best_row(grid, content(op.parts[1]))
    if (a is None or b is None) and op.joined and (split := split_at_rows(grid, op.joined)):
        op = replace(op, parts=split)  # split where the table's labels split it, not at the first "and"
        a, b = best_row(grid, content(split[0])), best_row(grid, content(split[1]))
    a_words, b_words = (question_words(p) for p in op.parts)
    if a is not None and b is not None and (_names_more(grid, a, op.parts[0]) or _names_more(grid, b, op.parts[1])):
        return None  # "investor relations and consultants": a part naming two rows is no one row's cell
    if a is not None and b is not None and a != b:
        rest = [w for w in question_words(question) if w not in a_words and w not in b_words]
        h = _one_column(op, grid, [a, b], rest)
        return None if h is None else [grid.value(a, h), grid.value(b, h)]  # type: ignore[list-item]
    others = [w for w in question_words(question) if w not in a_words and w not in b_words and not years_in(w)]
    ca, cb = _part_columns(grid, op.parts[0], a_words, op, others), _part_columns(grid, op.parts[1], b_words, op, others)
    if ca and cb and ca[0] != cb[0]:
        row = best_row(grid, content(question))
        if row is not None and (x := grid.value(row, ca[0])) and (y := grid.value(row, cb[0])):
            return [x, y]
    return None


def operands(op: Operation, grid: Grid, question: str) -> tuple[Operation, list[Cell] | None]:
    words = content(question)
    if op.op in ("sum", "percent_change"):  # "the total Products revenue": not the Total row; "the percentage change in
        words = [w for w in words if w not in content(op.cue)] or words  # net revenues": not "Percentage of net revenues"
    if op.op == "percent_change":  # "the change in Total Revenue … as a percentage": the ask's word, not a row's
        words = [w for w in words if w not in ("percentage", "percent")] or words
    if op.parts and by_period(grid) and all(names_a_period(p) for p in op.parts):
        op = replace(op, parts=())  # "between Q3 and Q4 2020" over columns of quarters: the periods, with their years
    if op.parts:
        cells = _part_cells(op, grid, question)
        if cells or op.op in ("ratio", "proportion"):
            return op, cells
        op = replace(op, parts=())  # "between the restructuring costs and other reserves in 2019 and 2018": one row
    if op.op in ("ratio", "proportion"):
        return op, None  # two things to divide, not named apart
    by_rows = _year_rows(op, grid, words)
    if by_rows:
        return op, by_rows
    row = best_row(grid, words)
    if row is None and op.op in ("sum", "average") and not op.years:
        return op, _column_rows(grid, question)
    if row is not None and by_period(grid):  # columns of quarters, halves or months (period_cells.py)
        op = halves_as_quarters(op, grid)  # "the first half of 2020" beside quarters only: Q1 + Q2
        cells = period_cells(op, grid, row, words, question)
        if cells or any(p.part and by_period(grid, p.part) for p in op.periods):
            return op, cells
    return op, None if row is None else _year_cells(op, grid, row, words)


def _own(label: str) -> str:
    return label.rpartition(SECTION_MARK)[2].strip()


def _column_rows(grid: Grid, question: str) -> list[Cell] | None:
    """The rows a sum or an average over rows adds: those the question names by their labels,
    two or more, in the column it names (the module doc)."""
    words = question_words(question)
    cols = [h for h in named_columns(grid, words) if header_year(h) is None]
    rows = [
        i
        for i, label in enumerate(grid.labels)
        if len(_own(label)) > 3
        and "total" not in content(_own(label))
        and re.search(rf"(?<!\w){re.escape(_own(label))}(?!\w)", question, re.I)
    ]  # named whole, by word ("Other" is not in "another"); a total row is no item of the sum
    if not cols or len(rows) < 2:
        return None
    cells = [grid.value(i, cols[0]) for i in rows]
    if any(c is None for c in cells) or len({c.amount.percent for c in cells}) > 1:  # type: ignore[union-attr]
        return None
    return cells  # type: ignore[return-value]
