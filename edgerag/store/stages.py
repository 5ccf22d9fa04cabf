"""Built stages (graphs, keyword vectors, …) stored in the index, with what they were built from.

A stage is a named set of arrays (dense numpy arrays or scipy CSR matrices, kept as ``.npz``
bytes in the ``arrays`` table) plus a JSON record in ``stages`` saying which settings and
how many chunks it was built from. A stage whose record no longer matches the index (new
documents, other settings) is rebuilt by its owner; readers never see a half-written stage
because arrays and record are written in one transaction.
"""

from __future__ import annotations

import dataclasses
import io
import time
from typing import Any, TypeVar

import numpy as np
import scipy.sparse as sp

from .errors import IndexReadOnlyError
from .tables import Tables

_STRINGS = b"EDGERAG-STR1\n"
"""Marks an array of strings stored as their lengths and one UTF-8 text (`_pack`)."""


def _pack(value: np.ndarray | sp.spmatrix) -> bytes:
    """A sparse matrix as npz, an array of strings as their lengths and their UTF-8 text, any
    other array as npy. Strings are not left to numpy's fixed width: it holds every string at
    the longest one's width, and one 786-character link key made 101,858 labels take 305 MB
    (30,000 passages, benchmarks/scale.py)."""
    buf = io.BytesIO()
    if sp.issparse(value):
        sp.save_npz(buf, sp.csr_matrix(value), compressed=False)
        return buf.getvalue()
    value = np.asarray(value)
    if value.dtype.kind == "U" and value.ndim == 1:
        np.save(buf, np.fromiter(map(len, value.tolist()), dtype=np.int64, count=len(value)), allow_pickle=False)
        return _STRINGS + buf.getvalue() + "".join(value.tolist()).encode("utf-8")
    np.save(buf, value, allow_pickle=False)
    return buf.getvalue()


def _unpack(raw: bytes) -> np.ndarray | sp.csr_matrix:
    """What `_pack` wrote; strings come back as an array of Python strings (dtype object)."""
    if raw.startswith(_STRINGS):
        buf = io.BytesIO(raw[len(_STRINGS) :])
        lengths = np.load(buf, allow_pickle=False)
        text = raw[len(_STRINGS) + buf.tell() :].decode("utf-8")
        ends = np.cumsum(lengths).tolist()
        out = np.empty(len(ends), dtype=object)
        out[:] = [text[a:b] for a, b in zip([0, *ends[:-1]], ends)]
        return out
    buf = io.BytesIO(raw)
    if raw[:2] == b"PK":  # npz (zip) = sparse
        return sp.load_npz(buf).tocsr()
    return np.load(buf, allow_pickle=False)


def fingerprint(lines: list[str]) -> str:
    """A stable digest of what a stage was built from (order-insensitive)."""
    import hashlib

    return hashlib.sha1("\n".join(sorted(lines)).encode()).hexdigest()


def save_stage(tables: Tables, name: str, record: dict[str, Any], arrays: dict[str, Any]) -> dict[str, Any]:
    """Write a stage's arrays and record in one transaction; returns the stored record."""
    if tables.readonly:
        raise IndexReadOnlyError(
            f"the stage {name} is not built (or is out of date) and the index is read-only: "
            "build it with `edgerag build --method …` on a writable copy"
        )
    full = {**record, "arrays": sorted(arrays), "built": time.time()}
    with tables.write() as txn:
        for key, value in arrays.items():
            txn.put(f"{name}/{key}".encode(), _pack(value), db=tables.db["arrays"])
        tables.put(txn, "stages", name, full)
    return full


def stage_record(tables: Tables, name: str) -> dict[str, Any] | None:
    with tables.read() as txn:
        return tables.get(txn, "stages", name)


_LOADED: dict[tuple, dict[str, Any]] = {}
_TYPED: dict[tuple, Any] = {}

S = TypeVar("S")


def _load(tables: Tables, name: str) -> tuple[tuple, dict[str, Any]]:
    """(cache key, arrays) of a built stage; the key changes whenever the stage is rebuilt."""
    with tables.read() as txn:  # record and arrays from one snapshot: a rebuild cannot tear them
        rec = tables.get(txn, "stages", name)
        if rec is None:
            raise KeyError(f"stage {name!r} is not built")
        key = (tables._key, name, rec["built"])
        if key in _LOADED:
            return key, _LOADED[key]
        db = tables.db["arrays"]
        loaded = {k: _unpack(bytes(txn.get(f"{name}/{k}".encode(), db=db))) for k in rec["arrays"]}
    for old in [k for k in _LOADED if k[:2] == key[:2]]:
        del _LOADED[old]
    _LOADED[key] = loaded
    return key, loaded


def load_arrays(tables: Tables, name: str) -> dict[str, Any]:
    """The arrays of a built stage by name, to read (peek, delete); kept in memory per
    process until the stage is rebuilt. Retrievers read a typed stage (`load_stage`)."""
    return _load(tables, name)[1]


def load_stage(tables: Tables, name: str, cls: type[S]) -> S:
    """A built stage as its dataclass ``cls``, whose fields are named as the stored arrays
    (arrays it does not name are left out). One object per process and build of the stage,
    so what it derives on first use (a transpose, a lookup table) is computed once."""
    key, arrays = _load(tables, name)
    key = (*key, cls)
    if key not in _TYPED:
        for old in [k for k in _TYPED if k[:2] == key[:2] and k[3] is cls]:
            del _TYPED[old]
        fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
        missing = [f.name for f in fields if f.name not in arrays and f.default is dataclasses.MISSING]
        if missing:
            raise ValueError(
                f"the stage {name} lacks {', '.join(missing)}: it was built by an older edgerag; "
                "rebuild it (`edgerag build --method …`, or delete the stage's method index)"
            )
        _TYPED[key] = cls(**{f.name: arrays[f.name] for f in fields if f.name in arrays})
    return _TYPED[key]
