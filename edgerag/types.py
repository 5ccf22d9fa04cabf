"""Typed records that cross module boundaries: documents in, contexts out."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Document:
    id: str
    text: str
    title: str = ""
    source: str = ""
    """Where it came from: a file path, or ``path#line`` for a jsonl record."""


@dataclass(frozen=True)
class Span:
    """A piece of a document: a chunk, a sub-chunk or a sentence."""

    id: str
    doc_id: str
    text: str
    tokens: int
    start: int
    """Character offset of ``text`` in the document."""
    chunk_id: str = ""
    """For sub-chunks and sentences: the chunk they belong to."""


@dataclass
class Unit:
    """One piece of retrieved context, with where it came from."""

    kind: str
    id: str
    text: str
    tokens: int
    score: float
    doc_id: str
    chunk_id: str
    title: str = ""
    source: str = ""
    """Which retriever or channel put it here."""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Context:
    """An ordered list of units cut to a token budget (λ)."""

    query: str
    method: str
    budget: int
    units: list[Unit] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    """What the retriever worked from, beyond the query (e.g. LightRAG's query keywords)."""

    @property
    def tokens(self) -> int:
        return sum(u.tokens for u in self.units)

    @property
    def doc_ids(self) -> list[str]:
        """Distinct document ids in rank order."""
        seen: dict[str, None] = {}
        for u in self.units:
            seen.setdefault(u.doc_id, None)
        return list(seen)

    def text(self, sep: str = "\n\n") -> str:
        return sep.join(u.text for u in self.units)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "method": self.method,
            "budget": self.budget,
            "tokens": self.tokens,
            "units": [u.to_dict() for u in self.units],
            **({"notes": self.notes} if self.notes else {}),
        }


@dataclass
class InsertReport:
    """What one ``insert`` did: what was added, what was skipped and why."""

    docs_added: int = 0
    docs_present: int = 0
    chunks: int = 0
    subchunks: int = 0
    sentences: int = 0
    texts_embedded: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(source, reason) for every file or record that was not indexed."""

    def summary(self) -> str:
        lines = [
            f"added {self.docs_added} documents ({self.docs_present} already indexed): "
            f"{self.chunks} chunks, {self.subchunks} sub-chunks, {self.sentences} sentences; "
            f"embedded {self.texts_embedded} texts in {self.seconds:.1f}s"
        ]
        for source, reason in self.skipped:
            lines.append(f"skipped {source}: {reason}")
        return "\n".join(lines)
