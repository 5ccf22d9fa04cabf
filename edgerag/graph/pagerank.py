"""PageRank and Personalized PageRank: sparse power iteration (scipy), and local push.

One module for every method that ranks by random walks: KET-RAG's core-chunk PageRank over
the KNN graph (teleport α = 0.15, i.e. damping 0.85; KET-RAG §4.1), G2ConS's concept
PageRank, TERAG's Personalized PageRank, edgerag's bridge PPR.

`pagerank` iterates over the whole graph, a few dozen sparse products of its every edge; right
for a PageRank computed once per index. `ppr_push` is the forward push of Andersen, Chung and
Lang ("Local graph partitioning using PageRank vectors", FOCS 2006, §2–3): it spreads restart
mass outward from the seeds only while a node's residual r(u) is at least ε · deg(u), so its
work is bounded by 1 / (ε (1 − damping)) edge visits, whatever the graph's size; right for a
PPR asked once per query of a large corpus (bridge-ppr, issue #32).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True, eq=False)
class Walk:
    """A graph made ready for random walks: its row-normalised adjacency ``P`` (row u holds
    u's out-edges, weights summing to 1) and its dangling nodes (no out-edge). Making it is
    O(edges); a per-query PPR over a fixed graph makes it once (`LinkGraph.walk_matrix`).
    Power iteration multiplies by ``P.T`` (a CSC view of the same arrays, no copy); push reads
    rows of ``P``."""

    P: sp.csr_matrix
    dangling: np.ndarray

    @property
    def n(self) -> int:
        return self.P.shape[0]

    @cached_property
    def degree(self) -> np.ndarray:
        """Out-edges per node, at least 1 (a dangling node's push restarts: one move)."""
        return np.maximum(np.diff(self.P.indptr), 1)

    @cached_property
    def is_dangling(self) -> np.ndarray:
        out = np.zeros(self.n, dtype=bool)
        out[self.dangling] = True
        return out


def walk_of(adj: sp.spmatrix) -> Walk:
    """The `Walk` of ``adj`` (rows are sources, weighted out-edges)."""
    a = sp.csr_matrix(adj, dtype=np.float64)
    out = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
    return Walk((sp.diags(inv) @ a).tocsr(), np.flatnonzero(out == 0))


def pagerank(
    adj: sp.spmatrix | Walk,
    damping: float = 0.85,
    personalization: np.ndarray | None = None,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> np.ndarray:
    """Stationary distribution of a walk that follows weighted out-edges with probability
    ``damping`` and restarts with probability 1 − damping at ``personalization`` (uniform
    when None). Rows of ``adj`` are sources (or ``adj`` is its prepared `Walk`). Dangling
    nodes restart. Returns scores summing to 1.
    """
    w = adj if isinstance(adj, Walk) else walk_of(adj)
    n = w.n
    if n == 0:
        return np.zeros(0)
    if personalization is None:
        p = np.full(n, 1.0 / n)
    else:
        p = np.asarray(personalization, dtype=np.float64)
        if p.shape != (n,) or p.min() < 0 or p.sum() <= 0:
            raise ValueError("personalization must be a non-negative vector of one weight per node, not all zero")
        p = p / p.sum()
    x = p.copy()
    t = w.P.T  # column-stochastic: (t @ x)[v] = Σ_u P[u, v] x[u]
    for _ in range(max_iter):
        nxt = damping * (t @ x + x[w.dangling].sum() * p) + (1 - damping) * p
        if np.abs(nxt - x).sum() < tol * n:
            return nxt / nxt.sum()
        x = nxt
    return x / x.sum()


def ppr_push(walk: Walk, seeds: np.ndarray, weights: np.ndarray, damping: float = 0.85, eps: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    """Personalized PageRank restarting at ``seeds`` (restart weights ``weights``), by forward
    push (Andersen, Chung and Lang 2006, §3): returns (nodes, mass), the nodes the push reached
    and their PPR estimates, which sum to at most 1.

    Each round, every node u whose residual r(u) ≥ ε · deg(u) keeps (1 − damping) · r(u) as
    mass and passes damping · r(u) along its out-edges by weight (a dangling node's goes back
    to the seeds, as `pagerank` restarts it); rounds end when no node is above its threshold.
    A node's estimate is its mass plus (1 − damping) of the residual it still holds (the part
    that restarts there at once): a lower bound of its true PPR, short by less than the
    residual left in the whole graph. Every node above its threshold pushes at once each
    round (a sparse row gather); the estimates differ from pushing one node at a time, and
    both keep the bounds above.
    """
    seeds = np.asarray(seeds, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    if seeds.size == 0 or weights.shape != seeds.shape or weights.min() < 0 or weights.sum() <= 0:
        raise ValueError("ppr_push needs at least one seed and one non-negative restart weight per seed, not all zero")
    if not (eps > 0 and 0 <= damping < 1):  # otherwise the residual never falls below ε · deg
        raise ValueError(f"ppr_push needs eps > 0 and 0 <= damping < 1; got eps={eps}, damping={damping}")
    restart = weights / weights.sum()
    mass = np.zeros(walk.n)
    resid = np.zeros(walk.n)
    np.add.at(resid, seeds, restart)
    seen = np.zeros(walk.n, dtype=bool)
    seen[seeds] = True
    active = np.unique(seeds)
    active = active[resid[active] >= eps * walk.degree[active]]
    while active.size:
        r = resid[active]
        resid[active] = 0.0
        mass[active] += (1 - damping) * r
        rows = walk.P[active]
        moved = rows.data * np.repeat(damping * r, np.diff(rows.indptr))
        touched, slot = np.unique(rows.indices, return_inverse=True)
        resid[touched] += np.bincount(slot, weights=moved, minlength=len(touched))
        back = damping * r[walk.is_dangling[active]].sum()
        if back > 0:
            np.add.at(resid, seeds, back * restart)
            touched = np.union1d(touched, seeds)
        seen[touched] = True
        active = touched[resid[touched] >= eps * walk.degree[touched]]
    nodes = np.flatnonzero(seen)
    return nodes, mass[nodes] + (1 - damping) * resid[nodes]  # a residual's own share is surely its node's
