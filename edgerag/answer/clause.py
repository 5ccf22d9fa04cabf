"""A question that asks for a description, answered by the documents' whole clause (issue #63).

"What does sales related reserves represent?", "What is included in tax fees?", "What led to the
increase in cable revenue?", "How are inventories stated?": the answer is a clause of a sentence,
not a name, date or number. A small model copies the clause's start ("price concessions and
stock rotation rights") and the reply rules made for names cut it further ("Internet" of
"Increase in Internet revenue from …"). Here such a reply is neither narrowed nor re-chosen,
and a reply a sentence read holds word for word runs on to that sentence's end, as the
documents say it ("… rights that the Company offers to many of its distributors").

A reply that opens by saying the question back ("The decrease in amortization of purchased
intangible assets was due largely to …" for "Why did amortization of purchased intangible assets
decrease?") keeps what it says after it (`past_restatement`: "due largely to …").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.sentences import split_sentences
from ..text.tables import _stem
from ..types import Unit

_CLAUSE = re.compile(
    r"^\s*(?:what\s+(?:does|do|did)\s+.+?\s+(?:represent|include|consist\s+of|depend\s+on|mean|comprise|cover)\b"
    r"|what\s+(?:is|are|was|were)\s+(?:included|comprised)\s+in\b|what\s+constitutes?\b"
    r"|what\s+(?:caused|led\s+to|drove|resulted\s+in)\b|why\b"
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
            if at >= 0:
                return flat[at:].strip().rstrip(".").strip()
    return reply


_LINKING = frozenset(
    "the a an its their our this that these those of in on for to by at from and is are was were be been has have had do does did".split()
)
"""Words a restatement of the question carries between the question's own words."""
_AUXILIARY = frozenset("is are was were be been has have had do does did".split())
_TOKEN = re.compile(r"[\w’'-]+")


def _bare(word: str) -> str:
    return word.lower().removesuffix("’s").removesuffix("'s")


def past_restatement(reply: str, question: str) -> str:
    """``reply`` after its opening restatement of ``question`` (the module doc): the longest
    opening run of the question's own words (two at least), with linking words and adverbs
    between them, cut off with the linking words after it; ``reply`` itself when it opens with
    no such run or nothing of two words would be left."""
    asked = {_stem(_bare(w)) for w in _TOKEN.findall(question)}
    end, own, said = 0, 0, set()
    for m in _TOKEN.finditer(reply):
        w = _bare(m.group())
        if _stem(w) in asked and w not in _LINKING and _stem(w) not in said:  # each once: "Tax fees include *fees* billed …"
            end, own = m.end(), own + 1
            said.add(_stem(w))
        elif w not in _LINKING and not w.endswith("ly"):
            break
        if reply[m.end() : m.end() + 1] in (",", ";", ":", "."):
            break  # a clause's end: what follows is the reply's own
    if own < 2:
        return reply
    rest = reply[end:].lstrip(" ,:;")
    while (first := _TOKEN.match(rest)) and first.group().lower() in _AUXILIARY:
        rest = rest[first.end() :].lstrip()
    return rest if len(rest.split()) >= 2 else reply
