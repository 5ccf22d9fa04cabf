"""Entity bridges: edgerag's own multi-hop retrievers, LLM-free (issue #7; no paper).

In a multi-hop question the passage holding the answer often shares nothing with the
question but an entity it shares with *another* passage — the bridge. Dense retrieval finds
the first hop; these find the second through the link keys of graph/links.py.

* ``bridge`` — seeds are the ``bridge_seeds`` passages nearest the query. Every passage that
  shares a live key with a seed gets a bonus  λ_b · cos(seed) · min(Σ IDF of shared keys, cap),
  summed over seeds; the final score is cosine + bonus. Each passage lifted by a bridge says
  which seed and which keys lifted it (``unit.meta["bridge"]``).
* ``bridge-ppr`` — Personalized PageRank over the passage–key bipartite graph (IDF-weighted
  edges both ways), restarting at the ``bridge_ppr_seeds`` top passages with weights
  exp(cos / T) (``bridge_ppr_temperature``); passages ranked by their PPR mass.
* ``bridge_fusion`` (setting): ``none``, or reciprocal-rank fusion of the bridge ranking with
  dense (``dense``) or with dense and BM25 (``dense+bm25``), each list weighted
  (``bridge_dense_weight``, ``bridge_bm25_weight``; the bridge list weighs 1) at RRF
  constant ``bridge_rrf_k``.
* ``bridge_dedup`` (τ_dup): in either, a passage whose cosine to one ranked above it is ≥ τ_dup
  is dropped as a near-duplicate before the budget is filled.

Everything is sparse-matrix work over arrays loaded once per process: a query costs one
matrix–vector product for the cosines, one small sparse product for the links, and (for PPR)
a few dozen sparse matrix–vector products.
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed import Embedder
from ..graph.links import LinkGraph, load_links
from ..graph.pagerank import pagerank
from ..settings import Settings
from ..store import Index
from ..text.keywords import keywords
from ..types import Context, Unit
from .units import load_units

RRF_K = 60


def bridge_scores(g: LinkGraph, qv: np.ndarray, settings: Settings) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(final score, cosine, bonus, seeds) for every passage in stage order."""
    cos = g.vectors @ qv
    n = len(cos)
    s = min(settings.bridge_seeds, n)
    seeds = np.argsort(-cos)[:s]
    k, has_key = g.keys_of(settings.link_kinds)
    strength = (k[seeds] @ has_key).toarray()  # s × n: Σ IDF of shared keys
    strength[np.arange(s), seeds] = 0.0
    np.minimum(strength, settings.bridge_link_cap, out=strength)
    contrib = np.clip(cos[seeds], 0.0, None)[:, None] * strength
    bonus = settings.bridge_lambda * contrib.sum(axis=0)
    return cos + bonus, cos, bonus, seeds


def ppr_scores(g: LinkGraph, query: str, qv: np.ndarray, settings: Settings) -> np.ndarray:
    """PPR mass of every passage, restarting at m seed passages (bridge-ppr).

    Seeds are the top m of the dense ranking (or of dense ⊕ BM25, ``bridge_ppr_seed_ranking``);
    a seed's restart weight is exp(cos / T), a softmax at temperature T
    (``bridge_ppr_temperature``; T = 0 weighs by cosine itself).
    """
    cos = g.vectors @ qv
    n = len(cos)
    walk = g.walk_matrix(settings.link_kinds)
    m = min(settings.bridge_ppr_seeds, n)
    ranking = cos if settings.bridge_ppr_seed_ranking == "dense" else rrf(cos, bm25_scores(g, query))
    seeds = np.argsort(-ranking, kind="stable")[:m]
    restart = np.zeros(walk.n)
    t = settings.bridge_ppr_temperature
    restart[seeds] = np.exp((cos[seeds] - cos[seeds].max()) / t) if t > 0 else np.clip(cos[seeds], 1e-6, None)
    return pagerank(walk, damping=settings.bridge_ppr_damping, personalization=restart, tol=1e-8, max_iter=60)[:n]


def bm25_scores(g: LinkGraph, query: str) -> np.ndarray:
    """Okapi BM25 of every passage for the query's keywords (term counts from graph/links.py)."""
    weights = g.bm25
    cols = [g.tf_vocab[t] for t in set(keywords(query)) if t in g.tf_vocab]
    if not cols:
        return np.zeros(weights.shape[0])
    return np.asarray(weights[:, cols].sum(axis=1)).ravel()


def rrf(*scores: np.ndarray, weights: tuple[float, ...] | None = None, k: int = RRF_K) -> np.ndarray:
    """Reciprocal-rank fusion: Σ w / (k + rank) over the given score vectors (rank from 1;
    every w = 1 unless ``weights`` gives one per vector)."""
    out = np.zeros(len(scores[0]))
    for s, w in zip(scores, weights or (1.0,) * len(scores), strict=True):
        rank = np.empty(len(s), dtype=np.int64)
        rank[np.argsort(-s, kind="stable")] = np.arange(len(s))
        out += w / (k + rank + 1)
    return out


def drop_near_duplicates(order: np.ndarray, vectors: np.ndarray, tokens: np.ndarray, tau: float, head_tokens: int) -> np.ndarray:
    """``order`` without each row whose cosine to a row kept above it is ≥ τ, checked until
    the kept rows hold ``head_tokens`` tokens or the rows checked hold twice that (the rest of
    ``order`` follows unchecked). Each decision looks only upward, so cutting the result at
    fewer tokens gives the same prefix."""
    head = order[: int(np.searchsorted(np.cumsum(tokens[order]), 2 * head_tokens)) + 1]
    sims = vectors[head] @ vectors[head].T
    near = np.full(len(head), -np.inf)  # each row's highest cosine to a kept row
    keep, held, end = [], 0, len(head)
    for i, row in enumerate(head):
        if near[i] >= tau:
            continue
        keep.append(i)
        np.maximum(near, sims[i], out=near)
        held += int(tokens[row])
        if held >= head_tokens:
            end = i + 1
            break
    return np.concatenate([head[keep], order[end:]])


def ranked_rows(
    g: LinkGraph, query: str, qv: np.ndarray, settings: Settings, method: str, head_tokens: int = 0
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Passage rows best first, their scores, and what bridge scoring knew (for explanations);
    near-duplicates are dropped from the head holding ``head_tokens`` (``bridge_dedup``)."""
    info: dict = {}
    if method == "bridge":
        score, cos, bonus, seeds = bridge_scores(g, qv, settings)
        info = {"cos": cos, "bonus": bonus, "seeds": seeds}
    else:
        score = ppr_scores(g, query, qv, settings)
        cos = g.vectors @ qv
    w_dense, w_bm25, k = settings.bridge_dense_weight, settings.bridge_bm25_weight, settings.bridge_rrf_k
    if settings.bridge_fusion == "dense":
        score = rrf(score, cos, weights=(1.0, w_dense), k=k)
    elif settings.bridge_fusion == "dense+bm25":
        score = rrf(score, cos, bm25_scores(g, query), weights=(1.0, w_dense, w_bm25), k=k)
    order = np.argsort(-score, kind="stable")
    if settings.bridge_dedup < 1 and head_tokens > 0:
        order = drop_near_duplicates(order, g.vectors, g.tokens, settings.bridge_dedup, head_tokens)
    return order, score, info


def _explain(g: LinkGraph, settings: Settings, info: dict, row: int) -> dict | None:
    """Which seed and which keys lifted passage ``row`` (bridge only)."""
    if not info or info["bonus"][row] <= 0 or row in info["seeds"]:
        return None
    k = g.keys_of(settings.link_kinds)[0]
    mine = set(k.indices[k.indptr[row] : k.indptr[row + 1]])
    best, best_keys, best_w = None, [], 0.0
    for s in info["seeds"]:
        shared = mine & set(k.indices[k.indptr[s] : k.indptr[s + 1]])
        w = info["cos"][s] * min(sum(k[s, j] for j in shared), settings.bridge_link_cap)
        if w > best_w:
            best, best_keys, best_w = s, sorted(shared, key=lambda j: -k[s, j]), w
    if best is None:
        return None
    return {"seed": str(g.ids[best]), "keys": [str(g.labels[j]) for j in best_keys[:5]], "bonus": float(info["bonus"][row])}


def bridge_units(index: Index, query: str, qv: np.ndarray, budget: int, settings: Settings, method: str = "bridge") -> list[Unit]:
    g = load_links(index, settings)
    if not len(g.ids):
        return []
    order, score, info = ranked_rows(g, query, qv, settings, method, head_tokens=2 * budget)
    held = np.cumsum(g.tokens[order])
    order = order[: int(np.searchsorted(held, 2 * budget)) + 1]  # enough to fill λ, with room for skips
    units = load_units(index, "chunks", [(str(g.ids[r]), float(score[r])) for r in order], source=method)
    row_of = {str(g.ids[r]): int(r) for r in order}
    for u in units:
        why = _explain(g, settings, info, row_of[u.id]) if method == "bridge" else None
        if why:
            u.meta["bridge"] = why
    return units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return make_context(query, "bridge", budget, bridge_units(index, query, embedder.encode_one(query), budget, settings, "bridge"))


def retrieve_ppr(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    return make_context(query, "bridge-ppr", budget, bridge_units(index, query, embedder.encode_one(query), budget, settings, "bridge-ppr"))
