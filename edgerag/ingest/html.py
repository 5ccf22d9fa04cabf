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
paragraph, list item, quote, preformatted block or table row is a block; ``<h1>``–``<h6>``
set the section path. EPUB chapters use the same code (epub.py).

A table row is written with its header (text/rows.py): ``Caption — Price: 12,400 EUR; Room:
B-2``. The header is the ``<thead>`` rows, else the leading rows of ``<th>`` cells only, else
the first row; several header rows are joined per column, and a section row among them
(``<th colspan="6">Income</th>`` under the header row: text/printed.py `section_row`) opens
the body. A cell spanning columns or rows is repeated into each. The caption is the ``<caption>``, else the heading above the table. A
table of one column, or with a cell of prose (a layout table), keeps its cells joined by " | "
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..text.rows import grid_lines
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
    last = [""]  # the text of the block before, where a report may say a table's scale

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
            last[0] = text
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
            grid, header_rows, caption = _grid(child)
            lines = grid_lines(grid, caption or (headings[-1][1] if headings else ""), header_rows, last[0], strong=_strong_labels(child))
            if lines is None:  # no table of data (layout, one column): its cells as they stand
                lines = [" | ".join(dict.fromkeys(c for c in r if c)) for r in grid]
            for line in lines:
                if line:
                    yield Block(line, section=section())
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


def _grid(table) -> tuple[list[list[str]], int, str]:
    """A ``<table>``'s rows of cells (its own, not a nested table's), each spanning cell
    repeated into every column and row it spans; how many rows head it (its ``<thead>``
    rows, else its leading rows of ``<th>`` only, else the first); and its ``<caption>``."""
    trs = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    caption = next((c for c in table.find_all("caption") if c.find_parent("table") is table), None)
    grid: list[list[str]] = []
    below: dict[int, tuple[int, str]] = {}  # column → (rows still spanned, text) of a rowspan
    for tr in trs:
        row: list[str] = []
        for cell in tr.find_all(["td", "th"], recursive=False):
            while len(row) in below:
                row.append(_carry(below, len(row)))
            text = " ".join(_clean(cell.get_text(" ")).split())
            across, down = _span(cell.get("colspan")), _span(cell.get("rowspan"))
            for _ in range(across):
                if down > 1:
                    below[len(row)] = (down - 1, text)
                row.append(text)
        while len(row) in below:
            row.append(_carry(below, len(row)))
        grid.append(row)
    heads = sum(1 for tr in trs if tr.parent is not None and tr.parent.name == "thead")
    if not heads:
        for tr in trs:
            cells = tr.find_all(["td", "th"], recursive=False)
            if not cells or any(c.name != "th" for c in cells):
                break
            heads += 1
    caption_text = " ".join(_clean(caption.get_text(" ")).split()) if caption is not None else ""
    return grid, max(1, min(heads, 3)), caption_text


_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|bolder|[6-9]00)", re.I)


def _strong_labels(table) -> frozenset[str]:
    """The row labels (a row's first cell) of a ``<table>`` set in bold whole: ``<b>``,
    ``<strong>`` or a bold font weight around all its text (a section heading, a subtotal)."""
    out = set()
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        cell = tr.find(["td", "th"], recursive=False)
        if cell is None:
            continue
        text = " ".join(_clean(cell.get_text(" ")).split())
        if not text:
            continue
        bold = [cell] if _BOLD_STYLE.search(cell.get("style", "") or "") else []
        bold += cell.find_all(["b", "strong"]) + cell.find_all(style=_BOLD_STYLE)
        said = " ".join(" ".join(_clean(b.get_text(" ")).split()) for b in bold)
        if bold and (said == text or (bold[0] is cell)):
            out.add(text)
    return frozenset(out)


def _carry(below: dict[int, tuple[int, str]], col: int) -> str:
    left, text = below[col]
    if left > 1:
        below[col] = (left - 1, text)
    else:
        del below[col]
    return text


def _span(value) -> int:
    try:
        return min(max(int(str(value).strip()), 1), 50)
    except (TypeError, ValueError):
        return 1


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
