"""A rule's item settled in code from the user's situation, where both state a number or a date
(conditions_met.py): "have at least 2 years' continuous service" against "I have 3 years of
continuous service", "passed your car driving test before 1 February 2001" against "I passed my
car driving test in February 2000", "carries more than 12 passengers" against "a 10-seat foot
passenger ferry", "be 18 or over" against "I am 17".

An item is cut into its parts at "and you" ("want to ride a moped (up to 50cc) and you passed
…"): a part the situation fails fails the item; the item holds where every part holds; else it
is not settled here (None). A part is settled by:

* a **bound** ("at least", "more than", "over", "under", "up to", "N or more" …) on a number
  with its unit; the situation's number with the same unit (its unit among the three words after
  it: "10-seat foot passenger ferry" is 10 passengers); a unit of time ("2 years") counts only
  in a situation's sentence that shares another telling word of the part ("continuous service"),
  so an age is not taken for a service; sums of money are left to the model (the pool is not
  the profit);
* a **date** ("before 1 February 2001", "on or after 6 April 2017", "since 2015") against a date
  in a situation's sentence that says every telling word of the event the date bounds (the four
  words before it: "car driving test", not "I passed my driving test" for "passing a moped
  test since 1990"), compared as far as both say it (a year alone against a year, a month where
  both name one);
* an **age** ("be 18 or over", "you're 19 or older", "under 25") against the user's own ("I am
  17", "I'm 20 years old", "aged 30").

Where the situation says several such numbers that disagree on the part, it is not settled. An
item that leaves people out in its own words ("… - those who opted for early retirement do not
qualify") fails where the situation says them (`left_out`).
"""

from __future__ import annotations

import re

from ..text.sentences import split_sentences
from .binding import lemma, subject_words

MONTHS = {m: i for i, m in enumerate("january february march april may june july august september october november december".split(), 1)}
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_NUM = r"\d[\d,]*(?:\.\d+)?"
_PARTS = re.compile(r",?\s+and\s+(?=(?:you|your|you’re|you're|they|their)\b)", re.I)
_BOUND_BEFORE = re.compile(
    r"\b(?P<op>at\s+least|more\s+than|over|above|under|below|less\s+than|fewer\s+than|up\s+to|no\s+more\s+than|not\s+more\s+than"
    r"|at\s+most|a\s+minimum\s+of|a\s+maximum\s+of|no\s+fewer\s+than|no\s+less\s+than)\s+(?<![£$])(?P<n>"
    + _NUM
    + r")\s*-?\s*(?P<unit>[a-z]+)",
    re.I,
)
_BOUND_AFTER = re.compile(
    r"(?<![£$\d.,])(?P<n>" + _NUM + r")\s*-?\s*(?P<unit>[a-z]+)[’']?\s+or\s+(?P<op>more|over|above|less|under|fewer|below)\b", re.I
)
_AGE_ITEM = re.compile(
    r"\b(?:be|are|you[’']re|aged?|is|they[’']re)\s+(?:aged\s+)?(?:(?P<n>\d{1,3})\s+or\s+(?P<op>over|older|under|younger|above|below)"
    r"|(?P<op2>over|under|older\s+than|younger\s+than)\s+(?:the\s+age\s+of\s+)?(?P<n2>\d{1,3})\b(?!\s*(?:%|per|cc|hours|weeks|months)))",
    re.I,
)
_AGE_SAID = re.compile(
    r"\b(?:i\s+am|i[’']m|we\s+are|aged|age)\s+(?P<a>\d{1,3})\b(?!\s*(?:%|cc|hours|weeks|months|days|years?\s+(?:of|in|at|with|ago)))"
    r"|\b(?P<b>\d{1,3})\s*-?\s*years?\s*-?\s*old\b",
    re.I,
)
_DATE_ITEM = re.compile(
    r"\b(?P<op>on\s+or\s+before|on\s+or\s+after|before|after|since|from|by|until)\s+(?:the\s+)?"
    r"(?P<date>(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:" + _MONTH + r"\s+)?(?:19|20)\d{2})\b",
    re.I,
)
_DATE_SAID = re.compile(
    r"(?:(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:(?P<m>" + _MONTH + r")\s+(?:of\s+)?)?(?P<y>(?:19|20)\d{2})\b", re.I
)
_TIME_UNITS = frozenset("year month week day hour".split())
_UNIT_WORDS = frozenset("year month week day hour passenger seat employee worker people person cc mile kilometre kg tonne".split())
_DATE_WORDS = frozenset(MONTHS) | {"before", "after", "since", "date"}


def _unit(word: str) -> str:
    w = word.lower().strip("’'")
    return "cc" if w == "cc" else lemma(w)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


_GE = frozenset({"at least", "a minimum of", "no fewer than", "no less than"})
_GT = frozenset({"more than", "over", "above", "older than"})
_LT = frozenset({"under", "below", "less than", "fewer than", "younger than"})


def _compare(value: float, op: str, bound: float) -> bool:
    """Whether ``value`` is within the bound ``op`` ``bound`` ("at least 2", "up to 50")."""
    op = " ".join(op.lower().split())
    if op in _GE:
        return value >= bound
    if op in _GT:
        return value > bound
    if op in _LT:
        return value < bound
    return value <= bound  # up to, no more than, at most, a maximum of


def _suffix_op(op: str) -> str:
    """ "N or more" is at least N; "N or under" is at most N."""
    return "at least" if op.lower() in ("more", "over", "above", "older") else "at most"


def _telling(text: str) -> set[str]:
    return {lemma(w) for w in subject_words(text)}


def _numbers_said(situation: list[str], unit: str) -> list[tuple[float, str]]:
    """(number, its sentence) for each number the situation says with ``unit`` among the three
    words after it."""
    found = []
    for s in situation:
        for m in re.finditer(r"(?<![£$\d.,])(" + _NUM + r")\s*-?\s*((?:[A-Za-z’']+[\s-]+){0,2}[A-Za-z’']+)?", s):
            after = [_unit(w) for w in re.split(r"[\s-]+", m.group(2) or "") if w]
            if unit in after[:3]:
                found.append((_number(m.group(1)), s))
    return found


def _bound(part: str, situation: list[str]) -> bool | None:
    m = _BOUND_BEFORE.search(part)
    op = m["op"] if m else None
    if m is None:
        m = _BOUND_AFTER.search(part)
        op = _suffix_op(m["op"]) if m else None
    if m is None or op is None:
        return None
    unit = _unit(m["unit"])
    if unit not in _UNIT_WORDS:
        return None
    bound = _number(m["n"])
    rest = _telling(part) - {unit} - _DATE_WORDS
    verdicts = {
        _compare(n, op, bound) for n, s in _numbers_said(situation, unit) if unit not in _TIME_UNITS or rest & (_telling(s) - {unit})
    }
    return verdicts.pop() if len(verdicts) == 1 else None


def _date_tuple(d: str | None, m: str | None, y: str) -> tuple[int, int | None, int | None]:
    return int(y), MONTHS.get((m or "").lower()), int(d) if d else None


def _before(a: tuple, b: tuple) -> bool | None:
    """Whether date ``a`` is before ``b``, as far as both say; None where they cannot tell (same
    year, a month unsaid)."""
    for x, y in zip(a, b, strict=True):
        if x is None or y is None:
            return None
        if x != y:
            return x < y
    return False  # the same day


def _date(part: str, situation: list[str]) -> bool | None:
    m = _DATE_ITEM.search(part)
    if m is None:
        return None
    dm = _DATE_SAID.search(m["date"])
    if dm is None:
        return None
    bound = _date_tuple(dm["d"], dm["m"], dm["y"])
    op = " ".join(m["op"].lower().split())
    event = _telling(" ".join(part[: m.start()].split()[-4:])) - _DATE_WORDS  # "your car driving test" before "before"
    verdicts = set()
    for s in situation:
        if not event or not event <= _telling(s):
            continue
        for said in _DATE_SAID.finditer(s):
            when = _date_tuple(said["d"], said["m"], said["y"])
            before = _before(when, bound)
            after = _before(bound, when)
            if before is None or after is None:
                continue
            same = not before and not after
            if op in ("before", "until"):
                verdicts.add(before)
            elif op in ("on or before", "by"):
                verdicts.add(before or same)
            elif op == "after":
                verdicts.add(after)
            else:  # on or after, since, from
                verdicts.add(after or same)
    return verdicts.pop() if len(verdicts) == 1 else None


def _age(part: str, situation: list[str]) -> bool | None:
    m = _AGE_ITEM.search(part)
    if m is None:
        return None
    if m["n"]:
        op, bound = _suffix_op(m["op"]), _number(m["n"])
    else:
        op, bound = m["op2"].lower(), _number(m["n2"])
    ages = {_number(a["a"] or a["b"]) for s in situation for a in _AGE_SAID.finditer(s)}
    verdicts = {_compare(a, op, bound) for a in ages}
    return verdicts.pop() if len(verdicts) == 1 else None


def settle_part(part: str, situation: list[str]) -> bool | None:
    """Whether the situation meets one part of an item, where a number, date or age settles it."""
    for settle in (_date, _age, _bound):
        said = settle(part, situation)
        if said is not None:
            return said
    return None


_LEFT_OUT = re.compile(
    r"\s[-–—]\s+(?P<who>[^-–—]{4,120}?)\s+(?:do|does|will|can|would)\s*(?:not|n[’']t)\s+(?:qualify|count|apply|get|be\s+eligible)\b", re.I
)
_LEFT_OUT_WORDS = frozenset("qualify count apply get eligible those people who anyone someone".split())


def left_out(item: str, situation: list[str]) -> bool:
    """Whether the item's own exception says the user ("have been dismissed … - those who opted
    for early retirement do not qualify" for "I decided on early retirement"): two of its
    telling words, and half of them, in one of the situation's sentences."""
    m = _LEFT_OUT.search(item)
    if m is None:
        return False
    want = _telling(m["who"]) - _LEFT_OUT_WORDS
    return len(want) >= 2 and any(len(want & _telling(s)) >= max(2, -(-len(want) // 2)) for s in situation)


_SPELLED = {
    w: str(n)
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
        "eighteen nineteen twenty".split()
    )
}
_SPELLED_NUMBER = re.compile(r"\b(" + "|".join(_SPELLED) + r")\b(?=[\s-]+[a-z])", re.I)


def in_digits(text: str) -> str:
    """``text`` with a number spelled before a word written in digits ("more than four hours" →
    "more than 4 hours", "three hours" → "3 hours"), as the bounds are read."""
    return _SPELLED_NUMBER.sub(lambda m: _SPELLED[m.group(1).lower()], text)


def settle_in_code(item: str, situation: tuple[str, ...] | list[str]) -> bool | None:
    """Whether the situation meets ``item`` (the module doc): True, False, or None where code
    cannot tell. Numbers spelled out are read as digits (`in_digits`)."""
    item = in_digits(item)
    said = [in_digits(s) for x in situation for s in split_sentences(x)] or [in_digits(x) for x in situation]
    if left_out(item, said):
        return False
    parts = [settle_part(p, said) for p in _PARTS.split(item) if p.strip()]
    if any(p is False for p in parts):
        return False
    if parts and all(p is True for p in parts):
        return True
    return None
