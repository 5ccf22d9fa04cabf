"""KET-RAG's keyword channel (Alg. 4) over the keyword–text bipartite graph.

Seed keywords are taken by cosine to the query, best first, until the sub-chunks they link to
hold 2·B tokens (B = the channel's budget: (1−θ)·λ inside `ket`, λ for the `keyword` method);
those candidate sub-chunks are then ranked by cosine to the query and fill B.
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..graph.bipartite import load_keyword_graph
from ..settings import Settings
from ..store import Index
from ..types import Context, Unit
from .units import load_units


def keyword_units(index: Index, embedder: Embedder, query: str, budget: int, qv: np.ndarray | None = None) -> list[Unit]:
    """Ranked candidate sub-chunks for a budget of ``budget`` tokens (2·budget of candidates)."""
    g = load_keyword_graph(index)
    qv = embedder.encode_one(query) if qv is None else qv
    kw_scores = g.keyword_vectors @ qv
    bt = g.BT
    tokens = g.tokens
    chosen = np.zeros(bt.shape[1], dtype=bool)
    held = 0
    for kw in np.argsort(-kw_scores):
        subs = bt.indices[bt.indptr[kw] : bt.indptr[kw + 1]]
        new = subs[~chosen[subs]]
        chosen[new] = True
        held += int(tokens[new].sum())
        if held >= 2 * budget:
            break
    cand = np.flatnonzero(chosen)
    ids = [str(g.ids[i]) for i in cand]
    if not ids:
        return []
    sims = index.vectors["subchunks"].get(ids) @ qv
    order = np.argsort(-sims)
    return load_units(index, "subchunks", [(ids[i], sims[i]) for i in order], source="keyword")


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return make_context(query, "keyword", budget, keyword_units(index, embedder, query, budget))
