"""Hybrid-RAG (the KET-RAG paper's baseline): half the budget from Text-RAG, half from
KG local search on the full KG (β = 1)."""

from __future__ import annotations

from ..context import combine
from ..embed import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context
from . import text
from .skeleton import kg_stage, kg_units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    stage = kg_stage(index, "pagerank", 1.0, "hybrid")
    half = budget // 2
    dense = text.retrieve(index, embedder, query, budget, settings).units
    return combine(query, "hybrid", budget, [
        (kg_units(index, embedder, query, half, settings, stage, source="hybrid:kg"), half),
        (dense, budget - half),
    ])  # fmt: skip
