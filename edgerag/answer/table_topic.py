"""A report table's topic: the words its lead-in says ("The provision for income taxes consists
of the following (in millions):", a section line "Current:"), shared by every row below it.

A question names its row by the words that tell the rows apart; the topic's words are said of
every row, so a row whose own label says them ("Provision for income taxes", the table's bottom
line) is named by them no better than its siblings are: "the total current provision for income
tax" is the row "Current › Total current", not "Provision for income taxes". A row the question
names only by the topic's words is still named (table_cells.py ``best_row`` counts them as
held, not as telling it apart). Measured on TAT-QA's 277 test excerpts (model-free probe): the
wrong row so stopped in tables of income-tax provisions and of amortization by line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import row_spans

LEAD_IN_LINES = 3
"""How many lines of prose above a table's first row are read as its lead-in."""


def lead_in(first_row: str, texts: Sequence[str]) -> str:
    """The prose just above the table whose first row line is ``first_row``: up to
    `LEAD_IN_LINES` non-empty lines after the row lines before it; "" when it is not found."""
    for text in texts:
        at = text.find(first_row)
        if at < 0:
            continue
        start = max((e for s, e in row_spans(text) if e <= at), default=0)
        lines = [line.strip() for line in text[start:at].splitlines() if line.strip() and not _SECTION.fullmatch(line.strip())]
        said = "\n".join(lines[-LEAD_IN_LINES:])
        return "" if _LISTS.search(said) else said
    return ""


_SECTION = re.compile(r"[^.:;]{1,60}:")
"""A section's heading line ("Current:"): the rows below it, not the table, are its."""
_LISTS = re.compile(r";|(?:,[^,]+){3}")
"""A lead-in that lists things ("Obligations under long-term debt; non-cancelable operating leases;
…"): it names rows, not a topic shared by them."""
