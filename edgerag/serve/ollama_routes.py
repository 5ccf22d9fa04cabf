"""Ollama's dialect: ``GET /api/tags``, ``GET /api/version``, ``POST /api/show`` and
``POST /api/chat`` (newline-delimited JSON, streamed unless ``"stream": false``), so a client set up
for an Ollama server (Open WebUI's Ollama connection, Continue, n8n) works unchanged.

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
from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from .. import __version__
from .answering import Event, Reply, answer_chat, answer_task
from .chat import ChatRequest, RequestError, from_ollama
from .errors import classify, ollama_error
from .events import ClientGone, continuation, events, submit, wait_reply
from .indexes import Served, find

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


def _final(reply: Reply, model: str, content: str) -> dict:
    u = reply.usage
    first = reply.first_token or reply.finished
    return {
        "model": model,
        "created_at": _now(),
        "message": {"role": "assistant", "content": content},
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


@router.post("/chat", summary="Answer the last user message from the index, with citations")
async def chat(request: Request):
    server = request.app.state.edgerag
    try:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError) as e:
            raise RequestError(f"the body is not valid JSON ({e})") from None
        req = from_ollama(body)
        served = find(server.indexes, req.model)
        work = answer_task if req.client_task else answer_chat
        sub = submit(server.queue, lambda emit: work(served, req, emit), f"chat {served.name}")
    except Exception as e:
        return ollama_error(e)
    model = req.model or served.model_id
    if req.stream:
        return StreamingResponse(ndjson(sub, req, model), media_type="application/x-ndjson")
    try:
        reply = await wait_reply(request, sub)
    except ClientGone:
        return JSONResponse({"error": "the client closed the connection"}, status_code=499)
    except Exception as e:
        return ollama_error(e)
    return _final(reply, model, continuation(reply.text, req.continued))


def _line(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


async def ndjson(sub, req: ChatRequest, model: str) -> AsyncIterator[str]:
    try:
        async for ev in events(sub):
            if ev is None:
                continue
            if isinstance(ev, Event) and ev.kind == "plan":
                msg = {"role": "assistant", "content": "", "thinking": ev.text}
                yield _line({"model": model, "created_at": _now(), "message": msg, "done": False})
            elif isinstance(ev, Event) and ev.kind == "text" and not req.continued:
                yield _line({"model": model, "created_at": _now(), "message": {"role": "assistant", "content": ev.text}, "done": False})
            elif isinstance(ev, Reply):
                rest = continuation(ev.body, req.continued) if req.continued else ""
                if rest + ev.footer:
                    msg = {"role": "assistant", "content": rest + ev.footer}
                    yield _line({"model": model, "created_at": _now(), "message": msg, "done": False})
                yield _line(_final(ev, model, ""))
    except Exception as e:  # the status is sent already: say it in the stream
        yield _line({"error": classify(e)[1]})
