"""Graph peek on real stages: link keys, KET-RAG keywords and the TERAG graph of the planted
documents (TERAG's names from a scripted model: the graph and the peek are real)."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.llm.metered import MeteredLLM
from edgerag.peek import peek, suggest

from .conftest import DATA, PLANTED_QUESTION
from .helpers import NamesLLM


@pytest.fixture
def rag(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([DATA / "planted"])
    return rag


def test_peek_reads_only_built_graphs_and_finds_a_name_in_each(rag):
    assert peek(rag.index, "Kettering Hill") == []  # nothing built yet, and peek builds nothing
    rag.retrieve(PLANTED_QUESTION, method="bridge")  # builds the link graph
    rag.retrieve(PLANTED_QUESTION, method="keyword")  # builds the keyword bipartite graph
    rag.__dict__["llm"] = MeteredLLM(NamesLLM(), rag.index.tables)
    rag.build("terag")

    by_graph = {n.graph: n for n in peek(rag.index, "edith  VARGA")}  # case and spacing ignored
    assert set(by_graph) == {"terag"}
    varga = by_graph["terag"]
    assert varga.kind == "entity" and varga.label == "Edith Varga" and varga.linked_passages == 1
    assert {"Zorblax vault", "Kettering Hill", "vaults"} <= {name for name, _ in varga.neighbours}
    assert "Arthur Quell" not in {name for name, _ in varga.neighbours}
    assert "tangerine-42" in varga.passages[0].text and varga.passages[0].title == "The Zorblax vault"

    graphs = {n.graph: n for n in peek(rag.index, "zorblax", neighbours=100)}
    assert graphs["bipartite"].kind == "keyword" and graphs["bipartite"].passages[0].title == "The Zorblax vault"
    assert "vault" in {name for name, _ in graphs["bipartite"].neighbours}
    assert "orchard" not in {name for name, _ in graphs["bipartite"].neighbours}

    assert {"kettering", "Kettering Hill"} <= set(suggest(rag.index, "Kettering"))  # a keyword, a TERAG name
    with pytest.raises(ValueError, match="empty"):
        peek(rag.index, "  ")


def test_configure_changes_method_settings_but_never_the_stored_ones(rag):
    rag.configure(beta=0.5, knn_k=4)
    assert rag.settings.beta == 0.5 and rag.settings.knn_k == 4
    with pytest.raises(ValueError, match="chunk_tokens cannot change"):
        rag.configure(chunk_tokens=600)
    assert rag.settings.chunk_tokens == 1200
    with pytest.raises(ValueError):
        rag.configure(beta=1.5)  # validated like any Settings
    assert rag.settings.beta == 0.5
