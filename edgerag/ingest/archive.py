"""Opening DOCX and EPUB files (zip archives) without trusting them.

A zip bomb is a small archive whose members expand to gigabytes. Before anything reads a
member, `open_zip` checks the sizes the archive declares: at most ``MAX_MEMBERS`` members,
each at most ``MAX_MEMBER`` bytes, all together at most ``MAX_TOTAL``, and no member over
1 MiB expanding more than ``MAX_RATIO`` times (real XML compresses 5–20×). Python's zipfile
never returns more bytes than a member declares (and checks its CRC), so a lying header
cannot get past these checks either.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

MAX_MEMBERS = 10_000
MAX_MEMBER = 64 << 20
MAX_TOTAL = 256 << 20
MAX_RATIO = 100


class UnsafeArchive(Exception):
    """Why an archive is refused (the message names no path: the caller adds it)."""


def open_zip(path: Path, what: str) -> zipfile.ZipFile:
    """The archive, checked; `UnsafeArchive` says why it is not one we read."""
    from .sniff import looks_like

    if not zipfile.is_zipfile(path):
        with open(path, "rb") as f:
            head = f.read(1024)
        article = "an" if what[:1] in "AEIOU" else "a"
        raise UnsafeArchive(f"not {article} {what} (not a zip archive; {looks_like(head)}): wrong extension or damaged file")
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise UnsafeArchive(f"damaged {what}: {e}") from e
    infos = z.infolist()
    if len(infos) > MAX_MEMBERS:
        z.close()
        raise UnsafeArchive(f"refused {what}: {len(infos):,} archive members (limit {MAX_MEMBERS:,})")
    total = 0
    for i in infos:
        total += i.file_size
        bomb = (
            i.file_size > MAX_MEMBER or total > MAX_TOTAL or (i.file_size > 1 << 20 and i.file_size > MAX_RATIO * max(i.compress_size, 1))
        )
        if bomb:
            z.close()
            raise UnsafeArchive(
                f"refused {what}: zip bomb? member {i.filename!r} expands to {i.file_size / 2**20:.0f} MiB "
                f"from {i.compress_size / 2**10:.0f} KiB (limits: {MAX_MEMBER >> 20} MiB a member, "
                f"{MAX_TOTAL >> 20} MiB in all, {MAX_RATIO}× compression)"
            )
    return z


def read_member(z: zipfile.ZipFile, name: str) -> bytes:
    try:
        return z.read(name)
    except KeyError:
        raise UnsafeArchive(f"archive member {name!r} is missing") from None
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as e:  # bad CRC, truncated, odd compression
        raise UnsafeArchive(f"archive member {name!r} is damaged: {e}") from e
