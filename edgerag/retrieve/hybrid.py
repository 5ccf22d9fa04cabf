"""Hybrid-RAG (the KET-RAG paper's baseline): half the budget from Text-RAG, half from
KG local search on the full KG (β = 1)."""

from __future__ import annotations

from ..context import combine
from ..embed.embedder import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context
from . import text
from .kg_search import kg_stage, kg_units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    stage = kg_stage(index, "pagerank", 1.0, "hybrid")
    qv = embedder.encode_one(query)
    half = budget // 2
    return combine(
        query,
        "hybrid",
        budget,
        [
            (kg_units(index, embedder, query, half, settings, stage, qv=qv, source="hybrid:kg"), half),
            (text.text_units(index, qv, budget, settings), budget - half),  # a full budget: the KG half may take some of them
        ],
    )
