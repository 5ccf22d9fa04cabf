"""Markdown pipe tables → one row line each (text/rows.py); the rest of the text as written.

A table is a header line and a delimiter line (``| --- | :--: |``) followed by the lines that
hold a ``|``, as GitHub-flavoured Markdown writes it; ``\\|`` is a pipe inside a cell. Each row
becomes ``Caption — Header: value; Header: value``: the caption is the line just above the
table (at most one blank line between) when it is short and ends in no full stop or colon
("Table 2: Lab instruments", "**Projects 2025**", a ``## heading``), else the nearest heading
above. Tables inside fenced code blocks are left alone, as is one ``grid_lines`` refuses (one
column, no rows, a cell of prose).
"""

from __future__ import annotations

import re

from ..text.rows import grid_lines, parse_row
from .blocks import reads_as_title

_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_WRAPPED = re.compile(r"^(\*\*|__|\*|_)(\S(?:.*\S)?)\1$")
"""A cell set in bold or italic whole ("**Income**"): its text, not the marks (a trailing "*"
would read as a footnote mark and leave "**Income")."""
_EMPHASIS = re.compile(r"^[*_]+|[*_]+$")


def cells(line: str) -> list[str]:
    """The cells of one pipe-table line (outer pipes optional, ``\\|`` kept as a pipe, a cell's
    bold or italic marks dropped)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [_WRAPPED.sub(r"\2", c.strip()).replace("\\|", "|") for c in _CELL_SPLIT.split(s)]


def _bold_labels(lines: list[str]) -> frozenset[str]:
    """The row labels (first cells) of a table's body lines set in bold whole ("**Full year 2019**")."""
    out = set()
    for line in lines:
        s = line.strip()
        first = _CELL_SPLIT.split(s[1:] if s.startswith("|") else s)[0].strip()
        m = _WRAPPED.match(first)
        if m and m.group(1) in ("**", "__"):
            out.add(m.group(2).replace("\\|", "|"))
    return frozenset(out)


def _caption(line: str) -> str:
    """A caption from the line above a table, or "" when it reads as a sentence."""
    m = _HEADING.match(line)
    if m:
        return m.group(2)
    text = _EMPHASIS.sub("", line.strip()).strip()
    return text if reads_as_title(text) else ""


def tables_as_rows(text: str) -> str:
    """``text`` with every pipe table written as row lines; unchanged when it has none."""
    if "|" not in text or "-" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    heading = ""
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            heading = m.group(2)
        if fenced or "|" not in line or i + 1 >= len(lines) or not _DELIM.match(lines[i + 1]):
            out.append(line)
            i += 1
            continue
        end = i + 2
        while end < len(lines) and lines[end].strip() and "|" in lines[end]:
            end += 1
        grid = [cells(line)] + [cells(r) for r in lines[i + 2 : end]]
        above = next((x for x in reversed(out[-2:]) if x.strip()), "")
        caption = "" if parse_row(above) else _caption(above)
        rows = grid_lines(grid, caption or heading, strong=_bold_labels(lines[i + 2 : end]))
        if rows is None:
            out.extend(lines[i:end])
        else:
            out.extend(rows)
        i = end
    return "\n".join(out)
