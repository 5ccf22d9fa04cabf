"""Ollama's dialect: ``GET /api/tags``, ``GET /api/ps``, ``GET /api/version``, ``POST /api/show``,
``POST /api/chat`` and ``POST /api/generate`` (newline-delimited JSON, streamed unless
``"stream": false``), so a client set up for an Ollama server (Open WebUI's Ollama connection,
Continue, n8n) works unchanged. ``/api/generate`` answers its ``prompt`` as ``/api/chat`` answers
a one-message chat (the text under ``response``); every error on ``/api/*``, the 401 included,
comes in Ollama's shape ``{"error": "…"}``.

``prompt_eval_count`` and ``eval_count`` are the answering model's own token counts over every
call of the answer; ``prompt_eval_duration`` is measured up to the answer's first token and
``eval_duration`` from there to its end (nanoseconds, as Ollama reports them). The plan line comes
first as ``message.thinking``, as Ollama sends a thinking model's reasoning; the final line also
carries ``citations`` and ``edgerag`` (openai_routes.py says what they hold).

``/api/version`` says 0.9.0, the Ollama API level these routes follow (clients read it to decide
which fields to send), and edgerag's own version beside it.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from .. import __version__
from .access_log import note_model, note_reply
from .answering import Event, Reply
from .chat import ChatRequest, RequestError, from_ollama, from_ollama_generate
from .errors import classify, ollama_error
from .events import ClientGone, continuation, events, submit_chat, wait_reply
from .indexes import Served, find
from .passage_page import linked

router = APIRouter(prefix="/api", tags=["Ollama-compatible"])

OLLAMA_API = "0.9.0"


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _details(s: Served) -> dict:
    return {
        "parent_model": "",
        "format": "edgerag",
        "family": "edgerag",
        "families": ["edgerag"],
        "parameter_size": "",
        "quantization_level": "",
    }


@router.get("/version", summary="The Ollama API level these routes follow")
async def version():
    return {"version": OLLAMA_API, "edgerag": __version__}


@router.get("/tags", summary="One model per served index")
async def tags(request: Request):
    server = request.app.state.edgerag
    models = []
    for s in server.indexes.values():
        modified = datetime.fromtimestamp(s.created or time.time(), UTC).isoformat().replace("+00:00", "Z")
        models.append(
            {
                "name": s.model_id,
                "model": s.model_id,
                "modified_at": modified,
                "size": s.size(),
                "digest": s.digest,
                "details": _details(s),
                "edgerag": s.describe(),
            }
        )
    return {"models": models}


@router.post("/show", summary="What a served index is")
async def show(request: Request):
    try:
        body = await request.json()
        s = find(request.app.state.edgerag.indexes, (body or {}).get("model") or (body or {}).get("name"))
    except ValueError:
        return ollama_error(RequestError("the body is not valid JSON"))
    except Exception as e:
        return ollama_error(e)
    n_ctx = s.rag.settings.n_ctx
    return {
        "modelfile": "",
        "parameters": "",
        "template": "",
        "details": _details(s),
        "model_info": {"general.architecture": "edgerag", "edgerag.context_length": n_ctx},
        "capabilities": ["completion"],
        "edgerag": s.describe(),
    }


def _stats(reply: Reply) -> dict:
    u = reply.usage
    first = reply.first_token or reply.finished
    return {
        "done": True,
        "done_reason": "stop",
        "total_duration": int((reply.finished - reply.started) * 1e9),
        "load_duration": 0,
        "prompt_eval_count": u["prompt"],
        "prompt_eval_duration": int((first - reply.started) * 1e9),
        "eval_count": u["completion"],
        "eval_duration": int((reply.finished - first) * 1e9),
        "citations": reply.citations,
        "edgerag": reply.info,
    }


def _chat_piece(text: str, thinking: bool = False) -> dict:
    return {"message": {"role": "assistant", "content": "", "thinking": text} if thinking else {"role": "assistant", "content": text}}


def _generate_piece(text: str, thinking: bool = False) -> dict:
    return {"response": "", "thinking": text} if thinking else {"response": text}


def _final(reply: Reply, model: str, content: str, piece=_chat_piece, citations: list | None = None) -> dict:
    out = {"model": model, "created_at": _now(), **piece(content), **_stats(reply)}
    if citations is not None:
        out["citations"] = citations
    return out


async def _body(request: Request):
    try:
        return await request.json()
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the body is not valid JSON ({e})") from None


async def _answer(request: Request, req: ChatRequest, served: Served, piece):
    """Submit ``req``, then stream its lines or wait for its final one."""
    server = request.app.state.edgerag
    sub = submit_chat(server.queue, served, req)
    model = req.model or served.model_id
    if req.stream:
        return StreamingResponse(ndjson(sub, req, model, piece, request, served), media_type="application/x-ndjson")
    try:
        reply = await wait_reply(request, sub)
    except ClientGone:
        return JSONResponse({"error": "the client closed the connection"}, status_code=499)
    except Exception as e:
        return ollama_error(e)
    note_reply(request, reply)
    return _final(reply, model, continuation(reply.text, req.continued), piece, linked(request, served, reply))


@router.post("/chat", summary="Answer the last user message from the index, with citations")
async def chat(request: Request):
    try:
        req = from_ollama(await _body(request))
        served = find(request.app.state.edgerag.indexes, req.model)
        note_model(request, served.model_id)
        return await _answer(request, req, served, _chat_piece)
    except Exception as e:
        return ollama_error(e)


@router.post("/generate", summary="Answer a prompt from the index, with citations (Ollama's generate)")
async def generate(request: Request):
    """The same answer as ``/api/chat`` for a prompt; an empty prompt only says the model is
    loaded (Ollama's way to load one), as ``done_reason: load``."""
    try:
        body = await _body(request)
        if isinstance(body, dict) and not str(body.get("prompt") or "").strip() and not body.get("messages"):
            served = find(request.app.state.edgerag.indexes, body.get("model"))
            return {
                "model": body.get("model") or served.model_id,
                "created_at": _now(),
                "response": "",
                "done": True,
                "done_reason": "load",
            }
        req = from_ollama_generate(body)
        served = find(request.app.state.edgerag.indexes, req.model)
        note_model(request, served.model_id)
        return await _answer(request, req, served, _generate_piece)
    except Exception as e:
        return ollama_error(e)


@router.get("/ps", summary="The models loaded: every served index, once the server has loaded what it answers with")
async def ps(request: Request):
    server = request.app.state.edgerag
    if server.status != "ok":
        return {"models": []}
    until = (datetime.now(UTC) + timedelta(days=1)).isoformat().replace("+00:00", "Z")  # loaded while the server runs
    return {
        "models": [
            {
                "name": s.model_id,
                "model": s.model_id,
                "size": s.size(),
                "digest": s.digest,
                "details": _details(s),
                "expires_at": until,
                "size_vram": 0,
                "context_length": s.rag.settings.n_ctx,
            }
            for s in server.indexes.values()
        ]
    }


def _line(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


async def ndjson(sub, req: ChatRequest, model: str, piece=_chat_piece, request: Request | None = None, served=None) -> AsyncIterator[str]:
    try:
        async for ev in events(sub):
            if ev is None:
                continue
            if isinstance(ev, Event) and ev.kind == "plan":
                yield _line({"model": model, "created_at": _now(), **piece(ev.text, thinking=True), "done": False})
            elif isinstance(ev, Event) and ev.kind == "text" and not req.continued:
                yield _line({"model": model, "created_at": _now(), **piece(ev.text), "done": False})
            elif isinstance(ev, Reply):
                if request is not None:
                    note_reply(request, ev)
                rest = continuation(ev.body, req.continued) if req.continued else ""
                if rest + ev.footer:
                    yield _line({"model": model, "created_at": _now(), **piece(rest + ev.footer), "done": False})
                yield _line(_final(ev, model, "", piece, linked(request, served, ev) if request is not None else None))
    except Exception as e:  # the status is sent already: say it in the stream
        yield _line({"error": classify(e)[1]})
