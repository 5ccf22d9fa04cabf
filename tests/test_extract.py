"""KG extraction: the tolerant parser, resumable per-chunk extraction, and the real model
building a skeleton KG that KET-RAG retrieval reads."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG
from edgerag.extract.kg import halt_on_repeat, normalize_name, parse
from edgerag.graph.kg import extract_chunks
from edgerag.retrieve.kg_search import KGNotBuiltError

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import ScriptedLLM

PASSAGE = "Edith Varga sealed the Zorblax vault in 1931. The vault lies under Kettering Hill."


def test_parser_keeps_valid_items_and_counts_the_rest():
    out = "\n".join(
        [
            "E | Edith Varga | PERSON",
            "- C | Zorblax vault | WORK",  # stray tag and a bullet
            "Kettering Hill | LOCATION",  # no tag
            "E | Marie Curie | PERSON",  # copied from an example: not in the passage
            "R | Edith Varga | sealed | Zorblax vault",
            "R | Zorblax vault | lies under | Kettering Hill",
            "R | Edith Varga | born in | Warsaw",  # endpoint not in the passage
            "Sure! Here are the entities:",
        ]
    )
    ex = parse(out, PASSAGE)
    assert [e.name for e in ex.entities] == ["Edith Varga", "Zorblax vault", "Kettering Hill"]
    assert [(r.source, r.description, r.target) for r in ex.relations] == [
        ("Edith Varga", "sealed", "Zorblax vault"),
        ("Zorblax vault", "lies under", "Kettering Hill"),
    ]
    assert ex.invented == 2 and ex.unparsed == 1 and ex.lines == 8


def test_names_must_be_whole_words_of_the_passage():
    ex = parse("E | vault | WORK\nE | Var | PERSON\nE | Hill | LOCATION", PASSAGE)
    assert [e.name for e in ex.entities] == ["vault", "Hill"] and ex.invented == 1  # "Var" is inside "Varga"


def test_parser_never_raises_on_garbage():
    for junk in ["", "|||", "E |", "R | a", "\x00\x01", "E | " + "x" * 5000, '{"entities": []}']:
        ex = parse(junk, PASSAGE)
        assert ex.entities == [] and ex.relations == []


def test_relation_endpoints_join_the_entities_and_names_merge():
    ex = parse("R | Edith Varga | Zorblax vault | sealed it in 1931 | 8", PASSAGE)  # older 5-field form
    assert {e.name for e in ex.entities} == {"Edith Varga", "Zorblax vault"} and ex.relations[0].strength == 8
    assert normalize_name('  "Zorblax   Vault".') == normalize_name("zorblax vault")


def test_halt_on_a_repeated_line():
    assert not halt_on_repeat("E | a | PERSON\nE | b | PERSON\n")
    assert halt_on_repeat("R | a | x | b\nR | a | x | b\n")


def test_extraction_is_resumable_and_counts_zero_yield(index_copy):
    rag = EdgeRAG(index_copy)
    planted = [d for d, rec in _docs(rag).items() if rec["title"] in ("The Zorblax vault", "lighthouse")]
    cids = [c for d in planted for c in _docs(rag)[d]["chunks"]]
    scripted = ScriptedLLM(["E | Edith Varga | PERSON\nR | Edith Varga | sealed | Zorblax vault", "nothing useful"])
    from edgerag.llm.metered import MeteredLLM

    llm = MeteredLLM(scripted, rag.index.tables)
    first = extract_chunks(rag.index, llm, cids, "ket", progress=False)
    assert first.extracted == 2 and first.entities == 2 and len(first.zero_yield) == 1
    assert rag.ledger()["by_stage"]["extract"]["failed_calls"] == 1
    again = extract_chunks(rag.index, llm, cids, "ket", progress=False)
    assert again.extracted == 0 and again.already == 2  # nothing is extracted twice


class FailingLLM(ScriptedLLM):
    """Answers the first chunk, then dies like a killed process would."""

    def complete(self, *args, **kwargs):
        if not self.replies:
            raise KeyboardInterrupt
        return super().complete(*args, **kwargs)


def test_an_interrupted_extraction_keeps_the_chunks_it_finished(index_copy):
    from edgerag.llm.metered import MeteredLLM

    rag = EdgeRAG(index_copy)
    cids = [c for d in _docs(rag).values() for c in d["chunks"]][:3]
    llm = MeteredLLM(FailingLLM(["E | x | PERSON"]), rag.index.tables)
    with pytest.raises(KeyboardInterrupt):
        extract_chunks(rag.index, llm, cids, "ket", progress=False)
    assert rag.index.get("extractions", cids[0]) is not None
    assert rag.index.get("extractions", cids[1]) is None
    resumed = extract_chunks(
        rag.index, MeteredLLM(ScriptedLLM(["E | y | PERSON", "E | z | PERSON"]), rag.index.tables), cids, "ket", progress=False
    )
    assert resumed.already == 1 and resumed.extracted == 2


def _docs(rag):
    with rag.index.tables.read() as txn:
        return dict(rag.index.tables.items(txn, "docs"))


@pytest.mark.model
def test_real_model_builds_a_kg_that_ket_retrieval_reads(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0)
    rag.insert([DATA / "planted"])
    with pytest.raises(KGNotBuiltError, match="edgerag build --method ket"):
        rag.retrieve(PLANTED_QUESTION, method="ket")
    plan = rag.plan("ket")
    assert plan.core_chunks == plan.to_extract == 3 and plan.input_tokens > 0
    result = rag.build("ket")
    ex = result["extraction"]
    assert ex["extracted"] == 3 and ex["entities"] >= 3
    assert result["kg"]["entities"] >= 3
    ledger = rag.ledger()["by_stage"]["extract"]
    assert ledger["calls"] == 3 and ledger["output"] > 0
    names = {
        e["name"].lower()
        for rec in rag.index.get_many("extractions", [c for d in _docs(rag).values() for c in d["chunks"]])
        for e in rec["entities"]
    }
    assert any("zorblax" in n or "edith varga" in n or "kettering" in n for n in names), names
    ctx = rag.retrieve(PLANTED_QUESTION, method="ket", budget=500)
    assert ctx.tokens <= 500 and {u.kind for u in ctx.units} & {"entity", "relation"}
    assert any(PLANTED_ANSWER in u.text for u in ctx.units)
    kg_only = rag.retrieve(PLANTED_QUESTION, method="kg", budget=400)  # β=1 core is this same KG
    assert kg_only.units and all(u.source == "kg" for u in kg_only.units)
    # a second build spends no fresh tokens
    before = rag.ledger()["all"]["input"]
    assert rag.build("ket")["extraction"]["extracted"] == 0 and rag.ledger()["all"]["input"] == before
    # G2ConS's core KG goes through the same extraction stage: κ = 1 covers the same chunks, free
    rag.settings = rag.settings.replace(kappa=1.0, theta_co=1)
    g2 = rag.build("g2cons")
    assert g2["extraction"]["already"] == 3 and rag.ledger()["all"]["input"] == before
    ctx = rag.retrieve(PLANTED_QUESTION, method="g2cons", budget=500)
    assert {u.source for u in ctx.units} == {"g2cons:concept", "g2cons:kg"}
    assert any(PLANTED_ANSWER in u.text for u in ctx.units)
    # LightRAG reads the same KG; its query keywords are one short call of the real model
    lr = rag.retrieve(PLANTED_QUESTION, method="lightrag-hybrid", budget=500)
    assert not lr.notes["keywords"]["fallback"] and any(PLANTED_ANSWER in u.text for u in lr.units)
    assert rag.ledger()["by_stage"]["query-keywords"]["calls"] == 1
    json.dumps(result, default=str)  # the report is plain data
