"""The periods a question and a table's columns name (issue #63): a year, or a part of one, a
quarter, a half or a month, with its year where one is said.

    "Total budgeted income for Q1 and Q2 combined?"               → Q1, Q2 (no year)
    "What was the change in the total revenue between Q3 and Q4 2020?" → Q3 2020, Q4 2020
    "… between the fourth quarter of 2018 and 2019"                → Q4 2018, Q4 2019
    columns "Q1", "First Quarter · 2019", "2020 · Q3", "H1", "Jan-20", "January 2020", "2Q20", "1H20",
    "Oct–Dec 2023" (Q4 2023), "Jan–Jun" (H1); "Jan–Dec 2023" is the whole year

A part's year is the one written beside it ("Q3 2020", "the fourth quarter of 2018", "fiscal 2019
Q4"); a part said alone takes the question's one year ("between Q3 and Q4 2020"), and one part
said alone beside several years is that part of each ("the fourth quarter of 2018 and 2019"); a
year listed after a part's own is that part too ("Q4 2019 and 2018"), a year said apart is the
whole year ("Q1 2019 revenue and 2018 revenue": Q1 2019 and 2018).
Parts and years the question does not pair so are no periods: it is read by its years, as before.
A date ("December 31, 2019", "three months ended March 31") is no month: a column so headed is
its year's. A period's order is its year's, then its first month's: a change is the later less
the earlier, Q4 less Q3, as for years.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

YEAR = re.compile(r"(?<![\d.])(?:(?:19|20)\d{2}|(?:FY|F)\s?'?\d{2})(?!\d|,\d)", re.I)
"""A year as reports write it: "2019", "FY19", "F19"."""


def year_of(text: str) -> int | None:
    """The year ``text`` writes ("2019", "FY19", "F19"), else None."""
    m = YEAR.search(text)
    if m is None:
        return None
    digits = re.sub(r"\D", "", m.group())
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


@dataclass(frozen=True)
class Period:
    """A year, or a quarter, half or month of one."""

    year: int | None
    """The year said; None where a part is named with no year ("Q3", a budget's column "Q1")."""
    part: str = ""
    """"" for the whole year, else "quarter", "half" or "month"."""
    index: int = 0
    """Which quarter (1-4), half (1-2) or month (1-12); 0 for the whole year."""

    def order(self) -> tuple[int, int]:
        """Earlier first: by year, then by the part's first month."""
        first = {"quarter": 3 * (self.index - 1) + 1, "half": 6 * (self.index - 1) + 1, "month": self.index}.get(self.part, 0)
        return (self.year or 0, first)


_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
_PART = re.compile(
    r"\b(?:Q(?P<q>[1-4])|(?P<qo>first|second|third|fourth|1st|2nd|3rd|4th|(?:last|final)(?=\s+(?:fiscal\s+)?quarter\s+of\s))\s+(?:fiscal\s+)?quarters?"
    r"|H(?P<h>[12])|(?P<ho>first|second|1st|2nd|(?:last|final)(?=\s+half\s+of\s))\s+(?:half|halves)(?:\s+year)?)\b"
    r"|\b(?:(?P<cq>[1-4])Q|(?P<ch>[12])H)(?P<cy>\d{2})\b"
    rf"|(?<![\d,]\s)\b(?P<m>{_MONTH})\b(?!\s*\d{{1,2}}\b(?!\d))(?!\s*,)",
    re.I,
)
"""A quarter, half or month named (a quarter or half with its year run on: "2Q20", "1H20"); never a date's month ("December 31, 2019", "31 December" is one
only where no day follows)."""
_SHARED = re.compile(
    r"\b(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:and|to|through|&)\s+(?:the\s+)?"
    r"(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?(?P<kind>quarters?|halves|half)\b",
    re.I,
)
"""An ordinal sharing the part named after the next: "the first and fourth quarter", "the first and second halves"."""
_AFTER = re.compile(rf"^[\s,'-]*(?:of\s+)?(?:(?:the\s+)?(?:fiscal|financial|calendar)\s+(?:year\s+)?)?(?P<y>{YEAR.pattern})", re.I)
_BEFORE = re.compile(rf"(?P<y>{YEAR.pattern})(?:\s+fiscal)?[\s·'-]*$", re.I)
_DATED = re.compile(
    r"\b(?:three|six|nine|twelve|\d{1,2})\s+months\b|\b\d{1,2}\s*(?:st|nd|rd|th)?\s*$"
    r"|\b(?:years?|half)\s+(?:to|ended|ending)\s*$",
    re.I,
)
"""A span of months ended on a date ("Three months ended"), a year to its month ("in the year to March
2024", "the year ended March 2024"): a date, no month of its own."""


def _part(m: re.Match[str]) -> tuple[str, int]:
    if m["cq"] or m["ch"]:
        return ("quarter", int(m["cq"])) if m["cq"] else ("half", int(m["ch"]))
    if m["q"] or m["qo"]:
        return "quarter", int(m["q"]) if m["q"] else _ORD.get(m["qo"].lower(), 4)  # "the last quarter of 2023": Q4
    if m["h"] or m["ho"]:
        return "half", int(m["h"]) if m["h"] else _ORD.get(m["ho"].lower(), 2)
    word = m["m"].lower()
    return "month", next(n for n, name in enumerate(_MONTHS, 1) if name.startswith(word[:3]))


_MONTH_RANGE = re.compile(rf"\b(?P<a>{_MONTH})\.?\s*(?:-|–|—|to)\s*(?P<b>{_MONTH})\b\.?", re.I)
"""A span of months a Nordic or European report heads a column with: "Oct–Dec 2023" (the fourth
quarter), "Jan–Jun" (the first half), "Jan–Dec 2023" (the whole year)."""


def _month_number(word: str) -> int:
    return next(n for n, name in enumerate(_MONTHS, 1) if name.startswith(word[:3].lower()))


def _ranges(text: str) -> list[tuple[int, int, str, int]]:
    """The month ranges ``text`` names: (start, end, part, index); part "" for a whole year
    ("Jan–Dec"), "month" (index 0) for a span that is no quarter or half: its months no period."""
    out = []
    for m in _MONTH_RANGE.finditer(text):
        a, b = _month_number(m["a"]), _month_number(m["b"])
        if (a, b) == (1, 12):
            out.append((m.start(), m.end(), "", 0))
        elif b == a + 2 and a % 3 == 1:
            out.append((m.start(), m.end(), "quarter", (a + 2) // 3))
        elif b == a + 5 and a in (1, 7):
            out.append((m.start(), m.end(), "half", 1 if a == 1 else 2))
        else:
            out.append((m.start(), m.end(), "month", 0))
    return out


def _mentions(text: str) -> list[tuple[str, int, int | None, int, int]]:
    """Each part ``text`` names: (part, index, its year or None, the year's start or -1, start);
    a month range that is a quarter or a half is that part ("Oct–Dec 2023": Q4 2023)."""
    out = []
    ranges = _ranges(text)
    for start, end, part, index in ranges:
        if part in ("quarter", "half"):
            after = _AFTER.match(text[end:])
            out.append((part, index, year_of(after["y"]) if after else None, end + after.start("y") if after else -1, start))
    for m in _PART.finditer(text):
        if m["m"] and any(a <= m.start() < b for a, b, _, _ in ranges):
            continue  # a month of a range, read above
        if m["m"] and _DATED.search(text[max(0, m.start() - 24) : m.start()]):
            continue
        if m["m"] and m["m"].lower() == "may" and not m["m"][0].isupper():
            continue  # "may": a verb
        part, index = _part(m)
        if m["cy"]:
            out.append((part, index, 2000 + int(m["cy"]), m.start("cy"), m.start()))  # "2Q20": the second quarter of 2020
            continue
        after, before = _AFTER.match(text[m.end() :]), _BEFORE.search(text[: m.start()])
        if after:
            out.append((part, index, year_of(after["y"]), m.end() + after.start("y"), m.start()))
        elif before and part != "month":
            out.append((part, index, year_of(before["y"]), before.start("y"), m.start()))
        else:
            out.append((part, index, None, -1, m.start()))
    for m in _SHARED.finditer(text):
        part, index = "half" if m["kind"].lower().startswith("hal") else "quarter", _ORD[m["o"].lower()]
        if part == "quarter" or index <= 2:
            out.append((part, index, None, -1, m.start()))
    return sorted(out, key=lambda f: f[4])


_LIST_GAP = re.compile(r"\s*(?:,|,?\s*(?:and|or|&|to|through|vs\.?|versus))\s*", re.I)
"""What lies between two years listed together: "2018 and 2019", "2019, 2018"."""


def _listed(question: str, spans: list[tuple[int, int, int]], used: set[int]) -> list[int]:
    """The free years listed with a year a part is said with ("the fourth quarter of 2018 and
    2019", "Q4 2019, 2018 and 2017"): each that part's; a year said apart ("Q1 2019 revenue and
    2018 revenue") is the whole year's."""
    out: list[int] = []
    end = -1
    for start, stop, y in spans:
        if start in used:
            end = stop
        elif end >= 0 and _LIST_GAP.fullmatch(question[end:start]):
            out.append(y)
            end = stop
        else:
            end = -1
    return out


def periods_asked(question: str) -> tuple[Period, ...]:
    """The parts of years ``question`` names, with their years (the module doc), in its order;
    () where it names none, or they do not pair with its years."""
    found = _mentions(question)
    months = [f for f in found if f[0] == "month"]
    if months and (len(months) != len(found) or (any(f[2] is None for f in months) and len(months) < 2)):
        found = [f for f in found if f[0] != "month"]  # a month said beside quarters, or a lone month with no year: not a period asked
    if not found:
        return ()
    spans = [(m.start(), m.end(), y) for m in YEAR.finditer(question) if (y := year_of(m.group())) is not None]
    years = [(at, y) for at, _, y in spans]
    used = {f[3] for f in found if f[3] >= 0}
    free = [y for at, y in years if at not in used]
    alone = [f for f in found if f[2] is None]
    out = [Period(f[2], f[0], f[1]) for f in found]
    if alone and len(years) == 1:
        out = [Period(p.year or years[0][1], p.part, p.index) for p in out]  # "between Q3 and Q4 2020"
    elif len({(f[0], f[1]) for f in found}) == 1 and free:
        part, index = found[0][0], found[0][1]  # "the fourth quarter of 2018 and 2019": that quarter of each
        listed = free if alone else _listed(question, spans, used)
        out = list(dict.fromkeys([*(p for p in out if p.year is not None), *(Period(y, part, index) for y in listed)]))
        if len(out) < 2 and alone:
            out = [Period(y, part, index) for y in free]
        out += [Period(y) for y in free if y not in listed]  # "Q1 2019 revenue and 2018 revenue": the year 2018 whole
    elif alone and years:
        return ()  # parts and years not paired
    return tuple(dict.fromkeys(out))


def column_period(header: str, year: int | None) -> Period | None:
    """The part of a year a column's ``header`` names, with ``year`` (the header's own, else the
    one run on to the part: "4Q22"; or None); None where it names no part, or several ("Q4 vs Q3")."""
    mentions = _mentions(header)
    found = {(f[0], f[1]) for f in mentions}
    if len(found) != 1:
        return None
    part, index = next(iter(found))
    run_on = {f[2] for f in mentions if f[2] is not None}
    if len(run_on) > 1:
        return None  # "Jan–Mar 2023 vs Jan–Mar 2022": a comparison of two years' parts, no one period
    if year is None and run_on:
        year = run_on.pop()  # "4Q22": the fourth quarter of 2022, its year run on
    return Period(year, part, index)


def without_parts(text: str) -> str:
    """``text`` with the quarters and halves it names taken out ("What operating profit did the
    company make in the fourth quarter of 2022?" → "… in the of 2022?"): the words of a column
    bound by its period, no row's. Months are left: a date's month may be a row's word."""
    text = _SHARED.sub(" ", text)
    return _PART.sub(lambda m: m.group() if m["m"] else " ", text)


def named_period(text: str) -> Period | None:
    """The one part of a year ``text`` names, with the year written beside it or run on ("Q2
    2020", "2Q20", "the first half of 2020"; None for a part with no year: "Q2"); None where it
    names none, or several."""
    found = {(f[0], f[1], f[2]) for f in _mentions(text)}
    if len(found) != 1:
        return None
    part, index, year = next(iter(found))
    return None if year is None else Period(year, part, index)


KIND_WORDS = {"quarter": "quarterly", "half": "half-yearly", "month": "monthly"}
"""The word a question says of an average over every part of a kind ("the average quarterly budget")."""


def written_years(text: str) -> set[str]:
    """The years ``text`` writes short, as four digits: a quarter's or half's run on ("4Q23",
    "1H24": "2023", "2024") and a fiscal year's ("FY24": "2024"), which a search for "2023" misses."""
    out = {str(f[2]) for f in _mentions(text) if f[2] is not None}
    return out | {str(y) for m in _FY.finditer(text) if (y := year_of(m.group())) is not None}


_FY = re.compile(r"\bFY\s?'?(?:\d{4}|\d{2})\b")
"""A fiscal year written short ("FY24"), case as reports print it: never "of 20%" or "PDF 24KB"."""
