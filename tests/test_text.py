"""Chunking, sub-chunks, sentences, keywords and token counts (no models needed)."""

from __future__ import annotations

from edgerag.text.chunking import split_document
from edgerag.text.keywords import keyword_set, keywords
from edgerag.text.sentences import split_sentences
from edgerag.text.tokens import get_tokenizer
from edgerag.types import Document

from .conftest import SAMPLE, read_jsonl


def test_cl100k_counts_match_known_values():
    tok = get_tokenizer("cl100k")
    assert tok.count("hello world") == 2
    assert tok.count("") == 0
    assert tok.count("tangerine-42") > 1


def test_sentences_respect_abbreviations():
    text = "Dr. Smith moved to the U.S. in 1990. He likes fruit, e.g. apples and pears. Prof. Jones disagreed. The end."
    assert split_sentences(text) == [
        "Dr. Smith moved to the U.S. in 1990.",
        "He likes fruit, e.g. apples and pears.",
        "Prof. Jones disagreed.",
        "The end.",
    ]


def test_blank_line_ends_a_sentence():
    assert split_sentences("A heading\n\nThen a sentence. And another.") == [
        "A heading",
        "Then a sentence.",
        "And another.",
    ]


def test_the_stop_words_are_scikit_learns_list():
    """Kept in a file so a query does not import scikit-learn for them (issue #41)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from edgerag.text.keywords import stop_words

    assert stop_words() == frozenset(ENGLISH_STOP_WORDS) and len(stop_words()) == 318


def test_keywords_drop_stop_words_and_keep_content_words():
    ks = keywords("The astronomer and the comet: where is the Observatory's dome?")
    assert ks == ["astronomer", "comet", "observatory", "dome"]
    assert keyword_set("pear pear apple") == ["pear", "apple"]


def _long_document(n_passages: int = 30) -> Document:
    body = "\n\n".join(r["text"] for r in read_jsonl(SAMPLE / "corpus.jsonl")[:n_passages])
    return Document(id="long", text=body)


def test_short_document_is_one_chunk():
    tok = get_tokenizer()
    split = split_document(Document(id="d", text="One short sentence. And another."), tok, 1200, 100, 150)
    assert len(split.chunks) == 1 and len(split.subchunks) == 1
    assert split.chunks[0].text == "One short sentence. And another."
    assert [s.text for s in split.sentences] == ["One short sentence.", "And another."]


def test_chunks_respect_length_overlap_and_subchunk_count():
    tok = get_tokenizer()
    ell, overlap, tau = 400, 50, 2
    sub = -(-ell // 2**tau)
    doc = _long_document()
    split = split_document(doc, tok, ell, overlap, sub)
    assert len(split.chunks) > 3
    for c in split.chunks:
        assert c.tokens <= ell + 10, c.tokens  # per-word packing may be off by a token or two
        assert doc.text[c.start : c.start + len(c.text)] == c.text
    # consecutive chunks overlap by at most `overlap` tokens of text, and the document is covered
    ends = [c.start + len(c.text) for c in split.chunks]
    assert split.chunks[0].start == 0 and ends[-1] == len(doc.text.rstrip())
    for prev_end, nxt in zip(ends, split.chunks[1:]):
        assert nxt.start <= prev_end + 2
        if nxt.start < prev_end:
            assert tok.count(doc.text[nxt.start : prev_end]) <= overlap + 5
    # a full chunk splits into 2^τ sub-chunks of about ℓ/2^τ tokens, covering the chunk in order
    full = [c for c in split.chunks if c.tokens > ell - sub // 2]
    assert full
    for c in full:
        subs = [s for s in split.subchunks if s.chunk_id == c.id]
        assert len(subs) == 2**tau
        assert all(sub * 0.5 <= s.tokens <= sub * 1.5 for s in subs), [s.tokens for s in subs]
        assert subs[0].start == c.start and subs[-1].start + len(subs[-1].text) == c.start + len(c.text)


def test_embedding_a_batch_hands_freed_memory_back(monkeypatch, built_index):
    """glibc keeps torch's freed buffers unless trimmed; indexing memory grew ~80 MiB per MB
    of text without it (benchmarks/big_file_memory.py --probe). Every multi-batch encode
    trims; a query (one text) does not pay for it."""
    from edgerag import EdgeRAG
    from edgerag.embed import embedder as embed

    assert embed._malloc_trim() is not None  # these machines run glibc
    calls = []
    monkeypatch.setattr(embed, "_malloc_trim", lambda: calls.append)
    e = EdgeRAG(built_index, progress=False).embedder
    vecs = e.encode([f"passage number {i} about the harbour" for i in range(e.batch_size + 1)])
    assert vecs.shape == (e.batch_size + 1, e.dim) and calls == [0]
    e.encode_one("a question")
    assert calls == [0]
