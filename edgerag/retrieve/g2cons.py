"""G2ConS (§3.4): the concept path and the core KG, ensembled by weight λ_w.

Both paths answer the same query from one query vector: the concept path (`concept_units`)
within (1−λ_w)·λ, KG local search on the core KG (the κ concept-ranked chunks, extracted by
the same stage as the KET skeleton) within λ_w·λ. Each takes milliseconds, so they run one
after the other; threads would cost more than they save.

One context is then built, at most λ tokens:

1. chunks found by both paths (a concept-path chunk one of whose sub-chunks the KG path chose),
2. the rest of the concept path's chunks,
3. the KG path's entities, relations and sub-chunks, refilled to its share from its own
   ranking, skipping sub-chunks whose whole chunk is already in the context.
"""

from __future__ import annotations

from ..context import fill_budget
from ..embed.embedder import Embedder
from ..settings import Settings
from ..store import Index
from ..types import Context
from .concept import concept_units
from .kg_search import kg_stage, kg_units


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    stage = kg_stage(index, "concept", settings.kappa, "g2cons")
    qv = embedder.encode_one(query)
    kg_share = int(settings.lambda_w * budget)
    concept_share = budget - kg_share
    concept = fill_budget(concept_units(index, settings, qv, concept_share, source="g2cons:concept"), concept_share)
    kg_ranked = kg_units(index, embedder, query, kg_share, settings, stage, qv=qv, source="g2cons:kg")
    kg_found = {u.chunk_id for u in fill_budget(kg_ranked, kg_share) if u.kind == "subchunk"}
    both = [u for u in concept if u.chunk_id in kg_found]
    for u in both:
        u.meta["both_paths"] = True
    held = {u.chunk_id for u in concept}
    kg = fill_budget([u for u in kg_ranked if not (u.kind == "subchunk" and u.chunk_id in held)], kg_share)
    units = both + [u for u in concept if u.chunk_id not in kg_found] + kg
    return Context(query=query, method="g2cons", budget=budget, units=units)
