"""Text-RAG: the plain dense baseline every graph method must beat.

The query is embedded, dense search (exact, or hnswlib past ``exact_search_max``) returns the nearest units (chunks, or sub-chunks with
``Settings.text_unit``) by cosine, and they fill the budget λ in that order (the Text-RAG
baseline of KET-RAG §6.1).
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context, Unit
from .units import load_units


def text_units(index: Index, qv: np.ndarray, budget: int, settings: Settings, source: str = "text") -> list[Unit]:
    """Units nearest the query vector, enough of them to overfill ``budget`` (or all)."""
    vs = index.vectors[settings.text_unit]
    total = len(vs)
    k = min(total, 64)
    while True:
        units = load_units(
            index, settings.text_unit, vs.search(qv, k, ef=settings.hnsw_ef, exact_max=settings.exact_search_max), source=source
        )
        if sum(u.tokens for u in units) >= budget or k >= total:
            return units
        k = min(total, k * 4)


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return make_context(query, "text", budget, text_units(index, embedder.encode_one(query), budget, settings))
