"""The method registry: one `Method` record per retrieval method.

Everything that needs to know about methods reads it: the API and the CLI (names, choices,
help), `build` (which stages a method needs), `eval` (what a method's index cost, which
settings a sweep may vary for it), the TUI's method lists and the README's method table
(`docs_gen.py`). Adding a method is one retriever function in ``retrieve/`` and one record
here; ``tests/test_methods_registry.py`` checks that every consumer agrees with the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from .context import fill_room, recording_skipped
from .embed.pieces import embed_missing
from .provenance import attach
from .retrieve import bridge, concept, g2cons, hybrid, ket, keyword, kg_search, knng, lightrag, terag, text
from .types import Context

Retriever = Callable[..., Context]
"""``(index, embedder, query, budget, settings) -> Context``; a method with ``query_llm``
also takes ``llm=`` (the metered local model)."""

GRAPHS = ("pieces", "knn", "bipartite", "concepts", "links")
"""The LLM-free stages a method may read, in build order (build.py builds them, each in
seconds, on first use). ``pieces`` is every sub-chunk and sentence vector (pieces.py: indexing
leaves most of them to be embedded when a method first needs them all)."""

KNOBS: dict[str, str] = {"budget": "λ", "beta": "β", "kappa": "κ", "theta": "θ", "lambda_w": "λ_w"}
"""Settings an evaluation sweep may vary (``eval --sweep``), with the papers' symbols. A
method reads ``budget`` always, the others when its record lists them in ``settings``."""


@dataclass(frozen=True)
class KG:
    """The LLM-built knowledge graph a method reads: the KG extraction of a core of chunks."""

    selection: str | None
    """How the core is chosen: ``pagerank`` (KET-RAG), ``random`` (KET-RAG-U), ``concept``
    (G2ConS), or None for ``Settings.core_selection``."""
    fraction: str | float
    """The core's share of the chunks: a setting's name (``beta``, ``kappa``) or a number."""


@dataclass(frozen=True)
class Method:
    """One retrieval method: what it runs, what it reads, where it comes from."""

    name: str
    retrieve: Retriever
    reads: str
    """What it reads, for a person (the README's method table)."""
    ranks: str
    """How it ranks and fills the budget λ, for a person."""
    graphs: tuple[str, ...] = ()
    """LLM-free stages it reads beyond the chunk vectors (names from `GRAPHS`)."""
    kg: KG | None = None
    """The LLM-built KG it reads, if any."""
    names: bool = False
    """Reads TERAG's names of every passage (an LLM stage of its own)."""
    query_llm: bool = False
    """Calls the local model at query time (its tokens land in the ledger)."""
    settings: tuple[str, ...] = ()
    """The `Settings` fields it reads beyond ``budget`` (λ)."""
    paper: str = ""
    """The paper and section it implements ("edgerag" for our own)."""
    measured: str = ""
    """What it measured on the dev splits, per extracting model, against `text` (docs/benchmarks.md,
    "The papers' graphs by model"): `edgerag methods` and docs/methods.md print it."""

    @property
    def llm_built(self) -> bool:
        """Needs LLM work at index time (`edgerag build`)."""
        return self.kg is not None or self.names

    def kg_core(self, settings) -> tuple[str, float] | None:
        """(core selection, core fraction) of its KG under ``settings`` — β or κ read from
        there when the record names a setting — or None without a KG."""
        if self.kg is None:
            return None
        f = self.kg.fraction
        return self.kg.selection or settings.core_selection, float(getattr(settings, f) if isinstance(f, str) else f)

    def core_graph(self, core_selection: str) -> str | None:
        """The LLM-free graph that ranks its KG's core: the KNN graph for a PageRank (or
        random) core, the concept graph for a concept-ranked one; None without a KG."""
        if self.kg is None:
            return None
        return "concepts" if (self.kg.selection or core_selection) == "concept" else "knn"

    def graph_stages(self, core_selection: str, text_unit: str = "chunks") -> tuple[str, ...]:
        """The LLM-free stages to build before it can run, in build order (`GRAPHS`): its own
        graphs and its core's graph, after every piece vector when it reads them: the keyword
        graph (KET-RAG Alg. 3 averages sentence vectors), a KG's sub-chunks, or sub-chunks as
        its text unit."""
        need = {*self.graphs, self.core_graph(core_selection)}
        if "bipartite" in need or self.kg is not None or (text_unit == "subchunks" and "text_unit" in self.settings):
            need.add("pieces")
        return tuple(g for g in GRAPHS if g in need)

    @property
    def index_llm_calls(self) -> str:
        """Its LLM calls at index time, for a person (n = chunks)."""
        if self.names:
            return "⌈n/terag_batch⌉ calls (names only; n at the default 1)"
        if self.kg is None:
            return "none"
        f = self.kg.fraction
        return "n calls" if f == 1.0 else f"⌈{KNOBS.get(f, f)}·n⌉ calls"


def _finished(retriever: Retriever, method: Method) -> Retriever:
    """Every method's context, finished the same way: the piece vectors it reads whole are
    embedded first when indexing left them out (pieces.py), the budget its units leave is
    filled with the best pieces of the units it skipped as too big (context.fill_room: no
    method answers "0 units" on pages of prose), and every unit carries where its text is in
    its file (provenance.py)."""

    @wraps(retriever)
    def run(index, embedder, query, budget, settings, **extra) -> Context:
        if "pieces" in method.graph_stages(settings.core_selection, settings.text_unit):
            embed_missing(index, embedder, settings.progress)
        with recording_skipped() as skipped:
            ctx = retriever(index, embedder, query, budget, settings, **extra)
        if skipped and ctx.tokens < ctx.budget:
            fill_room(index, embedder, embedder.encode_one(query), ctx, skipped)
        attach(index, ctx.units)
        return ctx

    return run


_KET = ("beta", "core_selection", "knn_k", "seed", "theta")
_BRIDGE = (
    "link_kinds",
    "link_df_cap",
    "link_word_df_cap",
    "bridge_fusion",
    "bridge_rrf_k",
    "bridge_dense_weight",
    "bridge_bm25_weight",
    "bridge_dedup",
)
_CONCEPT = (
    "theta_sem",
    "theta_co",
    "concept_top_k",
    "concept_hops",
    "concepts_per_chunk",
    "concept_cooccurrence",
    "concept_vectors",
    "concept_similarity_filter",
    "concept_rerank",
)

_RECORDS = (
    Method(
        "text",
        text.retrieve,
        "chunk vectors",
        "top cosine until λ",
        settings=("text_unit", "exact_search_max", "hnsw_ef"),
        paper="Text-RAG baseline (KET-RAG §6.1)",
    ),
    Method(
        "knng",
        knng.retrieve,
        "+ KNN chunk graph (K/2 lexical + K/2 cosine links)",
        "cosine seeds, each followed by its graph neighbours",
        graphs=("knn",),
        settings=("knn_k", "exact_search_max", "hnsw_ef"),
        paper="KNNG-RAG baseline (KET-RAG §6.1)",
    ),
    Method(
        "keyword",
        keyword.retrieve,
        "keyword–sub-chunk bipartite graph",
        "KET-RAG Alg. 4: seed keywords until 2λ of candidates, rerank by cosine",
        graphs=("bipartite",),
        paper="KET-RAG §4.2, keyword channel",
    ),
    Method(
        "skeleton",
        kg_search.retrieve_skeleton,
        "KG extracted from the β core chunks (PageRank over the KNN graph)",
        "KET-RAG Alg. 2 KG local search",
        kg=KG(None, "beta"),
        settings=_KET[:4],
        paper="KET-RAG §4.1, skeleton KG alone",
        measured="2Wiki 24 (0.5B) / 19 (1.5B), HotpotQA 28 / 27, MuSiQue 28 / 29; its β core holds 18–34 % of the supporting passages; "
        "`text` 74 / 93 / 78, `bridge-ppr` 90 / 97 / 86",
    ),
    Method(
        "kg",
        kg_search.retrieve_kg,
        "KG extracted from every chunk (β = 1)",
        "KG local search",
        kg=KG("pagerank", 1.0),
        paper="full KG-RAG baseline (KET-RAG §6.1)",
        measured="0.5B only, λ = 12,000: 51 on MuSiQue (`text` 89), 66 on 2Wiki (`text` 86)",
    ),
    Method(
        "ket",
        ket.retrieve,
        "skeleton + bipartite graph",
        "θ·λ from the KG, (1−θ)·λ from keywords",
        graphs=("bipartite",),
        kg=KG(None, "beta"),
        settings=_KET,
        paper="KET-RAG §4",
        measured="2Wiki 75 with either model, HotpotQA 91 (0.5B) / 90 (1.5B), MuSiQue 79 with either: within a question or three of "
        "`text` (74 / 93 / 78), by its keyword channel; `bridge-ppr` 90 / 97 / 86. Answering with the 1.5B on 2Wiki: EM 52 "
        "against `bridge-ppr`'s 59",
    ),
    Method(
        "ket-u",
        ket.retrieve_uniform,
        "as `ket`, core drawn uniformly at random (seeded)",
        "as `ket`",
        graphs=("bipartite",),
        kg=KG("random", "beta"),
        settings=_KET,
        paper="KET-RAG-U (KET-RAG §6.3)",
    ),
    Method(
        "hybrid",
        hybrid.retrieve,
        "chunk vectors + full KG",
        "λ/2 text, λ/2 KG",
        kg=KG("pagerank", 1.0),
        settings=("text_unit", "exact_search_max", "hnsw_ef"),
        paper="Hybrid-RAG baseline (KET-RAG §6.1)",
    ),
    Method(
        "concept",
        concept.retrieve,
        "G2ConS concept graph (keywords linked when cosine ≥ θ_sem and co-occurrence ≥ θ_co, Dice weights)",
        "top-k concepts' chunks (local rerank), then BFS N hops (pooled, global rerank)",
        graphs=("bipartite", "concepts"),
        settings=_CONCEPT,
        paper="G2ConS §3.3, concept retrieval",
    ),
    Method(
        "g2cons",
        g2cons.retrieve,
        "concept graph + core KG from the κ chunks ranked by concept PageRank",
        "λ_w·λ KG local search, (1−λ_w)·λ concepts, chunks both found first",
        graphs=("bipartite", "concepts"),
        kg=KG("concept", "kappa"),
        settings=("kappa", "lambda_w", *_CONCEPT),
        paper="G2ConS §3.4",
        measured="2Wiki 72 (0.5B) / 73 (1.5B), under `text` (74) at every λ; `bridge-ppr` 90. Answering with the 1.5B on 2Wiki: "
        "EM 52 against `bridge-ppr`'s 59",
    ),
    Method(
        "bridge",
        bridge.retrieve,
        "link graph: passages × keys (capitalised spans, numbers, rare words; df-capped, IDF-weighted)",
        "cosine + λ_b·cos(seed)·shared-key IDF for passages linked to the s nearest; each bridged passage names its seed and keys",
        graphs=("links",),
        settings=("bridge_seeds", "bridge_lambda", "bridge_link_cap", *_BRIDGE),
        paper="edgerag (issue #7)",
    ),
    Method(
        "bridge-ppr",
        bridge.retrieve_ppr,
        "the same link graph",
        "Personalized PageRank over passages and keys, restarting at the nearest passages",
        graphs=("links",),
        settings=(
            "bridge_ppr_seeds",
            "bridge_ppr_temperature",
            "bridge_ppr_seed_ranking",
            "bridge_ppr_damping",
            "bridge_ppr_eps",
            *_BRIDGE,
        ),
        paper="edgerag (issue #7)",
    ),
    Method(
        "terag",
        terag.retrieve,
        "TERAG graph: passages and the entities/concepts the model named in them",
        "query NER → exact or semantic seeds × 1/passage frequency → Personalized PageRank over passages",
        names=True,
        query_llm=True,
        settings=("terag_batch", "terag_max_tokens", "terag_damping", "terag_semantic_top", "terag_query_max_tokens"),
        paper="TERAG §3",
        measured="names cost 37 % (0.5B) / 40 % (1.5B) of the KG extractor's output tokens a passage a call (60 passages of 2Wiki; "
        "44 % / 46 % at five a call); 0.5B at λ = 12,000: 55 on 2Wiki (`text` 86)",
    ),
    Method(
        "lightrag-local",
        lightrag.retrieve_local,
        "the KG at β (β = 1: LightRAG as published)",
        "the query's low-level keywords (one short model call, cached) → top-k entities → their relations → their source sub-chunks",
        kg=KG(None, "beta"),
        query_llm=True,
        settings=(*_KET[:4], "lightrag_top_k", "lightrag_query_max_tokens"),
        paper="LightRAG §3.2, local",
        measured="2Wiki 22 (0.5B) / 20 (1.5B), HotpotQA 28 with either, MuSiQue 32 / 29; `text` 74 / 93 / 78, `bridge-ppr` 90 / 97 / 86",
    ),
    Method(
        "lightrag-global",
        lightrag.retrieve_global,
        "the same KG",
        "high-level keywords → top-k relations → their endpoint entities → their source sub-chunks",
        kg=KG(None, "beta"),
        query_llm=True,
        settings=(*_KET[:4], "lightrag_top_k", "lightrag_query_max_tokens"),
        paper="LightRAG §3.2, global",
    ),
    Method(
        "lightrag-hybrid",
        lightrag.retrieve_hybrid,
        "the same KG",
        "λ/2 local, λ/2 global, no unit twice",
        kg=KG(None, "beta"),
        query_llm=True,
        settings=(*_KET[:4], "lightrag_top_k", "lightrag_query_max_tokens"),
        paper="LightRAG §3.2, hybrid",
        measured="2Wiki 24 (0.5B) / 21 (1.5B), HotpotQA 31 / 32, MuSiQue 36 / 37; `text` 74 / 93 / 78, `bridge-ppr` 90 / 97 / 86",
    ),
)

REGISTRY: dict[str, Method] = {}


def register(method: Method) -> Method:
    """Add a method (its retriever wrapped to attach provenance); a name may be taken once."""
    if method.name in REGISTRY:
        raise ValueError(f"a method named {method.name!r} is registered already")
    unknown = set(method.graphs) - set(GRAPHS)
    if unknown:
        raise ValueError(f"{method.name}: unknown graph stages {sorted(unknown)}; known: {', '.join(GRAPHS)}")
    from dataclasses import replace

    REGISTRY[method.name] = replace(method, retrieve=_finished(method.retrieve, method))
    return REGISTRY[method.name]


def unregister(name: str) -> None:
    """Remove a method (tests register toy methods and take them away again)."""
    REGISTRY.pop(name, None)


for _m in _RECORDS:
    register(_m)


def get(name: str) -> Method:
    """The record of ``name``, or a ValueError listing the methods there are."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown method {name!r}; available: {', '.join(names())}") from None


def names() -> list[str]:
    """Every method's name, sorted."""
    return sorted(REGISTRY)


def readers(knob: str) -> frozenset[str]:
    """The methods whose results depend on sweepable setting ``knob`` (`KNOBS`)."""
    if knob == "budget":
        return frozenset(REGISTRY)
    return frozenset(m.name for m in REGISTRY.values() if knob in m.settings)
