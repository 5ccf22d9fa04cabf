"""A yes or no about a rule, with the rule's condition (issue #62, item 2): guidance says "you
can, if …" or "you cannot, unless …"; a bare yes or no loses the case it holds in.

For a question about what a rule allows or requires (question.py ``rule``: "Can I …?", "Am I
eligible …?", "Do I have to …?") answered yes or no, `rule_condition` finds the rule's own
sentence (`rule_sentence`: the sentence read that says most of the question proper, its
passage's headings counting for it, the words beside the names the question asks of counting
twice: "To apply you must:" under "Seasonal Worker visa" for "Can I apply for a Seasonal Worker
visa?", not "You cannot extend a Seasonal Worker visa …"; the situation's words add a little,
steering to the page and case the user is in) and its condition:

* in the sentence: "… if / only if / as long as / provided (that) / unless / except …";
  (not one that says only what the question asks: "Can I claim online?" has no condition in
  "You can only claim online if you claimed online before"; not one of fewer than two telling
  words: "if you want to"; not one in a heading before the sentence's ": ", which names its
  topic: "Compensation if you stay on the register: You can get …"; an aside the clause cuts
  off, "(CASC", is left out);
* or, where the sentence leads a list ("The donor must:", "You can claim if you:", "You can get
  it if all of the following apply:"), its items:
  each is a condition (joined "and"; "or" where the lead says "one of" / "any of").

A condition that grants the rule ("you can … if C", "you cannot … unless C") reads "Yes, if C"
after a yes and "No, unless C" after a no; one that excepts from it ("you can … unless C", "you
cannot … if C") reads "Yes, unless C" and "No, if C". The short answer stays "yes" or "no" (what
is scored); the answer's text says the condition and cites the rule's passage.

A condition the situation already settles is not said (`settled`): where the user's own
sentences say the telling words of a condition the answer holds under ("Yes, if you pay Income
Tax" for "I pay income tax through PAYE"), with no "not" of their own against the clause's, the
answer is a plain "Yes" (still citing the rule). A condition the situation says the opposite of,
or says only in part, is quoted: the reader sees the case the answer holds in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.keywords import keywords
from ..text.sentences import split_sentences
from ..types import Unit
from .binding import Standing, heads, lemma, subject_words
from .question import Question

_CONDITION = re.compile(
    r"\b(?P<lead>only\s+if|if|as\s+long\s+as|provided(?:\s+that)?|providing|so\s+long\s+as|unless|except\s+(?:if|when|where)|only\s+when)\b"
    r"(?P<c>[^.;:?!]{4,220})",
    re.I,
)
_NEGATIVE = re.compile(r"\b(?:not|cannot|can't|won't|isn't|aren't|don't|doesn't|never|no)\b|n't\b", re.I)
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
SITUATION_WEIGHT = 0.5
"""What each of the situation's words (up to three) a sentence or its headings say adds to its
score as the rule's sentence: less than a word of the question proper."""
MAX_ITEMS = 4
"""List items a condition quotes at most (a longer list is cited, its first items said)."""
MAX_LIST_WORDS = 40
"""Words of a list joined into the rule's sentence read that a condition quotes at most."""


@dataclass(frozen=True)
class Condition:
    """A rule's condition, as the answer says it."""

    clause: str
    """The condition, quoted ("you have paid at least as much in Income Tax …")."""
    grants: bool
    """True: the rule holds if the condition does; False: the condition excepts from it."""
    standing: Standing
    """The rule's sentence and its passage (cited)."""


def list_after(sentence: str, text: str, most: int = MAX_ITEMS) -> list[str]:
    """The list items (``most`` at most) that follow a sentence ending in ":" in ``text`` (one a
    line or sentence)."""
    said = split_sentences(text)
    at = next((i for i, s in enumerate(said) if s == sentence), None)
    if at is None:
        return []
    items = []
    for s in said[at + 1 :]:
        if s.endswith(":") or len(s.split()) > 40:
            break
        items.append(_ITEM.sub("", s).rstrip(" .;"))
        if len(items) == most:
            break
    return items


_CLAUSE_END = re.compile(r"\)|\s[-–—]\s|,\s+(?:and|but|or|so)\s|\s(?=(?:You|Your|If|The|This|It|We|Contact|Check|Find|Apply)\b)")
"""Where a condition's clause ends that its sentence's punctuation may not say: an unopened ")",
a spaced dash, a comma before a conjunction, a capitalised word that opens the next sentence
or heading (evidence lines are joined by a space)."""


def _clause(text: str) -> str:
    m = _CLAUSE_END.search(text)
    clause = (text[: m.start()] if m else text).strip(" ,")
    opened = clause.rfind("(")
    if opened >= 0 and ")" not in clause[opened:]:  # "a community amateur sports club (CASC": the aside cut off
        clause = clause[:opened].rstrip(" ,")
    return clause


def _heading(sentence: str) -> bool:
    return not sentence.rstrip().endswith((".", ":", "?", "!", ";")) and len(sentence.split()) <= 8


def rule_sentence(q: Question, units: list[Unit]) -> Standing | None:
    """The rule's own sentence for ``q`` (the module doc); None where no sentence read says two
    of the question proper's telling words (headings counting)."""
    want = {lemma(w) for w in subject_words(q.core)}
    named = {lemma(w) for n in q.names for w in keywords(n)}
    if len(want) < 2:
        return None
    case = {lemma(w) for w in subject_words(" ".join(q.situation))} - want  # the situation steers to its case
    best: tuple[float, Standing] | None = None
    for u in units:
        head = {lemma(w) for w in keywords(heads(u))}
        for s in split_sentences(u.text):
            if _heading(s):
                continue
            own = {lemma(w) for w in keywords(s)}
            score = len(want & (own | head)) + len((want - named) & own) + SITUATION_WEIGHT * min(3, len(case & (own | head)))
            score += bool(_CONDITION.search(s) or s.rstrip().endswith(":"))
            if len(want & (own | head)) >= 2 and (best is None or score > best[0]):
                best = (score, Standing(u, s))
    return best[1] if best is not None else None


_LEADS_LIST = re.compile(r"(?:all|any|one|both|either|each|some)\s+of\s+(?:the\s+following|these|them)\b", re.I)


def _echoes(clause: str, q: Question) -> bool:
    """Whether a condition says only what the question proper asks ("Can I claim online?" →
    "if you claimed online"): no case the answer holds in, so none is said."""
    said = _telling(clause)
    return bool(said) and said <= _telling(q.core or q.asked)


def rule_items(standing: Standing) -> list[str]:
    """The list items a rule's sentence leads ("To apply you must:"), else []."""
    if not standing.sentence.rstrip().endswith(":"):
        return []
    return [i for i in list_after(standing.sentence, standing.unit.text) if i]


def rule_condition(q: Question, units: list[Unit]) -> Condition | None:
    """The condition of the rule ``q`` asks about, in what was read (the module doc); None where
    the rule's sentence states none."""
    best = rule_sentence(q, units)
    if best is None:
        return None
    sentence = best.sentence
    negative = bool(_NEGATIVE.search(sentence))
    body = sentence.find(": ")  # "Compensation if you stay on the register: You can get …": a heading's "if" is its topic
    topic = body > 0 and not sentence.rstrip().endswith(":") and _heading(sentence[:body])
    m = _CONDITION.search(sentence, body + 2 if topic else 0)
    if m:
        lead = m["lead"].lower()
        unless = lead.startswith(("unless", "except"))
        clause = _clause(m["c"])
        listed = bool(_LEADS_LIST.match(clause))  # "if all of the following apply:": the list is the condition
        after = sentence[m.end() :].lstrip(" :") if listed else ""
        if after:  # the list's items joined into the sentence read ("… apply: you get certain benefits …")
            items = " ".join(after.split()[:MAX_LIST_WORDS]).rstrip(" .;")
            return Condition(items, grants=negative == unless, standing=best) if len(_telling(items)) >= 2 else None
        if not listed and len(clause.split()) >= 3 and len(_telling(clause)) >= 2 and not _echoes(clause, q):
            return Condition(clause, grants=negative == unless, standing=best)
    if sentence.rstrip().endswith(":"):
        items = rule_items(best)
        if items:
            joiner = " or " if re.search(r"\b(?:one|any|either) of\b", sentence, re.I) else " and "
            return Condition(joiner.join(items), grants=not negative, standing=best)
    return None


def _telling(text: str) -> set[str]:
    return {lemma(w) for w in subject_words(text) if w.lower() not in _OWN_WORDS}


_OWN_WORDS = frozenset("you your yours yourself i my me mine myself we our us".split())


def settled(condition: Condition, short: str, q: Question) -> bool:
    """Whether the user's situation already says the condition the answer holds under (the
    module doc): "Yes, if C" / "No, if C" where the situation says C, all of C's telling words
    (four in five, at least two) in one of the situation's sentences, negated there as C is. An "unless" is
    never settled: the situation saying its clause would turn the answer, not confirm it."""
    yes = short.lower() == "yes"
    if_word = condition.grants == yes  # "Yes, if …" or "No, if …"
    if not if_word or not q.situation:
        return False
    want = _telling(condition.clause)
    if len(want) < 2:
        return False
    negated = bool(_NEGATIVE.search(condition.clause))
    need = max(2, -(-len(want) * 4 // 5))  # four in five of them, at least two
    for said in q.situation:
        if len(want & _telling(said)) >= need and bool(_NEGATIVE.search(said)) == negated:
            return True
    return False


def with_condition(short: str, condition: Condition, n: int, q: Question | None = None) -> str:
    """The answer's text: "Yes, if …" / "No, unless …" (the module doc), citing passage ``n``;
    a plain "Yes" / "No" where the situation of ``q`` settles the condition (`settled`)."""
    yes = short.lower() == "yes"
    cite = f" [{n}]" if n else ""
    if q is not None and settled(condition, short, q):
        return f"{'Yes' if yes else 'No'}{cite}"
    word = ("if" if yes else "unless") if condition.grants else ("unless" if yes else "if")
    return f"{'Yes' if yes else 'No'}, {word} {condition.clause}{cite}"
