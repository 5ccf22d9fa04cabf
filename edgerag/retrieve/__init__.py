"""Retrievers: one module per method; each turns a query into a `Context` within budget λ.

A retriever is a plain function ``(index, embedder, query, budget, settings) -> Context``.
`METHODS` maps the names the CLI and API accept to those functions.
"""

from __future__ import annotations

from typing import Callable

from ..types import Context
from . import hybrid, ket, keyword, knng, skeleton, text

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
}

# The LLM-built stage each method reads: (core selection, β) — None: the setting's value.
KG_OF: dict[str, tuple[str | None, float | None]] = {
    "skeleton": (None, None), "ket": (None, None), "ket-u": ("random", None), "kg": ("pagerank", 1.0), "hybrid": ("pagerank", 1.0),
}


def get_retriever(method: str) -> Retriever:
    try:
        return METHODS[method]
    except KeyError:
        raise ValueError(f"unknown method {method!r}; available: {', '.join(sorted(METHODS))}") from None
