"""Read files and folders: ``.txt``, ``.md`` (its pipe tables one line a row, markdown.py),
benchmark ``corpus.jsonl`` here; PDF, DOCX, HTML and EPUB through their own modules beside
this one (pdf.py, docx.py, html.py, epub.py).

Every input is either a `Document` or a `Skipped` record naming the file (or ``file:line``)
and the reason: empty, binary, not UTF-8, unreadable, too large, malformed JSON. A bad file
never stops the rest of a run.

Document ids are stable: a jsonl record's own ``id`` when it has one, otherwise the first 16
hex digits of the sha1 of the text, so re-reading the same content yields the same id.

Memory stays bounded whatever the file size. A text file larger than ``part_chars``
characters (a log, a dump, a book on one line) is read in two streaming passes: the first
checks that it is UTF-8 and hashes it, the second yields it as consecutive *parts* of about
``part_chars`` characters, each cut at a sentence end or a space near the limit and each its
own `Document` (id ``<sha1 of the file>-p<n>``, title ``<name> (part n)``), so indexing
commits, resumes and deletes a huge file part by part (a file of many bytes but few
characters stays one document). A large ``.jsonl`` file is read one line at a time; a line
longer than 16 MiB is skipped by name without being held in memory.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import chain
from pathlib import Path

from ..types import Document
from .blocks import Skipped, content_id
from .files import FileDone, FileState, Known, Unchanged, check, real_path
from .image import IMAGE_SUFFIXES
from .markdown import tables_as_rows
from .sniff import kind_of

STRUCTURED = {".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html", ".xhtml": "html", ".epub": "epub", **IMAGE_SUFFIXES}
"""Suffix → reader for the formats with pages or sections."""
SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".jsonl", *STRUCTURED)
_SUPPORTED_HINT = "use .txt, .md, .jsonl, .pdf, .docx, .html, .epub, or .png/.jpg/.tiff (with OCR)"
_SNIFF = 8192
PART_CHARS = 1_000_000
"""Text files longer than this are indexed as parts of about this many characters."""
_BLOCK = 1 << 20
JSONL_MAX_LINE = 16 << 20
"""A corpus record longer than this is skipped by name (save such a document as .txt)."""
_CUT = re.compile(r"[.!?。！？]\s|\n\s*\n")


def iter_documents(
    paths: Iterable[str | os.PathLike], max_bytes: int = 1 << 30, part_chars: int = PART_CHARS, known: Known | None = None
) -> Iterator[Document | Skipped]:
    """Every document of ``paths`` (files or folders, recursively; hidden entries skipped).

    With ``known`` (the index's stored record of a real path, files.py), a file the index
    already holds unchanged yields an `Unchanged` instead of being read, and every file read
    ends with a `FileDone` carrying its new state; without it, only documents and skips."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and not any(part.startswith(".") for part in f.relative_to(path).parts):
                    if f.suffix.lower() in SUPPORTED_SUFFIXES:
                        yield from _read_any(f, max_bytes, part_chars, known)
                    else:
                        yield Skipped(str(f), f"unsupported file type {f.suffix or '(none)'!r}")
        elif path.is_file():
            if path.suffix.lower() in SUPPORTED_SUFFIXES:
                yield from _read_any(path, max_bytes, part_chars, known)
            else:
                yield Skipped(str(path), f"unsupported file type {path.suffix or '(none)'!r}; {_SUPPORTED_HINT}")
        elif path.exists():
            yield Skipped(str(path), "not a regular file")
        else:
            yield Skipped(str(path), "no such file or directory")


def _read_any(path: Path, max_bytes: int, part_chars: int, known: Known | None) -> Iterator:
    """One file through the reader its suffix names, each document stamped with the file's
    real path and kind; with ``known``, the unchanged-file check first and a `FileDone` last
    (only when the whole file was read: a reader that fails part way leaves the index's
    record as it was, so the next run tries again)."""
    try:
        st = path.stat()
        digest = ""
        if known is not None:
            seen = check(path, st, known)
            if isinstance(seen, Unchanged):
                yield seen
                return
            digest = seen
    except OSError as e:
        yield Skipped(str(path), f"unreadable: {e.strerror or e}")
        return
    kind = STRUCTURED.get(path.suffix.lower()) or {".jsonl": "jsonl", ".txt": "txt"}.get(path.suffix.lower(), "md")
    where = real_path(path)
    ids: list[str] = []
    pages = 0
    left_out: dict[str, list[int]] = {}
    try:
        for item in _read_kind(path, kind, st.st_size, max_bytes, part_chars):
            if isinstance(item, Document):
                item = replace(item, path=where, kind=item.kind or kind)
                ids.append(item.id)
                pages = item.pages or pages
            elif isinstance(item, Skipped) and item.pages:
                left_out.setdefault(item.what or item.reason, []).extend(item.pages)
            yield item
    except Exception as e:  # a reader's bug or a library's surprise must not stop the run
        yield Skipped(str(path), f"could not be read ({type(e).__name__}: {e})")
        return
    if known is not None and ids:
        yield FileDone(FileState(where, st.st_size, st.st_mtime_ns, digest, kind, pages, tuple(dict.fromkeys(ids)), left_out))


def _read_kind(path: Path, kind: str, size: int, max_bytes: int, part_chars: int) -> Iterator:
    if kind in ("txt", "md", "jsonl"):
        yield from _read_file(path, max_bytes, part_chars)
        return
    if size > max_bytes:
        yield Skipped(str(path), f"too large ({size / 2**20:.1f} MiB > limit {max_bytes / 2**20:.0f} MiB)")
        return
    if size == 0:
        yield Skipped(str(path), "empty file")
        return
    if kind == "pdf":
        from .pdf import read_pdf

        yield from read_pdf(path, part_chars)
    elif kind == "docx":
        from .docx import read_docx

        yield from read_docx(path, part_chars)
    elif kind == "epub":
        from .epub import read_epub

        yield from read_epub(path, part_chars)
    elif kind == "image":
        from .image import read_image

        yield from read_image(path, part_chars)
    else:
        from .html import read_html

        data = _read_bytes(path, max_bytes)
        if isinstance(data, Skipped):
            yield data
        else:
            yield from read_html(path, data, part_chars)


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
    what, ext = kind_of(data[:1024])
    if ext in (".pdf", ".docx or .epub"):
        return Skipped(str(path), f"binary file: it is {what}, not {path.suffix or 'text'}: wrong extension? name it {ext}")
    if b"\x00" in data[:_SNIFF]:
        return Skipped(str(path), f"binary file (contains NUL bytes; it looks like {what})")
    return data


def _bad_utf8(path: Path, e: UnicodeDecodeError, offset: int) -> Skipped:
    """``e`` was raised decoding bytes that start ``offset`` bytes into the file."""
    return Skipped(str(path), f"not valid UTF-8 (byte 0x{e.object[e.start]:02x} at offset {offset + e.start})")


def _decode(path: Path, data: bytes) -> str | Skipped:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:  # utf-8-sig counts positions after the BOM it consumed
        return _bad_utf8(path, e, 3 if data.startswith(codecs.BOM_UTF8) else 0)


def _read_file(path: Path, max_bytes: int, part_chars: int = PART_CHARS) -> Iterator[Document | Skipped]:
    try:
        size = path.stat().st_size
    except OSError as e:
        yield Skipped(str(path), f"unreadable: {e.strerror or e}")
        return
    if size > part_chars:  # may hold more characters than one part: stream it
        if size > max_bytes:
            yield Skipped(str(path), f"too large ({size / 2**20:.1f} MiB > limit {max_bytes / 2**20:.0f} MiB)")
        elif path.suffix.lower() == ".jsonl":
            yield from _stream_jsonl(path, max(part_chars, JSONL_MAX_LINE))
        else:
            yield from _stream_parts(path, part_chars)
        return
    data = _read_bytes(path, max_bytes)
    if isinstance(data, Skipped):
        yield data
        return
    text = _decode(path, data)
    if isinstance(text, Skipped):
        yield text
        return
    if path.suffix.lower() == ".jsonl":
        yield from _read_jsonl(path, enumerate(text.split("\n"), 1))
        return
    body = _tables(path, text.replace("\r\n", "\n").strip())
    if not body:
        yield Skipped(str(path), "no text")
        return
    yield Document(id=content_id(body), text=body, title=_title(path, body), source=str(path))


def _tables(path: Path, body: str) -> str:
    """A Markdown file's pipe tables as one line per row (markdown.py)."""
    return tables_as_rows(body) if path.suffix.lower() in (".md", ".markdown") else body


def _check_stream(path: Path) -> str | Skipped:
    """First pass over a large file: the sha1 of its bytes, or why it cannot be read as
    UTF-8 text (binary, bad encoding, empty), holding one block at a time."""
    h = hashlib.sha1()
    offset, seen_text, held = 0, False, b""
    try:
        with open(path, "rb") as f:
            if b"\x00" in f.read(_SNIFF):
                return Skipped(str(path), "binary file (contains NUL bytes)")
            f.seek(0)
            while block := f.read(_BLOCK):
                h.update(block)
                # Whole characters only: the bytes of one cut by the block's end wait for the next.
                data, start = held + block, offset - len(held)
                keep = _incomplete_tail(data)
                body = data[: len(data) - keep]
                if start == 0 and body.startswith(codecs.BOM_UTF8):
                    body, start = body[3:], 3
                try:
                    seen_text = bool(body.decode("utf-8").strip()) or seen_text
                except UnicodeDecodeError as e:
                    return _bad_utf8(path, e, start)
                held = data[len(data) - keep :]
                offset += len(block)
    except OSError as e:
        return Skipped(str(path), f"unreadable: {e.strerror or e}")
    if held:
        return Skipped(str(path), f"not valid UTF-8 (the file ends inside a character, at offset {offset - len(held)})")
    return h.hexdigest()[:16] if seen_text else Skipped(str(path), "empty file")


def _incomplete_tail(data: bytes) -> int:
    """How many bytes at the end of ``data`` start a UTF-8 character that is not complete
    (0–3); invalid bytes are left for the decoder to report."""
    for back in range(1, min(4, len(data)) + 1):
        b = data[-back]
        if b & 0xC0 != 0x80:  # not a continuation byte: the lead byte of the last character
            need = 2 if b & 0xE0 == 0xC0 else 3 if b & 0xF0 == 0xE0 else 4 if b & 0xF8 == 0xF0 else 1
            return back if need > back else 0
    return 0


def _stream_parts(path: Path, part_chars: int) -> Iterator[Document | Skipped]:
    digest = _check_stream(path)
    if isinstance(digest, Skipped):
        yield digest
        return
    bodies = _part_bodies(path, part_chars)
    first = next(bodies, None)
    if first is None:
        yield Skipped(str(path), "no text")
        return
    second = next(bodies, None)
    if second is None:  # many bytes, few characters: one ordinary document after all
        if isinstance(first, str):
            first = _tables(path, first)
            yield Document(id=content_id(first), text=first, title=_title(path, first), source=str(path))
        else:
            yield first
        return
    for n, body in enumerate(chain([first, second], bodies), 1):
        if isinstance(body, Skipped):
            yield body
            return
        body = _tables(path, body)
        title = _title(path, body) if n == 1 else path.stem
        yield Document(id=f"{digest}-p{n}", text=body, title=f"{title} (part {n})", source=f"{path}#part{n}")


def _part_bodies(path: Path, part_chars: int) -> Iterator[str | Skipped]:
    """The non-blank parts of a file's text; holds one block plus less than a part."""
    buf = ""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            while block := f.read(_BLOCK):
                buf += block
                start = 0
                while len(buf) - start >= part_chars:
                    cut = _cut_point(buf, start, part_chars)
                    body = buf[start:cut].replace("\r\n", "\n").strip()
                    start = cut
                    if body:
                        yield body
                buf = buf[start:]
    except (OSError, UnicodeDecodeError) as e:  # changed since the first pass
        yield Skipped(str(path), f"unreadable part way through: {e}")
        return
    body = buf.replace("\r\n", "\n").strip()
    if body:
        yield body


def _cut_point(buf: str, start: int, limit: int) -> int:
    """Where the part that begins at ``start`` ends: after the last sentence end (or blank
    line) in the final fifth of its ``limit`` characters, else after the last whitespace
    there, else at ``limit``."""
    lo, hi = start + limit - limit // 5, start + limit
    ends = [m.end() for m in _CUT.finditer(buf, lo, hi)]
    if ends:
        return ends[-1]
    space = max(buf.rfind(" ", lo, hi), buf.rfind("\n", lo, hi))
    return space + 1 if space >= lo else hi


def _stream_jsonl(path: Path, max_line: int) -> Iterator[Document | Skipped]:
    """A large ``.jsonl`` file one line at a time, each decoded alone (a bad line is skipped,
    not the file); a line longer than ``max_line`` bytes is skipped without being held."""

    def lines() -> Iterator[tuple[int, str | Skipped]]:
        with open(path, "rb") as f:
            n = 0
            while raw := f.readline(max_line + 1):
                n += 1
                if len(raw) > max_line and not raw.endswith(b"\n"):
                    while (rest := f.readline(_BLOCK)) and not rest.endswith(b"\n"):
                        pass
                    yield n, Skipped(f"{path}:{n}", f"line longer than {max_line:,} bytes")
                    continue
                bom = 3 if n == 1 and raw.startswith(codecs.BOM_UTF8) else 0
                try:
                    yield n, raw[bom:].decode("utf-8")
                except UnicodeDecodeError as e:
                    yield n, Skipped(f"{path}:{n}", f"not valid UTF-8 (byte 0x{e.object[e.start]:02x} at column {bom + e.start})")

    try:
        yield from _read_jsonl(path, lines())
    except OSError as e:
        yield Skipped(str(path), f"unreadable: {e.strerror or e}")


def _title(path: Path, body: str) -> str:
    if path.suffix.lower() in (".md", ".markdown"):
        first = body.lstrip().split("\n", 1)[0]
        if first.startswith("#"):
            return first.lstrip("#").strip()
    return path.stem


def _read_jsonl(path: Path, lines: Iterable[tuple[int, str | Skipped]]) -> Iterator[Document | Skipped]:
    """Benchmark corpus format: one ``{"id", "title", "text"}`` object a line, given as
    ``(line number, text)`` pairs (or a `Skipped` for a line that could not be read).

    The title, when present, becomes the first paragraph of the document text, as multi-hop
    QA systems index it (the title often names the entity the passage is about).
    """
    records = 0
    for n, line in lines:
        records += 1
        if isinstance(line, Skipped):
            yield line
            continue
        if not line.strip():
            records -= 1
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
    if not records:
        yield Skipped(str(path), "no records (every line is blank)")
