"""The rows of a report's table that moved as a question asks, between two years (issue #63):

    "Which divisions sold less in 2023 than in 2022?"      → the divisions whose revenue fell
    "Which business units grew EBITDA by more than 10%?"  → EBITDA's items whose growth passed 10 %
    "Which revenue lines shrank in 2023?"                 → the revenue rows lower than in 2022

The question is "Which <things> <moved> [<what>] [by more than N%] [in YEAR [than (in) YEAR]]"
(`ASKED`): a verb of rising or falling, or one of selling, earning or spending with "more" or
"less". The years are the two it names, else the one it names and the year before, else the
table's two latest. The rows are the items of a breakdown whose parent row <what> names
("EBITDA › of which: › – Networks"); else every row but totals of a table whose caption, labels'
header or columns say <what>, <things> or the verb's nouns ("Revenue · 2023" for "sold", `_NOUNS`). Each row's cells in the two years' columns give its
change; those that moved so (past the bound, where one is said, in per cent of the earlier
year's value) answer, by their own labels, in the table's order. One table must decide, with two
rows or more compared and one passing at least; else the model reads the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..text.rows import SECTION_MARK, total_row
from ..types import Unit
from .compare import Decision
from .operation import years_in
from .several import SEPARATOR
from .table_cells import Cell, Grid, amount, best_row, close, column_rank, content, grids, header_year, year_columns

_QUANTITY_VERBS = (
    r"catch|caught|sell|sold|produce|produced|ship|shipped|handle|handled|carry|carried|export|exported|import|imported|"
    r"harvest|harvested|mine|mined|process|processed|serve|served|generate|generated|earn|earned|spend|spent|make|made|"
    r"book|booked|lend|lent|deliver|delivered|transport|transported|sell|brew|brewed|grow|grown|land|landed"
)
"""Verbs of a quantity a table counts ("Which species did the company catch less of?"), not of an
effect ("Which segments were affected more by inflation?")."""
ASKED = re.compile(
    r"^\s*which\s+(?P<things>[\w\s'’&/-]+?)\s+(?:(?P<up>grew|increased|rose|went\s+up|improved|expanded)"
    r"|(?P<down>fell|declined|decreased|dropped|shrank|shrunk|contracted|went\s+down)"
    r"|(?P<verb>sold|earned|made|spent|produced|generated)\s+(?P<cmp>more|less|fewer)"
    rf"|(?:did|does|do)\s+(?:the\s+|its\s+|our\s+)?[\w'’&-]+(?:\s+[\w'’&-]+)?\s+(?:{_QUANTITY_VERBS})\s+(?P<cmp2>more|less|fewer)(?:\s+of)?"
    rf"|(?:were|was)\s+(?:{_QUANTITY_VERBS})\s+(?P<cmp3>more|less|fewer))\b(?P<rest>[^?]*)",
    re.I,
)
_BY = re.compile(
    r"(?:\bby\s+)?\b(?P<dir>more\s+than|over|at\s+least|less\s+than|under)\s+(?P<cur>[^\s\d]{1,3}\s?)?(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%|percent|per\s+cent)?",
    re.I,
)
"""A bound on the move ("by more than 10%", "grew more than 10%"); one in amounts ("by more than €10
million") is left to the model."""
_THAN_OTHER = re.compile(
    r"\b(?:faster|slower|better|worse|more|less)\s+than\s+(?!(?:in\s+)?(?:19|20)\d{2}\b|a\s+year\b|the\s+(?:year|previous|prior)\b|\S?\s?\d)",
    re.I,
)
"""A move compared with another thing's ("grew revenue faster than the group"): not a row's own move."""
_NOUNS = {
    "sold": "sales revenue turnover",
    "earned": "earnings income",
    "spent": "expenditure spending costs",
    "produced": "production output",
}
"""What a table calls what the verb asks of ("sold less": its "Revenue" columns)."""
_MOST = re.compile(r"\b(?:most|least|largest|biggest|smallest|fastest|slowest|highest|lowest)\b", re.I)
"""A superlative ("Which franchise's sales fell the most?"): one row asked, not every row that moved."""
_WHAT_END = re.compile(r"\s+(?:by|in|than|during|between|from|compared|versus|vs\.?|over)\b|,", re.I)


@dataclass(frozen=True)
class Moved:
    """The rows that moved as asked, and every row compared."""

    labels: tuple[str, ...]
    cells: tuple[tuple[Cell, Cell], ...]
    """Each row compared: its earlier and later year's cell."""


def _asked(question: str) -> tuple[re.Match[str], bool, re.Match[str] | None, list[str]] | None:
    """The question's form: the match, whether a rise is asked, the bound, and the words of what moved."""
    m = ASKED.search(question)
    if m is None or _MOST.search(m["rest"]) or _THAN_OTHER.search(m["rest"]):
        return None
    cmp = m["cmp"] or m["cmp2"] or m["cmp3"]  # "sold less", "did the company catch less of", "were caught less"
    if cmp and re.match(r"\s*than\b", m["rest"], re.I):
        return None  # "Which segments made more than €100 million?": an amount compared, no move
    up = bool(m["up"]) or (bool(cmp) and cmp.lower() == "more")
    rest = m["rest"].strip()
    what = rest[: w.start()] if (w := _WHAT_END.search(rest)) else rest
    words = content(what) + (_NOUNS.get(m["verb"].lower(), "").split() if m["verb"] else [])
    return m, up, _BY.search(rest), words


def _years(question: str, grid: Grid) -> tuple[int, int] | None:
    said = sorted(years_in(question))
    if len(said) == 2:
        return said[0], said[1]
    if len(said) == 1:
        return said[0] - 1, said[0]
    found = sorted({y for h in grid.headers if (y := header_year(h)) is not None})
    return (found[-2], found[-1]) if len(found) >= 2 else None


def _candidates(grid: Grid, what: list[str], things: list[str]) -> list[int]:
    """The rows compared: the items of the breakdown of the row ``what`` names, else every row but
    totals where the table's caption, labels' header or columns say a word of what is asked."""
    if what and (parent := best_row(grid, what)) is not None:
        own = grid.labels[parent].rpartition(SECTION_MARK)[2]
        items = [i for i, label in enumerate(grid.labels) if label.startswith(f"{own}{SECTION_MARK}")]
        if len(items) >= 2:
            return items
    said = content(" ".join([grid.caption, grid.label_header, *grid.headers]))
    if not any(close(w, t) for w in [*what, *things] for t in said):
        return []
    return [i for i, label in enumerate(grid.labels) if not total_row(label.rpartition(SECTION_MARK)[2])]


def rows_moved(question: str, grid: Grid) -> Moved | None:
    """The rows of ``grid`` that moved as ``question`` asks (the module doc), or None."""
    asked = _asked(question)
    if asked is None:
        return None
    m, up, bound, what = asked
    years = _years(question, grid)
    rows = _candidates(grid, what, content(m["things"]))
    if years is None or len(rows) < 2:
        return None
    words = what or content(m["things"])
    pairs: list[tuple[Cell, Cell]] = []
    labels: list[str] = []
    for i in rows:
        cells: list[Cell | None] = []
        for y in years:
            cols = [h for h in year_columns(grid, y, words, i) if grid.value(i, h) is not None]
            if len(cols) > 1 and column_rank(grid, cols[0], words, i) == column_rank(grid, cols[1], words, i):
                return None  # two columns the question does not choose between
            cells.append(grid.value(i, cols[0]) if cols else None)
        if sum(c is None for c in cells) == 1 and len(year_columns(grid, years[cells.index(None)], words)) == 1:
            given = next(c for c in cells if c is not None)  # "Capelin: –; 62,400": the dash, nothing caught, is 0
            cells = [c or replace(given, header=str(y), amount=amount("0")) for c, y in zip(cells, years)]
        a, b = cells
        if a is None or b is None or a.amount.percent != b.amount.percent:
            return None
        pairs.append((a, b))
        change = b.amount.value - a.amount.value
        if bound is not None:
            if not bound["pct"] or bound["cur"] or a.amount.value == 0:
                return None  # a bound in amounts: its scale is not read here
            size = 100 * change / abs(a.amount.value)
            over = bound["dir"].lower().startswith(("more", "over", "at"))
            moved = (
                (size > float(bound["n"]) if up else -size > float(bound["n"]))
                if over
                else (0 < (size if up else -size) < float(bound["n"]))
            )
        else:
            moved = change > 0 if up else change < 0
        if moved:
            labels.append(_own(grid.labels[i]))
    if not labels:
        return None
    return Moved(tuple(labels), tuple(pairs))


def _own(label: str) -> str:
    """A row's own label, its section and an item's dash aside ("EBITDA › of which: › – Energy
    (generation and sales)" → "Energy (generation and sales)")."""
    return label.rpartition(SECTION_MARK)[2].lstrip("–—-• ").strip()


def moved_rows(question: str, units: list[Unit]) -> Decision | None:
    """The rows that moved as ``question`` asks, decided in code over ``units``' tables (in_code.py), or None."""
    if ASKED.search(question) is None:
        return None
    found = {}
    for grid in grids([(u.chunk_id, u.text) for u in units]):
        if (done := rows_moved(question, grid)) is not None:
            found[done.labels] = (done, grid)
    if len(found) != 1:
        return None  # no table, or two that answer apart
    ((done, grid),) = found.values()
    read = [u for u in units if u.chunk_id in set(grid.keys)]
    compared = "; ".join(f"{_own(a.label)}: {a.amount.text} → {b.amount.text}" for a, b in done.cells)
    return Decision(
        answer=SEPARATOR.join(done.labels),
        units=read,
        reason=f"the rows that moved as asked, {done.cells[0][0].header} to {done.cells[0][1].header}: {compared}",
        kind="table",
    )
