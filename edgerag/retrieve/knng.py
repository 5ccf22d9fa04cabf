"""KNNG-RAG (the KET-RAG paper's baseline over the KNN chunk graph).

Seeds are the chunks nearest the query by cosine; each seed is followed by its KNN-graph
neighbours not yet taken, scored by their own cosine to the query, until λ is filled.
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..graph.knn import build_knn_graph, load_knn_graph
from ..settings import Settings
from ..store import Index
from ..types import Context
from .units import load_units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    build_knn_graph(index, k=settings.knn_k)
    knn = load_knn_graph(index, settings.knn_k)
    ids, adj, tokens = knn.chunk_ids, knn.adj, knn.tokens
    pos = {cid: i for i, cid in enumerate(ids)}
    qv = embedder.encode_one(query)
    seeds = index.vectors["chunks"].search(qv, min(len(ids), 64), ef=settings.hnsw_ef, exact_max=settings.exact_search_max)
    order: list[int] = []
    taken: set[int] = set()
    held = 0
    for cid, _ in seeds:
        i = pos.get(cid)
        if i is None:
            continue
        for j in [i, *adj.indices[adj.indptr[i] : adj.indptr[i + 1]]]:
            if j not in taken:
                taken.add(j)
                order.append(int(j))
                held += int(tokens[j])
        if held >= budget:
            break
    chosen = [ids[j] for j in order]
    sims = index.vectors["chunks"].get(chosen) @ qv if chosen else np.zeros(0)
    return make_context(query, "knng", budget, load_units(index, "chunks", list(zip(chosen, sims)), source="knng"))
