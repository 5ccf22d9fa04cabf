"""The scale of a table that says none in its header, caption or labels, read from the prose
around it (issue #63): a page's note of its tables' scale ("(Tabular amounts in millions …)"), the
lead-in just above the table ("Sales volumes are measured in thousands of … cases"), or a sentence
that states one of its amounts with a scale ("a net income of $392 million" over "Net income: $392").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.printed import CURRENCY_SIGN, scale_word
from ..text.rows import row_spans


@dataclass(frozen=True)
class Printed:
    """What of a table says its scale, as table_cells.py reads it: its caption, the labels'
    header, its columns' headers with each one's year (or None), and its cells' numbers as printed."""

    caption: str
    label_header: str
    headers: list[str]
    years: list[int | None]
    numbers: set[str]


_SAID = re.compile(r"(?<![\d.,])(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<word>thousand|million|billion|bn)\b", re.I)
_SCALED = re.compile(CURRENCY_SIGN + r"|thousand|million|billion|'000|’000|\b(?:m|bn|k)\b|\bin\s+(?:thousands|millions|billions)", re.I)


_NOTED = re.compile(r"\([^()]*?\bin\s+(?:" + CURRENCY_SIGN + r"\s*)?(?P<word>thousands|millions|billions)\b[^()]*\)", re.I)
"""A page's note of its tables' scale: "(Tabular amounts in millions, unless otherwise disclosed)",
"(In thousands, except per share data)", "(dollars in millions)"."""


_IN_SCALE = re.compile(r"\bin\s+(?P<word>thousands|millions|billions)\b", re.I)
"""A lead-in's word of scale outside brackets: "Sales volumes are measured in thousands of cases"."""


def prose_scale(grid: Printed, texts: Sequence[str], lead: str = "") -> str:
    """The scale of a table that says none (no header, caption or label scales it) implied by its
    prose, or by a note in one column's header ("(dollars in millions)" over the change column
    only, where the others say none; a header that scales its own column otherwise, "$m", keeps
    its table's others unscaled, unless the table is one column a year and only one scale is
    said: "2018 · (S$ million)" beside "As at 31 March · 2019"): the page's note of its tables' scale (`_NOTED`), one scale only; else a sentence
    beside it states one of its amounts with a scale ("a net income of $392 million" over a row
    "Net income: $392"); "" when none does, or two scales are implied. An amount of fewer than
    three digits is too common to tell. The lead-in just above the table (``lead``, table_topic.py)
    that says one scale ("measured in thousands of … cases") says the table's, before a sentence's amount."""
    heads = (grid.caption, grid.label_header, *grid.headers)
    if any(_SCALED.search(h) for h in heads):
        noted = {m["word"].lower().rstrip("s") for h in heads for m in _NOTED.finditer(h)}
        own = [h for h in heads if _SCALED.search(h) and not _NOTED.search(h)]
        if len(noted) == 1 and not own:
            return next(iter(noted))  # "(dollars in millions)" over one column: the table's
        said = {w for h in heads if (w := scale_word(h))}
        years = [h for h, y in zip(grid.headers, grid.years) if y is not None]
        one_each = len(years) == len(grid.headers) == len({y for y in grid.years if y is not None})
        if len(said) == 1 and one_each and any(scale_word(h) for h in years):
            return next(iter(said))  # "2018 · (S$ million)" beside "As at 31 March · 2019": a column a year, one scale
        return ""
    prose = []
    for text in texts:
        for start, end in reversed(row_spans(text)):
            text = text[:start] + text[end:]
        prose.append(text)
    noted = {m["word"].lower().rstrip("s") for text in prose for m in _NOTED.finditer(text)}
    if len(noted) == 1:
        return next(iter(noted))
    led = {m["word"].lower().rstrip("s") for m in _IN_SCALE.finditer(lead)}
    if len(led) == 1:
        return next(iter(led))
    values = grid.numbers
    said = set()
    for text in prose:
        for m in _SAID.finditer(text):
            if m["num"] in values and len(re.sub(r"\D", "", m["num"])) >= 3:
                said.add("billion" if m["word"].lower().startswith("b") else m["word"].lower())
    return next(iter(said)) if len(said) == 1 else ""
