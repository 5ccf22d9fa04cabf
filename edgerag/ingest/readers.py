"""Read ``.txt``, ``.md`` and benchmark ``corpus.jsonl`` files, alone or from folders.

Every input is either a `Document` or a `Skipped` record naming the file (or ``file:line``)
and the reason: empty, binary, not UTF-8, unreadable, too large, malformed JSON. A bad file
never stops the rest of a run.

Document ids are stable: a jsonl record's own ``id`` when it has one, otherwise the first 16
hex digits of the sha1 of the text, so re-reading the same content yields the same id.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..types import Document

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".jsonl")
_SNIFF = 8192


@dataclass(frozen=True)
class Skipped:
    source: str
    reason: str


def content_id(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def iter_documents(paths: Iterable[str | os.PathLike], max_bytes: int = 200 * 1024 * 1024) -> Iterator[Document | Skipped]:
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and not any(part.startswith(".") for part in f.relative_to(path).parts):
                    if f.suffix.lower() in SUPPORTED_SUFFIXES:
                        yield from _read_file(f, max_bytes)
                    else:
                        yield Skipped(str(f), f"unsupported file type {f.suffix or '(none)'!r}")
        elif path.is_file():
            if path.suffix.lower() in SUPPORTED_SUFFIXES:
                yield from _read_file(path, max_bytes)
            else:
                yield Skipped(str(path), f"unsupported file type {path.suffix or '(none)'!r}; use .txt, .md or .jsonl")
        elif path.exists():
            yield Skipped(str(path), "not a regular file")
        else:
            yield Skipped(str(path), "no such file or directory")


def _read_bytes(path: Path, max_bytes: int) -> bytes | Skipped:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            return Skipped(str(path), f"too large ({size / 2**20:.1f} MiB > limit {max_bytes / 2**20:.0f} MiB)")
        data = path.read_bytes()
    except PermissionError:
        return Skipped(str(path), "unreadable: permission denied")
    except OSError as e:
        return Skipped(str(path), f"unreadable: {e.strerror or e}")
    if not data.strip():
        return Skipped(str(path), "empty file")
    if b"\x00" in data[:_SNIFF]:
        return Skipped(str(path), "binary file (contains NUL bytes)")
    return data


def _decode(path: Path, data: bytes) -> str | Skipped:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return Skipped(str(path), f"not valid UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})")


def _read_file(path: Path, max_bytes: int) -> Iterator[Document | Skipped]:
    data = _read_bytes(path, max_bytes)
    if isinstance(data, Skipped):
        yield data
        return
    text = _decode(path, data)
    if isinstance(text, Skipped):
        yield text
        return
    if path.suffix.lower() == ".jsonl":
        yield from _read_jsonl(path, text)
        return
    body = text.replace("\r\n", "\n").strip()
    if not body:
        yield Skipped(str(path), "no text")
        return
    yield Document(id=content_id(body), text=body, title=_title(path, body), source=str(path))


def _title(path: Path, body: str) -> str:
    if path.suffix.lower() in (".md", ".markdown"):
        first = body.lstrip().split("\n", 1)[0]
        if first.startswith("#"):
            return first.lstrip("#").strip()
    return path.stem


def _read_jsonl(path: Path, text: str) -> Iterator[Document | Skipped]:
    """Benchmark corpus format: one ``{"id", "title", "text"}`` object a line.

    The title, when present, becomes the first paragraph of the document text, as multi-hop
    QA systems index it (the title often names the entity the passage is about).
    """
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            rec = json.loads(line)
        except ValueError as e:
            yield Skipped(where, f"not valid JSON ({e.msg})")
            continue
        if not isinstance(rec, dict) or not isinstance(rec.get("text"), str):
            yield Skipped(where, "no 'text' string field")
            continue
        body = rec["text"].strip()
        title = str(rec.get("title") or "").strip()
        if not body:
            yield Skipped(where, "empty text")
            continue
        full = f"{title}\n\n{body}" if title else body
        given = rec.get("id")
        doc_id = str(given) if given not in (None, "") else content_id(full)
        if len(doc_id.encode("utf-8")) > 200:
            doc_id = content_id(doc_id)
        yield Document(id=doc_id, text=full, title=title, source=where)
