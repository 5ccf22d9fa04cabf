"""LLM-free KET-RAG stages on real components: KNN graph, PageRank, core chunks, keyword graph."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from edgerag import EdgeRAG, Settings
from edgerag.embed import pieces
from edgerag.graph.bipartite import STAGE as BIPARTITE
from edgerag.graph.bipartite import build_keyword_graph
from edgerag.graph.core_chunks import core_chunks
from edgerag.graph.knn import build_knn_graph, load_knn_graph
from edgerag.graph.pagerank import pagerank, ppr_push, walk_of
from edgerag.store.stages import load_arrays
from edgerag.text.keywords import keyword_set

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION


def test_pagerank_matches_networkx():
    g = nx.gnp_random_graph(60, 0.08, seed=3, directed=True)
    a = nx.to_scipy_sparse_array(g, nodelist=range(60))
    ref = nx.pagerank(g, alpha=0.85, tol=1e-12)
    assert np.allclose(pagerank(a), [ref[i] for i in range(60)], atol=1e-8)
    p = np.zeros(60)
    p[[2, 5]] = [1.0, 3.0]
    ref = nx.pagerank(g, alpha=0.85, personalization={i: p[i] for i in range(60)}, tol=1e-12)
    assert np.allclose(pagerank(a, personalization=p), [ref[i] for i in range(60)], atol=1e-8)
    walk = walk_of(a)  # prepared once, as bridge-ppr keeps it across queries
    assert np.array_equal(pagerank(walk, personalization=p), pagerank(a, personalization=p))
    with pytest.raises(ValueError):
        pagerank(a, personalization=np.zeros(60))


def test_ppr_push_is_a_lower_bound_that_converges_to_the_walk():
    # a path 0-1-…-59 of two-way edges plus networkx's random digraph; node 59's out-edges are
    # removed, so it is dangling and its mass must restart at the seeds as pagerank restarts it
    g = nx.gnp_random_graph(60, 0.05, seed=7, directed=True)
    g.add_edges_from((i, i + 1) for i in range(59))
    g.add_edges_from((i + 1, i) for i in range(59))
    g.remove_edges_from(list(g.out_edges(59)))
    walk = walk_of(nx.to_scipy_sparse_array(g, nodelist=range(60)))
    assert walk.dangling.tolist() == [59]
    seeds, weights = np.array([3, 59]), np.array([2.0, 1.0])
    p = np.zeros(60)
    p[seeds] = weights
    exact = pagerank(walk, personalization=p, tol=1e-14, max_iter=1000)
    errors = []
    for eps in (1e-2, 1e-4, 1e-6, 1e-9):
        nodes, mass = ppr_push(walk, seeds, weights, damping=0.85, eps=eps)
        est = np.zeros(60)
        est[nodes] = mass
        assert np.all(est <= exact + 1e-12)  # never above the true PPR
        errors.append(np.abs(exact - est).sum())
    assert errors == sorted(errors, reverse=True) and errors[-1] < 1e-6 < errors[0]
    # a coarse push stays near the seeds: it does not touch every node as power iteration does
    nodes, _ = ppr_push(walk, seeds, weights, damping=0.85, eps=1e-2)
    assert set(seeds) <= set(nodes.tolist()) and len(nodes) < 60
    for bad in (dict(weights=np.array([0.0])), dict(eps=0.0), dict(damping=1.0)):
        with pytest.raises(ValueError):
            ppr_push(walk, np.array([1]), **{"weights": np.array([1.0]), **bad})


def test_knn_graph_links_lexical_and_cosine_neighbours(built_index):
    rag = EdgeRAG(built_index)
    rec = build_knn_graph(rag.index, k=2)
    knn = load_knn_graph(rag.index)
    ids, adj, tokens = knn.chunk_ids, knn.adj, knn.tokens
    n = len(ids)
    assert rec["chunks"] == n == rag.stats()["counts"]["chunks"]
    assert rec["lexical_links"] <= n and rec["cosine_links"] == n
    assert (adj != adj.T).nnz == 0  # undirected
    assert np.all(np.diff(adj.indptr) >= 1)  # every chunk has a neighbour
    assert adj.diagonal().sum() == 0
    # the lexical neighbour of a chunk shares at least one keyword with it
    recs = rag.index.get_many("chunks", ids)
    kws = [set(r["keywords"]) for r in recs]
    for i in range(n):
        assert any(kws[i] & kws[j] for j in adj.indices[adj.indptr[i] : adj.indptr[i + 1]]) or not kws[i]
    assert tokens.tolist() == [r["tokens"] for r in recs]
    assert build_knn_graph(rag.index, k=2)["built"] == rec["built"]  # reused, not rebuilt


def test_core_chunks_take_ceil_beta_n_by_pagerank(built_index):
    index = EdgeRAG(built_index).index
    n = index.counts()["chunks"]
    core = core_chunks(index, 0.2)
    assert len(core) == math.ceil(0.2 * n) and len(set(core)) == len(core)
    assert core == core_chunks(index, 0.2)  # deterministic
    knn = load_knn_graph(index)
    ids, adj = knn.chunk_ids, knn.adj
    pr = pagerank(adj)
    ranked = {ids[i] for i in np.argsort(-pr)[: len(core)]}
    assert set(core) == ranked
    uniform = core_chunks(index, 0.2, "random", Settings(seed=1))
    assert len(uniform) == len(core) and uniform == core_chunks(index, 0.2, "random", Settings(seed=1))
    assert core_chunks(index, 1.0) and len(core_chunks(index, 1.0)) == n
    with pytest.raises(ValueError):
        core_chunks(index, 1.5)


def test_keyword_vectors_are_means_of_their_sentences(built_index):
    rag = EdgeRAG(built_index)
    pieces.embed_missing(rag.index, rag.embedder)  # what `build` does first (the stage "pieces")
    rec = build_keyword_graph(rag.index)
    g = load_arrays(rag.index.tables, BIPARTITE)
    vocab = [str(w) for w in g["vocab"]]
    assert rec["keywords"] == len(vocab) and g["B"].shape == (rec["subchunks"], len(vocab))
    word = "zorblax"
    sent_ids, sent_vecs = rag.index.vectors["sentences"].all()
    scanned = list(rag.index.vectors["sentences"].scan(7))  # the stage reads them so, 7 at a time here
    assert [i for ids, _ in scanned for i in ids] == sent_ids and np.array_equal(np.concatenate([v for _, v in scanned]), sent_vecs)
    sents = rag.index.get_many("sentences", sent_ids)
    having = [i for i, s in enumerate(sents) if word in keyword_set(s["text"])]
    assert len(having) >= 2
    mean = sent_vecs[having].mean(axis=0)
    assert np.allclose(g["keyword_vectors"][vocab.index(word)], mean / np.linalg.norm(mean), atol=1e-5)
    # and the sub-chunks that hold the word link to it
    col = g["B"][:, vocab.index(word)].toarray().ravel()
    linked = [str(g["ids"][i]) for i in np.flatnonzero(col)]
    assert linked and all("zorblax" in s["text"].lower() for s in rag.index.get_many("subchunks", linked))


@pytest.mark.parametrize("method", ["keyword", "knng"])
def test_llm_free_graph_methods_find_the_planted_fact(built_index, method):
    ctx = EdgeRAG(built_index).retrieve(PLANTED_QUESTION, method=method, budget=600)
    assert 0 < ctx.tokens <= 600
    assert any(PLANTED_ANSWER in u.text for u in ctx.units[:3]), [u.text[:60] for u in ctx.units[:3]]
    assert ctx.method == method and all(u.source == method for u in ctx.units)
