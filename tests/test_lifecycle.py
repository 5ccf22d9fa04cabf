"""Incremental insert and clean delete (#8), over real LMDB, hnswlib and the MiniLM embedder.

Extraction is scripted (keyed on the passage, as in test_methods.py / test_terag.py) so every
KG method can be built in seconds; what is under test is what the index keeps and forgets.
"""

from __future__ import annotations

import json
import time

import pytest

from edgerag import EdgeRAG
from edgerag import methods as registry
from edgerag.cli.main import main
from edgerag.llm.local import Completion
from edgerag.llm.metered import MeteredLLM

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION, read_jsonl
from .helpers import REPLIES, NamesLLM

LIGHTHOUSE_QUESTION = "Who kept the lighthouse at Pellmore Point?"


class PassageLLM(NamesLLM):
    """KG lines for a KG prompt, TERAG names for a names or query prompt; remembers every
    passage it was asked to extract."""

    def __init__(self):
        super().__init__()
        self.kg_passages: list[str] = []

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        if "E | entity name | type" in prompt:
            passage = prompt.split("Passage:")[-1]
            self.kg_passages.append(passage)
            text = next((r for k, r in REPLIES.items() if k in passage), "")
            return Completion(text, len(prompt.split()), len(prompt.split()), len(text.split()), 0.01, "stop")
        return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)


def _corpus(tmp_path, lines, name):
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def rag(tmp_path, small_corpus):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0, kappa=1.0, terag_batch=3)
    rag.insert([small_corpus, DATA / "planted"])
    rag.__dict__["llm"] = MeteredLLM(PassageLLM(), rag.index.tables)
    for method in ("kg", "ket-u", "g2cons", "terag"):
        rag.build(method)
    return rag


def _retrieve_all(rag, question):
    return {m: rag.retrieve(question, method=m, budget=1500) for m in registry.names()}


def test_delete_leaves_no_trace_in_any_method(rag, tmp_path):
    doc = next(d for d in rag.documents() if d["source"].endswith("zorblax.md"))
    before = _retrieve_all(rag, PLANTED_QUESTION)
    for method, ctx in before.items():  # the planted document is reachable by every method first
        assert any(u.doc_id == doc["id"] for u in ctx.units), method
    reader = EdgeRAG(rag.path, progress=False)  # another reader, its hnswlib cache loaded before the delete
    assert reader.retrieve(PLANTED_QUESTION, method="text").units[0].doc_id == doc["id"]

    report = rag.delete([doc["id"]])
    assert report.deleted == [doc["id"]] and report.chunks == doc["chunks"] == 1
    assert report.vectors >= 3 and report.extractions == 1 and report.names == 1
    assert report.llm_calls >= 2  # its KG extraction and the TERAG batch that read it
    assert {"kg:pagerank:1", "kg:random:1", "kg:concept:1", "terag"} <= set(report.stages_rebuilt)

    for method, ctx in _retrieve_all(rag, PLANTED_QUESTION).items():
        assert not any(u.doc_id == doc["id"] for u in ctx.units), method
        assert not any(PLANTED_ANSWER in u.text or "Zorblax" in u.text for u in ctx.units), method
    for method in ("text", "knng", "bridge"):
        assert all(u.doc_id != doc["id"] for u in reader.retrieve(PLANTED_QUESTION, method=method).units), method
    fresh = EdgeRAG(rag.path, progress=False)  # a new process reads the saved caches
    assert all(u.doc_id != doc["id"] for u in fresh.retrieve(PLANTED_QUESTION, method="text", budget=5000).units)

    # everything else is still there: the lighthouse keeper by every kind of retriever
    kg = rag.retrieve(LIGHTHOUSE_QUESTION, method="kg", budget=400)
    assert any(u.kind == "entity" and "Arthur Quell" in u.text for u in kg.units)
    assert "Arthur Quell" in rag.retrieve(LIGHTHOUSE_QUESTION, method="terag", budget=400).units[0].text
    with rag.index.tables.read() as txn:
        cached = [json.loads(bytes(v)) for _, v in txn.cursor(db=rag.index.tables.db["llm_cache"])]
    assert cached and not any(c.startswith(doc["id"] + ":") for e in cached for c in e.get("chunks", []))
    counts = rag.index.counts()
    assert counts["docs"] == 42 and counts["chunks"] == len(rag.index.vectors["chunks"]) == 42

    # the next build re-ranks the core over what remains: no fresh LLM call for the survivors
    calls = rag.ledger()["by_stage"]["extract"]["calls"]
    rag.build("kg")
    assert rag.ledger()["by_stage"]["extract"]["calls"] == calls
    assert main(["delete", doc["id"], "--index", str(rag.path), "-q"]) == 1  # gone already: says so


@pytest.mark.slow
def test_insert_a_then_b_extracts_only_b_and_matches_a_build_of_both(tmp_path, small_corpus):
    lines = read_jsonl(small_corpus)
    a, b = _corpus(tmp_path, lines[:20], "a"), _corpus(tmp_path, lines[20:], "b")
    grown = EdgeRAG(tmp_path / "grown", progress=False, beta=1.0)
    grown.insert([a])
    fake = PassageLLM()
    grown.__dict__["llm"] = MeteredLLM(fake, grown.index.tables)
    grown.build("kg")
    assert len(fake.kg_passages) == 20
    t = time.time()
    report = grown.insert([b, DATA / "planted"])
    assert report.docs_added == 23 and report.texts_embedded > 0
    grown.build("kg")
    assert len(fake.kg_passages) == 43 and len(set(fake.kg_passages)) == 43  # no A chunk asked twice
    assert grown.ledger(since=t)["by_stage"]["extract"]["calls"] == 23  # fresh calls: B's chunks only
    assert grown.insert([a]).docs_added == 0  # a grown folder indexed again adds nothing

    scratch = EdgeRAG(tmp_path / "scratch", progress=False, beta=1.0)
    scratch.insert([a, b, DATA / "planted"])
    scratch.__dict__["llm"] = MeteredLLM(PassageLLM(), scratch.index.tables)
    scratch.build("kg")
    questions = [PLANTED_QUESTION, LIGHTHOUSE_QUESTION] + [
        q["question"] for q in read_jsonl(DATA.parent.parent / "edgerag/data/sample/questions.jsonl")[:3]
    ]
    for method in ("text", "knng", "keyword", "concept", "bridge", "bridge-ppr", "kg"):
        for q in questions:
            got = [u.id for u in grown.retrieve(q, method=method, budget=800).units]
            want = [u.id for u in scratch.retrieve(q, method=method, budget=800).units]
            assert got == want, (method, q)
