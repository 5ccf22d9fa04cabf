"""Index screen: pick files, set the method and its parameters, see the cost, build, cancel.

Indexing files (chunks, vectors) costs no LLM token; building a graph method's LLM stage
does, so the plan (chunks to extract, tokens, time at this model's measured speed) is shown
before Build spends anything. Work is committed step by step: Cancel stops after the current
step, and the next Build resumes from there.
"""

from __future__ import annotations

import time
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DirectoryTree, Footer, Header, Input, Label, ProgressBar, Select, Static

from edgerag import EdgeRAG
from edgerag.ingest import SUPPORTED_SUFFIXES
from edgerag.progress import Progress

PARAMS = (  # (setting, label, kind, fixed once the index exists)
    ("chunk_tokens", "ℓ", int, True),
    ("tau", "τ", int, True),
    ("knn_k", "K", int, False),
    ("beta", "β", float, False),
    ("kappa", "κ", float, False),
)


class FileTree(DirectoryTree):
    """The file picker: folders, and the files edgerag reads (.txt, .md, .jsonl, .pdf, .docx,
    .html, .epub); other files and hidden entries are left out."""

    def filter_paths(self, paths):
        return [p for p in paths if not p.name.startswith(".") and (p.is_dir() or p.suffix.lower() in SUPPORTED_SUFFIXES)]


class IndexScreen(Screen):
    BINDINGS = [
        Binding("a", "add", "Add"),
        Binding("p", "plan", "Plan", show=False),
        Binding("b", "build", "Build", show=False),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[Path] = []
        self.bars: dict[str, tuple[Label, ProgressBar]] = {}

    def compose(self) -> ComposeResult:
        app = self.app
        yield Header()
        with Horizontal(id="index-main"):
            tree = FileTree(app.root, id="tree")
            tree.border_title = "files (a: add)"
            yield tree
            with Vertical(id="form"):
                yield Static("nothing selected: pick files or folders on the left", id="selection", markup=False)
                with Horizontal(classes="row"):
                    yield Button("Index files", id="insert", compact=True, variant="primary")
                    yield Button("Clear", id="clear", compact=True)
                with Horizontal(classes="row"):
                    yield Label("method ")
                    methods = [(m, m) for m in EdgeRAG.methods()]
                    yield Select(methods, value="ket", allow_blank=False, compact=True, id="method")
                with Horizontal(classes="row"):
                    for key, label, _, _ in PARAMS:
                        yield Label(f" {label} ")
                        yield Input(str(getattr(app.rag.settings, key)), id=key, compact=True, classes="param")
                with Horizontal(classes="row"):
                    yield Label("model ")
                    yield Input(app.rag.settings.model or "", placeholder="default: Qwen2.5-Coder-0.5B-Instruct", id="model", compact=True)
                with Horizontal(classes="row"):
                    yield Button("Plan", id="plan", compact=True)
                    yield Button("Build", id="build", compact=True, variant="warning")
                    yield Button("Cancel", id="cancel", compact=True, variant="error", disabled=True)
                yield Static("", id="plan-text", markup=False)
                yield VerticalScroll(id="stages")
                yield Static("", id="meter", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.lock_fixed()
        self.set_interval(1.0, self.update_meter)

    def lock_fixed(self) -> None:
        """ℓ and τ shape the stored chunks: editable only before the index exists."""
        for key, _, _, fixed in PARAMS:
            if fixed:
                self.query_one(f"#{key}", Input).disabled = self.app.index_exists

    # ---- choosing files ------------------------------------------------------------------
    @on(DirectoryTree.FileSelected)
    def picked(self, event: DirectoryTree.FileSelected) -> None:
        """Enter on a file adds it; enter on a folder only opens it (`a` adds a folder)."""
        self.select_path(event.path)

    def action_add(self) -> None:
        node = self.query_one(DirectoryTree).cursor_node
        if node is not None and node.data is not None:
            self.select_path(node.data.path)

    def select_path(self, path: str | Path) -> None:
        path = Path(path)
        if path in self.selected:
            self.selected.remove(path)
        else:
            self.selected.append(path)
        self.show_selection()

    def show_selection(self) -> None:
        text = (
            (f"{len(self.selected)} selected: " + ", ".join(p.name or str(p) for p in self.selected))
            if self.selected
            else "nothing selected: pick files or folders on the left"
        )
        self.query_one("#selection", Static).update(text)

    @on(Button.Pressed, "#clear")
    def clear(self) -> None:
        self.selected.clear()
        self.show_selection()

    # ---- settings ------------------------------------------------------------------------
    def method(self) -> str:
        return str(self.query_one("#method", Select).value)

    def apply_form(self) -> bool:
        """Read the parameter fields into the API's settings; a bad value is a notification."""
        changes = {}
        for key, label, kind, _fixed in PARAMS:
            field = self.query_one(f"#{key}", Input)
            if field.disabled:
                continue
            try:
                changes[key] = kind(field.value.strip())
            except ValueError:
                self.notify(f"{label} must be {'a whole number' if kind is int else 'a number'}, not {field.value!r}", severity="error")
                return False
        changes["model"] = self.query_one("#model", Input).value.strip() or None
        try:
            self.app.rag.configure(**changes)
        except ValueError as e:
            self.notify(str(e), severity="error")
            return False
        return True

    # ---- work ----------------------------------------------------------------------------
    @on(Button.Pressed, "#insert")
    def insert(self) -> None:
        if not self.selected:
            self.notify("pick files or folders first (enter or a on the tree)", severity="warning")
            return
        if not self.apply_form():
            return
        paths = list(self.selected)
        self.start("indexing", lambda: self.app.rag.insert(paths), self.inserted)

    def inserted(self, report) -> None:
        self.selected.clear()
        self.show_selection()
        self.lock_fixed()
        self.notify(report.summary(), title="indexed", timeout=8)
        self.query_one("#plan-text", Static).update(report.summary())

    def action_plan(self) -> None:
        self.plan()

    @on(Button.Pressed, "#plan")
    def plan(self) -> None:
        if not self.app.index_exists:
            self.notify("index some files first: planning counts the chunks a build would extract", severity="warning")
            return
        if self.apply_form():
            method = self.method()
            self.app.run_job(
                "planning",
                lambda: self.app.rag.plans(method),  # the extract_model's price, then every other installed model's
                lambda plans: self.query_one("#plan-text", Static).update("\n\n".join(p.summary() for p in plans)),
            )

    def action_build(self) -> None:
        self.build()

    @on(Button.Pressed, "#build")
    def build(self) -> None:
        if not self.app.index_exists:
            self.notify("index some files first", severity="warning")
            return
        if self.apply_form():
            method = self.method()
            self.start(f"building {method}", lambda: self.app.rag.build(method), lambda out: self.built(method, out))

    def built(self, method: str, out: dict) -> None:
        ex = out.get("extraction")
        if ex is None:
            text = f"{method}: built (no LLM stage)"
        else:
            text = f"{method}: {ex['extracted']} chunks extracted now, {ex['already']} already done, {len(ex['zero_yield'])} with no entity"
            pending = (out.get("kg") or out.get("terag") or {}).get("pending_chunks")
            if pending:
                text += f"; {pending} still pending: Build again to resume"
        self.query_one("#plan-text", Static).update(text)
        self.notify(text, title="built", timeout=8)

    def start(self, name: str, work, done) -> None:
        for label, bar in self.bars.values():
            label.remove()
            bar.remove()
        self.bars.clear()
        if self.app.run_job(name, work, done, on_progress=self.progress):
            self.query_one("#cancel", Button).disabled = False
            self.update_meter()

    def progress(self, step: Progress) -> None:
        """One bar per stage of the job (indexing, extraction, …), made on its first step."""
        if step.desc not in self.bars:
            label, bar = Label(step.desc), ProgressBar(total=step.total, show_eta=True)
            self.query_one("#stages").mount(label, bar)
            self.bars[step.desc] = (label, bar)
        label, bar = self.bars[step.desc]
        total = step.n if step.done and step.total is None else step.total  # an open-ended stage is whole when done
        bar.update(total=total, progress=step.n)
        extra = ", ".join(f"{k} {v}" for k, v in step.postfix.items())
        label.update(
            f"{step.desc}: {step.n}{f'/{step.total}' if step.total is not None else ''} {step.unit}"
            + (f" ({extra})" if extra else "")
            + (" ✓" if step.done else "")
        )

    def update_meter(self, final: bool = False) -> None:
        """Tokens spent by the running job and its output speed, read from the ledger."""
        app = self.app
        if not (app.busy or final) or not app.index_exists or not app.job_started:
            return
        try:
            t = app.rag.ledger(since=app.job_started)["all"]
        except Exception:  # the index is being created
            return
        secs = max(time.time() - app.job_started, 1e-6)
        self.query_one("#meter", Static).update(
            f"{app.job_name}: {int(t['input']):,} input / {int(t['output']):,} output tokens, "
            f"{int(t['cached_calls'])} cached calls; {t['output'] / secs:.1f} output tokens/s; {secs:.0f}s"
        )

    def action_cancel(self) -> None:
        self.cancel()

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.app.cancel_job()

    def job_over(self) -> None:
        self.update_meter(final=True)
        self.query_one("#cancel", Button).disabled = True
