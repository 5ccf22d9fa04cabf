"""Which of the tables read, and which section of one, a question is asked of (issue #63;
cell_lookup.py asks it before binding a cell):

* `speaking`: the tables that say the thing a question asks by its head noun (thing_asked.py):
  "net sales of soft drinks" is asked of "Net sales by category", not of "Volumes" beside it;
* `in_other_section`: a question naming a section of a table ("the total *demersal* catch") by a
  word no bound row's label or section says is not answered by those rows ("Total catch").
"""

from __future__ import annotations

from ..text.rows import SECTION_MARK
from .table_cells import Grid, close, content
from .table_words import SHORT
from .thing_asked import names_thing


def in_other_section(grid: Grid, rows: list[int], question: str) -> bool:
    """Whether ``question`` names a section of ``grid`` ("demersal" of "Demersal species › Cod")
    by a word no bound row's label or section says: the rows bound are another section's, or
    none's, not the one asked."""
    sections = {label.rpartition(SECTION_MARK)[0] for label in grid.labels} - {""}
    bound = {w for i in rows for w in content(grid.labels[i])}
    asked = [w for w in content(question) if not any(close(w, b) for b in bound)]
    return any(any(close(w, s) for s in content(section.rpartition(SECTION_MARK)[2]) for w in asked) for section in sections)


def speaking(tables: list[Grid], head: str | None) -> list[Grid]:
    """The tables whose caption, labels' header, row labels (sections and all) or headers say the
    thing a question asks by its head noun (thing_asked.py); where some do and others not, the
    others are of something else ("Volumes" beside "Net sales by category" for "net sales of soft
    drinks"). A report page's one table, its caption lost, is never held to it."""
    if head is None:
        return []
    want = content(SHORT.get(head, head))
    said = [set(content(" ".join([g.caption, g.label_header, *g.labels, *g.headers]))) for g in tables]
    return [g for g, words in zip(tables, said) if all(any(names_thing(h, w) for w in words) for h in want)]
