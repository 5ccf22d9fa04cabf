"""A table row as one line of text, its header with each value: what every reader writes for a
table (ingest/), what the sentence splitter keeps whole, and what text/tables.py reads back.

    Lab instruments — Instrument: centrifuge; Room: B-2; Price: 12,400 EUR; Bought: 2021

The table's caption (or the heading above it) comes first, before " — "; then ``header: value``
pairs joined by "; ", empty cells left out. So a row is found by retrieval as a sentence of its
own, with the words of its columns, and a column's values can be compared in code.

What a cell may not hold is changed when the line is written: line breaks and runs of spaces
become one space, "; " becomes ", ", " — " becomes " – "; a header's ":" and ". " become " ".
Read back, a line is a row when it holds at least two pairs (or a caption and one pair); a
header is at most 80 characters and 8 words, without ":", ";" or a sentence's end (". "), and
no header or value opens a bracket it does not close: prose glosses a name so ("Verdun
(French: Bataille de Verdun; German: Schlacht um Verdun) was …") and is no row.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .printed import CURRENCY_SIGN, clean_cell, plain, section_row
from .sections import Sections

CAPTION_SEP = " — "
PAIR_SEP = "; "
_HEAD = r"(?:[^\n:;—.!?]|[.!?](?! ))"
_PAIR = rf"{_HEAD}{{1,80}}: [^\n;]*"
_ROW = re.compile(rf"(?:(?P<caption>[^\n]{{1,200}}?){CAPTION_SEP})?(?P<pairs>{_PAIR}(?:{PAIR_SEP}{_PAIR})*)")
_LINE = re.compile(r"[^\n]+")
_SPACE = re.compile(r"\s+")
HEADER_PATH = " · "
"""Between the parts of a column's header path: "Years ended · 2019 · $m"."""
SECTION_MARK = " › "
TOTAL_ROW = re.compile(
    r"\btotals?\b|\bsub-?total\b|^\s*(?:consolidated|group|(?:the\s+)?company)\s*$|\bfull[- ]year\b|\byear[- ]to[- ]date\b|\bYTD\b",
    re.I,
)
"""A row's own label (after its section) that sums the table's other rows: "Total", "Subtotal",
"Consolidated", "Group", a quarters table's "Full year 2020". A sum, count or ranking of the
table's rows leaves it out (answer/every_row.py, answer/count_rows.py, text/top_rows.py), and a
share of it is no row's share (answer/printed_change.py)."""


def total_row(label: str) -> bool:
    """Whether a row ``label`` (its section aside) is a total of the others (`TOTAL_ROW`)."""
    return bool(TOTAL_ROW.search(label.rpartition(SECTION_MARK)[2]))


"""Between a section's label and a row's label: "Revenue › Services"."""
MOST_HEADER_WORDS = 8
"""A longer "header" is a clause of prose ("The plan has three parts: …")."""
WIDEST_CELL = 400
"""A table with a longer cell holds prose (a layout table): its text is kept as it is."""


@dataclass(frozen=True)
class Row:
    """One row line read back: its caption ("" when none) and header → value, in column order."""

    cells: dict[str, str]
    caption: str = ""
    text: str = ""

    @property
    def headers(self) -> tuple[str, ...]:
        return tuple(self.cells)


def _cell(text: str) -> str:
    text = _SPACE.sub(" ", text).strip()
    return text.replace("; ", ", ").replace(";", ",").replace(" — ", " – ")


_PAIRS = {")": "(", "]": "["}


def _unmatched(text: str) -> list[int]:
    """Where ``text``'s brackets are unmatched: a closer with no opener before it, an opener
    never closed."""
    open_at: list[int] = []
    stray = []
    for i, ch in enumerate(text):
        if ch in "([":
            open_at.append(i)
        elif ch in _PAIRS:
            if open_at and text[open_at[-1]] == _PAIRS[ch]:
                open_at.pop()
            else:
                stray.append(i)
    return sorted(stray + open_at)


def balanced_cell(text: str) -> str:
    """A table cell with its unmatched brackets left out ("Sales per square metre ($)$)" →
    "Sales per square metre ($)$"; a number opened by "(" alone is negative, "(17" → "-17"):
    a row line is read back only when each of its headers and values closes the brackets it
    opens (`parse_row`), so a report's stray bracket would lose the whole row."""
    stray = set(_unmatched(text))
    if not stray:
        return text
    kept = "".join(ch for i, ch in enumerate(text) if i not in stray).strip()
    if text.lstrip().startswith("(") and re.fullmatch(CURRENCY_SIGN + r"?\s?\d[\d,]*(?:\.\d+)?\s?%?", kept):
        return f"-{kept}"  # "(17": a negative whose ")" the report printed in the next cell
    return kept


_YEAR_WORD = re.compile(r"(?:19|20)\d{2}\b")
_MONTH_WORD = re.compile(r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?$")


def _cut(words: list[str]) -> list[str]:
    """A header's words cut to `MOST_HEADER_WORDS` and 80 characters, keeping its date when the
    cut would drop it: "Estimated at Acquisition and as of December 31, 2018" keeps "December
    31, 2018" after its first words, so the column is still the year's."""

    def fits(ws: list[str]) -> bool:
        return len(ws) <= MOST_HEADER_WORDS and len(" ".join(ws)) <= 80

    kept: list[str] = []
    for w in words:
        if not fits([*kept, w]):
            break
        kept.append(w)
    dropped = words[len(kept) :]
    at = next((i for i in range(len(dropped) - 1, -1, -1) if _YEAR_WORD.match(dropped[i])), None)
    if at is None or any(_YEAR_WORD.match(w) for w in kept):
        return kept
    start = at
    while start > 0 and at - start < 2 and not _MONTH_WORD.match(dropped[start]):
        start -= 1  # "December 31, 2018": back to its month, at most two words
    tail = dropped[start if _MONTH_WORD.match(dropped[start]) else at : at + 1]
    head = kept
    while head and not fits([*head, *tail]):
        head = head[head.index("·") + 1 :] if "·" in head else head[:-1]  # the outer header path first, then its last words
    return [*head, *tail]


def _header(text: str, n: int) -> str:
    text = _cell(text).replace(":", " ").replace("—", "-").replace(". ", " ").replace("! ", " ").replace("? ", " ")
    text = _SPACE.sub(" ", text).strip()
    cut = " ".join(text[:80].split()[:MOST_HEADER_WORDS]).strip()
    if not _YEAR_WORD.search(cut) and _YEAR_WORD.search(text):  # the cut drops the header's only year
        cut = " ".join(_cut(text.split())).strip()
    text = cut
    stray = _unmatched(text)
    if stray and text[stray[0]] in "([":  # cut short inside a bracket ("… Increase/ (Decrease) · (dollars in"): up to it
        text = text[: stray[0]].rstrip(" ·-–,/")
    text = balanced_cell(text)
    return text or ("Item" if n == 0 else f"Column {n + 1}")


def row_line(headers: Sequence[str], cells: Sequence[str], caption: str = "") -> str:
    """``headers`` and ``cells`` (same order) as one row line; "" when every cell is empty. A
    header repeated with the same value (a merged cell read once per column) is written once."""
    pairs: dict[tuple[str, str], None] = {}
    for n, (h, c) in enumerate(zip(headers, cells)):
        value = balanced_cell(_cell(c))
        if value:
            pairs[(_header(h, n), value)] = None
    if not pairs:
        return ""
    body = PAIR_SEP.join(f"{h}: {v}" for h, v in pairs)
    caption = _cell(caption).replace("—", "-")[:200]
    return f"{caption}{CAPTION_SEP}{body}" if caption else body


_NUMBER_HEAD = re.compile(r"^(?:no\.?|nr\.?|#|s/?n|sr\.?\s*no\.?|stt|item\s+no\.?)$", re.I)
_ITEM_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*\.?|[ivx]{1,4}\.?|[a-z][.)])$", re.I)


def numbering(rows: Sequence[Sequence[str]], header_rows: int) -> bool:
    """Whether a table's first column numbers its items ("No." over "1", "1.1", "2"), the next
    column holding their labels in words: the labels are the next column's. A first column with
    no header of its own ("" over "1", "2") may be the rows' own labels, and stays."""
    body = [r for r in rows[header_rows:] if any(r)]
    heads = [r[0] for r in rows[:header_rows]]
    numbered = [r for r in body if r[0]]
    return (
        all(_NUMBER_HEAD.match(h.strip()) for h in heads)
        and len(numbered) * 2 >= len(body) > 0
        and all(_ITEM_NUMBER.match(r[0].strip()) for r in numbered)
        and sum(1 for r in body if re.search(r"[^\W\d_]{2}", r[1])) * 2 > len(body)
    )


def grid_lines(
    grid: Sequence[Sequence[str]],
    caption: str = "",
    header_rows: int = 1,
    before: str = "",
    *,
    unstack: bool = True,
    strong: Collection[str] = (),
) -> list[str] | None:
    """The row lines of a table given as rows of cells (merged cells already repeated into
    each column they span), as printed (text/printed.py: negatives, dashes, footnote marks,
    signs in cells of their own, header rows in the body, the table's scale): the first
    ``header_rows`` rows name the columns, several header rows joined per column into a header
    path ("2019 · $m"); None when it is no table of data (one column, no row under the header,
    or a cell of prose), so the reader keeps its text as it was. ``before`` is the text just
    above the table, where a report may say its scale ("in thousands"). ``unstack``: a table
    stacked in year blocks is read as one wide table (`stacked_blocks`), once.

    A row whose cells are all one value (a sub-heading spanning the table) is written alone. A
    row with a label and no values (a section: "Revenue"), or a label spanning the table
    ("Expenditure" in every cell: text/printed.py `section_row`), is written alone too, and its
    label carried before the labels of the rows below it ("Revenue › Services"), up to the next
    section or a row of totals (text/sections.py: a list's heading inside a section, subtotals).
    ``strong``: the labels the reader saw set in bold (a heading, a subtotal)."""
    if not any(any(_cell(c) for c in r) for r in grid) or any(len(_cell(c)) > WIDEST_CELL for r in grid for c in r):
        return None  # an empty table ("<table></table>", a row of empty cells) is no rows
    rows, header_rows, scale = plain([[_cell(c) for c in r] for r in grid], header_rows, before)
    width = max((len(r) for r in rows), default=0)
    if width < 2 or len(rows) <= header_rows:
        return None
    rows = [r + [""] * (width - len(r)) for r in rows]
    if width > 2 and numbering(rows, header_rows):
        rows, width = [r[1:] for r in rows], width - 1  # "No. | Indicator | …": the item's number is no label, no value
    blocks = stacked_blocks(rows, header_rows) if unstack else []
    if len(blocks) > 1:  # a table stacked in blocks, each under its own headers: one wide table, a row per label
        wide, heads = side_by_side(blocks)
        return grid_lines(wide, caption, heads, before, unstack=False, strong=strong)  # once: the wide table is not read for blocks again
    headers = [HEADER_PATH.join(dict.fromkeys(r[k] for r in rows[:header_rows] if r[k])) for k in range(width)]
    if sum(1 for h in headers if h) < 2 and len(set(headers)) < 2:
        return None
    if scale:
        said = scale.strip("().,;: ")
        caption = f"{caption} ({said})" if caption else f"({said})"
    out = []
    sections = Sections(strong=frozenset(clean_cell(_cell(s)) for s in strong), caption=caption)
    above = ""  # the last row of values' label: the one an "of which:" heading breaks down
    for r in rows[header_rows:]:
        values = {c for c in r if c}
        if len(values) == 1 and (sum(1 for c in r if c) > 1 or (r[0] and width > 2)):
            out.append(next(iter(values)))  # a sub-heading spanning the table: written as it stands
            if section_row(r) or (r[0] and not any(r[1:])):
                sections.heading(r[0], above)  # a section's label (alone, or spanning the table), carried into the rows below
            continue
        label = r[0]
        above = label
        section = sections.row(label) if label else ""  # a subtotal closes its section (text/sections.py)
        if section:
            r = [f"{section}{SECTION_MARK}{label}", *r[1:]]
        line = row_line(headers, r, caption)
        if line:
            out.append(line)
    return out


def _lone(row: Sequence[str]) -> bool:
    """A row with one cell filled, past its label's: an upper header ("Year Ended December 31, 2018")."""
    return not row[0] and sum(1 for c in row[1:] if c) == 1


def stacked_blocks(rows: list[list[str]], header_rows: int) -> list[tuple[list[list[str]], int]]:
    """A table stacked in blocks (``(rows, header rows)`` each): a report prints one year's
    segments, then the next year's under the same column headers again ("Activision, Blizzard,
    King, Total" under "Year Ended December 31, 2018"). A body row repeating the last header row
    starts a block; the row of one cell just above it is the block's upper header, and a lone
    upper header heads every column of its block ("Year Ended … 2018 · Blizzard", "… · King").
    One block (the table as it is) when no body row repeats the header row."""
    last = rows[header_rows - 1]
    if sum(1 for c in last[1:] if c) < 2:
        return [(rows, header_rows)]
    starts = [k for k in range(header_rows + 1, len(rows)) if rows[k][1:] == last[1:]]
    if not starts:
        return [(rows, header_rows)]
    bounds = [(0, header_rows)] + [(k - 1, 2) if _lone(rows[k - 1]) else (k, 1) for k in starts]
    blocks = []
    for n, (start, heads) in enumerate(bounds):
        end = bounds[n + 1][0] if n + 1 < len(bounds) else len(rows)
        block = [list(r) for r in rows[start:end]]
        for r in block[: heads - 1]:
            if _lone(r):
                r[1:] = [next(c for c in r[1:] if c)] * (len(r) - 1)
        if len(block) > heads:
            blocks.append((block, heads))
    return blocks


def side_by_side(blocks: list[tuple[list[list[str]], int]]) -> tuple[list[list[str]], int]:
    """Stacked blocks (`stacked_blocks`) as one table, the blocks' columns side by side: a row
    for each label (the n-th row of a label in each block is one row), so a question's row is
    one row and its year a column ("Segment operating income", "… 2018 · Blizzard")."""
    heads = max(n for _, n in blocks)
    header = [[""] + [c for b, n in blocks for c in ([[""] * len(b[0])] * (heads - n) + b[:n])[k][1:]] for k in range(heads)]
    order: list[tuple[str, int]] = []
    values: dict[tuple[str, int], list[str]] = {}
    for i, (b, n) in enumerate(blocks):
        seen: dict[str, int] = {}
        for r in b[n:]:
            key = (r[0], seen.get(r[0], 0))
            seen[r[0]] = key[1] + 1
            if key not in values:
                order.append(key)
                values[key] = [c for bb, _ in blocks[:i] for c in [""] * (len(bb[0]) - 1)]
            values[key] += r[1:]
        for key in order:  # a label this block lacks: its cells empty
            want = sum(len(bb[0]) - 1 for bb, _ in blocks[: i + 1])
            values[key] += [""] * (want - len(values[key]))
    return header + [[label, *values[(label, k)]] for label, k in order], heads


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")") and text.count("[") == text.count("]")


def parse_row(line: str) -> Row | None:
    """A row line read back (None when ``line`` is no row line)."""
    line = line.strip()
    if ": " not in line:
        return None
    m = _ROW.fullmatch(line)
    if m is None:
        return None
    pairs = m["pairs"].split(PAIR_SEP)
    if len(pairs) < 2 and not m["caption"]:
        return None
    cells: dict[str, str] = {}
    for p in pairs:
        h, _, v = p.partition(": ")
        if len(h.split()) > MOST_HEADER_WORDS or not (_balanced(h) and _balanced(v)):
            return None
        cells.setdefault(h.strip(), v.strip())
    return Row(cells, (m["caption"] or "").strip(), line)


def row_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every line of ``text`` that is a row line, whitespace trimmed."""
    out = []
    for m in _LINE.finditer(text):
        line = m.group()
        if PAIR_SEP not in line and CAPTION_SEP not in line:
            continue
        if parse_row(line) is None:
            continue
        lead = len(line) - len(line.lstrip())
        out.append((m.start() + lead, m.start() + len(line.rstrip())))
    return out


def rows_in(text: str) -> list[Row]:
    """Every row line of ``text``, read back, in order."""
    return [r for s, e in row_spans(text) if (r := parse_row(text[s:e])) is not None]
