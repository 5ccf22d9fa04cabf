"""A question's cells bound in code (issue #63, item 2): its row by the words of the row's label,
its column by the year it names or the header's words; a cell is read only where both bind.

Tables come back from their row lines (text/rows.py): ``Caption — Item: Revenue › Services;
2019 · $m: 1,054; 2018 · $m: 1,151``. The first column is the row's label (a section before
" › "); the others are values. A column headed "Note(s)", and a number in a label, are never a
value.

* **A row** is named when the question holds at least `MIN_LABEL` of its label's words (the
  section's words count as extra, never as missing), the row holding most of them winning; a
  tie between two rows of different values binds nothing.
* **A column** is named by a year (its header's only year: "2019 · $m", "July 27, 2019",
  "FY19"), else by the header's words; where a year's columns are several ("2019 · $m",
  "2019 · %"), the header words the question uses choose, else the one not of percentages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.printed import CURRENCY, CURRENCY_SIGN, SCALE, scale_word
from ..text.rows import SECTION_MARK
from ..text.table_groups import tables_in
from ..text.tables import stem
from .operation import said_numbers, splits_a_year, years_in
from .period_rows import turned
from .periods import column_period, year_of
from .table_scale import Printed, prose_scale
from .table_topic import lead_in
from .table_words import close, content
from .total_rows import unlabeled_totals

MIN_LABEL = 0.75
"""The share of a label's words a question must hold to name its row."""
GENERIC = frozenset(
    "change changes percentage percent increase decrease difference average mean sum ratio proportion value values "
    "amount amounts year years fiscal fy between from during period respectively compared what how much many there "
    "as share growth rate ended ending".split()
)
_AMOUNT = re.compile(
    rf"^(?:(?P<neg>-)|\+)?\s*(?P<cur>{CURRENCY})?\s*(?P<neg2>-)?\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\s*(?P<scale>m|bn|k|million|billion|thousand|bps|p|c|¢)?$",
    re.I,
)


_LABEL_SCALE = re.compile(r"\b(?i:thousands?|millions?|billions?)\b|(?<=\b[A-Z]{3})m\b|(?<=\()[$€£]?m(?=\))")
"""A scale a row's label says: "Million shares", "Net profit (USDm)", "Revenue ($m)"."""


UNSCALED = re.compile(
    r"\bper\s+(?:[\w-]+\s+)?(?:share|unit)\b|\bper\s+cent\b|%|\bpercent|\bratio\b|\bmargin\b|\bEPS\b(?!\s+shares)"
    r"|^(?!.*\b(?:at|using|applying)\b.*\brate\s*$).*\brate\s*$"
    r"|\bgrant[- ]date\s+fair\s+value\b|\bexercise\s+price\b|\baverage\s+(?:[\w-]+\s+)?(?:price|fare|tariff)\b"
    r"|\b(?:employees|headcount|staff|FTEs?|full[- ]time\s+equivalents?)\b(?!.*\b(?:costs?|expenses?|benefits?|pay|salar\w*|wages)\b)",
    re.I,
)
"""A row whose values the table's scale does not multiply: per share ("per common share",
"Basic EPS", a grant-date fair value or an exercise price, which are a share's), a percentage, a
ratio, a rate, a count of people ("Employees at year end", not "Employee benefits expense"). "Basic EPS shares outstanding" counts shares, and "Tax at the federal statutory
rate" or "Amount computed using the statutory rate" is an amount: the table's scale is theirs."""
_SHARES_PER_SHARE = re.compile(r"^(?:(?!\bper\b).)*\bshares\b.*\bper\s+share\b", re.I)
"""A count of shares that names a per-share figure after it ("Potential common shares excluded from
diluted net loss per share", "Shares used in computing net loss per share"): shares, scaled."""


def unscaled_label(label: str) -> bool:
    """Whether a row's label says its values are no scaled amount (`UNSCALED`), a count of shares
    named for a per-share figure aside (`_SHARES_PER_SHARE`)."""
    m = UNSCALED.search(label)
    if m is None:
        return False
    per_share = re.search(r"\bper\s+(?:[\w-]+\s+)?share\b", m.group(), re.I)
    return not (per_share and _SHARES_PER_SHARE.search(label) and not UNSCALED.search(label[m.end() :]))


EXCEPT_SHARES = re.compile(
    r"\bexcept\s+(?:for\s+)?(?:the\s+)?(?:number\s+of\s+)?shares?\b(?:\s+and\s+per[- ]share)?(?:\s+(?:data|amounts?|information|figures|counts))?",
    re.I,
)
"""A scale note that leaves share counts out: "except share data", "except for share and per share
amounts" (not "except per share data", which leaves out only a share's values: `UNSCALED`)."""
SHARE_COUNT = re.compile(r"\bshares?\b(?!\s+(?:price|value))|\bstock\s+units?\b|\bRSUs?\b|\boptions\b|\bwarrants\b", re.I)
"""A row that counts shares, share units, options or warrants."""
_MONEY_SCALE = re.compile(
    r"(?:"
    + CURRENCY_SIGN
    + r"|\bdollars|\beuros|\bpounds)\s*(?:amounts\s+)?in\s+(?:thousands|millions|billions)\b|\bin\s+(?:thousands|millions|billions)\s+of\s+(?:"
    + CURRENCY_SIGN
    + r"|dollars|euros|pounds)",
    re.I,
)
"""A scale note said of money ("(U.S. $ in thousands)", "(dollars in millions)"): a count is not its."""
_COUNTED = re.compile(r"\bnumber\s+of\s+(?:shares|units|options|employees|stores|customers)\b", re.I)
"""A row or column that counts things ("Number of Shares"): no money scale multiplies it."""
_SHARE_PRICE_COLUMN = re.compile(
    r"\bper\s+(?:[\w-]+\s+)?share\b|\bgrant[- ]date\s+fair\s+value\b|\bexercise\s+price\b|\bprice\s+per\b", re.I
)
"""A column of one share's values ("Weighted-Average Grant Date Fair Value" beside "Number of
Shares" under "(in millions)"): the table's scale counts the shares, not their price."""
_PERCENT = re.compile(r"%|\bpercent(?:age)?\s+of\b|\bin\s+percent", re.I)
NOT_MONEY = re.compile(r"\((?:in\s+)?(?:years?|months?|days?|weeks?)\)|\bin\s+(?:years|months|days)\b", re.I)
"""A row or column counted in time ("Weighted average estimated life (in years)"): the table's scale is not its."""


@dataclass(frozen=True)
class Amount:
    value: float
    percent: bool
    currency: str
    text: str


def amount(cell: str) -> Amount | None:
    """A cell's signed number ("-$1,204" → -1204.0), None when it holds none."""
    m = _AMOUNT.match(cell.strip())
    if m is None:
        return None
    value = float(m["num"].replace(",", ""))
    if m["neg"] or m["neg2"]:
        value = -value
    return Amount(value, bool(m["pct"]), m["cur"] or "", cell.strip())


@dataclass(frozen=True)
class Cell:
    """One value bound: its row's label, its column's header, and where it was read."""

    label: str
    header: str
    amount: Amount
    key: str
    """The unit (chunk id) whose text holds the row."""
    row: str
    """The row line."""
    scale: str
    """"thousand", "million", "billion" or "": the scale its header, caption or label says."""
    unscaled: bool = False
    """A row no scale multiplies: per share, a percentage, a time, a count of shares the
    table's scale note leaves out (`UNSCALED`, `NOT_MONEY`, `Grid.except_shares`)."""


@dataclass
class Grid:
    """A table read back: labels and their rows' cells, by column."""

    label_header: str
    headers: list[str]
    labels: list[str]
    cells: list[dict[str, str]]
    keys: list[str]
    lines: list[str]
    caption: str
    said_scale: str = ""
    """The scale the prose beside an unlabelled table implies (`prose_scale`), else ""."""
    except_shares: bool = False
    """The table's scale note leaves share counts out ("(in thousands, except share and per share
    data)"): a row of shares is not scaled (`EXCEPT_SHARES`)."""
    topic: tuple[str, ...] = ()
    """The words of the table's lead-in (table_topic.py): said of every row, they tell none apart."""

    def value(self, i: int, header: str) -> Cell | None:
        a = amount(self.cells[i].get(header, ""))
        if a is None or re.fullmatch(r"(?:19|20)\d{2}", a.text):
            return None  # a year in a cell names, it is no amount
        points = a.text.lower().endswith("bps")  # basis points ("5 bps"): neither a percentage nor scaled
        if not a.percent and not points and (_PERCENT.search(header) or _PERCENT.search(self.labels[i].rpartition(SECTION_MARK)[2])):
            a = Amount(a.value, True, a.currency, a.text)  # a column or row of percentages: "2019 · %", "% of revenue"
        label = self.labels[i]
        said = _LABEL_SCALE.search(label)
        in_label = (
            ("thousand" if said and said.group()[0].lower() == "t" else "billion" if said and said.group()[0].lower() == "b" else "million")
            if said
            else ""
        )
        unscaled = bool(
            a.percent
            or points
            or unscaled_label(label)
            or NOT_MONEY.search(f"{label} {header}")
            or _SHARE_PRICE_COLUMN.search(header)
            or (self.except_shares and SHARE_COUNT.search(label))
            or (_MONEY_SCALE.search(f"{self.caption} {self.label_header}") and _COUNTED.search(f"{label} {header}"))
        )
        scale = (
            ""
            if unscaled
            else scale_word(header) or in_label or scale_word(self.caption) or scale_word(self.label_header) or self.said_scale
        )
        return Cell(self.labels[i], header, a, self.keys[i], self.lines[i], scale, unscaled)


NOTE_COLUMN = re.compile(r"notes?(?:\s+(?:no\.?|nos\.?|number|numbers|ref\.?|reference))?", re.I)
"""A column of note references ("Note", "Notes", "Note no."): its numbers point to a note, they
are no amounts."""


def note_column(header: str) -> bool:
    """Whether ``header`` heads a column of note references (`NOTE_COLUMN`)."""
    return bool(NOTE_COLUMN.fullmatch(header.strip()))


def grids(units_texts: Sequence[tuple[str, str]]) -> list[Grid]:
    """The tables in ``units_texts`` (``(key, text)`` pairs) with a label column and values; a
    table whose rows are quarters or halves also turned, its periods as columns (period_rows.py)."""
    out = []
    for t in tables_in(units_texts):
        first = t.headers[0]
        headers = [h for h in t.headers[1:] if not note_column(h)]
        for key, text in units_texts:  # a total printed with no label (total_rows.py)
            if key in set(t.keys) and (totals := unlabeled_totals(first, t.headers[1:], t.rows[0].caption, [text])):
                t.rows.extend(totals)
                t.keys.extend([key] * len(totals))
        labels = [r.cells.get(first, "") for r in t.rows]
        grid = Grid(first, headers, labels, [dict(r.cells) for r in t.rows], t.keys, [r.text for r in t.rows], t.rows[0].caption)
        own_texts = [text for key, text in units_texts if key in set(t.keys)]
        lead = lead_in(t.rows[0].text, own_texts)
        numbers = {a.text.lstrip("-$€£¥ ").replace(" ", "") for row in grid.cells for cell in row.values() if (a := amount(cell))}
        printed = Printed(grid.caption, grid.label_header, grid.headers, [header_year(h) for h in grid.headers], numbers)
        grid.said_scale = prose_scale(printed, own_texts, lead)
        notes = (grid.caption, grid.label_header, *grid.headers, *own_texts)
        grid.except_shares = any(EXCEPT_SHARES.search(n) for n in notes)
        grid.topic = tuple(content(lead))
        out.append(grid)
    return out + [t for g in out if (t := turned(g)) is not None]  # a table of quarters by row, also read turned


def label_score(label: str, words: Sequence[str]) -> float:
    """How surely ``words`` name the row ``label``: 0 unless they hold `MIN_LABEL` of its own
    label's words (its aside in parentheses, "(weighted average)", may go unsaid); else how
    many of the question's words its label and section hold, and the share held, less the
    label's words not asked. A lead of the table's arithmetic the question does not say ("Less:")
    is no word of the label's (`_ARITHMETIC_LEAD`)."""
    section, _, own = label.rpartition(SECTION_MARK)
    if (lead := _ARITHMETIC_LEAD.match(own)) and not any(close(w, q) for w in content(lead.group()) for q in words):
        own = own[lead.end() :]  # "Less: surcharge revenue" asked as "surcharge revenue"
    bare = _ASIDE.sub("", own).strip()
    scores = [_score(section, own, words)]
    if bare and bare != own:
        scores.append(_score(section, bare, words))
    short = _ABBREVIATION.search(own)  # "Performance Share Plan (‘PSP’)", asked as "PSP payments"; not a unit, "Sales (GWh)"
    if (
        short
        and short.group(1).lower() in words
        and "".join(w[0] for w in re.findall(r"[A-Za-z][\w-]*", bare)).upper() == short.group(1).upper()
    ):
        scores.append(_score(section, short.group(1), words))
    return max(scores)


_ASIDE = re.compile(r"\s*\([^()]*\)")
_ARITHMETIC_LEAD = re.compile(r"(?:less|add|plus|deduct|minus)\s*:\s*", re.I)
"""A label's lead of the table's arithmetic ("Less: surcharge revenue", "Add: Voyage expenses"):
a question names the row without it."""
_ABBREVIATION = re.compile(r"\(\s*[‘'\"“]?([A-Z]{2,}[A-Za-z0-9&]{0,8})[’'\"”]?\s*\)")
"""A label's own short name, in parentheses after it."""


def _contrasted(mine: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the question names a sibling of the label: a word of the label it does not hold
    stands, between two words it does hold, where the question says another word ("net cash
    from operating activities" against "Net cash from investing activities")."""
    for i in range(1, len(mine) - 1):
        if any(close(mine[i], q) for q in words):
            continue
        for j in range(1, len(words) - 1):
            if close(mine[i - 1], words[j - 1]) and close(mine[i + 1], words[j + 1]) and not any(close(words[j], w) for w in mine):
                return True
    return False


_SCALE_WORDS = frozenset("thousand thousands million millions billion billions m bn k mn".split())
"""A label's scale ("Operating revenue · ¥ million", a results summary's column turned into a row): no word the question must say."""


def _score(section: str, own: str, words: Sequence[str]) -> float:
    mine = [w for w in content(own) if w != "total" and w not in _SCALE_WORDS] or content(own)
    if not mine:
        return 0.0
    held = sum(any(close(w, q) for q in words) for w in mine)
    share = held / len(mine)
    if share < MIN_LABEL or _contrasted(mine, words):
        return 0.0
    from_section = {q for q in words if any(close(w, q) for w in content(section))}
    from_label = {q for q in words if q != "total" and any(close(w, q) for w in content(own))}  # "total": its own weight below
    total = 0.5 if "total" in content(own) and len(content(own)) > 1 and "total" in words else 0.0
    missing_total = -1.1 if "total" in content(own) and "total" not in words else 0.0
    unmatched = len(mine) - held  # "Diluted EPS shares" for "Basic EPS shares": a word that tells them apart, not asked
    exact = 1e-4 * sum(any(stem(w) == stem(q) for q in words) for w in mine)  # a tie-break only: "audit-related" over "Audit"
    return len(from_label | from_section) + share + total + missing_total - 0.6 * unmatched + exact


def best_row(grid: Grid, words: Sequence[str], usable: Sequence[int] | None = None) -> int | None:
    """The row ``words`` name best; None when none, or two rows of different values tie."""
    pool = range(len(grid.labels)) if usable is None else usable
    scored = _by_topic(grid, sorted(((label_score(grid.labels[i], words), i) for i in pool), reverse=True), words)
    if not scored or scored[0][0] <= 0:
        return None
    top, i = scored[0]
    for s, j in scored[1:]:
        if s < top - 1e-9:
            break
        if grid.cells[j] != {**grid.cells[i], grid.label_header: grid.cells[j].get(grid.label_header, "")}:
            return None  # two rows named alike, of different values
    return i


def _telling(grid: Grid, i: int, words: Sequence[str]) -> int:
    """How many of the question's words name row ``i`` by its own label and are not the table's
    topic's (table_topic.py): the words that tell it from its siblings ("total" among them)."""
    own = grid.labels[i].rpartition(SECTION_MARK)[2]
    said = {q for q in words if any(close(w, q) for w in content(own))}
    return sum(not any(close(t, q) for t in grid.topic) for q in said)


def _by_topic(grid: Grid, scored: list[tuple[float, int]], words: Sequence[str]) -> list[tuple[float, int]]:
    """The rows named, the best first; where the best is named only by the table's topic's
    words and others also by words that tell them apart, only those others ("the total
    current provision for income tax" under "The provision for income taxes consists of …" is
    "Current › Total current", not "Provision for income taxes")."""
    named = [(s, i) for s, i in scored if s > 0]
    if not grid.topic or len(named) < 2 or _telling(grid, named[0][1], words):
        return scored
    told = [(s, i) for s, i in named if _telling(grid, i, words)]
    return told or scored


_FISCAL_LABEL = re.compile(r"\bFY\s?'?(?:\d{4}|\d{2})\b", re.I)


def header_year(header: str) -> int | None:
    """The one year a column is of; None for none, several, or a change across a split year
    ("2018/2019 change"). A fiscal year's label names it beside the months it spans: "FY2023 · (Apr
    2023 – Mar 2024)" is FY2023's column, as its report calls it."""
    if splits_a_year(header) and A_CHANGE.search(header):
        return None
    labels = {year_of(m.group()) for m in _FISCAL_LABEL.finditer(header)}
    if len(labels) == 1 and len(years_in(header)) > 1:
        return labels.pop()
    ys = years_in(header)
    return ys[0] if len(ys) == 1 else None


A_CHANGE = re.compile(r"chang|varian|increas|decreas|growth|movement|differen|%", re.I)
"""A header or label of a change ("% Change", "Increase/(decrease)"), not a year's amount."""


_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


def header_when(header: str) -> tuple[int, int] | None:
    """A column's date as (year, month), month 0 when it names none; None when it names no year."""
    y = header_year(header)
    if y is None:
        return None
    m = re.search(r"\b(" + "|".join(_MONTHS) + r")[a-z]*\b", header.lower())
    return (y, _MONTHS.index(m.group(1)) + 1 if m else 0)


def year_columns(grid: Grid, year: int, words: Sequence[str], row: int | None = None) -> list[str]:
    """The columns of ``year``, best first: the header words the question uses, then not of percentages."""
    cols = [h for h in grid.headers if header_year(h) == year]
    return sorted(cols, key=lambda h: column_rank(grid, h, words, row))


_SHARES_OF = re.compile(r"%\s*of\s+(?P<of>[a-z][\w ]*)", re.I)
_SHARE_WORDS = frozenset("share shares proportion percentage percent portion".split())


def column_rank(grid: Grid, header: str, words: Sequence[str], row: int | None = None) -> tuple:
    """How a year's column is chosen, smallest first: a value in the row, the header words the
    question uses (not those it names the row by: "revenue" names "Revenue › Iberia", not the
    column "2021 · % of revenue" beside "2021 €m"), the whole year's before a part's where the
    question names no part ("Full year · 2023", not "Fourth quarter · 2023"), the actual before the
    plan where it names none ("Actual 2024", not "Plan 2024") and the plan first where it does
    ("had the company planned"), not of percentages."""
    mine = content(grid.labels[row]) if row is not None else []
    if _SHARES_OF.search(header) and not any(w in _SHARE_WORDS for w in words):
        mine = [
            *mine,
            *content(_SHARES_OF.search(header).group("of")),
        ]  # "revenue" of "% of revenue" names no column unless a share is asked
    named = sum(any(close(w, q) for q in words) and not any(close(w, x) for x in mine) for w in content(header) if not years_in(w))
    cell = amount(grid.cells[row].get(header, "")) if row is not None else None
    part = column_period(header, None) is not None and not any(_PART_WORD.fullmatch(w) for w in words)  # "Fourth quarter · 2023" for "2023"
    planned = bool(PLANNED.search(header)) != any(PLANNED.fullmatch(w) for w in words)  # "Plan 2024" beside "Actual 2024"
    return (-(row is not None and cell is None), -named, part, planned, "%" in header or (cell is not None and cell.percent))


PLANNED = re.compile(r"\b(?:plan|planned|budget|budgeted|target|forecast|guidance|outlook|estimate|estimated)\b", re.I)
"""A column of what was planned ("Plan 2024", "2024 Budget"): a year asked with no plan's word asks what happened."""


_PART_WORD = re.compile(
    r"q[1-4]|h[12]|[1-4]q\d{2}|[12]h\d{2}|quarters?|quarterly|half|halves|first|second|third|fourth|"
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    r"|months?|monthly"
)
"""A question's word that names a part of a year: then a column of that part may be the one asked."""


_THRESHOLD = re.compile(r"[<>≥≤]=?\s*\d[\d,.]*(?:\s*(?:days?|months?|years?|%))?", re.I)


_SIGN_NOTE = re.compile(r"\b(?:un)?fav(?:ou?rable)?\b\.?|\badverse\b", re.I)
"""A column's note of which way its sign reads ("Variance fav./(unfav.)"): it names nothing."""


def named_columns(grid: Grid, words: Sequence[str], question: str | None = None) -> list[str]:
    """Columns whose header's own words (years and its scale aside: "Level 1 · RMB'Million" is
    "Level 1") the question holds, best first; given the ``question``, of headers that name a
    number ("Level 1", "Level 2"), only those whose numbers it says."""
    scored = []
    numbers = said_numbers(question) if question is not None else None
    for n, h in enumerate(grid.headers):
        own = _SIGN_NOTE.sub(" ", _ASIDE.sub(" ", _THRESHOLD.sub(" ", SCALE.sub(" ", h))))  # "PAR > 30 days (%)", "Variance fav."
        mine = [w for w in content(own) if w not in GENERIC]
        if not mine:
            continue
        if numbers is not None and (told := said_numbers(own)) and not told <= numbers:
            continue
        held = sum(any(close(w, q) for q in words) for w in mine)
        if held / len(mine) >= MIN_LABEL:
            scored.append((held, -n, h))
    return [h for *_, h in sorted(scored, reverse=True)]


def question_words(text: str) -> list[str]:
    """The words of a question or part that can name a row or column."""
    return [w for w in content(text) if w not in GENERIC]
