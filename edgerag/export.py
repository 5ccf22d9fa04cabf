"""Graphs out of edgerag: a built graph stage as GraphML or node-link JSON, through networkx.

Users of GraphRAG and LightRAG open their graphs in Gephi or Cytoscape; so can edgerag's:

* ``kg`` — entities (label, type from the extraction, description, the passages that name
  them) and the relations between them (weight: accumulated strength; label: the phrase);
* ``links`` — passages and the link keys they share (the bridges' graph): key nodes carry
  their kind (span, num, word, terag, kg) and document frequency, edges their IDF weight;
* ``concepts`` — G2ConS concepts linked by Dice weight, each with the passages that hold it;
* ``terag`` — TERAG's entity and concept nodes, linked to each other when one passage names
  both, and to the passages that name them;
* ``knn`` — the KNN chunk graph (KET-RAG Alg. 3), passages linked to their neighbours.

Passage nodes are ``passage:<chunk id>`` with the document's title and id and the chunk id;
other nodes are ``<kind>:<label>``. Only stages already built are exported (``edgerag build``
or a first query builds them); nothing is built here.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np

from .graph.concept_graph import ConceptGraph, load_concept_graph
from .graph.concept_graph import stage as concept_stage
from .graph.kg import KnowledgeGraph, load_kg
from .graph.knn import load_knn_graph
from .graph.knn import stage as knn_stage
from .graph.links import STAGE as LINKS_STAGE
from .graph.links import LinkGraph
from .graph.names_graph import STAGE as TERAG_STAGE
from .graph.names_graph import load_names_graph
from .settings import Settings
from .store import Index
from .store.stages import load_stage, stage_record

GRAPHS = ("kg", "links", "concepts", "terag", "knn")
FORMATS = ("graphml", "json")


@dataclass
class Exported:
    """What `export_graph` wrote."""

    graph: str
    stage: str
    path: Path
    format: str
    nodes: int
    edges: int

    def summary(self) -> str:
        return (
            f"wrote {self.path}: the {self.graph} graph (stage {self.stage}), {self.nodes:,} nodes and {self.edges:,} edges, {self.format}"
        )


def export_graph(index: Index, settings: Settings, graph: str, path: str | Path, fmt: str | None = None) -> Exported:
    """Write the built ``graph`` (one of `GRAPHS`) of ``index`` to ``path`` as ``fmt`` (one of
    `FORMATS`; by default the file's suffix says which)."""
    path = Path(path)
    fmt = fmt or {".graphml": "graphml", ".json": "json"}.get(path.suffix.lower())
    if fmt not in FORMATS:
        raise ValueError(f"the format must be one of {', '.join(FORMATS)} (or a .graphml / .json file name); got {fmt or path.name!r}")
    if graph not in GRAPHS:
        raise ValueError(f"the graph must be one of {', '.join(GRAPHS)}; got {graph!r}")
    stage, g = _built(index, settings, graph)
    if fmt == "graphml":
        nx.write_graphml(g, path)
    else:
        path.write_text(json.dumps(nx.node_link_data(g, edges="edges"), ensure_ascii=False, indent=1), encoding="utf-8")
    return Exported(graph, stage, path, fmt, g.number_of_nodes(), g.number_of_edges())


def to_networkx(index: Index, settings: Settings, graph: str) -> nx.Graph:
    """The built ``graph`` as a networkx graph (what `export_graph` writes)."""
    return _built(index, settings, graph)[1]


def _built(index: Index, settings: Settings, graph: str) -> tuple[str, nx.Graph]:
    if graph == "kg":
        stage = _kg_stage(index, settings)
        return stage, _kg(index, load_kg(index, stage))
    stage = {"links": LINKS_STAGE, "concepts": concept_stage(settings), "terag": TERAG_STAGE, "knn": knn_stage(settings.knn_k)}[graph]
    if stage_record(index.tables, stage) is None:
        how = {"links": "bridge", "concepts": "concept", "terag": "terag", "knn": "knng"}[graph]
        raise ValueError(f"the {graph} graph ({stage}) is not built in {index.path}: `edgerag build --method {how}` builds it")
    if graph == "links":
        return stage, _links(index, load_stage(index.tables, stage, LinkGraph))
    if graph == "concepts":
        return stage, _concepts(index, load_concept_graph(index, settings))
    if graph == "terag":
        return stage, _terag(index)
    return stage, _knn(index, settings)


def _kg_stage(index: Index, settings: Settings) -> str:
    """The KG to export: the only one built, else the one the settings' β and core name."""
    with index.tables.read() as txn:
        built = sorted(k for k, _ in index.tables.items(txn, "stages") if k.startswith("kg:"))
    if not built:
        raise ValueError(f"no KG is built in {index.path}: `edgerag build --method kg` (or ket, g2cons) builds one")
    if len(built) == 1:
        return built[0]
    from .graph.kg import stage_name

    wanted = stage_name(settings.core_selection, settings.kappa if settings.core_selection == "concept" else settings.beta)
    if wanted in built:
        return wanted
    raise ValueError(f"{len(built)} KGs are built here ({', '.join(built)}): choose one with --core and --beta (or --kappa)")


def _passages(index: Index, g: nx.Graph, chunk_ids) -> list[str]:
    """Add a node per chunk (title, document, chunk id); returns the node names in order."""
    ids = [str(c) for c in chunk_ids]
    chunks = index.get_many("chunks", ids)
    doc_ids = list(dict.fromkeys(c["doc_id"] for c in chunks if c))
    docs = dict(zip(doc_ids, index.get_many("docs", doc_ids)))
    names = []
    for cid, c in zip(ids, chunks):
        doc = (docs.get(c["doc_id"]) or {}) if c else {}
        node = f"passage:{cid}"
        g.add_node(node, label=doc.get("title") or cid, type="passage", chunk_id=cid, doc_id=c["doc_id"] if c else "")
        names.append(node)
    return names


def _kg(index: Index, kg: KnowledgeGraph) -> nx.Graph:
    g = nx.Graph()
    types = _entity_types(index, [str(c) for c in (kg.chunks if kg.chunks is not None else [])])
    sub_chunk = np.asarray([str(s).rsplit(":", 1)[0] for s in kg.sub_ids])
    e2s = kg.E2S.tocsr()
    for i, name in enumerate(kg.entity_names):
        passages = list(dict.fromkeys(sub_chunk[e2s.indices[e2s.indptr[i] : e2s.indptr[i + 1]]]))
        g.add_node(
            f"entity:{name}",
            label=str(name),
            type="entity",
            entity_type=types.get(str(name).casefold(), ""),
            description=str(kg.entity_texts[i]),
            passages=";".join(passages),
            chunk_id=str(kg.entity_chunks[i]),
        )
    for s, d, w, text, cid in zip(kg.rel_src, kg.rel_dst, kg.rel_strength, kg.rel_texts, kg.rel_chunks):
        a, b = f"entity:{kg.entity_names[s]}", f"entity:{kg.entity_names[d]}"
        g.add_edge(a, b, weight=float(w), label=str(text), chunk_id=str(cid))
    return g


def _entity_types(index: Index, chunk_ids: list[str]) -> dict[str, str]:
    """Each entity's most frequent type in the stored extractions of ``chunk_ids``."""
    seen: dict[str, Counter] = {}
    for rec in index.get_many("extractions", chunk_ids):
        for e in (rec or {}).get("entities", []):
            if isinstance(e, dict) and e.get("type"):
                seen.setdefault(e["name"].casefold(), Counter())[e["type"]] += 1
    return {k: c.most_common(1)[0][0] for k, c in seen.items()}


def _links(index: Index, links: LinkGraph) -> nx.Graph:
    g = nx.Graph()
    passages = _passages(index, g, links.ids)
    keys = []
    for label, kind, df in zip(links.labels, links.kinds, links.df):
        node = f"{kind}:{label}"
        g.add_node(node, label=str(label), type=f"key:{kind}", df=int(df))
        keys.append(node)
    k = links.K.tocoo()
    for r, c, w in zip(k.row, k.col, k.data):
        g.add_edge(passages[r], keys[c], weight=float(w))
    return g


def _concepts(index: Index, cg: ConceptGraph) -> nx.Graph:
    g = nx.Graph()
    tt = cg.TT
    ids = [str(c) for c in cg.ids]
    for i, word in enumerate(cg.vocab):
        if cg.df[i] == 0:
            continue
        rows = tt.indices[tt.indptr[i] : tt.indptr[i + 1]]
        passages = ";".join(ids[r] for r in rows)
        g.add_node(
            f"concept:{word}", label=str(word), type="concept", df=int(cg.df[i]), pagerank=float(cg.concept_rank[i]), passages=passages
        )
    adj = cg.adj.tocoo()
    for a, b, w in zip(adj.row, adj.col, adj.data):
        if a < b:
            g.add_edge(f"concept:{cg.vocab[a]}", f"concept:{cg.vocab[b]}", weight=float(w))
    return g


def _terag(index: Index) -> nx.Graph:
    tg = load_names_graph(index)
    g = nx.Graph()
    passages = _passages(index, g, tg.ids)
    nodes = []
    for label, kind, pf in zip(tg.labels, tg.kinds, tg.pf):
        node = f"{kind}:{label}"
        g.add_node(node, label=str(label), type=str(kind), passages_naming=int(pf))
        nodes.append(node)
    n_c = len(nodes)
    adj = tg.adj.tocoo()
    for a, b in zip(adj.row, adj.col):
        if a < n_c and b < n_c and a < b:
            g.add_edge(nodes[a], nodes[b], weight=1.0, kind="named together")
    c2p = tg.C2P.tocoo()
    for c, p in zip(c2p.row, c2p.col):
        g.add_edge(nodes[c], passages[p], weight=1.0, kind="named in")
    return g


def _knn(index: Index, settings: Settings) -> nx.Graph:
    knn = load_knn_graph(index, settings.knn_k)
    g = nx.Graph()
    passages = _passages(index, g, knn.ids)
    adj = knn.adj.tocoo()
    for a, b, w in zip(adj.row, adj.col, adj.data):
        if a < b:
            g.add_edge(passages[a], passages[b], weight=float(w))
    return g
