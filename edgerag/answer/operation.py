"""The arithmetic a question asks, from its grammar alone (issue #63, item 3): which operation,
the things it names apart, the years it names, and the rounding asked.

    "What was the change in Services revenue from 2018 to 2019?"        → change, years 2018 2019
    "What is the percentage change in net income between 2018 and 2019?" → percent_change
    "What is the average cable expenditure?"                             → average
    "What is the total net revenue for fiscal 2017 and fiscal 2018?"     → sum
    "What is the ratio of A to B in 2019?"                               → ratio, parts (A, B)
    "What is A as a percentage of B in 2019?"                            → proportion, parts (A, B)
    "What is the difference between A and B in 2019?"                    → difference, parts (A, B)
    "What was the combined capital expenditure of A and B in 2019?"      → sum, parts (A, B)
    "By how much does membership fee income change from Q3 to Q4?"       → change, periods Q3 Q4

A quarter, half or month named is a period with its year (periods.py); a question naming none has
its years as its periods. Two parts split at an "and" keep the words they were split from: a
table's row labels may hold "and" ("Research and development"), and operands.py splits there.

"total" names a sum only where the question names two or more things to add (two years, "A and
B"): "What was the total revenue in 2019?" asks a row's cell (arithmetic.py decides so). A
question whose operation is not one of these gives None, and the model reads it as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .periods import YEAR, Period, periods_asked, year_of

OPERATIONS = (
    "percent_change",
    "change",
    "difference",
    "average",
    "sum",
    "ratio",
    "proportion",
    "which_year",
    "count_years",
    "years_over",
    "count_rows",
)
_NOT_A_NUMBER = re.compile(
    r"^\s*(?:why|how\s+(?!much\b|many\b|fast\b)|what\s+(?:caused|led|drove|drives|contributed|resulted|explains|accounted|were\s+the\s+(?:main\s+|primary\s+|key\s+)?(?:reasons|factors|causes|drivers)"
    r"|was\s+the\s+(?:main\s+|primary\s+|key\s+)?(?:reason|cause|driver|factor)|are\s+the\s+(?:main\s+|primary\s+|key\s+)?(?:reasons|factors|causes|drivers)|accounts?\s+for|does|do|did)|which\s+(?!year\b))"
    r"|\brespective(?:ly)?\b|\breasons?\b|\bdue\s+to\b|\b(?:represent|represents|attributed\s+to|attributable\s+to|mean|means)\s*\??$",
    re.I,
)
"""A question that asks no number computed: a cause, a reason, a list ("respectively"), a name ("Which segment …")."""
_WHICH_YEAR = re.compile(
    r"\b(?:in\s+)?(?:which|what)\s+(?:of\s+the\s+(?:last|past)\s+\w+\s+(?:fiscal\s+)?years|(?:fiscal\s+)?year)\b.*?\b(?P<dir>largest|highest|most|greatest|biggest|higher|larger|greater|more|"
    r"lowest|smallest|least|lower|smaller|fewer|less)\b(?!\s+(?:than\s+)?[-$€£\d])",
    re.I,
)
_EITHER_YEAR = re.compile(
    r"^\s*(?:was|were|is|are|did|does|do|has|had|have)\b.*?\b(?P<dir>largest|highest|most|greatest|biggest|higher|larger|greater|more|"
    r"lowest|smallest|least|lower|smaller|fewer|less)\b(?!\s+than\b).*?\b(?:in\s+)?(?:(?:19|20)\d{2}|FY\s?\d{2,4})\s*,?\s+or\s+(?:in\s+)?(?:(?:19|20)\d{2}|FY\s?\d{2,4})\s*\??\s*$",
    re.I,
)
"""Which of two years a row's value was larger in, asked yes-no-wise: "Was the profit for the
financial year higher in 2022 or in 2023?", "Did the group sell more electricity in 2022 or in 2023?"."""
_MOVED = re.compile(
    r"\b(?:rise|rose|risen|grow|grew|grown|increase[sd]?|fall|fell|fallen|drop(?:ped)?|decline[sd]?|change[sd]?|improve[sd]?"
    r"|shr[ai]nk|shrunk|expand(?:ed)?|go(?:ne)?\s+(?:up|down)|went\s+(?:up|down)|than)\b",
    re.I,
)
"""A move "by how much" asks of: a verb of rising or falling, or a comparison ("more … than a year earlier")."""
_YEAR_CHOICE = re.compile(
    r"\b(?:in\s+)?(?:(?:19|20)\d{2}|FY\s?\d{2,4})\s*,?\s+or\s+(?:in\s+)?(?:(?:19|20)\d{2}|FY\s?\d{2,4})\s*\??\s*$", re.I
)
"""A question that ends asking one of two years: a choice, never a number computed."""
_NOT_EITHER = re.compile(
    r"\b(?:grow|grew|grown|growth|rise|rose|risen|increase[sd]?|fall|fell|fallen|decline[sd]?|drop(?:ped)?|change[sd]?|faster|slower"
    r"|share|percentage|percent|proportion|margin|ratio|rate|per)\b",
    re.I,
)
"""A comparison of two years' changes or shares ("Did revenue grow more in 2022 or in 2023?", "Were
staff costs a larger share of revenue …?"): not of the row's values, so not `_EITHER_YEAR`'s."""
_COUNT_YEARS = re.compile(
    r"^\s*how\s+many\s+(?:fiscal\s+)?years\b.*?\b(?P<dir>exceed(?:ed|s)?|above|over|greater\s+than|more\s+than|higher\s+than|at\s+least|below|under|less(?:\s+than)?|lower\s+than)"
    r"\s+(?P<amount>[$€£]?\s?-?\d[\d,]*(?:\.\d+)?)\s*(?P<scale>%|million|thousand|billion|m\b|bn\b|k\b)?",
    re.I,
)
_YEARS_OVER = re.compile(
    r"\b(?:in\s+)?(?:which|what)\s+(?:fiscal\s+)?years?\b.*?\b(?P<dir>exceed(?:ed|s)?|above|over|greater\s+than|more\s+than|higher\s+than|at\s+least|below|under|less(?:\s+than)?|lower\s+than)"
    r"\s+(?P<amount>[$€£]?\s?-?\d[\d,]*(?:\.\d+)?)\s*(?P<scale>%|million|thousand|billion|m\b|bn\b|k\b)?",
    re.I,
)
"""A year, or several, a row's value passes a bound in: "In which year was the risk free rate more than 2.0%?"."""
_YEARS_SIGNED = re.compile(r"\b(?:in\s+)?(?:which|what)\s+(?:fiscal\s+)?years?\b.*?\b(?P<dir>negative|positive)\b", re.I)
_COUNT_SIGNED = re.compile(r"^\s*how\s+many\s+(?:fiscal\s+)?years\b.*?\b(?P<dir>negative|positive)\b", re.I)
"""The same with 0 as the bound: "In which year was X negative?", "How many years was there a positive net profit?"."""
_ARITHMETIC_WORDS = re.compile(r"\b(?:change|difference|percentage|percent|average|ratio|proportion|increase|decrease)\b", re.I)
"""A "which year" question that asks of a computed value ("the lowest percentage difference …"): not a row's cells compared."""
_LOW = ("lowest", "smallest", "least", "lower", "smaller", "fewer", "less", "below", "under", "less than", "lower than")
_YEAR = YEAR
_GRAMMAR: list[tuple[str, re.Pattern[str]]] = [
    (
        "percent_change",
        re.compile(
            r"(?:\b(?:percentage|percent)|%)\s+(?:change|increase|decrease|growth|decline|rise|drop|fall|movement|variance|difference)\b"
            r"|\b(?:change|increase|decrease|variance|movement|growth)\s+in\s+(?:percentage|percent)\b|\bby\s+what\s+(?:percentage|percent)\b|\bgrowth\s+rate\b"
            r"|\bpercentage\s+(?:increase|change)\s*/\s*\(?decrease\)?|\bby\s+how\s+(?:much|many)\s+percent"
            r"|\bhow\s+fast(?=\s+(?:did|has|had|have|does|do)\b.*\b(?:grow|rise|fall|drop|increase|decrease|decline|shrink)\b)",
            re.I,
        ),
    ),
    (
        "ratio",
        re.compile(
            r"\bratio\b|\bhow\s+many\s+times\s+(?:did|does|do)\b.*\bcover\b"
            r"|\bhow\s+many\s+times\s+(?:larger|bigger|greater|higher|more|as\s+(?:large|big|much|high|great))\b|\b(?:was|were|is|are)\s+how\s+many\s+times\b",
            re.I,
        ),
    ),
    (
        "proportion",
        re.compile(
            r"(?:\b(?:as\s+a\s+)?(?:percentage|proportion|percent|share|fraction)|%)\s+(?:of|constitution\s+of)\b"
            r"|\bwhat\s+(?:(?:percentage|proportion|percent|fraction)\b|%)|\b(?:percentage|proportion)\s+(?:does|did|do|is|was)\b",
            re.I,
        ),
    ),
    ("average", re.compile(r"\b(?:average|mean)\b", re.I)),
    ("difference", re.compile(r"\bdifference\b|\bhow\s+(?:much|many)\s+(?:more|less|fewer|higher|lower|greater|bigger|smaller)\b", re.I)),
    (
        "change",
        re.compile(
            r"\b(?:change[sd]?|increase[sd]?|decrease[sd]?|growth|decline[sd]?|movement|variance)\b"
            r"|\bhow\s+much\s+(?:did|has|had|have|does|do)\b.*\b(?:rise|rose|fall|fell|grow|grew|drop|dropped|go\s+up|go\s+down)\b"
            r"|\bby\s+how\s+much\b(?!.*\b(?:exceed|surpass|outstrip|beat|top|miss)\w*\b)",
            re.I,
        ),
    ),
    ("sum", re.compile(r"\b(?:total|sum|combined|altogether|together|in\s+all|aggregate)\b", re.I)),
]
_OVER = re.compile(  # "the proportion of the value of finished goods over total inventories": A over B, never "over the years"
    r"\b(?:percentage|proportion|percent|share|fraction)\s+of\s+(?:the\s+)?(?:(?:value|amount)\s+of\s+(?:the\s+)?)?(?P<a>[^?]+?)"
    r",?\s+over\s+(?!(?:the\s+)?(?:years?|periods?|time)\b)(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
    re.I,
)
_PARTS: list[re.Pattern[str]] = [
    re.compile(  # "How many times larger was Networks EBITDA than water EBITDA in 2023?": A / B
        r"\bhow\s+many\s+times\s+(?:larger|bigger|greater|higher|more)\s+(?:was|were|is|are)\s+(?:the\s+)?(?P<a>.+?)\s+than\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "Data revenue was how many times voice revenue in 2023?": A / B
        r"^\s*(?:the\s+)?(?P<a>[^?,]+?)\s+(?:was|were|is|are)\s+how\s+many\s+times\s+(?:as\s+(?:large|big|much|high)\s+as\s+)?(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "How many times did operating profit cover finance costs in 2024?": A / B
        r"\bhow\s+many\s+times\s+(?:did|does|do)\s+(?:the\s+)?(?P<a>.+?)\s+cover\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "What share of total net sales did Oncology account for in H1 2024?": the part after the whole
        r"\b(?:percentage|proportion|percent|share|fraction)\s+of\s+(?:the\s+)?(?P<b>.+?)\s+(?:did|does|do)\s+(?:the\s+)?(?P<a>.+?)\s+(?:account|make\s+up|represent)(?:\s+for)?\b",
        re.I,
    ),
    re.compile(  # "What percentage of total revenue was Americas revenue in 2019?": the part first, the whole after "of"
        r"\bwhat\s+(?:percentage|proportion|percent|share|fraction)\s+of\s+(?:the\s+)?(?P<b>.+?)\s+(?:was|is|were|are|came\s+from|comes\s+from|went\s+(?:on|to|into)|goes\s+(?:on|to|into)|go\s+(?:on|to|into)|was\s+spent\s+on)\s+(?:the\s+)?(?P<a>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(
        r"\bratio\s+(?:of\s+)?(?:the\s+)?(?P<a>.+?)\s+(?:to|and|against|over)\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during|of\s+(?:fy|fiscal|19|20))\b|[?,]|$)",
        re.I,
    ),
    re.compile(
        r"(?:\bof\s+)?(?:the\s+)?(?P<a>[^?,]+?)\s+as\s+a\s+(?:percentage|proportion|percent|share|fraction)\s+of\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    _OVER,
    re.compile(
        r"\b(?:percentage|proportion|percent|share|fraction)\s+(?:constitution\s+)?of\s+(?:the\s+)?(?P<a>.+?)\s+(?:in|to|of|among|within|out\s+of)\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(
        r"\b(?:difference|change)\s+(?:in\s+|of\s+)?(?:the\s+)?(?:[^?]*?\s+)?between\s+(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "the sum of total revenue and total other income for FY19": two rows added
        r"\b(?:sum|total)\s+of\s+(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(
        r"\bdifference\s+(?:in|of)\s+(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+?)(?=\s+(?:of|in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "the combined capital expenditure of Northern Europe and Central Europe in 2019": A and B added
        r"\bcombined\s+(?:[^?,]+?\s+)?(?:of|for|from)\s+(?:the\s+)?(?P<a>[^?,]+?)\s+and\s+(?:the\s+)?(?P<b>[^?,]+?)(?=\s+(?:in|for|at|as\s+of|during)\b|[?,]|$)",
        re.I,
    ),
    re.compile(  # "What were Northern Europe and Central Europe combined in 2019?", "… of A and B combined"
        r"(?:\b(?:of|for|from)\s+|^\s*(?:what|how\s+much)\s+(?:is|was|were|are|did)\s+)(?:the\s+)?(?P<a>[^?,]+?)\s+and\s+(?:the\s+)?(?P<b>[^?,]+?)\s+combined\b",
        re.I,
    ),
]
_PERIOD_WORDS = re.compile(
    r"\b(?:the|of|and|fiscal|financial|year|Q[1-4]|H[12]|first|second|third|fourth|1st|2nd|3rd|4th|quarters?|half|halves)\b", re.I
)
_ROUND = re.compile(
    r"\b(?:to|in|with|rounded\s+to)\s+(?:the\s+nearest\s+)?(?P<n>one|two|three|zero|no|\d)\s+decimal(?:\s+places?|s)?\b|\bnearest\s+(?P<whole>whole|integer|percent|dollar|unit)\b",
    re.I,
)
_AS_PERCENT = re.compile(r"\b(?:as\s+a|in)\s+(?:percentage|percent|%)(?:\s+terms)?\s*\??$", re.I)
_PER_CENT = re.compile(r"\bper\s+cent\b", re.I)
""""per cent" as British and Irish reports write it: "percent" to every pattern here."""
_COMPOSITE = re.compile(
    r"\b(?:change|difference|increase|decrease)\s+(?:in|of|between)\s+(?:the\s+)?(?:average|mean|total\s+of\s+the)\b"
    r"|\b(?:average|mean)\s+(?:annual\s+|yearly\s+|year[- ](?:on|over)[- ]year\s+)?(?:change|increase|decrease|growth|difference)\b"
    r"|\b(?:percentage|percent)\s+(?:change|difference|increase|decrease)\b.*\bas\s+a\s+(?:percentage|proportion)\s+(?:of|to)\b",
    re.I,
)
_SET_ASIDE = re.compile(r",\s*(?:excluding|including|except(?:\s+for)?|net\s+of)\b(?:[^,?]|,\d)*,", re.I)
"""A clause setting a thing aside between commas: its words ask no operation."""
POINTS = re.compile(r"\bpercentage[\s-]+points?\b|\bp\.?p\.?(?=\s|\?|$)|\bbasis\s+points?\b", re.I)
"""A change asked in points of a rate ("percentage points", "pp"): the difference of two percentages, not a percentage change."""
_LEFT_OUT = re.compile(
    r"\s*(?:leaving\s+out|leave\s+out|setting\s+aside|set\s+aside|excluding|not\s+counting|apart\s+from|other\s+than|except\s+for|"
    r"without|ignoring|stripping\s+out|taking\s+out)\b[^,?]+,",
    re.I,
)
"""A question that opens by leaving a part out ("Leaving out UEFA money, how much did revenue grow?"): it asks a
total less that part, which no one row holds; code computes none, rather than the total's."""
_WORD_N = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3}


@dataclass(frozen=True)
class Operation:
    """What a question asks to compute."""

    op: str
    """One of `OPERATIONS`."""
    parts: tuple[str, ...] = ()
    """Two things the question names apart, in its order ("A", "B" of "the ratio of A to B"); () when it names one."""
    years: tuple[int, ...] = ()
    """The years it names, in its order."""
    decimals: int = 2
    """Decimal places asked (2 unless the question says otherwise, as reports' analysts round)."""
    cue: str = ""
    """The words that asked it ("percentage change", "average"): a label may hold them instead ("Weighted average shares")."""
    low: bool = False
    """For ``which_year``, ``count_years`` and ``years_over``: the lowest wins, or values below the bound count."""
    bound: float | None = None
    """For ``count_years`` and ``years_over``: the amount compared with ("exceed $2,000 million": 2000), in the table's scale as written."""
    label_says: str = ""
    """A word the bound row or column must say: "the change in the average prices … in 2019 from
    2018" reads a row of averages ("average"), never a change of averages computed over periods."""
    periods: tuple[Period, ...] = ()
    """The parts of years it names, with their years ("Q3 and Q4 2020": Q3 2020, Q4 2020;
    periods.py), in its order; () where it names none: its years are its periods."""
    joined: str = ""
    """The words its two parts were split from at an "and" ("research and development and sales
    and marketing expenses"): a table's row labels may split them elsewhere (operands.py)."""


_SPLIT_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})\s?/\s?((?:19|20)?\d{2})(?!\d|,\d)")
"""A fiscal year across two calendar years ("2018/2019", "2018/19"): named by the year it ends in."""


def _ended(m: re.Match[str]) -> str:
    first = int(m.group(1))
    second = int(m.group(2)) if len(m.group(2)) == 4 else first // 100 * 100 + int(m.group(2))
    second += 100 if second < first else 0  # "1999/00" ends in 2000
    return str(second) if second == first + 1 else m.group()


def splits_a_year(text: str) -> bool:
    """Whether ``text`` names a split fiscal year ("2018/2019")."""
    return any(_ended(m) != m.group() for m in _SPLIT_YEAR.finditer(text))


SAID_NUMBER = re.compile(r"(?<![\w.,/])\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)*(?![\w.,/]*\d)")
"""A number a label or header names a thing by ("Level 2", "28 nanometers", "0.11/0.13 micron")."""


def said_numbers(text: str) -> set[str]:
    """The numbers ``text`` names things by (`SAID_NUMBER`), years aside."""
    return {n for n in SAID_NUMBER.findall(text) if not re.fullmatch(r"(?:19|20)\d{2}", n)}


def years_in(text: str) -> tuple[int, ...]:
    """Every year ``text`` names, in order, once each; a split fiscal year ("2018/2019") as the
    year it ends in, as a question and a table's header both name it."""
    text = _SPLIT_YEAR.sub(_ended, text)
    out = [y for m in _YEAR.finditer(text) if (y := year_of(m.group())) is not None]
    return tuple(dict.fromkeys(out))


_RANGE = re.compile(rf"(?P<a>{_YEAR.pattern})\s*(?:-|–|to|through)\s*(?P<b>{_YEAR.pattern})", re.I)


_BETWEEN = re.compile(rf"\bbetween\s+(?:(?:fiscal\s+)?years?\s+)?(?P<a>{_YEAR.pattern})\s+and\s+(?P<b>{_YEAR.pattern})", re.I)
"""A span of years an average is asked over ("between 2017 and 2019": 2017, 2018 and 2019)."""


def years_spanned(text: str) -> tuple[int, ...]:
    """The years ``text`` names, a range ("2017-2019", "2017 to 2019") with the years inside it."""
    out = list(years_in(text))
    for m in _RANGE.finditer(text):
        a, b = year_of(m["a"]), year_of(m["b"])
        if a is not None and b is not None and 1 < abs(b - a) <= 10:
            out += range(min(a, b), max(a, b) + 1)
    return tuple(dict.fromkeys(out))


def _decimals(question: str) -> int:
    m = _ROUND.search(question)
    if m is None:
        return 2
    if m["whole"]:
        return 0
    return _WORD_N.get(m["n"].lower(), int(m["n"]) if m["n"].isdigit() else 2)


def names_a_period(text: str) -> bool:
    """Whether ``text`` names only a part of a year ("Q3", "the fourth quarter of 2018"): a part a
    table's rows may name ("First Quarter"), or its columns (operands.py)."""
    return bool(periods_asked(text)) and not _YEAR.sub("", _PERIOD_WORDS.sub("", text)).strip(" ,")


def _parts(question: str) -> tuple[tuple[str, ...], str]:
    """The two things ``question`` names apart, and the words they were split from at an "and" ("" else)."""
    for pattern in _PARTS:
        m = pattern.search(question)
        if m:
            a, b = (" ".join(m[x].split()).strip(" '\"") for x in ("a", "b"))
            bare = [x for x in (a, b) if years_in(x) and not _YEAR.sub("", x).strip(" ,")]
            if a and b and not bare and "between" not in a.lower().split():
                joined = re.match(r"\s+and\s+(?:the\s+)?$", question[m.end("a") : m.start("b")], re.I)
                return (a, b), " ".join(question[m.start("a") : m.end("b")].split()) if joined else ""
    return (), ""


def which_year(question: str) -> tuple[Operation, tuple[str, ...]] | None:
    """ "In which year was X smallest?" read whatever words X has, and the words of arithmetic it
    says ("Weighted *average* grant-date fair value": a row's own word, or a computation's)."""
    m = _WHICH_YEAR.search(question) or (_EITHER_YEAR.search(question) if not _NOT_EITHER.search(question) else None)
    if m is None:
        return None
    said = tuple(w.lower() for w in _ARITHMETIC_WORDS.findall(question))
    return Operation("which_year", (), years_in(question), 0, m["dir"], m["dir"].lower() in _LOW), said


def _an_averages_row(composite: str, question: str) -> bool:
    """ "the change in the average prices … in 2019 from 2018": maybe a change of one row of
    averages between two single years (bound only where its row or column says "average":
    `Operation.label_says`), not a change of averages over periods ("between 2017-2018, and
    2018-2019")."""
    return (
        bool(re.match(r"change|difference|increase|decrease", composite, re.I))
        and len(years_in(question)) == 2
        and not _RANGE.search(question)
    )


_EXPECTED = re.compile(
    r"\b(?:does|do|did|will)\s+(?:the\s+)?(?:company|group|bank|management|board|it|we|they)\s+(?:now\s+|still\s+)?"
    r"(?:expect|forecast|anticipate|project|target|plan|guide)\b",
    re.I,
)
"""A question of what the report expects ("What growth … does the company now expect for 2024?"): a
forecast the text states, never a change computed from the cells of past periods."""
SUM_INSIDE = re.compile(r"\bplus\b|\s\+\s|\bminus\b|\bless\b(?!\s+than)", re.I)
"""A part that is itself a sum ("total income (net interest income plus other income)"): one row
bound for it would be the wrong denominator, so arithmetic.py computes nothing (the check still
knows a proportion is asked, derived.py)."""


def operation(question: str) -> Operation | None:
    """The operation ``question`` asks (the module doc), or None."""
    question = _PER_CENT.sub("percent", question)
    if _EXPECTED.search(question):
        return None
    if (w := which_year(question)) and not w[1]:
        return w[0]
    for name, pattern in (("count_years", _COUNT_YEARS), ("years_over", _YEARS_OVER)):
        if m := pattern.search(question):
            bound = float(re.sub(r"[^\d.-]", "", m["amount"]))
            return Operation(name, (), years_in(question), 0, m["dir"], " ".join(m["dir"].lower().split()) in _LOW, bound)
    for name, pattern in (("count_years", _COUNT_SIGNED), ("years_over", _YEARS_SIGNED)):
        if m := pattern.search(question):  # "In which year was X negative?": the years below 0
            return Operation(name, (), years_in(question), 0, m["dir"], m["dir"].lower() == "negative", 0.0)
    if _NOT_A_NUMBER.search(question) or _YEAR_CHOICE.search(question):
        return None  # a cause, a name, or a choice of two years not read as a row's values ("Did costs increase more in 2022 or 2023?")
    if _LEFT_OUT.match(question):
        return None  # "Leaving out UEFA money, how much did revenue grow?": a total less a part, which no row is
    asked = _SET_ASIDE.sub(" ", question)  # "excluding the increase in other costs of $0.4 million, what is …": no change asked
    found = [(m.start(), n, op, m.group()) for n, (op, pattern) in enumerate(_GRAMMAR) if (m := pattern.search(asked))]
    if not found:
        return None
    composite = _COMPOSITE.search(question)
    if composite and not _an_averages_row(composite.group(), question):
        return None  # "the change in the average bookings": one operation over the other's results
    _, _, op, cue = min(found)  # the first cue: "the change in the weighted average number of shares" is a change
    if op == "sum" and (other := [f for f in found if f[2] != "sum"]):
        _, _, op, cue = min(other)  # "the total Term Loan Facility as a percentage of …": "total" names the row, not a sum
    if op == "change" and cue.lower().startswith("by how much") and not _MOVED.search(question):
        return None  # "by how much did the lines under budget miss their plan": no move of one row asked
    percent = next((f for f in found if f[2] == "percent_change"), None)
    if percent is not None and POINTS.search(question):
        op, cue = "change", percent[3]  # "By how many percentage points did punctuality improve?": the rates' difference
    elif percent is not None:
        op, cue = "percent_change", percent[3]  # "the total percentage change": a percentage change
    elif op == "change" and _AS_PERCENT.search(question):
        op = "percent_change"  # "the change in revenue … as a percentage"
    if op == "proportion" and (over := _OVER.search(question)) and over.group().lower().startswith("proportion"):
        op = "ratio"  # "the proportion of A over B": A / B as a fraction, as reports' analysts write it (0.65)
    years = years_spanned(question) if op in ("average", "sum") else years_in(question)
    if op == "average" and (m := _BETWEEN.search(question)):
        a, b = year_of(m["a"]), year_of(m["b"])
        if a is not None and b is not None and 1 < abs(b - a) <= 10:  # "the average … between 2017 and 2019": every year of it
            years = tuple(dict.fromkeys((*years, *range(min(a, b), max(a, b) + 1))))
    parts, joined = _parts(question)
    if op == "proportion" and len(parts) == 2 and len(parts[0].split()) == 1 and len(parts[1].split()) > 1:
        parts = (f"{parts[0]} {parts[1].split()[-1]}", parts[1])  # "What percentage of gross revenue was recurring?": recurring revenue
    periods = periods_asked(question) or tuple(Period(y) for y in years)
    label_says = "average" if composite else ""
    return Operation(op, parts, years, _decimals(question), cue, label_says=label_says, periods=periods, joined=joined)
