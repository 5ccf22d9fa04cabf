"""A table's total row printed with no label, read back as its "Total" row (issue #63).

Reports often print a total under a table's rows with no label beside it, only a rule above it
("Municipal bonds: 44,802", "Corporate bonds: 48,499", then "93,301"). The row is read back with
no label, so no question's "the total amortized cost" can name it, and it falls out of the table
(its first header is a value column, not the label column). Where such a row follows two rows or
more of the table, in its caption, with every value in the table's own columns, and each of its
values is the sum of the rows above it in that column (since the table's last total so found; to
the reports' rounding, half a unit of the last place a row), it is the table's "Total" row. A row
that sums nothing is left out as before.

On TAT-QA's whole test set (1.5B, every other step as before) the Total rows so read turned six
abstentions right ("… as a percentage of the total amortized cost", "How many years did total
assets exceed …?") and two wrong, each a gold that reads another row ("total property and
equipment" as the net after depreciation) or computes the change the other way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.printed import CURRENCY_SIGN
from ..text.rows import Row, rows_in

TOTAL = "Total"


_NUMBER = re.compile(r"^(?P<neg>-)?\s*(?:[A-Z]{0,3}" + CURRENCY_SIGN + r")?\s*(?P<neg2>-)?\s*(?P<num>\d[\d,]*(?:\.(?P<dec>\d+))?)\s*%?$")
"""A cell's number as text/printed.py leaves it ("-$1,204", "$ 93,301", "12.5%")."""


def _number(cell: str) -> tuple[float, int] | None:
    """A cell's signed value and its decimal places, None when it holds no number."""
    m = _NUMBER.match(cell.strip())
    if m is None:
        return None
    value = float(m["num"].replace(",", ""))
    return (-value if m["neg"] or m["neg2"] else value), len(m["dec"] or "")


def _sums(row: Row, run: Sequence[Row]) -> bool:
    """Whether every value of ``row`` is the sum of ``run``'s values in its column."""
    checked = 0
    for header, cell in row.cells.items():
        total = _number(cell)
        if total is None:
            continue
        parts = [a for r in run if (a := _number(r.cells.get(header, ""))) is not None]
        if len(parts) < 2:
            return False
        slack = 0.5 * len(parts) * 10 ** -max(total[1], *(p[1] for p in parts)) + 1e-9
        if abs(sum(p[0] for p in parts) - total[0]) > slack:
            return False
        checked += 1
    return checked > 0


def unlabeled_totals(label_header: str, headers: Sequence[str], caption: str, texts: Sequence[str]) -> list[Row]:
    """The rows of ``texts`` that are the table's unlabeled totals (the module doc), each labelled
    `TOTAL` under ``label_header``."""
    out: list[Row] = []
    own = set(headers)
    for text in texts:
        run: list[Row] = []
        for row in rows_in(text):
            if row.caption != caption:
                continue
            if row.headers and row.headers[0] == label_header:
                run.append(row)
                continue
            if label_header not in row.cells and row.cells and set(row.cells) <= own and len(run) >= 2 and _sums(row, run):
                out.append(Row({label_header: TOTAL, **row.cells}, row.caption, row.text))
                run = []
    return out
