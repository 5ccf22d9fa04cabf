"""What code decides before the model reads (``answer_hops``), first that applies:

1. a fact of a titled thing (facts.py): the relation asked itself ("Who was the father of X?"),
   a birth or death date from the person's own passage;
2. a column of a table read as rows (text/tables.py, issue #56 item 5): "Who leads the project
   with the largest budget?", "Which project ends first?", "Is the centrifuge cheaper than the
   freezer?", over the table rows of the passages read;
3. a comparison (compare.py): two sides' values read and compared, or a `Pending` one whose
   missing sides the model reads as steps.

Each returns a compare.py `Decision` (or `Pending`), which plan.py turns into a read without a
model call; None leaves the question to the model.
"""

from __future__ import annotations

from collections.abc import Callable

from ..text.tables import table_answer
from ..types import Unit
from .compare import Decision, Pending, decide
from .facts import decide_fact


def table_fact(question: str, units: list[Unit]) -> Decision | None:
    """A superlative or comparison over a table's column decided in code (text/tables.py): the
    row it stands on is read first, the rows compared with it after."""
    d = table_answer(question, [(u.chunk_id, u.text) for u in units])
    if d is None:
        return None
    by_id = {u.chunk_id: u for u in units}
    read = [by_id[k] for k in dict.fromkeys(d.sources) if k in by_id]
    return Decision(answer=d.answer, units=read, reason=d.why, kind="table")


def decide_in_code(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | Pending | None:
    """The first decision code makes for ``question`` over ``units`` (the module doc), or None."""
    return decide_fact(question, units, lookup) or table_fact(question, units) or decide(question, units, lookup)
