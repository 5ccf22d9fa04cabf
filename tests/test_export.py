"""Graphs leave edgerag as GraphML or JSON that networkx reads back, with labels, types,
passage ids and weights (for Gephi and Cytoscape)."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from edgerag import EdgeRAG
from edgerag.llm.metered import MeteredLLM

from .conftest import DATA, PLANTED_QUESTION
from .helpers import KeyedLLM, NamesLLM


@pytest.fixture
def graphs_rag(tmp_path, small_corpus):
    """40 sample passages and the planted documents with every graph built: LLM-free ones by a
    query each, the KG and TERAG's names by scripted extractors (the real model's graphs are
    tested elsewhere)."""
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0, terag_batch=3)
    rag.insert([small_corpus, DATA / "planted"])
    for method in ("bridge", "concept", "knng"):
        rag.retrieve(PLANTED_QUESTION, method=method, budget=300)
    rag.__dict__["llm"] = MeteredLLM(KeyedLLM(), rag.index.tables)
    rag.build("kg")
    rag.__dict__["llm"] = MeteredLLM(NamesLLM(), rag.index.tables)
    rag.build("terag")
    return rag


def test_every_graph_round_trips_through_networkx(graphs_rag, tmp_path):
    rag = graphs_rag
    chunks = set(rag.index.ids("chunks"))
    for graph in ("kg", "links", "concepts", "terag", "knn"):
        for fmt in ("graphml", "json"):
            out = rag.export_graph(graph, tmp_path / f"{graph}.{fmt}")
            if fmt == "graphml":
                g = nx.read_graphml(out.path)
            else:
                g = nx.node_link_graph(json.loads(out.path.read_text()), edges="edges")
            assert (g.number_of_nodes(), g.number_of_edges()) == (out.nodes, out.edges) and out.edges > 0, (graph, fmt)
            types = {d["type"] for _, d in g.nodes(data=True)}
            assert all("label" in d for _, d in g.nodes(data=True)), graph
            assert all(d["weight"] > 0 for _, _, d in g.edges(data=True)), graph
            passages = {d["chunk_id"] for _, d in g.nodes(data=True) if d["type"] == "passage"}
            assert passages <= chunks, graph
            if graph == "kg":
                vault = g.nodes["entity:Zorblax vault"]
                assert vault["entity_type"] == "WORK" and vault["passages"] in chunks
                assert g.has_edge("entity:Edith Varga", "entity:Zorblax vault")
            if graph == "links":
                assert passages == chunks and any(t.startswith("key:") for t in types)
                keys = [(n, d) for n, d in g.nodes(data=True) if d["type"].startswith("key:")]
                assert keys and all(g.degree(n) == d["df"] >= 2 for n, d in keys)  # a live key links ≥ 2 passages
            if graph == "terag":
                assert {"entity", "concept", "passage"} <= types
            if graph == "concepts":
                assert types == {"concept"} and all(d["passages"] for _, d in g.nodes(data=True))


def test_export_refuses_what_is_not_there(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([DATA / "planted"])
    with pytest.raises(ValueError, match="no KG is built"):
        rag.export_graph("kg", tmp_path / "kg.graphml")
    with pytest.raises(ValueError, match="edgerag build --method bridge"):
        rag.export_graph("links", tmp_path / "links.graphml")
    with pytest.raises(ValueError, match="graphml, json"):
        rag.export_graph("links", tmp_path / "links.gexf")
    with pytest.raises(ValueError, match="one of kg, links"):
        rag.export_graph("nope", tmp_path / "x.json")
