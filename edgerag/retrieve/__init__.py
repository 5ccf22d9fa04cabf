"""Retrievers: one module per method; each turns a query into a `Context` within budget λ.

A retriever is a plain function ``(index, embedder, query, budget, settings) -> Context``.
`METHODS` maps the names the CLI and API accept to those functions.
"""

from __future__ import annotations

from typing import Callable

from ..types import Context
from . import text

Retriever = Callable[..., Context]

METHODS: dict[str, Retriever] = {
    "text": text.retrieve,
}


def get_retriever(method: str) -> Retriever:
    try:
        return METHODS[method]
    except KeyError:
        raise ValueError(f"unknown method {method!r}; available: {', '.join(sorted(METHODS))}") from None
