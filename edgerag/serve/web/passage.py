"""``GET /passage/{index_name}/{chunk_id}?mark=ANSWER``: a cited passage in its document, the
sentence that holds the answer marked, with the passages before and after it.

A minimal version, kept here until the fuller passage page (edgerag/serve/passage_page.py, the
same route) is merged: then this module goes and the page's links stay as they are.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from ...provenance import describe
from ...text.normalize import normalize
from ...text.sentences import sentence_spans
from .routes import error_page, render

router = APIRouter(include_in_schema=False)


def marked(text: str, mark: str) -> list[dict[str, Any]]:
    """``text`` as pieces ``{"text", "mark"}``: the sentences holding ``mark`` (compared as
    normalised text) are marked; none when the answer is not in it."""
    needle = normalize(mark) if mark else ""
    pieces, at = [], 0
    for s, e in sentence_spans(text):
        if s > at:
            pieces.append({"text": text[at:s], "mark": False})
        sentence = text[s:e]
        pieces.append({"text": sentence, "mark": bool(needle) and needle in normalize(sentence)})
        at = e
    if at < len(text):
        pieces.append({"text": text[at:], "mark": False})
    return pieces


def passage_of(index, chunk_id: str, mark: str) -> dict[str, Any] | None:
    rec = index.get("chunks", chunk_id)
    if not rec:
        return None
    doc = index.get("docs", rec["doc_id"]) or {}
    file = (doc.get("source") or doc.get("path", "")).split("#part", 1)[0]
    chunks = doc.get("chunks", [])
    at = chunks.index(chunk_id) if chunk_id in chunks else -1
    before = index.get("chunks", chunks[at - 1]) if at > 0 else None
    after = index.get("chunks", chunks[at + 1]) if 0 <= at < len(chunks) - 1 else None
    return {
        "chunk_id": chunk_id,
        "doc_id": rec["doc_id"],
        "title": doc.get("title") or rec["doc_id"],
        "where": describe(file, rec.get("loc") or {})["label"],
        "pieces": marked(rec["text"], mark),
        "held": any(p["mark"] for p in marked(rec["text"], mark)) if mark else None,
        "before": (before or {}).get("text", ""),
        "after": (after or {}).get("text", ""),
        "position": (at + 1, len(chunks)),
    }


@router.get("/passage/{index_name}/{chunk_id:path}", response_class=HTMLResponse)
async def passage(request: Request, index_name: str, chunk_id: str, mark: str = ""):
    served = request.app.state.edgerag.indexes.get(index_name)
    if served is None:
        return error_page(request, LookupError(f"no index {index_name!r} here"), "ask")
    found = await run_in_threadpool(passage_of, served.rag.index, chunk_id, mark[:500]) if served.exists else None
    if found is None:
        return error_page(request, LookupError(f"{index_name} holds no passage {chunk_id!r}"), "ask")
    return render(request, "passage.html", "ask", served, passage=found, mark=mark)
