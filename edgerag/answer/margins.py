"""A margin a report does not print, computed as the share of revenue it is (issue #63).

"What was the EBITDA margin in 2024?" over a table of Revenue and EBITDA rows and no "margin"
row asks EBITDA as a percentage of revenue: arithmetic.py computes that question instead
(`as_share`), the profit's row over the revenue's, with the formula shown. The margin's profit is
read by its usual labels ("gross margin": Gross profit; "operating margin": Operating profit, or
income; "net margin": Net profit, Net income, Profit for the year), the revenue by its (Revenue,
Net sales, Sales, Turnover), in that order, the first pair that binds.

Never where a table read prints that margin ("Gross margin (%)": the report's own figure, read as
printed: cell_lookup.py, or the model; an "EBITDA margin" row says nothing of the gross margin), nor where the question asks another operation of the
margin ("the change in gross margin"), nor a part's margin ("the construction segment's pre-tax
margin"): the whole's rows do not give it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..text.rows import row_spans

_MARGIN = re.compile(
    r"\b(?:the\s+)?(?:(?:company|group|firm|bank)(?:'s|’s)\s+)?(?P<kind>adjusted\s+ebitda|ebitda|ebit|gross|operating|net|pre-?tax|"
    r"profit\s+before\s+tax|contribution)\s+(?:profit\s+)?margin\b",
    re.I,
)
_PROFITS = {
    "adjusted ebitda": ("adjusted EBITDA",),
    "ebitda": ("EBITDA",),
    "ebit": ("EBIT", "operating profit"),
    "gross": ("gross profit", "gross margin"),
    "operating": ("operating profit", "operating income", "EBIT"),
    "net": ("net profit", "net income", "profit for the year"),
    "pretax": ("profit before tax", "income before income taxes"),
    "pre-tax": ("profit before tax", "income before income taxes"),
    "profit before tax": ("profit before tax",),
    "contribution": ("contribution",),
}
_REVENUES = ("revenue", "net sales", "sales", "turnover", "total revenue", "operating revenue", "net revenue", "revenues")
_PART_OWNED = re.compile(r"\b(?!(?:company|group|firm|bank|business)(?:'s|’s))[a-z][\w-]*(?:'s|’s)\s+$", re.I)
_PART_AFTER = re.compile(r"\s+(?:of|for|at|in)\s+(?:the\s+|its\s+)?(?P<w>[a-z][\w-]*)", re.I)
_WHOLE_OR_TIME = frozenset("company group firm bank business year period full first second third fourth last half quarter fiscal".split())
"""A margin asked of a part ("the construction segment's", "… of the cement division"), not the whole's."""


def as_share(question: str, units_texts: Sequence[tuple[str, str]]) -> Iterator[str]:
    """The questions ``question``, a margin asked that no table read prints, is as a share of
    revenue ("What was the EBITDA as a percentage of revenue in 2024?"), in the order to try
    them (the module doc); none where it is no such question."""
    m = _MARGIN.search(question)
    if m is None:
        return
    kind = " ".join(m["kind"].lower().split())
    printed = re.compile(rf"\b{re.escape(kind.split()[-1][:4])}[\w-]*\s+(?:profit\s+)?margin\b", re.I)
    if any(printed.search(text[a:b]) for _, text in units_texts for a, b in row_spans(text)):
        return  # the report prints this margin: read as printed
    after = _PART_AFTER.match(question[m.end() :])
    if _PART_OWNED.search(question[: m.start()]) or (
        after and after["w"].lower() not in _WHOLE_OR_TIME and not any(c.isdigit() for c in after["w"])
    ):
        return  # "the construction segment's pre-tax margin": a part's, which the group's rows do not give
    for profit in _PROFITS.get(kind, ()):
        for revenue in _REVENUES:
            yield f"{question[: m.start()]}the {profit} as a percentage of {revenue}{question[m.end() :]}"
