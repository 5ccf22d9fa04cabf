"""The cells an arithmetic question's operands bind (arithmetic.py computes over them), by what
the question names:

* one row and two or more years (or none: a change takes the two latest years, an average
  every year; one: a change in that year is from the year before): the row's cells in those
  years' columns, of one kind of column, a year's own before a change's headed by it ("Change
  Amount · 2017"); a year named whose cell is "—" is 0 in a sum or an average (a report's
  nothing), where another year named has a value;
* two things apart ("the ratio of A to B", "A as a percentage of B", "the sum of A and B"):
  two rows in one column (the year named, a column of the span of years named, "2023 - 2024",
  else the table's only column), or two columns of one row, each part its own column ("… due
  more than 5 years as a percentage of total …": not both the Total column); named with "and" in them ("the sum of research and development and sales and marketing
  expenses"), split at the one "and" where each side names one row (`split_at_rows`);
* one row and two or more quarters, halves or months, where the columns are such parts
  (period_cells.py); two things apart that are only such parts ("between Q3 and Q4 2020") are
  those periods;
* a row its words name alike with others, told apart by a number its label and the question
  both say ("28 nanometers" among "40 nanometers", "65 nanometers": `numbered_rows`);
* a ratio of one thing's two years ("the ratio of total revenue in 2018 to 2017"): the row's
  cell in the first year said over its cell in the second;
* a table of years by row (a year in each label): the years' rows in the column named; where a
  year has several rows ("FY2019 › First Quarter", "FY2019 › Second Quarter"), the one the
  question names.
* a sum over a run of years whose columns are spans of them ("between 2020 to 2022" over "2020"
  and "2021 - 2022");
* a sum or an average of two rows the question joins with "and" in one year, split where the
  table's labels split ("the average value of raw materials and finished goods in 2018");
* a sum or an average over every row, where the question says so ("for all non-employee
  directors"), or over the N rows largest ("the top 3 prepaid expenses in 2018": every_row.py);
* a sum or an average over rows the question names by their labels, two or more, in the one
  column it names (its header not a year's): "the average number of shares owned by L. Gordon
  Crovitz and Donald P. Hutchison". (Every row of a column, "the NEOs' total salary", was tried:
  a question's words may pick a subset the rows do not tell apart, "the Vice Presidents".)

None where they are not bound in code: the model reads the question.

Measured on TAT-QA's whole test set (1.5B, tatqa.py --all): the rows and columns told apart by
their numbers ("28 nanometers", "Level 1", "'1-3 years'"), a label's "Less:" lead, a year's own
column before its change column, the one-row ratio of two years, two parts of one row as two
columns, a span of years' column, a dash as nothing in a sum or an average, two rows joined with
"and" in one year, and a plan's year over a table of no years turned 21 abstentions or wrong
answers right and none wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..text.rows import SECTION_MARK
from .cell_lookup import sole_row
from .every_row import every_row, top_rows
from .nil_years import CHANGE_HEADER, nil_years
from .operation import Operation, names_a_period, said_numbers, years_in
from .part_rows import beside, part_row, share_of_column
from .period_cells import by_period, halves_as_quarters, period_cells
from .table_cells import (
    GENERIC,
    Cell,
    Grid,
    best_row,
    close,
    column_rank,
    content,
    header_when,
    header_year,
    named_columns,
    question_words,
    year_columns,
)
from .table_words import OWN_ENTITY


def _span_cells(op: Operation, grid: Grid, row: int) -> list[Cell] | None:
    """A sum over a run of years whose columns are spans of them ("between 2020 to 2022" over
    "2020" and "2021 - 2022"): the row's cells in the columns that cover the run, each year once."""
    if op.op != "sum" or len(op.years) < 2:
        return None
    asked = set(op.years)
    cols = [h for h in grid.headers if (ys := set(years_in(h))) and ys <= asked and not CHANGE_HEADER.search(h)]
    spans = [set(years_in(h)) for h in cols]
    if not any(len(x) > 1 for x in spans) or sum(len(x) for x in spans) != len(asked) or set().union(*spans) != asked:
        return None
    cells = [grid.value(row, h) for h in cols]
    return None if any(c is None for c in cells) else cells  # type: ignore[return-value]


def _year_cells(op: Operation, grid: Grid, row: int, words: list[str]) -> list[Cell] | None:
    if spanned := _span_cells(op, grid, row):
        return spanned
    years = sorted(op.years)
    found = sorted({y for h in grid.headers if (y := header_year(h)) is not None and grid.value(row, h) is not None})
    if not years:
        if op.op in ("change", "percent_change", "difference"):
            years = found[-2:]
        elif op.op == "average":
            years = found
    elif len(years) == 1 and op.op in ("change", "percent_change") and years[0] - 1 in found:
        years = [years[0] - 1, years[0]]  # "the change in capitalized interest in 2019": from the year before
    if len(years) < 2:
        return None
    cells: list[Cell] = []
    nil = nil_years(op, grid, row, years, words)
    for y in years:
        if y in nil:
            cells.append(nil[y])  # "—" in a year named: nothing, 0 (nil_years.py)
            continue
        cols = [h for h in year_columns(grid, y, words, row) if grid.value(row, h) is not None]
        cols = [h for h in cols if not CHANGE_HEADER.search(h)] or cols  # "2017" beside "Change Amount · 2017": the year's own
        if cells:  # the same kind of column as the first year's ("Amount", not "% to Net Sales")
            cols = sorted(cols, key=lambda h: _family(h) != _family(cells[0].header))
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words, row) == column_rank(grid, cols[1], words, row) and not cells):
            return None  # no column of that year, or two the question does not choose between
        cells.append(grid.value(row, cols[0]))  # type: ignore[arg-type]
    if len({c.amount.percent for c in cells}) > 1:
        return None  # a percentage and an amount: no operands of one operation
    return cells


"""A column of changes ("Change Amount · 2017", "Increase (decrease) 2019"): no year's own value,
where the year has a column of its own beside it."""


_ONE_ROW_RATIO = re.compile(
    r"\bratio\s+of\b(?:(?!\b(?:to|and|over)\b).)*\b(?:19|20)\d{2}\s+(?:to|over)\s+(?:(?:fiscal|FY)\s*)?(?:19|20)\d{2}\b", re.I
)
"""A ratio of one thing's two years ("the ratio of total revenue in 2018 to 2017"): its first
year's value over its second's."""


def _family(header: str) -> str:
    """A column's header without its year: "2019 · Amount" and "2018 · Amount" are one family."""
    return " ".join(w for w in content(header) if not years_in(w))


def _year_rows(op: Operation, grid: Grid, words: list[str], question: str) -> list[Cell] | None:
    """A table of years by row: the years' rows in the one column the question names."""
    by_year: dict[int, list[int]] = {}
    for i, label in enumerate(grid.labels):
        if len(ys := years_in(label)) == 1 and ys[0] in op.years:
            by_year.setdefault(ys[0], []).append(i)
    rows = {}
    for y, found in by_year.items():  # a year's several rows ("FY2019 › First Quarter", "FY2019 › Second Quarter"): the one named
        i = found[0] if len(found) == 1 else best_row(grid, [w for w in words if not years_in(w)], found)
        if i is None:
            return None
        rows[y] = i
    cols = named_columns(grid, words, question)  # "the level 1 FVPL": the Level 1 column, not Level 2's
    if len(op.years) < 2 or len(rows) != len(op.years) or not cols:
        return None
    cells = [grid.value(rows[y], cols[0]) for y in sorted(op.years)]
    return None if any(c is None for c in cells) else cells  # type: ignore[return-value]


def _one_column(op: Operation, grid: Grid, rows: Sequence[int], words: list[str]) -> str | None:
    if len(op.years) == 1:
        for h in year_columns(grid, op.years[0], words):
            if all(grid.value(i, h) is not None for i in rows):
                return h
        if any(header_year(h) is not None for h in grid.headers):
            return None
        # no column of any year: the year names a thing ("… under the 2019 plan"), the columns are named by words
    spans = [
        h
        for h in grid.headers
        if len(op.years) > 1
        and set(years_in(h)) == set(op.years)
        and not CHANGE_HEADER.search(h)
        and all(grid.value(i, h) is not None for i in rows)
    ]
    if len(spans) == 1:
        return spans[0]  # "… in the 2023-2024 period" over a column headed "2023 - 2024"
    named = [h for h in named_columns(grid, words) if all(grid.value(i, h) is not None for i in rows)]
    if named:
        return named[0]
    filled = [h for h in grid.headers if all(grid.value(i, h) is not None for i in rows)]
    totals = [h for h in filled if content(h) == ["total"]]
    if len(filled) > 1 and len(totals) == 1 and not years_in(" ".join(filled)):
        return totals[0]  # "… of the total contractual obligations": the Total column, where no column is named
    return filled[0] if len(filled) == 1 else None


def _part_columns(grid: Grid, part: str, words: list[str], op: Operation, others: list[str]) -> list[str]:
    """The columns a part names: by its date ("November 2018" → "November 30, 2018"), else its
    words, in the one year the question names where the columns have years ("In the first
    quarter of 2018, … the high and low price": 2018's High and Low). Of a date's columns, the
    one the part's words name, else the question's ``others`` ("consolidated … between FY 2018
    and FY 2019": the Consolidated columns, not the Unconsolidated)."""
    when = header_when(part)
    if when is None:
        named = named_columns(grid, words)
        if not named and (numbers := said_numbers(part)):  # "'1-3 years'": the column of those numbers, its words all generic
            named = [h for h in grid.headers if said_numbers(h) == numbers]
        if len(op.years) == 1 and any(header_year(h) is not None for h in named):
            return [h for h in named if header_year(h) == op.years[0]]
        return named
    dated = [h for h in grid.headers if (w := header_when(h)) is not None and w[0] == when[0] and (not when[1] or w[1] == when[1])]
    said = [w for w in words if not years_in(w)] + others
    if len(dated) > 1 and said:
        named = [h for h in named_columns(grid, said) if h in dated]  # "Q3 2020": of 2020's columns, the one headed Q3
        if len(named) > 1 and column_rank(grid, named[0], said) == column_rank(grid, named[1], said):
            return []  # two columns the question does not choose between
        return named[:1]
    return dated


_ALSO = re.compile(r"\bas\s+well\s+as\b|\balong\s+with\b|\btogether\s+with\b", re.I)
"""A part adding another thing to the first ("A, as well as B")."""


def _names_more(grid: Grid, row: int, part: str) -> bool:
    """Whether ``part``, a list ("A and B", "A, B"), names beside ``row`` another whole row by one
    of its items ("investor relations and consultants"), or by what it adds "as well as" ("…
    intangible assets, as well as investment in unconsolidated subsidiaries"); else never where
    ``row``'s own label is such a list ("Research and development")."""
    label = _own(grid.labels[row])
    if (also := _ALSO.search(part)) and not _ALSO.search(label):
        others = [j for j in range(len(grid.labels)) if j != row]
        if best_row(grid, content(part[also.end() :]), others) is not None:
            return True  # "… intangible assets, as well as investment in unconsolidated subsidiaries": a second row
    if re.search(r"\band\b|,", label) or not re.search(r"\s+and\s+|,\s", part):
        return False
    own = set(content(label))
    others = [j for j in range(len(grid.labels)) if j != row]
    items = [x for x in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", part) if x.strip()]
    return any(best_row(grid, content(x), others) is not None for x in items if not set(content(x)) <= own)


def split_at_rows(grid: Grid, joined: str) -> tuple[str, str] | None:
    """``joined`` ("research and development and sales and marketing expenses") split at the one
    "and" where each side names one row of ``grid``, the two rows apart; None where no split, or
    several splits naming different rows, does."""
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for m in re.finditer(r"\s+and\s+(?:the\s+)?", joined, re.I):
        a, b = joined[: m.start()].strip(), joined[m.end() :].strip()
        i, j = best_row(grid, content(a)), best_row(grid, content(b))
        if i is not None and j is not None and i != j and not _names_more(grid, i, a) and not _names_more(grid, j, b):
            found.setdefault((i, j), (a, b))
    return next(iter(found.values())) if len(found) == 1 else None


def _part_cells(op: Operation, grid: Grid, question: str) -> list[Cell] | None:
    a, b = part_row(grid, op.parts[0]), part_row(grid, op.parts[1])
    if (a is None or b is None) and op.joined and (split := split_at_rows(grid, op.joined)):
        op = replace(op, parts=split)  # split where the table's labels split it, not at the first "and"
        a, b = best_row(grid, content(split[0])), best_row(grid, content(split[1]))
    if (a is None) != (b is None):
        a, b = beside(grid, op.parts, a, b)
    a_words, b_words = (question_words(p) for p in op.parts)
    if a is not None and b is not None and (_names_more(grid, a, op.parts[0]) or _names_more(grid, b, op.parts[1])):
        return None  # "investor relations and consultants": a part naming two rows is no one row's cell
    if a is not None and b is not None and a != b:
        told = content(grid.labels[a]) + content(grid.labels[b])
        unsaid = [
            w for w in a_words + b_words if not years_in(w) and not any(close(w, t) for t in told)
        ]  # "actual" of "the City's actual 2024 revenue": the column's
        rest = [w for w in question_words(question) if w not in a_words and w not in b_words] + unsaid
        h = _one_column(op, grid, [a, b], rest)
        if h is None and (shared := [w for w in a_words if any(close(w, x) for x in b_words)]):
            h = _one_column(op, grid, [a, b], shared)  # "the amortized costs of A as a percentage of the total amortized cost"
        return None if h is None else [grid.value(a, h), grid.value(b, h)]  # type: ignore[list-item]
    others = [w for w in question_words(question) if w not in a_words and w not in b_words and not years_in(w)]
    ca, cb = _part_columns(grid, op.parts[0], a_words, op, others), _part_columns(grid, op.parts[1], b_words, op, others)
    if len(cb) == 1 and len(ca) > 1 and cb[0] in ca:
        ca = [h for h in ca if h != cb[0]]  # "… due more than 5 years as a percentage of total …": apart, not both the Total column
    elif len(ca) == 1 and len(cb) > 1 and ca[0] in cb:
        cb = [h for h in cb if h != ca[0]]
    if ca and cb and ca[0] != cb[0]:
        row = best_row(grid, content(question))
        if row is not None and (x := grid.value(row, ca[0])) and (y := grid.value(row, cb[0])):
            return [x, y]
    if op.op == "proportion" and (shared := share_of_column(grid, op.parts)):  # "What share of gross loans goes to agriculture?"
        part, whole, h = shared
        if (x := grid.value(part, h)) and (y := grid.value(whole, h)):
            return [x, y]
    return None


_YEAR_BEFORE = re.compile(
    r"\b(?:a\s+year\s+(?:earlier|before|ago)|the\s+(?:year|period)\s+before|(?:the\s+)?(?:previous|prior|preceding)\s+year|last\s+year)\b",
    re.I,
)
"""A difference from the year before the one named ("How many more … at the end of 2023 than a year earlier?"): a change."""


_ASKING_WORDS = frozenset("how much many what did does do was were the fast quickly far go goes went gone up down by".split())
_MOVE_WORDS = frozenset("total sum combined grow grew grown rise rose risen fall fell fallen increase increased decrease decreased".split())


def operands(op: Operation, grid: Grid, question: str) -> tuple[Operation, list[Cell] | None]:
    words = content(question)
    if op.op == "difference" and len(op.years) == 1 and not op.parts and _YEAR_BEFORE.search(question):
        op = replace(op, op="change")  # the year named less the one before it
    kept: list[str] = []  # the row's words the cue says ("How much did inpatient admissions grow"): the row must say them
    if op.op in ("sum", "percent_change"):  # "the total Products revenue": not the Total row; "the percentage change in
        cue = [  # "How much did profit for the year grow": not "profit", nor the "year" of its label
            w for w in content(op.cue) if (w in GENERIC or w in _MOVE_WORDS) and w not in ("year", "period")
        ]
        owners = {m.lower() for m in re.findall(r"([A-Za-z]+)(?:'s|’s)\b", op.cue)}  # "the City's total spending": its owner
        kept = [w for w in content(op.cue) if w not in cue and w not in _ASKING_WORDS and w.split("'")[0] not in owners | OWN_ENTITY]
        words = [w for w in words if w not in cue] or words  # net revenues": not "Percentage of net revenues"
    if op.op == "percent_change":  # "the change in Total Revenue … as a percentage": the ask's word, not a row's
        words = [w for w in words if w not in ("percentage", "percent")] or words
    if op.parts and by_period(grid) and all(names_a_period(p) for p in op.parts):
        op = replace(op, parts=())  # "between Q3 and Q4 2020" over columns of quarters: the periods, with their years
    if op.parts:
        cells = _part_cells(op, grid, question)
        if cells or op.op in ("ratio", "proportion"):
            return op, cells
        op = replace(op, parts=())  # "between the restructuring costs and other reserves in 2019 and 2018": one row
    if op.op == "ratio" and len(op.years) == 2 and _ONE_ROW_RATIO.search(question):
        row = best_row(grid, words)  # "the ratio of total revenue in 2018 to 2017": one row's years, as said
        cells = None if row is None else _year_cells(op, grid, row, words)
        if cells is not None and len(cells) == 2 and op.years[0] > op.years[1]:
            cells = cells[::-1]
        return op, cells
    if op.op in ("ratio", "proportion"):
        return op, None  # two things to divide, not named apart
    by_rows = _year_rows(op, grid, words, question)
    if by_rows:
        return op, by_rows
    if top := top_rows(op, grid, question):
        return top  # "the total sum of the top 3 prepaid expenses in 2018" (every_row.py)
    row = best_row(grid, words)
    if row is None and (numbered := numbered_rows(grid, question)):
        row = best_row(grid, words, numbered)  # "28 nanometers" among "40 nanometers", "65 nanometers"
    if row is None and not op.parts:
        row = sole_row(grid, question)  # "How many more subscribers …?": "Mobile subscribers (million)", the one that says it
    if (
        (row is None or len(op.years) == 1)
        and op.op in ("sum", "average")
        and len(op.years) <= 1
        and (split := split_at_rows(grid, _unyeared(question)))
    ):
        two = replace(op, parts=split)  # "the average value of raw materials and finished goods in 2018": two rows, one year
        if cells := _part_cells(two, grid, question):
            return two, cells
    if row is None and (every := every_row(op, grid, question)):
        return every  # "the average fee … for all non-employee directors": every row's (every_row.py)
    if row is None and op.op in ("sum", "average") and not op.years:
        return op, _column_rows(grid, question)
    if row is not None and by_period(grid):  # columns of quarters, halves or months (period_cells.py)
        op = halves_as_quarters(op, grid)  # "the first half of 2020" beside quarters only: Q1 + Q2
        cells = period_cells(op, grid, row, words, question)
        if cells or any(p.part and by_period(grid, p.part) for p in op.periods):
            return op, cells
    if row is not None and not all(any(close(w, t) for t in content(grid.labels[row])) for w in kept):
        return op, None  # "inpatient admissions" bound to "Inpatient (IPD)" revenue: the row says less than the question
    return op, None if row is None else _year_cells(op, grid, row, words)


def numbered_rows(grid: Grid, question: str) -> list[int]:
    """The rows whose labels hold a number, no year, that the question says as it stands
    ("28 nanometers" among "14 nanometers and under", "40 nanometers": words alone tie them, a
    row's number tells it)."""
    said = said_numbers(question)
    return [i for i, label in enumerate(grid.labels) if (told := said_numbers(_own(label))) and told <= said]


def _unyeared(question: str) -> str:
    """The question without its years and what says them ("in 2018", "for fiscal 2019")."""
    return re.sub(r"\s*\b(?:in|for|of|during|as\s+of|at)?\s*(?:(?:fiscal|FY)\s*)?(?:19|20)\d{2}\b", "", question, flags=re.I)


def _own(label: str) -> str:
    return label.rpartition(SECTION_MARK)[2].strip()


def _column_rows(grid: Grid, question: str) -> list[Cell] | None:
    """The rows a sum or an average over rows adds: those the question names by their labels,
    two or more, in the column it names (the module doc)."""
    words = question_words(question)
    cols = [h for h in named_columns(grid, words) if header_year(h) is None]
    rows = [
        i
        for i, label in enumerate(grid.labels)
        if len(_own(label)) > 3
        and "total" not in content(_own(label))
        and re.search(rf"(?<!\w){re.escape(_own(label))}(?!\w)", question, re.I)
    ]  # named whole, by word ("Other" is not in "another"); a total row is no item of the sum
    if not cols or len(rows) < 2:
        return None
    cells = [grid.value(i, cols[0]) for i in rows]
    if any(c is None for c in cells) or len({c.amount.percent for c in cells}) > 1:  # type: ignore[union-attr]
        return None
    return cells  # type: ignore[return-value]
