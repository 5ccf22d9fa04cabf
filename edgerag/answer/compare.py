"""Comparisons of dates, decided in code: "Who was born first, A or B?".

A 0.5B model reads both dates and still picks an option at chance: on the first 50
2WikiMultihopQA dev questions it answered 12 of 23 comparisons right, and no better with the
gold passages in front of it (docs/benchmarks.md, "Answers on an edge CPU"). Comparing two
dates is not a language task, so the reader does it in code when it can and leaves the
question to the model when it cannot:

1. **Parse** (`parse_comparison`): the two options (`candidates.options`, "…, A or B?"), the
   date compared (a person's birth or death, or the thing's own date: released, founded,
   published…), which end wins (earlier or later: "first", "older", "died later", "more
   recently"), and an optional **relation** hop ("Which film has the *director* who died
   earlier, A or B?": the director of each film, then that person's death).
2. **Find** each option's passage: the retrieved passage whose title is the option, else the
   best passage the ``lookup`` callable returns for the option's name with that title.
3. **Hop** (relations only): the name that follows "directed by", "composed by", … in the
   option's passage, then that person's passage, found the same way.
4. **Read the date** (`person_dates`, `thing_date`): the lifespan in the parentheses after a
   person's name ("(26 April 1897 – 14 January 1987)", "(born 22 February 1947)"), or
   "born/died … DATE"; a thing's date after "released / founded / started … in", else the first
   date of its opening ("… is a 1943 American comedy film").
5. **Decide**: the option whose date wins, when both dates are known and differ at the
   precision both have; otherwise None, and the model answers as before.

Every step names the passage it read, so the answer cites them and says how it was decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..types import Unit
from .candidates import MONTHS, options
from .relations import RELATION_WORDS, find_passage, hop

_MONTH_NUMBER = {m.lower()[:3]: i for i, m in enumerate(MONTHS.split("|")[:12], 1)}
_DATE = re.compile(
    rf"\b(?:(?P<d1>\d{{1,2}}) (?P<m1>{MONTHS})\.?,? (?P<y1>\d{{3,4}})"
    rf"|(?P<m2>{MONTHS})\.? (?:(?P<d2>\d{{1,2}}),? )?(?P<y2>\d{{3,4}})"
    r"|(?P<y3>1\d{3}|20\d{2}|[1-9]\d{2})(?![\d,]))\b"
)
"""A date at its written precision: "26 April 1897", "April 26, 1897", "April 1897", "1897"."""


@dataclass(frozen=True, order=True)
class When:
    """A date as precise as the text says: month and day 0 when not given."""

    year: int
    month: int = 0
    day: int = 0
    text: str = field(default="", compare=False)

    def before(self, other: When) -> bool | None:
        """True / False when the two differ at the precision both have; None when they do not."""
        a, b = [self.year], [other.year]
        if self.month and other.month:
            a.append(self.month)
            b.append(other.month)
            if self.day and other.day:
                a.append(self.day)
                b.append(other.day)
        return None if a == b else a < b


def dates(text: str) -> list[When]:
    """Every date in ``text``, in order."""
    out = []
    for m in _DATE.finditer(text):
        g = m.groupdict()
        year = int(g["y1"] or g["y2"] or g["y3"])
        month = _MONTH_NUMBER.get((g["m1"] or g["m2"] or "").lower()[:3], 0)
        day = int(g["d1"] or g["d2"] or 0)
        out.append(When(year, month, day, m.group()))
    return out


_PARENS = re.compile(r"\(([^()]{4,160})\)")
_BORN = re.compile(r"\bborn\b")
_DIED = re.compile(r"\b(?:died|d\.)\s")
_BORN_ON = re.compile(r"\bwas born\b[^.;]{0,80}")
_DIED_ON = re.compile(r"\b(?:died|passed away)\b[^.;]{0,80}")


def person_dates(text: str) -> tuple[When | None, When | None]:
    """(birth, death) of the person a passage is about, as far as its opening says: the
    first parentheses holding a date ("( December 18, 1904 – March 8, 1975)", "(born 1947)",
    "(died 1520)"), else "was born … DATE" and "died … DATE" sentences."""
    head = text[:400]
    for m in _PARENS.finditer(head):
        inside = m.group(1)
        found = dates(inside)
        if not found:
            continue
        if len(found) >= 2:
            return found[0], found[-1]
        if _DIED.search(inside) and not _BORN.search(inside):
            return None, found[0]
        return found[0], None
    born = next((d for m in _BORN_ON.finditer(text) for d in dates(m.group())), None)
    died = next((d for m in _DIED_ON.finditer(text) for d in dates(m.group())), None)
    return born, died


_THING_EVENT = re.compile(
    r"\b(?:released|founded|established|formed|started|launched|published|premiered|opened|created|built|"
    r"incorporated|first (?:aired|published|released|broadcast))\b[^.;]{0,40}"
)
OPENING = 250
"""Characters of a passage read as its opening ("lit. Mother Tongue" ends no sentence)."""


def thing_date(text: str) -> When | None:
    """The date of a work or organisation: a year in parentheses at its name ("Arthur's
    Magazine (1844–1846)"), else after "released / founded / started … in", else the first date
    of its opening ("… is a 1943 American comedy film")."""
    first = text[:OPENING]
    for m in _PARENS.finditer(first):
        found = dates(m.group(1))
        if found:
            return found[0]
    for m in _THING_EVENT.finditer(text):
        found = dates(m.group())
        if found:
            return found[0]
    found = dates(first)
    return found[0] if found else None


# ---- the question ------------------------------------------------------------------------------
_RELATION = re.compile(rf"\b({RELATION_WORDS})s?\b", re.I)
_EARLY = re.compile(r"\b(?:first|earlier|earliest|older|oldest|sooner|before)\b", re.I)
_LATE = re.compile(r"\b(?:later|last|latest|younger|youngest|more recent(?:ly)?|most recent(?:ly)?|newer|newest|after)\b", re.I)
_BIRTH = re.compile(r"\b(?:born|birth|older|oldest|younger|youngest)\b", re.I)
_DEATH = re.compile(r"\b(?:died|die|dies|death)\b", re.I)
_THING = re.compile(
    r"\b(?:came out|come out|released|release|founded|established|formed|started|launched|published|premiered|opened|"
    r"created|built|aired)\b",
    re.I,
)


@dataclass(frozen=True)
class ComparisonQuestion:
    """What `parse_comparison` read from a question."""

    options: tuple[str, str]
    date: str
    """``birth``, ``death`` or ``thing`` (the option's own date)."""
    earlier: bool
    """True when the earlier date wins ("first", "older", "died earlier")."""
    relation: str | None = None
    """A relation noun to hop through first ("director"), or None."""


def parse_comparison(question: str) -> ComparisonQuestion | None:
    """The comparison of dates a question asks for, or None when it asks something else
    (not "…, A or B?", or no date to compare: "Which is taller, A or B?")."""
    opts = options(question)
    if not opts:
        return None
    stem = question[: question.find(opts[0])] if opts[0] in question else question
    early, late = _EARLY.search(stem), _LATE.search(stem)
    if bool(early) == bool(late):
        return None
    relation = _RELATION.search(stem)
    relation_name = relation.group(1).lower() if relation else None
    person = relation_name is not None or stem.lower().startswith(("who ", "whom "))
    if _DEATH.search(stem):
        date = "death"
    elif _BIRTH.search(stem) and (person or "born" in stem.lower()):
        date = "birth"
    elif _THING.search(stem) or (not person and (early or late)):
        date = "thing"
    else:
        return None
    return ComparisonQuestion((opts[0], opts[1]), date, bool(early), relation_name)


@dataclass
class Decision:
    """A comparison decided in code: the answer, the passages it read and why."""

    answer: str
    units: list[Unit]
    """The passages read, option by option (a relation's passage after its option's)."""
    reason: str
    """One line for a person: each option's date and which end won."""


def decide(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | None:
    """The option whose date wins (see the module doc), or None when the question is not a
    comparison of dates or a date cannot be read for both options."""
    q = parse_comparison(question)
    if q is None:
        return None
    found: list[tuple[When, list[Unit], str]] = []
    for option in q.options:
        passage = find_passage(option, units, lookup)
        if passage is None:
            return None
        read, subject = [passage], option
        if q.relation:
            found_person = hop(q.relation, passage, units, lookup)
            if found_person is None:
                return None
            person, passage = found_person
            read.append(passage)
            subject = f"{option}'s {q.relation} {person}"
        if q.date == "thing":
            when = thing_date(passage.text)
        else:
            birth, death = person_dates(passage.text)
            when = birth if q.date == "birth" else death
        if when is None:
            return None
        found.append((when, read, subject))
    (a, read_a, who_a), (b, read_b, who_b) = found
    first = a.before(b)
    if first is None:
        return None
    wins_a = first if q.earlier else not first
    verb = {"birth": "born", "death": "died", "thing": "dated"}[q.date]
    end = "earlier" if q.earlier else "later"
    reason = f"{who_a} {verb} {a.text}; {who_b} {verb} {b.text}: {end} is {q.options[0] if wins_a else q.options[1]}"
    seen: dict[str, Unit] = {}
    for u in read_a + read_b:
        seen.setdefault(u.chunk_id, u)
    return Decision(answer=q.options[0] if wins_a else q.options[1], units=list(seen.values()), reason=reason)
