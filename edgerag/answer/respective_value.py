"""A value a sentence states for the one year asked, among its years "respectively" (issue #63):

    "How much was the amount capitalized related to the Company's U.S. build-to-suit facility as
    of March 31, 2018?" over "(1) Includes amounts capitalized related to the Company's U.S.
    build-to-suit facility of $41.8 million and $39.4 million as of March 31, 2019 and 2018,
    respectively." → "$39.4 million"

A small model reads the first amount of such a sentence, whichever year it is. Code decides only
where all of these hold, else the model reads as before:

* the question asks a value ("What was …", "How much …"), no computation (operation.py) and no
  cause, and names exactly one year;
* a sentence of prose (no table row) says "respectively", names as many years as it states
  amounts (year_amounts.py `respectively`), and holds every one of the question's own words
  (its asking words and years aside; text_operands.py reads such sentences for a change between
  years), with at most `FOREIGN` words of its own between the first of them and its first
  amount (not "net income (loss) *includes restructuring charges*, net, of $0.5 million, …",
  whose amounts are another thing's);
* every such sentence read gives the year the same amount.

The answer is the amount as the sentence writes it ("$39.4 million"), citing the sentence's passage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..types import Unit
from .cell_lookup import _ASKS_VALUE
from .compare import Decision
from .operation import operation, years_in
from .table_cells import _close, content
from .text_operands import _subject, prose
from .year_amounts import respectively

_HOW_MUCH = re.compile(r"^\s*how\s+much\b", re.I)
_NOT_A_VALUE = re.compile(
    r"\b(?:why|caused?|reasons?|due\s+to|attributed|drove|driven|represent|comprise|consist|includes?|method|policy|how\s+is|how\s+are"
    r"|which|change[sd]?|increase[sd]?|decrease[sd]?|growth|grew|decline[sd]?|movement|variance|difference)\b",
    re.I,
)
"""A question asking a cause, a description or a change: no value of one year ("… related to the facility" is one)."""
_SENTENCE = re.compile(r"\n+|(?<=[.!?])\s+(?=[A-Z(“\"])")
"""Sentences of prose: a stop before a capital ("… U.S. build-to-suit facility" is one)."""
FOREIGN = 2
"""The most words of a sentence's own, not the question's, between the subject and its amounts."""


def _foreign(before: str, subject: list[str]) -> int:
    """How many words of ``before`` after the first of ``subject``'s are not the subject's."""
    words = content(before)
    first = next((i for i, w in enumerate(words) if any(_close(w, s) for s in subject)), None)
    return 0 if first is None else sum(not any(_close(w, s) for s in subject) for w in words[first:])


def respective_value(question: str, units_texts: Sequence[tuple[str, str]]) -> tuple[str, str, str] | None:
    """(amount as written, key of its text, sentence) for the one year ``question`` asks (the module doc), or None."""
    if not (_ASKS_VALUE.search(question) or _HOW_MUCH.search(question)) or _NOT_A_VALUE.search(question) or operation(question):
        return None
    years = years_in(question)
    if len(years) != 1:
        return None
    subject = [w for w in _subject(question, _NO_OP) if not re.fullmatch(r"\d+", w)]
    if len(subject) < 2:
        return None
    found: dict[float, tuple[str, str, str]] = {}
    for key, text in units_texts:
        for sentence in _SENTENCE.split(prose(text)):
            words = content(sentence)
            if not all(any(_close(w, s) for s in words) for w in subject):
                continue
            said = respectively(sentence)
            if said is None or _foreign(sentence[: said[0].at], subject) > FOREIGN:
                continue
            mine = [p for p in said if p.year == years[0]]
            if mine:
                found.setdefault(mine[0].amount.value, (mine[0].written, key, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


class _NoOp:
    cue = ""


_NO_OP = _NoOp()


def stated_for_year(question: str, units: list[Unit]) -> Decision | None:
    """The amount a "respectively" sentence states for the year asked, as a decision (in_code.py), or None."""
    done = respective_value(question, [(u.chunk_id, u.text) for u in units])
    if done is None:
        return None
    answer, key, sentence = done
    read = [u for u in units if u.chunk_id == key][:1]
    return Decision(answer=answer, units=read, reason=f"stated for the year asked: '{sentence[:160]}'", kind="stated")
