"""KET-RAG (§4.2): θ·λ from KG local search on the skeleton, (1−θ)·λ from the keyword channel.

`ket` uses the PageRank core (β of the chunks, ranked over the KNN graph); `ket-u` the
uniformly random core of the same size (the paper's KET-RAG-U).
"""

from __future__ import annotations

from ..context import combine
from ..embed.embedder import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context
from .keyword import keyword_units
from .kg_search import kg_stage, kg_units


def _ket(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, selection: str, method: str) -> Context:
    stage = kg_stage(index, selection, settings.beta, method)
    qv = embedder.encode_one(query)
    kg_budget = int(settings.theta * budget)
    kw_budget = budget - kg_budget
    return combine(
        query,
        method,
        budget,
        [
            (kg_units(index, embedder, query, kg_budget, settings, stage, qv=qv, source="ket:kg"), kg_budget),
            (keyword_units(index, embedder, query, kw_budget, qv=qv), kw_budget),
        ],
    )


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return _ket(index, embedder, query, budget, settings, settings.core_selection, "ket")


def retrieve_uniform(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return _ket(index, embedder, query, budget, settings, "random", "ket-u")
