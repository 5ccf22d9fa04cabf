"""The text normaliser answers are compared with, SQuAD's: the reader (answer/) matches a short
answer against passages and titles with it, and the metrics (eval/metrics.py) score answers with
it, so both import it from here, downward.
"""

from __future__ import annotations

import re
import string

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def normalize(text: str) -> str:
    """Lower-case, drop punctuation and the articles a/an/the, squeeze whitespace (SQuAD)."""
    text = text.lower().translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())
