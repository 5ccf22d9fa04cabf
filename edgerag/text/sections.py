"""Which section of a table's body a row belongs to, as a statement prints its sections
(text/rows.py `grid_lines` writes the section before the row's label: "Revenue › Services").

* **A section heading** (a label and no values: "Revenue", "Cash flows from operating
  activities") opens a section; the rows below are its items.
* **A heading that introduces a list** ("Adjustments for:", "Changes in working capital:"),
  its label ending in ":" and not set in bold, under a section still open, is a section
  inside it: its items are its own, and when it is closed the rows below are the outer
  section's again. A heading set in bold is always an outer one.
* **"of which:"** (or "thereof", "o/w") under a row of values is that row's breakdown: its items
  are "EBITDA › of which: › – Networks"; items marked with a dash ("– Networks") end at the first
  row not so marked ("EBIT" is no part of EBITDA).
* **A subtotal or total row** ends a section: a label set in bold (``<b>``, ``<strong>``,
  ``**…**``) with values, or a label that reads as one ("Total …", "Net cash from …", "Cash
  generated from operations", "Net increase in cash …"). A subtotal that shares no word with
  the inner section but does with the outer one ("Cash generated from operations" after
  "Changes in working capital:" inside "Cash flows from operating activities") is the outer
  section's: it closes the inner section only, and the rows after it are the outer one's. Any
  other subtotal is the innermost section's and closes every section (what follows a total
  is no section's), unless it shares no word with any section open, where the table has opened
  two or more, and says the caption's: "Total catch" after "Demersal species" and "Pelagic
  species", under "Catch by species", is the whole table's total, no section's (not where the same
  label closed an earlier section: "Total sales" under each region is that region's).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

_SUBTOTAL = re.compile(
    r"^(?:(?:sub-?\s?)?total\b|net\s+cash\b|cash\s+(?:generated|used|provided|absorbed)\s+(?:from|in|by)\s+operations\b"
    r"|net\s+\(?(?:increase|decrease)\b[^,;]*\bcash\b)",
    re.I,
)
_WORD = re.compile(r"[a-z]{4,}")
_MARK = " › "
"""text/rows.py's SECTION_MARK (imported there from here would be a cycle)."""
_NOT_CONTENT = frozenset({"total", "subtotal", "from", "with", "before", "after", "less", "other", "used", "net", "into", "their"})


def subtotal_label(label: str, strong: bool = False) -> bool:
    """A row label that ends a section: set in bold, or read as a total or subtotal."""
    return strong or bool(_SUBTOTAL.match(label.strip()))


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _NOT_CONTENT}


_OF_WHICH = re.compile(r"^\s*(?:of\s+which|o/w|thereof|of\s+whom|including)\b\s*:?\s*$", re.I)
"""A heading that splits the row above it ("EBITDA" then "of which:"), not a section of its own."""
_ITEM_MARK = re.compile(r"^\s*(?:[-–—•]|o/w\b)")
"""A row marked as an item of the row above ("– Networks", "o/w Retail")."""


@dataclass
class Sections:
    """The sections open at a row of a table's body, outermost first (two at most)."""

    open: list[str] = field(default_factory=list)
    strong: Collection[str] = ()
    """The labels set in bold in the table (a reader's own; empty where it cannot tell)."""

    marked: bool | None = None
    """Whether the items of an "of which" heading are marked ("– Networks"); None before its first."""

    opened: int = 0
    """How many sections the table has opened so far (its "of which" breakdowns aside)."""

    caption: str = ""
    """The table's caption ("Catch by species (tonnes)"): what a total of every section is of."""

    closers: set[str] = field(default_factory=set)
    """The subtotals that closed a section so far: met again, each closes its own ("Total sales" under each region)."""

    def heading(self, label: str, above: str = "") -> None:
        """A section heading's row: the section it opens. "of which:" under a row of values
        (``above``: "EBITDA") opens that row's breakdown, "EBITDA › of which:"."""
        if _OF_WHICH.match(label) and above:
            self.open, self.marked = [f"{above}{_MARK}{label.strip()}"], None
            return
        nested = label.rstrip().endswith(":") and bool(self.open) and label not in self.strong
        self.open = [self.open[0], label] if nested else [label]
        self.marked = None
        self.opened += 1

    def row(self, label: str) -> str:
        """The section a row of values belongs to ("" when none); a subtotal closes its own, and
        a breakdown's items marked with a dash end at the first row not so marked ("EBIT" after
        "– Integrated water service")."""
        if not self.open:
            return ""
        if _OF_WHICH.match(self.open[-1].rpartition(_MARK)[2]):
            if self.marked is None:
                self.marked = bool(_ITEM_MARK.match(label))
            elif self.marked and not _ITEM_MARK.match(label):
                self.open, self.marked = [], None
                return ""
        if not subtotal_label(label, label in self.strong):
            return self.open[-1]
        words = _stems(label)
        grand = label.strip().lower() not in self.closers
        self.closers.add(label.strip().lower())
        if grand and self.opened >= 2 and words & _stems(self.caption) and not words & set().union(*map(_stems, self.open)):
            self.open = []  # "Total catch" after "Demersal species" and "Pelagic species": the table's total, no section's
            return ""
        if len(self.open) == 2 and not (words & _stems(self.open[1])) and words & _stems(self.open[0]):
            self.open.pop()  # the outer section's subtotal: the inner one is closed, the outer one goes on
            return self.open[0]
        section = self.open[-1]
        self.open = []
        return section
