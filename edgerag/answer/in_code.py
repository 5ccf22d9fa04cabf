"""What code decides before the model reads (``answer_hops``), first that applies:

1. a fact of a titled thing (facts.py): the relation asked itself ("Who was the father of X?"),
   a birth or death date from the person's own passage;
2. a column of a table read as rows (text/tables.py, issue #56 item 5): "Who leads the project
   with the largest budget?", "Which project ends first?", "Is the centrifuge cheaper than the
   freezer?", over the table rows of the passages read;
3. a row of a table the question names (text/lookup.py, issue #56 items 2, 4 and 5): "Who
   funds the Eel Passage project?", "Who approves a trip costing £1,800?" (the row whose range
   holds the amount), "Is Peat Pipe Flow funded by the Leverhulme Trust?" (no: its funder is
   another);
4. a number listed for the question's subject (listed.py, item 4): "How many staff were at
   Hexham at the end of 2024?" over "… 68 at Durham, 31 at Kendal, 26 at Hexham …" is 26;
   whether a person was at a meeting, by the minutes' "Present:" and "Apologies:" lists
   (attendance.py, item 2);
5. a comparison (compare.py): two sides' values read and compared, or a `Pending` one whose
   missing sides the model reads as steps.

Before 2, a report's table (issue #63): arithmetic over its cells (arithmetic.py): "What was the
percentage change in Services revenue between 2018 and 2019?" computed from the two bound cells,
shown with its formula; then the cells a question names by row and year or column
(cell_lookup.py): "What was the R&D expense in 2019?", "… in 2019 and 2018, respectively?" (every
cell, in the question's order); a value a sentence states for the one year asked among its
years "respectively" (respective_value.py); the years a table covers (table_years.py); the rows a section or a sum holds (table_parts.py); the rows that moved as asked ("Which
divisions sold less in 2023 than in 2022?", rows_moved.py); what a numbered note is about, by its heading (note_title.py). Held by construction,
as every decision here is (no sentence holds a computed number, and the check never reads it).

Each returns a compare.py `Decision` (or `Pending`), which plan.py turns into a read without a
model call; None leaves the question to the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.lookup import row_lookup, speaks_of
from ..text.tables import TableDecision, table_answer
from ..types import Unit
from .arithmetic import computed
from .attendance import attended
from .binding import heads
from .cell_lookup import looked_up
from .compare import Decision, Pending, decide
from .facts import decide_fact
from .kinds import asked_kind, fits
from .listed import listed_value
from .note_title import note_title
from .operation import operation
from .respective_value import stated_for_year
from .rows_moved import moved_rows
from .table_parts import table_parts
from .table_years import table_years

_SUPERLATIVE = re.compile(r"\b(?:minimum|maximum|highest|lowest|largest|smallest|greatest|least|most|top|first|last|earliest|latest)\b")
"""A superlative a question may say, or a column's header hold as its own name ("Minimum Pension Liability")."""
_COMPUTED = ("change", "percent_change", "difference", "ratio", "proportion")


def _asks_computation(question: str) -> bool:
    """Whether ``question`` asks a number computed from two or more values (operation.py): a
    change, a difference, a ratio or a share, which one row's cell never answers; arithmetic.py
    computes it, or the model reads it ("the change of expenses for facilities from 2017 to
    2019" is not the printed "Change 2019 and 2018" cell)."""
    op = operation(question)
    return op is not None and op.op in _COMPUTED


def table_fact(question: str, units: list[Unit]) -> Decision | None:
    """A superlative or comparison over a table's column decided in code (text/tables.py): the
    row it stands on is read first, the rows compared with it after."""
    if _asks_computation(question):
        return None
    d = table_answer(question, [(u.chunk_id, u.text) for u in units])
    passage = " ".join(u.text for u in units if d is not None and u.chunk_id in d.sources)
    if d is None or not speaks_of(question, " ".join(d.rows), passage):
        return None  # "the *first* 10,000 business miles" asks nothing of a table of grants
    if _SUPERLATIVE.findall(question.lower()) and set(_SUPERLATIVE.findall(question.lower())) <= set(
        _SUPERLATIVE.findall(d.column.lower())
    ):
        return None  # "the Minimum Pension Liability balance": the column's own name, no superlative
    kind = asked_kind(question)
    if d.answer not in ("yes", "no") and kind != "yes-no" and not fits(d.answer, kind):
        return None  # "Who was the largest customer?" answered by a percentage
    return _read(d, units)


def row_fact(question: str, units: list[Unit]) -> Decision | None:
    """A row of a table the question names, its column read in code (text/lookup.py); the
    answer must be of the kind asked (kinds.py); never a computation's (`_asks_computation`)."""
    if _asks_computation(question):
        return None
    d = row_lookup(question, [(u.chunk_id, f"{heads(u)}\n{u.text}") for u in units])  # "Priya Raman's grant": her CV's headings
    kind = asked_kind(question)
    if d is None or (d.answer not in ("yes", "no") and kind != "yes-no" and not fits(d.answer, kind)):
        return None
    return _read(d, units)


def _read(d: TableDecision | None, units: list[Unit]) -> Decision | None:
    if d is None:
        return None
    by_id = {u.chunk_id: u for u in units}
    read = [by_id[k] for k in dict.fromkeys(d.sources) if k in by_id]
    return Decision(answer=d.answer, units=read, reason=d.why, kind="table")


def decide_from_read(question: str, units: list[Unit]) -> Decision | None:
    """What code decides from the passages read alone, with no lookup and no step of its own: a
    table's column or row, a listed number, a meeting's attendance (items 2 to 4 above). A chain's step is decided so
    ("Which laboratory does the eDNA fish survey?" → the price list's row), never re-planned."""
    return (
        computed(question, units)
        or looked_up(question, units)
        or stated_for_year(question, units)
        or table_years(question, units)
        or table_parts(question, units)
        or moved_rows(question, units)
        or note_title(question, units)
        or table_fact(question, units)
        or row_fact(question, units)
        or listed_value(question, units)
        or attended(question, units)
    )


def decide_in_code(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | Pending | None:
    """The first decision code makes for ``question`` over ``units`` (the module doc), or None."""
    return (
        decide_fact(question, units, lookup)
        or computed(question, units)
        or looked_up(question, units)
        or stated_for_year(question, units)
        or table_years(question, units)
        or table_parts(question, units)
        or moved_rows(question, units)
        or note_title(question, units)
        or table_fact(question, units)
        or row_fact(question, units)
        or listed_value(question, units)
        or attended(question, units)
        or decide(question, units, lookup)
    )
