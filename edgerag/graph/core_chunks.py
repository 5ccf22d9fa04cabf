"""Core chunks: the budget β of chunks that go through LLM extraction (KET-RAG §4.1).

PageRank over the KNN graph (teleport α = 0.15, damping 0.85) ranks chunks by how central
they are; the top ⌈β·n⌉ form the core. The paper's KET-RAG-U variant draws the core uniformly
at random instead (seeded here, so it is repeatable). β = 1 is full KG-RAG.
"""

from __future__ import annotations

import math

import numpy as np

from ..store import Index
from .knn import build_knn_graph, load_knn_graph
from .pagerank import pagerank


def core_chunks(index: Index, beta: float, selection: str = "pagerank", k: int = 2, damping: float = 0.85, seed: int = 0) -> list[str]:
    """Chunk ids of the core, most central first (random order for ``selection="random"``)."""
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta (β) must be in [0, 1], got {beta}")
    build_knn_graph(index, k=k)
    ids, adj, _ = load_knn_graph(index, k)
    n_core = math.ceil(beta * len(ids))
    if selection == "pagerank":
        order = np.argsort(-pagerank(adj, damping=damping), kind="stable")
    elif selection == "random":
        order = np.random.default_rng(seed).permutation(len(ids))
    else:
        raise ValueError(f"core selection must be 'pagerank' or 'random', got {selection!r}")
    return [ids[i] for i in order[:n_core]]
