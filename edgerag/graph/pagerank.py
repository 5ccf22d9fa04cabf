"""PageRank and Personalized PageRank by sparse power iteration (scipy).

One function for every method that ranks by random walks: KET-RAG's core-chunk PageRank over
the KNN graph (teleport α = 0.15, i.e. damping 0.85; KET-RAG §4.1), G2ConS's concept
PageRank, TERAG's Personalized PageRank, edgerag's bridge PPR.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def pagerank(
    adj: sp.spmatrix,
    damping: float = 0.85,
    personalization: np.ndarray | None = None,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> np.ndarray:
    """Stationary distribution of a walk that follows weighted out-edges with probability
    ``damping`` and restarts with probability 1 − damping at ``personalization`` (uniform
    when None). Rows of ``adj`` are sources. Dangling nodes restart. Returns scores summing to 1.
    """
    a = sp.csr_matrix(adj, dtype=np.float64)
    n = a.shape[0]
    if n == 0:
        return np.zeros(0)
    out = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
    walk = (sp.diags(inv) @ a).T.tocsr()  # column-stochastic transpose: x_new = walk @ x
    if personalization is None:
        p = np.full(n, 1.0 / n)
    else:
        p = np.asarray(personalization, dtype=np.float64)
        if p.shape != (n,) or p.min() < 0 or p.sum() <= 0:
            raise ValueError("personalization must be a non-negative vector of one weight per node, not all zero")
        p = p / p.sum()
    dangling = out == 0
    x = p.copy()
    for _ in range(max_iter):
        nxt = damping * (walk @ x + x[dangling].sum() * p) + (1 - damping) * p
        if np.abs(nxt - x).sum() < tol * n:
            return nxt / nxt.sum()
        x = nxt
    return x / x.sum()
