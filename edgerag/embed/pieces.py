"""Sub-chunk and sentence vectors: embedded when first needed, not while indexing (issue #32).

Sentences and sub-chunks are most of what an index holds (the bundled sample: 182 chunks, 85
more sub-chunks, 571 more sentences; their text 64% of the word pieces embedded), yet the
default method reads chunk vectors only. So indexing embeds the chunks (and the sub-chunks of
a chunk too long for the embedder's window, whose mean is its vector), and the rest waits:

* `vectors_of` serves the few pieces one query reads (the evidence reader's sentences, the
  pieces `context.fill_room` ranks): stored ones from LMDB, the others embedded and kept in a
  per-process cache keyed by their text. Sentence vectors embedded so are also stored (one
  short write, where the index is writable), so the next process does not embed them again:
  the evidence reader embedded about 260 sentences a MuSiQue question (about 3 s on 2 cores
  in a fresh process), which indexing them all would cost about 110 s more for MuSiQue dev
  (issue #41; docs/benchmarks.md, "Answers in a time budget").
* `embed_missing` embeds and stores every missing piece, once, before a method that reads them
  all: KET-RAG's keyword graph (a keyword's vector is the mean of its sentences', Alg. 3), the
  keyword and KG channels' sub-chunks, ``text_unit = subchunks``. It is the stage ``pieces``
  of `methods.GRAPHS`, built by `edgerag build` with a progress bar or on the first query.

``Settings.embed_pieces_at_index`` embeds everything while indexing instead (what an index
for those methods may as well do). Either way a piece has the same vector.
"""

from __future__ import annotations

import numpy as np

from ..progress import bar
from ..store import Index
from .embedder import Embedder

PIECE_SETS = ("subchunks", "sentences")
CACHE_TEXTS = 50_000
"""Query-time piece vectors kept per process (about 75 MB of 384-d float32)."""
WRITE_EVERY = 2048
"""Pieces embedded per write transaction by `embed_missing` (a killed run keeps what it wrote)."""

_cache: dict[tuple[str, str], np.ndarray] = {}


def vectors_of(index: Index, embedder: Embedder, table: str, ids: list[str]) -> np.ndarray:
    """Vectors of the pieces ``ids`` of ``table``, in order: stored, cached, or embedded now
    (and cached). An id with no record raises KeyError, as `VectorSet.get` does."""
    if table not in PIECE_SETS:
        return index.vectors[table].get(ids)
    out = index.vectors[table].found(ids)
    missing = [i for i in ids if i not in out]
    if missing:
        recs = index.get_many(table, missing)
        lost = [i for i, r in zip(missing, recs) if r is None]
        if lost:
            raise KeyError(f"no record for {lost[0]!r} in {table}")
        texts = {r["text"] for r in recs}
        todo = [t for t in texts if (embedder.model_id, t) not in _cache]
        if todo:
            if len(_cache) + len(todo) > CACHE_TEXTS:
                _cache.clear()
            _cache.update(((embedder.model_id, t), v) for t, v in zip(todo, embedder.encode(todo)))
        for i, r in zip(missing, recs):
            out[i] = _cache[(embedder.model_id, r["text"])]
        if table == "sentences":
            keep(index, table, {i: out[i] for i in missing})
    return np.stack([out[i] for i in ids]) if ids else np.zeros((0, index.vectors[table].dim), dtype=np.float32)


def keep(index: Index, table: str, vectors: dict[str, np.ndarray]) -> None:
    """Store query-time piece vectors, for pieces whose record still exists (a document
    deleted meanwhile leaves nothing behind); nothing on a read-only index. Sentences only: they
    are never searched, so no nearest-neighbour cache has to follow."""
    if index.tables.readonly or not vectors:
        return
    with index.tables.write() as txn:
        ids = [i for i in vectors if index.tables.has(txn, table, i)]
        if ids:
            index.vectors[table].put(txn, ids, np.stack([vectors[i] for i in ids]))


def missing(index: Index) -> dict[str, list[str]]:
    """Per piece set, the ids with a record but no vector."""
    out = {}
    for table in PIECE_SETS:
        with index.tables.read() as txn:
            complete = index.tables.count(txn, table) == len(index.vectors[table])
        out[table] = [] if complete else sorted(set(index.ids(table)) - index.vectors[table].ids())
    return out


def embed_missing(index: Index, embedder: Embedder, progress: bool | None = None) -> dict:
    """Embed and store every sub-chunk and sentence that has no vector yet; returns what it
    did (a stage record for `edgerag build`). Nothing to do costs two LMDB counts."""
    todo = missing(index)
    total = sum(len(v) for v in todo.values())
    done = {table: 0 for table in PIECE_SETS}
    if total == 0:
        return {"embedded": 0}
    pb = bar(total=total, desc="embedding sub-chunks and sentences", unit="text", enabled=progress)
    try:
        for table, ids in todo.items():
            for start in range(0, len(ids), WRITE_EVERY):
                part = ids[start : start + WRITE_EVERY]
                recs = index.get_many(table, part)
                kept = [(i, r["text"]) for i, r in zip(part, recs) if r is not None]  # deleted meanwhile
                distinct = list(dict.fromkeys(t for _, t in kept))
                if kept:
                    vecs = dict(zip(distinct, embedder.encode(distinct)))
                    with index.tables.write() as txn:
                        index.vectors[table].put(txn, [i for i, _ in kept], np.stack([vecs[t] for _, t in kept]))
                done[table] += len(kept)
                pb.update(len(part))
    finally:
        pb.close()
    index.save_vectors()
    return {"embedded": sum(done.values()), **done}
