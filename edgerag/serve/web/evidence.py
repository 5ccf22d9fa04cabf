"""Why an answer holds, as a small picture (`Evidence`): the question's names, the passages the
model read, the entities that link them, the hops of a chain and the answer; laid out on the
server with networkx (`layout`) and drawn as inline SVG by templates/why.html.

The links are the ones edgerag's bridge retrievers walk (graph/links.py): two passages are
linked by a name both mention, a capitalised span or a number (text/linkkeys.py), and the
``bridge`` retriever records which seed passage and which names lifted a passage
(``unit.meta["bridge"]``). Only names that link something are drawn: one in the question and
a passage, or in two passages. The picture is bounded (`MAX_NODES`): the passages cited first,
then those read; the names that link the most passages first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...text.linkkeys import link_keys, normalize
from ...text.normalize import normalize as normalize_text

MAX_NODES = 30
MAX_PASSAGES = 8
MAX_NAMES = 6
MAX_HOPS = 4
LABEL_CHARS = 30
LAYERS = ("question", "name", "passage", "entity", "answer")
"""Left to right: the question, its names, the passages read, the names that link them, the
hops and the answer."""


@dataclass
class Node:
    id: str
    kind: str
    """question, name, passage, entity, hop or answer."""
    label: str
    title: str = ""
    """The full text, shown on hover."""
    url: str = ""
    cited: bool = False


@dataclass
class Passage:
    """The text of one chunk the model read (its sentences joined, when it read sentences)."""

    chunk_id: str
    doc_id: str
    title: str
    text: str
    meta: dict[str, Any]


@dataclass
class Evidence:
    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    """(source, target, kind): mentions, links, bridge, hop, holds."""

    def node(self, node_id: str) -> Node | None:
        return next((n for n in self.nodes if n.id == node_id), None)


def _short(text: str, n: int = LABEL_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _names(text: str) -> set[str]:
    """The link keys of ``text`` that name things: capitalised spans and numbers."""
    return {k for kind, k in link_keys(text) if kind in ("span", "num")}


def _holds(passage: str, needle: str) -> bool:
    n = normalize_text(needle)
    return bool(n) and n in normalize_text(passage)


def evidence_of(question: str, ans, citations: list[dict[str, Any]]) -> Evidence:
    """The evidence graph of ``ans`` (read.py `Answer`) for ``question``; ``citations`` as
    serve/answering.py `citations_of` makes them, each with its passage page's ``url``."""
    ev = Evidence()
    cited = {c["chunk_id"]: c for c in citations}
    by_chunk: dict[str, Passage] = {}
    for u in ans.context.units:  # the evidence reader reads sentences: a passage is their chunk
        p = by_chunk.setdefault(u.chunk_id, Passage(u.chunk_id, u.doc_id, u.title, "", {}))
        p.text = f"{p.text} {u.text}".strip()
        p.meta.update(u.meta)
    units = sorted(by_chunk.values(), key=lambda p: p.chunk_id not in cited)[:MAX_PASSAGES]  # cited first, then in reading order
    seen = {u.chunk_id for u in units}
    ev.nodes.append(Node("q", "question", "the question", question))  # written out above the picture; in full on hover
    q_names = sorted(_names(question), key=lambda k: (-len(k), k))[:MAX_NAMES]
    passage_names = {u.chunk_id: _names(u.text) for u in units}
    for k in q_names:
        ev.nodes.append(Node(f"n:{k}", "name", _short(k), k))
        ev.edges.append(("q", f"n:{k}", "asks"))
    for u in units:
        c = cited.get(u.chunk_id)
        label = f"[{c['n']}] " if c else ""
        ev.nodes.append(
            Node(f"p:{u.chunk_id}", "passage", _short(label + (u.title or u.doc_id)), u.text[:400], (c or {}).get("url", ""), bool(c))
        )
        for k in q_names:
            if k in passage_names[u.chunk_id]:
                ev.edges.append((f"n:{k}", f"p:{u.chunk_id}", "mentions"))
    # names that link two passages read (the question's own are drawn already)
    counts: dict[str, int] = {}
    for names in passage_names.values():
        for k in names - set(q_names):
            counts[k] = counts.get(k, 0) + 1
    bridged = {normalize(k) for u in units for k in (u.meta.get("bridge") or {}).get("keys", [])}
    linking = sorted((k for k, n in counts.items() if n >= 2 or (k in bridged and n >= 1)), key=lambda k: (-counts[k], -len(k), k))
    hops = [s for s in ans.steps if s.get("phrase")][:MAX_HOPS]
    room = MAX_NODES - len(ev.nodes) - len(hops) - 1
    for k in linking[: max(room, 0)]:
        ev.nodes.append(Node(f"e:{k}", "entity", _short(k), k))
        for u in units:
            if k in passage_names[u.chunk_id]:
                ev.edges.append((f"p:{u.chunk_id}", f"e:{k}", "links"))
    for u in units:  # the bridge retriever's own record: this passage was lifted by that seed
        why = u.meta.get("bridge") or {}
        if why.get("seed") in seen and ev.node(f"p:{why['seed']}") and why["seed"] != u.chunk_id:
            ev.edges.append((f"p:{why['seed']}", f"p:{u.chunk_id}", "bridge"))
    prev = "q"
    for i, s in enumerate(hops, 1):
        node = f"h:{i}"
        ev.nodes.append(Node(node, "hop", _short(f"{i}. {s['phrase']} → {s['answer']}"), f"{s.get('question', '')} → {s['answer']}"))
        ev.edges.append((prev, node, "hop"))
        for u in units:
            if _holds(u.text, str(s.get("answer", ""))):
                ev.edges.append((f"p:{u.chunk_id}", node, "holds"))
        prev = node
    short = ans.short.strip()
    if short:
        ev.nodes.append(Node("a", "answer", _short(short), ans.text))
        if hops:
            ev.edges.append((prev, "a", "hop"))
        for u in units:
            if u.chunk_id in cited and _holds(u.text, short):
                ev.edges.append((f"p:{u.chunk_id}", "a", "holds"))
    return ev


@dataclass
class Drawing:
    """An `Evidence` placed on a canvas: what templates/why.html draws."""

    width: int
    height: int
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]


def layout(ev: Evidence, width: int = 960, row: int = 44) -> Drawing:
    """Columns by kind (networkx's multipartite layout: the question, its names, the passages,
    the linking names, the hops and answer), each column's nodes spread top to bottom."""
    import networkx as nx

    g = nx.Graph()
    for n in ev.nodes:
        layer = LAYERS.index("answer") if n.kind == "hop" else LAYERS.index(n.kind)
        g.add_node(n.id, layer=layer)
    g.add_edges_from((a, b) for a, b, _ in ev.edges if a in g and b in g)
    tallest = max((sum(1 for _, d in g.nodes(data=True) if d["layer"] == i) for i in range(len(LAYERS))), default=1)
    height = max(160, row * tallest + 40)
    pos = nx.multipartite_layout(g, subset_key="layer", align="vertical", scale=1.0) if len(g) > 1 else {n: (0.0, 0.0) for n in g}
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    margin_x, margin_y = 90, 28

    def at(node_id: str) -> tuple[float, float]:
        x, y = pos[node_id]
        fx = (x - x0) / (x1 - x0) if x1 > x0 else 0.5
        fy = (y1 - y) / (y1 - y0) if y1 > y0 else 0.5
        return round(margin_x + fx * (width - 2 * margin_x), 1), round(margin_y + fy * (height - 2 * margin_y), 1)

    nodes = []
    placed = {n.id: at(n.id) for n in ev.nodes}
    left, right = min(x for x, _ in placed.values()), max(x for x, _ in placed.values())
    for n in ev.nodes:
        x, y = placed[n.id]
        # labels of the outer columns grow inwards, so that none is cut at the picture's edge
        anchor, dx = ("start", -10) if x == left and left != right else ("end", 10) if x == right and left != right else ("middle", 0)
        nodes.append(
            {
                "id": n.id,
                "kind": n.kind,
                "label": n.label,
                "title": n.title,
                "url": n.url,
                "cited": n.cited,
                "x": x,
                "y": y,
                "anchor": anchor,
                "dx": dx,
            }
        )
    edges = []
    for a, b, kind in ev.edges:
        if a in pos and b in pos:
            (ax, ay), (bx, by) = at(a), at(b)
            edges.append({"kind": kind, "x1": ax, "y1": ay, "x2": bx, "y2": by})
    return Drawing(width, height, nodes, edges)
