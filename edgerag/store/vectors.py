"""Vector sets: vectors live in LMDB; an hnswlib index over them is a rebuildable cache.

Each set (chunks, sub-chunks, sentences) has two tables: ``vec.<set>`` maps a unit id to its
integer label and float32 vector, ``lbl.<set>`` maps the label (8 bytes, big-endian, so the
table is in label order) back to the id. Labels are handed out in increasing order.

Dense search is exact up to `EXACT_MAX` vectors: one matrix product over every vector, held in
memory per process and topped up from LMDB the same way. Past that size hnswlib answers. An
approximate graph can miss the one passage unlike all the others, the needle a user searches
for (issue #40: among 10,000 look-alike notes hnswlib at ef 200 did not return the planted one,
first by exact cosine, 0.826 against 0.361), so it is kept for sizes where exact search costs
too much (docs/benchmarks.md, "Dense search: exact or hnswlib").

Sets that are searched (chunks, sub-chunks) have an hnswlib cache; sentence vectors are
only read whole and live in LMDB alone. The hnswlib file ``vectors/<set>.hnsw`` is written at
the end of an insert (and every few minutes during a long one) with a sidecar
recording the highest label it holds. On open, vectors with higher labels (a batch committed
just before a crash, or by a writer in another process) are added in memory, so the cache
can lag the LMDB truth but never disagree with it.

Deleting removes a vector's two entries from LMDB and marks its label deleted in this
process's hnswlib cache. Another process's cache may still hold the label: every search maps
labels back through ``lbl.<set>`` and drops the ones that no longer resolve, asking hnswlib
for that many more, so a deleted vector is never returned by anyone.
"""

from __future__ import annotations

import json
import logging
import os
import struct
from collections.abc import Iterator
from pathlib import Path

import hnswlib
import numpy as np

from .tables import Tables, key

_LABEL = struct.Struct(">Q")
TOP_UP_SLICE = 8192
EXACT_MAX = 100_000
"""Vectors up to which dense search is exact (`Settings.exact_search_max`): at 100,000 × 384
the product costs about 10 ms a query on 2 cores (benchmarks/dense_search.py)."""
EXACT_BLOCK = 1 << 24
"""Scores computed at once by a batch of exact queries (64 MiB of float32)."""
log = logging.getLogger(__name__)


class VectorSet:
    def __init__(self, tables: Tables, directory: Path, name: str, dim: int, searched: bool = True) -> None:
        """``searched=False``: LMDB only, no hnswlib cache (the set is read whole, never searched)."""
        self.tables = tables
        self.name = name
        self.dim = dim
        self.searched = searched
        self.path = directory / f"{name}.hnsw"
        self.meta_path = directory / f"{name}.hnsw.json"
        self._hnsw: hnswlib.Index | None = None
        self._max_label = -1
        self._marked = 0  # labels marked deleted in the loaded cache
        self._rows: tuple[np.ndarray, np.ndarray] | None = None  # (labels, vectors) for exact search

    # ---- writing (inside the caller's LMDB write transaction) ------------------------------
    def put(self, txn, ids: list[str], vectors: np.ndarray) -> None:
        """Store vectors for new ids; ids already present keep their vector."""
        vdb, ldb = self.tables.db[f"vec.{self.name}"], self.tables.db[f"lbl.{self.name}"]
        next_label = self.tables.get(txn, "meta", f"next_label.{self.name}") or 0
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        for uid, vec in zip(ids, vectors):
            k = key(uid)
            if txn.get(k, db=vdb) is not None:
                continue
            txn.put(k, _LABEL.pack(next_label) + vec.tobytes(), db=vdb)
            txn.put(_LABEL.pack(next_label), k, db=ldb)
            next_label += 1
        self.tables.put(txn, "meta", f"next_label.{self.name}", next_label)

    def delete(self, txn, ids: list[str]) -> list[int]:
        """Remove the vectors of ``ids`` (absent ids are ignored); returns their labels, to
        pass to `forget` once the transaction has committed."""
        vdb, ldb = self.tables.db[f"vec.{self.name}"], self.tables.db[f"lbl.{self.name}"]
        labels = []
        if vdb is None:
            return labels
        for uid in ids:
            raw = txn.get(key(uid), db=vdb)
            if raw is None:
                continue
            label = raw[: _LABEL.size]
            txn.delete(key(uid), db=vdb)
            txn.delete(bytes(label), db=ldb)
            labels.append(_LABEL.unpack(bytes(label))[0])
        return labels

    def forget(self, labels: list[int]) -> None:
        """Drop deleted labels from this process's exact rows and mark them in the loaded
        hnswlib cache (after their delete committed)."""
        if self._rows is not None and labels:
            keep = ~np.isin(self._rows[0], np.asarray(labels, dtype=np.int64))
            self._rows = (self._rows[0][keep], self._rows[1][keep])
        if self._hnsw is None:
            return
        for label in labels:
            try:
                self._hnsw.mark_deleted(int(label))
                self._marked += 1
            except RuntimeError:  # not in this cache (never topped up), or marked already
                pass

    # ---- reading ---------------------------------------------------------------------------
    def get(self, ids: list[str]) -> np.ndarray:
        """Vectors of ``ids`` in order (KeyError for an unknown id)."""
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        vdb = self.tables.db[f"vec.{self.name}"]
        with self.tables.read() as txn:
            for i, uid in enumerate(ids):
                raw = txn.get(key(uid), db=vdb) if vdb is not None else None
                if raw is None:
                    raise KeyError(f"no vector for {uid!r} in {self.name}")
                out[i] = np.frombuffer(raw, dtype=np.float32, offset=_LABEL.size)
        return out

    def found(self, ids: list[str]) -> dict[str, np.ndarray]:
        """The stored vectors among ``ids`` (ids without one are left out)."""
        vdb = self.tables.db[f"vec.{self.name}"]
        out: dict[str, np.ndarray] = {}
        if vdb is None:
            return out
        with self.tables.read() as txn:
            for uid in ids:
                raw = txn.get(key(uid), db=vdb)
                if raw is not None:
                    out[uid] = np.frombuffer(raw, dtype=np.float32, offset=_LABEL.size)
        return out

    def ids(self) -> set[str]:
        """Every id that has a vector."""
        vdb = self.tables.db[f"vec.{self.name}"]
        if vdb is None:
            return set()
        with self.tables.read() as txn, txn.cursor(db=vdb) as cur:
            return {bytes(k).decode("utf-8") for k in cur.iternext(keys=True, values=False)}

    def scan(self, size: int | None = None) -> Iterator[tuple[list[str], np.ndarray]]:
        """Every ``(ids, vectors)`` in label order, ``size`` at a time: a pass over a set too
        large to hold (100,000 passages have about 500,000 sentence vectors, 770 MB)."""
        for _, ids, rows in self._slices(0, size):
            yield ids, rows

    def _slices(self, after: int, size: int | None = None) -> Iterator[tuple[np.ndarray, list[str], np.ndarray]]:
        """``(labels, ids, vectors)`` of every live vector whose label is ≥ ``after``, in label
        order, ``size`` (`TOP_UP_SLICE`) at a time, one read transaction a slice."""
        size = size or TOP_UP_SLICE
        vdb, ldb = self.tables.db[f"vec.{self.name}"], self.tables.db[f"lbl.{self.name}"]
        if ldb is None:
            return
        while True:
            labels, ids, rows = [], [], []
            with self.tables.read() as txn, txn.cursor(db=ldb) as cur:
                if cur.set_range(_LABEL.pack(after)):
                    for lk, uid in cur:
                        after = _LABEL.unpack(bytes(lk))[0] + 1
                        raw = txn.get(bytes(uid), db=vdb)
                        if raw is None:  # deleted since
                            continue
                        labels.append(after - 1)
                        ids.append(bytes(uid).decode("utf-8"))
                        rows.append(np.frombuffer(raw, dtype=np.float32, offset=_LABEL.size))
                        if len(ids) == size:
                            break
            if ids:
                yield np.asarray(labels, dtype=np.int64), ids, np.stack(rows)
            if len(ids) < size:
                return

    def all(self) -> tuple[list[str], np.ndarray]:
        """Every ``(id, vector)`` in label (insertion) order."""
        vdb, ldb = self.tables.db[f"vec.{self.name}"], self.tables.db[f"lbl.{self.name}"]
        ids, rows = [], []
        if ldb is None:
            return ids, np.zeros((0, self.dim), dtype=np.float32)
        with self.tables.read() as txn, txn.cursor(db=ldb) as cur:
            for _, uid in cur:
                raw = txn.get(bytes(uid), db=vdb)
                if raw is not None:
                    ids.append(bytes(uid).decode("utf-8"))
                    rows.append(np.frombuffer(raw, dtype=np.float32, offset=_LABEL.size))
        return ids, (np.stack(rows) if rows else np.zeros((0, self.dim), dtype=np.float32))

    def knn_many(self, vectors: np.ndarray, k: int, ef: int = 800, exact_max: int = EXACT_MAX) -> tuple[list[list[str]], np.ndarray]:
        """Top-k ids and cosines for many query vectors at once: exact while the set holds at
        most ``exact_max`` vectors, else one hnswlib batch query at ``ef``. Rows may hold fewer
        than k when vectors were deleted by another process since this process read them."""
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        if len(self) <= exact_max:
            return self._knn_exact(vectors, k)
        index = self._index()
        k_ask, _ = self._ask(index, k)
        if k_ask <= 0:
            return [[] for _ in range(len(vectors))], np.zeros((len(vectors), 0), dtype=np.float32)
        index.set_ef(max(ef, k_ask))
        labels, dist = index.knn_query(vectors, k=k_ask)
        return self._named(labels, 1.0 - dist, k)

    def _knn_exact(self, vectors: np.ndarray, k: int) -> tuple[list[list[str]], np.ndarray]:
        """Exact top-k by inner product over every vector this process holds, best first, ties
        in label (insertion) order; ``k`` plus the rows another process has deleted since are
        ranked, and the deleted ones dropped by name."""
        labels, rows = self._exact_rows()
        k_ask = min(k + max(0, len(labels) - len(self)), len(labels))
        if k_ask <= 0:
            return [[] for _ in range(len(vectors))], np.zeros((len(vectors), 0), dtype=np.float32)
        top_labels = np.zeros((len(vectors), k_ask), dtype=np.int64)
        top_sims = np.zeros((len(vectors), k_ask), dtype=np.float32)
        step = max(1, EXACT_BLOCK // max(1, len(labels)))
        for start in range(0, len(vectors), step):  # a block of queries at a time, no Python loop per query
            scores = vectors[start : start + step] @ rows.T
            if k_ask < scores.shape[1]:
                head = np.argpartition(-scores, k_ask - 1, axis=1)[:, :k_ask]
            else:
                head = np.broadcast_to(np.arange(scores.shape[1]), scores.shape)
            sims, labs = np.take_along_axis(scores, head, axis=1), labels[head]
            order = np.lexsort((labs, -sims), axis=1)
            end = start + len(scores)
            top_labels[start:end], top_sims[start:end] = np.take_along_axis(labs, order, 1), np.take_along_axis(sims, order, 1)
        return self._named(top_labels, top_sims, k)

    def _named(self, labels: np.ndarray, sims: np.ndarray, k: int) -> tuple[list[list[str]], np.ndarray]:
        """Labels mapped to ids (the ones no longer in LMDB dropped), the first ``k`` a row."""
        names = self._names(np.unique(labels))
        ids, out = [], []
        for row, srow in zip(labels, sims):
            keep = [(names[int(lb)], float(c)) for lb, c in zip(row, srow) if names.get(int(lb)) is not None][:k]
            ids.append([u for u, _ in keep])
            out.append([c for _, c in keep])
        width = max((len(r) for r in out), default=0)
        return ids, np.asarray([r + [0.0] * (width - len(r)) for r in out], dtype=np.float32).reshape(len(ids), width)

    def _exact_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(labels, vectors) of every vector, read once per process and topped up with the
        labels committed since (deletes in this process are dropped by `forget`)."""
        if not self.searched:
            raise RuntimeError(f"the {self.name} vectors are never searched")
        labels, rows = self._rows or (np.zeros(0, dtype=np.int64), np.zeros((0, self.dim), dtype=np.float32))
        new = list(self._slices(int(labels[-1]) + 1 if len(labels) else 0))
        if new:
            labels = np.concatenate([labels, *(lb for lb, _, _ in new)])
            rows = np.concatenate([rows, *(v for _, _, v in new)])
        self._rows = (labels, rows)
        return self._rows

    def _ask(self, index: hnswlib.Index, k: int) -> tuple[int, int]:
        """(how many to ask hnswlib for, how many live items it holds): k plus the labels this
        cache holds that LMDB no longer has (deleted elsewhere), at most what is searchable."""
        searchable = index.get_current_count() - self._marked
        stale = max(0, searchable - len(self))
        return min(k + stale, searchable), searchable

    def _names(self, labels) -> dict[int, str | None]:
        ldb = self.tables.db[f"lbl.{self.name}"]
        with self.tables.read() as txn:
            out = {}
            for lb in labels:
                raw = txn.get(_LABEL.pack(int(lb)), db=ldb)
                out[int(lb)] = bytes(raw).decode("utf-8") if raw is not None else None
            return out

    def __len__(self) -> int:
        with self.tables.read() as txn:
            return self.tables.count(txn, f"vec.{self.name}")

    def search(self, query: np.ndarray, k: int, ef: int = 800, exact_max: int = EXACT_MAX) -> list[tuple[str, float]]:
        """Top-k ``(id, cosine)`` for a normalised query vector (exact up to ``exact_max`` vectors)."""
        ids, sims = self.knn_many(query, k, ef, exact_max)
        return [(uid, float(c)) for uid, c in zip(ids[0], sims[0])] if ids else []

    # ---- the hnswlib cache -----------------------------------------------------------------
    def _index(self) -> hnswlib.Index:
        if not self.searched:
            raise RuntimeError(f"the {self.name} vectors have no nearest-neighbour cache (they are never searched)")
        if self._hnsw is None:
            self._hnsw = self._load()
        self._top_up(self._hnsw)
        return self._hnsw

    def _load(self) -> hnswlib.Index:
        index = hnswlib.Index(space="ip", dim=self.dim)
        if self.path.exists() and self.meta_path.exists():
            try:
                meta = json.loads(self.meta_path.read_text())
                index.load_index(str(self.path), allow_replace_deleted=False)
                self._max_label = int(meta["max_label"])
                self._marked = int(meta.get("deleted", 0))
                return index
            except Exception:
                index = hnswlib.Index(space="ip", dim=self.dim)  # unreadable cache: rebuild
        index.init_index(max_elements=1024, ef_construction=200, M=16)
        self._max_label = -1
        self._marked = 0
        return index

    def _top_up(self, index: hnswlib.Index) -> int:
        """Add vectors committed to LMDB after the cache was written; returns how many.

        A slice of ``TOP_UP_SLICE`` vectors at a time: the first save of a long insert adds
        hundreds of thousands, and reading them all before adding any held them twice
        (1.4 GiB for 480k vectors, kept by the heap afterwards; benchmarks/big_file_memory.py)."""
        added = 0
        for labels, _, vecs in self._slices(self._max_label + 1):
            need = index.get_current_count() + len(labels)
            if need > index.get_max_elements():
                index.resize_index(max(need, 2 * index.get_max_elements()))
            index.add_items(vecs, labels)
            self._max_label = int(labels[-1])
            added += len(labels)
        return added

    def save(self) -> None:
        """Bring the cache up to date and write it atomically (file, then its sidecar).

        The cache is only a cache: when it cannot be written (disk full, read-only) a warning
        is logged, the temporary file removed, and the next open rebuilds it from LMDB."""
        if not self.searched:
            return
        index = self._index()
        tmp = self.path.with_suffix(".hnsw.tmp")
        tmp_meta = self.meta_path.with_suffix(".json.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            index.save_index(str(tmp))
            os.replace(tmp, self.path)
            tmp_meta.write_text(json.dumps({"count": index.get_current_count(), "max_label": self._max_label, "deleted": self._marked}))
            os.replace(tmp_meta, self.meta_path)
        except (OSError, RuntimeError) as e:
            for f in (tmp, tmp_meta):
                f.unlink(missing_ok=True)
            log.warning("the %s vector cache was not saved (%s); it is rebuilt from LMDB when next opened", self.name, e)
