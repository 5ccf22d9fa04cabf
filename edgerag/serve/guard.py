"""What every request passes first (`Guard`, an ASGI middleware): the API key, and the size of
its body.

* With a key set, every route but ``/health`` needs ``Authorization: Bearer KEY`` (compared in
  constant time): the OpenAI and Ollama routes, the documents, the OpenAPI page. 401 otherwise.
  A passage page and its file (passage_page.py) open without it for a link signed for exactly
  that passage and mark.
* On Ollama's routes (``/api/*``) both come in Ollama's error shape, ``{"error": "…"}``.
* A body larger than its limit gets 413, whether it says its length or streams it in chunks:
  an upload (``POST …/documents``) up to ``max_upload_bytes``, anything else up to
  ``max_body_bytes``. The body is counted as it arrives; nothing past the limit is read.
"""

from __future__ import annotations

import hmac
import json

from .passage_page import signed

OPEN_PATHS = ("/health",)
OLLAMA_PREFIX = "/api/"
"""Ollama's routes: their errors come as ``{"error": "…"}``, the shape Ollama's clients read."""


def _is_upload(scope) -> bool:
    return scope["method"] == "POST" and scope["path"].rstrip("/").endswith("/documents")


async def _send_json(send, status: int, body: dict, headers: list[tuple[bytes, bytes]] = ()) -> None:
    raw = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": raw})


def _error(status: int, message: str, path: str = "") -> dict:
    if path.startswith(OLLAMA_PREFIX):
        return {"error": message}
    kind = "authentication_error" if status == 401 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": status}}


class Guard:
    def __init__(self, app, *, api_key: str | None, max_body_bytes: int, max_upload_bytes: int) -> None:
        self.app = app
        self.key = api_key.encode() if api_key else None
        self.max_body = max_body_bytes
        self.max_upload = max_upload_bytes

    def authorized(self, scope) -> bool:
        if self.key is None or scope["path"] in OPEN_PATHS:
            return True
        if signed(self.key.decode(), scope["path"], scope.get("query_string", b"")):  # a passage link, for a browser
            return True
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"")
        scheme, _, token = auth.partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(token.strip(), self.key)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if not self.authorized(scope):
            return await _send_json(
                send,
                401,
                _error(401, "this server needs its API key: send `Authorization: Bearer KEY`", scope["path"]),
                [(b"www-authenticate", b"Bearer")],
            )
        limit = self.max_upload if _is_upload(scope) else self.max_body
        what = "an upload" if _is_upload(scope) else "a request body"
        too_large = _error(
            413,
            f"{what} may be at most {limit:,} bytes here (the server's --max-{'upload' if _is_upload(scope) else 'body'}-mb)",
            scope["path"],
        )
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            return await _send_json(send, 413, too_large)
        seen = 0
        over = False
        started = False

        async def counted_receive():
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            nonlocal started
            if over and not started:
                started = True
                if message["type"] == "http.response.start":
                    await _send_json(send, 413, too_large)
                return
            if over:
                return
            started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if over and not started:
                await _send_json(send, 413, too_large)
                return
            raise
        if over and not started:
            await _send_json(send, 413, too_large)
