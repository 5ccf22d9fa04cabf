"""Bridge questions one hop at a time: "Where was the director of film X born?" becomes "Where
was Max Mack born?" before the model reads.

A 0.5B model rarely does the second hop itself: on the first 50 2WikiMultihopQA dev questions
it answered 2 of 27 open questions right, though 14 had the answer in what it read
(docs/benchmarks.md, "Answers on an edge CPU"). When the question names the bridge as a
relation of a thing ("the director of film X", "X's husband") and the thing's passage names
that person ("… directed by Max Mack"), the hop is made in code (relations.py) and the model
gets the one-hop question, with the person's passage read first.

`resolve` finds the thing by title: the longest run of the question's words after "the
<relation> of" (or before "'s <relation>") that is the title of a retrieved passage, else of a
passage the ``lookup`` finds for it. It repeats while the rewritten question still holds such a
relation ("the father of the director of film X"), up to `MAX_HOPS`. Anything it cannot
resolve stays as asked, and the model reads as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..types import Unit
from .relations import RELATION_WORDS, find_passage, hop

MAX_HOPS = 2
MAX_NAME_WORDS = 10
"""Longest title tried for the thing a relation belongs to."""
_OF = re.compile(
    rf"\bthe ({RELATION_WORDS})s? of (?:the )?(?:(?:film|movie|song|album|single|book|novel|play|opera|poem|show|series|band|work)\s+)?",
    re.I,
)
_POSSESSIVE = re.compile(rf"['’]s ({RELATION_WORDS})\b", re.I)
_WORD = re.compile(r"\S+")
_TRIM = " ,.;:?!\"'“”"


@dataclass
class Hop:
    """A question rewritten hop by hop, and what each hop read."""

    question: str
    """The question the model is asked ("Where was Max Mack born?")."""
    units: list[Unit]
    """The passages the hops read, the last hop's first (the one the question is now about)."""
    steps: list[str]
    """One line per hop: "the director of A Day of Roses in August is Max Mack"."""

    @property
    def reason(self) -> str:
        return "; ".join(self.steps)


def _spans_after(question: str, start: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of up to `MAX_NAME_WORDS` words from ``start``, longest first."""
    words = [m.span() for m in _WORD.finditer(question, start)][:MAX_NAME_WORDS]
    return [(start, _trimmed_end(question, start, words[k - 1][1])) for k in range(len(words), 0, -1)]


def _spans_before(question: str, end: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of up to `MAX_NAME_WORDS` words ending at ``end``, longest first."""
    words = [m.span() for m in _WORD.finditer(question[:end])][-MAX_NAME_WORDS:]
    return [(words[-k][0], end) for k in range(len(words), 0, -1)]


def _trimmed_end(question: str, start: int, end: int) -> int:
    while end > start and question[end - 1] in _TRIM:
        end -= 1
    return end


def _thing(question: str, spans: list[tuple[int, int]], units: list[Unit], lookup) -> tuple[int, int, Unit] | None:
    """The longest span that is a passage's title: among the retrieved passages first, then
    through ``lookup``."""
    for pool_lookup in (None, lookup):
        for start, end in spans:
            name = question[start:end].strip(_TRIM)
            if name:
                found = find_passage(name, units, pool_lookup)
                if found is not None:
                    return start, end, found
        if lookup is None:
            break
    return None


def _matches(pattern: re.Pattern, text: str):
    """Every match of ``pattern``, overlapping ones too ("the father of the director of …")."""
    m = pattern.search(text)
    while m:
        yield m
        m = pattern.search(text, m.start() + 1)


def _phrasings(question: str):
    """(relation match, spans where its thing may stand, where the rewrite starts and ends) for
    every "the <relation> of X" (the span replaced: the phrase through X) and every "X's
    <relation>" (X through the relation)."""
    for m in _matches(_OF, question):
        yield m, _spans_after(question, m.end()), lambda start, end, m=m: (m.start(), end)
    for m in _POSSESSIVE.finditer(question):
        yield m, _spans_before(question, m.start()), lambda start, end, m=m: (start, m.end())


def _one_hop(question: str, units: list[Unit], lookup) -> tuple[str, list[Unit], str] | None:
    for m, spans, replaced in _phrasings(question):
        thing = _thing(question, spans, units, lookup)
        if thing is None:
            continue
        start, end, passage = thing
        relation = m.group(1).lower()
        person = hop(relation, passage, units, lookup)
        if person is not None:
            name, about = person
            cut_from, cut_to = replaced(start, end)
            step = f"the {relation} of {question[start:end]} is {name}"
            return question[:cut_from] + name + question[cut_to:], [about, passage], step
    return None


def resolve(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Hop | None:
    """The question with its relation hops made (see the module doc), or None when it names
    no relation that the passages resolve."""
    asked, read, steps = question, [], []
    for _ in range(MAX_HOPS):
        done = _one_hop(asked, units, lookup)
        if done is None:
            break
        asked, passages, step = done
        read = passages + read
        steps.append(step)
    if not steps:
        return None
    seen: dict[str, Unit] = {}
    for u in read:
        seen.setdefault(u.chunk_id, u)
    return Hop(question=asked, units=list(seen.values()), steps=steps)
