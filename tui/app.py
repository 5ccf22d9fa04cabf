"""The edgerag terminal app. For now a shell: index screens arrive with the TUI issue."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class EdgeRAGApp(App):
    TITLE = "edgerag"
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, index_dir: str) -> None:
        super().__init__()
        self.index_dir = index_dir

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(f"index: {self.index_dir}\n\nIndexing and query screens are not built yet; use the CLI.", id="body")
        yield Footer()


def run(index_dir: str) -> None:
    EdgeRAGApp(index_dir).run()
