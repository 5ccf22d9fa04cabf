"""A question that asks for a description, answered by the documents' whole clause (issue #63).

"What does sales related reserves represent?", "What is included in tax fees?", "What was the
benefit related to?", "What led to the increase in cable revenue?", "How are inventories
stated?", "What happens if my case cannot be considered?": the answer is a clause of a sentence, not a name, date or number. A small model
copies the clause's start ("price concessions and stock rotation rights") and the reply rules
made for names cut it further ("Internet" of "Increase in Internet revenue from …"). Here such
a reply is neither narrowed nor re-chosen, and a reply a sentence read holds word for word runs
on to that sentence's end, as the documents say it ("… rights that the Company offers to many
of its distributors"). A table's row is no such sentence: "Audit fees" runs on in the prose
("Audit fees consist of fees associated with …"), never into the row's cells ("· 2018 · NT$:
52,794; …", the short answer of the 0.5B for two TAT-QA sample questions).

A reply that opens by saying the question back keeps what it says after it (restated.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.printed import CURRENCY_SIGN
from ..text.sentences import split_sentences
from ..types import Unit
from .operation import operation

_CLAUSE = re.compile(
    r"^\s*(?:what\s+(?:does|do|did)\s+.+?\s+(?:represent|reflect|include|consist\s+of|depend\s+on|mean|comprise|cover)\b"
    r"|what\s+(?:is|are|was|were)\s+(?:included|comprised)\s+in\b|what\s+constitutes?\b"
    r"|what\s+(?:caused|led\s+to|drove|resulted\s+in)\b|why\b|what\s+(?:happens|will\s+happen|would\s+happen)\b"
    r"|what\s+(?:is|was|are|were)\s+the\s+(?:result|outcome|consequence)s?\s+of\b"
    r"|what\s+(?:is|was|are|were)\s+.+?\s+(?:(?:primarily|mainly|largely|partly)\s+)?(?:related|attributable|attributed|due)\s+to\s*\??\s*$"
    r"|how\s+(?:is|are|was|were)\s+.+?\s+(?:stated|valued|measured|determined|calculated|recogni[sz]ed|accounted\s+for)\b)",
    re.I,
)
_SPACE = re.compile(r"\s+")


def asks_clause(question: str) -> bool:
    """Whether ``question`` asks for a description, answered by a clause (the module doc)."""
    return bool(_CLAUSE.match(question))


def whole_clause(reply: str, units: Sequence[Unit]) -> str:
    """``reply`` run on to the end of the first sentence read that holds it word for word
    (case aside); ``reply`` itself when none does or it is one word."""
    said = _SPACE.sub(" ", reply).strip().rstrip(".").strip()
    if len(said.split()) < 2:
        return reply
    for u in units:
        for sentence in split_sentences(u.text):
            flat = _SPACE.sub(" ", sentence)
            at = flat.lower().find(said.lower())
            if at >= 0 and not _cells(flat[at + len(said) :]):  # a row's label runs on into its numbers: no clause
                return flat[at:].strip().rstrip(".").strip()
    return reply


def _cells(text: str) -> bool:
    """Whether ``text`` is a table row's cells as the reader prints them (" · 2018 · NT$: 52,794;
    2019 · NT$: 62,040"), nothing else."""
    parts = [p for p in text.strip(" ·").split(";") if p.strip()]
    return bool(parts) and all(_CELL.match(p) for p in parts)


_REASON = re.compile(r"^\s*what\s+(?:is|was|are|were)\s+the\s+(?:main\s+|primary\s+)?reasons?\b", re.I)
_BARE_NUMBER = re.compile(
    r"^\s*[-+(]?\s?(?:[A-Z]{0,3}" + CURRENCY_SIGN + r")?\s?\d[\d,.]*\)?\s*(?:%|percent|million|billion|thousand|bn|m)?\s*\.?\s*$", re.I
)
_CELL = re.compile(r"^\s*[^:;]{1,80}:\s*[-+(]?\s?(?:[A-Z]{0,3}" + CURRENCY_SIGN + r")?\s?\d[\d,.]*\)?\s*%?\s*$")
"""A table's cell read back ("2018 · NT$: 52,794"): a row's numbers, no description."""
NUMBER_FOR_A_DESCRIPTION = "the question asks for a description or a reason, and the reply is a bare number: no answer to it"


def number_for_description(reply: str, question: str) -> bool:
    """Whether ``reply`` is a bare number ("39%"), or a table's cells read back ("2018 · NT$:
    52,794; 2019 · NT$: 61,990" for "What constitutes Audit fee?"), to a question that asks for a description or a
    reason ("What was the reason for the year-on-year change …?"): the model read the change's
    size, not its cause; the question is then not answered."""
    numbers = _BARE_NUMBER.match(reply) or all(_CELL.match(part) for part in reply.split(";"))
    return bool(numbers) and (asks_clause(question) or bool(_REASON.match(question))) and operation(question) is None
