"""The page's routes: Ask (``/``), Why (``/why``, ``/why/{id}``), Documents (``/documents``),
Tokens (``/tokens``), the key's login (``/login``, ``/logout``) and the stream an answer comes in
(``POST /web/ask``). Pages are rendered on the server (templates/); the browser's script
(assets/web.js) only streams answers, uploads files and follows their jobs through the server's
own ``/edgerag/…`` routes. Every page takes ``?index=NAME`` (the first index by default).
"""

from __future__ import annotations

import hmac
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, StreamingResponse
from fastapi.templating import Jinja2Templates

from ... import methods as registry
from ...build import hms
from ..answering import Event
from ..chat import RequestError
from ..errors import classify, openai_error
from ..events import events, submit, wait_reply
from ..indexes import Served
from .access import COOKIE, cookie_header, csrf_token, new_session
from .ask import Asked, answer_page, turns_of
from .evidence import layout
from .tokens import ledger_view

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["hms"] = hms
router = APIRouter(include_in_schema=False)
QUESTION_MAX_CHARS = 2_000
TABS = (("ask", "/", "Ask"), ("why", "/why", "Why"), ("documents", "/documents", "Documents"), ("tokens", "/tokens", "Tokens"))


def _server(request: Request):
    return request.app.state.edgerag


def _pick(request: Request, name: str | None) -> Served:
    indexes = _server(request).indexes
    if not name:
        return next(iter(indexes.values()))
    if name not in indexes:
        raise LookupError(f"no index {name!r} here; the indexes are: {', '.join(indexes)}")
    return indexes[name]


def render(request: Request, template: str, tab: str, served: Served | None, status: int = 200, **ctx: Any) -> HTMLResponse:
    """A page in the common frame: the tabs, the index picker, the CSRF token, the logout."""
    server = _server(request)
    key = server.config.api_key
    base = {
        "tabs": TABS,
        "tab": tab,
        "indexes": list(server.indexes),
        "index": served.name if served else "",
        "csrf": csrf_token(key, request.scope.get("edgerag.session")),
        "keyed": bool(key),
        "status": server.status,
    }
    return templates.TemplateResponse(request, template, {**base, **ctx}, status_code=status, headers={"Cache-Control": "no-store"})


def error_page(request: Request, e: BaseException, tab: str = "") -> HTMLResponse:
    status, message, _, _ = classify(e)
    return render(request, "error.html", tab, None, status=status, message=message)


# ---- Ask --------------------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
async def ask_page(request: Request, index: str | None = None):
    try:
        served = _pick(request, index)
    except LookupError as e:
        return error_page(request, e, "ask")
    return render(request, "ask.html", "ask", served, exists=served.exists, method=served.rag.settings.method)


@router.post("/web/ask")
async def ask(request: Request):
    """``{index, question, history: [{role, text}]}`` → the answer as JSON lines: ``{"plan"}``,
    ``{"text"}`` pieces, then ``{"done": answer}`` or ``{"error"}``; a blank line keeps the
    connection alive while the model works."""
    server = _server(request)
    try:
        try:
            body = await request.json()
        except ValueError as e:
            raise RequestError(f"the body is not valid JSON ({e})") from None
        if not isinstance(body, dict):
            raise RequestError("the body must be a JSON object: {index, question, history}")
        question = body.get("question")
        if not isinstance(question, str) or not question.strip():
            raise RequestError("question: ask something", "question")
        if len(question) > QUESTION_MAX_CHARS:
            raise RequestError(f"question: at most {QUESTION_MAX_CHARS:,} characters", "question")
        history = body.get("history") or []
        if not isinstance(history, list) or not all(isinstance(t, dict) for t in history):
            raise RequestError("history must be a list of {role, text}", "history")
        served = _pick(request, body.get("index"))
        if not served.exists:
            raise RequestError(f"{served.name} holds no documents yet: upload some on the Documents tab", "index", 409)
        turns = turns_of(history)
        sub = submit(server.queue, lambda emit: answer_page(served, question.strip(), turns, emit), f"page {served.name}")
    except Exception as e:
        return openai_error(e)
    answers = request.app.state.web_answers

    async def lines():
        try:
            async for ev in events(sub):
                if ev is None:
                    yield "\n"
                elif isinstance(ev, Event):
                    yield json.dumps({ev.kind: ev.text}, ensure_ascii=False) + "\n"
                elif isinstance(ev, Asked):
                    answers.add(ev)
                    yield json.dumps({"done": ev.to_json()}, ensure_ascii=False) + "\n"
        except Exception as e:  # the status is sent already: say it in the stream
            yield json.dumps({"error": classify(e)[1]}) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


# ---- Why --------------------------------------------------------------------------------------
@router.get("/why", response_class=HTMLResponse)
async def why_list(request: Request, index: str | None = None):
    try:
        served = _pick(request, index)
    except LookupError as e:
        return error_page(request, e, "why")
    recent = request.app.state.web_answers.recent(served.name)
    latest = recent[0] if recent else None
    drawing = layout(latest.evidence) if latest and latest.evidence else None
    return render(request, "why.html", "why", served, answer=latest, drawing=drawing, recent=recent[1:])


@router.get("/why/{answer_id}", response_class=HTMLResponse)
async def why(request: Request, answer_id: str):
    asked = request.app.state.web_answers.get(answer_id)
    if asked is None:
        return error_page(request, LookupError(f"no answer {answer_id!r} here: the server keeps its last answers until it restarts"), "why")
    served = _server(request).indexes.get(asked.index)
    drawing = layout(asked.evidence) if asked.evidence else None
    recent = [a for a in request.app.state.web_answers.recent(asked.index) if a.id != asked.id]
    return render(request, "why.html", "why", served, answer=asked, drawing=drawing, recent=recent)


# ---- Documents --------------------------------------------------------------------------------
@router.get("/documents", response_class=HTMLResponse)
async def documents_page(request: Request, index: str | None = None):
    try:
        served = _pick(request, index)
        docs = await run_in_threadpool(served.rag.documents) if served.exists else []
    except Exception as e:
        return error_page(request, e, "documents")
    jobs = list(reversed(_server(request).jobs.list(served.name)))[:20]
    notable = any(j["state"] != "done" or j.get("error") or (j.get("result") or {}).get("skipped") for j in jobs[:5])
    return render(request, "documents.html", "documents", served, documents=docs, jobs=jobs, jobs_open=notable)


# ---- Tokens -----------------------------------------------------------------------------------
def llm_methods() -> list[str]:
    return [m for m in registry.names() if registry.get(m).llm_built]


@router.get("/tokens", response_class=HTMLResponse)
async def tokens_page(request: Request, index: str | None = None, plan: str | None = None):
    """The ledger; with ``?plan=METHOD``, what building that method would cost (``build --plan``),
    worked out on the model's thread (it counts the chunks' tokens with the extracting model)."""
    try:
        served = _pick(request, index)
        if plan is not None and plan not in llm_methods():
            raise RequestError(f"plan: {plan!r} is not a method built by the model; they are: {', '.join(llm_methods())}", "plan")
        totals = await run_in_threadpool(served.rag.ledger) if served.exists else {}
        built = None
        if plan and served.exists:
            sub = submit(_server(request).queue, lambda _emit: served.rag.plan(plan), f"plan {served.name}")
            built = await wait_reply(request, sub)
    except Exception as e:
        return error_page(request, e, "tokens")
    return render(
        request,
        "tokens.html",
        "tokens",
        served,
        view=ledger_view(totals),
        plan=built,
        plan_method=plan or (served.rag.settings.method if served.rag.settings.method in llm_methods() else "ket"),
        methods=llm_methods(),
        exists=served.exists,
    )


# ---- the key ----------------------------------------------------------------------------------
def _next(target: str | None) -> str:
    """Where a login sends the browser: a path on this server, never another site."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, next: str | None = None):
    if not _server(request).config.api_key:
        return RedirectResponse(_next(next), status_code=303)
    return render(request, "login.html", "", None, next=_next(next), error="")


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request):
    key = _server(request).config.api_key
    form = await request.form()
    target = _next(str(form.get("next") or "/"))
    if not key:
        return RedirectResponse(target, status_code=303)
    given = str(form.get("key") or "").strip()
    if not hmac.compare_digest(given.encode(), key.encode()):
        return render(request, "login.html", "", None, status=401, next=target, error="That is not this server's key.")
    response = RedirectResponse(target, status_code=303)
    response.headers["Set-Cookie"] = cookie_header(new_session(key))
    return response


@router.post("/logout")
async def logout(request: Request):
    response = RedirectResponse("/login" if _server(request).config.api_key else "/", status_code=303)
    response.headers["Set-Cookie"] = cookie_header("", max_age=0)
    return response


__all__ = ["COOKIE", "router"]
