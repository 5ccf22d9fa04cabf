"""The indexes a server serves, each one model a client can pick (``edgerag:NAME``).

`ServedRAG` is the `EdgeRAG` of one index with its retrieval behind a lock: the model's thread
(an answer's own retrieval, a chain's steps) and the request threads (``/edgerag/retrieve``)
take turns in the retriever, never in the model. Indexes served together share one embedder
when they were built with the same one, and llama.cpp shares one loaded model between them
(llm/local.py loads a GGUF once per process).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..api import EdgeRAG
from ..types import Context

PREFIX = "edgerag:"


class ServedRAG(EdgeRAG):
    """An `EdgeRAG` whose retrieval one thread runs at a time (its stages and vector caches
    are filled on first use, by whichever thread comes first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retrieving = threading.RLock()

    def retrieve(self, query: str, method: str | None = None, budget: int | None = None) -> Context:
        with self._retrieving:
            return super().retrieve(query, method=method, budget=budget)


@dataclass
class Served:
    """One served index."""

    name: str
    path: Path
    rag: ServedRAG
    created: float = field(default=0.0)

    @property
    def model_id(self) -> str:
        return PREFIX + self.name

    @property
    def exists(self) -> bool:
        return (self.path / "manifest.json").exists()

    @cached_property
    def digest(self) -> str:
        return hashlib.sha256(str(self.path.resolve()).encode()).hexdigest()

    def describe(self) -> dict[str, Any]:
        """What `/v1/models` and `/api/tags` say of it."""
        s = self.rag.settings
        info: dict[str, Any] = {
            "index": str(self.path),
            "method": s.method,
            "budget": s.budget,
            "exists": self.exists,
            "answer_model": None,
        }
        choice = self.rag.__dict__.get("answer_choice")
        if choice is not None:
            info["answer_model"] = choice.spec or s.model or "default"
        if self.exists:
            info["documents"] = self.rag.index.counts()["docs"]
        return info

    def size(self) -> int:
        """Bytes the index takes on disk."""
        return sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file()) if self.path.exists() else 0


def open_indexes(paths: dict[str, Path], overrides: dict[str, Any]) -> dict[str, Served]:
    """Each index opened with the server's setting overrides (nothing is loaded yet)."""
    served = {}
    for name, path in paths.items():
        rag = ServedRAG(path, **overrides)
        created = (path / "manifest.json").stat().st_mtime if (path / "manifest.json").exists() else 0.0
        served[name] = Served(name, path, rag, created)
    return served


def warm(served: dict[str, Served]) -> None:
    """Load what answers need before the first question: each embedder (one per distinct
    embedder, shared), each index, and the answering model. Runs on the model's thread."""
    shared: dict[tuple, Any] = {}
    for s in served.values():
        rag = s.rag
        key = (rag.settings.embedder, rag.settings.embed_backend, rag.settings.device)
        if key in shared:
            rag.__dict__["embedder"] = shared[key]
        else:
            shared[key] = rag.embedder
        if s.exists:
            rag.index  # noqa: B018 - opens LMDB and reads the manifest
            rag.answer_llm.llm.llama  # noqa: B018 - loads the GGUF (once per process)


def find(served: dict[str, Served], model: str | None) -> Served:
    """The index a request's ``model`` names: ``edgerag:NAME``, ``NAME``, or, with one index
    served, nothing at all. `LookupError` names the ones there are."""
    if not model and len(served) == 1:
        return next(iter(served.values()))
    name = (model or "").removeprefix(PREFIX)
    if name.endswith(":latest"):  # an Ollama client's default tag
        name = name[: -len(":latest")]
    if name in served:
        return served[name]
    raise LookupError(f"no model {model!r} here; the models are: {', '.join(s.model_id for s in served.values())}")
