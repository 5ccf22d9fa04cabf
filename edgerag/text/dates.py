"""Dates written in text, at the precision written ("26 April 1897", "April 1897", "1897"), and
the dates a passage gives for a person (born, died) or a thing (released, founded): what
answer/compare.py compares when a question asks which came first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)

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


def lifespan(birth: When | None, death: When | None) -> float | None:
    """Years between birth and death, at the precision both dates have (None without both)."""
    if birth is None or death is None:
        return None
    years = death.year - birth.year
    if birth.month and death.month:
        years += (death.month - birth.month) / 12 + ((death.day - birth.day) / 365 if birth.day and death.day else 0)
    return round(years, 2)
