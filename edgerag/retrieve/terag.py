"""TERAG retrieval (Xiao, Tsang, Bai 2025, §3.3): Personalized PageRank from the query's names.

1. Query NER: the local model lists the question's named entities, comma-separated (one short
   call, cached and ledgered under stage ``query-ner``); names not in the question are dropped.
2. Seeds: a query entity whose normalised name is a concept node matches it exactly (weight 1);
   one with no exact match takes its ``terag_semantic_top`` nearest nodes by cosine (weight =
   the cosine). A question whose NER finds nothing is matched the same semantic way from the
   whole question.
3. Restart vector (Eqs. 3–5): each seed's weight × its inverse passage frequency 1/|P(c)|,
   normalised to sum 1 within the exact group and within the semantic group, then added.
4. PPR (damping ``terag_damping``) over concepts and passages (graph/names_graph.py); passages are
   ranked by their PPR mass and fill the budget λ. Passages the walk never reaches are not
   returned: that is the method.
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..extract import names as nm
from ..extract.kg import normalize_name
from ..graph.names_graph import STAGE, TeragGraph, load_names_graph
from ..graph.pagerank import pagerank
from ..settings import Settings
from ..store import Index
from ..store.stages import stage_record
from ..types import Context
from .kg_search import KGNotBuiltError
from .units import load_units


def query_entities(llm, question: str, settings: Settings) -> list[str]:
    c = llm.chat(
        nm.query_messages(question),
        stage="query-ner",
        method="terag",
        max_tokens=settings.terag_query_max_tokens,
        validate=lambda out: bool(nm.parse_query(out, question)),
    )
    return nm.parse_query(c.text, question)


def restart_vector(g: TeragGraph, embedder: Embedder, question: str, entities: list[str], settings: Settings) -> tuple[np.ndarray, dict]:
    """Restart weights over all nodes (passages get none) and the seeds that made them."""
    n_c = len(g.labels)
    ipf = 1.0 / np.maximum(g.pf, 1.0)
    exact = np.zeros(n_c)
    semantic = np.zeros(n_c)
    unmatched = []
    for e in entities:
        hits = g.key_index.get(normalize_name(e))
        if hits:
            exact[hits] = np.maximum(exact[hits], 1.0)
        else:
            unmatched.append(e)
    probes = unmatched if entities else [question]
    if probes and n_c:
        sims = embedder.encode(probes) @ g.vectors.T
        top = min(settings.terag_semantic_top, n_c)
        for row in sims:
            best = np.argpartition(-row, top - 1)[:top]
            semantic[best] = np.maximum(semantic[best], np.clip(row[best], 0.0, None))
    restart = np.zeros(g.adj.shape[0])
    for group in (exact * ipf, semantic * ipf):
        if group.sum() > 0:
            restart[:n_c] += group / group.sum()
    seeds = {
        "entities": entities,
        "exact": [str(g.labels[i]) for i in np.flatnonzero(exact)],
        "semantic": [str(g.labels[i]) for i in np.flatnonzero(semantic)],
    }
    return restart, seeds


def retrieve(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings, llm=None) -> Context:
    if stage_record(index.tables, STAGE) is None:
        raise KGNotBuiltError(
            f"the TERAG graph is not built: run `edgerag build --method terag --index {index.path}` first (add --plan to see its token cost)"
        )
    if llm is None:
        raise ValueError("terag needs the local model at query time (query NER)")
    g = load_names_graph(index)
    entities = query_entities(llm, query, settings)
    restart, seeds = restart_vector(g, embedder, query, entities, settings)
    n_c = len(g.labels)
    if restart.sum() == 0:
        return make_context(query, "terag", budget, [])
    mass = pagerank(g.adj, damping=settings.terag_damping, personalization=restart)[n_c:]
    order = [i for i in np.argsort(-mass, kind="stable") if mass[i] > 0]
    units = load_units(index, "chunks", [(str(g.ids[i]), float(mass[i])) for i in order], source="terag")
    for u in units[:1]:
        u.meta["seeds"] = seeds
    return make_context(query, "terag", budget, units)
