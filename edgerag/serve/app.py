"""The server put together: `create_app` makes the ASGI app (FastAPI) over a `ServeConfig`, and
`run` serves it with uvicorn.

Why FastAPI and uvicorn: the OpenAPI page and request validation come with FastAPI, server-sent
events and streaming bodies with Starlette under it, and uvicorn is the server both are made
for; all three are permissively licensed (MIT, BSD-3) and widely kept. fastapi-offline serves
the OpenAPI page's scripts from the package itself, since the users' machines reach no CDN.

On start the model's thread loads what answers need (indexes.py `warm`); ``/health`` says 503
``loading`` until then, and questions wait in the model's line meanwhile.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from . import access_log
from .config import ServeConfig
from .guard import OLLAMA_PREFIX, Guard
from .indexes import Served, open_indexes, warm
from .jobs import Jobs
from .model_queue import ModelQueue

log = logging.getLogger("edgerag.serve")


@dataclass
class Server:
    """What the routes reach through ``request.app.state.edgerag``."""

    config: ServeConfig
    indexes: dict[str, Served]
    queue: ModelQueue
    jobs: Jobs
    status: str = "loading"
    error: str = ""
    notes: list[str] = field(default_factory=list)


def create_app(config: ServeConfig):
    from fastapi import FastAPI
    from fastapi.exception_handlers import http_exception_handler
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from starlette.exceptions import HTTPException as StarletteHTTPException

    from .. import __version__
    from . import ollama_routes, openai_routes, own_routes, passage_page, web
    from .errors import openai_body

    try:
        from fastapi_offline import FastAPIOffline

        make_app = FastAPIOffline
    except ImportError:  # the OpenAPI page then needs a CDN; /openapi.json works either way
        make_app = FastAPI

    indexes = open_indexes(config.indexes, config.settings)
    server = Server(
        config=config,
        indexes=indexes,
        queue=ModelQueue(config.queue),
        jobs=Jobs(config.uploads, {n: s.path for n, s in indexes.items()}, config.settings),
    )
    server.queue.on_busy = server.jobs.model_busy  # an upload's indexing pauses while the model runs (issue #57)

    def warm_up(_ticket):
        try:
            warm(indexes)
            server.status = "ok"
        except Exception as e:
            server.status, server.error = "failed", f"{type(e).__name__}: {e}"
            log.error("edgerag: the server could not load what it answers with: %s", server.error)
            raise

    @asynccontextmanager
    async def lifespan(app):
        server.queue.submit(warm_up, "loading the models", timed=False)
        if server.jobs.resumed:
            log.warning("edgerag: resuming %d unfinished job(s): %s", len(server.jobs.resumed), ", ".join(server.jobs.resumed))
        yield
        server.jobs.close()
        server.queue.close()

    app = make_app(
        title="edgerag",
        version=__version__,
        description="Offline Graph-RAG over local indexes: OpenAI- and Ollama-compatible chat with checked citations, "
        "retrieval, documents and jobs. See docs/serve.md.",
        lifespan=lifespan,
    )
    app.state.edgerag = server

    def error(request, status: int, message: str, headers=None):
        """An error in the shape its route's clients read: Ollama's on ``/api/*``, else OpenAI's."""
        body = {"error": message} if request.url.path.startswith(OLLAMA_PREFIX) else openai_body(status, message)
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return error(request, 400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc: StarletteHTTPException):
        if request.url.path.startswith(OLLAMA_PREFIX):
            return error(request, exc.status_code, str(exc.detail), getattr(exc, "headers", None))
        return await http_exception_handler(request, exc)

    @app.exception_handler(Exception)
    async def crashed(request, exc: Exception):
        log.exception("unexpected error in %s", request.url.path, exc_info=exc)
        return error(request, 500, f"internal error ({type(exc).__name__}); the server log has the details")

    app.include_router(own_routes.health_router)
    app.include_router(openai_routes.router)
    app.include_router(ollama_routes.router)
    app.include_router(own_routes.router)
    app.include_router(passage_page.router)
    app.add_middleware(Guard, api_key=config.api_key, max_body_bytes=config.max_body_bytes, max_upload_bytes=config.max_upload_bytes)
    web.mount(app)  # the page at / (serve/web/): after the Guard, so that its login is checked first
    if config.access_log:  # outermost: the Guard's 401 and 413 are logged too
        access_log.enable()
        app.add_middleware(access_log.AccessLog)
    return app


def run(config: ServeConfig) -> None:
    """Serve until Ctrl-C or SIGTERM."""
    import uvicorn

    app = create_app(config)
    base = config.url
    names = ", ".join(s.model_id for s in app.state.edgerag.indexes.values())
    print(
        f"edgerag: serving {names} on {base}\n"
        f"  OpenAI base URL  {base}/v1        Ollama base URL  {base}\n"
        f"  web page {base}/   health {base}/health   routes {base}/docs" + ("   (API key required)" if config.api_key else ""),
        flush=True,
    )
    uvicorn.run(app, host=config.host, port=config.port, log_level="info", timeout_graceful_shutdown=5, access_log=False)
