"""A sum or an average a question asks over every row of a table (issue #63):

    "What is the average fee earned or paid in cash compensation for all non-employee directors?"
      → the mean of the "Fees Earned or Paid in Cash" column over every director's row
    "What is the total non-equity incentive target amounts of all 5 NEOs in 2019?"
      → the sum of the "Target ($)" column over the five rows

Only where the question says so: "for / of / by / among / across all (the) (N) <things>" (`ALL`),
or names the rows by their column's own header ("the NEOs' total salary" over a label column
headed "NEO"); "the executive officers' average age" over a column headed "Name" is not enough,
as its words may pick a subset the rows do not tell apart ("the Vice Presidents"). The column is the one the question's words name, no year's (two named
alike decide nothing); a year said over a table of no year columns names a plan, not a column
("… in 2019" over "Target ($)"); over a table of years, the rows named by their header take the
one column of the year named ("the total FY19 NEOs' annual salary": "FY19 · Annual Salary"). The rows are every row but a total; where the question counts
them ("all 5 NEOs") there must be that many. A sum adds the rows that have a value (an empty cell
is nothing paid, "All Other Compensation" of four directors of twelve); an average needs every
row's value. None otherwise: the model reads the question.

A sum or an average of the rows largest in a column ("the total sum of the top 3 prepaid expenses
in 2018", "the sum of the three highest carrying value (USD) in 2018", `TOP`) adds those N rows'
cells, totals aside, in the column of the year named (the one its words choose, none tied) or
the column named; N must be fewer than the rows, and the Nth apart from the next.

On TAT-QA's whole test set: seven sums and averages so decided, all right (five had abstained,
two were the model's wrong sums).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..text.rows import total_row
from .operation import Operation
from .table_cells import Cell, Grid, close, column_rank, content, header_year, named_columns, question_words, year_columns

ALL = re.compile(
    r"\b(?:for|of|by|among|across)\s+all\s+(?:of\s+)?(?:the\s+|our\s+|its\s+)?(?:(?P<n>\d{1,2})\s+)?(?P<things>[a-z][\w-]*)", re.I
)
"""A question naming every row: "for all non-employee directors", "of all 5 NEOs", "by all the directors"."""
_N = {"two": 2, "three": 3, "four": 4, "five": 5}
TOP = re.compile(
    r"\btop\s+(?P<a>[2-9]|two|three|four|five)\b|\b(?P<b>[2-9]|two|three|four|five)\s+(?:highest|largest|biggest|greatest)\b", re.I
)
"""The rows largest in a column: "the top 3 prepaid expenses", "the three highest carrying value"."""


_NO_NOUN = frozenset("name names item items description particulars category categories type types".split())


def _names_the_rows(grid: Grid, question: str) -> bool:
    """Whether the question names the rows by the label column's own header ("the NEOs' total
    salary" over a column headed "NEO"): what every row is, so all of them; not "Name" or "Item"."""
    own = [w for w in content(grid.label_header) if w not in _NO_NOUN]
    asked = question_words(question)
    return bool(own) and all(any(close(w, q) for q in asked) for w in own)


def top_rows(op: Operation, grid: Grid, question: str) -> tuple[Operation, list[Cell]] | None:
    """The cells of the N rows largest in the column asked (`TOP`, the module doc), with the
    operation naming their rows as its parts; None where the question asks no such thing or the
    table does not bind it."""
    m = TOP.search(question)
    if op.op not in ("sum", "average") or m is None or len(op.years) > 1:
        return None
    said = (m["a"] or m["b"]).lower()
    n = _N.get(said) or int(said)
    words = [w for w in question_words(question) if w not in content(op.cue)]
    if op.years:
        cols = year_columns(grid, op.years[0], words)
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words) == column_rank(grid, cols[1], words)):
            return None
        header = cols[0]
    else:
        named = [h for h in named_columns(grid, words, question) if header_year(h) is None]
        if len(named) != 1:
            return None
        header = named[0]
    cells = [c for i, label in enumerate(grid.labels) if not total_row(label) and (c := grid.value(i, header)) is not None]
    ranked = sorted(cells, key=lambda c: c.amount.value, reverse=True)
    if len(ranked) <= n or ranked[n - 1].amount.value == ranked[n].amount.value:
        return None  # no more rows than asked, or the Nth tied with the next
    top = ranked[:n]
    return replace(op, parts=tuple(c.label for c in top)), top


def _sums_the_others(cell: Cell, cells: list[Cell]) -> bool:
    """Whether ``cell`` is the sum of the other cells (two or more, within a unit of rounding): a
    total row whatever its label says ("Net revenue", "Consolidated")."""
    others = [c.amount.value for c in cells if c is not cell]
    return len(others) >= 2 and abs(sum(others) - cell.amount.value) <= 1.01


def every_row(op: Operation, grid: Grid, question: str) -> tuple[Operation, list[Cell]] | None:
    """The cells a sum or an average over every row of ``grid`` adds (the module doc), with the
    operation naming their rows as its parts; None where the question asks no such thing or
    the table does not bind it."""
    m = ALL.search(question)
    if op.op not in ("sum", "average") or not (m or _names_the_rows(grid, question)):
        return None
    words = [w for w in question_words(question) if w not in content(op.cue)]
    if op.years and any(header_year(h) is not None for h in grid.headers):
        if len(op.years) > 1 or m:
            return None  # a table of years: the years' columns of one row, not every row (operands.py)
        cols = year_columns(grid, op.years[0], words)  # "the total FY19 NEOs' annual salary": FY19's Annual Salary
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words) == column_rank(grid, cols[1], words)):
            return None
        named = cols[:1]
    else:
        named = named_columns(grid, words, question)  # "FY19 EAIP NEO Payout Amounts · Base Salary" for "salary"; two years' tie below
    if not named:
        return None
    if len(named) > 1:
        held = [sum(w in words for w in content(h)) for h in named[:2]]
        if held[0] == held[1]:
            return None  # two columns the question does not choose between
    header = named[0]
    rows = [i for i, label in enumerate(grid.labels) if label.strip() and not total_row(label)]
    if m and m["n"] and len(rows) != int(m["n"]):
        return None
    cells = [c for i in rows if (c := grid.value(i, header)) is not None]
    cells = [c for c in cells if not _sums_the_others(c, cells)]  # "Net revenue" under "Products", "Services": their total
    if len(cells) < 2 or (op.op == "average" and len(cells) != len(rows)) or len({c.amount.percent for c in cells}) > 1:
        return None
    return replace(op, parts=tuple(c.label for c in cells)), cells
