"""G2ConS's concept graph (Liu et al., "Graph-Guided Concept Selection for Efficient
Retrieval-Augmented Generation", 2025, §3.1) and its concept-ranked core chunks (§3.2).

* **Concepts** are keywords (the words of `text.keywords`, stop words removed, the same
  vocabulary as KET-RAG's keyword graph); a concept is the word plus every chunk that holds
  it, ``T_w``. The paper picks keywords TF-IDF-style (Ramos 2003); by default every keyword
  is a concept, and ``Settings.concepts_per_chunk`` = n keeps only each chunk's n keywords
  of highest tf·idf.
* **Concept vector** (Eq. 1): the normalised mean of the vectors of the sentences that hold
  the word — the keyword vectors of the bipartite stage, shared with KET-RAG. Ablation
  ``concept_vectors="chunk"``: the mean of the vectors of its chunks instead.
* **Edges** (Eq. 2): w_i — w_j iff cos(w_i, w_j) ≥ θ_sem AND Co(w_i, w_j) ≥ θ_co, where Co
  counts the chunks holding both; weight = Dice = 2·Co / (|T_wi| + |T_wj|). Co comes from one
  sparse product Tᵀ·T; cosines are computed only for the pairs that pass θ_co, in blocks.
  Ablations: ``concept_cooccurrence="sentence"`` counts sentences instead of chunks;
  ``concept_similarity_filter=False`` drops the cosine test.
* **Core chunks** (κ): PageRank over the weighted concept graph ranks concepts; a chunk's
  score is the sum of the PageRank of the concepts it holds (a chunk holding more, and more
  central, concepts carries more of the corpus's knowledge); the top ⌈κ·n⌉ chunks go to KG
  extraction, the same extraction stage the KET skeleton uses.

Stored as one stage per setting combination (``concepts:…``), so ablation variants live side
by side over one index.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..settings import Settings
from ..store import Index
from ..store.stages import load_stage, save_stage, stage_record
from ..text.keywords import keywords
from .bipartite import build_keyword_graph, load_keyword_graph, sentence_keyword_matrix
from .pagerank import pagerank

PAIR_BLOCK = 1 << 18


def stage(settings: Settings) -> str:
    """Stage name: every setting that changes the graph."""
    s = settings
    return (
        f"concepts:co={s.concept_cooccurrence}:vec={s.concept_vectors}:sim={int(s.concept_similarity_filter)}"
        f":ts={s.theta_sem:g}:tc={s.theta_co:g}:n={s.concepts_per_chunk}"
    )


def build_concept_graph(index: Index, settings: Settings) -> dict:
    """Build (or reuse) the concept graph for ``settings``; returns its stage record."""
    name = stage(settings)
    kw = build_keyword_graph(index)
    rec = stage_record(index.tables, name)
    if rec is not None and rec.get("from_built") == kw["built"]:
        return rec
    t0 = time.perf_counter()
    g = load_keyword_graph(index)
    vocab = [str(w) for w in g.vocab]
    chunk_ids, chunk_vecs = index.vectors["chunks"].all()
    chunks = index.get_many("chunks", chunk_ids)
    # chunk × concept: a chunk holds the keywords of its sub-chunks
    sub_pos = {str(s): i for i, s in enumerate(g.ids)}
    rows, cols = [], []
    for r, c in enumerate(chunks):
        for s in c["subchunks"]:
            if s in sub_pos:
                rows.append(r)
                cols.append(sub_pos[s])
    to_chunk = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(chunk_ids), len(sub_pos)))
    t = (to_chunk @ g.B).tocsr()
    t.data[:] = 1.0
    if settings.concepts_per_chunk:
        t = _top_tfidf(t, chunks, {w: i for i, w in enumerate(vocab)}, settings.concepts_per_chunk)
    df = np.asarray(t.sum(axis=0)).ravel()

    if settings.concept_vectors == "sentence":
        vecs = g.keyword_vectors
    else:  # ablation: the mean of the chunks that hold the concept
        vecs = np.asarray(t.T @ chunk_vecs, dtype=np.float32)
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)

    if settings.concept_cooccurrence == "chunk":
        occ = t
    else:  # ablation: co-occurrence inside one sentence
        occ = sentence_keyword_matrix(index, {w: i for i, w in enumerate(vocab)})
        occ = occ.multiply((df > 0).astype(np.float32)[None, :]).tocsr()  # only words that are concepts
    co = sp.triu(occ.T @ occ, k=1).tocoo()
    keep = co.data >= settings.theta_co
    a, b, n_co = co.row[keep], co.col[keep], co.data[keep]
    candidates = len(a)
    if settings.concept_similarity_filter:
        cos = (
            np.concatenate(
                [np.einsum("ij,ij->i", vecs[a[i : i + PAIR_BLOCK]], vecs[b[i : i + PAIR_BLOCK]]) for i in range(0, len(a), PAIR_BLOCK)]
            )
            if len(a)
            else np.zeros(0)
        )
        keep = cos >= settings.theta_sem
        a, b, n_co = a[keep], b[keep], n_co[keep]
    dice = 2.0 * n_co / (df[a] + df[b])
    n = len(vocab)
    adj = sp.coo_matrix((np.concatenate([dice, dice]), (np.concatenate([a, b]), np.concatenate([b, a]))), shape=(n, n)).tocsr()
    concept_rank = pagerank(adj, damping=settings.pagerank_damping)
    chunk_score = np.asarray(t @ concept_rank).ravel()
    record = {
        "from_built": kw["built"],
        "chunks": len(chunk_ids),
        "concepts": int((df > 0).sum()),
        "candidate_pairs": int(candidates),
        "edges": int(len(a)),
        "seconds": time.perf_counter() - t0,
    }
    return save_stage(
        index.tables,
        name,
        record,
        {
            "T": t,
            "adj": adj,
            "vectors": vecs,
            "vocab": np.asarray(vocab),
            "df": df.astype(np.int64),
            "concept_rank": concept_rank,
            "chunk_score": chunk_score,
            "ids": np.asarray(chunk_ids),
            "tokens": np.asarray([c["tokens"] for c in chunks], dtype=np.int64),
        },
    )


@dataclass(frozen=True, eq=False)
class ConceptGraph:
    """A stage ``concepts:…``: G2ConS's concepts (keywords) over the chunks."""

    T: sp.csr_matrix
    """Binary chunk × concept matrix (rows in ``ids`` order)."""
    adj: sp.csr_matrix
    """Concept × concept Dice weights of the pairs that pass θ_sem and θ_co (Eq. 2)."""
    vectors: np.ndarray
    """Concept vectors (Eq. 1)."""
    vocab: np.ndarray
    df: np.ndarray
    """Chunks holding each concept (0: a word that is no chunk's concept)."""
    concept_rank: np.ndarray
    chunk_score: np.ndarray
    """Σ of each chunk's concepts' PageRank: the κ core's ranking (§3.2)."""
    ids: np.ndarray
    tokens: np.ndarray
    _vectors_read: list = field(default_factory=list, init=False, repr=False)

    def chunk_vectors(self, index: Index) -> np.ndarray:
        """The chunks' vectors in row order, read from ``index`` once."""
        if not self._vectors_read:
            self._vectors_read.append(index.vectors["chunks"].get([str(i) for i in self.ids]))
        return self._vectors_read[0]

    @cached_property
    def TT(self) -> sp.csr_matrix:  # noqa: N802 (the transpose of T)
        """Concept → chunks: ``T`` transposed, computed once."""
        return self.T.T.tocsr()


def load_concept_graph(index: Index, settings: Settings) -> ConceptGraph:
    """The concept graph for ``settings``, built on first use."""
    build_concept_graph(index, settings)
    return load_stage(index.tables, stage(settings), ConceptGraph)


def concept_core(index: Index, kappa: float, settings: Settings) -> list[str]:
    """κ: the ⌈κ·n⌉ chunks with the highest concept score (sum of their concepts' PageRank),
    best first — G2ConS's core chunks (§3.2)."""
    if not 0.0 <= kappa <= 1.0:
        raise ValueError(f"kappa (κ) must be in [0, 1], got {kappa}")
    g = load_concept_graph(index, settings)
    order = np.argsort(-g.chunk_score, kind="stable")
    return [str(g.ids[i]) for i in order[: math.ceil(kappa * len(order))]]


def _top_tfidf(t: sp.csr_matrix, chunks: list[dict], col: dict[str, int], n: int) -> sp.csr_matrix:
    """Keep, per chunk, the ``n`` concepts of highest tf·idf (tf = count in the chunk,
    idf = log(N / df)); ties keep the earlier word."""
    idf = np.log(t.shape[0] / np.maximum(np.asarray(t.sum(axis=0)).ravel(), 1))
    rows, cols = [], []
    for r, c in enumerate(chunks):
        tf: dict[int, int] = {}
        for w in keywords(c["text"]):
            j = col.get(w)
            if j is not None:
                tf[j] = tf.get(j, 0) + 1
        best = sorted(tf, key=lambda j: -tf[j] * idf[j])[:n]
        rows.extend([r] * len(best))
        cols.extend(best)
    return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=t.shape)
