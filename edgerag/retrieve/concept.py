"""G2ConS concept retrieval (§3.3): LLM-free, over the concept graph.

1. **Directly associated concepts**: the top-k concepts by cosine to the query. Their chunks
   come first, concept by concept in that order, each concept's chunks reranked by cosine to
   the query (local rerank).
2. **Expanded concepts**: BFS from those k concepts over the concept graph, up to N hops.
   Every chunk of the concepts reached is pooled and the pool is reranked against the query
   (global rerank).
3. Chunks fill the budget in that order; the walk stops as soon as the candidates hold the
   budget, so the BFS runs only when the direct concepts are not enough.

Ablation ``concept_rerank="naive"``: the chunks of direct and expanded concepts in one pool,
one rerank. Each unit's ``meta`` says which concept brought it and by which path.
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..graph.concept_graph import ConceptGraph, load_concept_graph
from ..settings import Settings
from ..store import Index
from ..types import Context, Unit
from .units import load_units


def concept_units(index: Index, settings: Settings, qv: np.ndarray, budget: int, source: str = "concept") -> list[Unit]:
    """Ranked chunks of the concept path, enough to fill ``budget`` when the graph allows."""
    g = load_concept_graph(index, settings)
    tt, tokens, adj = g.TT, g.tokens, g.adj
    sims = g.vectors @ qv
    sims[g.df == 0] = -np.inf  # words that are no chunk's concept (concepts_per_chunk)
    k = min(settings.concept_top_k, int(np.isfinite(sims).sum()))
    if k == 0:
        return []
    direct = np.argsort(-sims)[:k]
    chunk_cos = g.chunk_vectors(index) @ qv

    def chunks_of(concepts: np.ndarray) -> np.ndarray:
        return np.unique(tt[concepts].indices)

    ranked: list[tuple[int, str, str]] = []  # (chunk row, concept, path)
    taken = np.zeros(len(tokens), dtype=bool)
    held = 0
    if settings.concept_rerank == "local-global":
        for c in direct:
            rows = chunks_of(np.asarray([c]))
            rows = rows[~taken[rows]]
            for r in rows[np.argsort(-chunk_cos[rows], kind="stable")]:
                ranked.append((int(r), str(g.vocab[c]), "direct"))
            taken[rows] = True
            held += int(tokens[rows].sum())
            if held >= budget:
                return _units(index, g, ranked, chunk_cos, budget, source)
    seen = np.zeros(adj.shape[0], dtype=bool)
    seen[direct] = True
    frontier = direct
    for _ in range(settings.concept_hops):
        if not len(frontier):
            break
        nxt = np.unique(adj[frontier].indices)
        frontier = nxt[~seen[nxt]]
        seen[frontier] = True
    pool_concepts = np.flatnonzero(seen) if settings.concept_rerank == "naive" else np.setdiff1d(np.flatnonzero(seen), direct)
    if len(pool_concepts):
        rows = chunks_of(pool_concepts)
        rows = rows[~taken[rows]]
        path = "pooled" if settings.concept_rerank == "naive" else "expanded"
        ranked.extend((int(r), "", path) for r in rows[np.argsort(-chunk_cos[rows], kind="stable")])
    return _units(index, g, ranked, chunk_cos, budget, source)


def _units(
    index: Index, g: ConceptGraph, ranked: list[tuple[int, str, str]], chunk_cos: np.ndarray, budget: int, source: str
) -> list[Unit]:
    """Units for the ranked rows, read only as far as they can matter: until they hold twice
    the budget (room for the ones `fill_budget` skips as too big for what is left)."""
    held = np.cumsum([g.tokens[r] for r, _, _ in ranked])
    ranked = ranked[: int(np.searchsorted(held, 2 * budget)) + 1]
    units = load_units(index, "chunks", [(str(g.ids[r]), float(chunk_cos[r])) for r, _, _ in ranked], source=source)
    why = {str(g.ids[r]): (concept, path) for r, concept, path in ranked}
    for u in units:
        concept, path = why[u.id]
        u.meta.update(path=path, **({"concept": concept} if concept else {}))
    return units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return make_context(query, "concept", budget, concept_units(index, settings, embedder.encode_one(query), budget))
