"""G2ConS's LLM-free parts on real components: the concept graph (Eq. 1–2), the
concept-ranked core (κ), and `concept` retrieval (direct concepts, BFS, reranks)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from edgerag import EdgeRAG, Settings
from edgerag.embed import pieces
from edgerag.graph.concept_graph import build_concept_graph, concept_core, load_concept_graph, stage
from edgerag.graph.core_chunks import core_chunks
from edgerag.text.keywords import keyword_set

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION

# the bundled slice is small: looser thresholds than the paper's so the graph has edges
LOOSE = Settings(progress=False, theta_co=2, theta_sem=0.5)


def _chunk_words(index, ids):
    """Each chunk's keywords, read independently of the stage: the union of its sub-chunks'."""
    out = []
    for c in index.get_many("chunks", ids):
        words = set()
        for s in index.get_many("subchunks", c["subchunks"]):
            words.update(keyword_set(s["text"]))
        out.append(words)
    return out


def test_edges_are_exactly_the_pairs_passing_both_thresholds(built_index):
    rag = EdgeRAG(built_index)
    index = rag.index
    pieces.embed_missing(index, rag.embedder)  # what `build` does first (the stage "pieces")
    rec = build_concept_graph(index, LOOSE)
    g = load_concept_graph(index, LOOSE)
    vocab = [str(w) for w in g.vocab]
    col = {w: i for i, w in enumerate(vocab)}
    words = _chunk_words(index, [str(i) for i in g.ids])
    df = np.zeros(len(vocab))
    co: dict[tuple[int, int], int] = {}
    for ws in words:
        idx = sorted(col[w] for w in ws)
        df[idx] += 1
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                co[(idx[a], idx[b])] = co.get((idx[a], idx[b]), 0) + 1
    v = g.vectors
    expected = {p: 2 * n / (df[p[0]] + df[p[1]]) for p, n in co.items() if n >= 2 and v[p[0]] @ v[p[1]] >= 0.5}
    adj = g.adj.tocoo()
    got = {(int(a), int(b)): float(w) for a, b, w in zip(adj.row, adj.col, adj.data) if a < b}
    assert expected and set(got) == set(expected)  # Eq. 2: both conditions, and nothing else
    assert all(math.isclose(got[p], expected[p], rel_tol=1e-6) for p in got)  # Dice weights
    assert (g.adj != g.adj.T).nnz == 0
    assert rec["edges"] == len(got) and rec["candidate_pairs"] >= rec["edges"]
    assert np.array_equal(g.df, df.astype(np.int64))
    assert build_concept_graph(index, LOOSE)["built"] == rec["built"]  # reused, not rebuilt


def test_ablation_variants_are_separate_stages(built_index):
    index = EdgeRAG(built_index).index
    base = load_concept_graph(index, LOOSE)
    unfiltered = load_concept_graph(index, LOOSE.replace(concept_similarity_filter=False))
    assert stage(LOOSE) != stage(LOOSE.replace(concept_similarity_filter=False))
    a, b = base.adj, unfiltered.adj
    assert b.nnz > a.nnz and (a.multiply(b > 0) != a).nnz == 0  # the filter only removes edges
    sentence = load_concept_graph(index, LOOSE.replace(concept_cooccurrence="sentence"))
    assert 0 < sentence.adj.nnz != a.nnz
    # chunk-averaged concept vectors: the normalised mean of the vectors of the chunks holding the word
    chunky = load_concept_graph(index, LOOSE.replace(concept_vectors="chunk"))
    w = list(map(str, chunky.vocab)).index("zorblax")
    rows = chunky.T[:, w].nonzero()[0]
    mean = index.vectors["chunks"].get([str(chunky.ids[r]) for r in rows]).mean(axis=0)
    assert np.allclose(chunky.vectors[w], mean / np.linalg.norm(mean), atol=1e-5)
    assert not np.allclose(chunky.vectors[w], base.vectors[w], atol=1e-3)
    top = load_concept_graph(index, LOOSE.replace(concepts_per_chunk=5))
    assert np.diff(top.T.indptr).max() <= 5 and top.T.nnz < base.T.nnz


def test_concept_core_ranks_chunks_by_their_concepts_pagerank(built_index):
    index = EdgeRAG(built_index).index
    g = load_concept_graph(index, LOOSE)
    graph = nx.from_scipy_sparse_array(g.adj)
    pr = nx.pagerank(graph, alpha=0.85, tol=1e-12, weight="weight")
    rank = np.asarray([pr[i] for i in range(g.adj.shape[0])])
    assert np.allclose(g.concept_rank, rank, atol=1e-8)
    score = g.T @ rank  # a chunk's score: the sum over the concepts it holds
    n = len(g.ids)
    core = concept_core(index, 0.25, LOOSE)
    assert len(core) == math.ceil(0.25 * n) == len(set(core))
    assert set(core) == {str(g.ids[i]) for i in np.argsort(-score)[: len(core)]}
    assert core == core_chunks(index, 0.25, "concept", LOOSE)
    with pytest.raises(ValueError, match="κ"):
        concept_core(index, 1.5, LOOSE)


def test_concept_retrieval_finds_the_planted_passage_and_explains_itself(built_index):
    rag = EdgeRAG(built_index, LOOSE)
    ctx = rag.retrieve(PLANTED_QUESTION, method="concept", budget=1500)
    assert 0 < ctx.tokens <= 1500 and len({u.id for u in ctx.units}) == len(ctx.units)
    assert all(u.kind == "chunk" and u.source == "concept" for u in ctx.units if "piece_of" not in u.meta)
    assert all(u.kind in ("subchunk", "sentence") for u in ctx.units if "piece_of" in u.meta)
    assert any(PLANTED_ANSWER in u.text for u in ctx.units)
    first = ctx.units[0]
    assert first.meta["path"] == "direct" and first.meta["concept"] in keyword_set(first.text)
    # local rerank: inside one direct concept, chunks come best cosine first
    by_concept: dict[str, list[float]] = {}
    for u in ctx.units:
        if u.meta["path"] == "direct":
            by_concept.setdefault(u.meta["concept"], []).append(u.score)
    assert all(s == sorted(s, reverse=True) for s in by_concept.values())


def test_bfs_expansion_and_the_naive_rerank(built_index):
    rag = EdgeRAG(built_index, LOOSE.replace(theta_co=1, concept_top_k=1, concept_hops=2))
    ctx = rag.retrieve(PLANTED_QUESTION, method="concept", budget=6000)
    paths = [u.meta["path"] for u in ctx.units]
    assert "expanded" in paths and paths == sorted(paths, key=lambda p: p != "direct")  # direct, then expanded
    expanded = [u.score for u in ctx.units if u.meta["path"] == "expanded"]
    assert expanded == sorted(expanded, reverse=True)  # global rerank
    no_hops = EdgeRAG(built_index, LOOSE.replace(theta_co=1, concept_top_k=1, concept_hops=0)).retrieve(
        PLANTED_QUESTION, method="concept", budget=6000
    )
    assert {u.meta["path"] for u in no_hops.units} == {"direct"} and len(no_hops.units) < len(ctx.units)
    naive = EdgeRAG(built_index, LOOSE.replace(concept_rerank="naive")).retrieve(PLANTED_QUESTION, method="concept", budget=3000)
    scores = [u.score for u in naive.units]
    assert scores == sorted(scores, reverse=True) and {u.meta["path"] for u in naive.units} == {"pooled"}


def test_bad_concept_settings_are_refused():
    with pytest.raises(ValueError, match="concept_rerank"):
        Settings(concept_rerank="fancy").validate()
    with pytest.raises(ValueError, match="λ_w"):
        Settings(lambda_w=2).validate()
