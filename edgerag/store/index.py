"""An index directory: manifest, LMDB tables, vector sets, and a writer lock.

```
INDEX_DIR/
  manifest.json      format version, embedder id + dimension, stored settings
  lmdb/              data.mdb + lock.mdb: every table (see tables.py), vectors included
  vectors/*.hnsw     hnswlib caches of the vector sets (rebuilt from LMDB when missing)
  write.lock         held by the one process allowed to write
```

Readers never block the writer (LMDB MVCC). A second writer is refused with a clear error.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path
from typing import Any

from .tables import Tables
from .vectors import VectorSet

FORMAT_VERSION = 1
VECTOR_SETS = ("chunks", "subchunks", "sentences")


class IndexError_(RuntimeError):
    """The index directory cannot be used as asked (wrong embedder, newer format, …)."""


class IndexLockedError(IndexError_):
    pass


class Index:
    def __init__(self, tables: Tables, path: Path, manifest: dict[str, Any]) -> None:
        self.tables = tables
        self.path = path
        self.manifest = manifest
        dim = manifest["embedder"]["dim"]
        self.vectors = {name: VectorSet(tables, path / "vectors", name, dim) for name in VECTOR_SETS}
        self._lock_fd: int | None = None

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
    ) -> "Index":
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
                raise IndexError_(f"{manifest_path} is unreadable ({e}); is {path} an edgerag index?") from e
            _check_manifest(manifest, path, embedder_id, dim, stored)
        elif not create:
            raise IndexError_(f"no edgerag index at {path} (no manifest.json): run `edgerag index FILES --index {path}` first")
        else:
            if path.exists() and any(path.iterdir()):
                raise IndexError_(f"{path} exists, is not empty and is not an edgerag index; choose another --index")
            if embedder_id is None or dim is None or stored is None:
                raise IndexError_("creating an index needs the embedder id, its dimension and the settings")
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
        (path / "lmdb").mkdir(exist_ok=True)
        tables = Tables(str(path / "lmdb"), map_size=map_size)
        return cls(tables, path, manifest)

    def close(self) -> None:
        self.unlock()
        self.tables.close()

    # ---- the writer lock -------------------------------------------------------------------
    def lock(self) -> None:
        """Take the single-writer lock, or fail at once naming the holder."""
        if self._lock_fd is not None:
            return
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

    def unlock(self) -> None:
        if self._lock_fd is not None:
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


def _check_manifest(manifest: dict, path: Path, embedder_id, dim, stored) -> None:
    fmt = manifest.get("format")
    if not isinstance(fmt, int) or fmt > FORMAT_VERSION:
        raise IndexError_(
            f"{path} has index format {fmt}, newer than this edgerag reads ({FORMAT_VERSION}): upgrade edgerag"
        )
    built = manifest.get("embedder", {})
    if embedder_id is not None and built.get("id") != embedder_id:
        raise IndexError_(
            f"{path} was built with the embedder {built.get('id')} (dim {built.get('dim')}), "
            f"not {embedder_id} (dim {dim}); open it with the same --embedder, or index into a new directory"
        )
    if stored:
        built_with = manifest.get("settings") or {}
        differ = {k: (built_with.get(k), v) for k, v in stored.items() if built_with.get(k) != v}
        if differ:
            what = ", ".join(f"{k}={a!r} (asked {b!r})" for k, (a, b) in differ.items())
            raise IndexError_(f"{path} was built with {what}; these cannot change on an existing index")
