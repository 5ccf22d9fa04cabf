"""EPUB → documents: a zip of XHTML chapters, read with zipfile and the HTML reader.

The package file (``META-INF/container.xml`` → the OPF) gives the book's title and the
reading order (the spine); the table of contents (EPUB 3 ``nav`` document, else the EPUB 2
NCX) names the chapters. Each chapter's text is read by html.py with the chapter title as
the first element of its section path (``Chapter 3 › A heading in it``); a chapter missing
from the table of contents is named by its first heading, else its file name. The archive
is checked for zip bombs first (archive.py); DRM-encrypted books are refused by name.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

from .archive import UnsafeArchive, open_zip, read_member
from .blocks import Block, Skipped, pack
from .html import html_blocks, parse

_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "ncx": "http://www.daisy.org/z3986/2005/ncx/",
}
_HTML_TYPES = ("application/xhtml+xml", "text/html")


def read_epub(path: Path, part_chars: int) -> Iterator:
    try:
        z = open_zip(path, "EPUB")
    except UnsafeArchive as e:
        yield Skipped(str(path), str(e))
        return
    with z:
        try:
            title, chapters = _package(z)
        except UnsafeArchive as e:
            yield Skipped(str(path), f"damaged EPUB: {e}")
            return
        except ET.ParseError as e:
            yield Skipped(str(path), f"damaged EPUB: its package file is not valid XML ({e})")
            return
        if "META-INF/encryption.xml" in z.namelist() and any(_encrypted(z, href) for href, _ in chapters):
            yield Skipped(str(path), "DRM-encrypted EPUB: its chapters cannot be read")
            return
        if not chapters:
            yield Skipped(str(path), "an EPUB with no chapters in its spine (damaged?)")
            return
        bad: list[str] = []
        found = 0
        for doc in pack(path, "epub", _blocks(z, chapters, bad), title or path.stem, part_chars):
            found += 1
            yield doc
        if bad:
            yield Skipped(f"{path} ({', '.join(bad[:5])})", f"{len(bad)} chapter(s) unreadable (damaged); the rest is indexed")
        if not found:
            yield Skipped(str(path), "no readable text in the book's chapters")


def _package(z) -> tuple[str, list[tuple[str, str]]]:
    """The book title and its chapters in reading order: (member name, chapter title)."""
    container = ET.fromstring(read_member(z, "META-INF/container.xml"))
    root = container.find(".//c:rootfile", _NS)
    if root is None or not root.get("full-path"):
        raise UnsafeArchive("META-INF/container.xml names no package file")
    opf_path = root.get("full-path")
    opf = ET.fromstring(read_member(z, opf_path))
    base = posixpath.dirname(opf_path)
    title = " ".join((opf.findtext(".//dc:title", "", _NS) or "").split())
    manifest = {}
    for item in opf.iterfind(".//opf:manifest/opf:item", _NS):
        href = posixpath.normpath(posixpath.join(base, unquote(item.get("href", ""))))
        manifest[item.get("id")] = (href, item.get("media-type", ""), item.get("properties", ""))
    spine = opf.find(".//opf:spine", _NS)
    toc: dict[str, str] = {}
    nav = next((m for m in manifest.values() if "nav" in m[2].split()), None)
    if nav is not None:
        toc = _nav_titles(z, nav[0])
    elif spine is not None and spine.get("toc") in manifest:
        toc = _ncx_titles(z, manifest[spine.get("toc")][0])
    chapters = []
    for ref in spine.iterfind("opf:itemref", _NS) if spine is not None else []:
        entry = manifest.get(ref.get("idref"))
        if entry and entry[1] in _HTML_TYPES:
            chapters.append((entry[0], toc.get(entry[0], "")))
    return title, chapters


def _nav_titles(z, nav_path: str) -> dict[str, str]:
    soup = parse(read_member(z, nav_path))
    nav = soup.find("nav", attrs={"epub:type": "toc"}) or soup.find("nav")
    out: dict[str, str] = {}
    for a in nav.find_all("a", href=True) if nav else []:
        href = posixpath.normpath(posixpath.join(posixpath.dirname(nav_path), unquote(a["href"].split("#", 1)[0])))
        out.setdefault(href, " ".join(a.get_text(" ").split()))
    return out


def _ncx_titles(z, ncx_path: str) -> dict[str, str]:
    ncx = ET.fromstring(read_member(z, ncx_path))
    out: dict[str, str] = {}
    for point in ncx.iterfind(".//ncx:navPoint", _NS):
        label = point.findtext("ncx:navLabel/ncx:text", "", _NS)
        src = point.find("ncx:content", _NS)
        if src is not None and src.get("src"):
            href = posixpath.normpath(posixpath.join(posixpath.dirname(ncx_path), unquote(src.get("src").split("#", 1)[0])))
            out.setdefault(href, " ".join(label.split()))
    return out


def _encrypted(z, href: str) -> bool:
    try:
        return href.encode() in z.read("META-INF/encryption.xml")
    except (KeyError, OSError, ValueError):
        return False


def _blocks(z, chapters: list[tuple[str, str]], bad: list[str]) -> Iterator[Block]:
    for href, name in chapters:
        try:
            soup = parse(read_member(z, href))
        except UnsafeArchive:
            bad.append(href)
            continue
        if not name:
            h = soup.find(["h1", "h2", "h3"])
            name = " ".join(h.get_text(" ").split()) if h else posixpath.splitext(posixpath.basename(href))[0]
        yield from html_blocks(soup, base=(name[:120],))
