"""Cutting ranked candidates to a token budget (λ)."""

from __future__ import annotations

from collections.abc import Iterable

from .types import Context, Unit


def fill_budget(candidates: Iterable[Unit], budget: int) -> list[Unit]:
    """Take units in rank order while they fit; a unit too big for what is left is skipped
    and smaller ones after it may still fit. Duplicate ids are dropped."""
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
