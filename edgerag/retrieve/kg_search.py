"""KG local search over a skeleton KG (KET-RAG Alg. 2; GraphRAG-style local search).

The 10 entities nearest the query (by their "name: description" vectors) are the seeds. Their
descriptions come first, then the relations touching them, ranked by how many endpoints are
seeds, then by accumulated strength, until entities and relations hold half the budget;
then the sub-chunks most linked to the seeds and the chosen relations (ties by cosine to the
query) fill the rest. `skeleton` reads the KG of the β core; `kg` reads the β = 1 KG (full
KG-RAG).
"""

from __future__ import annotations

import numpy as np

from ..context import make_context
from ..embed.embedder import Embedder
from ..graph.kg import load_kg, stage_name
from ..settings import Settings
from ..store import Index
from ..store.stages import stage_record
from ..text.tokens import get_tokenizer
from ..types import Context, Unit
from .units import load_units

SEEDS = 10


class KGNotBuiltError(ValueError):
    pass


def kg_stage(index: Index, selection: str, beta: float, method: str) -> str:
    name = stage_name(selection, beta)
    if stage_record(index.tables, name) is None:
        with index.tables.read() as txn:
            built = [k for k, _ in index.tables.items(txn, "stages") if k.startswith("kg:")]
        hint = ""
        sym, flag = ("κ", "--kappa") if selection == "concept" else ("β", "--beta")
        if built:
            hint = "; built here: " + ", ".join(
                f"{k.split(':')[1]} {'κ' if k.split(':')[1] == 'concept' else 'β'}={k.split(':')[2]}" for k in built
            )
            if method in ("skeleton", "ket", "ket-u"):
                hint += " (pass --beta / --core to use one)"
            elif method == "g2cons":
                hint += " (pass --kappa to use a concept core)"
        raise KGNotBuiltError(
            f"the KG for {method} (core selection {selection}, {sym}={beta:g}) is not built: run "
            f"`edgerag build --method {method} {flag} {beta:g} --index {index.path}` first "
            f"(add --plan to see its token cost){hint}"
        )
    return name


def kg_units(
    index: Index,
    embedder: Embedder,
    query: str,
    budget: int,
    settings: Settings,
    stage: str,
    qv: np.ndarray | None = None,
    source: str = "kg",
) -> list[Unit]:
    g = load_kg(index, stage)
    if len(g.entity_names) == 0:
        return []
    tok = get_tokenizer(settings.tokenizer)
    qv = embedder.encode_one(query) if qv is None else qv
    sims = g.entity_vectors @ qv
    seeds = np.argsort(-sims)[:SEEDS]
    seed_set = set(int(s) for s in seeds)
    chunk_doc = {}

    def doc_of(cid: str) -> str:
        if cid not in chunk_doc:
            chunk_doc[cid] = (index.get("chunks", cid) or {}).get("doc_id", "")
        return chunk_doc[cid]

    out: list[Unit] = []
    held = 0
    for e in seeds:
        text = str(g.entity_texts[e])
        cid = str(g.entity_chunks[e])
        u = Unit("entity", f"entity:{g.entity_names[e]}", text, tok.count(text), float(sims[e]), doc_of(cid), cid, source=source)
        out.append(u)
        held += u.tokens
    src, dst = g.rel_src, g.rel_dst
    touching = np.flatnonzero(np.isin(src, seeds) | np.isin(dst, seeds))
    in_seeds = np.isin(src[touching], seeds).astype(int) + np.isin(dst[touching], seeds).astype(int)
    order = touching[np.lexsort((-g.rel_strength[touching], -in_seeds))]
    chosen_rels = []
    for r in order:
        if held >= budget // 2:
            break
        text = str(g.rel_texts[r])
        cid = str(g.rel_chunks[r])
        u = Unit(
            "relation", f"relation:{src[r]}-{dst[r]}", text, tok.count(text), float(g.rel_strength[r]), doc_of(cid), cid, source=source
        )
        out.append(u)
        held += u.tokens
        chosen_rels.append(r)
    links = np.asarray(g.E2S[list(seed_set)].sum(axis=0)).ravel()
    if chosen_rels:
        links = links + np.asarray(g.R2S[chosen_rels].sum(axis=0)).ravel()
    cand = np.flatnonzero(links > 0)
    if len(cand):
        ids = [str(g.sub_ids[i]) for i in cand]
        cos = index.vectors["subchunks"].get(ids) @ qv
        rank = np.lexsort((-cos, -links[cand]))
        out.extend(load_units(index, "subchunks", [(ids[i], float(links[cand][i])) for i in rank], source=source))
    return out


def retrieve_skeleton(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    stage = kg_stage(index, settings.core_selection, settings.beta, "skeleton")
    return make_context(query, "skeleton", budget, kg_units(index, embedder, query, budget, settings, stage))


def retrieve_kg(index: Index, embedder: Embedder, query: str, budget: int, settings: Settings) -> Context:
    stage = kg_stage(index, "pagerank", 1.0, "kg")
    return make_context(query, "kg", budget, kg_units(index, embedder, query, budget, settings, stage))
