"""No method answers "0 units" while the index holds text (issue #30): a unit too big for the
room left gives way to its best sub-chunks or sentences (context.fill_room), for every
method in the registry. The LLM stages are built by a scripted model (keyed on the passage);
the real model drives the same builds in test_extract.py, test_terag.py and test_lightrag.py."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag import methods as registry
from edgerag.context import fill_budget, fill_room, recording_skipped
from edgerag.llm.local import Completion
from edgerag.llm.metered import MeteredLLM

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import KeyedLLM, NamesLLM

BUDGET = 32
"""Below every planted chunk (40–75 tokens), above the sentence that holds the answer."""


class EveryStageLLM(KeyedLLM):
    """KG lines for extraction, TERAG's names for names prompts, keywords and query entities
    for the query-time calls of LightRAG and TERAG."""

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        def reply(text):
            return Completion(text, len(prompt.split()), len(prompt.split()), len(text.split()), 0.01, "stop")

        if "For each numbered passage" in prompt:
            return NamesLLM().complete(prompt, stop, max_tokens)
        if "Give the keywords of the question" in prompt:
            return reply("LOW: Zorblax vault\nHIGH: access code")
        if "List the named entities in the question" in prompt:
            return reply("Zorblax vault")
        return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)


@pytest.fixture(scope="module")
def every_method(tmp_path_factory):
    rag = EdgeRAG(tmp_path_factory.mktemp("fill") / "ix", progress=False, beta=1.0, kappa=1.0, terag_batch=3)
    rag.insert([DATA / "planted"])
    rag.__dict__["llm"] = MeteredLLM(EveryStageLLM(), rag.index.tables)
    for method in registry.names():
        rag.build(method)
    yield rag
    rag.close()


@pytest.mark.parametrize("method", registry.names())
def test_no_method_answers_nothing_when_every_chunk_is_bigger_than_the_budget(every_method, method):
    rag = every_method
    chunk_tokens = [c["tokens"] for c in rag.index.get_many("chunks", rag.index.ids("chunks"))]
    assert min(chunk_tokens) > BUDGET  # the corpus this test needs
    ctx = rag.retrieve(PLANTED_QUESTION, method=method, budget=BUDGET)
    assert ctx.units, f"{method}: 0 units on an index full of text"
    assert 0 < ctx.tokens <= BUDGET
    assert len({u.id for u in ctx.units}) == len(ctx.units)
    assert all(u.provenance.get("file") for u in ctx.units if u.kind in ("chunk", "subchunk", "sentence"))


@pytest.mark.parametrize("method", ["text", "bridge", "bridge-ppr", "knng", "keyword", "concept"])
def test_the_pieces_are_the_ones_nearest_the_question(every_method, method):
    """Methods that rank whole chunks read the chunk's best sentence: the one with the answer."""
    ctx = every_method.retrieve(PLANTED_QUESTION, method=method, budget=BUDGET)
    pieces = [u for u in ctx.units if u.meta.get("piece_of")]
    assert pieces and ctx.notes["pieces"] == len(pieces)
    assert PLANTED_ANSWER in ctx.text()
    assert all(u.kind in ("subchunk", "sentence") for u in pieces)


def test_a_budget_that_fits_whole_chunks_takes_no_pieces(every_method):
    ctx = every_method.retrieve(PLANTED_QUESTION, method="text", budget=2000)
    assert ctx.units and all(u.kind == "chunk" for u in ctx.units) and "pieces" not in ctx.notes


def test_pieces_never_repeat_text_already_in_the_context(every_method):
    """A sub-chunk already taken keeps its chunk's overlapping sentences out."""
    rag = every_method
    index = rag.index
    cid = next(k for k in index.ids("chunks") if "Zorblax" in index.get("chunks", k)["text"])
    chunk = index.get("chunks", cid)
    from edgerag.retrieve.units import load_units

    whole = load_units(index, "chunks", [(cid, 1.0)], source="t")
    sent = load_units(index, "sentences", [(chunk["sentences"][0], 1.0)], source="t")
    with recording_skipped() as skipped:
        from edgerag.types import Context

        ctx = Context(PLANTED_QUESTION, "t", BUDGET, fill_budget(sent + whole, BUDGET))
    assert [u.id for u in skipped] == [cid]
    fill_room(index, rag.embedder, rag.embedder.encode_one(PLANTED_QUESTION), ctx, skipped)
    ids = [u.id for u in ctx.units]
    assert ids[0] == chunk["sentences"][0] and ids.count(chunk["sentences"][0]) == 1
    assert ctx.tokens <= BUDGET and len(ids) > 1
