"""Named LMDB tables holding JSON records.

One LMDB environment per index; each table is a named sub-database. Values are JSON so a
person can read them with any LMDB tool. Keys are UTF-8 strings (ids), at most 500 bytes.
"""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import lmdb

from .errors import IndexReadOnlyError, StoreWriteError

_WRITE_FAILED = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO)


def _write_failed(e: BaseException) -> bool:
    """Whether ``e`` says the storage refused the write (rather than a bug of ours)."""
    if isinstance(e, (lmdb.MapFullError, lmdb.DiskError)):
        return True
    if isinstance(e, OSError) and e.errno in _WRITE_FAILED:
        return True
    text = str(e).lower()
    return any(s in text for s in ("no space left", "file too large", "quota exceeded", "input/output error"))


TABLES = (
    "meta",
    "docs",
    "chunks",
    "subchunks",
    "sentences",
    "ledger",
    "llm_cache",
    "stages",
    "arrays",
    "extractions",
    "names",
    "entities",
    "relations",
    "files",
    "vec.chunks",
    "vec.subchunks",
    "vec.sentences",
    "lbl.chunks",
    "lbl.subchunks",
    "lbl.sentences",
)


def key(k: str) -> bytes:
    b = k.encode("utf-8")
    if len(b) > 500:
        raise ValueError(f"key too long for LMDB ({len(b)} bytes): {k[:60]}…")
    return b


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(raw: bytes | memoryview | None) -> Any:
    return None if raw is None else json.loads(bytes(raw))


# LMDB allows one open environment per file per process: every `Tables` on the same path
# shares it (path -> [env, users]).
_OPEN: dict[str, list] = {}
_OPEN_LOCK = threading.Lock()


class Tables:
    """The LMDB environment of an index and its named tables."""

    def __init__(self, path: str, map_size: int, readonly: bool = False, lock: bool = True) -> None:
        """``readonly``: every write raises `IndexReadOnlyError`. ``lock=False`` opens without
        LMDB's lock file, for a copy nobody can write (a read-only mount): with no writer there
        is nothing to coordinate with, and the lock file could not be written anyway."""
        self._key = os.path.realpath(path)
        self.path = path
        self.readonly = readonly
        with _OPEN_LOCK:
            if self._key in _OPEN:
                _OPEN[self._key][1] += 1
            else:
                env = lmdb.open(
                    path,
                    map_size=map_size,
                    max_dbs=len(TABLES) + 8,
                    subdir=True,
                    readonly=readonly,
                    readahead=False,
                    lock=lock,
                )
                if not readonly:
                    env.reader_check()  # free the reader slots of processes killed while reading
                _OPEN[self._key] = [env, 1]
            self.env = _OPEN[self._key][0]
        self._closed = False
        self.db: dict[str, Any] = {}
        for name in TABLES:
            if readonly:
                # A read-only environment cannot create tables; a missing one reads as empty.
                try:
                    self.db[name] = self.env.open_db(name.encode(), create=False)
                except lmdb.NotFoundError:
                    self.db[name] = None
            else:
                self.db[name] = self.env.open_db(name.encode())

    def close(self) -> None:
        with _OPEN_LOCK:
            if self._closed:
                return
            self._closed = True
            entry = _OPEN.get(self._key)
            if entry is not None:
                entry[1] -= 1
                if entry[1] == 0:
                    entry[0].close()
                    del _OPEN[self._key]

    def read(self):
        return self.env.begin(write=False, buffers=False)

    @contextmanager
    def write(self) -> Iterator[lmdb.Transaction]:
        """A write transaction, committed when the block ends and aborted if it raises. A
        write the storage refuses (full disk, I/O error) raises `StoreWriteError`; nothing of
        it is kept, as LMDB switches to the new root only after every page is written."""
        if self.readonly:
            raise IndexReadOnlyError(
                f"{os.path.dirname(self.path)} is read-only (no write permission): "
                "queries work, but indexing, building and deleting need a writable copy"
            )
        try:
            with self.env.begin(write=True) as txn:
                yield txn
        except (lmdb.Error, OSError) as e:
            if not _write_failed(e):
                raise
            where = os.path.dirname(self.path)
            if isinstance(e, lmdb.MapFullError):
                raise StoreWriteError(f"{where} reached its map_size ({e}); reopen it with a larger map_size") from e
            raise StoreWriteError(
                f"could not write {where} ({e}): the disk is probably full (or failing). The step "
                "under way was not saved, everything before it was: free space and run the same command again"
            ) from e

    # ---- JSON helpers (take an open transaction) ------------------------------------------
    def get(self, txn, table: str, k: str) -> Any:
        db = self.db[table]
        return None if db is None else loads(txn.get(key(k), db=db))

    def put(self, txn, table: str, k: str, value: Any) -> None:
        txn.put(key(k), dumps(value), db=self.db[table])

    def has(self, txn, table: str, k: str) -> bool:
        db = self.db[table]
        return db is not None and txn.get(key(k), db=db) is not None

    def count(self, txn, table: str) -> int:
        db = self.db[table]
        return 0 if db is None else txn.stat(db)["entries"]

    def items(self, txn, table: str) -> Iterator[tuple[str, Any]]:
        db = self.db[table]
        if db is None:
            return
        with txn.cursor(db=db) as cur:
            for k, v in cur:
                yield bytes(k).decode("utf-8"), loads(v)
