"""Cutting ranked candidates to a token budget (λ), and filling what is left with pieces.

Every method ranks units (chunks, sub-chunks, entities, relations) and `fill_budget` takes
them in rank order while they fit. A unit too big for the room left is skipped. On
paragraph corpora that costs little; on documents a chunk is a page of prose (600–900
tokens for a LaTeX or Word page), larger than a small λ, and a method that ranks chunks
would return nothing at all. So `fill_budget` also records what it skipped, and after the
method `fill_room` gives the room that is left to the **best pieces of the skipped units**:
their sub-chunks (⌈ℓ/2^τ⌉ tokens, KET-RAG §5.1) when one fits, else their sentences, ranked
by cosine to the query from the vectors the index already holds. One mechanism for every
method (`methods._finished` runs it), so no method answers "0 units" while the index holds
text and λ holds one sentence; the pieces follow the method's own units, in the rank order of
the units they came from, and each cites its own page (provenance.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from .embed.pieces import vectors_of
from .types import Context, Unit

MAX_SKIPPED = 32
"""How many skipped units one retrieval remembers (the room is gone long before)."""

_SKIPPED: ContextVar[list[Unit] | None] = ContextVar("edgerag_skipped_units", default=None)


def fill_budget(candidates: Iterable[Unit], budget: int) -> list[Unit]:
    """Take units in rank order while they fit; a unit too big for what is left is skipped
    (and recorded for `fill_room`) and smaller ones after it may still fit. Duplicate ids are
    dropped."""
    skipped = _SKIPPED.get()
    out, used, seen = [], 0, set()
    for u in candidates:
        if u.id in seen or u.tokens <= 0:
            continue
        if used + u.tokens <= budget:
            out.append(u)
            used += u.tokens
            seen.add(u.id)
            if used >= budget:
                break
        elif skipped is not None and len(skipped) < MAX_SKIPPED:
            skipped.append(u)
    return out


def make_context(query: str, method: str, budget: int, candidates: Iterable[Unit]) -> Context:
    return Context(query=query, method=method, budget=budget, units=fill_budget(candidates, budget))


def combine(query: str, method: str, budget: int, parts: list[tuple[list[Unit], int]]) -> Context:
    """Ensemble contexts without re-retrieving: each part fills its own share of the budget in
    its own rank order, skipping units an earlier part already took (KET-RAG's θ split,
    Hybrid-RAG's halves)."""
    units: list[Unit] = []
    seen: set[str] = set()
    for candidates, share in parts:
        fresh = [u for u in candidates if u.id not in seen]
        taken = fill_budget(fresh, share)
        seen.update(u.id for u in taken)
        units.extend(taken)
    return Context(query=query, method=method, budget=budget, units=units)


# ---- the room left: pieces of what did not fit ---------------------------------------------------
@contextmanager
def recording_skipped() -> Iterator[list[Unit]]:
    """Collect the units `fill_budget` skips as too big while the block runs."""
    skipped: list[Unit] = []
    token = _SKIPPED.set(skipped)
    try:
        yield skipped
    finally:
        _SKIPPED.reset(token)


_PIECE_SETS = {"chunk": ("subchunks", "sentences"), "subchunk": ("sentences",)}
FILL_UNITS = 2
"""How many skipped units, best first, may give pieces to the room left (`fill_room`)."""


def _span(rec: dict) -> tuple[int, int]:
    return rec.get("start", 0), rec.get("start", 0) + len(rec.get("text", ""))


def _pieces(index, unit: Unit, rec: dict, table: str) -> list[tuple[str, dict]]:
    """The stored records of ``table`` (sub-chunks or sentences) inside the unit's text."""
    chunk = rec if unit.kind == "chunk" else index.get("chunks", unit.chunk_id) or {}
    ids = chunk.get(table, [])
    recs = [(i, r) for i, r in zip(ids, index.get_many(table, ids)) if r]
    if unit.kind == "chunk":
        return recs
    lo, hi = _span(rec)
    return [(i, r) for i, r in recs if lo <= r.get("start", 0) and _span(r)[1] <= hi]


def fill_room(index, embedder, query_vector: np.ndarray, ctx: Context, skipped: list[Unit]) -> Context:
    """Give the budget left in ``ctx`` to the best pieces of the first `FILL_UNITS` ``skipped``
    units, in their rank order: for each, its sub-chunks (or, for a sub-chunk, its sentences)
    by cosine to the query, taken while they fit; sentences fill what sub-chunks cannot. Text
    already in the context is never repeated.

    Only the vectors of pieces that fit the room are read; those indexing left out are
    embedded now (pieces.vectors_of), a handful per query. Scoring every piece of every skipped
    unit embedded about a hundred texts per query on longer passages (1.1 s a query at 30,000
    passages; docs/benchmarks.md, "Growth with the corpus")."""
    room = ctx.budget - ctx.tokens
    if room <= 0 or not skipped:
        return ctx
    held = {u.id for u in ctx.units}
    spans: dict[str, list[tuple[int, int]]] = {}  # per chunk: character ranges already in the context
    kinds = {"chunk": "chunks", "subchunk": "subchunks", "sentence": "sentences"}
    for u in ctx.units:
        if u.kind in kinds:
            rec = index.get(kinds[u.kind], u.id) or {}
            spans.setdefault(u.chunk_id, []).append(_span(rec))

    def fresh(chunk_id: str, span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in spans.get(chunk_id, []))

    added: list[Unit] = []
    for unit in list(dict((u.id, u) for u in skipped if u.kind in _PIECE_SETS).values())[:FILL_UNITS]:
        if room <= 0:
            break
        rec = index.get(kinds[unit.kind], unit.id)
        if rec is None:
            continue
        for table in _PIECE_SETS[unit.kind]:
            pieces = [
                (i, r)
                for i, r in _pieces(index, unit, rec, table)
                if i not in held and r["tokens"] <= room and fresh(unit.chunk_id, _span(r))
            ]
            if not pieces:
                continue
            scores = vectors_of(index, embedder, table, [i for i, _ in pieces]) @ query_vector
            for j in np.argsort(-scores, kind="stable"):
                pid, prec = pieces[j]
                if prec["tokens"] > room or not fresh(unit.chunk_id, _span(prec)):
                    continue
                added.append(
                    Unit(
                        kind=table[:-1],
                        id=pid,
                        text=prec["text"],
                        tokens=prec["tokens"],
                        score=float(scores[j]),
                        doc_id=prec["doc_id"],
                        chunk_id=unit.chunk_id,
                        title=unit.title,
                        source=unit.source,
                        meta={**unit.meta, "piece_of": unit.id},  # why the parent came, and that it was cut
                    )
                )
                held.add(pid)
                spans.setdefault(unit.chunk_id, []).append(_span(prec))
                room -= prec["tokens"]
    if added:
        ctx.units.extend(added)
        ctx.notes["pieces"] = len(added)
    return ctx
