"""A reply that restates a sentence read in its own words (issue #62): a small model asked
"What happens if my case cannot be considered?" answers with the page's sentence, a few words
left out ("If your case cannot be considered, you may be sent to a safe country …" for "If your
case cannot be considered in the UK: You may be sent to a safe country …"). No sentence holds
it word for word, so `stands_on` (binding.py) finds none; it stands where one sentence holds
every content word it has (by their roots, binding.py `root`) and the same negations ("cannot"
left out says the opposite).

* `restated_in`: the sentences read that a reply of `MIN_WORDS` words or more restates.
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..text.sentences import split_sentences
from ..types import Unit
from .binding import Standing, roots

MIN_WORDS = 8
"""Words a reply needs to be read as a restated sentence; a shorter answer (a name, a figure)
stands only where it is written."""
_NEGATION = re.compile(r"\b(?:not|no|never|cannot|can't|won't|don't|doesn't|isn't|aren't|unless|except|only)\b|n't\b", re.I)


def restated_in(reply: str, units: list[Unit]) -> list[Standing]:
    """The sentences of ``units`` holding every content word of ``reply`` and no other negations than its own (the module doc)."""
    if len(reply.split()) < MIN_WORDS:
        return []
    want = roots(keywords(reply))
    said = {m.group().lower() for m in _NEGATION.finditer(reply)}
    if len(want) < MIN_WORDS // 2:
        return []
    out = []
    for u in units:
        for s in split_sentences(u.text):
            if want <= roots(keywords(s)) and said == {m.group().lower() for m in _NEGATION.finditer(s)}:
                out.append(Standing(u, s))
    return out
