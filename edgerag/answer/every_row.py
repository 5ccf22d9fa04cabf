"""A sum or an average a question asks over every row of a table (issue #63):

    "What is the average fee earned or paid in cash compensation for all non-employee directors?"
      → the mean of the "Fees Earned or Paid in Cash" column over every director's row
    "What is the total non-equity incentive target amounts of all 5 NEOs in 2019?"
      → the sum of the "Target ($)" column over the five rows

Only where the question says so: "for / of / by / among / across all (the) (N) <things>" (`ALL`);
"the NEOs' total salary" is not enough, as its words may pick a subset the rows do not tell apart
("the Vice Presidents"). The column is the one the question's words name, no year's (two named
alike decide nothing); a year said over a table of no year columns names a plan, not a column
("… in 2019" over "Target ($)"). The rows are every row but a total; where the question counts
them ("all 5 NEOs") there must be that many. A sum adds the rows that have a value (an empty cell
is nothing paid, "All Other Compensation" of four directors of twelve); an average needs every
row's value. None otherwise: the model reads the question.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .operation import Operation
from .table_cells import Cell, Grid, content, header_year, named_columns, question_words

ALL = re.compile(
    r"\b(?:for|of|by|among|across)\s+all\s+(?:of\s+)?(?:the\s+|our\s+|its\s+)?(?:(?P<n>\d{1,2})\s+)?(?P<things>[a-z][\w-]*)", re.I
)
"""A question naming every row: "for all non-employee directors", "of all 5 NEOs", "by all the directors"."""
_TOTAL = re.compile(r"\btotals?\b|\bsubtotal\b", re.I)


def every_row(op: Operation, grid: Grid, question: str) -> tuple[Operation, list[Cell]] | None:
    """The cells a sum or an average over every row of ``grid`` adds (the module doc), with the
    operation naming their rows as its parts; None where the question asks no such thing or
    the table does not bind it."""
    m = ALL.search(question)
    if op.op not in ("sum", "average") or m is None:
        return None
    if op.years and any(header_year(h) is not None for h in grid.headers):
        return None  # a table of years: the year's column, not every row (operands.py)
    words = [w for w in question_words(question) if w not in content(op.cue)]
    named = [h for h in named_columns(grid, words, question) if header_year(h) is None]
    if not named:
        return None
    if len(named) > 1:
        held = [sum(w in words for w in content(h)) for h in named[:2]]
        if held[0] == held[1]:
            return None  # two columns the question does not choose between
    header = named[0]
    rows = [i for i, label in enumerate(grid.labels) if label.strip() and not _TOTAL.search(label)]
    if m["n"] and len(rows) != int(m["n"]):
        return None
    cells = [c for i in rows if (c := grid.value(i, header)) is not None]
    if len(cells) < 2 or (op.op == "average" and len(cells) != len(rows)) or len({c.amount.percent for c in cells}) > 1:
        return None
    return replace(op, parts=tuple(c.label for c in cells)), cells
