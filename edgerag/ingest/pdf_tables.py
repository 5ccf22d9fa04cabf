"""Tables on a PDF page, found from where PDFium puts each character, written one line a row
(text/rows.py) in place of the table's text in the page's text.

PDFium's text gives a table's cells run together ("Atlas Maria Olsen 1,200,000 EUR"), so the
reader looks at positions instead:

1. Each character's box (PDFium's loose box: the font's height, so one line's characters
   share a centre; its height, over 1.15, is taken as the font size). Characters whose centres lie within 0.4 of the font size
   form a line; a line breaks into *runs* where the gap between two characters is at least
   `GAP` times the font size (a word space is about a quarter).
2. A table is `MIN_LINES` or more consecutive lines of two or more runs, each under the one
   before by at most `ROW_PITCH` font sizes. Its columns are the x-ranges its runs cover,
   merged where they overlap: a gap no line crosses divides two columns (left-, right- or
   centre-aligned cells all work). There must be two columns or more, the first line (the
   header) must fill all but one of them, and the cells must be short (a header of at most
   8 words, cells of at most `WIDEST_MEAN` characters on average): two columns of prose are
   no table. A header holds no digits but one year ("Budget 2025") or a period's name ("Q1
   2023", "31 March 2024", "52 weeks ended 30 March 2024", "4Q23": `period_name`), and its first
   cell none but a year: a first line of values ("2019 – 2021   Research engineer") means the
   lines have no header, and stay text.
3. A header line of periods only, one for each column of values, that begins over the labels'
   column (set left of right-aligned numbers under a long label) heads the value columns in order.
   Where the runs' x-ranges merge into fewer columns than most lines have runs (numbers set
   right, or after a label of any width), each line's cells are taken by the order of its runs
   (`_by_run_order`): a first line one run short is a header over the values, a second line of
   words its second row, a line of one run a section's heading.
   A line with nothing in the first column continues the row above (a cell whose text wraps,
   or a two-line header: "Price" over "(EUR)").
4. The caption is the line just above the table when it is a single short run with no full
   stop at its end ("Table 2: Lab instruments").
5. A table that runs on to the next page without its header: a block of lines at the top of
   that page (under at most a running header and a page number) whose first line is a label and
   values, as many columns wide as the last table of the page before, goes on under that table's
   header and caption (`Heading`), however few its lines; a table there with a header of its own
   keeps it.

Finding lines costs a box per character (about 4 µs), so a page is looked at only when the
characters on each side of its spaces and line breaks show `MIN_LINES` wide gaps within a
line, or text that goes back up the page (columns, or a table drawn column by column): a page
of prose is read at about a fifth of that cost.

The table's text is replaced only when PDFium's text holds it in one stretch with nothing
else inside; otherwise the page keeps PDFium's text. Not handled: a table whose columns
touch (no gap), rules drawn instead of gaps alone do not count; a wrapped cell in the first
column (read as a row of its own); rotated tables; a table of fewer than three lines (but for
the part of a table that runs on to the next page); merged cells spanning columns (their text lands in one).
Labels and values set apart by a gap ("Date:    3 May 2025", each label ending in ":") are
no table and keep their text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.printed import yearish
from ..text.rows import MOST_HEADER_WORDS, grid_lines

GAP = 1.0
"""A gap of at least this many font sizes between two characters of a line splits a run."""
ROW_PITCH = 2.6
"""The most font sizes a table's line may lie below the line before it."""
MIN_LINES = 3
_TOP_LINES = 2
"""The most lines (a running header, a page number) above a block that goes on with the page before's table."""
WIDEST_MEAN = 40
_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")
_BLANK = re.compile(r"(?<=\S)\s+(?=\S)")
_WORD_GAP = 0.15
"""A gap of this many font sizes between two characters of a run is a space."""


_SKIP = frozenset({0xA0, 0x2002, 0x2003, 0x2009, 0x200B, 0x3000, 0xFFFE, 0xFFFF})
_LOOSE = 1.15
"""A loose character box is about this many font sizes high (Helvetica: 1.16, Times: 1.11)."""


@dataclass
class _Char:
    index: int
    ch: str
    left: float
    right: float
    mid: float
    size: float


@dataclass
class _Line:
    chars: list[_Char]
    mid: float
    size: float
    runs: list[list[_Char]] = field(default_factory=list)


def _chars(tp) -> list[_Char]:
    import pypdfium2.raw as raw

    out = []
    rect = raw.FS_RECTF()
    unicode, box = raw.FPDFText_GetUnicode, raw.FPDFText_GetLooseCharBox
    for i in range(raw.FPDFText_CountChars(tp)):
        code = unicode(tp, i)
        if code <= 32 or code in _SKIP or not box(tp, i, rect):
            continue
        size = (rect.top - rect.bottom) / _LOOSE  # the loose box spans the font's ascent to descent
        if size > 0 and rect.right >= rect.left and not chr(code).isspace():
            out.append(_Char(i, chr(code), rect.left, rect.right, (rect.top + rect.bottom) / 2, size))
    return out


def _lines(chars: list[_Char]) -> list[_Line]:
    """Characters grouped into lines, top of the page first; each line's runs, left to right."""
    lines: list[_Line] = []
    for c in sorted(chars, key=lambda c: -c.mid):
        if lines and abs(lines[-1].mid - c.mid) <= 0.4 * lines[-1].size:
            lines[-1].chars.append(c)
        else:
            lines.append(_Line([c], c.mid, c.size))
    for line in lines:
        line.chars.sort(key=lambda c: c.left)
        run = [line.chars[0]]
        for a, b in zip(line.chars, line.chars[1:]):
            if b.left - a.right >= GAP * line.size:
                line.runs.append(run)
                run = []
            run.append(b)
        line.runs.append(run)
    return lines


def _text(run: list[_Char]) -> str:
    out = [run[0].ch]
    for a, b in zip(run, run[1:]):
        out.append(" " + b.ch if b.left - a.right >= _WORD_GAP * a.size else b.ch)
    return "".join(out)


@dataclass(frozen=True)
class Heading:
    """A table's header row and caption, carried to the next page: a table that runs on there
    without its header goes on under them."""

    header: tuple[str, ...]
    caption: str


@dataclass(frozen=True)
class PageTable:
    """A table found on a page: its row lines, the PDFium character indexes it covers, and its heading."""

    lines: list[str]
    indexes: frozenset[int]
    heading: Heading | None = None


def _columns(block: list[_Line]) -> list[tuple[float, float]]:
    spans = sorted((r[0].left, r[-1].right) for line in block for r in line.runs)
    cols = [list(spans[0])]
    for a, b in spans[1:]:
        if a <= cols[-1][1]:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    return [(a, b) for a, b in cols]


def _table(block: list[_Line], caption: str, carried: Heading | None = None) -> PageTable | None:
    """The table ``block`` holds, or None; ``carried``: the previous page's last table's heading,
    which a block of values as wide as it, at the top of this page, goes on under."""
    cols = _columns(block)
    by_order = _by_run_order(block, len(cols))
    if len(cols) < 2 and by_order is None:
        return None
    grid: list[list[str]] = by_order or []
    for n, line in enumerate(block if by_order is None else ()):
        cells = [""] * len(cols)
        if n == 0 and _periods_over_values(line, cols):  # "2021  2022  2023" set left of the numbers under them
            grid.append(["", *(_text(run) for run in line.runs)])
            continue
        for run in line.runs:
            k = next(k for k, (a, b) in enumerate(cols) if a <= run[0].left <= b)
            cells[k] = f"{cells[k]} {_text(run)}".strip()
        if grid and not cells[0]:  # nothing in the first column: the row above goes on
            grid[-1] = [f"{a} {b}".strip() for a, b in zip(grid[-1], cells)]
        else:
            grid.append(cells)
    cols = cols if by_order is None else [(0.0, 0.0)] * len(by_order[0])
    if carried is not None and len(carried.header) == len(cols) and _values_row(grid[0]) and not any(map(_data, carried.header[:1])):
        grid, caption = [list(carried.header), *grid], carried.caption  # the table of the page before, its header not repeated
    header = grid[0]
    filled = [c for r in grid for c in r if c]
    if (
        len(grid) < 2
        or sum(1 for h in header if h) < len(cols) - 1
        or any(len(h.split()) > MOST_HEADER_WORDS or len(h) > 60 for h in header)
        or sum(map(len, filled)) / len(filled) > WIDEST_MEAN
        or all(r[0].endswith(":") for r in grid)  # labels and their values ("Date:  3 May"): no table
        or (_data(header[0]) and not _PERIOD_HEAD.match(header[0]))  # a first line of values ("2019 – 2021   Engineer"): no header
        or any(_data(h) and not period_name(h) for h in header[1:])  # "Q1 2023", "31 March 2024" name columns
    ):
        return None
    lines = grid_lines(grid, caption)
    if not lines:
        return None
    return PageTable(lines, frozenset(c.index for line in block for c in line.chars), Heading(tuple(header), caption))


def _by_run_order(block: list[_Line], found: int) -> list[list[str]] | None:
    """A block whose lines hold the same number of runs (a label and its values), where their
    left edges do not fall into that many columns (numbers set right, or after a label of any
    width): each line's cells by the order of its runs. A first line one run short is a header
    over the values ("FY2024   FY2023"); a second line of words shorter still, the header's
    second row under its last columns ("target   actual   actual"). None for any other block."""
    counts = [len(line.runs) for line in block]
    k = max(set(counts), key=counts.count)
    if k < 2 or found >= k or counts.count(k) < max(MIN_LINES, len(block) - 4):
        return None
    grid: list[list[str]] = []
    for n, line in enumerate(block):
        texts = [_text(run) for run in line.runs]
        if len(texts) == k - 1 and n and (split := _TRAILING_VALUE.match(texts[0])):
            texts = [split["label"], split["value"], *texts[1:]]  # "Impairment of exploration costs 9,870": a gap too narrow
        if len(texts) == k:
            grid.append(texts)
        elif n == 0 and len(texts) == k - 1:
            grid.append(["", *texts])
        elif n == 1 and grid and 2 <= len(texts) < k and not any(map(_data, texts)):
            grid[0][k - len(texts) :] = [f"{h} {t}".strip() for h, t in zip(grid[0][k - len(texts) :], texts)]
        elif n and len(texts) == 1 and not _data(texts[0]):
            grid.append([texts[0], *[""] * (k - 1)])  # a section's heading ("Production")
        else:
            return None
    return grid


_TRAILING_VALUE = re.compile(r"^(?P<label>.*[A-Za-z)].*?)\s+(?P<value>\(?-?[\d][\d,.]*\)?%?)$")
"""A label run on into its first value where the gap between them is narrow."""


def _values_row(row: list[str]) -> bool:
    """Whether a first line is a row of values, not a header: a label, then values that name no
    period ("Molybdenum (t) | 412 | 388", not " | 2023 | 2022")."""
    cells = [c for c in row[1:] if c]
    return bool(row[0]) and not _data(row[0]) and bool(cells) and all(_data(c) and not period_name(c) for c in cells)


def _periods_over_values(line: _Line, cols: list[tuple[float, float]]) -> bool:
    """Whether a header line of periods only, one for each column of values, begins over the labels'
    column (a header set left of right-aligned numbers, under a long label): its periods head the
    value columns in order, not the labels."""
    texts = [_text(run) for run in line.runs]
    a, b = cols[0]
    return len(texts) == len(cols) - 1 and a <= line.runs[0][0].left <= b and all(period_name(t) for t in texts)


def _data(cell: str) -> bool:
    """Whether a cell reads as a value rather than a column's name: digits other than one
    year ("Budget 2025" names a column; "1,200", "3 May 2025", "2019 – 2021" do not)."""
    years = _YEAR.findall(cell)
    return len(years) > 1 or any(ch.isdigit() for ch in _YEAR.sub("", cell))


_PERIOD_HEAD = re.compile(
    r"^(?:for\s+the\s+)?(?:years?|quarters?|periods?|(?:three|six|nine|twelve|\d{1,2})\s+(?:months|weeks))\s+(?:ended|ending|to)\b|^as\s+(?:at|of)\b",
    re.I,
)
"""The labels' header that names the columns' period ("Years ended December 31"), digits and all."""
_PERIOD_NAME = re.compile(
    r"^(?:\d{1,2}\s+(?:weeks?|months?)\s+(?:ended|ending|to)\b.*|[1-4]Q\s?'?\d{2}|[12]H\s?'?\d{2}|\d{1,2}M\s?'?\d{2}|[1-4]T\s?'?\d{2})$",
    re.I,
)


def period_name(cell: str) -> bool:
    """Whether a header cell names a period, digits and all: a year or a date ("Q1 2023",
    "FY24", "31 March 2024", text/printed.py `yearish`), "52 weeks ended 30 March 2024", or a
    quarter, half or months written short ("4Q23", "1H24", "12M23", "3T23")."""
    if len(_YEAR.findall(cell)) > 1:
        return False  # "2019 – 2023": a span a CV's job lasted, a value
    return yearish(cell) or bool(_PERIOD_NAME.match(cell.strip()))


def _caption(line: _Line | None, below: _Line) -> str:
    if line is None or len(line.runs) != 1 or line.mid - below.mid > ROW_PITCH * 1.5 * below.size:
        return ""
    text = _text(line.runs[0])
    return text if len(text.split()) <= 15 and not text.endswith((".", "!", "?")) else ""


def find_tables(tp, carried: Heading | None = None) -> list[PageTable]:
    """The tables of a PDFium text page (``PdfTextPage.raw``), top first; the first may go on
    under ``carried``, the heading of the page before's last table (`_table`)."""
    chars = _chars(tp)
    if len(chars) < 6:
        return []
    lines = _lines(chars)
    found: list[PageTable] = []
    i = 0
    while i < len(lines):
        if len(lines[i].runs) < 2:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j - 1].mid - lines[j].mid <= ROW_PITCH * lines[j - 1].size:
            if len(lines[j].runs) < 2 and not (j + 1 < len(lines) and len(lines[j + 1].runs) >= 2):
                break  # one run, and no table line under it: the table has ended
            j += 1
        while j > i and len(lines[j - 1].runs) < 2:
            j -= 1
        carry = carried if not found and i <= _TOP_LINES else None  # only a block at the top of the page goes on
        if j - i >= MIN_LINES or (carry is not None and j - i >= 1):
            table = _table(lines[i:j], _caption(lines[i - 1] if i else None, lines[i]), carry)
            if table is not None:
                found.append(table)  # the page's first table ends what goes on from the page before
        i = max(j, i + 1)
    return found


def _gapped(tp, text: str, base: int) -> bool:
    """Whether the page may hold a table, from the characters on each side of each space or
    line break of its text alone (a fifth of the characters' boxes): `MIN_LINES` gaps of
    `GAP` font sizes within a line, or text that goes back up the page (columns, or a table
    drawn column by column)."""
    import pypdfium2.raw as raw

    rect = raw.FS_RECTF()

    def box(p: int) -> tuple[float, float, float, float] | None:
        i = raw.FPDFText_GetCharIndexFromTextIndex(tp, p + base)
        if i < 0 or not raw.FPDFText_GetLooseCharBox(tp, i, rect):
            return None
        return rect.left, rect.right, (rect.top + rect.bottom) / 2, (rect.top - rect.bottom) / _LOOSE

    gaps = 0
    for m in _BLANK.finditer(text):
        a, b = box(m.start() - 1), box(m.end())
        if a is None or b is None or a[3] <= 0:
            continue
        if b[2] > a[2] + a[3]:
            return True  # back up the page
        if abs(a[2] - b[2]) <= 0.4 * a[3] and b[0] - a[1] >= GAP * a[3]:
            gaps += 1
            if gaps >= MIN_LINES:
                return True
    return False


def with_tables(tp, text: str, carried: Heading | None = None) -> tuple[str, Heading | None]:
    """``text`` (the page's whole text from PDFium) with each table's stretch replaced by its
    row lines, one a line (a table whose stretch holds other text is left as it was); and the
    heading of its last table, for the next page (``carried``: the page before's)."""
    import pypdfium2.raw as raw

    n = raw.FPDFText_CountChars(tp)
    base = next((t for i in range(n) if (t := raw.FPDFText_GetTextIndexFromCharIndex(tp, i)) >= 0), 0)
    if not _gapped(tp, text, base) and carried is None:
        return text, None
    tables = find_tables(tp, carried)
    if not tables:
        return text, None
    cuts: list[tuple[int, int, str]] = []
    for table in tables:
        at = [raw.FPDFText_GetTextIndexFromCharIndex(tp, i) - base for i in table.indexes]
        lo, hi = min(at), max(at)
        if min(at) < 0 or hi >= len(text):
            continue
        inside = (raw.FPDFText_GetCharIndexFromTextIndex(tp, p + base) for p in range(lo, hi + 1))
        if any(not text[p].isspace() and c not in table.indexes for p, c in zip(range(lo, hi + 1), inside)):
            continue  # PDFium's text holds something else inside the table's stretch
        cuts.append((lo, hi + 1, "\n" + "\n".join(table.lines) + "\n"))
    for lo, hi, rows in sorted(cuts, reverse=True):
        text = text[:lo] + rows + text[hi:]
    return text, tables[-1].heading


__all__ = ["Heading", "PageTable", "find_tables", "with_tables"]
