"""The anchor of a chain question's step (steps.py): the name a phrase hangs on, found in the
question's text by what follows or precedes it.

* `anchor_after`: after "the <noun> of": a quoted title, an earlier step's answer, a passage's
  title (the longest first, among the passages read, then one lookup), or a capitalised run
  that shows itself a name ("the IT policy": an acronym, and the class noun after it), up to
  three descriptive words in front ("the romantic comedy "Big Stone Gap"");
* `anchor_before`: before "'s": an earlier step's answer, a passage's title, or the capitalised
  run (not one word after "the": "the Institute's accounts").
"""

from __future__ import annotations

import re

from ..text.linkkeys import capitalised_runs
from ..types import Unit
from .relations import find_passage

_QUOTED = re.compile(r"^[\"“]([^\"”]{2,80})[\"”]")
_WORD = re.compile(r"\S+")
TRIM = " ,.;:?!\"'“”"
FUNCTION_WORDS = frozenset(
    "a an the and or but of in on at to for from by with as into about is was are were be been has have had do does did "
    "can could will would who whom whose which what when where how that this".split()
)
MAX_ANCHOR_WORDS = 10
MAX_DESCRIPTION_WORDS = 3


_ACRONYM_START = re.compile(r"[A-Z]{2,6}(?![\w'’-])")


def anchor_after(question: str, at: int, units: list[Unit], lookup, known: list[str]) -> tuple[int, int] | None:
    """(start, end) of the anchor that starts at ``at``, or a few descriptive words after it: a
    quoted title, a passage's title (longest first), an earlier answer, or a capitalised run."""
    words = [m.span() for m in _WORD.finditer(question, at)]
    for skip in range(min(MAX_DESCRIPTION_WORDS, max(len(words) - 1, 0)) + 1):
        start = words[skip][0]
        if skip and question[words[skip - 1][0]].isupper():
            break  # the descriptive words are lowercase ("the romantic comedy …")
        rest = question[start:]
        q = _QUOTED.match(rest)
        if q:
            return start, start + q.end()
        for k in known:
            if rest.lower().startswith(k.lower()) and k:
                return start, start + len(k)
        tail = words[skip : skip + MAX_ANCHOR_WORDS]
        if rest[:1].isupper():
            found = _titled_span(question, start, [w[1] for w in tail], units, lookup)
            if found is not None:
                return start, found
        if rest[:1].isupper() and not any(question[w[0] : w[1]].lower() in ("a", "an") for w in words[:skip]):
            runs = capitalised_runs(rest) or [m.group() for m in [_ACRONYM_START.match(rest)] if m]  # "IT" is no pronoun here
            if runs and rest.startswith(runs[0]) and _ends_a_name(rest[len(runs[0]) :]):
                return start, start + len(runs[0])
            kind = _CLASS_NOUN.match(rest[len(runs[0]) :]) if runs and rest.startswith(runs[0]) else None
            if kind:  # "the Drinking Water Nitrate Trends project", "the IT policy": a name and the class it names
                return start, start + len(runs[0]) + kind.end()
    return None


def _titled_span(question: str, start: int, ends: list[int], units: list[Unit], lookup) -> int | None:
    """The end of the longest span from ``start`` (to one of ``ends``) that is a passage's
    title: among ``units``, then among the passages ``lookup`` finds for the longest span (one
    lookup, not one per span)."""
    spans = []
    for end in reversed(ends):
        while end > start and question[end - 1] in TRIM:
            end -= 1
        name = question[start:end]
        if name and (name.split()[-1][:1].isupper() or name[-1].isdigit() or name[-1] == ")"):
            spans.append((end, name))
    if not spans:
        return None
    pools = [units]
    if lookup is not None:
        pools.append(lookup(spans[0][1]))
    for pool in pools:
        for end, name in spans:
            if find_passage(name, pool, None) is not None:
                return end
    return None


_CLASS_NOUN = re.compile(
    r"\s+(?:project|programme|program|policy|department|station|committee|team|unit|manual|report|laboratory|lab|office|"
    r"company|school|university|college|trust|fund|river|lake|band|album|film|song|book|series|festival|prize|award)\b"
)
"""A common noun after a name that says what the name is ("the Tarn Carbon *project*"): part of the anchor."""


def _ends_a_name(after: str) -> bool:
    """True when what follows a capitalised run shows the run is a name, not an adjective
    ("Brand | a citizen", "Brother | were formed"; not "American | shipbuilding")."""
    nxt = after.strip(" ,").split()
    return not nxt or not nxt[0][:1].isalpha() or nxt[0][:1].isupper() or nxt[0].lower().strip(TRIM) in FUNCTION_WORDS


def anchor_before(question: str, end: int, units: list[Unit], lookup, known: list[str]) -> tuple[int, int] | None:
    """(start, end) of the anchor that ends at ``end`` (before "'s"): an earlier answer, a
    passage's title, or the capitalised run (not one word after "the": "the Institute's")."""
    before = question[:end]
    for k in known:
        if k and before.lower().endswith(k.lower()):
            return end - len(k), end
    words = [m.span() for m in _WORD.finditer(before)][-MAX_ANCHOR_WORDS:]
    pools = [units] + ([lookup(question[words[0][0] : end])] if lookup is not None and words else [])
    for pool in pools:
        for n in range(len(words), 0, -1):
            start = words[-n][0]
            name = question[start:end].strip(TRIM)
            if name[:1].isupper() and find_passage(name, pool, None):
                return start, end
    start = end
    for s, _ in reversed(words):
        if not question[s].isupper() and question[s:end].split()[0].lower() not in ("of", "de", "the", "and", "&"):
            break
        start = s
    while start < end and question[start:end].split()[0].lower() in ("of", "de", "the", "and", "&"):
        start += len(question[start:end].split()[0]) + 1
    if len(question[start:end].split()) == 1 and re.search(r"\bthe\s+$", question[:start], re.I):
        return None  # "the Institute's accounts", "the Director's own travel": a common noun capitalised, no passage of its own
    return (start, end) if start < end and question[start].isupper() else None
