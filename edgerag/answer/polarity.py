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
decision, you can appeal", "… if it was suspended, but you were not struck off": a
", but" goes on with the condition) is the case the rule leaves out, not a no to what was asked
(`conditional`); another negation of the same sentence may still say no. Nor is one in the
clause a sentence sets against the clause that says more of the question (`contrasted`: "You may
be able to get Statutory Maternity Pay, but you cannot get Statutory Maternity Leave" to "am I
eligible for maternity pay of any kind?"), nor one that leads a list (`leads_list`: "money from
your company that is not: a salary, dividend …" says no to what the list names;
conditions_met.py reads lists item by item).

A duty question too short for `speaks_most` ("Do they have to pay for my time off?": one telling
word) is a no where a sentence read holds that word and lifts the duty outright (`lifted_duty`:
"Your employer may pay you for time off … but they don't have to").

`outright` tells a no with no case of its own ("Your agency cannot refuse to pay you because
your hirer's unhappy with your work") from one a situation may decide ("You will not be able
to get a loan if: …"); rule_check.py reads only the latter again.

Measured (all 212 ConditionalQA dev-open questions, the 1.5B, against main's rows at the same
cache): these together turn 6 wrong yes/no answers right (a "don't have to"; two "but not" in
a clause set against the answer's; a list's "not:"; a "not" inside "if …, but …"; an outright
no the model had read back to "yes"), no right one lost, no other answer changed; the office
benchmark unchanged (98/114, 15/19, 18 wrong).

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
        return lifted_duty(question, units)
    want = {_key(w) for w in keywords(question)}
    m = next(
        (
            m
            for m in (_HARD_NEGATION if rule else _NEGATION).finditer(best.sentence)
            if not conditional(best.sentence, m.start())
            and not contrasted(best.sentence, m.start(), want)
            and not (leads_list(best.sentence, m.end()) and _HARD_NEGATION.fullmatch(m.group()))
        ),
        None,
    )
    return (best.sentence, f"the sentence read that speaks most of it says '{m.group()}': {best.sentence[:160]}") if m else None


_ASKS_DUTY = re.compile(r"^\s*(?:do|does|did|will|would|shall)\b[^?]*?\b(?:have|has|need|needs)\s+to\b", re.I)
_LIFTS_DUTY = re.compile(
    r"\b(?:(?:do|does|did|will|would)\s+not|don['’]t|doesn['’]t|didn['’]t|won['’]t|wouldn['’]t|not)\s+(?:have|need)\s+to\b|\bno\s+need\s+to\b"
    r"|\b(?:is|are)\s+not\s+(?:required|obliged)\s+to\b",
    re.I,
)


def lifted_duty(question: str, units: list[Unit]) -> tuple[str, str] | None:
    """(the sentence, why) where a question asking a duty ("Do they have to pay for my time
    off?") says too few telling words for `speaks_most` (one: "pay") and a sentence read holds
    that word and lifts the duty outright, no "if" or "unless" of its own ("Your employer may pay
    you for time off … but they don't have to"); None otherwise. Guidance says a duty that is not
    one in these words, and a small model answers "yes" having read them."""
    if not _ASKS_DUTY.search(question):
        return None
    want = {_key(w) for w in subject_words(question) if w not in TITLES}
    if len(want) != 1:
        return None
    for u in units:
        for s in split_sentences(u.text):
            m = _LIFTS_DUTY.search(s)
            if m and outright(s) and want <= {_key(w) for w in keywords(s)}:
                return s, f"the sentence read lifts the duty asked of ('{m.group()}'): {s[:160]}"
    return None


_CONTRAST = re.compile(r",?\s+(?:but|whereas|while|although|though)\s+|;\s+", re.I)


def contrasted(sentence: str, at: int, want: set[str]) -> bool:
    """Whether the word at ``at`` stands in a clause the sentence sets against another that says
    more of the question (``want``, its words' keys): "You may be able to get Statutory Maternity
    Pay, but you cannot get Statutory Maternity Leave" says no to the leave, not to "maternity pay
    of any kind"."""
    cuts = [0, *(m.end() for m in _CONTRAST.finditer(sentence)), len(sentence) + 1]
    if len(cuts) < 3:
        return False
    clauses = [(a, b, {_key(w) for w in keywords(sentence[a:b])} & want) for a, b in zip(cuts, cuts[1:], strict=False)]
    own = next(len(c) for a, b, c in clauses if a <= at < b)
    return any(len(c) > own for a, b, c in clauses)


_LEADS = re.compile(r"(?:\s+[\w'’()-]+){0,6}:(?=\s|$)", re.I)


def leads_list(sentence: str, end: int) -> bool:
    """Whether the negation ending at ``end`` leads a list (a colon within six words of it, no
    stop between): "A director's loan is money from your company that is *not*: a salary, a
    dividend …" says no to what the list names, not to what was asked; conditions_met.py reads
    such lists item by item. Only an outright negation's list is read so: "Apologies: Mr Tom
    Reyes" names whom it says no of."""
    return _LEADS.match(sentence, end) is not None


def outright(sentence: str) -> bool:
    """Whether a sentence says its no with no case of its own: no "if", "unless", "when", "where",
    "as long as", "provided" or "except" after its heading (``"Compensation if you stay on the
    register: …"`` names a topic), and no list it leads. "Your agency cannot refuse to pay you
    because your hirer's unhappy with your work" is a no to every user; "You will not be able to
    get a loan if: …" is a no only to those the list names, which the user's situation decides
    (rule_check.py reads it again; an outright no it does not)."""
    body = sentence.split(": ", 1)[1] if ": " in sentence and _heading_like(sentence.split(": ", 1)[0]) else sentence
    return not body.rstrip().endswith(":") and not _CASE.search(body)


def _heading_like(text: str) -> bool:
    return len(text.split()) <= 10 and not text.rstrip().endswith((".", "?", "!"))


_CASE = re.compile(r"\b(?:if|unless|when|whenever|where|as\s+long\s+as|provided|providing|except|apart\s+from|depending)\b", re.I)


def conditional(sentence: str, at: int) -> bool:
    """Whether the word at ``at`` stands in a condition ("You'll need a permit if you do *not* meet
    the rules", "If you're *not* happy with the decision, you can appeal"): after an "if" or
    "unless" of its own clause (no comma, colon or semicolon between, but for a comma before
    "but", "and" or "or", which goes on with the condition: "if your registration was suspended,
    but you were *not* taken off the register"). Such a "not" is the case
    a rule does not apply in, not a no to what was asked."""
    return _CONDITION.search(sentence[:at]) is not None


_CONDITION = re.compile(r"\b(?:if|unless)\b(?:[^,;:]|,\s+(?:but|and|or)\b)*$", re.I)
