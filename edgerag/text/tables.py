"""Questions over a table's column, decided in code from its row lines (text/rows.py): the row
with a column's largest or smallest value, the row's other column, and a comparison of rows the
question names, as answer/compare.py decides a comparison of two passages.

    "Which project has the largest budget?"            → the Project of the row with most Budget
    "Who leads the project with the largest budget?"   → that row's Lead
    "Which project ends first?"                        → the earliest End
    "Which is cheaper, the centrifuge or the freezer?" → the two rows' Price, the smaller
    "Is the centrifuge cheaper than the freezer?"      → yes or no

`table_answer` finds the row lines in the texts it is given, groups them by table (caption and
first header), and decides:

1. **The direction** from the question's superlative or comparative: largest / most / highest /
   more expensive … (the most), smallest / least / cheapest / fewer … (the least), first /
   earliest / sooner (the earliest date), last / latest / most recent (the latest), oldest /
   newest (a date, or an age).
2. **The column compared** from the header words the question uses, nearest the cue first
   ("largest *budget*", "*ends* first" → End), else the column the cue implies ("cheaper" → a
   price / cost / fee column, "ends first" → end / finish / until / completion / due, "starts"
   → start / begin / from, "heaviest" → weight); its values must all read as numbers of one
   unit or as dates (text/cells.py). A question that names no such column gives None.
3. **The rows**: those the question names (a cell's text in the question: "the centrifuge or
   the freezer", "in room B-2"), else every row of the table.
4. **The column returned**: "who" → a lead / owner / manager / name column (or one whose header
   the question uses: "leads" → Lead); "when" → a date column; "where" → room / site / location;
   "which *room*" → the column headed so; "how much" or the compared column named after "what
   is the" → the compared value; else the row's first column (its name).

Equal values, values of different units, dates equal at the precision both are written with,
and a day-first reading that disagrees with a month-first one ("03/04/2026") decide nothing:
None, and the model reads the rows as before. The decision is only as complete as the rows it
is given: pass every row of the table (the chunks holding it), not only the best matches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .cells import Number, date, later, number, numeric_dates
from .dates import When
from .printed import yearish
from .row_scope import compared_rows
from .rows import SECTION_MARK
from .table_groups import Table, tables_in

_WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_MOST = "largest larger biggest bigger highest higher greatest greater most more maximum max top longest longer heaviest heavier tallest taller widest wider deepest deeper fastest faster costliest costlier priciest pricier"
_LEAST = "smallest smaller lowest lower least less fewest fewer minimum min shortest shorter lightest lighter cheapest cheaper slowest slower narrowest narrower shallowest shallower"
_EARLY = "earliest earlier first soonest sooner"
_LATE = "latest later last newest newer"
CUES: dict[str, tuple[str, str]] = {w: ("max", "number") for w in _MOST.split()}
CUES |= {w: ("min", "number") for w in _LEAST.split()}
CUES |= {w: ("min", "date") for w in _EARLY.split()} | {w: ("max", "date") for w in _LATE.split()}
CUES |= {"oldest": ("min", "age"), "older": ("min", "age"), "youngest": ("max", "age"), "younger": ("max", "age")}
CUES |= {"newest": ("max", "age"), "newer": ("max", "age")}
_PHRASES = {
    "most expensive": ("max", "number", "expensive"), "more expensive": ("max", "number", "expensive"),
    "least expensive": ("min", "number", "expensive"), "less expensive": ("min", "number", "expensive"),
    "most recent": ("max", "date", ""), "more recent": ("max", "date", ""), "most recently": ("max", "date", ""),
}  # fmt: skip
COMPARATIVE = {w for w in CUES if w.endswith("er") or w in ("more", "less", "fewer")}
"""The cue words that compare two ("larger", "more"), not rank all ("largest")."""
_IMPLIED = {
    "expensive": "price cost costs fee fees charge amount rate total value budget",
    "cheap": "price cost costs fee fees charge amount rate total value",
    "costly": "price cost costs fee", "pricey": "price cost", "costliest": "price cost", "priciest": "price cost",
    "cheaper": "price cost costs fee fees charge amount rate total value", "cheapest": "price cost costs fee fees charge amount rate total value",
    "long": "length duration", "longest": "length duration", "longer": "length duration",
    "short": "length duration", "shortest": "length duration", "shorter": "length duration",
    "heaviest": "weight mass", "heavier": "weight mass", "lightest": "weight mass", "lighter": "weight mass",
    "tallest": "height", "taller": "height", "widest": "width", "wider": "width", "deepest": "depth", "deeper": "depth",
    "fastest": "speed", "faster": "speed", "slowest": "speed", "slower": "speed",
    "oldest": "age bought purchased acquired founded built installed established opened year date since",
    "older": "age bought purchased acquired founded built installed established opened year date since",
    "newest": "age bought purchased acquired founded built installed established opened year date since",
    "newer": "age bought purchased acquired founded built installed established opened year date since",
    "youngest": "age born birth", "younger": "age born birth",
}  # fmt: skip
_VERBS = {
    "end": "end ends ending finish finishes completion complete until due deadline close closes closing expiry expires to",
    "finish": "end finish completion complete until due deadline",
    "complete": "end finish completion complete until due deadline",
    "close": "end close closing until deadline", "expire": "expiry expires end until",
    "start": "start starts begin begins beginning from since opened launch kickoff", "begin": "start begin beginning from since",
    "open": "opened opening start from", "launch": "launch launched start",
    "buy": "bought purchased purchase acquired", "bought": "bought purchased purchase acquired",
    "purchase": "bought purchased purchase acquired", "acquire": "bought purchased acquired",
    "found": "founded established", "build": "built", "built": "built", "install": "installed", "join": "joined hired since",
    "hire": "hired joined", "cost": "price cost costs fee", "pay": "price cost fee salary pay", "earn": "salary pay income earnings",
}  # fmt: skip
PEOPLE = "lead leader leads owner manager head responsible contact person pi chair coordinator supervisor author director by assignee who"
PLACES = "room location site place city building office address country lab where venue floor"
STOP = {"the", "a", "an", "of", "in", "on", "at", "to", "is", "was", "are", "were", "which", "what", "who", "whom", "whose", "has", "have", "had",
         "does", "do", "did", "with", "and", "or", "for", "by", "than", "that", "this", "it", "its", "be", "been", "one", "how", "much", "many", "when", "where"}  # fmt: skip


def stem(word: str) -> str:
    """A crude stem, enough to match a header: "ends" / "ending" → "end", "prices" → "pric"."""
    w = word.lower().strip("'")
    for end, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(end) and len(w) - len(end) >= 3 and not (end == "s" and w.endswith("ss")):
            w = w[: len(w) - len(end)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def words_in(text: str) -> list[str]:
    """``text``'s words, lower-cased, in order."""
    return _WORD.findall(text.lower())


VERB_STEMS = {stem(k): {stem(x) for x in v.split()} for k, v in _VERBS.items()}


@dataclass(frozen=True)
class TableDecision:
    """A question over a table decided in code."""

    answer: str
    """The value returned ("Atlas", "Maria Olsen"), or "yes" / "no"."""
    rows: tuple[str, ...]
    """The row lines it stands on: the deciding row first, then the rows it was compared with."""
    sources: tuple[str, ...]
    """For each of ``rows``, the first of the ``units_texts`` keys whose text holds it."""
    column: str
    """The header of the column compared."""
    returned: str
    """The header of the column the answer is read from ("" for yes / no)."""
    why: str


@dataclass
class _Cue:
    direction: str  # "max" or "min"
    kind: str  # "number", "date" or "age"
    at: int  # the cue's word position in the question
    word: str
    comparative: bool


def cue_in(words: list[str]) -> _Cue | None:
    """The question's first superlative or comparative."""
    for i in range(len(words) - 1):
        hit = _PHRASES.get(f"{words[i]} {words[i + 1]}")
        if hit:
            return _Cue(hit[0], hit[1], i + 1, hit[2] or words[i + 1], words[i] in ("more", "less"))
    for i, w in enumerate(words):
        if w in CUES:
            d, k = CUES[w]
            return _Cue(d, k, i, w, w in COMPARATIVE)
    return None


def _header_score(header: str, words: list[str], cue: _Cue) -> float:
    """How surely the question names ``header`` as the column compared: a header word just
    after the cue ("largest *budget*") 4, just before it 3, elsewhere 2; a column the cue or
    a verb near it implies ("cheaper" → price, "*ends* first" → end, until) 3 more."""
    hw = {stem(w) for w in words_in(header)}
    score = 0.0
    for i, w in enumerate(words):
        if w in STOP or stem(w) not in hw:
            continue
        score = max(score, 4.0 if cue.at < i <= cue.at + 3 else 3.0 if cue.at - 3 <= i < cue.at else 2.0)
    implied = {stem(x) for x in _IMPLIED.get(cue.word, "").split()}
    if implied & hw:
        score += 3.0
    for i in range(max(0, cue.at - 4), min(len(words), cue.at + 4)):
        verb = VERB_STEMS.get(stem(words[i]))
        if verb and verb & hw:
            score += 3.0
            break
    return score


@dataclass
class Column:
    """A table's column read as values of one kind."""

    header: str
    kind: str  # "number" or "date"
    values: dict[int, Number | When]  # row index → value (rows whose cell reads)


def _read_column(table: Table, header: str, kind: str, dayfirst: bool) -> Column | None:
    cells = {i: r.cells[header] for i, r in enumerate(table.rows) if header in r.cells}
    if len(cells) < 2:
        return None
    if kind == "date":
        values = {i: w for i, c in cells.items() if (w := date(c, dayfirst)) is not None}
    else:
        values = {i: n for i, c in cells.items() if (n := number(c)) is not None}
        units = {n.unit for n in values.values()} - {""}
        if len(units) > 1:
            return None  # EUR against USD, kilograms against metres
    if len(values) < 2 or len(values) < len(cells) / 2:
        return None
    return Column(header, kind, values)


def _kinds(cue: _Cue, header: str) -> tuple[str, str]:
    """How the column is read and which end wins: "oldest" is the earliest date, or the
    largest age in a column headed Age."""
    if cue.kind != "age":
        return cue.kind, cue.direction
    if stem("age") in {stem(w) for w in words_in(header)}:
        return "number", "max" if cue.direction == "min" else "min"
    return "date", cue.direction


def rows_named(table: Table, question: str, skip: set[str]) -> dict[str, set[int]]:
    """Header → the rows whose cell in that column the question names."""
    q = question.lower()
    found: dict[str, set[int]] = {}
    for i, row in enumerate(table.rows):
        for h, v in row.cells.items():
            value = v.lower().strip()
            if h in skip or len(value) < 3 or number(v) is not None or not set(words_in(value)) - STOP:
                continue
            if re.search(rf"(?<!\w){re.escape(value)}(?!\w)", q):
                found.setdefault(h, set()).add(i)
    return found


def _returned(words: list[str], table: Table, column: str) -> str:
    """The header whose value answers the question ("" when a "when" question has no date)."""
    headers = table.headers
    first = headers[0]
    qstems = {stem(w) for w in words if w not in STOP}

    def best(pool: str, candidates: list[str]) -> str | None:
        want = {stem(x) for x in pool.split()}
        scored = []
        for n, h in enumerate(candidates):
            hw = {stem(w) for w in words_in(h)}
            s = 3 * bool(hw & want) + len(hw & qstems)
            if s:
                scored.append((s, -n, h))
        return max(scored)[2] if scored else None

    others = [h for h in headers if h != column]
    if {"who", "whom", "whose"} & set(words):
        return best(PEOPLE, others) or first
    if "when" in words:
        dated = [h for h in others if _read_column(table, h, "date", True) is not None]
        if column_is_date := _read_column(table, column, "date", True) is not None:
            dated.append(column)
        return best("date", dated) or (dated[0] if len(dated) == 1 else column if column_is_date else "")
    if "where" in words:
        return best(PLACES, others) or first
    if words[:1] == ["how"]:
        return column
    for i, w in enumerate(words[:-1]):
        if w not in ("which", "what"):
            continue
        rest = [x for x in words[i + 1 : i + 8] if x not in STOP and x not in ("most", "least", "more", "less")]
        if rest and rest[0] not in CUES:  # "which *room* has …": the column headed so
            return next((h for h in headers if stem(rest[0]) in {stem(x) for x in words_in(h)}), first)
        after = rest[1:2] if rest else []  # "what is the largest *budget*": the value compared
        column_words = {stem(x) for x in words_in(column)}
        if w == "what" and after and stem(after[0]) in column_words:
            return column
        break
    return first


def _winner(column: Column, rows: list[int], direction: str) -> int | None:
    """The row whose value is strictly the largest (``max``) or smallest; None on a tie."""
    best = rows[0]
    for i in rows[1:]:
        a, b = column.values[i], column.values[best]
        if column.kind == "number":
            ahead = a.value > b.value if direction == "max" else a.value < b.value  # type: ignore[union-attr]
        else:
            ahead = later(a, b) if direction == "max" else a.before(b)  # type: ignore[arg-type]
            if ahead is None:
                ahead = False
        if ahead:
            best = i
    for i in rows:
        if i == best:
            continue
        a, b = column.values[best], column.values[i]
        if column.kind == "number":
            if a.value == b.value:  # type: ignore[union-attr]
                return None
        elif a.before(b) is None:  # type: ignore[union-attr]
            return None
    return best


def table_answer(question: str, units_texts: Sequence[tuple[str, str]]) -> TableDecision | None:
    """Decide a superlative or comparison over a column of the tables in ``units_texts``
    (``(key, text)`` pairs: a unit's id or label and its text); None when the question names
    no column of them, or the values decide nothing (see the module's docstring)."""
    words = words_in(question)
    cue = cue_in(words)
    if cue is None:
        return None
    options = []
    stems = {stem(w) for w in words if w not in STOP}
    for t, table in enumerate(tables_in(units_texts)):
        for n, header in enumerate(table.headers):
            score = _header_score(header, words, cue)
            if score < 2:
                continue
            # the table whose other headers the question also uses ("which *instrument*")
            score += 0.5 * sum(1 for h in table.headers if h != header and stems & {stem(w) for w in words_in(h)})
            options.append((score, -t, -n, table, header, *_kinds(cue, header)))
    for _, _, _, table, header, kind, direction in sorted(options, key=lambda o: o[:3], reverse=True):
        decided = _decide(question, words, cue, table, header, kind, direction)
        if decided is not None:
            return decided
    return None


_ASKS_PERIOD = re.compile(r"\b(?:which|what)\s+(?:fiscal\s+|financial\s+)?(?:quarter|half|month|year|period|week|day)s?\b", re.I)
"""A question that asks a period ("In which quarter of 2023 was the head grade highest?"): its answer
is a column's period (arithmetic.py's which year), never the label of a row of things (a row of
periods, "Fiscal Year 2018", is one)."""


_PERIOD_LABEL = re.compile(
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?|(?:mon|tues|wednes|thurs|fri|satur|sun)day|week\s*\d+|"
    r"q[1-4]|h[12]|[1-4]q\s?\d{2}|(?:first|second|third|fourth)\s+(?:quarter|half))(?:\s+\d{2,4})?",
    re.I,
)


def _a_period(label: str) -> bool:
    """Whether a row's label names a period: a year or a date (`yearish`), a month, a weekday, a week, a quarter or a half."""
    return yearish(label) or bool(_PERIOD_LABEL.fullmatch(label.strip()))


def _decide(question: str, words: list[str], cue: _Cue, table: Table, header: str, kind: str, direction: str) -> TableDecision | None:
    first = table.headers[0]
    if (
        _ASKS_PERIOD.search(question)
        and kind != "date"
        and not all(_a_period(r.cells.get(first, "")) for r in table.rows if r.cells.get(first))
    ):
        return None  # a period asked, rows of things: no row's label answers ("Which fiscal year …?" over years as rows does)
    returned = _returned(words, table, header)
    if not returned or (returned == header and "which" in words):
        return None  # "which *room* is largest?": the rooms' numbers are no size
    named = rows_named(table, question, {header})
    first = table.headers[0]
    rows = list(range(len(table.rows)))
    by_name = named.get(first, set())
    if len(by_name) >= 2:
        rows = sorted(by_name)
    else:
        if cue.comparative:
            return None  # "cheaper" with fewer than two rows named: nothing to compare
        for h, hit in named.items():
            if h not in (first, returned) and hit and len(hit) < len(table.rows):
                rows = [i for i in rows if i in hit]  # "in room B-2": only that room's rows
        rows = compared_rows(question, [r.cells.get(first, "") for r in table.rows], rows)  # a section named, no total row
    readings = _day_first(table, header) if kind == "date" else [True]
    results = []
    for dayfirst in readings:
        column = _read_column(table, header, kind, dayfirst)
        if column is None:
            return None
        usable = [i for i in rows if i in column.values]
        if len(usable) < 2 or (len(by_name) >= 2 and len(usable) < len(rows)):
            return None
        win = _winner(column, usable, direction)
        if win is None:
            return None
        results.append((win, usable))
    from .top_rows import how_many, top  # here: top_rows.py reads this module's types

    if (many := how_many(words)) > 1:  # "the top 2 …": those rows (top_rows.py)
        return top(question, table, header, returned, _read_column(table, header, kind, readings[0]), usable, direction, many)
    if len({w for w, _ in results}) > 1:
        return None  # day-first and month-first readings disagree
    win, usable = results[0]
    row = table.rows[win]
    others = [i for i in usable if i != win]
    yes_no = words[:1] and words[0] in ("is", "are", "was", "were", "does", "do", "did", "has", "have") and len(by_name) >= 2
    yes_no = yes_no and "or" not in words  # "Did Whitby or Hexham process more?" asks which
    if yes_no:
        subject = min(by_name, key=lambda i: question.lower().find(table.rows[i].cells.get(first, "").lower()))
        answer, returned = ("yes" if subject == win else "no"), ""
    else:
        answer = row.cells.get(returned, "")
        if returned == first:
            answer = answer.rpartition(SECTION_MARK)[2]  # "1. Independent Directors › Aman Mehta": the row's own name
        if not answer:
            return None
    word = {"max": {"date": "latest", "number": "largest"}, "min": {"date": "earliest", "number": "smallest"}}[direction][kind]
    shown = "; ".join(f"{table.rows[i].cells.get(first, '?')} {table.rows[i].cells[header]}" for i in others[:6])
    more = f", and {len(others) - 6} more" if len(others) > 6 else ""
    why = f"{header}: {row.cells.get(first, '?')} {row.cells[header]} is the {word} of {len(usable)} rows ({shown}{more})"
    order = [win, *others]
    return TableDecision(answer, tuple(table.rows[i].text for i in order), tuple(table.keys[i] for i in order), header, returned, why)


def _day_first(table: Table, header: str) -> list[bool]:
    """How the column's numeric dates ("03/04/2026") are read: day first when a first number
    is above 12, month first when a second is, else both ways (they must agree)."""
    pairs = [p for r in table.rows for p in numeric_dates(r.cells.get(header, ""))]
    days_first, months_first = any(a > 12 for a, _ in pairs), any(b > 12 for _, b in pairs)
    if not pairs or days_first:
        return [True]
    return [False] if months_first else [True, False]
