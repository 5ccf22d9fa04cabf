"""Turning scored ids into `Unit`s: one place that reads unit records for every retriever."""

from __future__ import annotations

from ..store import Index
from ..types import Unit


def load_units(index: Index, unit_set: str, scored: list[tuple[str, float]], source: str) -> list[Unit]:
    """Units of ``unit_set`` (chunks, subchunks, …) for ``(id, score)`` pairs, in that order;
    ids no longer in the index are skipped."""
    kind = unit_set[:-1]
    recs = index.get_many(unit_set, [uid for uid, _ in scored])
    docs = {d: index.get("docs", d) for d in {r["doc_id"] for r in recs if r}}
    headings = {}  # a unit's title: its chunk's heading (text/chunking.chunk_heading), else its document's title
    if kind == "chunk":
        headings = {uid: r.get("heading") for (uid, _), r in zip(scored, recs) if r}
    else:
        cids = list({r["chunk_id"] for r in recs if r and r.get("chunk_id")})
        headings = {c: (r or {}).get("heading") for c, r in zip(cids, index.get_many("chunks", cids))}
    out = []
    for (uid, score), rec in zip(scored, recs):
        if rec is None:
            continue
        doc = docs.get(rec["doc_id"]) or {}
        out.append(
            Unit(
                kind=kind,
                id=uid,
                text=rec["text"],
                tokens=rec["tokens"],
                score=float(score),
                doc_id=rec["doc_id"],
                chunk_id=rec.get("chunk_id", uid),
                title=headings.get(rec.get("chunk_id", uid)) or doc.get("title", ""),
                source=source,
            )
        )
    return out
