"""The server's access log: one line a request, written when its response has ended (a stream's
too), so that a refused request (400, 401, 413) is as visible as an answered one:

    edgerag: POST /v1/chat/completions 200 4.21 s model=edgerag:docs tokens=812+45
    edgerag: GET /api/ps 401 0.00 s model=- tokens=-

The method, the path (never its query: a passage link's signature stays out of the log), the
status, the seconds from the request's arrival to its last byte, the model (the index) a chat
named, and the answering model's prompt and completion tokens (``-`` where none were spent).
On by default; ``edgerag serve --quiet`` turns it off (`AccessLog` is then not installed).

A route tells the line what it knows through the request's scope (`note_model`, `note_reply`);
the middleware reads it when the response is over.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

KEY = "edgerag.access"
"""The scope's entry a route writes its model and tokens into."""

log = logging.getLogger("edgerag.serve.access")


def _record(request) -> dict[str, Any]:
    return request.scope.setdefault(KEY, {})


def note_model(request, model: str) -> None:
    """The model (``edgerag:NAME``) a request asked."""
    _record(request)["model"] = model


def note_reply(request, reply) -> None:
    """The tokens an answer spent (`answering.Reply.usage`)."""
    _record(request)["tokens"] = (reply.usage.get("prompt", 0), reply.usage.get("completion", 0))


def _printable(text: str) -> str:
    """``text`` with what could break or forge a log line (a newline sent as %0A) escaped."""
    return "".join(ch if ch.isprintable() and ch != " " else f"\\x{ord(ch):02x}" for ch in text)


def line(method: str, path: str, status: int, seconds: float, model: str | None = None, tokens: tuple[int, int] | None = None) -> str:
    spent = f"{tokens[0]}+{tokens[1]}" if tokens else "-"
    return f"edgerag: {_printable(method)} {_printable(path)} {status} {seconds:.2f} s model={model or '-'} tokens={spent}"


def enable() -> None:
    """Send the log's lines to stderr (uvicorn's own loggers do not carry them)."""
    if not any(getattr(h, "_edgerag_access", False) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        handler._edgerag_access = True  # type: ignore[attr-defined]
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


class AccessLog:
    """ASGI middleware: one `line` a request, once its response has ended."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.monotonic()
        record: dict[str, Any] = scope.setdefault(KEY, {})
        status = [500]

        async def watched_send(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        finally:
            log.info(line(scope["method"], scope["path"], status[0], time.monotonic() - t0, record.get("model"), record.get("tokens")))
