"""Graph peek: type a name (an entity, keyword, concept or link key) and see its node in every
built graph, its neighbours, and the passages it links to: enough to see why a passage was
retrieved. Reads only what is built; never calls the model."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, OptionList, Static

from edgerag.peek import peek, suggest


class GraphScreen(Screen):
    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="a name to peek at: entity, keyword, concept or link key", id="name")
        suggestions = OptionList(id="suggestions")
        suggestions.border_title = "did you mean"
        yield suggestions
        with VerticalScroll(id="peek-box"):
            yield Static("", id="peek")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#suggestions").display = False

    @on(Input.Submitted, "#name")
    def submitted(self, event: Input.Submitted) -> None:
        self.peek(event.value)

    @on(OptionList.OptionSelected, "#suggestions")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.peek(str(event.option.prompt))

    def peek(self, name: str) -> None:
        name = name.strip()
        self.query_one("#name", Input).value = name
        out, box = self.query_one("#peek", Static), self.query_one("#suggestions", OptionList)
        box.display = False
        if not name:
            return
        if not self.app.index_exists:
            out.update("no index yet: add files on the index screen (F2)")
            return
        index = self.app.rag.index
        nodes = peek(index, name)
        if not nodes:
            near = suggest(index, name)
            out.update(
                f"no built graph has a node named {name!r}"
                + ("; pick a near name above" if near else " (graphs are built on first query, or on the index screen)")
            )
            if near:
                box.clear_options()
                box.add_options(near)
                box.display = True
                box.focus()
            return
        text = Text()
        for n in nodes:
            text.append(f"{n.label}", style="bold")
            text.append(f"  {n.kind} in {n.graph}\n", style="dim")
            if n.neighbours:
                text.append("  neighbours: " + ", ".join(f"{label} ({w:g})" for label, w in n.neighbours) + "\n")
            text.append(f"  links to {n.linked_passages} passage(s):\n")
            for p in n.passages:
                text.append(f"    {p.doc_id} / {p.chunk_id}", style="bold")
                text.append(f"  {p.title}  " if p.title else "  ")
                text.append(p.text[:160] + (" …" if len(p.text) > 160 else "") + "\n")
            text.append("\n")
        out.update(text)
