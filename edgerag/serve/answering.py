"""One chat question answered on the model's thread, as `Event`s a route sends on (`answer_chat`):

    a follow-up rewritten (chat.py `standalone`)  →  retrieval  →  the read plan's line
      →  the answer's text, piece by piece  →  `Reply`: the answer, its checked citations,
         the references and hop lines appended to its text, and its real token counts

The plan line ("the model reads evidence sentences of 4 of 9 units …; about 7 s") is sent before
the first token, so a slow CPU never looks like a hung server. Usage is counted in the answering
model's own tokens, every call of the answer together (a chain's steps, a rewrite): ``prompt``,
``completion``, and ``evaluated``, the prompt tokens llama.cpp computed (the rest it reused from
the previous prompt, or the LLM cache served).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..answer import Answer
from . import client_tasks
from .chat import ChatRequest, Rewrite, standalone
from .indexes import Served


@dataclass
class Event:
    """What the model's thread tells a route: ``plan`` (a line to show before the answer),
    ``text`` (a piece of the answer)."""

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


Emit = Callable[[Event], None]


@dataclass
class Reply:
    """A question's answer as the server sends it."""

    body: str
    """The answer's text as the model wrote it (what was streamed)."""
    footer: str
    """Appended after the body: the short answer where it differs, hop lines, the references."""
    citations: list[dict[str, Any]]
    usage: dict[str, int]
    """``prompt``, ``completion``, ``evaluated``: every call of this answer."""
    info: dict[str, Any]
    """The ``edgerag`` block of a response: the question asked, plan, short answer, steps."""
    started: float
    first_token: float | None = None
    finished: float = 0.0

    @property
    def text(self) -> str:
        return self.body + self.footer


def usage_of(*token_dicts: dict[str, int]) -> dict[str, int]:
    """Prompt, completion and evaluated tokens over several calls' token dicts (read.py's
    ``Answer.tokens``: input / output / evaluated / cached_input / cached_output)."""
    total = {"prompt": 0, "completion": 0, "evaluated": 0}
    for t in token_dicts:
        total["prompt"] += t.get("input", 0) + t.get("cached_input", 0)
        total["completion"] += t.get("output", 0) + t.get("cached_output", 0)
        total["evaluated"] += t.get("evaluated", 0)
    return total


def citations_of(ans: Answer) -> list[dict[str, Any]]:
    """The answer's citations as a script reads them: the passage number the text uses, how it
    was checked (``cited``: named by the model and holds the answer; ``matched``: holds it, not
    named; ``unverified``: named, but does not hold it), the document, where in its file, the
    passage's text. Only passages the model read are cited."""
    units = ans.context.units
    out = []
    for c in ans.citations:
        u = units[c.n - 1] if 1 <= c.n <= len(units) and units[c.n - 1].chunk_id == c.chunk_id else None
        if u is None:
            u = next((x for x in units if x.chunk_id == c.chunk_id), None)
        if u is None:  # never cite what the model did not read
            continue
        out.append(
            {
                "n": c.n,
                "how": c.how,
                "doc_id": c.doc_id,
                "chunk_id": c.chunk_id,
                "title": c.title,
                "where": c.where or u.provenance.get("label", ""),
                "file": u.provenance.get("file", ""),
                "pages": u.provenance.get("pages"),
                "section": u.provenance.get("section", ""),
                "text": u.text,
            }
        )
    return out


def footer_of(ans: Answer, citations: list[dict[str, Any]]) -> str:
    """What follows the answer's text for a client that shows text only: the short answer when
    code changed the model's reply, the hops of a chain, and the checked references."""
    lines: list[str] = []
    if ans.steps:
        hops = [f"{s['phrase']} → {s['answer']}" for s in ans.steps if s["phrase"]]
        if hops:
            lines.append("Hop by hop: " + "; ".join(hops) + ".")
    if ans.short and ans.short != ans.text.strip() and (ans.reason or ans.full) and not ans.steps:
        lines.append(f"Short answer: {ans.short}" + (f" ({ans.reason})" if ans.reason else ""))
    shown = [c for c in citations if c["how"] != "unverified"]
    if ans.abstained:  # answer/check.py: nothing read holds an answer; what came closest, as no source
        lines.append(f"({ans.reason})" if ans.reason else "")
        lines += ["Closest passages read (not a source):"] + [f"- {c.title}: {c.sentence}" for c in ans.closest]
        lines = [x for x in lines if x]
    out = ("\n\n" + "\n".join(lines)) if lines else ""
    if shown:
        refs = []
        for c in shown:
            where = c["where"] or c["file"] or c["doc_id"]
            refs.append(f"[{c['n']}] {c['title'] or c['doc_id']}" + (f" — {where}" if where and where != c["title"] else ""))
        out += "\n\nReferences:\n" + "\n".join(refs)
    return out


def answer_chat(served: Served, req: ChatRequest, emit: Emit) -> Reply:
    """Answer ``req`` from ``served``'s index (on the model's thread), sending events to ``emit``."""
    rag = served.rag
    started = time.monotonic()
    method = req.method or rag.settings.method
    rewrite = standalone(rag.answer_llm, req.question, req.history, method) if req.history else Rewrite(req.question, req.question)
    if rewrite.changed:
        emit(Event("plan", f"asked as: {rewrite.question}\n", {"rewritten": rewrite.question}))
    ctx = rag.retrieve(rewrite.question, method=method, budget=req.budget)
    plan = rag.plan_answer(rewrite.question, ctx, mode=req.mode)
    emit(Event("plan", plan.summary() + "\n", {"plan": plan.summary()}))
    first: list[float] = []

    def on_text(piece: str) -> None:
        if not first:
            first.append(time.monotonic())
        emit(Event("text", piece))

    ans = rag.answer(rewrite.question, ctx, plan=plan, on_text=on_text)
    citations = citations_of(ans)
    info = {
        "index": served.name,
        "method": ctx.method,
        "question": rewrite.question,
        "rewritten_from": rewrite.original if rewrite.changed else None,
        "rewrite_tokens": rewrite.tokens or None,
        "rewrite_note": rewrite.note or None,
        "plan": plan.summary(),
        "short": ans.short,
        "reason": ans.reason,
        "steps": ans.steps,
        "cached": ans.cached,
        "units_read": len(ans.context.units),
        "units_left_out": ans.dropped_units,
        "abstained": ans.abstained,
        "closest": [
            {"n": c.n, "title": c.title, "where": c.where, "chunk_id": c.chunk_id, "sentence": c.sentence, "how": c.how}
            for c in ans.closest
        ],
    }
    if req.tools_ignored:  # the client offered tools; the answer comes from the index (chat.py)
        info["tools_ignored"] = req.tools_ignored
    return Reply(
        body=ans.text,
        footer=footer_of(ans, citations),
        citations=citations,
        usage=usage_of(ans.tokens, rewrite.tokens),
        info=info,
        started=started,
        first_token=first[0] if first else None,
        finished=time.monotonic(),
    )


TASK_MAX_TOKENS = 256


def answer_task(served: Served, req: ChatRequest, emit: Emit) -> Reply:
    """A client's own housekeeping prompt (a chat's title, tags), passed to the model as it is:
    no retrieval, no citations, metered as the stage ``client-task``. Its text is sent whole
    when done, so a task stopped for a question (model_queue.py) has sent nothing yet and its
    answer in code (`task_in_code`) is all the client gets."""
    started = time.monotonic()
    llm = served.rag.answer_llm
    c = llm.chat(req.messages, stage="client-task", method="none", max_tokens=TASK_MAX_TOKENS)
    tokens = c.account()
    first = time.monotonic()
    emit(Event("text", c.text))
    return Reply(
        body=c.text,
        footer="",
        citations=[],
        usage=usage_of(tokens),
        info={"index": served.name, "client_task": client_tasks.kind_of(req.question) or True},
        started=started,
        first_token=first,
        finished=time.monotonic(),
    )


def task_in_code(served: Served, req: ChatRequest, emit: Emit) -> Reply:
    """A client task answered without the model, because questions wait for it
    (client_tasks.py): a title from the question's words, no tags, no suggestions."""
    started = time.monotonic()
    text = client_tasks.in_code(req.question)
    emit(Event("text", text))
    now = time.monotonic()
    info = {"index": served.name, "client_task": client_tasks.kind_of(req.question) or True, "answered_in_code": "questions were waiting"}
    return Reply(body=text, footer="", citations=[], usage=usage_of(), info=info, started=started, first_token=now, finished=now)
