"""HTML → the page's main text as `Block`s under their heading path (BeautifulSoup + lxml).

Why not trafilatura: on the three saved-page layouts of benchmarks/ingest_formats.py
(an <article> blog post, a <main> news page with a table, a <div>-only docs page, each in
menus, cookie banner, related links, share bar, newsletter box, footer and scripts) both
keep 100% of the real sentences and let 0% of the boilerplate through
(benchmarks/results/ingest_formats.json, ``html_extractors``): a tie. BeautifulSoup wins on
the rest: its tree keeps the headings a section path needs (trafilatura's text output
drops them), EPUB chapters reuse the same code, and it needs two packages instead of
trafilatura's seven (courlan, htmldate, dateparser, justext, tld, …).

What is kept: the ``<main>`` element, else the largest ``<article>``, else ``[role=main]``,
else ``<body>`` with blocks whose class or id names page furniture (nav, menu, sidebar,
cookie, banner, footer, share, …) dropped. Scripts, styles, forms, ``<nav>``, ``<aside>``,
hidden elements and, outside the main element, ``<header>``/``<footer>`` never are. Each
paragraph, list item, quote, preformatted block or table row is a block (cells joined by
" | "); ``<h1>``–``<h6>`` set the section path. EPUB chapters use the same code (epub.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .blocks import Block, Skipped, pack

DROP = {
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "math",
    "canvas",
    "iframe",
    "object",
    "embed",
    "nav",
    "aside",
    "form",
    "button",
    "select",
    "input",
    "textarea",
    "label",
    "dialog",
    "menu",
    "head",
}
BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "li",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "address",
    "details",
    "summary",
    "body",
    "html",
    "caption",
    "center",
    "hr",
    "tbody",
    "thead",
}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_FURNITURE = re.compile(
    r"(^|[-_ ])(nav|navbar|navigation|menu|breadcrumbs?|sidebar|cookies?|consent|banner|advert|ads|promo|"
    r"share|sharing|social|newsletter|subscribe|footer|masthead|skip|related|popup|modal)([-_ ]|$)",
    re.I,
)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_SPACE = re.compile(r"[ \t\r\f\v\u00a0]+")


def parse(data: bytes | str):
    import warnings

    from bs4 import BeautifulSoup, XMLParsedAsHTMLWarning

    with warnings.catch_warnings():  # EPUB chapters are XHTML: the HTML parser reads them as meant
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        return BeautifulSoup(data, "lxml")


def title_of(soup) -> str:
    t = soup.find("title")
    text = " ".join(t.get_text(" ").split()) if t else ""
    if not text:
        h1 = soup.find("h1")
        text = " ".join(h1.get_text(" ").split()) if h1 else ""
    return text[:200]


def main_root(soup):
    """The element holding the page's own text, and whether it was found by markup
    (``<main>``, ``<article>``, ``role=main``) rather than falling back to ``<body>``."""
    main = soup.find("main") or soup.find(attrs={"role": "main"})
    if main is not None and main.get_text(strip=True):
        return main, True
    articles = soup.find_all("article")
    if articles:
        best = max(articles, key=lambda a: len(a.get_text(" ", strip=True)))
        if best.get_text(strip=True):
            return best, True
    return (soup.body or soup), False


def html_blocks(soup, base: tuple[str, ...] = ()) -> Iterator[Block]:
    """The main text of a parsed page as blocks; ``base`` is prepended to every section path
    (an EPUB chapter title)."""
    root, marked = main_root(soup)
    _strip(root, furniture=not marked)
    headings: list[tuple[int, str]] = []
    yield from _walk(root, headings, base)


def _strip(root, furniture: bool) -> None:
    from bs4 import Comment, Doctype, ProcessingInstruction

    for c in root.find_all(string=lambda s: isinstance(s, (Comment, Doctype, ProcessingInstruction))):
        c.extract()
    doomed: list = []
    for el in root.find_all(True):
        if el.decomposed:  # inside an element already dropped
            continue
        name = el.name
        attrs = el.attrs or {}
        if name in DROP or "hidden" in attrs or attrs.get("aria-hidden") == "true" or _HIDDEN_STYLE.search(attrs.get("style", "") or ""):
            doomed.append(el)
        elif attrs.get("role") in ("navigation", "banner", "contentinfo", "complementary", "search"):
            doomed.append(el)
        elif furniture and (
            name in ("header", "footer") or _FURNITURE.search(" ".join(attrs.get("class", []) or []) + " " + str(attrs.get("id", "")))
        ):
            doomed.append(el)
        else:
            continue
        if doomed and doomed[-1] is el:
            el.decompose()


def _walk(root, headings: list[tuple[int, str]], base: tuple[str, ...]) -> Iterator[Block]:
    """Depth-first over the tree, an explicit stack (no recursion limit on deep nesting)."""
    from bs4 import NavigableString, Tag

    inline: list[str] = []

    def section() -> str:
        from ..provenance import SECTION_SEP

        path: list[str] = []
        for t in [*base, *(t for _, t in headings)]:
            if not path or path[-1].casefold() != t.casefold():  # a chapter's own heading repeats its title
                path.append(t)
        return SECTION_SEP.join(path)

    def flush() -> Iterator[Block]:
        text = _clean("".join(inline))
        inline.clear()
        if text:
            yield Block(text, section=section())

    stack: list = [iter(root.children)]
    closers: list = [None]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            if closers.pop() == "block":
                yield from flush()
            continue
        if isinstance(child, NavigableString):
            inline.append(str(child))
            continue
        if not isinstance(child, Tag) or child.decomposed:
            continue
        name = child.name
        if name in HEADINGS:
            yield from flush()
            text = _clean(child.get_text(" "))
            if text:
                level = HEADINGS[name]
                while headings and headings[-1][0] >= level:
                    headings.pop()
                headings.append((level, text[:120]))
                yield Block(text, section=section())
        elif name == "table":
            yield from flush()
            for row in child.find_all("tr"):
                cells = [_clean(c.get_text(" ")) for c in row.find_all(["td", "th"], recursive=False)]
                cells = [c for c in cells if c]
                if cells:
                    yield Block(" | ".join(dict.fromkeys(cells)), section=section())
        elif name == "br":
            inline.append("\n")
        elif name in BLOCK or name == "tr":
            yield from flush()
            stack.append(iter(child.children))
            closers.append("block")
        else:
            stack.append(iter(child.children))
            closers.append(None)
    yield from flush()


def _clean(text: str) -> str:
    lines = (_SPACE.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def read_html(path: Path, data: bytes, part_chars: int) -> Iterator:
    soup = parse(data)
    title = title_of(soup) or path.stem
    found = 0
    for doc in pack(path, "html", html_blocks(soup), title, part_chars):
        found += 1
        yield doc
    if not found:
        yield Skipped(str(path), "no readable text in the page (only scripts, styles, navigation or markup)")
