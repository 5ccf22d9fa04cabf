"""Yes only when each side holds (issue #56, item 2): a model's "yes" to "Are both A and B X?",
"Is A an X?" or "Do A and B …?" is kept only where the passages read show it for each side,
read side by side as compare.py reads a comparison's sides.

Each side the question names (its two options, or the names it is about: binding.py
`question_names`) gets the sentences read about it: every sentence of its own passage (titled
so) and the sentences of other passages that name it.

* A side nothing read is about: the documents do not say ("" below), whatever the model said.
* "Are both A and B X?" (comparison_question.py's ``both``): a side none of whose sentences holds
  the asked category's head noun ("genus" for "genera") is a no.
* Otherwise the model's yes stands: what else a side must hold is the model's reading.

A "no" is left as it is: a small model's yes is the answer it gives without evidence.
"""

from __future__ import annotations

import re

from ..text.normalize import normalize
from ..text.sentences import split_sentences
from ..types import Unit
from .binding import names_in, question_names
from .comparison_question import parse_comparison
from .relations import title_key
from .spelled import loosely_named

_IRREGULAR = {"genera": "genus", "species": "species", "people": "person", "women": "woman", "men": "man", "children": "child"}
_WORD = re.compile(r"[A-Za-z]+")


def _stem(word: str) -> str:
    w = _IRREGULAR.get(word.lower(), word.lower())
    for suffix in ("ies", "es", "s"):
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            w = w[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return w[:6]


def sentences_about(side: str, units: list[Unit]) -> list[str]:
    """Every sentence of ``side``'s own passage, and the sentences of other passages naming it
    (as the documents write it, or as the person did: binding.py `loosely_named`)."""
    key = normalize(side)
    out = []
    for u in units:
        own = bool(key) and title_key(u.title) == key
        for s in split_sentences(u.text):
            if own or names_in(side, s) or loosely_named(side, s):
                out.append(s)
    return out


def each_side(question: str, units: list[Unit], names: list[str] | None = None) -> tuple[str, str] | None:
    """(answer, why) for a yes to ``question`` read side by side (the module doc): "yes", "no",
    or "" when the documents do not say; None when the question names no side to read. ``names``:
    the names the question is about (question.py: not the user's own), else read from it."""
    q = parse_comparison(question)
    named = question_names(question) if names is None else list(names)
    sides = list(q.options) if q is not None and q.kind in ("both", "same", "common") else named[:2]
    if not sides:
        return None
    about = {side: sentences_about(side, units) for side in sides}
    unread = [s for s, found in about.items() if not found]
    if unread:
        return "", f"nothing read is about {' or '.join(unread)}"
    if q is not None and q.kind == "both" and q.attribute:
        words = _WORD.findall(q.attribute)
        head = _stem(words[-1]) if words else ""
        lacking = [s for s, found in about.items() if head and not any(head in {_stem(w) for w in _WORD.findall(x)} for x in found)]
        if lacking:
            return "no", f"nothing read says {' or '.join(lacking)} is {q.attribute}"
        return "yes", f"each of {' and '.join(sides)} is {q.attribute} by what was read"
    return "yes", ""
