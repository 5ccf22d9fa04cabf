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
a local push from the seeds; the head is picked by partial selection, never a full sort.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..graph.links import LinkGraph, load_links
from ..graph.pagerank import pagerank, ppr_push
from ..settings import Settings
from ..store import Index
from ..text.keywords import keywords
from ..text.rows import parse_row
from ..types import Context, Unit
from .units import load_units

RRF_K = 60
RRF_DEPTH = 2_000
"""How deep each fused list is read: a row a list ranks below this (or scores 0) gets nothing
from that list. Fixed, so a smaller budget's context is a prefix of a larger one's; rows no
list reaches follow in dense order (`best_first`)."""


def top_rows(score: np.ndarray, k: int, above: float | None = None) -> np.ndarray:
    """The rows of the ``k`` highest scores, best first, ties in row order: the first k of a
    stable argsort of −score, in O(n + k log k) rather than O(n log n). With ``above``, only
    rows scored above it: a PPR, BM25 or fused score is 0 for most passages, and selection
    among that many equal values is ten times slower (13 against 1.3 ms at 100,000 rows), so
    the others are picked out first."""
    if above is not None:
        rows = np.flatnonzero(score > above)
        return rows[top_rows(score[rows], k)]
    n = len(score)
    if k >= n:
        return np.argsort(-score, kind="stable")
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    kth = np.partition(score, n - k)[n - k]
    rows = np.flatnonzero(score >= kth)  # every tie at the boundary, in row order
    return rows[np.argsort(-score[rows], kind="stable")][:k]


def bridge_scores(g: LinkGraph, cos: np.ndarray, settings: Settings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(final score, bonus, seeds) for every passage in stage order, from its cosine to the query."""
    n = len(cos)
    s = min(settings.bridge_seeds, n)
    seeds = top_rows(cos, s)
    k, has_key = g.keys_of(settings.link_kinds)
    strength = (k[seeds] @ has_key).toarray()  # s × n: Σ IDF of shared keys
    strength[np.arange(s), seeds] = 0.0
    np.minimum(strength, settings.bridge_link_cap, out=strength)
    contrib = np.clip(cos[seeds], 0.0, None)[:, None] * strength
    bonus = settings.bridge_lambda * contrib.sum(axis=0)
    return cos + bonus, bonus, seeds


def ppr_scores(g: LinkGraph, query: str, qv: np.ndarray, settings: Settings, cos: np.ndarray | None = None) -> np.ndarray:
    """PPR mass of every passage, restarting at m seed passages (bridge-ppr); 0 where the
    walk did not reach.

    Seeds are the top m of the dense ranking (or of dense ⊕ BM25, ``bridge_ppr_seed_ranking``);
    a seed's restart weight is exp(cos / T), a softmax at temperature T
    (``bridge_ppr_temperature``; T = 0 weighs by cosine itself). The walk is pushed locally
    from the seeds to residual ε (``bridge_ppr_eps``, graph/pagerank.py `ppr_push`): the edges
    it visits do not grow with the corpus (its arrays of one value per node still do); ε = 0
    iterates over the whole graph.
    """
    cos = g.vectors @ qv if cos is None else cos
    n = len(cos)
    walk = g.walk_matrix(settings.link_kinds)
    m = min(settings.bridge_ppr_seeds, n)
    ranking = cos if settings.bridge_ppr_seed_ranking == "dense" else rrf(cos, bm25_scores(g, query))
    seeds = top_rows(ranking, m)
    t = settings.bridge_ppr_temperature
    weights = np.exp((cos[seeds] - cos[seeds].max()) / t) if t > 0 else np.clip(cos[seeds], 1e-6, None)
    damping = settings.bridge_ppr_damping
    if settings.bridge_ppr_eps == 0:
        restart = np.zeros(walk.n)
        restart[seeds] = weights
        return pagerank(walk, damping=damping, personalization=restart, tol=1e-8, max_iter=60)[:n]
    nodes, mass = ppr_push(walk, seeds, weights, damping=damping, eps=settings.bridge_ppr_eps)
    out = np.zeros(n)
    passages = nodes < n  # passages come first in the walk, keys after
    out[nodes[passages]] = mass[passages]
    return out


def bm25_scores(g: LinkGraph, query: str) -> np.ndarray:
    """Okapi BM25 of every passage for the query's keywords (term counts from graph/links.py)."""
    weights = g.bm25
    cols = [g.tf_vocab[t] for t in set(keywords(query)) if t in g.tf_vocab]
    if not cols:
        return np.zeros(weights.shape[0])
    return np.asarray(weights[:, cols].sum(axis=1)).ravel()


def rrf(*scores: np.ndarray, weights: tuple[float, ...] | None = None, k: int = RRF_K, depth: int = RRF_DEPTH) -> np.ndarray:
    """Reciprocal-rank fusion: Σ w / (k + rank) over the given score vectors (rank from 1;
    every w = 1 unless ``weights`` gives one per vector), each vector a ranked list of the rows
    it scores above 0, read to ``depth``. The rows a list did not rank (BM25 scored them 0, the
    walk never reached them, or they lie below ``depth``) are tied, and tied rows share a rank:
    the one after the list's last. Every row gets that shared term from every list, so it is
    left out: a row in no list scores 0, and one in a list gains w / (k + rank) − w / (k + len + 1)
    there, which orders rows exactly as the full sum does."""
    out = np.zeros(len(scores[0]))
    for s, w in zip(scores, weights or (1.0,) * len(scores), strict=True):
        rows = top_rows(s, depth, above=0.0)
        out[rows] += w / (k + np.arange(1, len(rows) + 1)) - w / (k + len(rows) + 1)
    return out


def _holding(score: np.ndarray, tokens: np.ndarray, need_tokens: int, floor: float) -> np.ndarray:
    """Rows scored above ``floor``, best first, as many as hold ``need_tokens`` (all of them if
    they hold fewer): a head a few times the rows needed is selected, grown while short."""
    n = len(score)
    per_row = max(float(tokens.mean()), 1.0) if n else 1.0
    k = min(n, max(64, 2 * int(need_tokens / per_row)))
    while True:
        head = top_rows(score, k, above=floor)
        if len(head) < k or k == n or int(tokens[head].sum()) >= need_tokens:
            return head
        k = min(n, 4 * k)


def best_first(score: np.ndarray, cos: np.ndarray, tokens: np.ndarray, need_tokens: int) -> np.ndarray:
    """Rows best first by ``score``, as many as hold ``need_tokens`` tokens (every row, if they
    hold fewer). Rows scored 0 or below (no fused list found them) follow in dense order."""
    head = _holding(score, tokens, need_tokens, 0.0)
    held = int(tokens[head].sum())
    if held < need_tokens and len(head) < len(score):
        rest = cos.astype(np.float64)
        rest[head] = -np.inf
        head = np.concatenate([head, _holding(rest, tokens, need_tokens - held, -np.inf)])
    return head[: int(np.searchsorted(np.cumsum(tokens[head]), need_tokens)) + 1]


TABLE_SHARE = 0.5
"""The least share of a chunk's lines that print a table's row for it to be a table's chunk."""


def table_chunks(index: Index, g: LinkGraph) -> Callable[[np.ndarray], np.ndarray]:
    """``rows`` → each row's document where its chunk is a table's rows (`TABLE_SHARE` of its
    lines parse as rows, text/rows.py), else ""."""

    def of(rows: np.ndarray) -> np.ndarray:
        ids = [str(g.ids[r]) for r in rows]
        out = []
        for uid, rec in zip(ids, index.get_many("chunks", ids)):
            lines = [line for line in (rec or {}).get("text", "").splitlines() if line.strip()]
            tabular = bool(lines) and sum(parse_row(line) is not None for line in lines) >= TABLE_SHARE * len(lines)
            out.append(uid.rpartition(":")[0] if tabular else "")
        return np.array(out, dtype=object)

    return of


def drop_near_duplicates(
    order: np.ndarray,
    vectors: np.ndarray,
    tokens: np.ndarray,
    tau: float,
    head_tokens: int,
    tables_of: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """``order`` without each row whose cosine to a row kept above it is ≥ τ, checked until
    the kept rows hold ``head_tokens`` tokens or the rows checked hold twice that (the rest of
    ``order`` follows unchecked). Each decision looks only upward, so cutting the result at
    fewer tokens gives the same prefix. ``tables_of(rows)`` names, for each row that is a chunk
    of a table's rows, its document ("" for any other): two chunks of one document's tables are
    never copies of each other. A long table's chunks look alike to the embedder ("Consolidated
    statement of cash flows — Item: …" on every row) and each holds rows the others do not; a
    page's look-alike prose sections are still left out (ConditionalQA: keeping them too cost 4
    right answers)."""
    head = order[: int(np.searchsorted(np.cumsum(tokens[order]), 2 * head_tokens)) + 1]
    sims = vectors[head] @ vectors[head].T
    if tables_of is not None:
        near = (sims >= tau) & ~np.eye(len(head), dtype=bool)
        involved = np.flatnonzero(near.any(axis=1))  # only a row near another can be dropped: read just those
        if len(involved):
            own = np.full(len(head), "", dtype=object)
            own[involved] = tables_of(head[involved])
            sims[(own[:, None] == own[None, :]) & (own[:, None] != "")] = -np.inf
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
    g: LinkGraph,
    query: str,
    qv: np.ndarray,
    settings: Settings,
    method: str,
    head_tokens: int = 0,
    tables_of: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Passage rows best first (as many as a full sort's head would give the budget: about
    three times ``head_tokens``, every row when it is 0), their scores, and what bridge scoring knew (for explanations); near-duplicates are dropped from
    the head holding ``head_tokens`` (``bridge_dedup``)."""
    info: dict = {}
    cos = g.vectors @ qv
    if method == "bridge":
        score, bonus, seeds = bridge_scores(g, cos, settings)
        info = {"cos": cos, "bonus": bonus, "seeds": seeds}
    else:
        score = ppr_scores(g, query, qv, settings, cos=cos)
    # the head, the rows its near-duplicate check reads (up to 2 × head_tokens and one row
    # more), and the rows that replace those it drops
    need = 3 * head_tokens + int(g.tokens.max()) if head_tokens > 0 else int(g.tokens.sum())
    w_dense, w_bm25, k = settings.bridge_dense_weight, settings.bridge_bm25_weight, settings.bridge_rrf_k
    if settings.bridge_fusion == "dense":
        score = rrf(score, cos, weights=(1.0, w_dense), k=k)
    elif settings.bridge_fusion == "dense+bm25":
        score = rrf(score, cos, bm25_scores(g, query), weights=(1.0, w_dense, w_bm25), k=k)
    order = best_first(score, cos, g.tokens, need)
    if settings.bridge_dedup < 1 and head_tokens > 0:
        order = drop_near_duplicates(order, g.vectors, g.tokens, settings.bridge_dedup, head_tokens, tables_of=tables_of)
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
    order, score, info = ranked_rows(g, query, qv, settings, method, head_tokens=2 * budget, tables_of=table_chunks(index, g))
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
