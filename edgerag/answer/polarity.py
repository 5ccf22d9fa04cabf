"""A "yes" the sentence it rests on says no to (issue #56, item 2: yes only when the evidence
shows it).

A small model answers "yes" to "Does the Institute reimburse alcohol?" having read "Alcohol is
not reimbursed", and to "Can I travel first class on a three-hour journey?" having read "first
class is allowed only for a journey of more than four hours": it matches the words and misses
the negation. `says_no` finds the sentence read that speaks most of what the question asks (its
telling words, binding.py; the names it asks of count twice), and where that sentence negates or restricts it ("not", "never",
"only", "except", "exclude", "apologies" in a list of those present) and the question does
not, the answer is "no".

A negation in a condition ("… if you do not meet the rules", "If you're not happy with the
decision, you can appeal") is the case the rule leaves out, not a no to what was asked
(`conditional`); another negation of the same sentence may still say no.

It only turns a "yes" into a "no", never the other way: a question the sentence answers with
conditions is a no to the question as asked, and a "no" the model gave is left as it is.
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..text.sentences import split_sentences
from ..types import Unit
from .binding import TITLES, Standing, lemma, question_names, subject_words, telling

_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|mustn't|won't|isn't|aren't|doesn't|don't|nor|neither|none|without|only|except|exclud\w*|"
    r"forbidden|prohibited|banned|apologies|absent)\b|n't\b",
    re.I,
)
_HARD_NEGATION = re.compile(r"\b(?:not|no|never|cannot|can't|mustn't|won't|isn't|aren't|doesn't|don't|nor|neither)\b|n't\b", re.I)
"""A negation that says no outright; "only", "except", "without" restrict a rule that still holds
("You can allow staff to leave early (for example without notice) by offering pay in lieu")."""
MIN_SHARED = 2
"""Telling words of the question a sentence must hold to be the one it rests on."""


def _key(word: str) -> str:
    return lemma(word).rstrip("e")  # "reimburse" and "reimbursed"


def speaks_most(question: str, units: list[Unit], names: list[str] | None = None) -> Standing | None:
    """The sentence read that speaks most of ``question`` (its telling words, the names it asks of
    counting twice), holding at least `MIN_SHARED` of them and half the question's or half a
    short sentence's; None where none does."""
    want = {_key(w) for w in telling(subject_words(question), units) if w not in TITLES}
    if len(want) < MIN_SHARED:
        return None
    named = {_key(w) for n in (question_names(question) if names is None else names) for w in keywords(n)} & want
    best: tuple[int, Standing] | None = None
    for u in units:
        for s in split_sentences(u.text):
            own = {_key(w) for w in keywords(s)}
            shared = len(want & own)
            score = shared + len(named & own)  # the sentence naming whom it asks of first ("Apologies: Prof. Catherine Doyle")
            if shared >= MIN_SHARED and 2 * shared >= min(len(want), len(own)) and (best is None or score > best[0]):
                best = (score, Standing(u, s))  # half the question's words, or half a short sentence's ("All prices exclude VAT.")
    return best[1] if best is not None else None


def says_no(question: str, units: list[Unit], names: list[str] | None = None, rule: bool = False) -> tuple[str, str] | None:
    """(the sentence, why) when the sentence read that speaks most of ``question`` negates or
    restricts it and the question does not (the module doc); None otherwise. ``rule``: a
    question about what a rule allows (question.py): only an outright negation says no, a
    restriction is the rule's condition (conditions.py)."""
    if _NEGATION.search(question):
        return None
    best = speaks_most(question, units, names)
    if best is None:
        return None
    m = next(
        (m for m in (_HARD_NEGATION if rule else _NEGATION).finditer(best.sentence) if not conditional(best.sentence, m.start())), None
    )
    return (best.sentence, f"the sentence read that speaks most of it says '{m.group()}': {best.sentence[:160]}") if m else None


def conditional(sentence: str, at: int) -> bool:
    """Whether the word at ``at`` stands in a condition ("You'll need a permit if you do *not* meet
    the rules", "If you're *not* happy with the decision, you can appeal"): after an "if" or
    "unless" of its own clause (no comma, colon or semicolon between). Such a "not" is the case
    a rule does not apply in, not a no to what was asked."""
    return _CONDITION.search(sentence[:at]) is not None


_CONDITION = re.compile(r"\b(?:if|unless)\b[^,;:]*$", re.I)
