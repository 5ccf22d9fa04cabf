"""PageRank and Personalized PageRank by sparse power iteration (scipy).

One function for every method that ranks by random walks: KET-RAG's core-chunk PageRank over
the KNN graph (teleport α = 0.15, i.e. damping 0.85; KET-RAG §4.1), G2ConS's concept
PageRank, TERAG's Personalized PageRank, edgerag's bridge PPR.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True, eq=False)
class Walk:
    """A graph made ready for power iteration: the column-stochastic transpose of its
    row-normalised adjacency, and its dangling nodes. Making it is O(edges) with sparse copies
    and a transpose; a per-query PPR over a fixed graph makes it once (`LinkGraph.walk`)."""

    T: sp.csr_matrix
    dangling: np.ndarray

    @property
    def n(self) -> int:
        return self.T.shape[0]


def walk_of(adj: sp.spmatrix) -> Walk:
    """The `Walk` of ``adj`` (rows are sources, weighted out-edges)."""
    a = sp.csr_matrix(adj, dtype=np.float64)
    out = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
    return Walk((sp.diags(inv) @ a).T.tocsr(), np.flatnonzero(out == 0))


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
    for _ in range(max_iter):
        nxt = damping * (w.T @ x + x[w.dangling].sum() * p) + (1 - damping) * p
        if np.abs(nxt - x).sum() < tol * n:
            return nxt / nxt.sum()
        x = nxt
    return x / x.sum()
