"""Keyword tokens: the words of a text minus English stop words (KET-RAG §5.1).

KET-RAG builds its text–keyword bipartite graph and the lexical side of its KNN graph from
these; G2ConS uses the same words as concepts. Stop words are scikit-learn's English list
(318 words, kept in stop_words.txt beside this module: importing scikit-learn for it cost 1.2 s
at the start of every query), plus tokens that carry no meaning on their own (single
characters) and runs too long to be words.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
MAX_KEYWORD_CHARS = 40
"""Longer runs are not words (a run of Chinese or Japanese, written without spaces, is a
whole clause): they are left out rather than made into one-passage keywords."""


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    text = (Path(__file__).parent / "stop_words.txt").read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def keywords(text: str) -> list[str]:
    """Lower-cased keyword tokens of ``text`` in order, repeats kept."""
    stops = stop_words()
    out = []
    for m in _WORD.finditer(text.lower()):
        w = m.group().replace("’", "'")
        if w.endswith("'s"):
            w = w[:-2]
        if 1 < len(w) <= MAX_KEYWORD_CHARS and w not in stops:
            out.append(w)
    return out


def keyword_set(text: str) -> list[str]:
    """Distinct keywords of ``text``, in first-seen order."""
    return list(dict.fromkeys(keywords(text)))
