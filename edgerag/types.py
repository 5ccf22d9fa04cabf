"""Typed records that cross module boundaries: documents in, contexts out."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Mark:
    """Where a page or a section begins in a document's text (provenance.py reads them)."""

    start: int
    """Character offset in the document text."""
    page: int = 0
    """1-based page number (PDF); 0 for formats without pages."""
    section: str = ""
    """Heading path, outermost first, joined by " › " (DOCX, HTML, EPUB)."""
    ocr: float = 0.0
    """The OCR confidence (0–1) of text read from an image (ingest/ocr.py); 0 for a text layer."""


@dataclass(frozen=True)
class Document:
    id: str
    text: str
    title: str = ""
    source: str = ""
    """Where it came from: a file path, or ``path#line`` for a jsonl record."""
    marks: tuple[Mark, ...] = ()
    """Page or section starts, in text order; empty for plain text."""
    path: str = ""
    """The real path of the file it was read from (the key of in-place updates); set by
    `iter_documents`, empty for documents made in code."""
    kind: str = ""
    """The reader that made it: txt, md, jsonl, pdf, docx, html, epub."""
    pages: int = 0
    """Pages of the whole file (PDF); 0 for formats without pages."""
    ocr_seconds: float = 0.0
    """Time spent recognising its OCR pages (0 when none, or all remembered)."""


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
    provenance: dict[str, Any] = field(default_factory=dict)
    """Where the text is in its file: ``file``, ``pages`` ([first, last], PDF), ``section``
    (heading path) and ``label``, the line people read (``report.pdf p. 12–13``)."""

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
    files_unchanged: int = 0
    """Files skipped unread: same path, size and mtime (or same bytes) as when indexed."""
    files_replaced: list[str] = field(default_factory=list)
    """Files whose content changed: their old documents were removed (in-place update)."""
    docs_replaced: int = 0
    """Old documents removed because their file changed."""
    extractions_reused: int = 0
    """KG extractions and TERAG name sets carried over to new chunks of unchanged text."""
    ocr_pages: int = 0
    """Pages (or images) of the added documents read by OCR (ingest/ocr.py)."""
    ocr_seconds: float = 0.0
    """Time OCR took on them (pages remembered from an earlier run cost nothing)."""

    def summary(self) -> str:
        lines = [
            f"added {self.docs_added} documents ({self.docs_present} already indexed): "
            f"{self.chunks} chunks, {self.subchunks} sub-chunks, {self.sentences} sentences; "
            f"embedded {self.texts_embedded} texts in {self.seconds:.1f}s"
        ]
        if self.files_unchanged:
            lines.append(f"{self.files_unchanged} file(s) unchanged since they were indexed: not read again")
        if self.files_replaced:
            lines.append(
                f"updated in place: {', '.join(self.files_replaced)} ({self.docs_replaced} old document(s) removed, "
                f"{self.extractions_reused} LLM extraction(s) of unchanged text reused)"
            )
        if self.ocr_pages:
            lines.append(f"read {self.ocr_pages} page(s) by OCR in {self.ocr_seconds:.1f}s; their text is marked (OCR) in citations")
        for source, reason in self.skipped:
            lines.append(f"skipped {source}: {reason}")
        return "\n".join(lines)
