"""What goes wrong in a request, as a status and a message a person can act on, in the shape each
dialect's clients read: OpenAI's ``{"error": {"message", "type", "param", "code"}}`` (also
edgerag's own routes), Ollama's ``{"error": "message"}``. Never a traceback."""

from __future__ import annotations

import logging

from fastapi.responses import JSONResponse
from starlette.requests import ClientDisconnect

from ..llm.local import PromptTooLongError
from ..llm.models import ModelError
from ..store import IndexLockedError, IndexReadOnlyError, IndexUnusableError
from .chat import RequestError
from .model_queue import QueueFull

log = logging.getLogger("edgerag.serve")


def classify(e: BaseException) -> tuple[int, str, str | None, dict[str, str]]:
    """(status, message, param, headers) for an exception a route let through."""
    if isinstance(e, RequestError):
        return e.status, str(e), e.param, {}
    if isinstance(e, ClientDisconnect):  # gone before its body was read (or cut at the size limit, guard.py)
        return 499, "the client closed the connection", None, {}
    if isinstance(e, QueueFull):
        return 503, str(e), None, {"Retry-After": str(e.retry_after)}
    if isinstance(e, LookupError):
        return 404, str(e.args[0] if e.args else e), "model", {}
    if isinstance(e, (IndexLockedError, IndexReadOnlyError)):
        return 409, str(e), None, {}
    if isinstance(e, IndexUnusableError):
        msg = str(e)
        if "no edgerag index" in msg:
            msg += " (or upload documents: POST /edgerag/indexes/NAME/documents)"
        return 409, msg, None, {}
    if isinstance(e, PromptTooLongError):
        return 400, str(e), "messages", {}
    if isinstance(e, ModelError):
        return 500, f"the model failed: {e}", None, {}
    if isinstance(e, ValueError):
        return 400, str(e), None, {}
    log.exception("unexpected error", exc_info=e)
    return 500, f"internal error ({type(e).__name__}: {e}); the server log has the details", None, {}


def error_type(status: int) -> str:
    return {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error", 413: "invalid_request_error"}.get(
        status, "server_error" if status >= 500 else "invalid_request_error"
    )


def openai_body(status: int, message: str, param: str | None = None) -> dict:
    return {"error": {"message": message, "type": error_type(status), "param": param, "code": status}}


def openai_error(e: BaseException) -> JSONResponse:
    status, message, param, headers = classify(e)
    return JSONResponse(openai_body(status, message, param), status_code=status, headers=headers)


def ollama_error(e: BaseException) -> JSONResponse:
    status, message, _, headers = classify(e)
    return JSONResponse({"error": message}, status_code=status, headers=headers)
