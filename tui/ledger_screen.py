"""Ledger screen: tokens per stage and per method, by model (fresh, cached, seconds), the index's size,
and a bar chart of where the tokens went. Token counts, never dollars: the model is local."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from edgerag.cli.display import index_sizes, ledger_rows, token_bars


class LedgerScreen(Screen):
    BINDINGS = [Binding("r", "refresh_ledger", "Refresh")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="ledger-main"):
            tokens = DataTable(id="tokens", cursor_type="row", zebra_stripes=True)
            tokens.border_title = "tokens"
            yield tokens
            sizes = DataTable(id="sizes", cursor_type="row", show_header=False)
            sizes.border_title = "index"
            yield sizes
        chart = Static("", id="chart", markup=False)
        chart.border_title = "where fresh tokens went"
        yield chart
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tokens", DataTable).add_columns("", "model", "calls", "cached", "input", "output", "secs")
        self.query_one("#sizes", DataTable).add_columns("what", "count")

    def on_screen_resume(self) -> None:
        self.action_refresh_ledger()

    def job_over(self) -> None:
        if self.is_current:
            self.action_refresh_ledger()

    def action_refresh_ledger(self) -> None:
        tokens, sizes, chart = self.query_one("#tokens", DataTable), self.query_one("#sizes", DataTable), self.query_one("#chart", Static)
        tokens.clear()
        sizes.clear()
        if not self.app.index_exists:
            chart.update("no index yet: add files on the index screen (F2)")
            return
        stats = self.app.rag.stats()
        totals = stats["tokens"]

        for label, model, b in ledger_rows(totals):  # one row per model: tokens compare within a model
            tokens.add_row(
                label[:18],
                model[:26],
                f"{int(b['calls']):,}",
                f"{int(b['cached_calls']):,}",
                f"{int(b['input']):,}",
                f"{int(b['output']):,}",
                f"{b['seconds']:.1f}",
            )
        for what, n in index_sizes(stats):
            sizes.add_row(what, f"{n:,}")
        bars = token_bars(totals, width=30)
        chart.update(
            "\n".join(f"{label[:22]:<22} {bar} {n:,}" for label, n, bar in bars)
            if bars
            else "no LLM calls yet: the ledger fills as you build and ask"
        )
