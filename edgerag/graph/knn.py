"""The KNN graph of chunks (KET-RAG Alg. 3, lines 2–7).

Each chunk links to its top-K/2 other chunks by lexical similarity (the number of keywords
they share, KET-RAG §5.1) and its top-K/2 others by cosine of their vectors. The paper's
default is K = 2. The reference implementation compares all pairs in Python; here the
lexical side is a sparse product of the chunk–keyword matrix with itself, computed in row
blocks so memory stays bounded, and the cosine side is one batched hnswlib query.

The graph is stored undirected (an edge either way links both chunks), weight 1 per link
(2 when both sides chose it), as the input of PageRank core-chunk selection and of `knng`
retrieval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..store import Index
from ..store.stages import load_stage, save_stage, stage_record

BLOCK = 1024


def stage(k: int) -> str:
    return f"knn:k{k}"


def keyword_matrix(keyword_lists: list[list[str]]) -> tuple[sp.csr_matrix, list[str]]:
    """Binary unit × keyword matrix and its vocabulary (column order)."""
    vocab: dict[str, int] = {}
    rows, cols = [], []
    for r, kws in enumerate(keyword_lists):
        for w in dict.fromkeys(kws):  # first-seen order: the same columns in every process
            rows.append(r)
            cols.append(vocab.setdefault(w, len(vocab)))
    m = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(keyword_lists), len(vocab)))
    return m, list(vocab)


def top_lexical(x: sp.csr_matrix, per_node: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row, the ``per_node`` other rows sharing the most keywords (ties: arbitrary)."""
    n = x.shape[0]
    src, dst = [], []
    xt = x.T.tocsc()
    for start in range(0, n, BLOCK):
        block = (x[start : start + BLOCK] @ xt).toarray()
        block[np.arange(block.shape[0]), np.arange(start, start + block.shape[0])] = -1  # no self-links
        k = min(per_node, n - 1)
        if k <= 0:
            break
        top = np.argpartition(-block, k - 1, axis=1)[:, :k]
        for i, row in enumerate(top):
            for j in row:
                if block[i, j] > 0:
                    src.append(start + i)
                    dst.append(j)
    return np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)


def build_knn_graph(index: Index, k: int = 2) -> dict:
    """Build (or reuse) the KNN graph over every chunk in the index; returns its stage record."""
    rec = stage_record(index.tables, stage(k))
    generation = index.generation()
    if rec is not None and rec.get("generation") == generation:
        return rec
    ids, vecs = index.vectors["chunks"].all()
    t0 = time.perf_counter()
    per = max(1, k // 2)
    recs = index.get_many("chunks", ids)
    x, _ = keyword_matrix([r["keywords"] for r in recs])
    lex_src, lex_dst = top_lexical(x, per)
    t_lex = time.perf_counter() - t0
    pos = {cid: i for i, cid in enumerate(ids)}
    cos_src, cos_dst = [], []
    if len(ids) > 1:
        neigh, _ = index.vectors["chunks"].knn_many(vecs, per + 1)
        for i, row in enumerate(neigh):
            # chunks committed after the snapshot (a concurrent insert) are not in `pos`: skip them
            for cid in [c for c in row if c != ids[i] and c in pos][:per]:
                cos_src.append(i)
                cos_dst.append(pos[cid])
    src = np.concatenate([lex_src, np.asarray(cos_src, dtype=np.int64)])
    dst = np.concatenate([lex_dst, np.asarray(cos_dst, dtype=np.int64)])
    n = len(ids)
    directed = sp.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    adj = (directed + directed.T).tocsr()
    record = {
        "k": k,
        "generation": generation,
        "chunks": n,
        "edges": int(adj.nnz // 2),
        "lexical_links": int(len(lex_src)),
        "cosine_links": int(len(cos_src)),
        "seconds": time.perf_counter() - t0,
        "lexical_seconds": t_lex,
    }
    tokens = np.asarray([r["tokens"] for r in recs], dtype=np.int64)
    return save_stage(index.tables, stage(k), record, {"adj": adj, "ids": np.asarray(ids), "tokens": tokens})


@dataclass(frozen=True, eq=False)
class KNNGraph:
    """The stage ``knn:k{K}``: the undirected chunk graph, rows and columns in ``ids`` order."""

    adj: sp.csr_matrix
    """Symmetric adjacency: weight 1 per link, 2 when both chunks chose each other."""
    ids: np.ndarray
    tokens: np.ndarray

    @cached_property
    def chunk_ids(self) -> list[str]:
        """``ids`` as Python strings (matrix order)."""
        return [str(i) for i in self.ids]


def load_knn_graph(index: Index, k: int = 2) -> KNNGraph:
    """The KNN graph of K links per chunk (it must be built: `build_knn_graph`)."""
    return load_stage(index.tables, stage(k), KNNGraph)
