"""OpenAI's dialect: ``GET /v1/models`` and ``POST /v1/chat/completions``, streamed (server-sent
``chat.completion.chunk`` events, then ``data: [DONE]``) or not, as the official ``openai`` client
and Open WebUI's "OpenAI API" connection call them.

Beyond OpenAI's fields a response carries, for scripts:

* ``citations``: the checked citations (chunk, document, page or section, how checked, text);
* ``edgerag``: the question as asked (a follow-up rewritten), the read plan, the short answer,
  a chain's steps;
* ``usage``: the answering model's own counts, ``prompt_tokens_details.cached_tokens`` the prompt
  tokens not computed anew (reused prefix, or the LLM cache), ``evaluated_tokens`` the rest.

Each checked citation also goes out as an OpenAI ``annotations`` entry (``url_citation``) on the
message (in a stream: on the delta that carries the references), linking to the passage's page
(passage_page.py): Open WebUI shows these as source chips. Every citation carries that ``url``.

In a stream the plan line comes first as ``delta.reasoning_content`` (clients that show a
model's reasoning, Open WebUI among them, show it while the answer is prepared), the references
as the last content, ``citations`` and ``edgerag`` on the final chunk, and ``usage`` in a chunk
of its own when ``stream_options.include_usage`` asks for it, as llama.cpp's server sends it.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from .access_log import note_model, note_reply
from .answering import Event, Reply
from .chat import ChatRequest, RequestError, from_openai
from .errors import openai_body, openai_error
from .events import ClientGone, continuation, events, submit_chat, wait_reply
from .indexes import find
from .passage_page import annotations, linked

router = APIRouter(prefix="/v1", tags=["OpenAI-compatible"])


async def read_json(request: Request):
    try:
        return await request.json()
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the body is not valid JSON ({e})") from None


@router.get("/models", summary="One model per served index")
async def list_models(request: Request):
    server = request.app.state.edgerag
    return {
        "object": "list",
        "data": [
            {"id": s.model_id, "object": "model", "created": int(s.created), "owned_by": "edgerag", "edgerag": s.describe()}
            for s in server.indexes.values()
        ],
    }


@router.get("/models/{model}", summary="One served index")
async def get_model(request: Request, model: str):
    try:
        s = find(request.app.state.edgerag.indexes, model)
    except LookupError as e:
        return openai_error(e)
    return {"id": s.model_id, "object": "model", "created": int(s.created), "owned_by": "edgerag", "edgerag": s.describe()}


def usage_block(reply: Reply) -> dict:
    u = reply.usage
    return {
        "prompt_tokens": u["prompt"],
        "completion_tokens": u["completion"],
        "total_tokens": u["prompt"] + u["completion"],
        "prompt_tokens_details": {"cached_tokens": max(0, u["prompt"] - u["evaluated"])},
        "evaluated_tokens": u["evaluated"],
    }


@router.post("/chat/completions", summary="Answer the last user message from the index, with citations")
async def chat_completions(request: Request):
    server = request.app.state.edgerag
    try:
        req = from_openai(await read_json(request))
        served = find(server.indexes, req.model)
        note_model(request, served.model_id)
        sub = submit_chat(server.queue, served, req)
    except Exception as e:  # every failure becomes a clear 4xx/5xx
        return openai_error(e)
    cid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
    created = int(time.time())
    if req.stream:
        return StreamingResponse(
            sse(sub, req, cid, created, served, request), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )
    try:
        reply = await wait_reply(request, sub)
    except ClientGone:
        return JSONResponse(openai_body(499, "the client closed the connection"), status_code=499)
    except Exception as e:
        return openai_error(e)
    note_reply(request, reply)
    citations = linked(request, served, reply)
    content = continuation(reply.text, req.continued)
    message = {"role": "assistant", "content": content}
    if citations:  # Open WebUI shows them as source chips
        message["annotations"] = annotations(citations, content)
    return {
        "id": cid,
        "object": "chat.completion",
        "created": created,
        "model": served.model_id,
        "choices": [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}],
        "usage": usage_block(reply),
        "citations": citations,
        "edgerag": reply.info,
    }


def _chunk(cid: str, created: int, model: str, delta: dict, finish: str | None = None, **extra) -> str:
    body = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        **extra,
    }
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"


async def sse(sub, req: ChatRequest, cid: str, created: int, served, request: Request) -> AsyncIterator[str]:
    """The answer as server-sent events; an error after the stream began is sent as an event."""
    model = served.model_id
    yield _chunk(cid, created, model, {"role": "assistant", "content": ""})
    try:
        async for ev in events(sub):
            if ev is None:
                yield ": keep-alive\n\n"
            elif isinstance(ev, Event) and ev.kind == "plan":
                yield _chunk(cid, created, model, {"reasoning_content": ev.text}, edgerag=ev.data)
            elif isinstance(ev, Event) and ev.kind == "text":
                if not req.continued:  # a "continue" turn gets the rest at the end, not what the client has
                    yield _chunk(cid, created, model, {"content": ev.text})
            elif isinstance(ev, Reply):
                note_reply(request, ev)
                citations = linked(request, served, ev)
                rest = continuation(ev.body, req.continued) if req.continued else ""
                if rest + ev.footer:
                    delta: dict = {"content": rest + ev.footer}
                    if citations:  # spans of the whole message's content, as on a message
                        delta["annotations"] = annotations(citations, (rest if req.continued else ev.body) + ev.footer)
                    yield _chunk(cid, created, model, delta)
                yield _chunk(cid, created, model, {}, "stop", citations=citations, edgerag=ev.info)
                if req.include_usage:
                    body = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model}
                    body.update(choices=[], usage=usage_block(ev))
                    yield f"data: {json.dumps(body)}\n\n"
    except Exception as e:  # the status is sent already: say it in the stream
        from .errors import classify

        status, message, param, _ = classify(e)
        yield f"data: {json.dumps(openai_body(status, message, param))}\n\n"
    yield "data: [DONE]\n\n"
