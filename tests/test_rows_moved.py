"""rows_moved.py: the rows of a report's table that moved as a question asks ("Which divisions sold
less in 2023 than in 2022?"), decided in code over tables written here and read by the real
Markdown and DOCX readers."""

from __future__ import annotations

from edgerag.answer.in_code import decide_in_code
from edgerag.answer.rows_moved import moved_rows
from edgerag.ingest import iter_documents
from edgerag.types import Document

from .docmaker import make_docx
from .helpers import passage

UTILITY = """### Key figures

| (€ million) | 2023 | 2022 restated(*) | Δ% |
|---|---|---|---|
| Revenues | 4,912.7 | 6,284.3 | (21.8) |
| EBITDA | 812.4 | 734.9 | 10.5 |
| of which: | | | |
| – Networks | 298.6 | 281.2 | 6.2 |
| – Energy (generation and sales) | 241.3 | 215.8 | 11.8 |
| – Integrated water service | 107.6 | 86.2 | 24.8 |
| EBIT | 391.8 | 352.6 | 11.1 |
"""


def _units(path):
    return [passage(f"p{n}", "Report", d.text) for n, d in enumerate(iter_documents([path])) if isinstance(d, Document)]


def test_the_items_of_a_breakdown_that_grew_past_a_bound(tmp_path):
    (tmp_path / "utility.md").write_text(UTILITY)
    units = _units(tmp_path / "utility.md")
    d = moved_rows("Which business units grew EBITDA by more than 10%?", units)
    assert d is not None and d.answer == "Energy (generation and sales); Integrated water service"
    assert moved_rows("Which business units grew EBITDA by less than 10%?", units).answer == "Networks"
    assert moved_rows("Which business units had the largest EBITDA?", units) is None  # no move asked
    assert moved_rows("Which business unit's EBITDA grew the most?", units) is None  # a superlative: one row


def test_the_segments_that_sold_less_and_the_lines_that_shrank(tmp_path):
    """A DOCX segment note with years ascending under "Revenue" and "Operating profit" groups: "sold
    less" reads the revenue columns; a table of revenue lines: "shrank in 2023" is from 2022."""
    segments = [["€'000", "Revenue", "", "Operating profit", ""], ["", "2022", "2023", "2022", "2023"]]
    segments += [
        ["Agribusiness", "398,640", "402,977", "12,655", "14,392"],
        ["Dairy Ingredients", "842,310", "731,652", "30,110", "24,001"],
    ]
    segments += [["Consumer Foods", "171,137", "149,887", "1,702", "3,213"], ["Total", "1,412,087", "1,284,516", "44,467", "41,606"]]
    path = make_docx(tmp_path / "coop.docx", [("h", 1, "Segmental information"), ("t", segments)])
    units = _units(path)
    d = decide_in_code("Which divisions sold less in 2023 than in 2022?", units)
    assert d is not None and d.answer == "Dairy Ingredients; Consumer Foods" and "731,652" in d.reason
    made = moved_rows("Which divisions made more operating profit in 2023 than in 2022?", units)
    assert made.answer == "Agribusiness; Consumer Foods"  # the operating profit columns, not revenue
    lines = "| ₦'000 | 2023 | 2022 |\n|---|---|---|\n| Voice | 612,408 | 598,117 |\n| Data | 874,925 | 641,302 |\n| SMS | 21,904 | 24,388 |\n| Total revenue | 1,509,237 | 1,263,807 |\n"
    (tmp_path / "telco.md").write_text("## Revenue by line\n\n" + lines)
    assert moved_rows("Which revenue lines shrank in 2023?", _units(tmp_path / "telco.md")).answer == "SMS"
