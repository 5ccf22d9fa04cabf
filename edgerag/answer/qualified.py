"""A short answer with the qualifier the passage writes right after it (issue #62): the part of
the answer a small model drops.

* a body or office with where it is ("environmental health department" → "… at your local
  council"): "at" / "of" + "your" and up to three words, as the passage continues it;
* a thing with the body that does or gives it ("initial training" → "… by HM Coastguard"): "by"
  and a capitalised name, for an answer that is no number;
* a name with the body of it that the passage names ("Insolvency Service" → "… Insolvency
  Service’s Redundancy Payments Service (RPS)"): "’s" and a capitalised name, with its
  acronym, for a name asked "Who …?";
* a time asked by "When …?" / "How often …?" with the other times the passage joins to it ("every
  year" → "every year and whenever there are significant changes …"): "and" / "or" + "whenever",
  "when", "each time", "every time", "if" or "after", to the clause's end.

* an amount with the bound the passage puts before it and the unit after it ("30 days" →
  "within 30 days", "$584 million" → "up to $584 million", "70" → "approximately 70 basis
  points"; issue #63): a bound changes what the number says.

Only where every passage read that holds the answer continues it the same way; the answer's own
words are kept and the continuation is the passage's, so the check still finds it written.
"""

from __future__ import annotations

import re

_WHERE = re.compile(
    r"\s+(?:at|of)\s+your\s+(?:[a-z’'-]+\s+){0,2}[a-z’'-]+(?=\s+(?:for|to|and|or|if|who|which|that|when|about|before|after)\b|\s*[.,;:)]|\s*$)",
    re.I,
)
_BY_NAME = re.compile(r"\s+by\s+(?:[A-Z][\w’'-]*)(?:\s+[A-Z][\w’'-]*){0,3}(?![\w’'-])")
_POSSESSED = re.compile(r"[’']s\s+(?:[A-Z][\w’'-]*)(?:\s+(?:of\s+)?[A-Z][\w’'-]*){0,4}(?:\s+\([A-Z]{2,6}\))?(?![\w’'-])")
_WHO_ASKED = re.compile(r"^\s*(?:who|whom)\b", re.I)
_WHEN_ASKED = re.compile(r"^\s*(?:when|how\s+often)\b", re.I)
_BOUNDS = (
    r"(?:within|up\s+to|at\s+least|at\s+most|approximately|about|around|(?:(?:no|not)\s+)?(?:more|less|fewer|later)\s+than|nearly|almost)"
)
"""A bound before an amount, whole with its negation ("no less than 28 days" is not "less than 28 days")."""
_BOUND = re.compile(rf"\b{_BOUNDS}\s+$", re.I)
_SAYS_BOUND = re.compile(rf"\b{_BOUNDS}\b", re.I)
_POINTS = re.compile(r"\s+(?:basis\s+points|percentage\s+points)\b", re.I)
_JOINED_TIME = re.compile(r"\s+(?:and|or)\s+(?:whenever|when|each\s+time|every\s+time|if|after)\b[^.;:\n]*", re.I)


def qualified(short: str, question: str, passages: list[str]) -> str:
    """``short`` with its passage's qualifier (the module doc), else as it is."""
    words = short.split()
    if not words or len(words) > 6:
        return short
    follows = (
        [_WHERE]
        + ([_BY_NAME] if short[:1].isalpha() else [])
        + ([_POSSESSED] if short[:1].isupper() and _WHO_ASKED.match(question) else [])
        + ([_JOINED_TIME] if _WHEN_ASKED.match(question) else [])
    )
    at = re.compile(rf"(?<![\w'’-]){re.escape(short.strip())}(?![\w-]|['’](?!s\b))", re.I)  # a possessive's "’s" may follow
    amount = bool(re.match(r"[$€£]?\d", short.strip())) and not _SAYS_BOUND.search(question)  # "… within 30 days?": the question's bound
    if amount and re.fullmatch(r"\d[\d,.]*", short.strip()):
        follows = [*follows, _POINTS]
    tails: set[str] = set()
    heads: set[str] = set()
    for text in passages:
        for m in at.finditer(text):
            rest = text[m.end() :]
            tail = next((t.group() for f in follows if (t := f.match(rest))), "")
            tails.add(" ".join(tail.split()))
            bound = _BOUND.search(text[max(0, m.start() - 30) : m.start()]) if amount else None
            heads.add(" ".join(bound.group().split()) if bound else "")
    if len(heads) == 1 and (head := heads.pop()):
        short = f"{head} {short.strip()}"
    if len(tails) != 1:
        return short
    tail = tails.pop()
    if tail[:1] in "’'":
        return f"{short.strip()}{tail}"  # a possessive joins the name
    return f"{short.strip()} {tail}".rstrip(" ,") if tail else short
