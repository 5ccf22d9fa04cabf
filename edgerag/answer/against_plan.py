"""How far a row came in above or below its plan (issue #63): budgets, plans and targets against
actuals, computed in code.

    "By how much did profit before tax beat the plan in 2024?"
      → Actual 2024 − Plan 2024 of the "Profit before tax" row: 1,502.7 − 1,410.0 = 92.7
    "By how many aircraft movements did the airports beat their 2024 plan?"
      → 74,390 − 72,000 = 2,390
    "By how much did cargo fall short of its budget in 2024?"
      → Budget 2024 − Actual 2024, a size: how far short
    "By what percentage did actual EBITDA beat the budget in 2024?"
      → (Actual 2024 − Budget 2024) / Budget 2024 × 100

The question says a move against a plan (`_AGAINST`: beat, exceed, top, miss, fall short of, come
in above or below, a plan, budget, target or forecast) and one year. The row is the one its words
name (table_cells.py `best_row`), else the one whose label holds them all (cell_lookup.py `sole_row`); the two columns are that year's, one headed by the plan's word
("Plan 2024", "Budget 2024", "2024 Budget"), the other by "actual" or by the year alone. A table
that prints the difference itself ("Variance fav. / (unfav.)") is read as printed elsewhere
(year_cell.py); here none is needed. None where the row, or either column, is not one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cell_lookup import sole_row
from .computed import Computed, rounded
from .operation import Operation, years_in
from .table_cells import PLANNED, Cell, best_row, content, grids, header_year, unscaled_label

_AGAINST = re.compile(
    r"\bby\s+(?:how\s+(?:much|many)|what\s+(?P<pct>percentage|percent))\b(?P<what>.*?)\b(?P<dir>beat|beats|exceed(?:ed|s)?|top(?:ped|s)?|surpass(?:ed|es)?|overshot|overshoot|"
    r"miss(?:ed|es)?|f[ae]ll\s+short\s+of|undershot|undershoot|c[ao]me\s+in\s+(?:above|below|under|over))\s+"
    r"(?:the\s+|its\s+|their\s+|our\s+)?(?:(?:FY\s?)?(?:19|20)?\d\d(?:/\d\d)?\s+)?(?P<plan>plan|budget|target|forecast|guidance)\b",
    re.I,
)
_SEVERAL = re.compile(r"\b(?:that|which|who|together|combined)\b", re.I)
"""Rows picked or added ("the revenue lines that came in under budget, taken together"): no one row."""
_SHORT = re.compile(r"miss|short|under|below", re.I)
_ACTUAL_WORD = re.compile(r"\bactual\b", re.I)
_NOT_AMOUNT = re.compile(r"%|\bchange\b|\bvariance\b|\bvs\b|/", re.I)


def against_plan(question: str, units_texts: Sequence[tuple[str, str]]) -> tuple[float, Operation, tuple[Cell, Cell]] | None:
    """How far the row ``question`` names came in above (or, for "miss" and "fall short", below)
    its plan in the one year it names, as a size, with the two cells (plan, actual); None where
    the question asks no such thing, the tables read do not bind it, or the cells deny its premise
    (the module doc)."""
    m = _AGAINST.search(question)
    years = set(years_in(question))
    if m is None or len(years) != 1 or _SEVERAL.search(m["what"]):
        return None
    year = years.pop()
    words = [w for w in content(f"{m['what']} {question[m.end() :]}") if not w.isdigit()]
    found = []
    for grid in grids(units_texts):
        row = best_row(grid, words)
        row = sole_row(grid, m["what"]) if row is None else row  # "cargo" of "Cargo and mail"
        if row is None:
            continue
        cols = [h for h in grid.headers if header_year(h) == year and not _NOT_AMOUNT.search(h)]
        plans = [h for h in cols if PLANNED.search(h)]
        actuals = [h for h in cols if _ACTUAL_WORD.search(h)] or [h for h in cols if not PLANNED.search(h)]
        if len(plans) != 1 or len(actuals) != 1:
            continue
        plan, actual = grid.value(row, plans[0]), grid.value(row, actuals[0])
        if plan is None or actual is None or plan.amount.percent or actual.amount.percent:
            continue
        diff = actual.amount.value - plan.amount.value
        diff = 100 * diff / abs(plan.amount.value) if m["pct"] and plan.amount.value else diff  # "By what percentage …?"
        found.append((-diff if _SHORT.search(m["dir"]) else diff, plan, actual))
    if len(found) != 1 or found[0][0] < 0:
        return None  # none, two tables apart, or a premise the cells deny ("miss the plan" where it beat it)
    value, plan, actual = found[0]
    return value, Operation("percent_change" if m["pct"] else "difference", (), (year,), 2, m.group()), (plan, actual)


def _from_plan(value: float, op: Operation, cells: tuple[Cell, Cell]) -> Computed:
    """A row's actual less its plan (against_plan.py), in the cells' decimals and scale."""
    plan, actual = cells
    decimals = max(len(c.amount.text.rpartition(".")[2]) if "." in c.amount.text else 0 for c in cells)
    scale = "" if unscaled_label(actual.label) or plan.scale != actual.scale else actual.scale
    if op.op == "percent_change":
        answer = f"{rounded(value, 2)}%"
        shown = f"{answer} (({actual.amount.text} - {plan.amount.text}) / {plan.amount.text} × 100; {actual.label}: {actual.header}, {plan.header})"
        return Computed(answer, shown, value, op, cells)
    answer = rounded(value, decimals) + (f" {scale}" if scale else "")
    if actual.amount.value < plan.amount.value:
        answer = f"{answer} below {PLANNED.search(op.cue).group().lower()}"  # "10.6 below target": how far short, said so
    shown = f"{answer} ({actual.amount.text} - {plan.amount.text}; {actual.label}: {actual.header}, {plan.header})"
    return Computed(answer, shown, value, op, cells)


def plan_computed(question: str, units_texts: Sequence[tuple[str, str]]) -> Computed | None:
    """`against_plan` as the reader's computed answer, or None."""
    found = against_plan(question, units_texts)
    return _from_plan(*found) if found is not None else None
