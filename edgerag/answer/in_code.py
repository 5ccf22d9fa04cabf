"""What code decides before the model reads (``answer_hops``), first that applies:

1. a fact of a titled thing (facts.py): the relation asked itself ("Who was the father of X?"),
   a birth or death date from the person's own passage;
2. a comparison (compare.py): two sides' values read and compared, or a `Pending` one whose
   missing sides the model reads as steps.

Each returns a compare.py `Decision` (or `Pending`), which plan.py turns into a read without a
model call; None leaves the question to the model.
"""

from __future__ import annotations

from collections.abc import Callable

from ..types import Unit
from .compare import Decision, Pending, decide
from .facts import decide_fact


def decide_in_code(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | Pending | None:
    """The first decision code makes for ``question`` over ``units`` (the module doc), or None."""
    return decide_fact(question, units, lookup) or decide(question, units, lookup)
