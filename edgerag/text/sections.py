"""Which section of a table's body a row belongs to, as a statement prints its sections
(text/rows.py `grid_lines` writes the section before the row's label: "Revenue › Services").

* **A section heading** (a label and no values: "Revenue", "Cash flows from operating
  activities") opens a section; the rows below are its items.
* **A heading that introduces a list** ("Adjustments for:", "Changes in working capital:"),
  its label ending in ":" and not set in bold, under a section still open, is a section
  inside it: its items are its own, and when it is closed the rows below are the outer
  section's again. A heading set in bold is always an outer one.
* **A subtotal or total row** ends a section: a label set in bold (``<b>``, ``<strong>``,
  ``**…**``) with values, or a label that reads as one ("Total …", "Net cash from …", "Cash
  generated from operations", "Net increase in cash …"). A subtotal that shares no word with
  the inner section but does with the outer one ("Cash generated from operations" after
  "Changes in working capital:" inside "Cash flows from operating activities") is the outer
  section's: it closes the inner section only, and the rows after it are the outer one's. Any
  other subtotal is the innermost section's and closes every section (what follows a total
  is no section's).
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
_NOT_CONTENT = frozenset({"total", "subtotal", "from", "with", "before", "after", "less", "other", "used", "net", "into", "their"})


def subtotal_label(label: str, strong: bool = False) -> bool:
    """A row label that ends a section: set in bold, or read as a total or subtotal."""
    return strong or bool(_SUBTOTAL.match(label.strip()))


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _NOT_CONTENT}


@dataclass
class Sections:
    """The sections open at a row of a table's body, outermost first (two at most)."""

    open: list[str] = field(default_factory=list)
    strong: Collection[str] = ()
    """The labels set in bold in the table (a reader's own; empty where it cannot tell)."""

    def heading(self, label: str) -> None:
        """A section heading's row: the section it opens."""
        nested = label.rstrip().endswith(":") and bool(self.open) and label not in self.strong
        self.open = [self.open[0], label] if nested else [label]

    def row(self, label: str) -> str:
        """The section a row of values belongs to ("" when none); a subtotal closes its own."""
        if not self.open:
            return ""
        if not subtotal_label(label, label in self.strong):
            return self.open[-1]
        words = _stems(label)
        if len(self.open) == 2 and not (words & _stems(self.open[1])) and words & _stems(self.open[0]):
            self.open.pop()  # the outer section's subtotal: the inner one is closed, the outer one goes on
            return self.open[0]
        section = self.open[-1]
        self.open = []
        return section
