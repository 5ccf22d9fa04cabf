"""A value the guidance gives case by case, chosen by the case the user's situation is in (issue
#62, "rules with conditions flattened": the answer of another case).

Guidance pages give many values by a band: a table's rows ("Amount on your solicitor's bill:
£100,000.01 to £150,000; Fee: £1,345"), a list whose items each give a value and its case
("£11,222 if your course started between 1 August 2020 and 31 July 2021"), a ladder of lengths
of service ("after one year: 12 weeks on full pay …"). A small model picks one of them whatever
the user said ("the final bill was £100950", "the course will be starting on the 1st July
2020"). So, once the check has kept a short answer, where the sentence it stands on is one such
case (`cases_of`: two or more cases of one kind of band, the answer the value of one), and the
user's own words (the situation and the question proper) state a sum, a date or a length of time
of that kind (`said_values`):

* the value falls in exactly one case → the answer is that case's value, as printed (or, where
  the answer gave the figure a value opens with, "26 weeks", the new case's figure, "12 weeks");
* it falls in none → the documents do not say (a rate for a year the page does not give);
* it falls in several, or the user states none → the model's pick stands.

A date counts only where the user's sentence shares a word with the cases ("I moved to Leeds in
March 2019" says nothing of when a course started); a sum too, where the user gives several. A
date the user gives by its month or year alone is that month or year; it is in a case only
where the case holds all of it.

Bands read: "£A to £B", "between £A and £B", "above £A and up to £B", "£A or less", "up to £A",
"£A or more", "over £A"; "on or after D", "after D", "from D", "before D", "until D",
"between D1 and D2", D a day, month and year or a month and year; lengths of time ("in the first
year of service", "after one year", "1-5 years", "less than 2 years", numbers spelled or not),
where bands that each open upwards ("after one year", "after five years") are a ladder, each
running up to the next. A list item may give its value first ("£11,222 if …") or its case first
("after one year: 12 weeks …"), on its own line or run into the paragraph. (text/lookup.py
reads a question's own amount against the range cells of a row the question names; this step
reads the user's words against the cases of the answer the model read.)

Measured on ConditionalQA dev-open and the office set with the 1.5B: see docs/benchmarks.md,
"ConditionalQA" (the fifth round).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, timedelta

from ..text.keywords import keywords
from ..text.rows import parse_row
from ..text.sentences import split_sentences
from .binding import Standing, lemma
from .item_bounds import in_digits
from .question import Question

_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"(?:" + "|".join(_MONTHS) + r")"
_MONEY = r"£\s?(?P<{0}>\d[\d,]*(?:\.\d+)?)"
_SUM = re.compile(_MONEY.format("n"))
_DAY_DATE = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?:of\s+)?(?:19|20)\d{{2}})"
_MONTH_DATE = rf"(?:{_MONTH},?\s+(?:of\s+)?(?:19|20)\d{{2}})"
_A_DATE = re.compile(rf"{_DAY_DATE}|{_MONTH_DATE}|\b(?:19|20)\d{{2}}\b", re.I)
"""A date the user gives: a day, a month, or a year (each of a year)."""
_CASE_DATE = rf"(?:{_DAY_DATE}|{_MONTH_DATE})"

_MONEY_BANDS = [  # (pattern, low group or None, high group or None), the first that matches wins
    (re.compile(r"(?:between\s+)?" + _MONEY.format("lo") + r"\s*(?:to|-|–|and)\s*" + _MONEY.format("hi"), re.I), "lo", "hi"),
    (
        re.compile(
            r"(?:above|over|more\s+than)\s+"
            + _MONEY.format("lo")
            + r"\s+and\s+(?:up\s+to|under|below|less\s+than)\s+"
            + _MONEY.format("hi"),
            re.I,
        ),
        "lo",
        "hi",
    ),
    (re.compile(_MONEY.format("hi") + r"\s+or\s+(?:less|under|below)\b", re.I), None, "hi"),
    (re.compile(r"(?:up\s+to|under|below|less\s+than|no\s+more\s+than)\s+" + _MONEY.format("hi"), re.I), None, "hi"),
    (re.compile(_MONEY.format("lo") + r"\s+or\s+(?:more|over|above)\b", re.I), "lo", None),
    (re.compile(r"(?:above|over|more\s+than|at\s+least)\s+" + _MONEY.format("lo"), re.I), "lo", None),
]
_DATE_BANDS = [
    (re.compile(rf"between\s+(?P<lo>{_CASE_DATE})\s+and\s+(?P<hi>{_CASE_DATE})", re.I), "lo", "hi"),
    (re.compile(rf"(?:on\s+or\s+after|after|from|since)\s+(?P<lo>{_CASE_DATE})", re.I), "lo", None),
    (re.compile(rf"(?:before|until|up\s+to)\s+(?P<hi>{_CASE_DATE})", re.I), None, "hi"),
]
_UNIT = r"(?P<{0}>years?|months?|weeks?)"
_LENGTH = r"(?P<{0}>\d+(?:\.\d+)?)\s+" + _UNIT.replace("{0}", "{1}")
_LENGTH_BANDS = [  # a length of time (of service, of a stay): in years
    (
        re.compile(
            r"(?:between\s+)?(?P<lo>\d+(?:\.\d+)?)(?:\s+" + _UNIT.format("lu") + r")?\s*(?:and|to|-|–)\s*" + _LENGTH.format("hi", "hu"),
            re.I,
        ),
        "lo",
        "hi",
    ),
    (re.compile(r"\b(?:after|more\s+than|over|at\s+least)\s+" + _LENGTH.format("lo", "lu"), re.I), "lo", None),
    (re.compile(_LENGTH.format("lo", "lu") + r"\s+or\s+(?:more|over|longer)\b", re.I), "lo", None),
    (re.compile(r"\b(?:less\s+than|under|up\s+to|within)\s+" + _LENGTH.format("hi", "hu"), re.I), None, "hi"),
]
_FIRST = re.compile(r"\b(?:in|during)\s+(?:the|your|their)\s+first\s+" + _UNIT.format("fu"), re.I)
_PER_YEAR = {"year": 1.0, "month": 1 / 12, "week": 1 / 52}
_A_LENGTH = re.compile(_LENGTH.format("n", "u"), re.I)
"""A length of time the user gives ("3 years of service", once spelled numbers are digits)."""

_CASE_FIRST = re.compile(r"^\W*(?P<case>[^:]{3,80}?):\s+(?P<value>\S.*?)[.;]?\s*$")
"""A list item that gives its case first ("after one year: 12 weeks on full pay …")."""

_ITEM_BREAK = re.compile(r"\n+|;\s+|\s+[-•]\s+|(?<=[.:])\s+(?=[A-Z])")
"""Where a list item ends, on its own line or run into a paragraph (" - after one year: …;")."""

_VALUE_IF = re.compile(
    r"(?P<value>£\s?\d[\d,]*(?:\.\d+)?(?:\s+(?:a|per)\s+(?:year|month|week|day))?|\d+(?:\.\d+)?\s?%|\d+\s+(?:working\s+)?(?:days?|weeks?|months?|years?))"
    r"\s+(?:if|when|for)\s+(?=\w)",
    re.I,
)
"""A list item's value and the start of its case ("£11,222 if your course started …")."""


@dataclass(frozen=True)
class Band:
    kind: str
    """``money``, ``date`` or ``length`` (a length of time, in years)."""
    low: float
    high: float
    """Inclusive bounds (a date as its ordinal day); ±inf where open."""


@dataclass(frozen=True)
class Case:
    value: str
    """The value the guidance gives in this case, as printed."""
    case: str
    """The case's words ("£100,000.01 to £150,000", "if your course started between …")."""
    band: Band


@dataclass(frozen=True)
class InCase:
    """What the user's case made of the answer: ``value`` "" where no case holds it."""

    value: str
    why: str


def _amount(text: str) -> float:
    return float(text.replace(",", ""))


def _day(text: str, end: bool = False) -> tuple[date, date] | None:
    """The days a date's words cover: a day, a whole month, or a whole year."""
    t = text.lower().replace(",", " ")
    year = re.search(r"(?:19|20)\d{2}", t)
    if year is None:
        return None
    y = int(year.group())
    month = next((i for i, m in enumerate(_MONTHS, 1) if re.search(rf"\b{m}\b", t)), None)
    if month is None:
        return date(y, 1, 1), date(y, 12, 31)
    first = date(y, month, 1)
    last = (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    day = re.match(r"\s*(\d{1,2})", t)
    if day is not None and 1 <= int(day.group(1)) <= last.day:
        d = first.replace(day=int(day.group(1)))
        return d, d
    return first, last


def _years(unit: str) -> float:
    return _PER_YEAR[unit.lower().rstrip("s")]


def band(case: str) -> Band | None:
    """The band of money or dates ``case`` states (the module doc), None for none."""
    for pattern, lo, hi in _MONEY_BANDS:
        m = pattern.search(case)
        if m is not None:
            return Band("money", _amount(m[lo]) if lo else -math.inf, _amount(m[hi]) if hi else math.inf)
    text = in_digits(case)
    for pattern, lo, hi in _LENGTH_BANDS:
        m = pattern.search(text)
        if m is not None:
            low = _amount(m[lo]) * _years(m[lo[0] + "u"] or m["hu"]) if lo else 0.0
            high = _amount(m[hi]) * _years(m[hi[0] + "u"]) if hi else math.inf
            return Band("length", low, high - (1e-9 if hi and not lo else 0.0))
    m = _FIRST.search(case)
    if m is not None:
        return Band("length", 0.0, _years(m["fu"]) - 1e-9)
    for pattern, lo, hi in _DATE_BANDS:
        m = pattern.search(case)
        if m is not None:
            low = _day(m[lo]) if lo else None
            high = _day(m[hi]) if hi else None
            if (lo and low is None) or (hi and high is None):
                continue
            start = low[0].toordinal() if low else -math.inf
            end = high[1].toordinal() if high else math.inf
            if hi and not lo and re.match(r"before", m.group(), re.I):
                end = high[0].toordinal() - 1
            if lo and not hi and re.match(r"after", m.group(), re.I):
                start = low[1].toordinal() + 1
            return Band("date", start, end)
    return None


def _canon(text: str) -> str:
    return re.sub(r"[\s,]", "", text).lower().rstrip(".")


def _same(value: str, short: str) -> bool:
    """Whether the answer ``short`` is ``value``, or the value it opens with ("2.5%" of "2.5%,
    but rates are lower for some goods")."""
    v, s = _canon(value), _canon(short)
    return bool(s) and (v == s or (v.startswith(s) and not v[len(s) : len(s) + 1].isdigit()))


def _row_cases(short: str, s: Standing) -> tuple[list[Case], str] | None:
    """The cases of a table whose row ``s`` is: each sibling row's band cell and its cell under
    the header of the answer's cell; with the words of the band's header."""
    row = parse_row(s.sentence)
    if row is None:
        return None
    answer = next((h for h, v in row.cells.items() if _same(v, short)), None)
    keyed = next((h for h, v in row.cells.items() if h != answer and band(v) is not None), None)
    if answer is None or keyed is None:
        return None
    cases = []
    for line in s.unit.text.splitlines():
        other = parse_row(line)
        if other is None or other.caption != row.caption or set(other.cells) != set(row.cells):
            continue
        b = band(other.cells[keyed])
        if b is not None and other.cells[answer]:
            cases.append(Case(other.cells[answer], other.cells[keyed], b))
    return cases, keyed


def _listed_cases(short: str, s: Standing) -> tuple[list[Case], str] | None:
    """The cases of a list whose item (or run of items) ``s`` is: "VALUE if CASE", each case
    running to the next item's value."""
    lines = [ln for ln in s.unit.text.splitlines() if _VALUE_IF.search(ln)]
    if not short.strip() or re.sub(r"\s", "", short) not in re.sub(r"\s", "", s.unit.text):
        return None
    cases = []
    for line in _ITEM_BREAK.split(s.unit.text):  # "after one year: 12 weeks on full pay …"
        m = _CASE_FIRST.match(line)
        b = band(m["case"]) if m is not None and not parse_row(line) else None
        if b is not None:
            cases.append(Case(m["value"].strip(), m["case"].strip(), b))
    for line in lines:
        found = list(_VALUE_IF.finditer(line))
        for i, m in enumerate(found):
            end = found[i + 1].start() if i + 1 < len(found) else len(line)
            words = line[m.end() : end].strip()
            b = band(words)
            if b is not None:
                cases.append(Case(m["value"].strip(), words, b))
    return cases, ""


def cases_of(short: str, s: Standing) -> list[Case]:
    """The cases the sentence ``s`` holding the answer ``short`` is one of (the module doc): two or
    more of one kind of band, ``short`` the value of one; else []."""
    for read in (_row_cases, _listed_cases):
        got = read(short, s)
        if got is None:
            continue
        cases = got[0]
        kinds = {c.band.kind for c in cases}
        if len(cases) >= 2 and len(kinds) == 1 and any(_same(c.value, short) for c in cases):
            return cases
    return []


def _words(text: str) -> set[str]:
    """The roots of ``text``'s telling words, its dates' years and months aside."""
    return {lemma(w) for w in keywords(text) if w.isalpha() and w not in _MONTHS}


def said_values(kind: str, text: str, telling: set[str]) -> list[tuple[float, float]]:
    """The sums (a point) or dates (the days they cover) of ``kind`` the user's ``text`` states:
    a date, or one of several sums, only where its sentence shares a word of ``telling`` (the
    cases' words, by their roots: "the course will be starting on …" for "if your course
    started …")."""
    found: list[tuple[str, tuple[float, float]]] = []
    for sentence in split_sentences(text):
        if kind == "money":
            found += [(sentence, (_amount(m["n"]),) * 2) for m in _SUM.finditer(sentence)]
        elif kind == "length":
            found += [(sentence, (_amount(m["n"]) * _years(m["u"]),) * 2) for m in _A_LENGTH.finditer(in_digits(sentence))]
        else:
            for m in _A_DATE.finditer(sentence):
                days = _day(m.group())
                if days is not None:
                    found.append((sentence, (days[0].toordinal(), days[1].toordinal())))
    if kind == "date" or len({v for _, v in found}) > 1:  # a date is said of many events: the case's own, by its words
        found = [(s, v) for s, v in found if telling & _words(s)]
    values = list(dict.fromkeys(v for _, v in found))
    return [v for v in values if not any(w != v and v[0] <= w[0] and w[1] <= v[1] for w in values)]  # "September 2018", not "2018"


def _laddered(cases: list[Case]) -> list[Case]:
    """Cases that each open a band upwards ("after one year", "after five years") as a ladder:
    each runs up to where the next begins."""
    open_ended = sorted((c for c in cases if c.band.high == math.inf), key=lambda c: c.band.low)
    if len(open_ended) < 2 or len({c.band.low for c in open_ended}) < len(open_ended):
        return cases
    nxt = {id(c): open_ended[i + 1].band.low for i, c in enumerate(open_ended[:-1])}
    return [Case(c.value, c.case, Band(c.band.kind, c.band.low, nxt[id(c)] - 1e-9)) if id(c) in nxt else c for c in cases]


_LEAD = re.compile(r"^[£$€]?\s?\d[\d,.]*\s*%?\s*[a-z]*", re.I)


def _same_part(short: str, old: str, new: str) -> str:
    """The new case's value said as the answer said the old one: whole, or the figure it opens with
    ("26 weeks" of "26 weeks on full pay …" → "12 weeks" of "12 weeks on full pay …")."""
    if _canon(old) == _canon(short):
        return new
    lead = _LEAD.match(new.strip())
    return lead.group().strip() if lead is not None and _LEAD.match(short.strip()) else new


def in_case(short: str, standing: list[Standing], q: Question) -> InCase | None:
    """The value of the case the user is in, where ``short`` is one case's value (the module
    doc); None to leave the answer as it is."""
    if not q.situated and not re.search(r"\d", in_digits(q.core)):
        return None
    for s in standing:
        cases = _laddered(cases_of(short, s))
        if not cases:
            continue
        kind = cases[0].band.kind
        telling = _words(" ".join(c.case for c in cases) + " " + s.sentence.split(":")[0])
        values = said_values(kind, q.text, telling)
        if len(values) != 1:
            return None
        low, high = values[0]
        holding = [c for c in cases if c.band.low <= high and low <= c.band.high]
        said = {"money": f"£{low:,.2f}".replace(".00", ""), "length": f"{low:g} years"}.get(kind) or date.fromordinal(int(low)).isoformat()
        if not holding:
            return InCase("", f"'{short}' is given case by case, and no case holds what you said ({said})")
        if len(holding) > 1 or not (holding[0].band.low <= low and high <= holding[0].band.high):
            return None
        if _same(holding[0].value, short):
            return None
        old = next(c.value for c in cases if _same(c.value, short))
        value = _same_part(short, old, holding[0].value)
        return InCase(value, f"'{short}' is another case's; yours ({said}) is '{holding[0].case}': {holding[0].value}")
    return None
