"""A number the model read from a report's table, moved to the column of the year asked (issue
#63, "the wrong column"): asked "What were the inventories of work in progress in 2018?", the
model reads the row right and gives the neighbouring year's cell ("10,269", the 2019 column).

Where the question proper names one year and asks no computation (operation.py; "the total
charges for fiscal 2019" names a cell, not a sum), and the reply is one bare number held by
exactly one row of the tables read, in a column of another year, the answer is that row's cell in
the year asked, as printed (said with its scale after, as any number read from a table is:
scaled.py). So is one read from a column of changes ("Change in %: 27.7" for "What did the insurer
earn from its investments in 2023?") where the question asks no change, percentage or rate. A
number the row already holds in the year asked, one held by several rows, by another column of no
year, or by no table is left as it is. The same holds for a row code looked up by
its label (read.py `decided`).

`in_column_named`: a number the model read from a column the question tells apart from the one
it names ("at constant exchange rates": "% change · CER", not "% change · CHF") moves to that
column's cell, in the same row and year.

`year_of_size`: asked "In which year was X larger?", the model names a year of the row it read
("Other financial income; 2017/2018: 182; 2018/2019: 159" → "2018/2019"); the row's own cells
say which year it is (the check's ``which year`` step, where code did not decide from the tables).
The row's year columns are compared as arithmetic.py compares them (by size where every value is
printed negative), or a sentence's values by year ("21.0% in fiscal 2019, 24.5% in fiscal 2018
and 35.0% in fiscal 2017": list_value.py `year_pairs`); a tie, a reply naming no year of them:
left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.printed import tight
from ..text.rows import SECTION_MARK, parse_row
from ..types import Unit
from .binding import lemma
from .list_value import year_pairs
from .operation import operation, years_in
from .scaled import BARE
from .table_cells import A_CHANGE, amount, best_row, close, content, grids, header_year, year_columns

_YEAR = re.compile(r"(?:19|20)\d{2}")
_YEAR_HEAD = re.compile(r"\b(?:(?:FY|F)\s?'?\d{2}|(?:19|20)\d{2}(?:\s?/\s?(?:19|20)?\d{2})?)\b", re.I)
"""A column's year as a reply names it: "2019", "2017/2018", "FY19"."""


@dataclass(frozen=True)
class Moved:
    answer: str
    why: str


_ASKS_CHANGE = re.compile(
    r"%|percent|\brate\b|\bchang|\bgrow|\bnew\b|\bmore\b|\bfewer\b|\bless\b|\badditional\b|\badded\b|\bnet\b|\bjoin|\bleft\b"
    r"|\bcompared\b|\bincreas|\bdecreas|\bup\b|\bdown\b|\bdiffer|\bvaria|\bexceed|\bover\s+(?:its\s+|the\s+)?budget|\bunder\s+(?:its\s+|the\s+)?budget|\bby\s+how\s+much\b",
    re.I,
)
"""A question that asks a change however worded ("How many new staff joined in 2023?", "By how much did
spending exceed its budget?"): a change or variance column answers it."""


def in_year_asked(short: str, asked: str, units: Sequence[Unit]) -> Moved | None:
    """The row's cell of the year ``asked`` names, where the reply ``short`` read another
    year's (the module doc); None to leave the reply as it is."""
    years = years_in(asked)
    op = operation(asked)
    read = short.strip().removesuffix("%").strip()  # "27.7%" of a "Change in %" column: its number
    if len(years) != 1 or not BARE.match(read) or _YEAR.fullmatch(read):
        return None
    if op is not None and op.op != "sum":  # "the total charges for fiscal 2019" is a cell, not a sum of years
        return None
    said = amount(read)
    if said is None:
        return None
    hits = []
    for grid in grids([(u.chunk_id, u.text) for u in units]):
        for i, row in enumerate(grid.cells):
            for header in grid.headers:
                cell = amount(row.get(header, ""))
                if cell is not None and abs(cell.value) == abs(said.value):
                    hits.append((grid, i, header))
    rows = {(id(g), i) for g, i, _ in hits}
    change = not _ASKS_CHANGE.search(asked)  # a change's column read for a value asked
    if len(rows) != 1 or any(
        header_year(h) == years[0] or (header_year(h) is None and not (change and A_CHANGE.search(h))) for _, _, h in hits
    ):
        return None
    if read != short.strip() and not all(header_year(h) is None and A_CHANGE.search(h) for _, _, h in hits):
        return None  # "40.0%" of another year's "%" column: a share, never moved to an amount
    grid, i, header = hits[0]
    columns = year_columns(grid, years[0], content(asked), i)
    cell = grid.value(i, columns[0]) if columns else None
    if cell is None:
        return None
    return Moved(
        tight(cell.amount.text),
        f"the year asked: {grid.labels[i]}, {columns[0]}: {cell.amount.text} (the reply read {header})",
    )


_NOT_TELLING = frozenset("total totals all amount amounts value values".split())
"""Words of a sum or a size a question says anyway ("the total gross receivables …"): they name no column apart."""
_PERIOD = re.compile(r"q[1-4]|h[12]|[1-4]q\d{2}|[12]h\d{2}|fy\d{2,4}", re.I)
"""A period's short name ("1H23", "Q4"): the year's or period's column is year_cell's other step's."""


def in_column_named(short: str, asked: str, units: Sequence[Unit]) -> Moved | None:
    """The row's cell in the one column the question names by the words that tell it from the
    column the reply read ("at constant exchange rates": "% change · CER", where the reply read
    "% change · CHF"; "actual": "2024 Actual", not "2024 Budget"); None where the reply's number is
    in no one row's one cell, the question names none of its siblings or two, or says a word of
    the column read that its sibling lacks."""
    read = short.strip().removesuffix("%").strip()
    said = amount(read) if BARE.match(read) and not _YEAR.fullmatch(read) else None
    if said is None:
        return None
    hits = [
        (grid, i, header)
        for grid in grids([(u.chunk_id, u.text) for u in units])
        for i, row in enumerate(grid.cells)
        for header in grid.headers
        if (cell := amount(row.get(header, ""))) is not None and abs(cell.value) == abs(said.value)
    ]
    if len(hits) > 1:  # the figure printed in several cells: the one of the row the question names
        hits = [(g, i, h) for g, i, h in hits if best_row(g, content(asked)) == i]
    if len(hits) != 1:
        return None
    grid, i, header = hits[0]
    if header.lower() in asked.lower():
        return None  # the column read is the one named ("credit ratings 1 to 4")
    words = content(asked)
    mine = content(header)

    def telling(h: str, other: list[str]) -> list[str]:
        return [w for w in content(h) if w not in other and w not in _NOT_TELLING and not years_in(w) and not _PERIOD.fullmatch(w)]

    named = [
        h
        for h in grid.headers
        if h != header
        and grid.value(i, h) is not None
        and header_year(h) == header_year(header)
        and (own := telling(h, mine))
        and all(any(close(w, q) for q in words) for w in own)
    ]
    if len(named) != 1 or any(any(close(w, q) for q in words) for w in telling(header, content(named[0]))):
        return None
    cell = grid.value(i, named[0])
    if cell is None or (cell.amount.percent != said.percent and "%" not in short):
        return None
    text = tight(cell.amount.text)
    return Moved(
        text + ("%" if short.strip().endswith("%") and not text.endswith("%") else ""),
        f"the column asked: {grid.labels[i]}, {named[0]}: {cell.amount.text} (the reply read {header})",
    )


def _named(label: str, asked: str) -> int:
    """How many of the question's words a row's label holds."""
    return len({lemma(w) for w in content(asked)} & {lemma(w) for w in content(label)})


def year_of_size(short: str, sentence: str, asked: str, text: str = "") -> Moved | None:
    """The year of ``sentence``'s row where its value is largest (smallest where ``asked`` asks
    so), where the reply ``short`` names another of its columns (the module doc); else None, and
    None where another row of its table (in ``text``, the passage) is the one ``asked`` names best."""
    op = operation(asked)
    if op is None or op.op != "which_year":
        return None
    row = parse_row(sentence)
    if row is None:  # prose: "(21.0% in fiscal 2019, 24.5% in fiscal 2018 and 35.0% in fiscal 2017)"
        years = [(str(y), a) for y, a in year_pairs(sentence, asked) or []]
    else:
        label = next(iter(row.cells.values()), "").strip()
        for grid in grids([("", text)]):
            own = [x.rpartition(SECTION_MARK)[2].strip() for x in grid.labels]
            if label in own and any(_named(x, asked) > _named(label, asked) for x in own):
                return None  # the model read a row the question names less well ("Starbucks transaction-based revenue")
        years = [(m.group(), cell) for h, v in row.cells.items() if (m := _YEAR_HEAD.search(h)) and (cell := amount(v)) is not None]
    if len(years) < 2 or len({y for y, _ in years}) < len(years) or short.strip() not in {y for y, _ in years}:
        return None
    size = all(c.value < 0 for _, c in years)  # a row of losses: "the greater loss" is the larger size
    sized = [(y, abs(c.value) if size else c.value) for y, c in years]
    best = (min if op.low else max)(v for _, v in sized)
    winners = [y for y, v in sized if v == best]
    if len(winners) != 1 or winners[0] == short.strip():
        return None
    listed = "; ".join(f"{y}: {c.text}" for y, c in years)
    return Moved(winners[0], f"the {'row' if row is not None else 'sentence'} read says which year: {listed}")
