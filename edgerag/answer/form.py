"""The form a question proper asks in, beyond its first word (issue #62, "answers of the wrong
form"): people ask a thing in the shape of a yes/no, and a yes or no is then the wrong answer.
question.py reads these once, into the typed `Question` (``read_as``, ``kind``, ``options``):

* `alternatives`: a question that offers alternatives is answered by one of them, never a bare
  yes or no. Two shapes:

  - **clauses**: the second alternative is a question of its own ("Will I need a new BRP, or
    can I simply update the address online?", "Will the money go to my school or will it be
    given to me?"): its answer is what the documents say, in their words (no options);
  - **phrases**: the alternatives are short phrases at the question's end led alike ("Will I
    be paid as one lump sum or in instalments?", "… either at the point of sale or on
    delivery?", "Is it paid weekly or monthly?"): the two phrases are its options.

  "Do I need a permit or a licence to own it?" (an article's noun, more words after it) asks
  whether either is needed: it stays a yes/no.
* `if_so`: "Can I challenge my results and if so how?" asks the how: read as "How can I
  challenge my results?".
* `anything`: "Is there anything else that I need to include?" asks for the things: read as
  "What else do I need to include?".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.normalize import normalize

AUX = r"(?:am|is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|must|may|might)"
PRONOUN = r"(?:i|we|you|he|she|they|it|my|our|your|his|her|their|the|this|that|there)"
_CLAUSE_OR = re.compile(rf",?\s+or\s+(?:else\s+)?(?P<b>{AUX}\s+{PRONOUN}\b.*)$", re.I)
"""", or can I …?", " or will it …?": the second alternative is a question itself."""
_PREPOSITIONS = "as|in|on|by|at|via|through|from|for|with|into|to|over|under|within|after|before"
_PREPOSITION = rf"(?:{_PREPOSITIONS})"
_EITHER_OR = re.compile(r"\beither\s+(?P<a>[^,?]+?)\s+or\s+(?P<b>[^,?]+?)\s*\??\s*$", re.I)
_PHRASE_OR = re.compile(r"(?:^|,)\s*(?P<a>[^,?]+?)\s+or\s+(?P<b>[^,?]+?)\s*\??\s*$", re.I)
_YES_NO_END = frozenset("not no otherwise else something anything both neither none".split())
"""'… or not?' asks yes or no."""
_LED = re.compile(rf"^(?P<lead>{_PREPOSITION})\s+(?P<rest>.+)$", re.I)
_DETERMINER = re.compile(rf"(?:a|an|the|some|any|my|our|your|his|her|their|its|this|that|these|those|{_PREPOSITIONS})", re.I)
"""A word before a noun: "for a son or daughter" offers either of two (yes or no), "paid weekly or monthly" which."""
MAX_OPTION_WORDS = 5


@dataclass(frozen=True)
class Alternatives:
    """What a question proper offers (`alternatives`)."""

    options: tuple[str, str]
    """The two alternatives as phrases ("one lump sum", "instalments"; "need a new residence
    card", "update my address online")."""
    clauses: bool = False
    """Each alternative a question of its own: the answer is read in the documents' words, and
    the options serve only where the model answers yes or no (`affirmed`)."""


_OPENING = re.compile(rf"^\s*{AUX}\s+(?:(?:i|we|you|it|they|he|she)\s+)?(?:(?:simply|just|still|also|then)\s+)?", re.I)


def _clause_alternatives(asked: str) -> tuple[str, str] | None:
    body = asked.rstrip(" ?")
    m = _CLAUSE_OR.search(body)
    if m is None or re.match(rf"^\s*{AUX}\b", body, re.I) is None:
        return None
    a, b = _OPENING.sub("", body[: m.start()]).strip(" ,"), _OPENING.sub("", m["b"]).strip(" ,")
    return (a, b) if a and b else None


def _phrase(words: str) -> str:
    m = _LED.match(words.strip())
    return (m["rest"] if m else words).strip(" ,.?")


def _phrase_alternatives(asked: str) -> tuple[str, str] | None:
    """The two phrases a yes/no-shaped question ends by offering (the module doc), else None."""
    body = " ".join(asked.split()).rstrip(" ?")
    if not re.match(rf"^\s*{AUX}\b", body, re.I):
        return None
    m = _EITHER_OR.search(body) or _PHRASE_OR.search(body)
    if m is None or m["b"].strip().lower() in _YES_NO_END:
        return None
    b = m["b"].strip()
    if m.re is _EITHER_OR:
        a = m["a"].strip()
    else:
        left = m["a"].split()
        led_b = _LED.match(b)
        if led_b:  # "as one-off payment or on instalments": A runs from the left's last preposition
            at = max((i for i, w in enumerate(left) if re.fullmatch(_PREPOSITION, w, re.I)), default=None)
            if at is None:  # "apply online or by post": as many words as B's phrase
                at = len(left) - len(led_b["rest"].split())
            if at <= 1 or len(left) - at - 1 > MAX_OPTION_WORDS:
                return None
            a = " ".join(left[at:])
        elif len(b.split()) == 1 and len(left) > 1 and not _DETERMINER.fullmatch(left[-2]):  # "paid weekly or monthly": one word each
            a = left[-1]  # not "for a son or daughter", "tell my employer or HMRC": either of two, yes or no
        else:
            return None  # "a permit or a licence to own it": asks whether either is needed
    a, b = _phrase(a), _phrase(b)
    if not a or not b or max(len(a.split()), len(b.split())) > MAX_OPTION_WORDS or a.lower() == b.lower():
        return None
    return a, b


def alternatives(asked: str) -> Alternatives | None:
    """The alternatives a question proper offers (the module doc), None where it offers none."""
    if clauses := _clause_alternatives(asked):
        return Alternatives(clauses, clauses=True)
    phrases = _phrase_alternatives(asked)
    return Alternatives(phrases) if phrases else None


_YES_NO_OPEN = re.compile(r"^\s*(?:yes|no)\b", re.I)


def affirmed(reply: str, offered: Alternatives) -> str | None:
    """The alternative a yes/no-shaped reply to a question of alternatives names ("Yes, you can
    simply update your address online" → "update your address online"); "" where the reply is a
    yes or no naming neither (read again between them); None where it opens with no yes or no."""
    if not _YES_NO_OPEN.match(reply):
        return None
    key = f" {normalize(reply)} "
    named = [o for o in offered.options if normalize(o) and f" {normalize(o)} " in key]
    return named[0] if len(named) == 1 else ""


_IF_SO = re.compile(
    r"^(?P<yn>.+?)[\s,;]+(?:and\s+|but\s+)?(?:if\s+so|if\s+yes|if\s+(?:i|we)\s+can|if\s+that\s+is\s+the\s+case)[\s,]+"
    r"(?P<wh>(?:how|what|when|where|which|who|why)\b.*?)\s*\??\s*$",
    re.I,
)
_BARE_WH = re.compile(
    r"^(?:how(?:\s+(?:much|many|long|soon|often))?|what|when|where|which|who|why)(?:\s+(?:do|can|should|would|could|will)\s+(?:i|we)"
    r"\s+do\s+(?:it|this|that|so))?$",
    re.I,
)


def if_so(asked: str) -> str | None:
    """ "Can I challenge my results and if so how?" → "How can I challenge my results?": the
    yes/no part asked in the wh-word the question ends on; "…, and if so, how much will I get?"
    → "How much will I get?" (a wh-question of its own). None for any other question."""
    m = _IF_SO.match(" ".join(asked.split()))
    if m is None or not re.match(rf"^\s*{AUX}\b", m["yn"], re.I):
        return None
    wh = m["wh"].strip(" ,")
    if _BARE_WH.match(wh):
        head = re.match(r"^\S+(?:\s+(?:much|many|long|soon|often))?", wh, re.I).group()
        yn = m["yn"].strip(" ,")
        return f"{head[:1].upper()}{head[1:].lower()} {yn[:1].lower()}{yn[1:]}?"
    return f"{wh[:1].upper()}{wh[1:]}?"


_ANYTHING = re.compile(
    r"^(?:is|are)\s+there\s+(?:anything|something|any\s+other\s+things?|other\s+things?)(?P<else>\s+else)?"
    r"(?:\s+(?:that|which))?(?P<rest>\s+.+?)?\s*\??\s*$",
    re.I,
)
_SUBJECT_AUX = re.compile(
    r"^(?P<s>i|we|you|they)\s+(?P<aux>can|could|should|must|will|would|may|might|shall|need to|have to|ought to)\b(?P<rest>.*)$", re.I
)
_SUBJECT = re.compile(r"^(?P<s>i|we|you|they)\s+(?P<rest>.+)$", re.I)


def anything(asked: str) -> str | None:
    """ "Is there anything else that I need to include?" → "What else do I need to include?";
    "Is there anything that stops me from claiming?" → "What stops me from claiming?". None for
    any other question."""
    m = _ANYTHING.match(" ".join(asked.split()))
    if m is None:
        return None
    what = "What else" if m["else"] else "What"
    rest = (m["rest"] or "").strip()
    if not rest:
        return f"{what} is there?"
    if s := _SUBJECT_AUX.match(rest):
        aux = s["aux"].lower()
        if aux in ("need to", "have to", "ought to"):
            return f"{what} do {_pronoun(s['s'])} {aux}{s['rest']}?"
        return f"{what} {aux} {_pronoun(s['s'])}{s['rest']}?"
    if s := _SUBJECT.match(rest):
        return f"{what} do {_pronoun(s['s'])} {s['rest']}?"
    return f"{what} {rest}?"


def _pronoun(word: str) -> str:
    return "I" if word.lower() == "i" else word.lower()
