"""F1: the keys, how the screens fit together, and this machine as `edgerag doctor` sees it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static
from textual.worker import get_current_worker

from edgerag.doctor import format_report, report

HELP = """\
# edgerag

**F2 Index** — pick files or folders in the tree (`a`, or enter on a file), then **Index files**:
chunks and vectors, no LLM token. Choose a method and its parameters (ℓ and τ only before
the index exists), **Plan** to see what its LLM stage will cost, **Build** to run it. A bar
per stage shows progress; the meter shows tokens and output tokens/s. **Cancel** (escape)
stops after the current step: everything done is kept and the next Build resumes.

**F3 Query** — type a question, pick a method and a budget (tokens of context), enter.
The context table shows each unit's score, source and why it was retrieved (enter reads it,
and peeks at its graph names). The answer streams in with its citations and token account.
Earlier questions are in the history list.

**F4 Ledger** — tokens per stage and per method: fresh input and output, cached calls,
seconds; the index's size; where the fresh tokens went. `r` refreshes.

**F5 Graph peek** — a name's node in every built graph, its neighbours and its passages.

`ctrl+p` command palette · `ctrl+t` light/dark · `ctrl+q` quit · escape closes this help

## This machine

What `edgerag doctor --no-probe` reports (run `edgerag doctor` in a terminal for the model's
speed, and paste it into a bug report):
"""


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("f1", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP)
            yield Static("checking this machine…", id="doctor", markup=False)

    def on_mount(self) -> None:
        self.run_worker(self._doctor, thread=True, exclusive=True)

    def _doctor(self) -> None:
        """The report takes a second or two (it hashes the model file): off the UI thread."""
        try:
            text = format_report(report(probe=False))
        except Exception as e:  # the help screen must open whatever the machine lacks
            text = f"edgerag doctor failed: {type(e).__name__}: {e}"
        if not get_current_worker().is_cancelled:  # closed meanwhile: nothing to show it on
            self.app.call_from_thread(self._show, text)

    def _show(self, text: str) -> None:
        self.query_one("#doctor", Static).update(text)
