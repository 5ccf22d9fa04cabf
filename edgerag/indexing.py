"""documents → chunks, sub-chunks, sentences → vectors → the index, one batch at a time.

Each batch of documents is split, embedded and written in one LMDB transaction, the document
records last: a run killed mid-batch leaves no trace of that batch and the next run redoes
it. Documents already in the index are skipped before any work, so indexing the same files
twice embeds nothing, and adding files embeds only the new text.

A file read before is not read again while its size and mtime (or, failing those, its
bytes) are unchanged; a file whose content changed is read, its new documents indexed, and
then its old documents that the new version lacks are deleted in one transaction together
with the switch of its ``files`` record (`_replace_file`), KG extractions and TERAG names of
chunks whose text did not change carried over so no LLM token is paid twice. Each chunk,
sub-chunk and sentence record keeps its page range or section (``loc``, provenance.py).

Embedding is done once per distinct text within a batch (a one-sentence passage is its own
chunk, sub-chunk and sentence: one vector). A chunk that fits the embedder's input window is
embedded whole; a longer one, which the model would truncate, gets the normalised mean of its
sub-chunk vectors, so every word of it counts. Other sub-chunks and sentences are embedded
when first read (pieces.py), unless ``Settings.embed_pieces_at_index``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

import numpy as np

from .embed.embedder import Embedder
from .ingest import FileDone, FileState, Skipped, Unchanged
from .progress import Cancelled, bar
from .provenance import locate
from .settings import Settings
from .store import Index
from .text.chunking import DocumentSplit, chunk_heading, split_document
from .text.keywords import keyword_set
from .text.tokens import Tokenizer
from .types import Document, InsertReport, Span

SAVE_EVERY_S = 300
"""The hnswlib caches are rewritten at the end of a run and at most this often during it;
LMDB, committed every batch, is the truth, and a reopened index tops the caches up from it."""


def _batched(items: Iterable, n: int, max_chars: int) -> Iterator[list]:
    """Lists of at most ``n`` documents (or skips) and about ``max_chars`` characters of
    document text; file records (`Unchanged`, `FileDone`) ride along uncounted."""
    batch, chars, count = [], 0, 0
    for item in items:
        batch.append(item)
        if isinstance(item, (Unchanged, FileDone)):
            continue
        count += 1
        chars += len(getattr(item, "text", ""))
        if count >= n or chars >= max_chars:
            yield batch
            batch, chars, count = [], 0, 0
    if batch:
        yield batch


def insert_documents(
    index: Index,
    items: Iterable[Document | Skipped],
    embedder: Embedder,
    tok: Tokenizer,
    settings: Settings,
) -> InsertReport:
    report = InsertReport()
    t0 = time.perf_counter()
    embedded_before = embedder.texts_embedded
    progress = bar(desc="indexing", unit="doc", enabled=settings.progress)
    last_save = time.perf_counter()
    try:
        for batch in _batched(items, settings.docs_per_batch, settings.batch_chars):
            new: dict[str, Document] = {}
            files: dict[str, dict] = {}  # file records to store with this batch
            changed: list[FileState] = []  # files whose old documents go after this batch
            for item in batch:
                if isinstance(item, Skipped):
                    report.skipped.append((item.source, item.reason))
                elif isinstance(item, Unchanged):
                    report.files_unchanged += 1
                    report.docs_present += item.docs
                    if item.touched is not None:
                        files[item.path] = item.touched.record()
                elif isinstance(item, FileDone):
                    old = index.get("files", item.state.path)
                    if old and set(old.get("docs", [])) - set(item.state.docs):
                        changed.append(item.state)
                    else:
                        files[item.state.path] = item.state.record()
                elif item.id in new or index.has_doc(item.id):
                    report.docs_present += 1
                else:
                    new[item.id] = item
            shown = sum(not isinstance(i, (Unchanged, FileDone)) for i in batch)
            if not new:
                if files:
                    with index.tables.write() as txn:
                        for path, rec in files.items():
                            index.tables.put(txn, "files", path, rec)
                for state in changed:
                    _replace_file(index, state, embedder, report)
                progress.update(shown)
                continue
            splits = {
                d.id: split_document(d, tok, settings.chunk_tokens, settings.chunk_overlap, settings.subchunk_tokens, settings.chunk_breaks)
                for d in new.values()
            }
            t_embed = time.perf_counter()
            vectors = _embed_batch(splits, embedder, settings.embed_pieces_at_index)
            report.embed_seconds += time.perf_counter() - t_embed
            _write_batch(index, new, splits, vectors, files)
            for state in changed:
                _replace_file(index, state, embedder, report)
            if time.perf_counter() - last_save > SAVE_EVERY_S:
                index.save_vectors()
                last_save = time.perf_counter()
            report.docs_added += len(new)
            for d in new.values():
                report.ocr_pages += len({m.page for m in d.marks if m.ocr})
                report.ocr_seconds += d.ocr_seconds
            for s in splits.values():
                report.chunks += len(s.chunks)
                report.subchunks += len(s.subchunks)
                report.sentences += len(s.sentences)
            progress.set_postfix(chunks=report.chunks, refresh=False)
            progress.update(shown)  # after the commit: a cancel here keeps this batch
        index.save_vectors()
    except Cancelled:
        index.save_vectors()
        raise
    finally:
        progress.close()
    report.texts_embedded = embedder.texts_embedded - embedded_before
    report.seconds = time.perf_counter() - t0
    return report


def _embed_batch(splits: dict[str, DocumentSplit], embedder: Embedder, pieces: bool = False) -> dict[str, dict[str, np.ndarray]]:
    """Vectors for the batch, keyed by set then id; each distinct text once. Every chunk gets
    one; sub-chunks and sentences only with ``pieces`` (``Settings.embed_pieces_at_index``),
    else only those whose text is embedded anyway (a chunk's own text, or the sub-chunks of a
    chunk too long for the window): the rest are embedded when first read (pieces.py)."""
    chunks = [c for s in splits.values() for c in s.chunks]
    subs = [c for s in splits.values() for c in s.subchunks]
    sents = [c for s in splits.values() for c in s.sentences]
    whole = embedder.fits([c.text for c in chunks])
    long_chunks = {c.id for c, ok in zip(chunks, whole) if not ok}
    to_embed: dict[str, int] = {}
    needed = [c for c, ok in zip(chunks, whole) if ok] + [s for s in subs if pieces or s.chunk_id in long_chunks]
    for span in needed + (sents if pieces else []):
        to_embed.setdefault(span.text, len(to_embed))
    matrix = embedder.encode(list(to_embed))

    def vecs(spans: list[Span]) -> dict[str, np.ndarray]:
        return {s.id: matrix[to_embed[s.text]] for s in spans if s.text in to_embed}

    out = {"subchunks": vecs(subs), "sentences": vecs(sents), "chunks": {}}
    by_chunk: dict[str, list[np.ndarray]] = {}
    for s in subs:
        if s.chunk_id in long_chunks:
            by_chunk.setdefault(s.chunk_id, []).append(out["subchunks"][s.id])
    for c, ok in zip(chunks, whole):
        if ok:
            out["chunks"][c.id] = matrix[to_embed[c.text]]
        else:
            mean = np.mean(by_chunk[c.id], axis=0)
            out["chunks"][c.id] = mean / (np.linalg.norm(mean) or 1.0)
    return out


def _write_batch(
    index: Index, docs: dict[str, Document], splits: dict[str, DocumentSplit], vectors, files: dict[str, dict] | None = None
) -> None:
    t = index.tables
    with t.write() as txn:
        for set_name, by_id in vectors.items():
            ids = list(by_id)
            if ids:
                index.vectors[set_name].put(txn, ids, np.stack([by_id[i] for i in ids]))
        for doc_id, split in splits.items():
            marks = docs[doc_id].marks
            subs_of: dict[str, list[str]] = {}
            sents_of: dict[str, list[str]] = {}
            for s in split.subchunks:
                subs_of.setdefault(s.chunk_id, []).append(s.id)
                t.put(txn, "subchunks", s.id, _record(s, marks))
            for s in split.sentences:
                sents_of.setdefault(s.chunk_id, []).append(s.id)
                t.put(txn, "sentences", s.id, _record(s, marks))
            for c in split.chunks:
                rec = _record(c, marks)
                rec.update(subchunks=subs_of.get(c.id, []), sentences=sents_of.get(c.id, []), keywords=keyword_set(c.text))
                heading = chunk_heading(c.text, rec.get("loc", {}).get("section", ""))
                if heading:
                    rec["heading"] = heading
                t.put(txn, "chunks", c.id, rec)
        index.bump_generation(txn)
        # Documents last: a document record means all of its pieces are in.
        for doc_id, d in docs.items():
            rec = {
                "title": d.title,
                "source": d.source,
                "chars": len(d.text),
                "chunks": [c.id for c in splits[doc_id].chunks],
                "added": time.time(),
            }
            if d.path:
                rec.update(path=d.path, kind=d.kind)
            page_marks = [m.page for m in d.marks if m.page]
            if page_marks:
                rec.update(pages=[page_marks[0], page_marks[-1]], file_pages=d.pages)
            ocr_pages = sorted({m.page for m in d.marks if m.ocr})
            if ocr_pages:
                rec["ocr_pages"] = ocr_pages
            t.put(txn, "docs", doc_id, rec)
        for path, frec in (files or {}).items():
            t.put(txn, "files", path, frec)


def _record(span: Span, marks=()) -> dict:
    rec = {"doc_id": span.doc_id, "text": span.text, "tokens": span.tokens, "start": span.start}
    if span.chunk_id:
        rec["chunk_id"] = span.chunk_id
    loc = locate(marks, span.start, span.start + len(span.text))
    if loc:
        rec["loc"] = loc
    return rec


def _replace_file(index: Index, state: FileState, embedder: Embedder, report: InsertReport) -> None:
    """The new version of a file is in: carry the LLM work of unchanged chunks over to their
    new ids, then delete the old documents the new version lacks, in one transaction with the
    file's new record (deletion.py). Documents another indexed file also holds stay."""
    from .deletion import delete_documents, documents_of_other_files

    old = (index.get("files", state.path) or {}).get("docs", [])
    stale = [d for d in old if d not in set(state.docs)]
    shared = documents_of_other_files(index, stale, state.path)
    stale = [d for d in stale if d not in shared]
    report.extractions_reused += _carry_over(index, stale, list(state.docs))
    done = delete_documents(index, stale, embedder, files={state.path: state.record()})
    report.docs_replaced += len(done.deleted)
    report.files_replaced.append(state.path)


def _carry_over(index: Index, old_docs: list[str], new_docs: list[str]) -> int:
    """Copy KG extractions and TERAG names from old chunks to new chunks of the same text
    that have none yet; returns how many records were copied."""

    def chunks_of(doc_ids: list[str]) -> list[tuple[str, dict]]:
        ids = [c for rec in index.get_many("docs", doc_ids) if rec for c in rec.get("chunks", [])]
        return [(c, r) for c, r in zip(ids, index.get_many("chunks", ids)) if r]

    old = chunks_of(old_docs)
    if not old:
        return 0
    by_text = {r["text"]: c for c, r in old}
    pairs = [(by_text[r["text"]], c) for c, r in chunks_of(new_docs) if r["text"] in by_text]
    copied = 0
    t = index.tables
    with t.write() as txn:
        for table in ("extractions", "names"):
            for src, dst in pairs:
                rec = t.get(txn, table, src)
                if rec is not None and not t.has(txn, table, dst):
                    t.put(txn, table, dst, rec)
                    copied += 1
    return copied
