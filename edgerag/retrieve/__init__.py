"""Retrievers: one module per method; each turns a query into a `Context` within budget λ.

A retriever is a plain function ``(index, embedder, query, budget, settings) -> Context``;
those in `QUERY_LLM` also take ``llm=`` (the metered local model).
`METHODS` maps the names the CLI and API accept to those functions.
"""

from __future__ import annotations

from functools import wraps
from typing import Callable

from ..provenance import attach
from ..types import Context
from . import bridge, concept, g2cons, hybrid, ket, keyword, knng, lightrag, skeleton, terag, text

Retriever = Callable[..., Context]

METHODS: dict[str, Retriever] = {
    "text": text.retrieve,
    "knng": knng.retrieve,
    "keyword": keyword.retrieve,
    "skeleton": skeleton.retrieve_skeleton,
    "kg": skeleton.retrieve_kg,
    "ket": ket.retrieve,
    "ket-u": ket.retrieve_uniform,
    "hybrid": hybrid.retrieve,
    "concept": concept.retrieve,
    "g2cons": g2cons.retrieve,
    "terag": terag.retrieve,
    "bridge": bridge.retrieve,
    "bridge-ppr": bridge.retrieve_ppr,
    "lightrag-local": lightrag.retrieve_local,
    "lightrag-global": lightrag.retrieve_global,
    "lightrag-hybrid": lightrag.retrieve_hybrid,
}



def _with_provenance(retriever: Retriever) -> Retriever:
    """Every method's units carry where their text is in its file (provenance.py)."""

    @wraps(retriever)
    def run(index, *args, **kwargs) -> Context:
        ctx = retriever(index, *args, **kwargs)
        attach(index, ctx.units)
        return ctx

    return run


METHODS = {name: _with_provenance(fn) for name, fn in METHODS.items()}

# Methods that call the local model at query time (they take ``llm=`` as well).
QUERY_LLM = frozenset({"terag", "lightrag-local", "lightrag-global", "lightrag-hybrid"})

# Methods whose graph comes from TERAG's name extraction rather than the KG extractor.
NAMES_OF = frozenset({"terag"})

# The LLM-built stage each method reads: (core selection, core fraction). A selection of None
# means Settings.core_selection; a fraction given by name means that setting (β or κ).
KG_OF: dict[str, tuple[str | None, float | str]] = {
    "skeleton": (None, "beta"), "ket": (None, "beta"), "ket-u": ("random", "beta"),
    "kg": ("pagerank", 1.0), "hybrid": ("pagerank", 1.0), "g2cons": ("concept", "kappa"),
    "lightrag-local": (None, "beta"), "lightrag-global": (None, "beta"), "lightrag-hybrid": (None, "beta"),
}  # fmt: skip


def get_retriever(method: str) -> Retriever:
    try:
        return METHODS[method]
    except KeyError:
        raise ValueError(f"unknown method {method!r}; available: {', '.join(sorted(METHODS))}") from None
