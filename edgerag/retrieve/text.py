"""Text-RAG: the plain dense baseline every graph method must beat.

The query is embedded, hnswlib returns the nearest units (chunks, or sub-chunks with
``Settings.text_unit``) by cosine, and they fill the budget λ in that order (the Text-RAG
baseline of KET-RAG §6.1).
"""

from __future__ import annotations

from ..context import make_context
from ..embed import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context, Unit


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    unit_set = settings.text_unit
    qv = embedder.encode_one(query)
    vs = index.vectors[unit_set]
    total = len(vs)
    k = min(total, 64)
    while True:
        hits = vs.search(qv, k, ef=settings.hnsw_ef)
        units = _units(index, unit_set, hits)
        # Enough candidates when they overfill the budget, or when every unit was fetched.
        if sum(u.tokens for u in units) >= budget or k >= total:
            return make_context(query, "text", budget, units)
        k = min(total, k * 4)


def _units(index: Index, unit_set: str, hits: list[tuple[str, float]]) -> list[Unit]:
    kind = unit_set[:-1]
    recs = index.get_many(unit_set, [uid for uid, _ in hits])
    docs = {d: index.get("docs", d) for d in {r["doc_id"] for r in recs if r}}
    out = []
    for (uid, score), rec in zip(hits, recs):
        if rec is None:  # deleted since the vector cache was built
            continue
        doc = docs.get(rec["doc_id"]) or {}
        out.append(Unit(
            kind=kind, id=uid, text=rec["text"], tokens=rec["tokens"], score=score,
            doc_id=rec["doc_id"], chunk_id=rec.get("chunk_id", uid), title=doc.get("title", ""), source="text",
        ))  # fmt: skip
    return out
