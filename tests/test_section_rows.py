"""A section row inside a table's body ("Income", "Expenditure") heads the rows below it, whatever
tag or span it is written with (text/printed.py `section_row`, text/rows.py `grid_lines`): a
``<th colspan>`` row an HTML reader took for a second header row used to give every column an
"· Income" header, and a row spanning the table was a loose line whose rows kept the section
above. Multi-row headers (a spanning period over years, a scale row) stay header rows. Tables
written here; the readers are the real ones."""

from __future__ import annotations

from edgerag.ingest import iter_documents
from edgerag.text.rows import grid_lines
from edgerag.types import Document

from .docmaker import html_page

HEAD = "<tr><th>Budget line</th><th>Q1</th><th>Q2</th><th>Full year</th></tr>"
BODY = (
    "<tr><td>Membership fees</td><td>182,400</td><td>176,900</td><td>359,300</td></tr>"
    "<tr><td>Total income</td><td>182,400</td><td>176,900</td><td>359,300</td></tr>"
    "{expenditure}"
    "<tr><td>Staff costs</td><td>148,000</td><td>148,000</td><td>296,000</td></tr>"
    "<tr><td>Total expenditure</td><td>148,000</td><td>148,000</td><td>296,000</td></tr>"
)


def _text(tmp_path, name: str, body: str) -> str:
    f = tmp_path / name
    f.write_text(html_page("Budget", f"<h2>Operating budget</h2>{body}"))
    return "\n".join(d.text for d in iter_documents([f]) if isinstance(d, Document))


def _budget(tmp_path, section: str) -> str:
    """The budget with its sections written as ``section`` ("{}" is the label)."""
    table = HEAD + section.format("Income") + BODY.format(expenditure=section.format("Expenditure"))
    return _text(tmp_path, "budget.html", f"<table>{table}</table>")


def _reads_its_sections(text: str) -> None:
    assert "Operating budget — Budget line: Income › Membership fees; Q1: 182,400; Q2: 176,900; Full year: 359,300" in text, text
    assert "Operating budget — Budget line: Expenditure › Staff costs; Q1: 148,000; Q2: 148,000; Full year: 296,000" in text, text
    assert "· Income" not in text and "· Expenditure" not in text


def test_a_th_row_spanning_the_table_after_the_header_is_a_section(tmp_path):
    _reads_its_sections(_budget(tmp_path, '<tr><th colspan="4" style="text-align:left">{}</th></tr>'))


def test_a_td_row_spanning_the_table_is_a_section(tmp_path):
    _reads_its_sections(_budget(tmp_path, '<tr><td colspan="4">{}</td></tr>'))


def test_a_row_of_th_with_a_label_and_empty_cells_is_a_section(tmp_path):
    _reads_its_sections(_budget(tmp_path, "<tr><th>{}</th><th></th><th></th><th></th></tr>"))


def test_a_section_row_in_the_thead_is_a_section(tmp_path):
    table = f"<thead>{HEAD}<tr><th colspan='4'>Income</th></tr></thead><tbody>{BODY.format(expenditure='<tr><th colspan=4>Expenditure</th></tr>')}</tbody>"
    _reads_its_sections(_text(tmp_path, "budget.html", f"<table>{table}</table>"))


def test_a_period_spanning_the_columns_above_the_years_stays_a_header(tmp_path):
    table = (
        "<tr><th></th><th colspan='2'>Year ended 31 March</th></tr>"
        "<tr><th></th><th>2019</th><th>2018</th></tr>"
        "<tr><td>Revenue</td><td>1,054</td><td>1,151</td></tr>"
    )
    text = _text(tmp_path, "period.html", f"<table>{table}</table>")
    assert "Item: Revenue; Year ended 31 March · 2019: 1,054; Year ended 31 March · 2018: 1,151" in text, text


def test_a_row_spanning_the_width_above_a_header_row_of_years_stays_a_header(tmp_path):
    table = (
        "<tr><th>Group</th><th>Parent</th><th>Parent</th></tr>"
        "<tr><th colspan='3'>Year ended 31 March</th></tr>"
        "<tr><th></th><th>2019</th><th>2018</th></tr>"
        "<tr><td>Revenue</td><td>1,054</td><td>1,151</td></tr>"
    )
    text = _text(tmp_path, "period.html", f"<table>{table}</table>")
    assert "Parent · Year ended 31 March · 2019: 1,054" in text, text
    assert "›" not in text


def test_a_scale_spanning_the_width_under_the_header_stays_the_table_scale(tmp_path):
    table = (
        "<tr><th>Item</th><th>2019</th><th>2018</th></tr>"
        "<tr><th colspan='3'>(in millions)</th></tr>"
        "<tr><td>Revenue</td><td>1,054</td><td>1,151</td></tr>"
    )
    text = _text(tmp_path, "scale.html", f"<h3>Results</h3><table>{table}</table>")
    assert "Results (in millions) — Item: Revenue; 2019: 1,054; 2018: 1,151" in text, text


def test_the_first_row_spanning_the_width_is_no_section():
    grid = [["Fiscal year", "Fiscal year", "Fiscal year"], ["Item", "2019", "2018"], ["Revenue", "1", "2"], ["Costs", "3", "4"]]
    lines = grid_lines(grid, header_rows=2)
    assert lines == [
        "Fiscal year · Item: Revenue; Fiscal year · 2019: 1; Fiscal year · 2018: 2",
        "Fiscal year · Item: Costs; Fiscal year · 2019: 3; Fiscal year · 2018: 4",
    ]


def test_a_grid_with_a_section_among_its_header_rows_reads_it_as_a_section():
    grid = [["Item", "2019", "2018"], ["Revenue", "", ""], ["Services", "1", "2"], ["Costs", "Costs", "Costs"], ["Rent", "3", "4"]]
    lines = grid_lines(grid, header_rows=3)
    assert lines == ["Revenue", "Item: Revenue › Services; 2019: 1; 2018: 2", "Costs", "Item: Costs › Rent; 2019: 3; 2018: 4"]


def test_markdown_section_rows_head_the_rows_below(tmp_path):
    f = tmp_path / "budget.md"
    f.write_text(
        "# Operating budget\n\n| Budget line | Q1 | Q2 |\n|---|---|---|\n| **Income** | | |\n| Membership fees | 182,400 | 176,900 |\n"
        "| **Expenditure** | | |\n| Staff costs | 148,000 | 148,000 |\n"
    )
    text = "\n".join(d.text for d in iter_documents([f]) if isinstance(d, Document))
    assert "Budget line: Income › Membership fees; Q1: 182,400" in text, text
    assert "Budget line: Expenditure › Staff costs; Q1: 148,000" in text, text


def test_a_docx_row_merged_across_the_table_is_a_section(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("Operating budget", 1)
    rows = [
        ["Budget line", "Q1", "Q2"],
        ["Income"],
        ["Membership fees", "182,400", "176,900"],
        ["Expenditure"],
        ["Staff costs", "148,000", "148,000"],
    ]
    table = d.add_table(rows=len(rows), cols=3)
    for r, row in enumerate(rows):
        if len(row) == 1:
            table.cell(r, 0).merge(table.cell(r, 2)).text = row[0]
        else:
            for c, cell in enumerate(row):
                table.cell(r, c).text = cell
    f = tmp_path / "budget.docx"
    d.save(str(f))
    text = "\n".join(x.text for x in iter_documents([f]) if isinstance(x, Document))
    assert "Budget line: Income › Membership fees; Q1: 182,400; Q2: 176,900" in text, text
    assert "Budget line: Expenditure › Staff costs; Q1: 148,000; Q2: 148,000" in text, text


PERIOD_BODY = "<tr><td>Revenue</td><td>1,054</td><td>1,151</td></tr><tr><td>Costs</td><td>812</td><td>790</td></tr>"


def test_a_period_row_under_the_year_row_is_the_header_s(tmp_path):
    """A header of two rows, the years then the period with empty cells: the period names the
    columns' span, no section of the rows below."""
    table = "<tr><th></th><th>2019</th><th>2018</th></tr><tr><th>Year ended 31 December</th><th></th><th></th></tr>" + PERIOD_BODY
    text = _text(tmp_path, "period.html", f"<table>{table}</table>")
    assert "›" not in text, text
    assert "Year ended 31 December: Revenue; 2019: 1,054; 2018: 1,151" in text, text


def test_a_period_row_first_in_the_body_under_the_years_is_the_header_s(tmp_path):
    table = "<thead><tr><th></th><th>2019</th><th>2018</th></tr></thead><tbody><tr><td>Years ended June 30,</td><td></td><td></td></tr>"
    text = _text(tmp_path, "period.html", f"<table>{table}{PERIOD_BODY}</tbody></table>")
    assert "›" not in text, text
    assert "Years ended June 30,: Costs; 2019: 812; 2018: 790" in text, text


def test_a_period_spanning_the_width_under_the_year_row_is_the_header_s():
    grid = [["", "2019", "2018"], ["As at 31 March", "As at 31 March", "As at 31 March"], ["Revenue", "1", "2"], ["Costs", "3", "4"]]
    lines = grid_lines(grid, header_rows=2)
    assert lines is not None and not any("›" in line for line in lines), lines
    assert any(line == "As at 31 March: Revenue; 2019 · As at 31 March: 1; 2018 · As at 31 March: 2" for line in lines), lines


def test_a_row_of_values_not_applicable_is_no_section():
    """ "n/a" (or a dash) in every value cell: a row whose values do not apply, not a section
    heading the rows below it."""
    for mark, written in (("n/a", "n/a"), ("—", "-"), ("-", "-")):
        grid = [["Options", "2019", "2018"], ["Granted", "12", "9"], ["Exercised during the period", mark, mark], ["Forfeited", "3", "4"]]
        lines = grid_lines(grid)
        assert lines == [
            "Options: Granted; 2019: 12; 2018: 9",
            f"Options: Exercised during the period; 2019: {written}; 2018: {written}",
            "Options: Forfeited; 2019: 3; 2018: 4",
        ], (mark, lines)


def test_a_section_row_is_still_a_section_beside_a_row_not_applicable():
    grid = [["Item", "2019", "2018"], ["Revenue", "", ""], ["Services", "1", "n/a"], ["Goods", "n/a", "n/a"], ["Other", "5", "6"]]
    lines = grid_lines(grid)
    assert lines == [
        "Revenue",
        "Item: Revenue › Services; 2019: 1",
        "Item: Revenue › Goods; 2019: n/a; 2018: n/a",
        "Item: Revenue › Other; 2019: 5; 2018: 6",
    ], lines


def test_a_row_not_applicable_drops_the_signs_beside_its_dashes():
    grid = [
        ["", "2019", "", "2018", ""],
        ["Revenue", "$", "1,204", "$", "1,100"],
        ["Other", "$", "—", "$", "—"],
        ["Costs", "$", "(12)", "$", "(9)"],
    ]
    assert grid_lines(grid) == [
        "Item: Revenue; 2019: $1,204; 2018: $1,100",
        "Item: Other; 2019: -; 2018: -",
        "Item: Costs; 2019: -$12; 2018: -$9",
    ]
