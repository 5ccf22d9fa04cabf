"""Quantities written in text: a number, its unit, and what it counts ("about 1,500 species",
"381 m (1,250 ft)", "three acts", "12.4 million inhabitants"), and a place's coordinates
("40°42′46″N 74°00′22″W", "51.5072° N, 0.1276° W").

A comparison decided in code (answer/compare.py) reads each side's value with these, converts
units of one dimension to a common base (km and mi to metres, lb to kilograms) and compares.

The unit table holds the units encyclopedic and business text writes (length, mass, area,
volume, speed, power, money's symbols are left to the number), each with its factor to the
dimension's base unit. A unit library such as pint would parse "ft" as well, but adds a
dependency for the forty lines below; the words that may follow a number are the hard part,
and no library knows which of them a question counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD_NUMBERS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
_WORD_NUMBERS |= {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_NUMBERS |= {"a dozen": 12, "dozen": 12, "a hundred": 100, "hundred": 100, "a thousand": 1000}
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}

# unit → (dimension, factor to the dimension's base unit); longest spellings are tried first
_UNITS: dict[str, tuple[str, float]] = {}
for _names, _dim, _f in (
    ("mm millimetre millimetres millimeter millimeters", "length", 1e-3),
    ("cm centimetre centimetres centimeter centimeters", "length", 1e-2),
    ("m metre metres meter meters", "length", 1.0),
    ("km kilometre kilometres kilometer kilometers", "length", 1e3),
    ("inch inches", "length", 0.0254),
    ("ft foot feet", "length", 0.3048),
    ("yd yard yards", "length", 0.9144),
    ("mi mile miles", "length", 1609.344),
    ("nmi nautical-mile nautical-miles", "length", 1852.0),
    ("g gram grams", "mass", 1e-3),
    ("kg kilogram kilograms kilo kilos", "mass", 1.0),
    ("t tonne tonnes metric-ton metric-tons", "mass", 1e3),
    ("lb lbs pound pounds", "mass", 0.45359237),
    ("oz ounce ounces", "mass", 0.028349523),
    ("ton tons short-ton short-tons", "mass", 907.18474),
    ("m2 m² square-metre square-metres square-meter square-meters sq-m", "area", 1.0),
    ("km2 km² square-kilometre square-kilometres square-kilometer square-kilometers sq-km", "area", 1e6),
    ("mi2 mi² square-mile square-miles sq-mi", "area", 2_589_988.11),
    ("ha hectare hectares", "area", 1e4),
    ("acre acres", "area", 4046.8564),
    ("ml millilitre millilitres milliliter milliliters", "volume", 1e-3),
    ("l litre litres liter liters", "volume", 1.0),
    ("gal gallon gallons", "volume", 3.785411784),
    ("km/h kph kmh", "speed", 1 / 3.6),
    ("mph", "speed", 0.44704),
    ("m/s", "speed", 1.0),
    ("knot knots kn", "speed", 0.514444),
    ("w watt watts", "power", 1.0),
    ("kw kilowatt kilowatts", "power", 1e3),
    ("mw megawatt megawatts", "power", 1e6),
    ("hp horsepower", "power", 745.7),
):
    for _n in _names.split():
        _UNITS[_n.replace("-", " ")] = (_dim, _f)
_UNIT_RE = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_WORDS = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
QUANTITY = re.compile(
    rf"(?<![\w.,])(?P<num>{_NUM}|{_WORDS})(?:[\s-]+(?P<scale>thousand|million|billion|trillion))?"
    rf"(?:[\s-]?(?P<unit>{_UNIT_RE})(?![\w/²]))?"
    r"(?=(?P<after>(?:\s+[A-Za-z][\w'-]*){0,4}))",
    re.I,
)
"""A number (digits or words), an optional scale word, an optional unit, and the words after it."""


@dataclass(frozen=True)
class Quantity:
    """A number as written, in its dimension's base unit when it has a unit."""

    value: float
    """In the base unit (metres, kilograms, m², litres, m/s, watts) when ``dimension`` is set."""
    dimension: str | None
    """``length``, ``mass``, ``area``, ``volume``, ``speed``, ``power``, or None (a count)."""
    text: str
    """The number and unit as written ("1,250 ft")."""
    after: str = ""
    """The words that follow it ("species in North America"): what it counts."""
    start: int = 0

    def comparable(self, other: Quantity) -> bool:
        return self.dimension == other.dimension


def _number(text: str) -> float | None:
    t = text.lower()
    if t in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[t])
    try:
        return float(t.replace(",", ""))
    except ValueError:
        return None


_YEAR_LIKE = re.compile(r"^(?:1[0-9]|20)\d\d$")


_YEAR_BEFORE = re.compile(r"\b(?:in|on|since|by|from|until|till|to|of|during|circa|c\.|ca\.|around|before|after)\s*$", re.I)
_COUNTED = re.compile(r"^[a-z]+s\b")


def _counted(text: str, m: re.Match) -> bool:
    """A year-like number that counts ("1400 species", "about 1500 employees"): a plural noun
    right after it, and no word before it that a year takes ("in 1998", "since 1880")."""
    return bool(_COUNTED.match(m.group("after").strip())) and not _YEAR_BEFORE.search(text[: m.start()])


def quantities(text: str) -> list[Quantity]:
    """Every quantity of ``text``, in order; years standing alone ("in 1998") are left out, a
    year-like number before a plural noun ("1400 species") is kept."""
    out = []
    for m in QUANTITY.finditer(text):
        value = _number(m.group("num"))
        if value is None:
            continue
        scale, unit = m.group("scale"), m.group("unit")
        if _YEAR_LIKE.match(m.group("num")) and not scale and not unit and not _counted(text, m):
            continue
        if scale:
            value *= _SCALE[scale.lower()]
        dimension = None
        if unit:
            dimension, factor = _UNITS[" ".join(unit.lower().split())]
            value *= factor
        end = m.end("unit") if unit else m.end("scale") if scale else m.end("num")
        out.append(Quantity(value, dimension, text[m.start() : end], m.group("after").strip(), m.start()))
    return out


# ---- coordinates ---------------------------------------------------------------------------
_DMS = r"(?P<{0}d>\d{{1,3}}(?:\.\d+)?)\s*°\s*(?:(?P<{0}m>\d{{1,2}}(?:\.\d+)?)\s*[′']\s*)?(?:(?P<{0}s>\d{{1,2}}(?:\.\d+)?)\s*[″\"]\s*)?(?P<{0}h>[NSEW])"
COORDINATES = re.compile(_DMS.format("a") + r"[\s,;/]*" + _DMS.format("b"))
_DECIMAL = re.compile(r"(?<![\d.])(-?\d{1,2}\.\d{2,})\s*,\s*(-?\d{1,3}\.\d{2,})(?!\d|\.\d)")


def coordinates(text: str) -> tuple[float, float] | None:
    """(latitude, longitude) in degrees, south and west negative: the first "40°42′46″N
    74°00′22″W"-style pair of ``text``, else a bare decimal pair "40.7128, -74.0060"."""
    m = COORDINATES.search(text)
    if m:
        found = {}
        for side in "ab":
            deg = float(m.group(f"{side}d")) + float(m.group(f"{side}m") or 0) / 60 + float(m.group(f"{side}s") or 0) / 3600
            h = m.group(f"{side}h")
            found["lat" if h in "NS" else "lon"] = -deg if h in "SW" else deg
        if set(found) == {"lat", "lon"}:
            return found["lat"], found["lon"]
    d = _DECIMAL.search(text)
    if d:
        lat, lon = float(d.group(1)), float(d.group(2))
        if abs(lat) <= 90 and abs(lon) <= 180:
            return lat, lon
    return None


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (latitude, longitude) points, in km."""
    from math import asin, cos, radians, sin, sqrt

    la1, lo1, la2, lo2 = map(radians, (*a, *b))
    h = sin((la2 - la1) / 2) ** 2 + cos(la1) * cos(la2) * sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * asin(sqrt(h))
