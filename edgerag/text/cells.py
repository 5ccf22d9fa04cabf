"""A table cell's value as something to compare: a number with its unit (a currency, a unit of
text/quantities.py, a duration, a percentage) or a date (text/dates.py, and the numeric forms
tables write: "2026-06-30", "30.06.2026", "06/30/2026").

Numbers: "12,400 EUR", "€12,400", "EUR 1.2 million", "€350k", "$3.5M", "12 400 kr", "1.200.000"
and "12.400,50" (dots grouping thousands, a comma before the decimals), "45 kg", "3.2 km",
"18 months", "12 %". A lone "12.400" is twelve point four. A scale letter (k, m, bn) counts
only beside a currency: "1.2 m" alone is metres. Values of different units (EUR and USD, kg
and m) compare as nothing.

Dates: ISO ("2026-06-30", "2026-06"); day, month and year in digits with "/", "." or "-"
between, the day first or the month first as the column shows (a first number above 12 is a
day, a second above 12 is a day); when no value shows it, the caller tries both readings
(`dayfirst`); written dates as text/dates.py reads them ("30 June 2026", "June 30, 2026",
"June 2026", "2026"). A bare year is both a date and a number: the question decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dates import When, dates
from .quantities import quantities

_CURRENCY = re.compile(r"(?P<sym>[€$£¥₹])|\b(?P<code>EUR|USD|GBP|CHF|NOK|SEK|DKK|JPY|CAD|AUD|INR|CNY|PLN|CZK|kr|euros?|dollars?)\b", re.I)
_SYMBOL = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR"}
_NUMBER = re.compile(
    r"(?<![\w.,-])(?P<int>\d{1,3}(?:\.\d{3}){2,}|\d{1,3}(?:\.\d{3})+(?=,\d)|\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)"
    r"(?P<frac>[.,]\d+)?(?:\s?(?P<scale>k|K|thousand|m|M|mn|million|bn|billion|trillion)(?![\w]))?"
)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9, "trillion": 1e12}
_DURATION = re.compile(r"(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?|yrs?)\b", re.I)
_DAYS = {"h": 1 / 24, "d": 1, "w": 7, "m": 30.44, "y": 365.25}
_ISO = re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?(?![\d])")
_NUMERIC_DATE = re.compile(r"(?<![\d.])(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d])")
MISSING = frozenset({"", "-", "–", "—", "n/a", "na", "tbd", "tba", "none", "unknown", "?", "ongoing", "open", "n.a."})


@dataclass(frozen=True)
class Number:
    value: float
    unit: str
    """"EUR", a dimension of quantities.py ("mass"), "days", "%", or "" (a count)."""


def _plain(m: re.Match) -> float:
    digits = re.sub(r"[,. \u00a0\u202f]", "", m["int"])
    frac = (m["frac"] or "").replace(",", ".")
    return float(digits + frac)


def number(text: str) -> Number | None:
    """The number a cell holds, with its unit; None when it holds none."""
    text = text.strip()
    if text.lower() in MISSING:
        return None
    cur = _CURRENCY.search(text)
    if cur:
        unit = _SYMBOL.get(cur["sym"], "") if cur["sym"] else cur["code"].upper()
        unit = {"EURO": "EUR", "EUROS": "EUR", "DOLLAR": "USD", "DOLLARS": "USD", "KR": "KR"}.get(unit, unit)
        m = _NUMBER.search(text)
        if m is None:
            return None
        scale = _SCALE.get((m["scale"] or "").lower(), 1.0)
        return Number(_plain(m) * scale, unit)
    if _ISO.search(text) or _NUMERIC_DATE.search(text) or any(w.month for w in dates(text)):
        return None  # a date, not a number
    d = _DURATION.search(text)
    if d:
        return Number(float(d["n"].replace(",", ".")) * _DAYS[d["unit"][0].lower()], "days")
    q = next((q for q in quantities(text) if q.dimension), None)
    if q is not None:
        return Number(q.value, q.dimension or "")
    m = _NUMBER.search(text)
    if m is None:
        return None
    scale = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}.get((m["scale"] or "").lower(), 1.0)
    return Number(_plain(m) * scale, "%" if "%" in text else "")


def numeric_dates(text: str) -> list[tuple[int, int]]:
    """The (first, second) numbers of each "a/b/yyyy" date in ``text``: what says day-first."""
    return [(int(m["a"]), int(m["b"])) for m in _NUMERIC_DATE.finditer(text)]


def date(text: str, dayfirst: bool = True) -> When | None:
    """The date a cell holds, at its written precision; None when it holds none."""
    text = text.strip()
    if text.lower() in MISSING:
        return None
    m = _ISO.search(text)
    if m and 1 <= int(m["m"]) <= 12:
        return When(int(m["y"]), int(m["m"]), int(m["d"] or 0), m.group())
    m = _NUMERIC_DATE.search(text)
    if m:
        a, b = int(m["a"]), int(m["b"])
        day, month = (a, b) if (dayfirst and a <= 31 and b <= 12) or a > 12 else (b, a)
        year = int(m["y"]) + (0 if len(m["y"]) == 4 else 2000 if int(m["y"]) < 70 else 1900)
        if 1 <= month <= 12 and 1 <= day <= 31:
            return When(year, month, day, m.group())
        return None
    found = dates(text)
    return found[0] if found else None


def later(a: When, b: When) -> bool | None:
    """Whether ``a`` is after ``b`` (None: the same at the precision both have)."""
    first = a.before(b)
    return None if first is None else not first
