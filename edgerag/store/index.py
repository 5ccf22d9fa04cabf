"""An index directory: manifest, LMDB tables, vector sets, and a writer lock.

```
INDEX_DIR/
  manifest.json      format version, embedder id + dimension, stored settings
  lmdb/              data.mdb + lock.mdb: every table (see tables.py), vectors included
  vectors/*.hnsw     hnswlib caches of the searched vector sets (rebuilt from LMDB when missing)
  write.lock         held by the one process allowed to write
```

Readers never block the writer (LMDB MVCC). A second writer is refused with a clear error.
An index this process may not write (a read-only mount, another user's files) opens
read-only: queries work, writes are refused by name.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from ..settings import LEGACY_STORED
from .errors import IndexLockedError, IndexReadOnlyError, IndexUnusableError
from .tables import Tables
from .vectors import VectorSet

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
VECTOR_SETS = ("chunks", "subchunks", "sentences")
SEARCHED_SETS = ("chunks", "subchunks")
"""Sets some retriever searches by nearest neighbour, so they get an hnswlib cache. Sentence
vectors are only ever read whole (means for keyword and concept vectors): a cache of them would
be the largest thing in memory (a 200 MB file has millions of sentences) and never used."""


def _writable(path: Path) -> bool:
    """Whether this process may write the index: its directory and, once they exist, the
    LMDB files (a copy on a read-only mount, or files owned by someone else, are not)."""
    lmdb_dir = path / "lmdb"
    files = [lmdb_dir, lmdb_dir / "data.mdb", lmdb_dir / "lock.mdb"]
    return os.access(path, os.W_OK) and all(os.access(f, os.W_OK) for f in files if f.exists())


class Index:
    def __init__(self, tables: Tables, path: Path, manifest: dict[str, Any]) -> None:
        self.tables = tables
        self.path = path
        self.manifest = manifest
        dim = manifest["embedder"]["dim"]
        self.vectors = {name: VectorSet(tables, path / "vectors", name, dim, searched=name in SEARCHED_SETS) for name in VECTOR_SETS}
        self._lock_fd: int | None = None
        self._lock_depth = 0

    # ---- opening ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike,
        *,
        embedder_id: str | None = None,
        dim: int | None = None,
        stored: dict[str, Any] | None = None,
        map_size: int = 1 << 40,
        create: bool = True,
        embedder_spec: str | None = None,
    ) -> Index:
        """Open (or create) an index directory.

        ``embedder_id``/``dim``/``stored`` are what the caller will use; an existing index made
        with something else is refused with a message saying what it was made with.
        """
        path = Path(path)
        manifest_path = path / "manifest.json"
        if manifest_path.exists():
            try:
                manifest = json.loads(manifest_path.read_text())
            except (OSError, ValueError) as e:
                raise IndexUnusableError(f"{manifest_path} is unreadable ({e}); is {path} an edgerag index?") from e
            _check_manifest(manifest, path, embedder_id, dim, stored)
        elif not create:
            raise IndexUnusableError(f"no edgerag index at {path} (no manifest.json): run `edgerag index FILES --index {path}` first")
        else:
            if path.exists() and any(path.iterdir()):
                raise IndexUnusableError(f"{path} exists, is not empty and is not an edgerag index; choose another --index")
            if embedder_id is None or dim is None or stored is None:
                raise IndexUnusableError("creating an index needs the embedder id, its dimension and the settings")
            manifest = {
                "format": FORMAT_VERSION,
                "embedder": {"id": embedder_id, "dim": dim, "spec": embedder_spec or "default"},
                "settings": stored,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }
            path.mkdir(parents=True, exist_ok=True)
            tmp = manifest_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(manifest, indent=2))
            os.replace(tmp, manifest_path)
        lmdb_dir = path / "lmdb"
        if _writable(path):
            lmdb_dir.mkdir(exist_ok=True)
            tables = Tables(str(lmdb_dir), map_size=map_size)
            for old in (path / "vectors").glob("sentences.hnsw*"):  # a cache older versions kept, never read
                old.unlink(missing_ok=True)
        elif (lmdb_dir / "data.mdb").exists():
            # LMDB coordinates readers with a writer through lock.mdb; without write access to
            # it, reading is safe only if nobody writes meanwhile (say so unless the mount is read-only).
            lock = os.access(lmdb_dir / "lock.mdb", os.W_OK)
            if not lock and not os.statvfs(lmdb_dir).f_flag & os.ST_RDONLY:
                log.warning(
                    "%s: opened without LMDB's lock (lock.mdb is not writable); results are undefined if its owner writes to it meanwhile",
                    path,
                )
            tables = Tables(str(lmdb_dir), map_size=map_size, readonly=True, lock=lock)
        else:
            raise IndexUnusableError(f"{path} is read-only and holds no index data yet")
        return cls(tables, path, manifest)

    @property
    def read_only(self) -> bool:
        return self.tables.readonly

    def close(self) -> None:
        self._lock_depth = min(self._lock_depth, 1)
        self.unlock()
        self.tables.close()

    # ---- the writer lock -------------------------------------------------------------------
    def lock(self) -> None:
        """Take the single-writer lock, or fail at once naming the holder. Nested calls in one
        process count: the lock is released by the matching outermost `unlock`."""
        if self._lock_fd is not None:
            self._lock_depth += 1
            return
        if self.read_only:
            raise IndexReadOnlyError(
                f"{self.path} is read-only (no write permission): queries work, but indexing, building and deleting need a writable copy"
            )
        fd = os.open(self.path / "write.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise IndexLockedError(
                f"{self.path} is being written by {holder}; wait for it to finish (queries still work meanwhile)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}".encode())
        self._lock_fd = fd
        self._lock_depth = 1

    def unlock(self) -> None:
        if self._lock_fd is not None:
            self._lock_depth -= 1
            if self._lock_depth > 0:
                return
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    # ---- convenience reads -----------------------------------------------------------------
    def get(self, table: str, key: str) -> Any:
        with self.tables.read() as txn:
            return self.tables.get(txn, table, key)

    def get_many(self, table: str, keys: list[str]) -> list[Any]:
        with self.tables.read() as txn:
            return [self.tables.get(txn, table, k) for k in keys]

    def ids(self, table: str) -> list[str]:
        """Every key of ``table``, in key order (records not decoded)."""
        db = self.tables.db[table]
        if db is None:
            return []
        with self.tables.read() as txn, txn.cursor(db=db) as cur:
            return [bytes(k).decode("utf-8") for k in cur.iternext(keys=True, values=False)]

    def generation(self) -> int:
        """How many times the set of documents has changed (each insert batch, each delete).
        A stage built from every chunk records the generation it saw and is rebuilt when the
        index has moved on; counting chunks is not enough (delete one, add one)."""
        with self.tables.read() as txn:
            return self.tables.get(txn, "meta", "generation") or 0

    def bump_generation(self, txn) -> None:
        """Called inside the write transaction that adds or removes documents."""
        self.tables.put(txn, "meta", "generation", (self.tables.get(txn, "meta", "generation") or 0) + 1)

    def has_doc(self, doc_id: str) -> bool:
        with self.tables.read() as txn:
            return self.tables.has(txn, "docs", doc_id)

    def counts(self) -> dict[str, int]:
        with self.tables.read() as txn:
            return {t: self.tables.count(txn, t) for t in ("docs", "chunks", "subchunks", "sentences")}

    def save_vectors(self) -> None:
        for vs in self.vectors.values():
            vs.save()


def backend_of(model_id: str) -> str:
    """The embedding backend an embedder's model id names: ``torch`` when it names none."""
    return model_id.partition("+")[2].partition(":")[0] or "torch"


def same_vectors(built_id: str, model_id: str) -> bool:
    """Whether vectors made under ``built_id`` (an index's manifest) and by ``model_id`` live
    in one space. An onnx-int8 id names its CPU class (``+onnx-int8:avx2``); an index made
    before ids did (``+onnx-int8``) accepts any class, as it always has."""
    return built_id == model_id or (built_id.endswith("+onnx-int8") and model_id.startswith(built_id + ":"))


def embedder_mismatch(path: Path, built: dict, model_id: str, dim) -> str:
    """Why an index refuses this embedder, and what to do about it."""
    made_on, here = str(built.get("id")).partition("+onnx-int8:")[2], model_id.partition("+onnx-int8:")[2]
    if made_on and here and made_on != here:
        return (
            f"{path} holds onnx-int8 vectors made on a {made_on} CPU; this is a {here} CPU, whose int8 arithmetic gives "
            f"other vectors, so it can neither grow nor query this index. Use it on a {made_on} CPU, or index into a new "
            "directory with --embed-backend onnx (the default), whose vectors are the same on every CPU"
        )
    return (
        f"{path} was built with the embedder {built.get('id')} (dim {built.get('dim')}), not {model_id} (dim {dim}); "
        "open it with the same --embedder and --embed-backend (an id ending +onnx: onnx, +onnx-int8: onnx-int8, none: torch), "
        "or index into a new directory"
    )


def _check_manifest(manifest: dict, path: Path, embedder_id, dim, stored) -> None:
    fmt = manifest.get("format")
    if not isinstance(fmt, int) or fmt > FORMAT_VERSION:
        raise IndexUnusableError(f"{path} has index format {fmt}, newer than this edgerag reads ({FORMAT_VERSION}): upgrade edgerag")
    built = manifest.get("embedder", {})
    if embedder_id is not None and not same_vectors(str(built.get("id")), embedder_id):
        raise IndexUnusableError(embedder_mismatch(path, built, embedder_id, dim))
    if stored:
        built_with = manifest.get("settings") or {}
        built_with = {**LEGACY_STORED, **built_with}
        differ = {k: (built_with.get(k), v) for k, v in stored.items() if built_with.get(k) != v}
        if differ:
            what = ", ".join(f"{k}={a!r} (asked {b!r})" for k, (a, b) in differ.items())
            raise IndexUnusableError(f"{path} was built with {what}; these cannot change on an existing index")
