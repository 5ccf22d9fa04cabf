"""What a file's first bytes say it is, for messages about a wrong extension."""

from __future__ import annotations

_SIGNATURES = (
    (b"%PDF-", "a PDF", ".pdf"),
    (b"PK\x03\x04", "a zip archive (DOCX or EPUB?)", ".docx or .epub"),
    (b"PK\x05\x06", "an empty zip archive", ""),
    (b"\xd0\xcf\x11\xe0", "an old binary Office file (.doc/.xls): save it as .docx", ""),
    (b"\x89PNG", "a PNG image", ""),
    (b"\xff\xd8\xff", "a JPEG image", ""),
    (b"GIF8", "a GIF image", ""),
    (b"{\\rtf", "an RTF file", ""),
)


def kind_of(head: bytes) -> tuple[str, str]:
    """(what the bytes look like, the extension that would read them, or "")."""
    for sig, what, ext in _SIGNATURES:
        if head.startswith(sig) or (sig == b"%PDF-" and sig in head[:1024]):
            return what, ext
    low = head[:512].lstrip().lower()
    if low.startswith((b"<!doctype html", b"<html")) or b"<html" in low:
        return "HTML", ".html"
    if b"\x00" in head:
        return "binary data", ""
    try:
        head.decode("utf-8")
        return "plain text", ".txt"
    except UnicodeDecodeError as e:
        if e.start > len(head) - 4:  # a character cut by the end of the sample
            return "plain text", ".txt"
        return "binary data", ""


def looks_like(head: bytes) -> str:
    what, ext = kind_of(head)
    return f"it looks like {what}" + (f"; name it {ext}" if ext else "")
