"""The keyword–text bipartite graph (KET-RAG Alg. 3, lines 10–15).

Every sub-chunk (2^τ per chunk) links to its keywords (words minus stop words, §5.1). A
keyword's vector is the mean of the vectors of the sentences that contain it, normalised —
the sentence vectors stored at indexing time, shared with G2ConS's concepts (Eq. 1). A keyword
found in no whole sentence (cut by a sub-chunk boundary) takes the mean of its sub-chunks.

Stored as one stage: the sub-chunk × keyword matrix ``B``, the vocabulary, the keyword vectors
(searched by brute-force inner product: one matrix–vector product per query, milliseconds for
10^5 keywords), and the sub-chunk ids and token counts in matrix order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..embed import pieces
from ..store import Index
from ..store.stages import load_stage, save_stage, stage_record
from ..text.keywords import keyword_set
from .knn import keyword_matrix

STAGE = "bipartite"


def _keyword_rows(index: Index, sent_ids: list[str], col: dict[str, int]) -> sp.csr_matrix:
    """The binary sentence × keyword matrix of ``sent_ids`` over the columns ``col`` (words
    outside it are dropped)."""
    rows, cols = [], []
    for r, s in enumerate(index.get_many("sentences", sent_ids)):
        for w in keyword_set(s["text"]):
            c = col.get(w)
            if c is not None:
                rows.append(r)
                cols.append(c)
    return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(sent_ids), len(col)))


def sentence_keyword_matrix(index: Index, col: dict[str, int]) -> sp.csr_matrix:
    """Every stored sentence × keyword, binary, over the columns ``col``."""
    return _keyword_rows(index, index.ids("sentences"), col)


def sentence_sums(index: Index, col: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Per keyword of ``col``: the sum of the vectors of the sentences that hold it, and how
    many do; one slice of sentence vectors at a time, never all of them at once."""
    sums = np.zeros((len(col), index.vectors["sentences"].dim), dtype=np.float32)
    count = np.zeros(len(col), dtype=np.float32)
    for ids, vecs in index.vectors["sentences"].scan():
        m = _keyword_rows(index, ids, col)
        sums += np.asarray(m.T @ vecs, dtype=np.float32)
        count += np.asarray(m.sum(axis=0)).ravel()
    return sums, count


@dataclass(frozen=True, eq=False)
class KeywordGraph:
    """The stage ``bipartite``: sub-chunks (rows) × keywords (columns)."""

    B: sp.csr_matrix
    """Binary sub-chunk × keyword matrix."""
    vocab: np.ndarray
    keyword_vectors: np.ndarray
    """Each keyword's vector: the normalised mean of the sentences that hold it (Eq. 1)."""
    ids: np.ndarray
    """Sub-chunk ids (row order)."""
    tokens: np.ndarray

    @cached_property
    def BT(self) -> sp.csr_matrix:  # noqa: N802 (the transpose of B)
        """Keyword → sub-chunks: ``B`` transposed, computed once."""
        return self.B.T.tocsr()


def load_keyword_graph(index: Index) -> KeywordGraph:
    """The keyword–sub-chunk graph, built first when missing or out of date."""
    build_keyword_graph(index)
    return load_stage(index.tables, STAGE, KeywordGraph)


def build_keyword_graph(index: Index) -> dict:
    rec = stage_record(index.tables, STAGE)
    generation = index.generation()
    if rec is not None and rec.get("generation") == generation:
        return rec
    if any(pieces.missing(index).values()):
        raise RuntimeError("the keyword graph reads every sub-chunk and sentence vector: pieces.embed_missing first")
    sub_ids, sub_vecs = index.vectors["subchunks"].all()
    t0 = time.perf_counter()
    subs = index.get_many("subchunks", sub_ids)
    b, vocab = keyword_matrix([keyword_set(r["text"]) for r in subs])
    col = {w: i for i, w in enumerate(vocab)}
    kv, count = sentence_sums(index, col)
    missing = count == 0
    if missing.any():
        kv[missing] = np.asarray(b.T[missing] @ sub_vecs, dtype=np.float32)
    kv /= np.maximum(np.linalg.norm(kv, axis=1, keepdims=True), 1e-12)
    tokens = np.asarray([r["tokens"] for r in subs], dtype=np.int64)
    record = {
        "generation": generation,
        "subchunks": len(sub_ids),
        "keywords": len(vocab),
        "links": int(b.nnz),
        "seconds": time.perf_counter() - t0,
    }
    return save_stage(
        index.tables,
        STAGE,
        record,
        {
            "B": b,
            "vocab": np.asarray(vocab),
            "keyword_vectors": kv,
            "ids": np.asarray(sub_ids),
            "tokens": tokens,
        },
    )
