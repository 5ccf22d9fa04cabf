"""The LLM layer: model files, the real default GGUF, answers with citations, cache, ledger."""

from __future__ import annotations

import hashlib

import pytest

from edgerag import EdgeRAG
from edgerag.answer.citations import parse_citations
from edgerag.answer.plan import whole_read_budget
from edgerag.answer.reply import clean_answer
from edgerag.llm.local import LocalLLM, PromptTooLongError
from edgerag.llm.metered import MeteredLLM
from edgerag.llm.models import DEFAULT_MODEL, KNOWN_MODELS, KnownModel, ModelError, assemble, resolve_model
from edgerag.store.tables import Tables
from edgerag.types import Unit

from .conftest import PLANTED_QUESTION
from .helpers import ScriptedLLM


# ---- model files ---------------------------------------------------------------------------
def test_missing_and_non_gguf_files_are_refused(tmp_path):
    with pytest.raises(ModelError, match="no model file"):
        resolve_model(str(tmp_path / "nope.gguf"))
    fake = tmp_path / "fake.gguf"
    fake.write_text("this is not a model")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        resolve_model(str(fake))


@pytest.mark.model
def test_truncated_gguf_is_a_clear_error(tmp_path):
    real = resolve_model()
    cut = tmp_path / "cut.gguf"
    with open(real, "rb") as src, open(cut, "wb") as dst:
        dst.write(src.read(20_000_000))
    with pytest.raises(ModelError, match="truncated or corrupt"):
        LocalLLM(cut).llama


def test_assembly_verifies_sha256_and_leaves_nothing_on_mismatch(tmp_path):
    parts = []
    for i, data in enumerate([b"GGUF-part-one ", b"part-two"], 1):
        p = tmp_path / f"part{i:02d}.bin"
        p.write_bytes(data)
        parts.append(p)
    whole = b"GGUF-part-one part-two"
    good = KnownModel("t", "t.gguf", len(whole), hashlib.sha256(whole).hexdigest(), "none_", 2, "test")
    out = assemble(good, tmp_path / "models", parts=parts)
    assert out.read_bytes() == whole
    bad = KnownModel("b", "b.gguf", len(whole), "0" * 64, "none_", 2, "test")
    with pytest.raises(ModelError, match="expected"):
        assemble(bad, tmp_path / "models", parts=parts)
    assert not (tmp_path / "models" / "b.gguf").exists() and not list((tmp_path / "models").glob("*.part"))


def test_a_known_model_file_with_wrong_bytes_is_refused(tmp_path):
    m = KNOWN_MODELS[DEFAULT_MODEL]
    impostor = tmp_path / m.filename
    impostor.write_bytes(b"GGUF" + b"\0" * 100)
    with pytest.raises(ModelError, match="expected 491,400,064"):
        resolve_model(str(impostor))


def test_default_model_is_assembled_and_verified():
    path = resolve_model()
    assert path.name == KNOWN_MODELS[DEFAULT_MODEL].filename
    assert path.stat().st_size == KNOWN_MODELS[DEFAULT_MODEL].size


# ---- answers from the real model --------------------------------------------------------------
@pytest.mark.model
def test_answer_cites_the_planted_fact_streams_and_caches(index_copy):
    rag = EdgeRAG(index_copy)
    pieces: list[str] = []
    ctx = rag.retrieve(PLANTED_QUESTION, method="text", budget=400)
    ans = rag.answer(PLANTED_QUESTION, ctx, on_text=pieces.append)
    assert "tangerine" in ans.text.lower(), ans.text
    assert "".join(pieces).strip() == ans.text
    assert ans.citations and ans.citations[0].doc_id == ctx.units[0].doc_id
    assert ans.tokens["input"] > 0 and ans.tokens["output"] > 0 and not ans.cached
    first = rag.ledger()["all"]
    assert first["calls"] == 1 and first["input"] == ans.tokens["input"] and first["output"] == ans.tokens["output"]

    again = rag.answer(PLANTED_QUESTION, ctx)
    assert again.cached and again.text == ans.text and again.tokens["input"] == again.tokens["output"] == 0
    after = rag.ledger()
    assert after["all"]["calls"] == 2 and after["all"]["cached_calls"] == 1
    assert after["all"]["input"] == first["input"] and after["all"]["output"] == first["output"]  # 0 fresh tokens
    assert after["by_stage"]["answer"]["calls"] == 2 and after["by_method"]["text"]["cached_calls"] == 1
    assert rag.llm.spent["calls"] == 2 and rag.llm.spent["cached_output"] == ans.tokens["output"]  # what a caller's difference reads


@pytest.mark.model
def test_context_is_cut_to_the_window_not_truncated(index_copy):
    rag = EdgeRAG(index_copy, n_ctx=1024, answer_reader="passages", answer_budget=4000)
    ctx = rag.retrieve(PLANTED_QUESTION, budget=4000)
    assert ctx.tokens > 1500
    ans = rag.answer(PLANTED_QUESTION, ctx, short=True)
    assert 0 < len(ans.context.units) < len(ctx.units) and ans.dropped_units == len(ctx.units) - len(ans.context.units)
    assert ans.context.units[0].id == ctx.units[0].id  # the best units are kept
    assert ans.tokens["input"] + 48 <= 1024
    with pytest.raises(PromptTooLongError, match="window"):
        rag.llm.llm.check_fits(2000, 48)


@pytest.mark.model
def test_a_small_reader_reads_a_whole_question_at_the_answer_budget(index_copy):
    # The bundled 0.5B model is confused by longer evidence; a 1B+ reader gains from it (issue #41).
    rag = EdgeRAG(index_copy, answer_model=DEFAULT_MODEL)
    assert 4e8 < rag.answer_llm.llm.n_params < 1e9  # read from the real GGUF
    assert rag.whole_budget == rag.settings.answer_budget == 500
    assert whole_read_budget(500, 1_540_000_000) == 1000 and whole_read_budget(500, None) == 500
    rag.configure(answer_whole_budget=800)
    assert rag.whole_budget == 800
    with pytest.raises(ValueError, match="answer_whole_budget"):
        rag.configure(answer_whole_budget=0)


# ---- control flow with a scripted model (parsers, ledger bookkeeping) -------------------------
def test_unusable_output_is_counted_in_the_ledger(tmp_path):
    tables = Tables(str(tmp_path / "lmdb"), map_size=1 << 26)
    llm = MeteredLLM(ScriptedLLM(["", "fine"]), tables)
    msgs = [{"role": "user", "content": "hello there"}]
    llm.chat(msgs, stage="extract", method="kg", max_tokens=8, validate=lambda t: bool(t.strip()))
    llm.chat(msgs + [{"role": "user", "content": "again"}], stage="extract", method="kg", max_tokens=8, validate=lambda t: bool(t.strip()))
    totals = llm.ledger.totals()["by_stage"]["extract"]
    assert totals["calls"] == 2 and totals["failed_calls"] == 1
    tables.close()


def _units(n):
    return [Unit("chunk", f"c{i}", f"text {i}", 2, 1.0, f"d{i}", f"c{i}") for i in range(1, n + 1)]


def test_citation_parsing_and_answer_cleaning():
    units = _units(3)
    assert parse_citations("Cork [2], see also [1, 3] and [9]", units) == [2, 1, 3]
    assert parse_citations("no brackets here", units) == []
    assert clean_answer("Answer: Cork [2].") == "Cork"
    assert clean_answer("The answer is: Sir William Howard [1]") == "Sir William Howard"


def test_short_answer_citations_are_verified_against_the_passages():
    from edgerag.answer.citations import verified_citations

    units = _units(3)
    units[1].text = "He was buried in Cork in 1908."
    units[2].text = "Cork is a city in Ireland."
    cs = verified_citations([1, 2], units, "Cork")
    assert [(c.n, c.how) for c in cs] == [(2, "cited"), (3, "matched"), (1, "unverified")]
    assert [(c.n, c.how) for c in verified_citations([1], units, None)] == [(1, "cited")]
