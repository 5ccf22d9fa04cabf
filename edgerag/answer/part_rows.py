"""The rows two parts of a question name ("the ratio of A to B", "What proportion of B went on A"),
for operands.py (issue #63): a part is the one row whose label, section, caption and labels' header
hold all its words ("water EBITDA": "EBITDA › of which: › – Integrated water service"), and a part
named alike in two sections is the one in the other part's section ("charitable activities" of
total expenditure: "Expenditure on: › Charitable activities"); a whole that names a column is that
column's total row ("What share of gross loans goes to agriculture?": `share_of_column`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.rows import SECTION_MARK, total_row
from .cell_lookup import sole_row
from .table_cells import Grid, best_row, close, content, named_columns, question_words


def _section(grid: Grid, row: int) -> str:
    return grid.labels[row].rpartition(SECTION_MARK)[0]


def beside(grid: Grid, parts: Sequence[str], a: int | None, b: int | None) -> tuple[int | None, int | None]:
    """A part whose words name rows of two sections alike, bound in the section of the other
    part's row: "What proportion of total expenditure went on charitable activities?" is
    "Expenditure on: › Charitable activities", not "Income from: › Charitable activities"."""
    bound, other = (a, 1) if a is not None else (b, 0)
    section = _section(grid, bound)  # type: ignore[arg-type]
    if not section:
        return a, b
    usable = [i for i in range(len(grid.labels)) if i != bound and _section(grid, i) == section]
    found = best_row(grid, content(parts[other]), usable) if usable else None
    return (found, b) if other == 0 else (a, found)


def part_row(grid: Grid, part: str) -> int | None:
    """The row a part names: among the rows whose label and section (and the table's caption and
    labels' header) hold every word of it, where
    any do ("water EBITDA": "EBITDA › of which: › – Integrated water service", not "EBITDA"), else
    the best named (best_row)."""
    words = content(part)
    shared = content(f"{grid.label_header} {grid.caption}")  # said of every row ("BCE retail subscribers")
    whole = [i for i, label in enumerate(grid.labels) if all(any(close(w, t) for t in content(label) + shared) for w in words)]
    if len(whole) == 1:
        return whole[0]  # the one row that says all of it, though its own label says more ("Integrated water service")
    return best_row(grid, words, whole) if whole else best_row(grid, words)


def share_of_column(grid: Grid, parts: tuple[str, ...]) -> tuple[int, int, str] | None:
    """A share whose whole names a column, not a row ("What share of gross loans goes to
    agriculture?" over a product table with a "Gross loans" column): the part's row, the table's
    one total row, and that column; None where the whole names no column, or the table has no
    one total row, or the part no row."""
    whole = question_words(parts[1])
    cols = named_columns(grid, whole)
    totals = [i for i, label in enumerate(grid.labels) if total_row(label.rpartition(SECTION_MARK)[2])]
    if not cols or len(totals) != 1:
        return None
    said = content(cols[0])
    own = [w for w in question_words(parts[0]) if not any(close(w, c) for c in said)]  # "agriculture loans": "agriculture"
    row = (best_row(grid, own) if own else None) or (sole_row(grid, " ".join(own)) if own else None)
    if row is None or row == totals[0]:
        return None
    return row, totals[0], cols[0]
