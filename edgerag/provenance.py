"""Where a piece of text is in its file: page range (PDF) or section path (DOCX, HTML, EPUB).

Readers record `Mark`s (the offset where each page or section begins) on a `Document`;
indexing stores, on every chunk, sub-chunk and sentence record, the location of its
character range (`locate`): ``{"pages": [12, 13]}`` for a chunk that spans a page break,
``{"section": "Methods › Setup"}`` for one under that heading. Retrieval copies it onto each
`Unit` as ``provenance`` with the file and a readable ``label`` (`describe`), which
``query --json``, answer citations, the TUI and ``edgerag docs`` show:
``report.pdf p. 12–13``, ``notes.docx § Methods › Setup``; text recognised from an image
carries its OCR confidence (``"ocr": 0.93``) and says so (``scan.pdf p. 4 (OCR)``).

Sub-chunks and sentences carry their own, narrower location. A chunk or sub-chunk whose text
spans pages also carries ``page_starts`` (the page where each of its sentences starts), so a
citation names the page a short answer stands on (`label_at`: ``report.pdf p. 3``), not the
chunk's range; the evidence reader builds the same for the sentences it picks (answer/evidence.py).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import Any

from .types import Mark, Unit

SECTION_SEP = " › "


def locate(marks: Sequence[Mark], start: int, end: int) -> dict[str, Any]:
    """The location of text ``[start, end)`` of a document with these marks: the pages it
    touches (first and last) when the marks carry pages, else the section it starts in."""
    if not marks:
        return {}
    starts = [m.start for m in marks]
    first = max(bisect_right(starts, start) - 1, 0)
    last = max(bisect_right(starts, max(end - 1, start)) - 1, first)
    loc: dict[str, Any] = {}
    if marks[first].page:
        loc["pages"] = [marks[first].page, marks[last].page]
    elif marks[first].section:
        loc["section"] = marks[first].section
    read = [m.ocr for m in marks[first : last + 1] if m.ocr]
    if read:  # recognised from an image: the lowest confidence of the pages it touches
        loc["ocr"] = min(read)
    return loc


def describe(file: str, loc: dict[str, Any]) -> dict[str, Any]:
    """Provenance for a unit: the file, its location and the label people read."""
    name = PurePath(file).name if file else ""
    out: dict[str, Any] = {"file": file, **loc}
    label = name
    if loc.get("pages"):
        a, b = loc["pages"]
        label += f" p. {a}" if a == b else f" p. {a}–{b}"
    elif loc.get("section"):
        label += f" § {loc['section']}"
    if loc.get("ocr"):
        label += " (OCR)"
    out["label"] = label.strip()
    return out


def page_label(pages: Sequence[int] | None) -> str:
    """``p. 3`` or ``p. 3–7`` (empty when there are no pages)."""
    if not pages:
        return ""
    a, b = pages[0], pages[-1]
    return f"p. {a}" if a == b else f"p. {a}–{b}"


def attach(index, units: Iterable[Unit]) -> None:
    """Fill ``provenance`` on units that have none, from the stored records: a chunk,
    sub-chunk or sentence unit reads its own record, an entity or relation unit the chunk it
    came from. Costs two batched LMDB reads."""
    todo = [u for u in units if not u.provenance]
    if not todo:
        return
    sets = {"chunk": "chunks", "subchunk": "subchunks", "sentence": "sentences"}
    by_set: dict[str, list[str]] = {}
    for u in todo:
        table, rid = (sets[u.kind], u.id) if u.kind in sets else ("chunks", u.chunk_id)
        by_set.setdefault(table, []).append(rid)
    recs: dict[tuple[str, str], Any] = {}
    for table, ids in by_set.items():
        ids = list(dict.fromkeys(ids))
        recs.update(((table, i), r) for i, r in zip(ids, index.get_many(table, ids)))
    doc_ids = list({u.doc_id for u in todo})
    docs = dict(zip(doc_ids, index.get_many("docs", doc_ids)))
    spanning = [u for u in todo if u.kind in ("chunk", "subchunk") and _spans_pages(recs.get((sets[u.kind], u.id)))]
    starts = _page_starts(index, spanning, {u.id: recs[(sets[u.kind], u.id)] for u in spanning})
    for u in todo:
        table, rid = (sets[u.kind], u.id) if u.kind in sets else ("chunks", u.chunk_id)
        rec = recs.get((table, rid)) or {}
        doc = docs.get(u.doc_id) or {}
        file = (doc.get("source") or doc.get("path", "")).split("#part", 1)[0]  # as the user named it
        u.provenance = describe(file, rec.get("loc") or {})
        if u.id in starts:
            u.provenance["page_starts"] = starts[u.id]


def _spans_pages(rec) -> bool:
    pages = (rec or {}).get("loc", {}).get("pages")
    return bool(pages) and pages[0] != pages[-1]


def _page_starts(index, units: list[Unit], recs: dict[str, dict]) -> dict[str, list[list[int]]]:
    """For units whose text spans pages: ``[[offset in the unit's text, page], …]``, the page
    where each of its sentences starts (from the sentences' own records), so the page of any
    part of the text can be named (`page_at`)."""
    if not units:
        return {}
    chunk_ids = list(dict.fromkeys(u.chunk_id for u in units))
    sentence_ids = {c: (rec or {}).get("sentences", []) for c, rec in zip(chunk_ids, index.get_many("chunks", chunk_ids))}
    out = {}
    for u in units:
        rec = recs[u.id]
        lo, hi = rec.get("start", 0), rec.get("start", 0) + len(rec.get("text", ""))
        ids = sentence_ids.get(u.chunk_id, [])
        starts: list[list[int]] = []
        for s in index.get_many("sentences", ids):
            pages = (s or {}).get("loc", {}).get("pages")
            if not pages or not lo <= s.get("start", -1) < hi:
                continue
            if not starts or starts[-1][1] != pages[0]:
                starts.append([s["start"] - lo, pages[0]])
        if starts:
            starts[0][0] = 0
            out[u.id] = starts
    return out


def page_at(provenance: dict[str, Any], offset: int) -> int | None:
    """The page that character ``offset`` of a unit's text stands on (None without pages)."""
    starts = provenance.get("page_starts")
    if starts:
        i = bisect_right([s[0] for s in starts], offset) - 1
        return starts[max(i, 0)][1]
    pages = provenance.get("pages")
    return pages[0] if pages and pages[0] == pages[-1] else None


def label_at(provenance: dict[str, Any], text: str, needle: str | None) -> str:
    """The narrowest true label for ``needle`` in a unit's ``text``: the page it stands on
    (``report.pdf p. 3``) when the unit spans pages and the needle is found, else the unit's
    own label (``report.pdf p. 1–5``)."""
    label = provenance.get("label", "")
    if not needle or not provenance.get("pages"):
        return label
    at = text.lower().find(needle.lower())
    page = page_at(provenance, at) if at >= 0 else None
    if page is None:
        return label
    name = PurePath(provenance.get("file", "")).name
    return f"{name} p. {page}{' (OCR)' if provenance.get('ocr') else ''}".strip()
