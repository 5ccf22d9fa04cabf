"""Whether a person was at a meeting, decided in code from the minutes' attendance lines (issue
#56, items 2 and 4: yes only where the evidence shows it, bound to its subject).

Minutes say who came and who did not as labelled lists: "Present: …", "In attendance: …",
"Attendees: …", and "Apologies: …", "Absent: …", "Apologies for absence: …". A small model asked
"Was Prof. Catherine Doyle present at the Board meeting?" answers yes from any sentence naming
her ("Prof. Catherine Doyle joined the Board in March"), and the sentence that decides it is a
list whose label is the answer. So `attended` reads the labelled lists of the passages read:

* the question asks, of a person it names, whether they were present, attended, or were absent
  or sent apologies ("Was X present at …?", "Did X attend …?", "Was X absent from …?");
* a list naming that person under a label of presence is a yes to "present" (a no to
  "absent"), under a label of absence the reverse;
* every list naming the person gives the same verdict; lists that disagree (two meetings' minutes
  read) decide nothing, and the model reads as before.
"""

from __future__ import annotations

import re

from ..text.sentences import split_sentences
from ..types import Unit
from .binding import names_in, question_names
from .compare import Decision

_PRESENT = ("present", "in attendance", "attendees", "attending", "also present", "members present")
_ABSENT = ("apologies for absence", "apologies", "absent", "absentees", "not present", "regrets")
_LABELS = "|".join(re.escape(w) for w in sorted(_PRESENT + _ABSENT, key=len, reverse=True))
_LABEL = re.compile(rf"(?<![\w-])(?P<label>{_LABELS})\W{{0,3}}:", re.I)
"""A list's label and its colon, markup around it allowed ("**Present:**")."""
_ASKS = re.compile(r"^\s*(?:was|were|did|has|had)\b.*\b(?P<what>present|attend\w*|absent|apologies)\b", re.I)
_MEETING = re.compile(r"\b(?:meeting|board|committee|council|session|hearing|assembly|call|panel|review|minutes)s?\b", re.I)
"""What "attend" must be said of to ask about a meeting ("Did X attend the University of Leeds?" does not)."""


def _lists(sentence: str) -> list[tuple[bool, str]]:
    """(presence, the names after the label) for each labelled list of ``sentence``."""
    found = list(_LABEL.finditer(sentence))
    out = []
    for n, m in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(sentence)
        out.append((m["label"].lower() in _PRESENT, sentence[m.end() : end]))
    return out


def attended(question: str, units: list[Unit]) -> Decision | None:
    """ "yes" or "no" to whether the person ``question`` names was present (the module doc), with
    the passages whose lists say so; None where no list read names them, or lists disagree."""
    asks = _ASKS.match(question)
    if asks is None or (asks["what"].lower().startswith("attend") and not _MEETING.search(question)):
        return None
    absent_asked = asks["what"].lower() in ("absent", "apologies")
    people = [n for n in question_names(question) if len(n.split()) >= 2]  # a person's name, not "Board" or "March"
    verdicts: dict[bool, list[tuple[Unit, str]]] = {True: [], False: []}
    for u in units:
        for s in split_sentences(u.text):
            for present, names in _lists(s):
                if any(names_in(p, names, surname=False) for p in people):
                    verdicts[present].append((u, s))
    if bool(verdicts[True]) == bool(verdicts[False]):
        return None  # no list names them, or lists disagree
    present = bool(verdicts[True])
    sentence = verdicts[present][0][1]
    answer = "no" if present == absent_asked else "yes"
    read = list({u.chunk_id: u for u, _ in verdicts[present]}.values())
    return Decision(answer=answer, units=read, reason=f"the minutes' list says: {sentence.strip()[:160]}", kind="attendance")
