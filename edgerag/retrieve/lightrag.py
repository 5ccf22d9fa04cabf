"""LightRAG dual-level retrieval (Guo et al. 2024, §3.2) over the KG of graph/kg.py.

The KG's profiles are LightRAG's key–value pairs: an entity is keyed by its name and valued by
its merged description (the sentences of its chunks that mention it, or the model's merged
descriptions); a relation is keyed by its endpoints and relation phrase — the words that say
what kind of link it is, LightRAG's "global theme" keywords — and valued by its text. Both are
embedded once, when the KG is built; duplicates across chunks are merged there by normalised
name (entities) and endpoint pair (relations).

1. The local model gives the question's low-level and high-level keywords
   (extract/query_keywords.py; stage ``query-keywords``, cached). If it gives neither, the
   question itself stands for both.
2. ``lightrag-local``: the low-level keywords, embedded together, match the top-k entities
   (k = ``lightrag_top_k``); then the relations touching them (one hop), strongest and most
   connected first; then the sub-chunks those entities and relations came from, most linked first.
3. ``lightrag-global``: the high-level keywords match the top-k relations; then their
   endpoint entities (one hop); then the sub-chunks they came from.
4. ``lightrag-hybrid``: local and global each fill half of the budget, without repeats.

The matched items take at most a quarter of the budget, their neighbours fill the profiles'
half, and source text fills the rest.
The KG read is the one at β (``beta``, ``core_selection``): β = 1 is LightRAG as published,
over every chunk; a smaller β reads a cheaper skeleton.
"""

from __future__ import annotations

import numpy as np

from ..context import combine, fill_budget, make_context
from ..embed.embedder import Embedder
from ..extract import query_keywords as qk
from ..graph.kg import load_kg
from ..settings import Settings
from ..store import Index
from ..text.tokens import get_tokenizer
from ..types import Context, Unit
from .kg_search import kg_stage
from .units import load_units


def query_keywords(llm, question: str, method: str, settings: Settings) -> qk.QueryKeywords:
    c = llm.chat(
        qk.messages(question),
        stage="query-keywords",
        method=method,
        max_tokens=settings.lightrag_query_max_tokens,
        validate=lambda out: not qk.parse(out, question).fallback,
    )
    return qk.parse(c.text, question)


def level_units(
    index: Index, embedder: Embedder, keywords: list[str], level: str, budget: int, settings: Settings, stage: str, source: str
) -> list[Unit]:
    """Candidates for one level, best first: matched items, their one-hop neighbours, then text."""
    g = load_kg(index, stage)
    if len(g.entity_names) == 0:
        return []
    tok = get_tokenizer(settings.tokenizer)
    qv = embedder.encode_one(", ".join(keywords))
    src, dst = g.rel_src, g.rel_dst
    k = settings.lightrag_top_k
    if level == "low":
        ents = np.argsort(-(g.entity_vectors @ qv))[:k]
        touching = np.flatnonzero(np.isin(src, ents) | np.isin(dst, ents))
        degree = g.entity_degree[src[touching]] + g.entity_degree[dst[touching]]
        rels = touching[np.lexsort((-degree, -g.rel_strength[touching]))]
    else:
        rels = np.argsort(-(g.rel_vectors @ qv))[:k] if len(src) else np.zeros(0, dtype=np.int64)
        ents = np.asarray(list(dict.fromkeys(int(e) for r in rels for e in (src[r], dst[r]))), dtype=np.int64)
    doc_of = _doc_lookup(index)
    entity_units = []
    for rank, e in enumerate(ents):
        text, cid = str(g.entity_texts[e]), str(g.entity_chunks[e])
        entity_units.append(
            Unit("entity", f"entity:{g.entity_names[e]}", text, tok.count(text), float(len(ents) - rank), doc_of(cid), cid, source=source)
        )
    relation_units = []
    for r in rels:
        text, cid = str(g.rel_texts[r]), str(g.rel_chunks[r])
        relation_units.append(
            Unit(
                "relation", f"relation:{src[r]}-{dst[r]}", text, tok.count(text), float(g.rel_strength[r]), doc_of(cid), cid, source=source
            )
        )
    # the matched level leads with a quarter of the budget; its one-hop neighbours fill the
    # profiles' half (LightRAG gives entities, relations and text separate token caps)
    first, second = (entity_units, relation_units) if level == "low" else (relation_units, entity_units)
    kept = fill_budget(first, budget // 4)
    kept += fill_budget(second, budget // 2 - sum(u.tokens for u in kept))
    links = np.asarray(g.E2S[ents].sum(axis=0)).ravel() if len(ents) else np.zeros(len(g.sub_ids))
    if len(rels):
        links = links + np.asarray(g.R2S[rels].sum(axis=0)).ravel()
    cand = np.flatnonzero(links > 0)
    order = cand[np.argsort(-links[cand], kind="stable")]
    texts = load_units(index, "subchunks", [(str(g.sub_ids[i]), float(links[i])) for i in order], source=source)
    return kept + texts


def _doc_lookup(index: Index):
    cache: dict[str, str] = {}

    def doc_of(cid: str) -> str:
        if cid not in cache:
            cache[cid] = (index.get("chunks", cid) or {}).get("doc_id", "")
        return cache[cid]

    return doc_of


def _retrieve(mode: str, index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, llm) -> Context:
    method = f"lightrag-{mode}"
    stage = kg_stage(index, settings.core_selection, settings.beta, method)
    kw = query_keywords(llm, query, method, settings)
    if mode == "hybrid":
        half = budget // 2
        ctx = combine(
            query,
            method,
            budget,
            [
                (level_units(index, embedder, kw.low, "low", half, settings, stage, f"{method}:local"), half),
                (level_units(index, embedder, kw.high, "high", budget - half, settings, stage, f"{method}:global"), budget - half),
            ],
        )
    else:
        level = "low" if mode == "local" else "high"
        words = kw.low if level == "low" else kw.high
        ctx = make_context(query, method, budget, level_units(index, embedder, words, level, budget, settings, stage, method))
    ctx.notes["keywords"] = {"low": kw.low, "high": kw.high, "fallback": kw.fallback}
    return ctx


def retrieve_local(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, llm=None) -> Context:
    return _retrieve("local", index, embedder, query, budget, settings, llm)


def retrieve_global(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, llm=None) -> Context:
    return _retrieve("global", index, embedder, query, budget, settings, llm)


def retrieve_hybrid(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, llm=None) -> Context:
    return _retrieve("hybrid", index, embedder, query, budget, settings, llm)
