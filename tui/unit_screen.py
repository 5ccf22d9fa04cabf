"""A retrieved unit in full: its source, why it was retrieved, and its graph names to peek at."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from edgerag.cli.display import explain
from edgerag.types import Unit


def peekable(meta: dict) -> list[str]:
    """The graph names a unit's retriever recorded: bridge keys, the matched concept, PPR seeds."""
    names = list(meta.get("bridge", {}).get("keys", []))
    if meta.get("concept"):
        names.append(meta["concept"])
    seeds = meta.get("seeds") or {}
    names += list(seeds.get("exact", [])) + list(seeds.get("semantic", []))
    return list(dict.fromkeys(names))[:6]


class UnitScreen(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss", "Close")]

    def __init__(self, unit: Unit) -> None:
        super().__init__()
        self.unit = unit

    def compose(self) -> ComposeResult:
        u = self.unit
        with Vertical(id="unit-box") as box:
            box.border_title = f"{u.doc_id} / {u.chunk_id}"
            box.border_subtitle = "escape: close"
            why = explain(u.meta)
            where = (u.provenance or {}).get("label", "")
            yield Static(
                f"{u.title or u.doc_id}  score {u.score:.3f}, {u.tokens} tokens"
                + (f"\nfrom {where}" if where else "")
                + (f"\n← {why}" if why else ""),
                id="unit-head",
                markup=False,
            )
            with VerticalScroll():
                yield Static(u.text, id="unit-text", markup=False)
            names = peekable(u.meta)
            if names:
                with Horizontal(classes="row"):
                    for name in names:
                        yield Button(f"peek {name}", name=name, compact=True, classes="peek")

    @on(Button.Pressed, ".peek")
    def peek(self, event: Button.Pressed) -> None:
        self.dismiss()
        self.app.peek(event.button.name)
