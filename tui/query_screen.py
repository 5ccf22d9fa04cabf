"""Query screen: ask, see the retrieved units with their source and score, watch the answer
stream in with its citations, and read that question's token account."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Input, Label, ListItem, ListView, Select, Static

from edgerag import EdgeRAG
from edgerag import methods as registry
from edgerag.cli.display import answer_footer, explain, keywords_line, unit_source
from edgerag.types import Context

from .unit_screen import UnitScreen


@dataclass
class Asked:
    """One question of the history, with what it got."""

    question: str
    method: str
    budget: int
    context: Context | None = None
    answer: str = ""
    footer: tuple[str, ...] = ()
    plan: str = ""
    """`ReadPlan.summary()`: shown while the model reads, before the first word."""


class QueryScreen(Screen):
    AUTO_FOCUS = "#question"
    """Type a question as soon as the screen shows, no Tab first (Textual's default focuses the
    first focusable widget, the history list)."""
    BINDINGS = [
        Binding("ctrl+r", "ask", "Ask"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.history: list[Asked] = []
        self.current: Asked | None = None

    def compose(self) -> ComposeResult:
        s = self.app.rag.settings
        yield Header()
        with Horizontal(id="query-main"):
            history = ListView(id="history")
            history.border_title = "history"
            yield history
            with Vertical(id="query-body"):
                yield Input(placeholder="Ask a question and press enter", id="question")
                with Horizontal(classes="row"):
                    yield Select([(m, m) for m in EdgeRAG.methods()], value=s.method, allow_blank=False, compact=True, id="qmethod")
                    yield Label(" λ ")
                    yield Input(str(s.budget), id="budget", compact=True, classes="param")
                    yield Checkbox("answer", value=True, id="with-answer", compact=True)
                    yield Input(f"{s.answer_seconds:g}" if s.answer_seconds else "", placeholder="∞", id="seconds", compact=True)
                    yield Label("s")
                    yield Button("Ask", id="ask", compact=True, variant="primary")
                table = DataTable(id="units", cursor_type="row", zebra_stripes=True)
                table.border_title = "context (enter: read a unit)"
                yield table
                with VerticalScroll(id="answer-box") as box:
                    box.border_title = "answer"
                    yield Static("", id="answer", markup=False)
                    yield Static("", id="footer", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#units", DataTable).add_columns("#", "score", "tokens", "source", "why")

    # ---- asking --------------------------------------------------------------------------
    @on(Input.Submitted, "#question")
    @on(Button.Pressed, "#ask")
    def action_ask(self) -> None:
        question = self.query_one("#question", Input).value.strip()
        if not question:
            self.notify("type a question first", severity="warning")
            return
        if not self.app.index_exists:
            self.notify("there is no index yet: add files on the index screen (F2)", severity="warning")
            return
        try:
            budget = int(self.query_one("#budget", Input).value)
        except ValueError:
            self.notify("the budget must be a whole number of tokens", severity="error")
            return
        raw = self.query_one("#seconds", Input).value.strip()
        try:  # the answer's time budget (Settings.answer_seconds); empty: none
            seconds = float(raw) if raw else None
            if seconds != self.app.rag.settings.answer_seconds:
                self.app.rag.configure(answer_seconds=seconds)
        except ValueError:
            self.notify("the answer's time must be a positive number of seconds, or empty for no limit", severity="error")
            return
        method = str(self.query_one("#qmethod", Select).value)
        with_answer = self.query_one("#with-answer", Checkbox).value
        asked = Asked(question, method, budget)
        self.current = asked
        self.show(asked)
        self.query_one("#answer", Static).update(
            "retrieving…" if not registry.get(method).query_llm else "asking the model for query keywords, then retrieving…"
        )

        def work():
            rag = self.app.rag
            asked.context = rag.retrieve(question, method=method, budget=budget)
            self.app.call_from_thread(self.show, asked)
            if not with_answer:
                return None
            plan = rag.plan_answer(question, asked.context)
            asked.plan = plan.summary()  # what the model reads, what it leaves out, the expected wait
            self.app.call_from_thread(self.show, asked)
            return rag.answer(
                question, asked.context, plan=plan, on_text=lambda piece: self.app.call_from_thread(self.stream, asked, piece)
            )

        if self.app.run_job("answering" if with_answer else "retrieving", work, lambda ans: self.answered(asked, ans)):
            self.history.append(asked)
            self.query_one("#history", ListView).append(ListItem(Label(question[:40], markup=False), name=str(len(self.history) - 1)))

    def stream(self, asked: Asked, piece: str) -> None:
        asked.answer += piece
        if asked is self.current:
            self.query_one("#answer", Static).update(asked.answer)

    def answered(self, asked: Asked, ans) -> None:
        if ans is None:
            asked.footer = ("retrieval only: no LLM call",)
        else:
            asked.answer = ans.text
            asked.footer = tuple(answer_footer(ans))
        if asked is self.current:
            self.show(asked)

    # ---- showing -------------------------------------------------------------------------
    def show(self, asked: Asked) -> None:
        table = self.query_one("#units", DataTable)
        table.clear()
        ctx = asked.context
        if ctx is not None:
            for i, u in enumerate(ctx.units, 1):
                source = unit_source(u)
                table.add_row(str(i), f"{u.score:.3f}", str(u.tokens), Text(source), Text(explain(u.meta)), key=str(i - 1))
            table.border_subtitle = f"{len(ctx.units)} units, {ctx.tokens}/{ctx.budget} tokens ({ctx.method})"
        waiting = asked.plan and not asked.answer and not asked.footer
        self.query_one("#answer", Static).update(f"{asked.plan} …" if waiting else asked.answer)
        lines = list(asked.footer)
        if asked.plan and asked.footer:
            lines.insert(0, asked.plan)
        if ctx is not None and keywords_line(ctx):
            lines.insert(0, keywords_line(ctx))
        self.query_one("#footer", Static).update("\n".join(lines))

    @on(ListView.Selected, "#history")
    def recall(self, event: ListView.Selected) -> None:
        asked = self.history[int(event.item.name)]
        self.current = asked
        self.query_one("#question", Input).value = asked.question
        self.query_one("#qmethod", Select).value = asked.method
        self.query_one("#budget", Input).value = str(asked.budget)
        self.show(asked)

    @on(DataTable.RowSelected, "#units")
    def read_unit(self, event: DataTable.RowSelected) -> None:
        if self.current is not None and self.current.context is not None:
            self.app.push_screen(UnitScreen(self.current.context.units[int(event.row_key.value)]))

    def job_over(self) -> None:
        pass
