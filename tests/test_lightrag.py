"""LightRAG dual-level retrieval (#8): the query-keywords parser, and the three modes over a
KG built by the scripted extractor of test_methods.py (the real model drives the same path in
test_extract.py)."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.extract.query_keywords import parse
from edgerag.llm.local import Completion
from edgerag.llm.metered import MeteredLLM

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import KeyedLLM


def test_parser_reads_lines_json_and_bullets_and_falls_back_to_the_question():
    q = "Who sealed the Zorblax vault?"
    got = parse("LOW: Zorblax vault, Edith Varga\nHIGH: sealing, astronomy", q)
    assert got.low == ["Zorblax vault", "Edith Varga"] and got.high == ["sealing", "astronomy"] and not got.fallback
    got = parse('{"high_level_keywords": ["history"], "low_level_keywords": ["Zorblax vault"]}', q)
    assert got.low == ["Zorblax vault"] and got.high == ["history"]
    got = parse("- **Low-level keywords**: vault\n* High level: secrecy.", q)
    assert got.low == ["vault"] and got.high == ["secrecy"]
    assert parse("LOW: vault", q).high == ["vault"]  # one level stands for the missing one
    for junk in ("", "I cannot help with that.", "{broken json", "LOW:\nHIGH: none"):
        got = parse(junk, q)
        assert got.fallback and got.low == got.high == [q], junk


class KeywordLLM(KeyedLLM):
    """KG lines for extraction prompts; fixed keywords (or junk) for query-keywords prompts."""

    def __init__(self, reply="LOW: Zorblax vault\nHIGH: sealed"):
        super().__init__()
        self.reply = reply

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        if "Give the keywords of the question" in prompt:
            return Completion(self.reply, len(prompt.split()), len(prompt.split()), len(self.reply.split()), 0.01, "stop")
        return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)


@pytest.fixture
def lightrag(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0)
    rag.insert([DATA / "planted"])
    rag.__dict__["llm"] = MeteredLLM(KeywordLLM(), rag.index.tables)
    rag.build("lightrag-local")
    return rag


def test_local_matches_entities_global_matches_relations_hybrid_has_both(lightrag):
    rag = lightrag
    local = rag.retrieve(PLANTED_QUESTION, method="lightrag-local", budget=300)
    assert local.notes["keywords"] == {"low": ["Zorblax vault"], "high": ["sealed"], "fallback": False}
    assert local.units[0].kind == "entity" and local.units[0].id == "entity:Zorblax vault"
    assert any(u.kind == "relation" for u in local.units)  # one hop from the matched entities
    assert any(PLANTED_ANSWER in u.text for u in local.units if u.kind == "subchunk")  # their source text
    profile_tokens = sum(u.tokens for u in local.units if u.kind in ("entity", "relation"))
    assert local.tokens <= 300 and profile_tokens <= 150

    glob = rag.retrieve(PLANTED_QUESTION, method="lightrag-global", budget=300)
    assert glob.units[0].kind == "relation" and "sealed" in glob.units[0].text
    first_entity = next(i for i, u in enumerate(glob.units) if u.kind == "entity")
    assert all(u.kind == "relation" for u in glob.units[:first_entity])  # endpoints follow the relations

    hybrid = rag.retrieve(PLANTED_QUESTION, method="lightrag-hybrid", budget=600)
    assert {u.source for u in hybrid.units} == {"lightrag-hybrid:local", "lightrag-hybrid:global"}
    assert len({u.id for u in hybrid.units}) == len(hybrid.units) and hybrid.tokens <= 600
    # one fresh keywords call per question: the other modes read the LLM cache
    calls = rag.ledger()["by_stage"]["query-keywords"]
    assert calls["calls"] == 3 and calls["cached_calls"] == 2


def test_a_model_that_gives_no_keywords_falls_back_to_the_question(lightrag):
    rag = lightrag
    rag.__dict__["llm"] = MeteredLLM(KeywordLLM("Sure! Here are some thoughts."), rag.index.tables)
    ctx = rag.retrieve(PLANTED_QUESTION, method="lightrag-local", budget=300)
    assert ctx.notes["keywords"]["fallback"] and ctx.notes["keywords"]["low"] == [PLANTED_QUESTION]
    assert any(PLANTED_ANSWER in u.text for u in ctx.units)
    assert rag.ledger()["by_stage"]["query-keywords"]["failed_calls"] == 1
