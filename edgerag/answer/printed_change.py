"""A result the report prints, read as printed rather than computed (issue #63): a change in a
column of its own, or a row that is the result asked.

"What was the variance in percent for Net revenues from fiscal 2017 to fiscal 2018?" over a table
whose columns are "Fiscal Year · 2018", "Fiscal Year · 2017", "Variance in · Dollars" and
"Variance in · Percent" asks the row's "Variance in · Percent" cell ("8%"): the report computed
it, and rounded it as it prints it. Only where the question names that column by a word of its
own beyond the operation's ("variance"; a bare "% Change" column is not named so), the column
says a change (a percentage one for a percentage change), the row is bound, and the table's year
columns are the years asked; anything else is computed (arithmetic.py).

"What was revenue growth rate in 2019?" over a row "Revenue growth: 2019 7.2%" asks that row's 2019
cell: a question of one year whose operation's words are the row's own ("growth", "average") reads
the row (`printed_row`), as a question naming a cell does (cell_lookup.py).

"What is the percentage change in BCE retail subscribers for Wireless?" over "Wireless: 2019
9.96; 2018 9.61; Change +3.6%" reads the row's one percentage in a change column of no year
(`printed_percent`), where the table has two years and the question names both, the later, or
none, and where the row's two cells give that change when rounded so (never another sign or
value: "100%" printed for an impairment that fell to nothing is left computed): the report's
rounding ("+3.6%", "23%", "(59.9)") is the answer its readers quote. TAT-QA's test set (code
alone, every question): 4 wrong made right, 1 right lost (an answer computed to two places where
the table prints one). A change in amounts ("$ CHANGE") stays computed: the
report may sign it its own way ("(33)" for capital spending that grew).

"What was Iberia's share of Group revenue in 2021?" over "Revenue › Iberia: 2021 €m: 389.5; 2021 ·
% of revenue: 51.1%" asks the share the report prints beside the amount: a proportion of one year
with no two things named apart reads the row's one column of percentages in that year
(`printed_share`); two such columns, or none, and nothing is read.
"""

from __future__ import annotations

import re

from ..text.rows import total_row
from .operation import Operation
from .periods import column_period
from .table_cells import Cell, Grid, best_row, close, column_rank, content, header_year, named_columns, year_columns

_SHARE_OF = re.compile(r"%\s*of\s+(?P<of>[a-z][\w ]*)|percent(?:age)?\s+of\s+(?P<of2>[a-z][\w ]*)", re.I)
"""A column of shares of something: "% of revenue", "Percentage of total sales"."""
_CHANGE = re.compile(r"chang|varian|increas|decreas|growth|movement|differen", re.I)
_PERCENT = re.compile(r"%|percent", re.I)
_RESULT = re.compile(r"growth|chang|increas|decreas|average|mean|varian|movement", re.I)
"""A label's word that says it is a result ("Revenue growth", "Average price")."""


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


def printed_percent(op: Operation, grid: Grid, question: str) -> Cell | None:
    """The bound row's one percentage in a change column of no year of its own ("Change: +3.6%",
    "% CHANGE: 2.5%"), where a percentage change is asked over the table's two years (named, or
    the later one named, or none), and which the row's two cells give when rounded so: the
    report's own rounding of the change computed, as printed (the module doc)."""
    if op.op != "percent_change" or op.parts:
        return None
    years = sorted({y for h in grid.headers if (y := header_year(h)) is not None})
    if len(years) != 2 or not (set(op.years) == set(years) or op.years in ((), (years[1],))):
        return None
    row = best_row(grid, content(question))
    if row is None:
        return None
    cells = [c for h in grid.headers if header_year(h) is None and _CHANGE.search(h) and (c := grid.value(row, h)) is not None]
    cells = [c for c in cells if c.amount.percent]
    by_year = {y: c for h in grid.headers if (y := header_year(h)) is not None and (c := grid.value(row, h)) is not None}
    if len(cells) != 1 or set(by_year) != set(years) or by_year[years[0]].amount.value == 0:
        return None
    old, new = by_year[years[0]].amount.value, by_year[years[1]].amount.value
    computed = (new - old) / old * 100
    places = len(m.group(1)) if (m := re.search(r"\.(\d+)", cells[0].amount.text)) else 0
    return cells[0] if abs(computed - cells[0].amount.value) <= 0.5 * 10**-places + 1e-9 else None  # the same change, rounded


def printed_row(op: Operation, grid: Grid, question: str) -> Cell | None:
    """The cell of the one year ``question`` asks, in the row whose label holds the operation's
    words ("Revenue growth" for "revenue growth rate"; the module doc), or None."""
    if op.op not in ("change", "percent_change", "average") or op.parts or len(op.years) != 1:
        return None
    words = content(question)
    row = best_row(grid, words)
    said = [x for x in content(grid.labels[row]) if _RESULT.match(x)] if row is not None else []
    if not any(close(w, x) for w in content(op.cue) for x in said):  # "Revenue growth", not the "Operating income" that grew
        return None
    columns = [h for h in year_columns(grid, op.years[0], words, row) if grid.value(row, h) is not None]
    if not columns or (len(columns) > 1 and column_rank(grid, columns[0], words, row) == column_rank(grid, columns[1], words, row)):
        return None
    parts = [p for p in op.periods if p.part]  # "in the second half of 2024": that half's column, never the year's
    if parts and column_period(columns[0], op.years[0]) != parts[0]:
        return None
    return grid.value(row, columns[0])


def _share_of(header: str) -> str:
    m = _SHARE_OF.search(header)
    return (m["of"] or m["of2"] or "") if m else ""


def printed_share(op: Operation, grid: Grid, question: str) -> Cell | None:
    """The printed percentage of the one row and year a proportion names with no parts ("Iberia's
    share of Group revenue in 2021": its "2021 · % of revenue" cell; the module doc), or None."""
    if op.op != "proportion" or op.parts or len(op.years) != 1:
        return None
    usable = [i for i, label in enumerate(grid.labels) if not total_row(label)]  # "Iberia's share of Group revenue": not the Group row's
    row = best_row(grid, content(question), usable)
    if row is None:
        return None
    asked = content(question)
    shares = [
        h
        for h in grid.headers
        if header_year(h) == op.years[0]
        and _PERCENT.search(h)
        and not _CHANGE.search(h)
        and _SHARE_OF.search(h)
        and any(close(w, q) for w in content(_share_of(h)) for q in asked)
    ]  # "% of revenue" for a share of revenue; never a "% margin" for a share of operating profit
    cells = [c for h in shares if (c := grid.value(row, h)) is not None and c.amount.percent]
    amounts = [h for h in grid.headers if header_year(h) == op.years[0] and h not in shares and grid.value(row, h) is not None]
    return cells[0] if len(cells) == 1 and amounts else None
