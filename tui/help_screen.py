"""F1: the keys, and how the screens fit together."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

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
"""


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("f1", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP)
