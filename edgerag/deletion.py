"""Deleting documents: every trace of them, in one transaction (LightRAG's clean delete, #8).

One LMDB write transaction removes a document's record, its chunks, sub-chunks and
sentences, their vectors, the KG extractions and TERAG names of its chunks, and every cached
LLM call whose prompt held its text (the cache remembers which chunks a call read, metered.py),
so a deleted fact cannot come back from the cache. The same transaction bumps the index
generation, which marks every all-chunk stage stale: the KNN graph, the keyword bipartite
graph, concept graphs and the link graph are rebuilt from what remains on their next use,
LLM-free. It also drops the records of the KG and TERAG stages built over a deleted chunk,
so no retriever can read a stale one even if the process dies right after the commit.

Those stages are then rebuilt at once over their surviving chunks, from the stored
extractions and names, without the LLM: an entity that other chunks also name stays, its
description remade from their sentences; an entity only the deleted chunks named is gone.
A KG core is not re-chosen here (that could need new extractions): the next
`edgerag build` re-ranks it and extracts only the chunks it lacks.

A file path (or a folder) names the documents read from the files under it (`resolve`);
deleting them also drops those files' records, so indexing the file again reads it anew.
The same transaction removes deleted ids from any file record that lists them, and may store
new file records (an edited file's new version, indexing.py).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from .embed.embedder import Embedder
from .graph.kg import build_kg
from .graph.names_graph import STAGE as TERAG_STAGE
from .graph.names_graph import build_names_graph
from .store import Index
from .store.index import VECTOR_SETS
from .store.stages import load_arrays
from .store.tables import key


@dataclass
class DeleteReport:
    deleted: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Ids asked for that are not documents of the index."""
    chunks: int = 0
    subchunks: int = 0
    sentences: int = 0
    vectors: int = 0
    extractions: int = 0
    names: int = 0
    llm_calls: int = 0
    """Cached LLM calls forgotten because they read a deleted chunk."""
    stages_rebuilt: list[str] = field(default_factory=list)
    seconds: float = 0.0


def delete_documents(index: Index, doc_ids: list[str], embedder: Embedder, files: dict[str, dict | None] | None = None) -> DeleteReport:
    """Delete ``doc_ids`` (document ids, or paths of indexed files or folders) and every
    trace of them; ``files`` are file records to store (a dict) or drop (None) in the same
    transaction."""
    t0 = time.perf_counter()
    report = DeleteReport()
    files = dict(files or {})
    doc_ids, named_files, report.missing = resolve(index, doc_ids)
    files.update(dict.fromkeys(named_files))
    docs = dict(zip(doc_ids, index.get_many("docs", doc_ids)))
    report.missing += [d for d, rec in docs.items() if rec is None]
    docs = {d: rec for d, rec in docs.items() if rec is not None}
    if not docs:
        if files:
            with index.tables.write() as txn:
                _write_files(index.tables, txn, files, set())
        report.seconds = time.perf_counter() - t0
        return report
    chunk_ids = [c for rec in docs.values() for c in rec["chunks"]]
    gone = set(chunk_ids)
    chunk_recs = [r for r in index.get_many("chunks", chunk_ids) if r is not None]
    pieces = {
        "chunks": chunk_ids,
        "subchunks": [s for r in chunk_recs for s in r.get("subchunks", [])],
        "sentences": [s for r in chunk_recs for s in r.get("sentences", [])],
    }
    touched = _stages_over(index, gone)
    t = index.tables
    labels: dict[str, list[int]] = {}
    with t.write() as txn:
        for table, ids in pieces.items():
            setattr(report, table, sum(bool(txn.delete(key(i), db=t.db[table])) for i in ids))
        for name in VECTOR_SETS:
            labels[name] = index.vectors[name].delete(txn, pieces[name])
        report.vectors = sum(len(v) for v in labels.values())
        for table in ("extractions", "names"):
            if t.db[table] is not None:
                setattr(report, table, sum(bool(txn.delete(key(c), db=t.db[table])) for c in chunk_ids))
        report.llm_calls = _forget_calls(t, txn, gone)
        for name in touched:
            txn.delete(key(name), db=t.db["stages"])
        index.bump_generation(txn)
        for d in docs:
            txn.delete(key(d), db=t.db["docs"])
        _write_files(t, txn, files, set(docs))
    for name, lbs in labels.items():
        index.vectors[name].forget(lbs)
    index.save_vectors()
    report.deleted = list(docs)
    for name, survivors in touched.items():
        if name.startswith("kg:"):
            build_kg(index, embedder, survivors, name)
        elif survivors:  # terag
            build_names_graph(index, embedder, survivors, made_by=None)
        else:  # a TERAG graph with no passage left stays unbuilt until the next `build`
            continue
        report.stages_rebuilt.append(name)
    report.seconds = time.perf_counter() - t0
    return report


def _stages_over(index: Index, gone: set[str]) -> dict[str, list[str]]:
    """KG and TERAG stages built over a chunk in ``gone``, with their surviving chunks."""
    with index.tables.read() as txn:
        names = [k for k, _ in index.tables.items(txn, "stages") if k.startswith("kg:") or k == TERAG_STAGE]
    out = {}
    for name in names:
        g = load_arrays(index.tables, name)
        if "chunks" in g:
            members = [str(c) for c in g["chunks"]]
        elif "ids" in g:  # terag
            members = [str(c) for c in g["ids"]]
        else:  # a KG stage from before the chunk list was stored: its sub-chunks name their chunks
            members = list(dict.fromkeys(str(s).rsplit(":", 1)[0] for s in g["sub_ids"]))
        if gone & set(members):
            out[name] = [c for c in members if c not in gone]
    return out


def _forget_calls(t, txn, gone: set[str]) -> int:
    """Delete the cached LLM calls that read a deleted chunk (one pass over the cache)."""
    db = t.db["llm_cache"]
    if db is None:
        return 0
    doomed = []
    with txn.cursor(db=db) as cur:
        for k, raw in cur:
            if b'"chunks"' in raw:
                if gone & set(json.loads(bytes(raw)).get("chunks", [])):
                    doomed.append(bytes(k))
    for k in doomed:
        txn.delete(k, db=db)
    return len(doomed)


def _write_files(t, txn, files: dict[str, dict | None], deleted: set[str]) -> None:
    """Store or drop the given file records, and take ``deleted`` documents out of every
    other file record that lists them (a record left with none is dropped)."""
    if deleted and t.db["files"] is not None:
        for path, rec in list(t.items(txn, "files")):
            if path not in files and deleted & set(rec.get("docs", [])):
                left = [d for d in rec["docs"] if d not in deleted]
                files[path] = {**rec, "docs": left} if left else None
    for path, rec in files.items():
        if rec is None:
            if t.db["files"] is not None:
                txn.delete(key(path), db=t.db["files"])
        else:
            t.put(txn, "files", path, rec)


def resolve(index: Index, names: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(document ids, file records to drop, names that are neither) for what a user asked to
    delete: a document id, or the path of an indexed file, or a folder holding some. A
    document another indexed file also holds is kept (only the named file's record goes)."""
    with index.tables.read() as txn:
        files = dict(index.tables.items(txn, "files"))
        doc_ids, dropped, missing = [], [], []
        for name in names:
            if index.tables.has(txn, "docs", name):
                doc_ids.append(name)
                continue
            real = os.path.realpath(name)
            hits = [p for p in files if p == real or p.startswith(real.rstrip(os.sep) + os.sep)]
            if not hits:
                missing.append(name)
                continue
            dropped += hits
    keep = {d for p, rec in files.items() if p not in set(dropped) for d in rec.get("docs", [])}
    doc_ids += [d for p in dropped for d in files[p].get("docs", []) if d not in keep]
    return list(dict.fromkeys(doc_ids)), dropped, missing


def documents_of_other_files(index: Index, doc_ids: list[str], path: str) -> set[str]:
    """Which of ``doc_ids`` a file other than ``path`` also holds (same content)."""
    if not doc_ids:
        return set()
    wanted = set(doc_ids)
    with index.tables.read() as txn:
        return {d for p, rec in index.tables.items(txn, "files") if p != path for d in rec.get("docs", []) if d in wanted}


def document_rows(index: Index) -> list[dict]:
    """Every document with its id, title, source, chunk count, and for a PDF its pages, the
    file's page count and the pages left out of the index (scanned, damaged; for `edgerag docs`)."""
    ids = index.ids("docs")
    rows = []
    files: dict[str, dict | None] = {}
    for d, rec in zip(ids, index.get_many("docs", ids)):
        row = {"id": d, "title": rec.get("title", ""), "source": rec.get("source", ""), "chunks": len(rec.get("chunks", []))}
        if rec.get("kind"):
            row["kind"] = rec["kind"]
        if rec.get("pages"):
            row["pages"] = rec["pages"]
            row["file_pages"] = rec.get("file_pages", rec["pages"][-1])
        if rec.get("ocr_pages"):
            row["ocr_pages"] = rec["ocr_pages"]
        if rec.get("path"):
            left_out = (files.setdefault(rec["path"], index.get("files", rec["path"])) or {}).get("skipped_pages")
            if left_out:
                row["skipped_pages"] = left_out
        rows.append(row)
    return rows
