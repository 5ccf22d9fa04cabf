"""A cited passage as a page a browser opens: ``GET /passage/{index_name}/{chunk_id}`` (optional
``mark=``, the text to highlight, and ``sig=``), and its original file,
``GET /passage/{index_name}/{chunk_id}/file`` (a PDF link ends with ``#page=N``).

Chat clients show a citation as a link: Open WebUI turns each OpenAI ``annotations`` entry
(``url_citation``) into a source chip. edgerag's answers carry one for each checked citation
(`annotations`; every citation's ``url``: `link`), pointing here: the passage's text with the answer marked (``<mark>``), its
document's title, its page or section, and a link to the file when the index knows its path.
The page is self-contained (no outside URL, no script; its Content-Security-Policy allows none)
and everything in it is escaped.

With an API key set, a browser has no key to send: the link carries ``sig``, an HMAC-SHA256 with
the server's key over the index, the chunk id and the mark (`sign`). The guard (guard.py) lets
a request through without the key only for these two routes and only with the right signature
for exactly that passage and mark; nothing else becomes readable without the key.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import mimetypes
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse

from ..provenance import describe
from .indexes import find

PREFIX = "/passage/"
router = APIRouter(tags=["edgerag"])
SIG_CHARS = 32
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
MAX_MARK = 300


# ---- signed links ---------------------------------------------------------------------------------
def sign(key: str, index: str, chunk_id: str, mark: str = "") -> str:
    """The signature that opens this passage (and its file) with this mark, without the key."""
    msg = "\n".join(("edgerag passage link", index, chunk_id, mark)).encode()
    return hmac.new(key.encode(), msg, hashlib.sha256).hexdigest()[:SIG_CHARS]


def parse(path: str) -> tuple[str, str, bool] | None:
    """``(index, chunk id, file?)`` of a passage route's path, or None for any other path."""
    if not path.startswith(PREFIX):
        return None
    index, _, chunk = path[len(PREFIX) :].partition("/")
    is_file = chunk.endswith("/file")
    chunk = chunk[: -len("/file")] if is_file else chunk
    return (index, chunk, is_file) if index and chunk else None


def signed(key: str, path: str, query_string: bytes | str) -> bool:
    """Whether a request is for a passage route and carries the right signature for it."""
    where = parse(path)
    if where is None:
        return False
    qs = parse_qs(query_string.decode("latin-1") if isinstance(query_string, bytes) else query_string)
    sig = (qs.get("sig") or [""])[0]
    mark = (qs.get("mark") or [""])[0]
    return bool(sig) and hmac.compare_digest(sig, sign(key, where[0], where[1], mark))


def passage_url(base: str, index: str, chunk_id: str, mark: str = "", key: str | None = None, file: bool = False) -> str:
    """The link to a passage's page (``file``: to its original file), signed when there is a key."""
    query: dict[str, str] = {}
    if mark:
        query["mark"] = mark
    if key:
        query["sig"] = sign(key, index, chunk_id, mark)
    path = f"{PREFIX}{quote(index, safe='')}/{quote(chunk_id, safe='')}" + ("/file" if file else "")
    return base.rstrip("/") + path + (f"?{urlencode(query)}" if query else "")


def link(citations: list[dict[str, Any]], base: str, index: str, key: str | None, short: str) -> list[dict[str, Any]]:
    """The citations, each with the ``url`` of its passage page: the short answer marked where
    the passage holds it, signed when the server has a key."""
    out = []
    for c in citations:
        mark = short if short and short.lower() in (c.get("text") or "").lower() else ""
        out.append({**c, "url": passage_url(base, index, c["chunk_id"], mark[:MAX_MARK], key)})
    return out


def linked(request: Request, served, reply) -> list[dict[str, Any]]:
    """A reply's citations (answering.py `Reply`), each with its passage page's ``url``, for this
    server's address as the client reached it."""
    if not reply.citations:
        return []
    key = request.app.state.edgerag.config.api_key
    return link(reply.citations, str(request.base_url), served.name, key, reply.info.get("short") or "")


def annotations(citations: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """OpenAI ``url_citation`` annotations for the checked citations (linked by `link`): each
    spans the line of ``text`` that names it (``[n] Title — where``)."""
    out = []
    for c in citations:
        if c.get("how") == "unverified" or not c.get("url"):
            continue
        start = text.find(f"\n[{c['n']}] ")
        start = start + 1 if start >= 0 else max(text.find(f"[{c['n']}]"), 0)
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        title = c.get("title") or c.get("doc_id") or ""
        if c.get("where") and c["where"] != title:
            title = f"{title} — {c['where']}"
        out.append({"type": "url_citation", "url_citation": {"url": c["url"], "title": title, "start_index": start, "end_index": end}})
    return out


# ---- the page -----------------------------------------------------------------------------------
def marked(text: str, mark: str) -> str:
    """``text`` escaped, each occurrence of ``mark`` (any case) inside ``<mark>``."""
    if not mark.strip():
        return html.escape(text)
    parts = re.split(f"({re.escape(mark.strip())})", text, flags=re.IGNORECASE)
    return "".join(f"<mark>{html.escape(p)}</mark>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


def _passage(served, chunk_id: str) -> dict[str, Any] | None:
    if not served.exists:
        return None
    index = served.rag.index
    rec = index.get("chunks", chunk_id)
    if rec is None:
        return None
    doc = index.get("docs", rec["doc_id"]) or {}
    path = doc.get("path") or ""
    prov = describe(path or doc.get("source", ""), rec.get("loc", {}))
    return {"text": rec["text"], "doc_id": rec["doc_id"], "title": doc.get("title") or rec["doc_id"], "heading": rec.get("heading", ""),
            "where": prov.get("label", ""), "path": path, "pages": prov.get("pages"), "section": prov.get("section", "")}  # fmt: skip


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<style>body{{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}}
h1{{font-size:1.3rem;margin-bottom:.2rem}} .where{{color:#555;margin-top:0}} blockquote{{white-space:pre-wrap;border-left:4px solid #ccc;
margin:1rem 0;padding:.2rem 1rem}} mark{{background:#ffe066;padding:0 .1em}} footer{{color:#777;font-size:.85rem;margin-top:2rem}}</style>
</head><body>
<h1>{title}</h1>
<p class="where">{where}</p>
<blockquote>{text}</blockquote>
{file}
<footer>{index} · passage {chunk}</footer>
</body></html>
"""


def _page(status: int, title: str, body: str = "", **parts: str) -> HTMLResponse:
    values = {"title": html.escape(title), "where": "", "text": html.escape(body), "file": "", "index": "", "chunk": "", **parts}
    return HTMLResponse(PAGE.format(**values), status_code=status, headers={"Content-Security-Policy": CSP})


def _pdf_page(p: dict[str, Any]) -> str:
    return f"#page={p['pages'][0]}" if p["path"].lower().endswith(".pdf") and p.get("pages") else ""


@router.get(PREFIX + "{index_name}/{chunk_id:path}/file", summary="A cited passage's original file (signed link or key)")
async def passage_file(request: Request, index_name: str, chunk_id: str):
    try:
        served = find(request.app.state.edgerag.indexes, index_name)
    except LookupError:
        return _page(404, "No such index", f"There is no index {index_name!r} here.")
    p = await run_in_threadpool(_passage, served, chunk_id)
    if p is None or not p["path"] or not Path(p["path"]).is_file():
        return _page(404, "No file", "The index knows no file for this passage, or the file is no longer where it was indexed from.")
    kind = mimetypes.guess_type(p["path"])[0] or "application/octet-stream"
    return FileResponse(p["path"], media_type=kind, filename=Path(p["path"]).name, content_disposition_type="inline")


@router.get(PREFIX + "{index_name}/{chunk_id:path}", summary="A cited passage as a page: its text, the answer marked, its document")
async def passage(request: Request, index_name: str, chunk_id: str, mark: str = "", sig: str = ""):
    try:
        served = find(request.app.state.edgerag.indexes, index_name)
    except LookupError:
        return _page(404, "No such index", f"There is no index {index_name!r} here.")
    p = await run_in_threadpool(_passage, served, chunk_id)
    if p is None:
        return _page(404, "No such passage", f"The index {served.name} holds no passage {chunk_id!r} (any more).")
    file_link = ""
    if p["path"] and Path(p["path"]).is_file():
        key = request.app.state.edgerag.config.api_key
        href = passage_url("", served.name, chunk_id, mark, key, file=True) + _pdf_page(p)
        name = Path(p["path"]).name
        file_link = (
            f'<p><a href="{html.escape(href)}">Open {html.escape(name)}'
            + (f" at page {p['pages'][0]}" if _pdf_page(p) else "")
            + "</a></p>"
        )
    where = " · ".join(x for x in (p["where"], p["heading"] if p["heading"] != p["title"] else "") if x)
    return _page(
        200,
        p["title"],
        where=html.escape(where),
        text=marked(p["text"], mark[:MAX_MARK]),
        file=file_link,
        index=html.escape(served.model_id),
        chunk=html.escape(chunk_id),
    )
