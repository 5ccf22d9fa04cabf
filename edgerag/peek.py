"""Graph peek: a name's node in every built graph, its neighbours and the passages it links to.

Enough to see why a passage was retrieved: the entity a KG search matched, the keyword or
concept a channel expanded, the link key a bridge went through. Reads only stages already
built (it never builds one) and never calls a model.

    for node in peek(index, "Kettering Hill"):
        print(node.graph, node.kind, node.label, node.neighbours[:5], node.passages[:3])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .graph.bipartite import KeywordGraph
from .graph.concept_graph import ConceptGraph
from .graph.kg import KnowledgeGraph
from .graph.links import LinkGraph
from .graph.names_graph import TeragGraph
from .store import Index
from .store.stages import load_stage

STAGE_TYPES = {"kg": KnowledgeGraph, "terag": TeragGraph, "concepts": ConceptGraph, "bipartite": KeywordGraph, "links": LinkGraph}
"""Stage name prefixes peek reads, and their types: KG entities, TERAG names, G2ConS
concepts, KET-RAG keywords, bridge link keys."""
GRAPHS = tuple(STAGE_TYPES)


@dataclass
class PeekPassage:
    chunk_id: str
    doc_id: str
    title: str
    text: str


@dataclass
class PeekNode:
    """One node named ``label`` in the graph stage ``graph``."""

    graph: str
    kind: str
    label: str
    neighbours: list[tuple[str, float]] = field(default_factory=list)
    """Adjacent nodes of the same graph, strongest first, with the edge weight (relation
    strength, Dice weight, or shared passages)."""
    passages: list[PeekPassage] = field(default_factory=list)
    linked_passages: int = 0
    """How many passages the node links to (``passages`` holds the first few)."""


def norm(name: str) -> str:
    return " ".join(name.casefold().split())


def peek(index: Index, name: str, *, neighbours: int = 10, passages: int = 5) -> list[PeekNode]:
    """Every built graph's node called ``name`` (case and spacing ignored)."""
    key = norm(name)
    if not key:
        raise ValueError("the name to peek at is empty")
    out = []
    for stage in _stages(index):
        g = _load(index, stage)
        for kind, label, nbrs, chunk_ids in _nodes(stage, g, key):
            order = sorted(nbrs, key=lambda kv: -kv[1])[:neighbours]
            out.append(PeekNode(stage, kind, label, order, _passages(index, chunk_ids[:passages]), len(chunk_ids)))
    return out


def suggest(index: Index, prefix: str, limit: int = 10) -> list[str]:
    """Node labels of the built graphs that contain ``prefix`` (for a name that matched none)."""
    key = norm(prefix)
    seen: dict[str, None] = {}
    for stage in _stages(index):
        for label in _labels(stage, _load(index, stage)):
            if key in norm(str(label)):
                seen.setdefault(str(label))
                if len(seen) >= limit:
                    return list(seen)
    return list(seen)


def _stages(index: Index) -> list[str]:
    with index.tables.read() as txn:
        names = [n for n, _ in index.tables.items(txn, "stages")]
    return [n for n in sorted(names) if n.split(":")[0] in GRAPHS]


def _load(index: Index, stage: str):
    return load_stage(index.tables, stage, STAGE_TYPES[stage.split(":")[0]])


def _labels(stage: str, g) -> np.ndarray:
    return g.entity_names if isinstance(g, KnowledgeGraph) else g.vocab if isinstance(g, (ConceptGraph, KeywordGraph)) else g.labels


def _match(labels: np.ndarray, key: str) -> list[int]:
    return [i for i, x in enumerate(labels) if norm(str(x)) == key]


def _nodes(stage: str, g, key: str):
    """(kind, label, [(neighbour, weight)], [chunk ids]) of each node matching ``key``."""
    kind = stage.split(":")[0]
    labels = _labels(stage, g)
    for i in _match(labels, key):
        if kind == "kg":
            nbrs = [(str(labels[d]), float(w)) for s, d, w in zip(g.rel_src, g.rel_dst, g.rel_strength) if s == i]
            nbrs += [(str(labels[s]), float(w)) for s, d, w in zip(g.rel_src, g.rel_dst, g.rel_strength) if d == i]
            subs = g.sub_ids[g.E2S[i].indices]
            yield "entity", str(labels[i]), nbrs, _parents(subs)
        elif kind == "terag":
            n_c = len(labels)
            row = g.adj[i]
            nbrs = [(str(labels[j]), 1.0) for j in row.indices if j < n_c]
            chunks = [str(g.ids[j]) for j in g.C2P[i].indices]
            yield str(g.kinds[i]), str(labels[i]), nbrs, chunks
        elif kind == "concepts":
            row = g.adj[i]
            nbrs = [(str(labels[j]), float(w)) for j, w in zip(row.indices, row.data)]
            col = sp.csc_matrix(g.T[:, i])
            yield "concept", str(labels[i]), nbrs, [str(g.ids[j]) for j in col.indices]
        elif kind == "bipartite":
            subs_of = sp.csc_matrix(g.B[:, i]).indices
            shared = np.asarray(g.B[subs_of].sum(axis=0)).ravel()
            shared[i] = 0
            nbrs = [(str(labels[j]), float(shared[j])) for j in np.flatnonzero(shared)]
            yield "keyword", str(labels[i]), nbrs, _parents(g.ids[subs_of])
        else:  # links
            rows = sp.csc_matrix(g.K[:, i]).indices
            shared = np.asarray((g.K[rows] > 0).sum(axis=0)).ravel()
            shared[i] = 0
            nbrs = [(str(labels[j]), float(shared[j])) for j in np.flatnonzero(shared)]
            yield f"link key ({g.kinds[i]})", str(labels[i]), nbrs, [str(g.ids[r]) for r in rows]


def _parents(sub_ids) -> list[str]:
    """Chunk ids of sub-chunk ids, in order, each once (a sub-chunk id is ``<chunk>:s<k>``)."""
    return list(dict.fromkeys(str(s).rsplit(":", 1)[0] for s in sub_ids))


def _passages(index: Index, chunk_ids: list[str]) -> list[PeekPassage]:
    chunks = index.get_many("chunks", chunk_ids)
    docs = index.get_many("docs", [c["doc_id"] if c else "" for c in chunks])
    return [
        PeekPassage(cid, c["doc_id"], (d or {}).get("title", ""), " ".join(c["text"].split()))
        for cid, c, d in zip(chunk_ids, chunks, docs)
        if c is not None
    ]
