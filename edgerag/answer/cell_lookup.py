"""A table's cell, or several, that a question asks for, read in code (issue #63, items 2 and 4):
its row bound by the label's words and its column by the year it names or the header's words
(table_cells.py); the cell is the answer only where both bind. Where two tables answer apart,
the one whose rows, columns and caption explain more of the question's words answers, and for a
year asked, a whole year's column before a quarter's.

    "What was the research and development expense in 2019?"      → the row's 2019 cell
    "What were the Services revenue in 2019 and 2018, respectively?" → both years' cells, in
                                                                      the question's order
    "What are the balances of inventories and other accrued liabilities as reported?"
                                                                   → two rows' cells in the
                                                                      "As Reported" column

An answer is the cells as printed, with the table's scale ("$6,577 million"); several are joined
by "; " in the question's order. A question that asks a computation (operation.py), a cause or a
reason, or names words the row's label and the column do not explain, is left to the model.

Words that name rows are no such refusal: "accounts receivable" (not what "accounts for" a
change), "software-as-a-service related revenue" (not what a thing "relates to"); nor are
"respective" and "the company's" words a row must explain. Two columns the question names
alike ("the net value of the unrealized gains and losses") are no one cell; an amount never
answers a rate, margin or share asked unless its row and column say every word asked
("Exchange rate", not "Gross margin" for "the gross profit margin"). Measured on TAT-QA's
test set (code alone, every question): 4 wrong answers and 1 abstention made right, 2 wrong
computed cells left to the model, none lost. A row asked in every year its table shows ("… for
the 3 financial years shown in the table (in chronological order)", "… for each financial year
listed") is each year's cell, earliest first (`_EVERY_YEAR`): 1 wrong and 2 abstentions made
right, none lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.printed import CURRENCY_SIGN, tight
from ..text.rows import SECTION_MARK, row_spans
from ..text.tables import STOP
from ..types import Unit
from .compare import Decision
from .dated_columns import dated_columns, named_apart
from .derived import asks_computed
from .named_tables import in_other_section, speaking
from .operation import operation, years_in
from .outflow_rows import read_as_size, side_asked
from .per_asked import printed_per
from .period_cells import year_periods
from .periods import column_period, named_period, periods_asked, without_parts
from .table_cells import GENERIC, Cell, Grid, best_row, close, column_rank, content, grids, header_year, named_columns, year_columns
from .table_words import OWN_ENTITY
from .thing_asked import thing_asked

ASKS_VALUE = re.compile(
    r"^\s*(?:what\s+(?:is|was|are|were)\b|how\s+much\b"
    r"|how\s+many\b(?!\s+(?:years?|times|of\b|components?|items?|types?|kinds?|categories|rows?|segments?)\b)"
    r"|(?:in\s+\d{4},?\s+)?what\b(?!\s+(?:caused|led|drove|does|did|do|pushed|made|hurt|helped|lifted|boosted|weighed|prompted|triggered|explains?|contributed)\b))",
    re.I,
)
"""A question that asks for a value ("What was …?", "How much …?", "How many employees were there
in 2019?": a row's count), not a cause ("What pushed protective services over budget?"), an
action, nor a count of the table's own rows or years."""
_NOT_A_VALUE = re.compile(
    r"\b(?:why|caused?|reasons?|due\s+to|attributed|drove|driven|represent|comprise|consist|include|includes|method|policy|how\s+is|how\s+are|which"
    r"|relates?|relate[sd]\s+to|accounts?(?!\s+(?:receivable|payable))|components?|items?|change[sd]?|increase[sd]?|decrease[sd]?|growth|grew|decline[sd]?|movement|variance|difference)\b",
    re.I,
)
_BOUND = re.compile(r"\b(?:more|less|fewer|greater)\s+than\b|\babove\b|\bbelow\b|\bexceed\w*", re.I)
"""A bound the question sets ("the items above $1m"): no cell's question, unless a column is headed so ("Less than 1 year")."""
_ASKS_PERCENT = re.compile(r"%|\bpercent|\brate\b|\bmargin\b|\bratio\b|\bproportion\b|\bshare\s+of\b", re.I)
_AS_PERCENTAGE = re.compile(r"\b(?:as\s+a\s+)?percentage\s+(?:to|of|constituent|constitution)\b|\bwhat\s+(?:percentage|percent)\b", re.I)
"""A question asking a share as a percentage: an amount's cell never answers it."""
_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+as\s+well\s+as\s+)\s*", re.I)
MIN_EXPLAINED = 0.6
"""The share of the question's own words (asking words, years and column words aside) its row's label must hold."""
_TOTAL = re.compile(r"\b(?:total|totals|all|overall|combined|sum|aggregate)\b", re.I)
"""A total row ("Total income") answers a question that says total, or one every word of which
it explains: "catering income" is one line of income, not their total."""


@dataclass(frozen=True)
class Looked:
    answer: str
    cells: tuple[Cell, ...]
    why: str


def shown(c: Cell) -> str:
    """A cell as code answers with it: as printed, with its table's scale; a percentage with its "%"."""
    text = tight(c.amount.text)
    if c.amount.percent:  # a cell of a column or row of percentages ("ROFE (%)": 9.6) is 9.6%
        return text if "%" in text else f"{text}%"
    return f"{text} {c.scale}" if c.scale else text


def _amounts_beside(grid: Grid, c: Cell) -> bool:
    """Whether the row of ``c``, a percentage, holds amounts too ("Revenue: 2019 $m 1,054; 2019 %
    31.3"): then its percentage is asked only by name. A row of percentages alone ("ROFE (%)",
    "Expected volatility: 25.37%") is asked by its own name."""
    i = grid.labels.index(c.label)
    return any((v := grid.value(i, h)) is not None and not v.amount.percent and not v.amount.text.endswith("bps") for h in grid.headers)


_NO_ROW_WORDS = OWN_ENTITY | frozenset(
    "respective segment division end ended ending period "
    "generate generated generates record recorded report reported post posted achieve achieved deliver delivered "
    "produce produced produces make made makes "
    "tonnes tonne tons hectares barrels ounces litres gallons "
    "they them their we our us it its".split()
)
"""Words no row need explain: "the company's respective land value" asks the row "Land"; the
report's own entity ("How much did the bank lend to customers …?"), a year's "end", a
reporting verb ("produce", "make"), a unit counted in ("How many tonnes of …") and a pronoun for
the reporter ("they", "we") are no row's either. A period's end date is set aside whole (`_DATED`)."""
_MONTH_NAMES = "january february march april may june july august september october november december".split()
_DATED = re.compile(
    r"\b(?:(?:\d{1,2}|fifty-two|fifty-three)\s+weeks\s+|(?:three|six|nine|twelve|\d{1,2})\s+months\s+)?"
    r"(?:ended|ending|as\s+(?:at|of)|at\s+the\s+end\s+of)\s+(?:\d{1,2}\s+)?(?P<month>"
    + "|".join(_MONTH_NAMES)
    + r")(?:\s+\d{1,2})?,?\s+(?:19|20)\d{2}",
    re.I,
)
"""A period's end date the question dates its figure by ("for the 52 weeks ended 30 March 2024", "as
at March 31, 2023"): no row's words; a column naming another month does not answer it."""


def _undated(question: str, headers: Sequence[str] = ()) -> str | None:
    """``question`` without its period's end date (`_DATED`); None where a column among ``headers``
    names another month than that date's ("cash as at 30 September 2023" over "31 March 2023")."""
    m = _DATED.search(question)
    if m is None:
        return question
    month = m["month"].lower()
    for h in headers:
        named = {x for x in _MONTH_NAMES if re.search(rf"\b{x[:3]}", h, re.I)}
        if named and month not in named:
            return None
    return question[: m.start()] + question[m.end() :]


def _explained(question: str, grid: Grid, rows: Sequence[int], headers: Sequence[str]) -> float:
    """The share of the question's own words the rows' labels, the columns and the table's
    caption and lead-in (table_topic.py) explain, where it is most of them (all of them for a
    total row the question does not call one, `_TOTAL`); else 0."""
    every = _EVERY_WORDS if _EVERY_YEAR.search(question) else frozenset()
    undated = _undated(question, headers)
    if undated is None:
        return 0.0  # another month's column
    words = [w for w in content(undated) if w not in GENERIC and w not in STOP and w not in _NO_ROW_WORDS | every and not years_in(w)]
    if not words:
        return 0.0
    told = [w for i in rows for w in content(grid.labels[i])] + [w for h in headers for w in content(h)] + content(grid.caption)
    told += grid.topic  # the lead-in above the table says what every row is ("… measured in thousands of … case equivalents")
    if any(column_period(h, header_year(h)) for h in headers):  # "the fourth quarter of 2022" bound to "4Q22": its words are told
        told += [w for w in content(undated) if w not in content(without_parts(undated))]
    held = sum(any(close(w, t) for t in told) for w in words)
    total_row = any(re.search(r"\btotals?\b", grid.labels[i].rpartition(SECTION_MARK)[2], re.I) for i in rows) and not _TOTAL.search(
        question
    )
    share = held / len(words)
    return share if share >= (1.0 if total_row else MIN_EXPLAINED) else 0.0


_EVERY_YEAR = re.compile(
    r"\b(?:each|every|all)\s+(?:of\s+the\s+)?(?:\w+\s+)?(?:(?:financial|fiscal)\s+)?(?:years?|periods?)\b"
    r"|\bfor\s+the\s+(?:\d|two|three|four|five)\s+(?:(?:financial|fiscal)\s+)?years\b|\bchronological\b",
    re.I,
)
"""A question asking a row's value in every year its table shows ("… for the 3 financial years
shown in the table (in chronological order)", "… for each financial year listed")."""


_EVERY_WORDS = frozenset("each every all financial fiscal period periods end ends listed shown table chronological order".split())
"""The words that ask every year (`_EVERY_YEAR`), no row's."""


def _every_year(grid: Grid, rows: Sequence[int]) -> list[str] | None:
    """The row's year columns, one a year, earliest first; None where a year has two columns or
    fewer than two years hold a value."""
    by_year: dict[int, list[str]] = {}
    for h in grid.headers:
        if (y := header_year(h)) is not None and all(grid.value(i, h) is not None for i in rows):
            by_year.setdefault(y, []).append(h)
    if len(by_year) < 2 or any(len(hs) > 1 for hs in by_year.values()):
        return None
    return [by_year[y][0] for y in sorted(by_year)]


def _columns(grid: Grid, question: str, rows: Sequence[int]) -> list[str] | None:
    words = content(question)
    years = years_in(question)
    if (dated := dated_columns(grid, question, rows)) is not None:
        return dated
    if not years and len(rows) == 1 and _EVERY_YEAR.search(question):
        return _every_year(grid, rows)
    if not years and (asked := named_period(question)) is not None:  # "SaaS revenue in 4Q23": the column of that quarter
        cols = [h for h in grid.headers if (named_period(h) or column_period(h, header_year(h))) == asked]
        cols = [h for h in cols if all(grid.value(i, h) is not None for i in rows)]
        return cols if len(cols) == 1 else None
    if len(set(years)) == 1 and (both := named_apart(grid, question, years[0], rows)):
        return both  # "the target and the actual water production for FY2024, respectively": two columns of one year
    if years:
        out = []
        periods = year_periods(grid, question)
        parts = {p.year for p in periods_asked(question) if p.part in ("quarter", "half")}
        for y in years:
            cols = [h for h in year_columns(grid, y, words, rows[0]) if all(grid.value(i, h) is not None for i in rows)]
            if y in periods:  # "Q1 2019 revenue and 2018 revenue": Q1 2019's column, and 2018's own (period_cells.py)
                cols = [h for h in cols if h in periods[y]] or sorted(
                    (h for h in periods[y] if all(grid.value(i, h) is not None for i in rows)),
                    key=lambda h: column_rank(grid, h, words, rows[0]),
                )  # "4Q22", a quarter's column whose year is run on
            elif y in parts and not any(column_period(grid.labels[i], None) for i in rows):
                return None  # "the fourth quarter of 2022" over a table of whole years: not its "FY2022"
            if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words, rows[0]) == column_rank(grid, cols[1], words, rows[0])):
                return None
            out.append(cols[0])
        return out
    bound = _BOUND.search(question)
    headed = [h for h in grid.headers if bound and bound.group().lower() in h.lower()]  # "less than 1 year": that column
    named = [h for h in (headed or named_columns(grid, words)) if all(grid.value(i, h) is not None for i in rows)]
    held = sorted((_held(h, words) for h in grid.headers), reverse=True)
    if not headed and named and len(held) > 1 and held[0] == held[1]:
        return None  # "the net value of the unrealized gains and losses": two columns named alike, no one cell
    return named[:1] if len(headed) <= 1 and named else None  # no year and no column named: not a cell's question


def _held(header: str, words: Sequence[str]) -> int:
    """How many of a header's own words (dates aside) the question holds."""
    own = [w for w in content(header) if w not in GENERIC and not w.isdigit() and w not in _MONTHS]
    return sum(any(close(w, q) for q in words) for w in own)


_MONTHS = frozenset(_MONTH_NAMES)


_ASKING = frozenset("more less fewer earlier later before previous prior all".split())
"""Words that ask a change or a sum ("How many more … than a year earlier?", "in all"): no row's."""


def row_words(question: str) -> list[str]:
    """The words ``question`` names a row by: its own words but a period's, the report's entity, a
    reporting verb, a unit, a pronoun and the words that ask a change or a sum."""
    return [w for w in _own_words(question) if w not in _NO_ROW_WORDS and w not in _ASKING]


def sole_row(grid: Grid, question: str) -> int | None:
    """The one row whose own label holds every word the question names a row by and at most one
    word more, where no row holds enough of its own label's words to be named (table_cells.py `best_row`):
    "How much molybdenum did they produce?" is "Molybdenum in concentrate", "subscribers" the
    "Mobile subscribers (million)" row; None where no row, or two, hold them all."""
    words = row_words(question)
    if not words:
        return None
    rows = []
    for i, label in enumerate(grid.labels):
        own = content(re.sub(r"\([^()]*\)", " ", label.rpartition(SECTION_MARK)[2]))  # its asides ("(million)") aside
        if all(any(close(w, t) for t in own) for w in words) and sum(not any(close(t, w) for w in words) for t in own) <= 1:
            rows.append(i)  # its own label says every word, and at most one more ("Molybdenum in concentrate")
    return rows[0] if len(rows) == 1 else None


def _rows(grid: Grid, question: str) -> list[int]:
    """The rows the question names: one, or one for each part it lists ("A and B"); else the one
    row that holds all its words (`sole_row`)."""
    parts = [p for p in _SPLIT.split(question) if content(p)]
    several = []
    if len(parts) > 1:
        for p in parts:
            i = best_row(grid, content(p))
            if i is not None and i not in several:
                several.append(i)
    if len(several) > 1:
        return several
    one = best_row(grid, content(question))
    if one is None:
        one = sole_row(grid, question)
    return [] if one is None else [one]


_AMOUNT_SAID = re.compile(CURRENCY_SIGN + r"\s?\d|\d[\d,.]*\s?(?:%|percent|thousand|million|billion|bn)\b", re.I)


_KIND_WORDS = frozenset("expense expenses respective figure figures item items line".split())
"""Words that say what kind of row is asked ("… marketing expense"), not which: a row need not hold them."""


def _own_words(question: str) -> list[str]:
    every = _EVERY_WORDS if _EVERY_YEAR.search(question) else frozenset()
    undated = without_parts(_undated(question) or question)  # "the fourth quarter", "4Q22": a column's words
    return [w for w in content(undated) if w not in GENERIC and w not in STOP and w not in every and w not in _MONTHS and not years_in(w)]


def said_closer(question: str, cells: Sequence[Cell], units_texts: Sequence[tuple[str, str]]) -> bool:
    """Whether a sentence of the prose beside the tables holds more of the question's own words
    than the cells' rows, columns and caption, states an amount, and names the year asked (when
    one is): "What was the early debt redemption costs during 2019?" is said so in "… early debt
    redemption costs of $3.6 billion recorded during 2019", not the row "Early debt
    extinguishment costs"; "the accumulated benefit obligation for the United States defined
    benefit pension plans" in the sentence that says it ($198.2 million), not a table's "2019 ·
    United States" cell of plans whose obligation exceeds their assets. The model reads it then."""
    words = _own_words(question)
    told = [w for c in cells for w in content(c.label) + content(c.header)]
    by_cells = sum(any(close(w, t) for t in told) for w in words)
    if all(any(close(w, t) for t in told) for w in words if w not in _KIND_WORDS):
        return False
    years = [str(y) for y in years_in(question)]
    for _, text in units_texts:
        for start, end in reversed(row_spans(text)):
            text = text[:start] + text[end:]
        for sentence in re.split(r"(?<=[.;!?])\s+|\n+", text):
            if not _AMOUNT_SAID.search(sentence) or (years and not any(y in sentence for y in years)):
                continue
            said = content(sentence)
            if sum(any(close(w, t) for t in said) for w in words) > by_cells:
                return True
    return False


def _in_cells(question: str, cells: Sequence[Cell]) -> bool:
    """Whether the cells' rows and columns say every word of ``question`` that asks a
    percentage ("rate", "margin") or names what is asked: an amount answers "What was the
    exchange rate in 2019?" from the row "Exchange rate", never "the gross profit margin" from
    "Gross margin"."""
    said = [w for c in cells for w in content(f"{c.label} {c.header}")]
    words = [w for w in _own_words(question) if w not in _NO_ROW_WORDS]
    return all(any(close(w, t) for t in said) for w in words)


def _part_unbound(parts: Sequence[str], grid: Grid, rows: Sequence[int]) -> bool:
    """Whether a part the question names apart says a word no bound row's label holds
    ("unrecognized stock-based compensation expense" beside the row "Total stock-based
    compensation expense"; not "commitments" of the row "Other purchase obligations and commitments")."""
    told = [w for i in rows for w in content(grid.labels[i])]
    return any(not all(any(close(w, t) for t in told) for w in _own_words(p) if w not in _KIND_WORDS and w != "total") for p in parts)


def look_up(question: str, units_texts: Sequence[tuple[str, str]]) -> Looked | None:
    """The cells ``question`` asks for, read from the tables in ``units_texts`` (the module doc), or None."""
    if not ASKS_VALUE.search(question) or _NOT_A_VALUE.search(question):
        return None
    op = operation(question)
    if op is not None and op.op != "sum" and not (op.op == "ratio" and not op.parts):
        return None  # a computation: arithmetic.py's, or the model's; not a ratio by its name ("the gross NPA ratio"), a row
    if (
        op is None
        and (computed := asks_computed(question)) is not None
        and computed.op == "ratio"
        and not printed_per(question, units_texts)
    ):
        return None  # "passenger fare revenue per passenger-kilometre", no row saying it: per_unit.py's to compute
    named = [p for p in _SPLIT.split(question) if _own_words(p)]
    found: list[tuple[tuple[float, bool], Looked]] = []
    bound = _BOUND.search(question)
    tables = grids(units_texts)
    asked_of = speaking(tables, thing_asked(question))
    for grid in tables:
        if bound and not any(bound.group().lower() in h.lower() for h in grid.headers):
            continue
        if asked_of and grid not in asked_of:
            continue  # "net sales of soft drinks" asked of a table of volumes, beside one of sales (thing_asked.py)
        rows = _rows(grid, question)
        if rows and in_other_section(grid, rows, question):
            continue  # "the total demersal catch" bound to "Total catch", no section's, beside a "Demersal species" section
        if not rows or (op is not None and len(named) > 1 and _part_unbound(named, grid, rows)):
            continue  # a sum of things named apart ("the total X and unrecognized Y"), one bound to no row
        cols = _columns(grid, question, rows)
        if not cols or (len(rows) > 1 and len(cols) > 1) or not (share := _explained(question, grid, rows, cols)):
            continue
        cells = tuple(c for i in rows for h in cols if (c := grid.value(i, h)) is not None)
        if len(cells) != len(rows) * len(cols) or (
            any(c.amount.percent and _amounts_beside(grid, c) for c in cells) and not _ASKS_PERCENT.search(question)
        ):
            continue  # a cell missing, or a percentage the question does not ask for beside the row's amounts
        if _AS_PERCENTAGE.search(question) and not any(c.amount.percent for c in cells):
            continue  # "X expressed as a percentage to Y", "the percentage constituent of A to B": a share, no amount
        if _ASKS_PERCENT.search(question) and not any(c.amount.percent for c in cells) and not _in_cells(question, cells):
            continue  # "the gross profit margin" asked, a "Gross margin" amount bound: a margin no cell prints
        if (
            op is not None
            and op.op == "ratio"
            and not any(re.search(r"ratio|%", f"{c.label} {c.header} {grid.caption} {grid.label_header}", re.I) for c in cells)
        ):
            continue  # "the debt ratio" asked, the "Total debt" amount bound: a ratio no row says
        answer = "; ".join(
            shown(c).replace("-", "", 1) if read_as_size(c) or side_asked(c, question) else shown(c) for c in cells
        )  # "Tax paid: (5.6)" → 5.6; "the net loss" of "Net income (loss): (6,557)" → 6,557
        why = "; ".join(f"{c.label}, {c.header}: {c.amount.text}" for c in cells)
        whole = not periods_asked(question) and all(column_period(c.header, header_year(c.header)) is None for c in cells)
        found.append(((share, whole), Looked(answer, cells, f"read in code: {why}")))
    if not found:
        return None
    top = max(s for s, _ in found)
    best = [f for s, f in found if s == top]  # "the Agribusiness division's operating profit": the segment note, not the group's;
    # a year asked: a full-year table's column before a quarter's ("Full-year results · 2023", not "Q4 2023")
    if len({f.answer for f in best}) != 1 or said_closer(question, best[0].cells, units_texts):
        return None  # none, two tables that answer apart, or a sentence that says it more closely than the cells
    return best[0]


def looked_up(question: str, units: list[Unit]) -> Decision | None:
    """A table's cells a question asks for, as a decision without a model call (in_code.py), or None."""
    done = look_up(question, [(u.chunk_id, u.text) for u in units])
    if done is None:
        return None
    by_id = {u.chunk_id: u for u in units}
    read = [by_id[k] for k in dict.fromkeys(c.key for c in done.cells) if k in by_id]
    return Decision(answer=done.answer, units=read, reason=done.why, kind="table")
