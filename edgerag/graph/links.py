"""The passage–key link graph behind `bridge` and `bridge-ppr` (edgerag's own, no paper).

Every chunk gets its link keys (text/linkkeys.py: capitalised spans, numbers, plain words),
and, where an LLM extraction covered it, the entity names that extraction wrote (kinds
``terag`` and ``kg``; issue #7 asks whether they beat the spans, benchmarks/bridge_llm_keys.py).
A key links passages only while it is informative: document frequency df ≥ 2 (a key in one
passage links nothing) and df ≤ the cap ``Settings.link_df_cap`` scaled with corpus size
(``cap · n / 6,761``, at least 10: ~100 on the KET-RAG MuSiQue corpus), because a key in
hundreds of passages ("film", "1990", "United States") links everything to everything. Plain
words link only below a lower cap (``link_word_df_cap``): rare words are the ones that name
things. Each live key weighs its IDF, log(n / df).

Stored as the stage ``links``: the chunk × live-key matrix ``K`` (IDF weights), key labels
and kinds, chunk ids, token counts, the chunk vectors in the same order (so a query's
cosine to every passage is one matrix–vector product), and keyword term counts (for BM25).
"""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..settings import Settings
from ..store import Index
from ..store.stages import load_stage, save_stage, stage_record
from ..text.keywords import keywords
from ..text.linkkeys import link_keys, normalize
from .pagerank import Walk, walk_of

STAGE = "links"
LLM_TABLES = {"terag": "names", "kg": "extractions"}  # link-key kind → the table of its names
KINDS = ("span", "num", "word", *LLM_TABLES)
REFERENCE_CORPUS = 6_761  # passages of the KET-RAG MuSiQue corpus, where the caps were chosen
BUILD_SLICE = 5_000  # chunks read at a time while building


def caps(n: int, settings: Settings) -> tuple[int, int]:
    """(cap for spans and numbers, cap for plain words) at corpus size ``n``."""
    scale = n / REFERENCE_CORPUS
    return max(10, round(settings.link_df_cap * scale)), max(3, round(settings.link_word_df_cap * scale))


def build_links(index: Index, settings: Settings) -> dict:
    """Build (or reuse) the link graph over every chunk; returns its stage record."""
    n_now = len(index.vectors["chunks"])
    cap, word_cap = caps(n_now, settings)
    rec = stage_record(index.tables, STAGE)
    generation = index.generation()
    with index.tables.read() as txn:  # LLM names join the keys: rebuild when more exist
        extracted = [index.tables.count(txn, table) for table in LLM_TABLES.values()]
    if rec is not None and rec.get("generation") == generation and rec.get("caps") == [cap, word_cap] and rec.get("extracted") == extracted:
        return rec
    t0 = time.perf_counter()
    ids, vecs = index.vectors["chunks"].all()
    vocab: dict[tuple[str, str], int] = {}
    terms: dict[str, int] = {}
    # every link as two int32s (Python lists of ints took the build to 3.0 GB at 100,000 passages),
    # the chunks read a slice at a time
    rows, cols, tf_rows, tf_cols = (array("i") for _ in range(4))
    tokens = np.zeros(len(ids), dtype=np.int64)
    for start in range(0, len(ids), BUILD_SLICE):
        for r, c in enumerate(index.get_many("chunks", ids[start : start + BUILD_SLICE]), start):
            tokens[r] = c["tokens"]
            for k in link_keys(c["text"]):
                rows.append(r)
                cols.append(vocab.setdefault(k, len(vocab)))
            for w in keywords(c["text"]):  # term counts, for BM25 fusion
                tf_rows.append(r)
                tf_cols.append(terms.setdefault(w, len(terms)))
    for r, k in llm_keys(index, ids):
        rows.append(r)
        cols.append(vocab.setdefault(k, len(vocab)))
    n = len(ids)
    raw = sp.csr_matrix(
        (np.ones(len(rows), dtype=np.float32), (np.frombuffer(rows, np.int32), np.frombuffer(cols, np.int32))), shape=(n, len(vocab))
    )
    del rows, cols
    df = np.asarray((raw > 0).sum(axis=0)).ravel()
    keys = list(vocab)
    kinds = np.asarray([k for k, _ in keys])
    limit = np.where(kinds == "word", word_cap, cap)  # names an LLM wrote are capped as spans are
    live = np.flatnonzero((df >= 2) & (df <= limit))
    idf = np.log(n / df[live]).astype(np.float32)
    k_mat = (raw[:, live] @ sp.diags(idf)).tocsr()
    record = {
        "generation": generation,
        "chunks": n,
        "caps": [cap, word_cap],
        "keys": len(keys),
        "live_keys": int(len(live)),
        "live_by_kind": {kind: int((kinds[live] == kind).sum()) for kind in KINDS},
        "extracted": extracted,
        "links": int(k_mat.nnz),
        "seconds": time.perf_counter() - t0,
    }
    return save_stage(
        index.tables,
        STAGE,
        record,
        {
            "K": k_mat,
            "labels": np.asarray([keys[i][1] for i in live]),
            "kinds": kinds[live],
            "df": df[live].astype(np.int64),
            "ids": np.asarray(ids),
            "tokens": tokens,
            "vectors": vecs,
            "TF": sp.csr_matrix(
                (np.ones(len(tf_rows), dtype=np.float32), (np.frombuffer(tf_rows, np.int32), np.frombuffer(tf_cols, np.int32))),
                shape=(n, len(terms)),
            ),
            "tf_terms": np.asarray(list(terms)),
        },
    )


def llm_keys(index: Index, ids: list[str]) -> list[tuple[int, tuple[str, str]]]:
    """(row, (kind, key)) for the entity names an LLM extraction wrote for chunk ``ids[row]``:
    kind ``terag`` from TERAG's names, ``kg`` from the KG extraction's entities. A chunk no
    extraction covered has none; names are normalised as spans are."""
    out = []
    for kind, table in LLM_TABLES.items():
        for r, rec in enumerate(index.get_many(table, ids)):
            if not rec:
                continue
            names = rec.get("entities", [])
            got = {normalize(e["name"] if isinstance(e, dict) else e) for e in names}
            out.extend((r, (kind, k)) for k in sorted(got) if len(k) > 1)
    return out


@dataclass(frozen=True, eq=False)
class LinkGraph:
    """The stage ``links`` as retrievers read it: passages (rows, stage order) × live keys."""

    K: sp.csr_matrix
    """Passages × live keys, each link weighted by the key's IDF."""
    labels: np.ndarray
    """Each live key as normalised (column order)."""
    kinds: np.ndarray
    """Each live key's kind: span, num, word, terag or kg."""
    df: np.ndarray
    ids: np.ndarray
    """Chunk ids (row order)."""
    tokens: np.ndarray
    vectors: np.ndarray
    """Chunk vectors (row order): a query's cosine to every passage is one product."""
    TF: sp.csr_matrix
    """Passages × keyword term counts (for BM25)."""
    tf_terms: np.ndarray
    _by_kinds: dict = field(default_factory=dict, init=False, repr=False)

    def keys_of(self, kinds: str) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """K restricted to the key kinds named in ``kinds`` ("span,num"), and its binary
        transpose (keys × passages); computed once per kinds."""
        if kinds not in self._by_kinds:
            keep = np.isin(self.kinds, [k.strip() for k in kinds.split(",")]).astype(np.float32)
            k = (self.K @ sp.diags(keep)).tocsr()
            k.eliminate_zeros()
            self._by_kinds[kinds] = (k, (k > 0).astype(np.float32).T.tocsr())
        return self._by_kinds[kinds]

    def walk_matrix(self, kinds: str) -> Walk:
        """The passage–key bipartite graph over ``kinds`` (passages first), ready for
        bridge-ppr's walk; made once per kinds, not per query."""
        key = f"walk:{kinds}"
        if key not in self._by_kinds:
            k = self.keys_of(kinds)[0]
            self._by_kinds[key] = walk_of(sp.bmat([[None, k], [k.T, None]], format="csr"))
        return self._by_kinds[key]

    @cached_property
    def bm25(self) -> sp.csc_matrix:
        """Okapi BM25 weights (k1 = 1.2, b = 0.75) of ``TF``: passages × terms."""
        k1, b = 1.2, 0.75
        tf = self.TF.tocsr().astype(np.float32)
        length = np.asarray(tf.sum(axis=1)).ravel()
        norm = k1 * (1 - b + b * length / max(length.mean(), 1e-9))
        df = np.asarray((tf > 0).sum(axis=0)).ravel()
        idf = np.log(1 + (tf.shape[0] - df + 0.5) / (df + 0.5)).astype(np.float32)
        w = tf.tocoo()
        data = idf[w.col] * w.data * (k1 + 1) / (w.data + norm[w.row])
        return sp.csc_matrix((data, (w.row, w.col)), shape=tf.shape)

    @cached_property
    def tf_vocab(self) -> dict[str, int]:
        """Keyword → its column in ``TF``."""
        return {str(t): i for i, t in enumerate(self.tf_terms)}


def load_links(index: Index, settings: Settings) -> LinkGraph:
    """The link graph, built first when missing or out of date."""
    build_links(index, settings)
    return load_stage(index.tables, STAGE, LinkGraph)
