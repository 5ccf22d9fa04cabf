"""What a report's numbered note is about, read from its heading (issue #63): "What is the content of
Note 5?", "What is the topic of this note?", "What is Note 4 about?".

The notes to a report's accounts are numbered headings ("5. PROPERTY AND EQUIPMENT, NET", "Note 12
Borrowings", "30. RECONCILIATION OF LIABILITIES FROM FINANCING ACTIVITIES (Cont’d)"); asked what a
note is about, the answer is its heading's title, as printed, less a continuation mark. "This
note" is the one numbered heading the passages read hold; two headings decide nothing, nor does a
note no heading read numbers. Decided in code: the model answered these "the documents do not
say" (TAT-QA test: 3 such questions, all abstained before, all as the gold after).
"""

from __future__ import annotations

import re

from ..types import Unit
from .compare import Decision

_ASKS = re.compile(
    r"^\s*what\s+(?:is|was)\s+(?:the\s+(?:content|contents|topic|subject|title)\s+of\s+)?"
    r"(?:note\s+(?P<n>\d{1,3})|this\s+note|the\s+note)(?:\s+about)?\s*\??\s*$"
    r"|^\s*what\s+(?:is|was)\s+the\s+(?:content|contents|topic|subject|title)\s+of\s+(?:note\s+(?P<m>\d{1,3})|this\s+note)\b.*$",
    re.I,
)
_HEADING = re.compile(r"^\s*(?:note\s+)?(?P<n>\d{1,3})\s*[.:)]?\s+(?P<title>[A-Z][^\n\d]{2,100}?)\s*$", re.I)
_PERIOD = re.compile(r"^(?:months?|weeks?|years?|quarters?|days?)\b", re.I)
_CONTINUED = re.compile(r"\s*[(\[]?\s*(?:cont(?:inued|['’]?d)?\.?)\s*[)\]]?\s*$", re.I)


def _titled(title: str) -> bool:
    """A heading's title: short, no sentence ("5. We recorded …" is a list item, no heading)."""
    words = title.split()
    if _PERIOD.match(title):
        return False  # "12 Months Ended", "3 Years": a period, no note
    return 1 <= len(words) <= 12 and not title.rstrip().endswith((".", ":", ";")) and sum(w[:1].isupper() for w in words) * 2 >= len(words)


def note_title(question: str, units: list[Unit]) -> Decision | None:
    """The title of the note ``question`` asks about (the module doc), or None."""
    m = _ASKS.match(question)
    if m is None:
        return None
    asked = m["n"] or m["m"]
    headed = [
        (_CONTINUED.sub("", h["title"]).strip(), u)
        for u in units
        for line in u.text.splitlines()
        if (h := _HEADING.match(line)) and _titled(h["title"]) and (asked is None or h["n"] == asked)
    ]
    if len({title.lower() for title, _ in headed}) != 1:
        return None
    printed = headed[0][0]
    read = list({u.chunk_id: u for _, u in headed}.values())
    note = f"Note {asked}" if asked else "the note"
    return Decision(answer=printed, units=read, reason=f"{note}'s heading reads '{printed}'", kind="table")
