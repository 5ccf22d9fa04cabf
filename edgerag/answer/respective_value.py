"""A value a sentence states for the one year asked, among its years "respectively" or as a prior
year's amount in brackets (issue #63):

    "How much was the amount capitalized related to the Company's U.S. build-to-suit facility as
    of March 31, 2018?" over "(1) Includes amounts capitalized related to the Company's U.S.
    build-to-suit facility of $41.8 million and $39.4 million as of March 31, 2019 and 2018,
    respectively." → "$39.4 million"

    "What was depreciation in 2018?" over "Depreciation for the year was EUR 71.3 million (2018:
    EUR 66.0 million)." → "EUR 66.0 million"

A small model reads the first amount of such a sentence, whichever year it is. Code decides only
where all of these hold, else the model reads as before:

* the question asks a value ("What was …", "How much …", "How many …", or a bare noun phrase: "Average
  full-time equivalent employees in 2018?"), no computation (operation.py: a stated average or
  total of the one year is a value) and no cause, and names exactly one year;
* a sentence of prose (no table row) holds every one of the question's own words (its asking
  words and years aside; text_operands.py reads such sentences for a change between years) and
  either says "respectively", naming as many years as it states amounts (year_amounts.py
  `respectively`), with at most `FOREIGN` words of its own between the first of the question's
  words and its first amount (not "net income (loss) *includes restructuring charges*, net, of
  $0.5 million, …", whose amounts are another thing's); or gives the year asked in brackets after
  the amount of the sentence's own year (`bracketed`, "612 … (2018: 580)"), with at most
  `FOREIGN` words of its own between the question's word nearest before that amount and it (one
  word of the question is enough here, "depreciation"; no change said between them, "increased
  by …", "growth was …"; a percentage only where the question asks one), or
  the question's word right after it ("the division's *margin* improved to 14.2% (2018: 13.2%)",
  "612 *full-time equivalent employees* … (2018: 580)"), every word of the question before the
  bracket (not "The Group employed 4,310 people … (2018: 4,125), of whom 2,240 worked in
  Aerospace" for Aerospace's staff);
* every such sentence read gives the year the same amount.

The answer is the amount as the sentence writes it ("$39.4 million"), citing the sentence's passage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..types import Unit
from .cell_lookup import ASKS_VALUE
from .compare import Decision
from .operation import operation, years_in
from .table_cells import close, content
from .text_operands import prose, subject_asked
from .year_amounts import YearAmount, amounts_in, bracketed, respectively

_HOW_MUCH = re.compile(r"^\s*how\s+(?:much|many)\b", re.I)
_NOUN_PHRASE = re.compile(
    r"^\s*(?!(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|has|have|had"
    r"|in|on|at|for|by|from|between|during)\b)[A-Za-z]",
    re.I,
)
"""A value asked as a bare noun phrase ("Average full-time equivalent employees in 2018?")."""
_NOT_A_VALUE = re.compile(
    r"\b(?:why|caused?|reasons?|due\s+to|attributed|drove|driven|represent|comprise|consist|includes?|method|policy|how\s+is|how\s+are"
    r"|which|change[sd]?|increase[sd]?|decrease[sd]?|growth|grew|decline[sd]?|movement|variance|difference)\b",
    re.I,
)
"""A question asking a cause, a description or a change: no value of one year ("… related to the facility" is one)."""
_SENTENCE = re.compile(r"\n+|(?<=[.!?])\s+(?=[A-Z(“\"])")
"""Sentences of prose: a stop before a capital ("… U.S. build-to-suit facility" is one)."""
FOREIGN = 2
_CHANGE = re.compile(r"\b(?:growth|grew|increase[sd]?|decrease[sd]?|rose|risen|fell|fallen|decline[sd]?|change[sd]?|up|down)\b", re.I)
"""A change said between the subject and its amount: the bracket is the change's, not the year's."""
_ASKS_PERCENT = re.compile(r"%|\bpercent|\brate\b|\bmargin\b|\bratio\b|\bshare\b|\byield\b|\bproportion\b", re.I)
"""The most words of a sentence's own, not the question's, between the subject and its amounts."""


def _foreign(before: str, subject: list[str]) -> int:
    """How many words of ``before`` after the first of ``subject``'s are not the subject's."""
    words = content(before)
    first = next((i for i, w in enumerate(words) if any(close(w, s) for s in subject)), None)
    return 0 if first is None else sum(not any(close(w, s) for s in subject) for w in words[first:])


def respective_value(question: str, units_texts: Sequence[tuple[str, str]]) -> tuple[str, str, str] | None:
    """(amount as written, key of its text, sentence) for the one year ``question`` asks (the module doc), or None."""
    asks = ASKS_VALUE.search(question) or _HOW_MUCH.search(question) or _NOUN_PHRASE.match(question)
    op = operation(question)
    if not asks or _NOT_A_VALUE.search(question) or (op is not None and (op.op not in ("average", "sum") or op.parts)):
        return None
    years = years_in(question)
    if len(years) != 1:
        return None
    subject = [w for w in subject_asked(question, _NO_OP) if not re.fullmatch(r"\d+", w)]
    if not subject:
        return None
    found: dict[float, tuple[str, str, str]] = {}
    for key, text in units_texts:
        for sentence in _SENTENCE.split(prose(text)):
            words = content(sentence)
            if not all(any(close(w, s) for s in words) for w in subject):
                continue
            said = respectively(sentence) if len(subject) >= 2 else None
            if said is not None and _foreign(sentence[: said[0].at], subject) > FOREIGN:
                said = None
            mine = [p for p in said or [] if p.year == years[0]] or _prior_year(
                sentence, subject, years[0], bool(_ASKS_PERCENT.search(question))
            )
            if mine:
                found.setdefault(mine[0].amount.value, (mine[0].written, key, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


def _prior_year(sentence: str, subject: list[str], year: int, asks_percent: bool) -> list[YearAmount]:
    """The amount ``sentence`` gives ``year`` in brackets after its own year's amount, where the
    question's words are all before the bracket, and the one nearest before that amount is at
    most `FOREIGN` words of the sentence's own from it, or one follows it ("612 full-time
    equivalent employees"; the module doc); not a change's ("increased by …", "growth was …"),
    nor a percentage for a question that asks none; [] where none."""
    out = []
    for b in bracketed(sentence):
        opened = sentence.rfind("(", 0, b.at)
        closed = min(i for i in (sentence.find(";", b.at), sentence.find(")", b.at), len(sentence)) if i >= 0)
        if b.year != year or opened < 0:
            continue
        written = sentence[sentence.find(":", opened) + 1 : closed].strip()  # "EUR 66.0 million", as written
        clause = sentence[:opened]
        own = [(p, a) for p, a, _ in amounts_in(clause)]
        if not own or not all(any(close(w, c) for c in content(clause)) for w in subject):
            continue  # "… (2018: 4,125), of whom 2,240 worked in Aerospace": Aerospace is not the bracket's
        if b.amount.percent and not asks_percent:
            continue  # "Revenue growth was 5% (2018: 3%)" for revenue
        before = clause[: own[-1][0]]
        words = content(before)
        after = content(clause[own[-1][0] + len(own[-1][1].text) :])[:1]  # "612 full-time equivalent employees"
        near = max((i for i, w in enumerate(words) if any(close(w, s) for s in subject)), default=None)
        if near is not None and (_CHANGE.search(" ".join(words[near + 1 :])) or re.search(r"\bby\s*$", before)):
            continue  # "Revenue increased by £3.7 million (2018: £2.0 million)": a change, not the year's amount
        near_enough = near is not None and sum(not any(close(w, s) for s in subject) for w in words[near + 1 :]) <= FOREIGN
        if near_enough or any(close(w, s) for w in after for s in subject):
            out.append(replace(b, amount=replace(b.amount, text=written)))
    return out


class _NoOp:
    cue = ""


_NO_OP = _NoOp()


def stated_for_year(question: str, units: list[Unit]) -> Decision | None:
    """The amount a sentence states for the year asked ("respectively", or in brackets), as a decision (in_code.py), or None."""
    done = respective_value(question, [(u.chunk_id, u.text) for u in units])
    if done is None:
        return None
    answer, key, sentence = done
    read = [u for u in units if u.chunk_id == key][:1]
    return Decision(answer=answer, units=read, reason=f"stated for the year asked: '{sentence[:160]}'", kind="stated")
