"""edgerag's own routes, for scripts: retrieval alone, the documents of an index (listed,
uploaded, deleted), the jobs that write them, the token ledger and stats, and ``/health``.

Retrieval does not wait behind the model: it runs on a request thread, taking turns with other
retrievals only (indexes.py), unless its method asks the model at query time (TERAG, LightRAG),
which then waits in the model's line like an answer.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from starlette.datastructures import UploadFile

from .. import methods as registry
from .chat import RequestError
from .errors import openai_body, openai_error
from .events import ClientGone, submit, wait_reply
from .indexes import Served, find
from .jobs import safe_name

router = APIRouter(prefix="/edgerag", tags=["edgerag"])
health_router = APIRouter(tags=["edgerag"])

COPY_CHUNK = 1 << 20
WAIT_MAX_S = 600.0


@health_router.get("/health", summary="200 once the model is loaded and the server answers; 503 while it loads")
async def health(request: Request):
    server = request.app.state.edgerag
    body = {
        "status": server.status,
        "indexes": {name: s.model_id for name, s in server.indexes.items()},
        "queue": server.queue.status(),
        "writing": server.jobs.busy(),
    }
    if server.error:
        body["error"] = server.error
    return JSONResponse(body, status_code=200 if server.status == "ok" else 503)


def _served(request: Request, name: str | None) -> Served:
    return find(request.app.state.edgerag.indexes, name)


@router.get("/indexes", summary="The served indexes")
async def indexes(request: Request):
    return {"indexes": [{"name": s.name, "model": s.model_id, **s.describe()} for s in request.app.state.edgerag.indexes.values()]}


@router.post("/retrieve", summary="The context a question retrieves (the JSON of `edgerag query --json`), no answer")
async def retrieve(request: Request):
    try:
        try:
            body = await request.json()
        except ValueError as e:
            raise RequestError(f"the body is not valid JSON ({e})") from None
        if not isinstance(body, dict):
            raise RequestError("the body must be a JSON object: {query, index, method, budget}")
        query = body.get("query") or body.get("question")
        if not isinstance(query, str) or not query.strip():
            raise RequestError("query: the question to retrieve for is missing", "query")
        method, budget = body.get("method"), body.get("budget")
        if method is not None and method not in registry.names():
            raise RequestError(f"method {method!r} is not a method; they are: {', '.join(registry.names())}", "method")
        if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 1):
            raise RequestError("budget must be a positive number of tokens", "budget")
        served = _served(request, body.get("index") or body.get("model"))
        rag = served.rag

        def run(*_):
            return rag.retrieve(query, method=method, budget=budget).to_dict()

        if registry.get(method or rag.settings.method).query_llm:  # asks the model: waits in its line
            sub = submit(request.app.state.edgerag.queue, run, f"retrieve {served.name}")
            return await wait_reply(request, sub)
        return await run_in_threadpool(run)
    except ClientGone:
        return JSONResponse(openai_body(499, "the client closed the connection"), status_code=499)
    except Exception as e:
        return openai_error(e)


@router.get("/indexes/{name}/documents", summary="The documents of an index (`edgerag docs --json`)")
async def documents(request: Request, name: str):
    try:
        served = _served(request, name)
        if not served.exists:
            return {"documents": []}
        return {"documents": await run_in_threadpool(served.rag.documents)}
    except Exception as e:
        return openai_error(e)


async def _wait(request: Request, job_id: str, wait: bool):
    jobs = request.app.state.edgerag.jobs
    if not wait:
        return JSONResponse(jobs.get(job_id), status_code=202)
    job = await run_in_threadpool(jobs.wait, job_id, WAIT_MAX_S)
    return JSONResponse(job, status_code=200 if job["state"] in ("done", "failed") else 202)


@router.post(
    "/indexes/{name}/documents",
    summary="Upload files (multipart, field `files`) to index in the background; 202 and the job, or with ?wait=true its outcome",
)
async def upload(request: Request, name: str, wait: bool = False):
    server = request.app.state.edgerag
    try:
        served = _served(request, name)
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            raise RequestError("send the files as multipart/form-data, each in a field named `files`", "files")
        try:
            form = await request.form(max_files=1000)
        except Exception as e:  # a malformed multipart body
            raise RequestError(f"the multipart body could not be read ({e})") from None
        uploads = [v for k, v in form.multi_items() if isinstance(v, UploadFile)]
        if not uploads:
            raise RequestError("no file: send one or more in multipart fields named `files`", "files")
        names = [safe_name(u.filename or "") for u in uploads]
        if len(set(names)) != len(names):
            raise RequestError(f"two files are named alike: {', '.join(sorted(n for n in names if names.count(n) > 1))}", "files")
        job, folder = server.jobs.new_upload(served.name)
        for u, fname in zip(uploads, names):
            target = (folder / fname).resolve()
            if target.parent != folder.resolve():  # safe_name makes this impossible; kept as the last word
                raise RequestError(f"the file name {u.filename!r} leaves the upload folder", "files")
            await run_in_threadpool(_copy, u, target)
            job.files.append(str(target))
            job.names.append(u.filename or fname)
        server.jobs.add(job)
        return await _wait(request, job.id, wait)
    except Exception as e:
        return openai_error(e)
    finally:
        if "form" in locals():
            await form.close()


def _copy(u: UploadFile, target: Path) -> None:
    u.file.seek(0)
    with open(target, "wb") as out:
        while chunk := u.file.read(COPY_CHUNK):
            out.write(chunk)


@router.delete("/indexes/{name}/documents/{doc_id:path}", summary="Delete a document and every trace of it (a job, as uploads)")
async def delete(request: Request, name: str, doc_id: str, wait: bool = False):
    try:
        served = _served(request, name)
        if not served.exists:
            raise LookupError(f"{served.name} holds no documents yet")
        job = request.app.state.edgerag.jobs.new_delete(served.name, [doc_id])
        return await _wait(request, job.id, wait)
    except Exception as e:
        return openai_error(e)


@router.get("/jobs", summary="Every upload and deletion job, oldest first")
async def jobs(request: Request, index: str | None = None):
    return {"jobs": request.app.state.edgerag.jobs.list(index)}


@router.get("/jobs/{job_id}", summary="A job: its state, progress and outcome")
async def job(request: Request, job_id: str, wait: bool = False):
    try:
        request.app.state.edgerag.jobs.get(job_id)
    except KeyError:
        return JSONResponse(openai_body(404, f"no job {job_id!r}"), status_code=404)
    return await _wait(request, job_id, wait) if wait else request.app.state.edgerag.jobs.get(job_id)


@router.get("/indexes/{name}/ledger", summary="The token ledger: every model call's tokens by stage and method")
async def ledger(request: Request, name: str):
    try:
        served = _served(request, name)
        return await run_in_threadpool(served.rag.ledger) if served.exists else {}
    except Exception as e:
        return openai_error(e)


@router.get("/indexes/{name}/stats", summary="What the index holds (`edgerag stats --json`)")
async def stats(request: Request, name: str):
    try:
        served = _served(request, name)
        if not served.exists:
            return {"index": str(served.path), "exists": False}
        return await run_in_threadpool(served.rag.stats)
    except Exception as e:
        return openai_error(e)
