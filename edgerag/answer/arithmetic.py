"""Arithmetic decided in code (issue #63, item 3): the operation from the question's grammar
(operation.py), its operands bound as cells of a table read (table_cells.py), computed here,
rounded as asked, with its unit and scale, and shown with its formula and the cells' rows:

    "What was the percentage change in Services revenue between 2018 and 2019?"
      → "-8.43%"  shown "-8.43% ((1,054 - 1,151) / 1,151 × 100; Services revenue: 2019, 2018)"

Operands, by what the question names (operands.py):

* one row and two or more years (or none: a change takes the two latest years, an average
  every year): the row's cells in those years' columns;
* two things apart ("the ratio of A to B", "A as a percentage of B", "the difference between
  A and B"): two rows in one column (the year named, else the table's only column), or two
  columns of one row;
* a table of years by row (a year in each label): the years' rows in the column named.

A change the table prints in its own column that the question names ("the variance in percent"),
or in a row that is the result asked ("Revenue growth" for one year), is read as printed
(printed_change.py). Over one row's years: the year it is largest or smallest in (by size where
every value is printed negative: "the greater loss"), how many years it passes a bound,
and which years it passes it in ("In which year was the risk free rate more than 2.0%?", "… was
X negative?"); a bound said with no scale word is in the table's own scale.

A change is the later year less the earlier, a percentage change over the earlier; a difference
of two things named is the first less the second. A percentage asked ("the average % of net
revenue") over operands that are amounts is not computed. Anything not bound in code, or bound
differently by two tables, gives None: the model reads the question as before (no guess).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.printed import SCALE, scale_word
from ..text.rows import CAPTION_SEP, row_spans
from ..types import Unit
from .against_plan import plan_computed
from .cell_lookup import ASKS_VALUE
from .cell_lookup import shown as shown_cell
from .compare import Decision
from .computed import Computed, rounded
from .count_rows import asks_rows_over, rows_counted
from .margins import as_share
from .operands import operands
from .operation import POINTS, SUM_INSIDE, Operation, operation, which_year
from .outflow_rows import printed_negative
from .per_unit import per_unit_computed
from .periods import column_period, periods_asked
from .printed_change import printed_change, printed_percent, printed_row, printed_share
from .stated_result import stated_result
from .table_cells import (
    NOT_MONEY,
    Cell,
    Grid,
    best_row,
    close,
    column_rank,
    content,
    grids,
    header_when,
    header_year,
    label_score,
    unscaled_label,
    year_columns,
)
from .text_operands import text_cells


def _year_values(op: Operation, grid: Grid, question: str) -> tuple[int, list[tuple[int, Cell]]] | None:
    """One row's value in each year (the years named, else every year it has): for "which year" and "how many years"."""
    words = content(question)
    row = best_row(grid, words)
    if row is None:
        return None
    years = sorted(op.years) if len(op.years) >= 2 else sorted({y for h in grid.headers if (y := header_year(h)) is not None})
    out = []
    for y in years:
        cols = [h for h in year_columns(grid, y, words, row) if grid.value(row, h) is not None]
        if not cols or (len(cols) > 1 and column_rank(grid, cols[0], words, row) == column_rank(grid, cols[1], words, row)):
            return None
        out.append((y, grid.value(row, cols[0])))
    return (row, out) if len(out) >= 2 else None  # type: ignore[return-value]


def _written(header: str) -> str:
    """A column's year as the table writes it ("FY19", "2017/2018"), else ""."""
    m = re.search(r"\b(?:FY|F)\s?'?\d{2}\b|\b(?:19|20)\d{2}\s?/\s?(?:19|20)?\d{2}\b", header, re.I)
    return m.group() if m else ""


_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}


def _by_year(op: Operation, grid: Grid, question: str) -> Computed | None:
    """ "In which year was X largest?" (the year of the row's largest value, none tied), "How
    many years did X exceed $2,000 million?" (how many years its value passes the bound) and
    "In which year was X more than 2.0%?" (those years, earliest first; none: not decided)."""
    found = _year_values(op, grid, question)
    if found is None:
        return None
    _, values = found
    cells = tuple(c for _, c in values)
    listed = "; ".join(f"{_written(c.header) or y}: {c.amount.text}" for y, c in values)
    if op.op == "which_year":
        pick = min if op.low else max
        size = all(c.amount.value < 0 for c in cells)  # a row of losses or outflows printed negative: "the greater loss" is the larger size
        best = pick(abs(c.amount.value) if size else c.amount.value for c in cells)
        winners = [y for y, c in values if (abs(c.amount.value) if size else c.amount.value) == best]
        if len(winners) != 1:
            return None
        header = next(c.header for y, c in values if y == winners[0])
        answer = _written(header) or str(winners[0])
        return Computed(answer, f"{answer} ({cells[0].label}: {listed})", float(winners[0]), op, cells)
    bound = op.bound or 0.0
    m = re.search(r"(million|thousand|billion|\bm\b|\bbn\b|\bk\b)", question[question.lower().find(op.cue.lower()) :], re.I)
    asked_scale = _SCALES.get(m.group(1).lower()) if m else None  # a bound with no scale word is as the table prints it
    table_scale = _SCALES.get(cells[0].scale) if cells[0].scale else None
    bound = bound * asked_scale / table_scale if asked_scale and table_scale else bound
    passing = [y for y, c in values if (c.amount.value < bound if op.low else c.amount.value > bound)]
    if op.op == "years_over":
        if not passing:
            return None
        answer = "; ".join(map(str, passing))
        return Computed(answer, f"{answer} ({cells[0].label}: {listed}; {op.cue} {op.bound:g})", float(len(passing)), op, cells)
    n = len(passing)
    return Computed(str(n), f"{n} ({cells[0].label}: {listed}; {op.cue} {op.bound:g})", float(n), op, cells)


def _cue_in_label(op: Operation, cells: Sequence[Cell], question: str) -> bool:
    """Whether the words that asked the operation are the label's own ("Weighted *average* shares")."""
    cue = content(op.cue)
    if op.op == "sum":
        return False  # "the total revenue for 2018 and 2019": the Total revenue row, added over the years
    if any(content(question).count(w) > content(c.label).count(w) for w in cue for c in cells):
        return False  # "the average Denominator: Weighted average shares": asked once more than the label says it
    return bool(cue) and all(all(any(w == x for x in content(c.label)) for w in cue) for c in cells)


def _in_time(cells: list[Cell]) -> list[Cell]:
    """Two things named apart, earlier first where both columns are dated apart (by their dates,
    else by the quarters, halves or months they name: periods.py); else as named."""
    for when in (
        [header_when(c.header) for c in cells],
        [p.order() if (p := column_period(c.header, header_year(c.header))) else None for c in cells],
    ):
        if all(w is not None for w in when) and len(set(when)) == len(when):
            return [c for _, c in sorted(zip(when, cells), key=lambda p: p[0])]  # type: ignore[arg-type]
    return cells


_ASKS_PERCENT = re.compile(r"%|\bpercent(?:age)?s?\b", re.I)
"""A question that asks a percentage: its operands are percentages, never amounts."""
_TOTAL = re.compile(r"\btotal\b", re.I)


def _the_total_first(a: Cell, b: Cell) -> bool:
    """Whether ``a`` is a total and ``b`` not, by what names them apart: their rows, else their columns."""
    x, y = (a.label, b.label) if a.label != b.label else (a.header, b.header)
    return bool(_TOTAL.search(x)) and not _TOTAL.search(y)


def _calc(op: Operation, cells: list[Cell]) -> tuple[float, str] | None:
    """The value and its formula: a change is the later less the earlier (by year, else as the
    question names them: "from A to B"), a difference the first named less the second."""
    if op.op in ("change", "percent_change"):
        cells = _in_time(cells) if op.parts else cells
    elif op.op == "difference" and not op.parts:
        cells = cells  # by year, earlier first
    v = [c.amount.value for c in cells]
    t = [re.sub(r"[A-Z]{0,3}\$|[€£¥]", "", c.amount.text).strip() for c in cells]
    if op.op == "change" and printed_negative(cells):  # the costs' size changed (outflow_rows.py)
        v, t = [-x for x in v], [x.lstrip("-") for x in t]
    first_less_second = op.op == "difference" and op.parts
    if op.op == "difference":  # a difference is a size: "the difference between A and B"
        a, b = (v[0], v[1]) if first_less_second else (v[-1], v[0])
        x, y = (t[0], t[1]) if first_less_second else (t[-1], t[0])
        return abs(a - b), f"{x} - {y}" if a >= b else f"{y} - {x}"
    if op.op == "change" or (op.op == "percent_change" and all(c.amount.percent for c in cells)):
        return v[-1] - v[0], f"{t[-1]} - {t[0]}"  # a rate's change is in points
    if op.op == "percent_change":
        if v[0] == 0:
            return None
        return (v[-1] - v[0]) / v[0] * 100, f"({t[-1]} - {t[0]}) / {t[0]} × 100"  # over the earlier value as signed, as reports compute it
    if op.op == "average":
        return sum(v) / len(v), f"({' + '.join(t)}) / {len(v)}"
    if op.op == "sum":
        return sum(v), " + ".join(t)
    if op.op == "proportion" and len(cells) == 2 and _the_total_first(*cells):
        v, t = (
            v[::-1],
            t[::-1],
        )  # a share of a total, however worded ("… of all sources consists of Network Solutions"): the total is the whole
    if op.op in ("ratio", "proportion") and len(v) == 2 and v[1] != 0:
        if op.op == "proportion":  # a part's share of a whole is a size: expenses printed negative are still a share
            return abs(v[0]) / abs(v[1]) * 100, f"{t[0].lstrip('-')} / {t[1].lstrip('-')} × 100"
        if re.search(r"\bcover", op.cue, re.I):  # "How many times did operating profit cover finance costs?": sizes, costs printed negative
            return abs(v[0]) / abs(v[1]), f"{t[0].lstrip('-')} / {t[1].lstrip('-')}"
        return v[0] / v[1], f"{t[0]} / {t[1]}"
    return None


def _says(word: str, grid: Grid, cells: Sequence[Cell], units_texts: Sequence[tuple[str, str]]) -> bool:
    """Whether the cells' rows and columns, or the line just above their table ("The following
    table presents the average prices …"), say ``word``."""
    if all(word in content(f"{c.label} {c.header} {c.row}") for c in cells):
        return True
    text = next((t for k, t in units_texts if k == cells[0].key and grid.lines and grid.lines[0] in t), "")
    above = [line for line in text[: text.find(grid.lines[0])].splitlines() if line.strip()] if text else []
    return bool(above) and word in content(above[-1])


_FALL = re.compile(r"(?:decrease|decline|fell|fall|drop)", re.I)
"""A change asked as a fall ("How much did costs decrease by?"): its size is the answer."""


def _finish(
    op: Operation, cells: list[Cell], question: str, units_texts: Sequence[tuple[str, str]]
) -> tuple[tuple[float, int], Computed] | None:
    """The operation computed over its operands, with its unit, scale and formula; and how surely its rows were named."""
    done = _calc(op, cells)
    if done is None:
        return None
    value, formula = done
    if value < 0 and op.op == "change" and _FALL.match(op.cue):
        value = -value  # "How much did costs decrease by?": the decrease, a size
    percent = op.op in ("percent_change", "proportion") or (op.op != "ratio" and all(c.amount.percent for c in cells))
    scales = {"" if unscaled_label(c.label) else c.scale for c in cells}
    scale = next(iter(scales)) if len(scales) == 1 and op.op not in ("ratio", "proportion", "percent_change") and not percent else ""
    if (
        not scale
        and not percent
        and op.op not in ("ratio", "proportion", "percent_change")
        and not any(c.unscaled or unscaled_label(c.label) or NOT_MONEY.search(f"{c.label} {c.header}") for c in cells)
    ):
        scale = _text_scale(units_texts, {c.key for c in cells})
    points = op.op in ("change", "difference") and percent and POINTS.search(question)  # "By how many percentage points …?"
    answer = rounded(value, op.decimals) + (" percentage points" if points else "%" if percent else f" {scale}" if scale else "")
    labels = list(dict.fromkeys(c.label for c in cells))
    heads = list(dict.fromkeys(c.header for c in cells))
    shown = f"{answer} ({formula}; {' and '.join(labels)}: {', '.join(heads)})"
    return strength(cells, question), Computed(answer, shown, value, op, tuple(cells))


def strength(cells: Sequence[Cell], question: str) -> tuple[float, int]:
    """How surely ``question`` names the rows of ``cells``, to choose between tables: their labels'
    scores (label_score), then how many of its words the least told of them says with its table's
    caption ("dairy revenue": the row "Dairy" under "Revenue by category" before "Revenue")."""
    words = content(question)
    scores = sum(label_score(c.label, words) for c in cells)
    told = [content(f"{c.label} {c.row.partition(CAPTION_SEP)[0] if CAPTION_SEP in c.row else ''}") for c in cells]
    return scores, min((sum(any(close(w, t) for t in said) for w in words) for said in told), default=0)


def _half_asked(question: str) -> Operation | None:
    """A half year's value asked ("What were net sales in the first half of 2024?"): a sum of its
    quarters where a table prints quarters only (period_cells.py `halves_as_quarters`); a table
    with the half's own column answers by its cell (cell_lookup.py), so none is computed there."""
    halves = [p for p in periods_asked(question) if p.part == "half" and p.year is not None]
    if len(halves) != 1 or not ASKS_VALUE.search(question) or len(periods_asked(question)) != 1:
        return None
    return Operation("sum", (), (halves[0].year,), 2, "", periods=(halves[0],))  # type: ignore[arg-type]


def compute(question: str, units_texts: Sequence[tuple[str, str]]) -> Computed | None:
    """The number ``question`` asks, computed from the tables in ``units_texts``; None when its
    operation or its operands are not bound in code (the module doc)."""
    if asks_rows_over(question):
        return rows_counted(question, units_texts)
    op = operation(question)
    if (planned := plan_computed(question, units_texts)) is not None:
        return planned  # "By how much did profit before tax beat the plan in 2024?" (against_plan.py)
    if (op is None or op.op == "average") and (unit := per_unit_computed(question, units_texts)) is not None:
        return unit  # "What is the average group loan per borrower?" (per_unit.py)
    shares = list(as_share(question, units_texts)) if op is None else []
    if shares:  # "What was the EBITDA margin in 2024?" where no table prints it: EBITDA as a share of revenue
        return next((done for share in shares if (done := compute(share, units_texts))), None)
    op = op or _half_asked(question)
    if op is None:
        return None
    if any(SUM_INSIDE.search(p) for p in op.parts):
        return None  # a whole that is itself a sum: no one row is it
    found: list[tuple[tuple[float, int], Computed]] = []
    asked = op
    for grid in grids(units_texts):
        if asked.op in ("which_year", "count_years", "years_over"):
            done_by_year = _by_year(asked, grid, question)
            if done_by_year is not None:
                found.append((strength(done_by_year.cells[:1], question), done_by_year))
            continue
        printed = (
            printed_change(asked, grid, question)
            or printed_percent(asked, grid, question)
            or printed_row(asked, grid, question)
            or printed_share(asked, grid, question)
        )
        if printed is not None:  # the report's own "Variance in Percent" column, its "Revenue growth" row: as printed (printed_change.py)
            answer = shown_cell(printed)
            shown = f"{answer} (as the table prints it: {printed.label}, {printed.header})"
            found.append((_raised(strength([printed], question)), Computed(answer, shown, printed.amount.value, asked, (printed,))))
            continue
        op, cells = operands(asked, grid, question)
        if not cells or len(cells) < 2 or (op.op == "sum" and not op.parts and len(op.periods) < 2) or _cue_in_label(op, cells, question):
            continue
        if op.label_says and not _says(op.label_says, grid, cells, units_texts):
            continue  # "the change in average revenue between 2018 and 2019" over a Revenue row: averages not printed
        if (
            op.op in ("average", "sum", "change", "difference")
            and _ASKS_PERCENT.search(question)
            and not all(c.amount.percent for c in cells)
        ):
            continue  # "the average % of net revenue for cost of net revenue": a percentage asked, amounts bound
        done = _finish(op, cells, question, units_texts)
        if done is not None:
            found.append(done)
    asks_year = which_year(question)
    if asks_year and asked.op not in ("which_year", "count_years", "years_over"):
        found = []  # "Which year had the lowest percentage difference …?": a year asked, never a number computed
    if not found and (
        by_year := asks_year
    ):  # "… Weighted average grant-date fair value … the smallest?": the row's own "average", or its table's"
        for grid in grids(units_texts):
            done_by_year = _by_year(by_year[0], grid, question)
            if done_by_year is not None and all(_says(w, grid, done_by_year.cells[:1], units_texts) for w in by_year[1]):
                found.append((strength(done_by_year.cells[:1], question), done_by_year))
    if not found and asked.op in ("change", "percent_change", "average", "sum", "difference") and not asked.parts and not asks_year:
        stated = text_cells(asked, question, units_texts)  # "US$6 million … as at June 2018", "US$6.9 million … June 2019"
        done = _finish(asked, stated, question, units_texts) if stated else None
        if done is not None:
            found.append(done)
    if not found:
        return None
    found.sort(key=lambda f: f[0], reverse=True)
    if len(found) > 1 and found[1][0] == found[0][0] and found[1][1].answer != found[0][1].answer:
        return None  # two tables, two answers: nothing decided
    return found[0][1]


def _raised(score: tuple[float, int]) -> tuple[float, int]:
    """A strength one better: a change the table prints ("Variance in Percent") before one computed."""
    return score[0] + 1, score[1]


def _text_scale(units_texts: Sequence[tuple[str, str]], keys: set[str]) -> str:
    """A scale the prose beside the rows says ("columnar dollars in millions"), else ""."""
    for key, text in units_texts:
        if key not in keys:
            continue
        prose = text
        for s, e in reversed(row_spans(text)):
            prose = prose[:s] + prose[e:]
        m = SCALE.search(prose)
        if m and m["word"]:
            return scale_word(m.group())
    return ""


def computed(question: str, units: list[Unit]) -> Decision | None:
    """An arithmetic question decided in code over ``units``' tables (in_code.py), or None."""
    c = compute(question, [(u.chunk_id, u.text) for u in units])
    if c is None:
        return None
    answer, shown = c.answer, c.shown
    scale = re.search(r"(thousand|million|billion)$", answer)
    fall = c.value < 0 or bool(_FALL.match(c.operation.cue))
    stated = (
        stated_result(c.value, answer.endswith("%"), scale.group(1) if scale else "", question, units, fall)
        if c.operation.op in ("change", "percent_change")
        else None
    )
    if stated is not None:  # stated_result.py: the report's own statement of the change computed
        answer, shown = stated[0], f"{stated[0]}, as the report states it: '{stated[1][:160]}' (computed {shown})"
    by_id = {u.chunk_id: u for u in units}
    read = [by_id[k] for k in dict.fromkeys(x.key for x in c.cells) if k in by_id]
    return Decision(answer=answer, units=read, reason=f"computed in code: {shown}", kind="arithmetic", text=shown)
