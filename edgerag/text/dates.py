"""Dates written in text, at the precision written, and the dates a passage gives for a person
(born, died) or a thing (released, founded): what answer/compare.py compares when a question asks
which came first. A wrong date is worse than none: a form that cannot be read with confidence
gives None, never a guess.

What `dates` reads:

- "26 April 1897", "3rd May 1908", "3rd of May 1908", "April 26, 1897", "May 3rd, 1908",
  "April 1897", "1897"; "c. 1450" / "circa 1450" / "ca. 1450" read as 1450.
- Eras: "100 BC", "44 BCE", "44 B.C.", "AD 14", "14 AD", "14 CE", "15 March 44 BC". BC years are
  negative (``When(-100)`` is 100 BC; there is no year 0, see `lifespan`). A year of 1-2 digits is
  a date only with an era word ("3 acts" is none); 3-4 digits need none.
- Decades: "the 1970s", "1970's", "870s" give ``When(1970, decade=True)``. "1800s" is not read
  (a decade or a century?).
- Not years: digit groups ("1,887,000"), digits inside longer numbers or words.
- Two dates whose dash was lost in extraction, split before reading: "3 May 190811 June 1979",
  "May 3, 1908June 11, 1979", "1908c. 1979", "100 BC44 BC", "63 BCAD 14", "19081979" (two 4-digit
  years: only when the second is later, by under 130). A year run into a day is split only after
  a month, where exactly one split is a year and a day making a life of 0-129 years with the next
  date's year ("3 May 10011 June 1079": 1001 and 1 June, not 100 and 11 June). Four digits stay a
  year ("May 1908 June 1979") unless only a split makes a life. Read as nothing: a run no month
  comes before ("190811 June 1979"), one with no such split or several ("3 May 190811 June 2079",
  "19791908"), an era word on both sides ("AD 12 AD"). Not caught: "AD 1" run into "100" is
  "AD 1100", a date as it stands.

What `person_dates` reads: the first parentheses holding a date, its dates labelled by "born" /
"b." and "died" / "d." / "†" ("(b. 1887, d. 1951)", "(born 1887; died 1951)", "(3 May 1887 – d.
1951)"), else first and last ("(1904 – 1975)", any dash or none); "fl." / "floruit" / "active" /
"r." / "reigned" dates are no birth or death, and a death before the birth or 130 or more years
after it gives neither. Else "was born … DATE" and "died … DATE" sentences ("was born in the 1970s").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)

_MONTH_NUMBER = {m.lower()[:3]: i for i, m in enumerate(MONTHS.split("|")[:12], 1)}
_ORD = r"(?:st|nd|rd|th)?"
_BC = r"BCE|BC|B\.C\.E\.?|B\.C\.?"
_ERA_AFTER = rf"{_BC}|AD|A\.D\.?|CE|C\.E\.?"
_BARE_YEAR = r"1\d{3}|20\d{2}|[1-9]\d{2}"
"""A year with no era word and no month: 1000-2099, or 100-999."""
_NOT_ON = r"(?!\w|,\d)"
"""What may not follow a year's digits: more of a word, or another digit group ("1,887,000")."""


def _year(k: int, bare: str) -> str:
    """A year, for branch ``k``: "AD 14", "44 BC", "14 CE", or ``bare`` digits with no era."""
    return (
        rf"(?:(?:AD|A\.D\.)\s?(?P<a{k}>[1-9]\d{{0,3}}){_NOT_ON}"
        rf"|(?P<e{k}>[1-9]\d{{0,3}})\s?(?P<era{k}>{_ERA_AFTER})(?![A-Za-z])"
        rf"|(?P<y{k}>{bare}){_NOT_ON})"
    )


_YEAR_1, _YEAR_2, _YEAR_3 = _year(1, r"\d{3,4}"), _year(2, r"\d{3,4}"), _year(3, _BARE_YEAR)
_DATE = re.compile(
    rf"\b(?:(?P<d1>\d{{1,2}}){_ORD}(?: of)? (?P<m1>{MONTHS})\.?,? {_YEAR_1}"
    rf"|(?P<m2>{MONTHS})\.? (?:(?P<d2>\d{{1,2}}){_ORD},? )?{_YEAR_2}"
    rf"|(?P<dec>(?:1\d|20)[1-9]0|[1-9][1-9]0)'?s\b"
    rf"|(?<![\d][,.]){_YEAR_3})"
)
"""A date at its written precision; see the module's docstring."""


@dataclass(frozen=True, order=True)
class When:
    """A date as precise as the text says: month and day 0 when not given; ``year`` negative for BC.
    ``decade`` marks a decade ("the 1970s": year 1970, month and day 0); a decade is not its first
    year (``When(1970, decade=True) != When(1970)``)."""

    year: int
    month: int = 0
    day: int = 0
    text: str = field(default="", compare=False)
    decade: bool = False

    def before(self, other: When) -> bool | None:
        """True / False when the two differ at the precision both have; None when they do not
        (a decade against a year compares decades)."""
        if self.decade or other.decade:
            a, b = [self.year // 10], [other.year // 10]
        else:
            a, b = [self.year], [other.year]
            if self.month and other.month:
                a.append(self.month)
                b.append(other.month)
                if self.day and other.day:
                    a.append(self.day)
                    b.append(other.day)
        return None if a == b else a < b

    def same(self, other: When, unit: str = "year") -> bool | None:
        """Whether the two fall in the same ``unit`` (``year``, ``decade``, ``century``, ``month``
        or ``day``/``date``); None when either is written less precisely than the unit asks."""
        if unit in ("decade", "century"):
            size = 10 if unit == "decade" else 100
            return self.year // size == other.year // size
        if self.decade or other.decade:
            return None
        if unit == "year":
            return self.year == other.year
        if unit == "month":
            return None if not (self.month and other.month) else (self.year, self.month) == (other.year, other.month)
        if not (self.day and other.day):
            return None
        return (self.year, self.month, self.day) == (other.year, other.month, other.day)


_UNSURE = "\ufffd"
"""What replaces digits run together that cannot be split with confidence: no date reads across it,
and a parentheses holding it gives no birth or death."""
_DAY = re.compile(r"[1-9]|[12]\d|3[01]")
_GLUED_DAY = re.compile(
    rf"(?<!\d)(?P<run>\d{{4,6}})"
    rf"(?=(?P<day_end>{_ORD}(?: of)?) (?:{MONTHS})\b(?:\.?,? (?P<next>\d{{3,4}})(?!\w|,\d|\s?B\.?C))?)"
)
_MONTH_BEFORE = re.compile(rf"\b(?:{MONTHS})\.?(?: \d{{1,2}}{_ORD})?,? \Z")
"""What comes before a year run into a day: "May ", "May 3, "."""
_STARTS_A_DATE = rf"(?:{MONTHS})\b|A\.?D\b|c\.|ca\.|circa\b"
_GLUED_MONTH = re.compile(rf"(?<![\d,.])((?:AD|A\.D\.)\s?[1-9]\d{{0,3}}|{_BARE_YEAR})(?={_STARTS_A_DATE})")
_GLUED_ERA = re.compile(rf"(?<=\d)(\s?(?:{_ERA_AFTER}))(?=[1-9]|{_STARTS_A_DATE})")
_GLUED_YEARS = re.compile(r"(?<![\w,.])(1\d{3}|20\d{2})(1\d{3}|20\d{2})(?![\w,])")
_TWO_ERAS = re.compile(rf"\b(?:AD|A\.D\.)\s?\d+\s?(?:{_ERA_AFTER})(?![A-Za-z])")
"""An era word on both sides of digits ("AD 12 AD"): two years run together, split who knows where."""
_LONGEST_LIFE = 130
"""Years: a reading of a person's dates that makes a longer life (or a negative one) is no reading."""


def _lives(birth: int, death: str | None) -> bool:
    """Whether dying in ``death`` (bare digits; None when not read) makes a life from ``birth``."""
    return death is None or 0 <= int(death) - birth < _LONGEST_LIFE


def _split_day(m: re.Match) -> str:
    """A year run into the next date's day ("May 190811 June 1979"): split where exactly one
    split is a year and a day (and a life under 130 years, when the next date's year is read);
    else nothing readable. Without a month before it, the run is no date's year: nothing. Four
    digits are a year as they stand ("May 1908 June 1979") unless only a split makes a life."""
    run, after = m.group("run"), m.group("next")
    before = _MONTH_BEFORE.search(m.string, max(0, m.start() - 16), m.start())
    splits = [y for i in (3, 4) if re.fullmatch(_BARE_YEAR, run[:i]) and _DAY.fullmatch(run[i:]) and _lives(y := int(run[:i]), after)]
    whole = len(run) == 4 and not m.group("day_end") and re.fullmatch(_BARE_YEAR, run)  # not "1002nd June"
    if whole and (before is None or after is None or _lives(int(run), after) or len(splits) != 1):
        return m.group()
    if before is None or len(splits) != 1:
        return _UNSURE
    year = str(splits[0])
    return f"{year} – {run[len(year) :]}"


def _split_years(m: re.Match) -> str:
    """Two 4-digit years run together ("19081979"): split when the second is later by under 130."""
    a, b = int(m.group(1)), int(m.group(2))
    return f"{a} – {b}" if 0 < b - a < _LONGEST_LIFE else _UNSURE


def _unglue(text: str) -> str:
    """``text`` with the dash put back where extraction lost it between two dates."""
    text = _GLUED_DAY.sub(_split_day, text)
    text = _GLUED_MONTH.sub(r"\1 – ", text)
    text = _GLUED_ERA.sub(r"\1 – ", text)
    text = _TWO_ERAS.sub(_UNSURE, text)
    return _GLUED_YEARS.sub(_split_years, text)


def _when(m: re.Match) -> When:
    g = m.groupdict()
    if g["dec"]:
        return When(int(g["dec"]), text=m.group(), decade=True)
    k = next(k for k in "123" if g[f"a{k}"] or g[f"e{k}"] or g[f"y{k}"])
    year = int(g[f"a{k}"] or g[f"e{k}"] or g[f"y{k}"])
    if g[f"e{k}"] and re.match(_BC, g[f"era{k}"]):
        year = -year
    month = _MONTH_NUMBER.get((g["m1"] or g["m2"] or "").lower()[:3], 0)
    day = int(g["d1"] or g["d2"] or 0)
    return When(year, month, day, m.group())


def _dates_at(text: str) -> list[tuple[int, int, When]]:
    """(start, end, date) of every date in ``text`` (already unglued)."""
    return [(m.start(), m.end(), _when(m)) for m in _DATE.finditer(text)]


def dates(text: str) -> list[When]:
    """Every date in ``text``, in order."""
    return [w for _, _, w in _dates_at(_unglue(text))]


_PARENS = re.compile(r"\(([^()]{4,160})\)")
_LABEL = re.compile(r"\b(?P<born>born|b\.)|\b(?P<died>died|d\.)|†|\b(?P<other>fl\.|floruit|flourished|active|r\.|reign(?:ed)?)")
"""Words that say what the date after them is; "other" (floruit, reign) is no birth or death."""
_SPAN = rf"(?:\b(?:c|ca|fl|b|d|r|{MONTHS})\.|[^.;]|\.(?=\S|\s+[^A-Z\s])){{0,80}}"
"""The rest of a sentence, at most 80 characters: up to a full stop, not an abbreviation's
("c. AD 1", "Jan. 3") nor one a lower-case word or a digit follows ("B.C. and", "c. 1450")."""
_BORN_ON = re.compile(rf"\bwas born\b{_SPAN}")
_DIED_ON = re.compile(rf"\b(?:died|passed away)\b{_SPAN}")
_DIED_IN = re.compile(r"\b(?:died|passed away|d\.)")


def _life(inside: str) -> tuple[When | None, When | None] | None:
    """(birth, death) from a parentheses' text: None when it has no date; (None, None) when its
    dates are no birth or death (floruit) or cannot be read with confidence."""
    inside = _unglue(inside)
    if _UNSURE in inside:
        return None, None
    found = _dates_at(inside)
    if not found:
        return None
    labelled: list[tuple[str | None, When]] = []
    label, prev = None, 0
    for start, end, when in found:
        marks = [m.lastgroup or "died" for m in _LABEL.finditer(inside[prev:start])]  # "†" names no group
        label = marks[-1] if marks else ("other" if label == "other" else None)  # "fl. 1450–1470": both
        labelled.append((label, when))
        prev = end
    if any(k == "other" for k, _ in labelled):
        labelled = [(k, w) for k, w in labelled if k in ("born", "died")]
    born = next((i for i, (k, _) in enumerate(labelled) if k == "born"), None)
    died = next((i for i, (k, _) in enumerate(labelled) if k == "died"), None)
    free = [i for i, (k, _) in enumerate(labelled) if k is None]
    if born is None:
        born = next((i for i in free if died is None or i < died), None)
    if died is None:
        died = next((i for i in reversed(free) if born is not None and i > born), None)
    birth = labelled[born][1] if born is not None else None
    death = labelled[died][1] if died is not None else None
    if birth and death and (death.before(birth) or _years(birth.year, death.year) >= _LONGEST_LIFE):
        return None, None  # read wrong somewhere, or no one's life
    return birth, death


def person_dates(text: str) -> tuple[When | None, When | None]:
    """(birth, death) of the person a passage is about, as far as its opening says: the
    first parentheses holding a date ("( December 18, 1904 – March 8, 1975)", "(born 1947)",
    "(died 1520)", "(b. 1887, d. 1951)"), else "was born … DATE" and "died … DATE" sentences.
    A parentheses whose dates are no birth or death ("(fl. 1450)") or that cannot be read
    ends the search in parentheses."""
    head = text[:400]
    for m in _PARENS.finditer(head):
        life = _life(m.group(1))
        if life is None:
            continue
        if life != (None, None):
            return life
        break
    born = next((d for m in _BORN_ON.finditer(text) for d in dates(_DIED_IN.split(m.group())[0])), None)
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


def _years(birth: int, death: int) -> int:
    """Years from ``birth`` to ``death`` (negative: BC); there is no year 0."""
    return death - birth - (1 if birth < 0 < death else 0)


def lifespan(birth: When | None, death: When | None) -> float | None:
    """Years between birth and death, at the precision both dates have (None without both, or
    with a decade). There is no year 0: 63 BC to AD 14 is 76 years."""
    if birth is None or death is None or birth.decade or death.decade:
        return None
    years = _years(birth.year, death.year)
    if birth.month and death.month:
        years += (death.month - birth.month) / 12 + ((death.day - birth.day) / 365 if birth.day and death.day else 0)
    return round(years, 2)
