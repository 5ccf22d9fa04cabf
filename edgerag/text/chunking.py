"""Documents → chunks (ℓ tokens) → sub-chunks (⌈ℓ/2^τ⌉ tokens) and sentences.

KET-RAG §5.1 splits the corpus into chunks of ℓ tokens and every chunk into 2^τ sub-chunks.
Here:

* A chunk is packed from whole sentences up to ℓ tokens, never across two documents (a short
  document is one chunk) and, with ``Settings.chunk_breaks``, never across a page or heading
  of the document: a page of a PDF or a section of a Word file starts a chunk of its own. Consecutive chunks share up to ``overlap`` tokens of whole trailing
  sentences. A sentence longer than a sub-chunk is cut at word boundaries (a run of more than
  32 characters without a space counts as several words); a table row (text/rows.py) is cut
  only when longer than a chunk, and no sub-chunk cut falls inside one (a sub-chunk holding a
  row longer than ⌈ℓ/2^τ⌉ is that much longer).
* A chunk of T tokens is cut into n = ⌈T / ⌈ℓ/2^τ⌉⌉ sub-chunks of about T/n tokens each, so a
  full chunk yields exactly 2^τ; cuts snap to a sentence boundary when one lies within a
  quarter sub-chunk of the target, else fall between words.
* The sentences of each chunk are kept: keyword and concept vectors (KET-RAG Alg. 3,
  G2ConS Eq. 1) are means of sentence vectors.

Token counts of the returned spans are exact (the span's own text counted); the packing uses
per-word counts, which may differ from the exact count by a token or two per span.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from ..types import Document, Span
from .rows import row_spans
from .sentences import sentence_spans
from .tokens import Tokenizer

_WORD = re.compile(r"\S{1,32}")
"""Packing units: whitespace-separated words, a longer run (a URL, or Chinese and Japanese,
written without spaces) taken 32 characters at a time, so no unit outgrows a sub-chunk."""


@dataclass
class DocumentSplit:
    chunks: list[Span] = field(default_factory=list)
    subchunks: list[Span] = field(default_factory=list)
    sentences: list[Span] = field(default_factory=list)


def split_document(
    doc: Document, tok: Tokenizer, chunk_tokens: int, overlap: int, subchunk_tokens: int, breaks: bool = False
) -> DocumentSplit:
    """``breaks``: a page or section start (``doc.marks``) also starts a chunk, and no
    sentence runs across it (``Settings.chunk_breaks``)."""
    text = doc.text
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    out = DocumentSplit()
    if not words:
        return out
    starts = [s for s, _ in words]
    wtok = np.fromiter((max(1, tok.count(" " + text[s:e])) for s, e in words), dtype=np.int64, count=len(words))
    cum = np.concatenate([[0], np.cumsum(wtok)])

    # Segments: sentences as word ranges, long ones cut into sub-chunk-sized windows.
    bounds = {0, len(words)}
    for s, _ in sentence_spans(text):
        bounds.add(bisect_left(starts, s))
    hard = {bisect_left(starts, m.start) for m in doc.marks} - {0, len(words)} if breaks else set()
    bounds |= hard
    cuts = sorted(b for b in bounds if b <= len(words))
    rows = {bisect_left(starts, s) for s, _ in row_spans(text)}  # a table row stays whole up to ℓ
    segments: list[tuple[int, int]] = []
    whole: set[tuple[int, int]] = set()
    for a, b in zip(cuts, cuts[1:]):
        limit = chunk_tokens if a in rows else subchunk_tokens
        while a < b:
            end = a + 1
            while end < b and cum[end + 1] - cum[a] <= limit:
                end += 1
            segments.append((a, end))
            if a in rows and end == b:
                whole.add((a, b))
            a = end
    segtok = [int(cum[b] - cum[a]) for a, b in segments]

    def span(kind_id: str, wa: int, wb: int, chunk_id: str = "") -> Span:
        s, e = words[wa][0], words[wb - 1][1]
        piece = text[s:e]
        return Span(id=kind_id, doc_id=doc.id, text=piece, tokens=tok.count(piece), start=s, chunk_id=chunk_id)

    i, ci = 0, 0
    while i < len(segments):
        j, total = i, 0
        while j < len(segments) and (j == i or (total + segtok[j] <= chunk_tokens and segments[j][0] not in hard)):
            total += segtok[j]
            j += 1
        chunk_id = f"{doc.id}:{ci}"
        out.chunks.append(span(chunk_id, segments[i][0], segments[j - 1][1]))
        for k, (a, b) in enumerate(segments[i:j]):
            out.sentences.append(span(f"{chunk_id}:t{k}", a, b, chunk_id))
        for k, (a, b) in enumerate(_subchunk_cuts(segments[i:j], cum, subchunk_tokens, whole)):
            out.subchunks.append(span(f"{chunk_id}:s{k}", a, b, chunk_id))
        ci += 1
        if j >= len(segments):
            break
        k, ov = j, 0
        while k - 1 > i and ov + segtok[k - 1] <= overlap and segments[j][0] not in hard:  # no overlap back over a break
            ov += segtok[k - 1]
            k -= 1
        i = k
    return out


def _subchunk_cuts(
    segments: list[tuple[int, int]], cum: np.ndarray, size: int, whole: AbstractSet[tuple[int, int]] = frozenset()
) -> list[tuple[int, int]]:
    """Word ranges of ⌈T/size⌉ nearly equal sub-chunks of the words covered by ``segments``;
    a cut inside a segment of ``whole`` (a table row) moves to the row's nearer edge, or is
    not made when the row has no edge inside the range."""
    wa, wb = segments[0][0], segments[-1][1]
    total = int(cum[wb] - cum[wa])
    n = max(1, -(-total // size))
    if n == 1:
        return [(wa, wb)]
    seg_bounds = np.array([a for a, _ in segments[1:]], dtype=np.int64)
    edges = [wa]
    for k in range(1, n):
        target = cum[wa] + k * total / n
        w = int(np.searchsorted(cum, target))  # first word boundary at or past the target
        w = min(max(w, edges[-1] + 1), wb - 1)
        if len(seg_bounds):
            near = seg_bounds[np.argmin(np.abs(cum[seg_bounds] - target))]
            if abs(cum[near] - target) <= size / 4 and edges[-1] < near < wb:
                w = int(near)
        row = next(((a, b) for a, b in segments if (a, b) in whole and a < w < b), None)
        if row is not None:
            w = min((e for e in row if edges[-1] < e < wb), key=lambda e: abs(cum[e] - target), default=-1)
            if w < 0:
                continue  # the row is the whole sub-chunk: no cut
        if w > edges[-1] and w < wb:
            edges.append(w)
    edges.append(wb)
    return list(zip(edges, edges[1:]))


_HEADING_LINE = re.compile(r"\A[#\s]*(?P<head>[^\n]{1,120}?)\s*\n\s*\n")
_HEADING_END = tuple(".!?:;,")


def chunk_heading(text: str, section: str = "") -> str:
    """The heading a chunk stands under: the innermost heading of its section path (DOCX,
    HTML, EPUB), else a heading line that opens its text (a short line with a blank line
    below and no closing punctuation: a PDF page's title, as the PDF reader sets it apart,
    or a Markdown ``# heading``); "" when it has none. Retrieved units take it as their title
    (retrieve/units.py), so a passage is found by the name its page is headed with."""
    if section:
        return section.split(" › ")[-1].strip()
    m = _HEADING_LINE.match(text)
    if m and len(m["head"].split()) <= 12 and not m["head"].endswith(_HEADING_END):
        return m["head"].strip()
    return ""
