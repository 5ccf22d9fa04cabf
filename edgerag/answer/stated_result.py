"""A change computed in code, said as the report's prose states it (issue #63, item 3).

A report's tables give the cells; its paragraphs often state the change itself, rounded as the
report rounds it ("CTS sales increased 27% in 2019", "… an increase of $8.7 million"). Where a
change or a percentage change computed from the cells (arithmetic.py) equals, at the prose's own
precision and scale, an amount a sentence states of the same thing, the answer is the report's
statement, with the computation's direction, and the computation shown beside it:

    "What is the percentage increase in CTS sales in 2019?"
      computed 26.7% ((849.8 - 670.7) / 670.7 × 100)  →  "27%", as the report states it

The sentence must be prose (no table row), say a change the way it went ("increased", "up" for a
rise; "decline", "lower" for a fall) and hold `MIN_SUBJECT` of the question's own words; its amount must be of the same kind (a
percentage for a percentage). Anything else leaves the computed answer as it is.

An amount is not rounded as stated where the question asks the change between two years it names, in
the form a question about a table takes ("What was the change in Subscription revenue between
2018 and 2019?", "What is the increase in valuation allowance from 2018 to 2019?"): it asks the
cells' difference, "69,916 thousand", not the prose's rounding of it, "$69.9 million"
(`_ASKS_CELLS`). A question in the prose's own words ("How much did restructuring costs decrease
by from 2018 to 2019?", "What was the increase in R&D expense in 2019?") and a percentage are
still said as stated. On TAT-QA's test set the report's rounding was wrong for four such
questions, each asking the table's difference, and right for none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ..text.sentences import split_sentences
from ..types import Unit
from .table_cells import close, content
from .text_operands import prose

MIN_SUBJECT = 0.75
_UP = re.compile(r"\b(?:increas|grew|grow|rose|rise|up\b(?!\s+to\b)|higher|improv)", re.I)
_DOWN = re.compile(r"\b(?:decreas|declin|fell|fall|down\b|lower|reduc)", re.I)
"""A sentence's direction of change: it must agree with the sign computed ("sales decreased 27%" is no +26.7%)."""
_STATED = re.compile(
    r"(?P<cur>US\$|A\$|C\$|[$€£])?\s?(?P<num>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<scale>million|billion|thousand))?(?P<pct>\s?%|\s?percent\b)?",
    re.I,
)
_SIZE = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_ASKING = frozenset(
    """what was is the how much did change percentage percent increase decrease increased decreased from between to in of for by
    compared previous prior year years fiscal ended ending period""".split()
)
"""The words of asking a change and naming its years, not the thing that changed."""
_ASKS_CELLS = re.compile(
    r"^\s*what\s+(?:is|was)\s+the\s+(?:change|increase|decrease)\b.*\b(?:between|from)\s+(?:(?:fiscal|FY)\s*)?(?:19|20)\d{2}\s+(?:and|to)\s+(?:(?:fiscal|FY)\s*)?(?:19|20)\d{2}\b",
    re.I,
)
"""A question asking the change between two years it names, as a question about a table asks it
(the module doc): the cells' difference, not the prose's rounding of an amount."""


def stated_result(value: float, percent: bool, scale: str, question: str, units: Sequence[Unit], down: bool) -> tuple[str, str] | None:
    """(the report's statement of ``value``, a change computed in ``scale`` or as a percentage,
    signed as computed; the sentence that states it), or None (the module doc). ``down``: the
    change is a fall (negative, or a decrease asked and said as its size)."""
    subject = [w for w in content(question) if w not in _ASKING and not re.fullmatch(r"(?:19|20)\d{2}", w)]
    if not subject:
        return None
    size = abs(value) * (1 if percent else _SIZE.get(scale, 1.0))
    for unit in units:
        for sentence in split_sentences(prose(unit.text)):
            words = content(sentence)
            up, fell = bool(_UP.search(sentence)), bool(_DOWN.search(sentence))
            if (down and not fell) or (not down and not up):
                continue  # no change said, or one the other way
            if sum(any(close(w, x) for x in words) for w in subject) < MIN_SUBJECT * len(subject):
                continue
            for m in _STATED.finditer(sentence):
                if bool(m["pct"]) != percent or (not percent and not (m["cur"] or m["scale"])) or re.fullmatch(r"(?:19|20)\d{2}", m["num"]):
                    continue  # a percentage for a percentage; an amount said as money or with its scale; no year
                num = m["num"].replace(",", "")
                places = len(num.split(".")[1]) if "." in num else 0
                unit_size = 1 if percent else _SIZE.get((m["scale"] or "").lower(), 1.0)
                if round(size / unit_size, places) == float(num) and (places or percent or unit_size > 1):
                    if not percent and not math.isclose(float(num) * unit_size, size, rel_tol=1e-9) and _ASKS_CELLS.search(question):
                        return None  # "What was the change in X between 2018 and 2019?": the cells' difference, unrounded
                    said = m.group().strip()
                    return (f"-{said}" if value < 0 else said), sentence.strip()
    return None
