"""Core chunks: the fraction of chunks that go through LLM extraction.

Three rules, one per paper variant:

* ``pagerank`` — KET-RAG §4.1: PageRank over the KNN graph (teleport α = 0.15, damping 0.85)
  ranks chunks by how central they are; the top ⌈β·n⌉ form the core. β = 1 is full KG-RAG.
* ``random`` — KET-RAG-U: the core drawn uniformly at random (seeded, so repeatable).
* ``concept`` — G2ConS §3.2: chunks ranked by the PageRank of the concepts they hold; the
  top ⌈κ·n⌉ (see `concept_graph.concept_core`).
"""

from __future__ import annotations

import math

import numpy as np

from ..settings import Settings
from ..store import Index
from .concept_graph import concept_core
from .knn import build_knn_graph, load_knn_graph
from .pagerank import pagerank

SELECTIONS = ("pagerank", "random", "concept")


def core_chunks(index: Index, fraction: float, selection: str = "pagerank", settings: Settings | None = None) -> list[str]:
    """Chunk ids of the core (β or κ of all chunks), most central first (random order for
    ``selection="random"``); K, damping, seed and the concept-graph knobs come from ``settings``."""
    s = settings or Settings()
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"the core fraction (β or κ) must be in [0, 1], got {fraction}")
    if selection == "concept":
        return concept_core(index, fraction, s)
    if selection not in SELECTIONS:
        raise ValueError(f"core selection must be one of {', '.join(SELECTIONS)}; got {selection!r}")
    build_knn_graph(index, k=s.knn_k)
    knn = load_knn_graph(index, s.knn_k)
    ids, adj = knn.chunk_ids, knn.adj
    n_core = math.ceil(fraction * len(ids))
    if selection == "pagerank":
        order = np.argsort(-pagerank(adj, damping=s.pagerank_damping), kind="stable")
    else:
        order = np.random.default_rng(s.seed).permutation(len(ids))
    return [ids[i] for i in order[:n_core]]
