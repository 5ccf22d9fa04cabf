"""One relation, one answer: facts of a titled thing decided in code before any read (issue #56,
item 6).

* **The relation asked itself.** "Who was the father of Charles Mathew?" names one relation of a
  titled passage: its hop (hops.py) *is* the answer, "Sir James Charles Mathew", never a second
  question ("Who was James Charles Mathew?") read over him.
* **A lifespan.** "When was X born?", "When did X die?", "In what year did X die?", "What is X's
  date of birth?": read from X's own passage (the one titled X, found as hops.py finds a thing)
  by text/dates.py `person_dates` ("(10 July 1830 – 9 November 1908)"), never from another
  passage that names a year near X.

Both return a compare.py `Decision` (the answer, the passage it stands on, why), so the plan
reads them as it reads a comparison decided in code: no model call, the passage cited.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.dates import person_dates
from ..types import Unit
from .compare import Decision
from .hops import resolve
from .relations import find_passage

_HONORIFIC = re.compile(r"^(?:sir|dame|lord|lady|dr\.?|prof\.?|professor|mr\.?|mrs\.?|ms\.?)\s+", re.I)
_WHO_IS = re.compile(r"^\s*(?:who|whom)\s+(?:is|was|were|are)\s+(?P<name>.+?)\s*\??\s*$", re.I)
_BORN = re.compile(
    r"^\s*(?:when|(?:in |on )?(?:what|which) (?P<y1>year|date|day))\s+(?:was|is)\s+(?P<name>.+?)\s+born\s*\??\s*$|"
    r"^\s*(?:what|which) (?:is|was) (?:the )?(?P<y2>year|date) of (?:the )?birth of (?P<name2>.+?)\s*\??\s*$|"
    r"^\s*(?:what|which) (?:is|was) (?P<name3>.+?)['’]s? (?:(?P<y3>year|date) of birth|birth ?(?P<y4>year|date)|birthday)\s*\??\s*$",
    re.I,
)
_DIED = re.compile(
    r"^\s*(?:when|(?:in |on )?(?:what|which) (?P<y1>year|date|day))\s+(?:did|does)\s+(?P<name>.+?)\s+(?:die|pass away)\s*\??\s*$|"
    r"^\s*(?:what|which) (?:is|was) (?:the )?(?P<y2>year|date) of (?:the )?death of (?P<name2>.+?)\s*\??\s*$|"
    r"^\s*(?:what|which) (?:is|was) (?P<name3>.+?)['’]s? (?:(?P<y3>year|date) of death|death ?(?P<y4>year|date))\s*\??\s*$",
    re.I,
)


def _named(m: re.Match) -> tuple[str, bool]:
    """(the name asked about, whether a year alone is asked)."""
    name = next(m.group(g) for g in ("name", "name2", "name3") if m.group(g))
    year = any((m.group(g) or "").lower() == "year" for g in ("y1", "y2", "y3", "y4"))
    return name.strip(" ,"), year


def lifespan_fact(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | None:
    """A birth or death date read from the person's own passage (the module doc); None when the
    question asks no such date, no passage is titled with the name, or its opening gives none."""
    for pattern, which in ((_BORN, 0), (_DIED, 1)):
        m = pattern.match(question)
        if m is None:
            continue
        name, year = _named(m)
        bare = _HONORIFIC.sub("", name)
        passage = find_passage(name, units, lookup) or (find_passage(bare, units, lookup) if bare != name else None)
        if passage is None:
            return None
        when = person_dates(passage.text)[which]
        if when is None:
            return None
        answer = str(when.year) if year or not when.text else when.text
        event = ("born", "died")[which]
        return Decision(
            answer=answer, units=[passage], reason=f"{name} {event} {when.text or when.year}, by their own passage", kind="lifespan"
        )
    return None


def relation_fact(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | None:
    """The person a relation names, when the question asks for that person alone ("Who was the
    father of X?", "Who is X's wife?"): the relation's hop in code (hops.py) is the answer."""
    hop = resolve(question, units, lookup)
    if hop is None:
        return None
    m = _WHO_IS.match(hop.question)
    if m is None:
        return None
    return Decision(answer=m.group("name").strip(), units=hop.units, reason=hop.reason, kind="relation")


def decide_fact(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | None:
    """The fact decided in code (the module doc), or None."""
    return lifespan_fact(question, units, lookup) or relation_fact(question, units, lookup)
