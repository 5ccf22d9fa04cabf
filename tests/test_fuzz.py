"""Property tests (hypothesis, a bounded number of examples each): the parsers of model
output and the file readers take anything without raising, and keep only what their
contracts allow."""

from __future__ import annotations

import codecs
import hashlib
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edgerag.answer.citations import parse_citations
from edgerag.answer.reply import clean_answer
from edgerag.extract import kg as kgx
from edgerag.extract import names as nm
from edgerag.extract import query_keywords as qkw
from edgerag.ingest import Skipped, iter_documents, readers
from edgerag.types import Document, Unit

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

PASSAGE = "Edith Varga sealed the Zorblax vault in 1931. The vault lies under Kettering Hill, near Lyon."
NAMES = ["Edith Varga", "Zorblax vault", "Kettering Hill", "Lyon", "1931", "Marie Curie", "", "|", "x" * 90]

# Model-like output: lines built from the formats' own pieces, names and noise.
piece = st.one_of(
    st.sampled_from(
        ["E", "R", "ENTITIES:", "CONCEPTS:", "Entities -", "[1]", "2.", "Passage 3:", "LOW:", "HIGH:", "|", ",", ";", "{", "}", '"']
    ),
    st.sampled_from(NAMES),
    st.text(max_size=12),
)
line = st.lists(piece, max_size=8).map(" ".join)
output = st.one_of(st.lists(line, max_size=12).map("\n".join), st.text(max_size=400))


@FUZZ
@given(output)
def test_kg_parser_keeps_only_names_of_the_passage(out):
    ex = kgx.parse(out, PASSAGE)
    hay = kgx.squash(PASSAGE)
    names = {kgx.normalize_name(e.name) for e in ex.entities}
    assert all(kgx.mentions(hay, n) for n in names)
    assert all(kgx.normalize_name(r.source) in names and kgx.normalize_name(r.target) in names for r in ex.relations)
    assert ex.lines >= ex.unparsed >= 0 and ex.invented >= 0


@FUZZ
@given(output, st.integers(min_value=1, max_value=4))
def test_names_parser_splits_any_answer_into_one_result_per_passage(out, n):
    passages = [PASSAGE, "Lyon is a city in France.", "Nothing here.", "Marie Curie was born in Warsaw."][:n]
    got = nm.parse_batch(out, passages)
    assert len(got.passages) == n
    for passage, names in zip(passages, got.passages):
        hay = kgx.squash(passage)
        assert all(kgx.mentions(hay, kgx.normalize_name(e)) for e in names.entities)
        assert all(len(c) <= 80 and "\n" not in c for c in names.concepts)


@FUZZ
@given(output)
def test_query_parsers_return_names_of_the_question_or_fall_back(out):
    q = "Who sealed the Zorblax vault under Kettering Hill?"
    assert all(kgx.mentions(kgx.squash(q), kgx.normalize_name(e)) for e in nm.parse_query(out, q))
    kw = qkw.parse(out, q)
    assert kw.low and kw.high and (not kw.fallback or kw.low == [q])
    assert all(len(k) <= 80 for k in kw.low + kw.high)


@FUZZ
@given(output, st.integers(min_value=0, max_value=6))
def test_citations_point_at_existing_passages(out, n):
    units = [Unit(kind="chunk", id=f"c{i}", text="t", tokens=1, score=1.0, doc_id="d", chunk_id=f"c{i}") for i in range(n)]
    cited = parse_citations(out + " [2] [7, 1]", units)
    assert all(1 <= c <= n for c in cited) and len(cited) == len(set(cited))
    assert not re.search(r"\[\d+(?:\s*,\s*\d+)*\]", clean_answer(out + " [1]"))


file_bytes = st.binary(max_size=3000) | st.text(max_size=3000).map(lambda t: t.encode("utf-8", "surrogatepass"))


@FUZZ
@given(file_bytes, st.sampled_from([".txt", ".md", ".jsonl"]), st.sampled_from([200, 10_000]), st.sampled_from([5, 1 << 20]))
def test_readers_take_any_bytes(tmp_path_factory, monkeypatch, data, suffix, part_chars, block):
    monkeypatch.setattr(readers, "_BLOCK", block)  # small blocks: characters and parts cut across reads
    f = tmp_path_factory.mktemp("fuzz") / f"input{suffix}"
    f.write_bytes(data)
    items = list(iter_documents([f], part_chars=part_chars))
    assert items and all(isinstance(i, (Document, Skipped)) for i in items)
    for d in (i for i in items if isinstance(i, Document)):
        assert d.text.strip() and d.id and len(d.id.encode()) <= 200
        d.text.encode("utf-8")  # valid text
        if suffix != ".jsonl":
            assert len(d.text) <= max(part_chars, len(data))
    if suffix != ".jsonl" and all(isinstance(i, Document) for i in items):
        # parts lose only the whitespace they were cut at
        whole = data.decode("utf-8-sig")
        assert "".join("".join(d.text.split()) for d in items) == "".join(whole.split())


@FUZZ
@given(file_bytes | st.binary(max_size=40).map(lambda b: codecs.BOM_UTF8 + b), st.integers(min_value=1, max_value=9))
def test_the_streamed_utf8_check_agrees_with_decoding_the_whole_file(tmp_path_factory, monkeypatch, data, block):
    monkeypatch.setattr(readers, "_BLOCK", block)
    f = tmp_path_factory.mktemp("fuzz") / "input.txt"
    f.write_bytes(data)
    got = readers._check_stream(f)
    if b"\x00" in data[:8192]:
        assert "binary" in got.reason
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        bom = 3 if data.startswith(codecs.BOM_UTF8) else 0
        assert isinstance(got, Skipped) and f"offset {bom + e.start}" in got.reason, (got, e)
        return
    if text.strip():
        assert got == hashlib.sha1(data).hexdigest()[:16]
    else:
        assert got.reason == "empty file"
