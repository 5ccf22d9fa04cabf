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
from ..types import Context
from .units import load_units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    unit_set = settings.text_unit
    qv = embedder.encode_one(query)
    vs = index.vectors[unit_set]
    total = len(vs)
    k = min(total, 64)
    while True:
        hits = vs.search(qv, k, ef=settings.hnsw_ef)
        units = load_units(index, unit_set, hits, source="text")
        # Enough candidates when they overfill the budget, or when every unit was fetched.
        if sum(u.tokens for u in units) >= budget or k >= total:
            return make_context(query, "text", budget, units)
        k = min(total, k * 4)
