"""Tables read back from row lines (text/rows.py): the row lines of the texts given, grouped by
table, each row once. A table is a caption and a first header; two tables under one caption and
first header (a quarters table, a paragraph, then a full-year table under one heading, both "Item")
stay apart where prose lies between them and the second's value columns are mostly new (`_joins`).
text/tables.py decides questions over them; answer/table_cells.py reads their cells."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rows import Row, parse_row, row_spans


@dataclass
class Table:
    """One table read back from row lines: its rows and the units they came from."""

    rows: list[Row]
    keys: list[str]

    @property
    def headers(self) -> list[str]:
        return list(dict.fromkeys(h for r in self.rows for h in r.headers))


def tables_in(units_texts: Sequence[tuple[str, str]]) -> list[Table]:
    """The tables the row lines in ``units_texts`` make (a table per caption and first header,
    each row once), those of two rows or more. Two tables under one caption and first header
    (a quarters table, a paragraph, then a full-year table below one heading, both "Item") stay
    apart: a row after prose whose value columns are mostly new to the table before it starts
    another (`_joins`)."""
    tables: dict[tuple[str, str], list[Table]] = {}
    ends: dict[tuple[str, str], tuple[str, int]] = {}  # where each caption's last row ended: (key, offset)
    seen: set[str] = set()
    for key, text in units_texts:
        for start, end in row_spans(text):
            row = parse_row(text[start:end])
            if row is None or row.text in seen:
                continue
            seen.add(row.text)
            name = (row.caption, row.headers[0])
            alike = tables.setdefault(name, [])
            last = ends.get(name)
            after_prose = last is not None and last[0] == key and bool(text[last[1] : start].strip())
            if not alike or (after_prose and not _joins(alike[-1], row)):
                alike.append(Table([], []))
            alike[-1].rows.append(row)
            alike[-1].keys.append(key)
            ends[name] = (key, end)
    return [t for alike in tables.values() for t in alike if len(t.rows) >= 2]


def _joins(table: Table, row: Row) -> bool:
    """Whether ``row`` belongs to ``table``: more of its value columns are the table's than new
    to it ("FY2023", "FY2022", "YoY" below "4Q23", "3Q23", "4Q22", "QoQ", "YoY" start a table),
    or either has none yet (a section row, "Revenue:" with no values)."""
    own = set(row.headers[1:])
    held = set(table.headers[1:])
    return not own or not held or len(own - held) <= len(own & held)
