"""`edgerag tui`: index, query and token accounting in a Textual app.

Four screens, switched with F2–F5 or the command palette (ctrl+p): Index, Query, Ledger and
Graph peek; F1 shows help. Everything goes through `EdgeRAG`, the API the CLI uses; the app
adds only the screens. Long work (indexing, building, answering) runs in one worker thread at
a time, so the UI never freezes and the local model is never driven by two threads at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker, get_current_worker

from edgerag import EdgeRAG, Settings
from edgerag.progress import Cancelled, Progress, observe

from .graph_screen import GraphScreen
from .help_screen import HelpScreen
from .index_screen import IndexScreen
from .ledger_screen import LedgerScreen
from .query_screen import QueryScreen

SCREENS = {
    "index": ("Index", IndexScreen),
    "query": ("Query", QueryScreen),
    "ledger": ("Ledger", LedgerScreen),
    "graph": ("Graph peek", GraphScreen),
}


class EdgeRAGApp(App):
    """The app: one `EdgeRAG` over ``index_dir``, shared by every screen."""

    TITLE = "edgerag"
    CSS_PATH = "app.tcss"
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "show('index')", "Index"),
        Binding("f3", "show('query')", "Query"),
        Binding("f4", "show('ledger')", "Ledger"),
        Binding("f5", "show('graph')", "Graph"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
    ]

    def __init__(self, index_dir: str | Path, root: str | Path = ".", settings: Settings | None = None, **overrides: Any) -> None:
        super().__init__()
        self.index_dir = Path(index_dir)
        self.root = Path(root)
        self.rag = EdgeRAG(self.index_dir, settings, progress=False, **overrides)
        self.job: Worker | None = None
        self.job_name = ""
        self.job_started = 0.0
        self.sub_title = str(self.index_dir)

    # ---- screens -------------------------------------------------------------------------
    def on_mount(self) -> None:
        for name, (_, cls) in SCREENS.items():
            self.install_screen(cls(), name)
        self.push_screen("query" if self.index_exists else "index")

    @property
    def index_exists(self) -> bool:
        return (self.index_dir / "manifest.json").exists()

    def action_show(self, name: str) -> None:
        if self.screen is not self.get_screen(name):
            self.switch_screen(name)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for name, (title, _) in SCREENS.items():
            yield SystemCommand(f"{title} screen", f"Switch to the {title.lower()} screen", lambda n=name: self.action_show(n))
        yield SystemCommand("Cancel the running job", "Stop indexing or building after the current step", self.cancel_job)
        yield SystemCommand("Help", "Keys and how the screens fit together", self.action_help)

    def peek(self, name: str) -> None:
        """Open the graph screen on ``name`` (from a retrieved unit's explanation)."""
        self.action_show("graph")
        self.get_screen("graph").peek(name)

    # ---- the one background job --------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.job is not None

    def run_job(
        self,
        name: str,
        work: Callable[[], Any],
        done: Callable[[Any], None] | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> bool:
        """Run ``work`` in a worker thread; ``done(result)`` and ``on_progress(step)`` run on
        the UI thread. Refused (with a notification) while another job runs."""
        if self.busy:
            self.notify(f"{self.job_name} is still running (cancel it on the index screen, or wait)", severity="warning")
            return False
        self.job_name, self.job_started = name, time.time()
        self.job = self.run_worker(
            lambda: self._job_thread(name, work, done, on_progress), name=name, thread=True, group="job", exit_on_error=False
        )
        return True

    def cancel_job(self) -> None:
        if self.job is None:
            self.notify("nothing is running")
            return
        self.job.cancel()
        self.notify(f"cancelling {self.job_name} after the current step…")

    def _job_thread(self, name, work, done, on_progress) -> None:
        worker = get_current_worker()

        def observer(step: Progress) -> None:
            if on_progress is not None:
                self.call_from_thread(on_progress, Progress(step.desc, step.n, step.total, step.unit, dict(step.postfix), step.done))
            if worker.is_cancelled and not step.done:
                raise Cancelled

        try:
            with observe(observer):
                result = work()
        except Cancelled:
            self.call_from_thread(
                self.notify, f"{name} cancelled: what was done is kept, and the next run resumes from there", severity="warning"
            )
        except Exception as e:  # shown, never a traceback over the screen
            self.call_from_thread(self.notify, f"{name} failed: {e}", title="error", severity="error", timeout=12)
        else:
            if done is not None:
                self.call_from_thread(self._finish, name, done, result)
        finally:
            self.call_from_thread(self._job_over)

    def _finish(self, name: str, done: Callable[[Any], None], result: Any) -> None:
        try:
            done(result)
        except Exception as e:
            self.notify(f"{name}: showing the result failed: {e!r}", title="error", severity="error", timeout=12)

    def _job_over(self) -> None:
        self.job = None
        for name in SCREENS:
            screen = self.get_screen(name)
            if hasattr(screen, "job_over"):
                screen.job_over()


def run(index_dir: str, root: str = ".", settings: Settings | None = None) -> None:
    EdgeRAGApp(index_dir, root=root, settings=settings).run()
