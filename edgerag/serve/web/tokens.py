"""The token ledger as the Tokens tab shows it (`ledger_view`): by stage, by method and by
model, each row's fresh input, output and cached tokens as bar lengths against the largest row,
and the sums a table prints. Tokens are comparable within one model only (store/ledger.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GROUPS = (("by_stage", "By stage"), ("by_method", "By method"), ("by_model", "By model"))
PARTS = (("input", "fresh input"), ("output", "output"), ("cached", "cached (input and output)"))


@dataclass
class Row:
    name: str
    calls: int
    cached_calls: int
    failed_calls: int
    input: int
    evaluated: int
    output: int
    cached: int
    seconds: float
    bars: dict[str, float] = field(default_factory=dict)
    """Each part's share of the widest row, in percent (what the bars' widths are)."""

    @property
    def total(self) -> int:
        return self.input + self.output + self.cached


@dataclass
class Group:
    key: str
    title: str
    rows: list[Row]


@dataclass
class LedgerView:
    all: Row | None
    groups: list[Group]
    parts: tuple[tuple[str, str], ...] = PARTS


def _row(name: str, b: dict[str, Any]) -> Row:
    return Row(
        name=name or "(none)",
        calls=int(b.get("calls", 0)),
        cached_calls=int(b.get("cached_calls", 0)),
        failed_calls=int(b.get("failed_calls", 0)),
        input=int(b.get("input", 0)),
        evaluated=int(b.get("evaluated", 0)),
        output=int(b.get("output", 0)),
        cached=int(b.get("cached_input", 0)) + int(b.get("cached_output", 0)),
        seconds=float(b.get("seconds", 0.0)),
    )


def ledger_view(totals: dict[str, Any]) -> LedgerView:
    """``EdgeRAG.ledger()``'s totals as rows with bar lengths, largest first."""
    if not totals or not totals.get("all", {}).get("calls"):
        return LedgerView(None, [])
    groups = []
    for key, title in GROUPS:
        rows = sorted((_row(name, b) for name, b in (totals.get(key) or {}).items()), key=lambda r: (-r.total, r.name))
        widest = max((r.total for r in rows), default=0) or 1
        for r in rows:
            r.bars = {"input": 100 * r.input / widest, "output": 100 * r.output / widest, "cached": 100 * r.cached / widest}
        groups.append(Group(key, title, rows))
    return LedgerView(_row("all", totals["all"]), groups)
