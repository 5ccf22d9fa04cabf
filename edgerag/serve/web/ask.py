"""A question asked on the page, answered on the model's thread (`answer_page`), kept for its
Why page (`Answers`).

The same steps as a chat client's answer (serve/answering.py `answer_chat`): a follow-up
rewritten into a standalone question, retrieval, the read plan sent before the first token,
the answer's text piece by piece. The page gets more than a chat client: whether the documents
said nothing (``abstained``), the closest passages then, each citation's passage page, the
tokens and seconds the answer took, and the evidence behind it (evidence.py) for its Why page.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..answering import Emit, Event, citations_of, usage_of
from ..chat import Rewrite, Turn, standalone
from ..indexes import Served
from ..passage_page import MAX_MARK
from ..passage_page import passage_url as page_url
from .evidence import Evidence, evidence_of

HISTORY_TURNS = 12
"""A follow-up sends its conversation; only the last this many turns are read."""
KEPT_ANSWERS = 64
"""Answers whose Why page the server keeps (in memory, newest first; a restart forgets them)."""


@dataclass
class Asked:
    """One answer as the page shows it."""

    id: str
    index: str
    question: str
    """The question as typed."""
    asked: str
    """The question as retrieval and the reader got it (a follow-up rewritten)."""
    text: str
    short: str
    abstained: bool
    citations: list[dict[str, Any]]
    closest: list[dict[str, Any]]
    usage: dict[str, int]
    seconds: float
    first_token_s: float | None
    plan: str
    method: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    evidence: Evidence | None = None
    created: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        """What the page's script reads at the end of the stream."""
        return {
            "id": self.id,
            "question": self.question,
            "asked": self.asked,
            "text": self.text,
            "short": self.short,
            "abstained": self.abstained,
            "citations": self.citations,
            "closest": self.closest,
            "usage": self.usage,
            "seconds": round(self.seconds, 2),
            "first_token_s": round(self.first_token_s, 2) if self.first_token_s is not None else None,
            "plan": self.plan,
            "method": self.method,
            "steps": self.steps,
            "why": f"/why/{self.id}",
        }


def passage_url(index: str, chunk_id: str, mark: str) -> str:
    """The passage page of a citation (serve/passage_page.py), the answer marked in it; the
    page's session opens it, so the link is not signed."""
    return page_url("", index, chunk_id, mark[:MAX_MARK])


def _closest(served: Served, ans) -> list[dict[str, Any]]:
    """The closest sentences' passages of an answer the documents do not hold (Answer.closest,
    when the reader records them)."""
    out = []
    for c in getattr(ans, "closest", None) or []:
        sentence = getattr(c, "sentence", "")
        out.append(
            {
                "n": c.n,
                "title": c.title or c.doc_id,
                "where": c.where,
                "sentence": sentence,
                "url": passage_url(served.name, c.chunk_id, sentence),
            }
        )
    return out


def turns_of(history: list[dict[str, Any]]) -> list[Turn]:
    """The conversation the page sends, as chat.py's turns (user and assistant, text only)."""
    turns = []
    for t in history[-HISTORY_TURNS:]:
        role, text = t.get("role"), t.get("text")
        if role in ("user", "assistant") and isinstance(text, str) and text.strip():
            turns.append(Turn(role, text))
    return turns


def answer_page(served: Served, question: str, history: list[Turn], emit: Emit) -> Asked:
    """Answer ``question`` from ``served``'s index on the model's thread, sending the plan and the
    text to ``emit`` as they come."""
    rag = served.rag
    started = time.monotonic()
    method = rag.settings.method
    rewrite = standalone(rag.answer_llm, question, history, method) if history else Rewrite(question, question)
    if rewrite.changed:
        emit(Event("plan", f"asked as: {rewrite.question}\n", {"rewritten": rewrite.question}))
    ctx = rag.retrieve(rewrite.question, method=method)
    plan = rag.plan_answer(rewrite.question, ctx)
    emit(Event("plan", plan.summary() + "\n", {"plan": plan.summary()}))
    first: list[float] = []

    def on_text(piece: str) -> None:
        if not first:
            first.append(time.monotonic())
        emit(Event("text", piece))

    ans = rag.answer(rewrite.question, ctx, plan=plan, on_text=on_text)
    abstained = bool(ans.abstained) or not ans.short.strip()
    citations = [] if abstained else citations_of(ans)
    for c in citations:  # the answer marked where the passage holds it word for word
        c["url"] = passage_url(served.name, c["chunk_id"], ans.short if ans.short.lower() in (c.get("text") or "").lower() else "")
    finished = time.monotonic()
    asked = Asked(
        id=uuid.uuid4().hex[:16],
        index=served.name,
        question=question,
        asked=rewrite.question,
        text=ans.text,
        short=ans.short,
        abstained=abstained,
        citations=citations,
        closest=_closest(served, ans) if abstained else [],
        usage=usage_of(ans.tokens, rewrite.tokens),
        seconds=finished - started,
        first_token_s=(first[0] - started) if first else None,
        plan=plan.summary(),
        method=ctx.method,
        steps=list(ans.steps),
    )
    asked.evidence = evidence_of(rewrite.question, ans, citations)
    return asked


class Answers:
    """The page's recent answers, by id (the Why pages read them)."""

    def __init__(self, keep: int = KEPT_ANSWERS) -> None:
        self.keep = keep
        self._by_id: OrderedDict[str, Asked] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, asked: Asked) -> None:
        with self._lock:
            self._by_id[asked.id] = asked
            while len(self._by_id) > self.keep:
                self._by_id.popitem(last=False)

    def get(self, answer_id: str) -> Asked | None:
        with self._lock:
            return self._by_id.get(answer_id)

    def recent(self, index: str | None = None) -> list[Asked]:
        with self._lock:
            return [a for a in reversed(self._by_id.values()) if index in (None, a.index)]
