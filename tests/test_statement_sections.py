"""A statement's sections as printed (text/sections.py, text/rows.py `grid_lines`): a list's
heading ("Adjustments for:", "Changes in working capital:") holds the item rows below it, a
subtotal or total (bold, or "Cash generated from operations", "Net cash from …", "Total …") ends
it, and what follows a subtotal is not that section's. And columns named alike under their
years (text/printed.py `_years_to_twins`). Tables written here; the readers are the real ones."""

from __future__ import annotations

from edgerag.ingest import iter_documents
from edgerag.text.rows import grid_lines
from edgerag.text.sections import Sections, subtotal_label
from edgerag.types import Document

from .docmaker import html_page

CASH_FLOW = [
    ("Cash flows from operating activities", "", "", True),
    ("Loss before tax", "(8,000)", "20,000", False),
    ("Adjustments for:", "", "", False),
    ("Depreciation", "30,000", "29,000", False),
    ("Interest income", "(300)", "(900)", False),
    ("Operating cash flows before changes in working capital", "21,700", "48,100", True),
    ("Changes in working capital:", "", "", False),
    ("Inventories", "400", "(200)", False),
    ("Trade payables", "(7,000)", "3,000", False),
    ("Cash generated from operations", "15,100", "50,900", True),
    ("Income tax paid", "(1,800)", "(5,000)", False),
    ("Net cash from operating activities", "13,300", "45,900", True),
    ("Cash flows from investing activities", "", "", True),
    ("Purchase of equipment", "(18,000)", "(42,000)", False),
    ("Net cash from/(used in) investing activities", "5,000", "(40,000)", True),
]


def _html(bold: bool) -> str:
    rows = "".join(
        f"<tr><td>{f'<b>{label}</b>' if bold and strong else label}</td><td>{a}</td><td>{b}</td></tr>" for label, a, b, strong in CASH_FLOW
    )
    return html_page(
        "Cash flows", f"<h2>Statement of cash flows</h2><table><thead><tr><th></th><th>2021</th><th>2020</th></tr></thead>{rows}</table>"
    )


def _read(tmp_path, name: str, text: str) -> str:
    f = tmp_path / name
    f.write_text(text)
    return "\n".join(d.text for d in iter_documents([f]) if isinstance(d, Document))


def _operating_subtotals_are_operating(text: str) -> None:
    assert "Item: Cash flows from operating activities › Net cash from operating activities; 2021: 13,300; 2020: 45,900" in text, text
    assert "Item: Cash flows from operating activities › Cash generated from operations; 2021: 15,100" in text, text
    assert "Item: Cash flows from operating activities › Income tax paid; 2021: -1,800" in text, text
    assert "Item: Changes in working capital: › Inventories; 2021: 400" in text, text
    assert "Item: Adjustments for: › Depreciation; 2021: 30,000" in text, text
    assert "Item: Cash flows from investing activities › Purchase of equipment" in text, text
    assert "Changes in working capital: › Net cash" not in text and "Changes in working capital: › Cash generated" not in text, text


def test_html_cash_flow_subtotals_close_the_list_above_them(tmp_path):
    text = _read(tmp_path, "cf.html", _html(bold=True))
    _operating_subtotals_are_operating(text)
    assert "Item: Cash flows from operating activities › Operating cash flows before changes in working capital; 2021: 21,700" in text, text


def test_cash_flow_subtotals_are_known_by_their_labels_without_bold(tmp_path):
    text = _read(tmp_path, "cf.html", _html(bold=False))
    _operating_subtotals_are_operating(text)


def test_markdown_bold_labels_are_subtotals(tmp_path):
    rows = "".join(f"| {f'**{label}**' if strong else label} | {a} | {b} |\n" for label, a, b, strong in CASH_FLOW)
    text = _read(tmp_path, "cf.md", f"# Statement of cash flows\n\n| | 2021 | 2020 |\n|---|---:|---:|\n{rows}")
    _operating_subtotals_are_operating(text)
    assert "Item: Cash flows from operating activities › Operating cash flows before changes in working capital; 2021: 21,700" in text, text


def test_docx_bold_labels_are_subtotals(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("Statement of cash flows", 1)
    table = d.add_table(rows=len(CASH_FLOW) + 1, cols=3)
    for c, h in enumerate(["", "2021", "2020"]):
        table.cell(0, c).text = h
    for r, (label, a, b, strong) in enumerate(CASH_FLOW, start=1):
        table.cell(r, 0).paragraphs[0].add_run(label).bold = strong
        table.cell(r, 1).text, table.cell(r, 2).text = a, b
    f = tmp_path / "cf.docx"
    d.save(str(f))
    text = "\n".join(x.text for x in iter_documents([f]) if isinstance(x, Document))
    _operating_subtotals_are_operating(text)
    assert "Item: Cash flows from operating activities › Operating cash flows before changes in working capital; 2021: 21,700" in text, text


def test_a_total_still_closes_its_one_section():
    grid = [["Item", "2019", "2018"], ["Revenue", "", ""], ["Services", "1", "2"], ["Total revenue", "1", "2"], ["Other income", "3", "4"]]
    assert grid_lines(grid) == [
        "Revenue",
        "Item: Revenue › Services; 2019: 1; 2018: 2",
        "Item: Revenue › Total revenue; 2019: 1; 2018: 2",
        "Item: Other income; 2019: 3; 2018: 4",
    ]


def test_a_total_of_the_inner_list_is_the_inner_list_s():
    sections = Sections()
    sections.heading("Assets")
    sections.heading("Current assets:")
    assert sections.row("Cash") == "Current assets:"
    assert sections.row("Total current assets") == "Current assets:"
    assert sections.row("Goodwill") == ""


def test_subtotal_labels():
    for label in (
        "Total revenue",
        "Subtotal",
        "Net cash used in financing activities",
        "Cash generated from operations",
        "Net increase in cash and cash equivalents",
    ):
        assert subtotal_label(label), label
    for label in ("Net income", "Cash and cash equivalents at end of year", "Interest income", "Totalisator fees"):
        assert not subtotal_label(label), label
    assert subtotal_label("Operating profit", strong=True)


def test_columns_named_alike_take_the_year_before_them():
    grid = [
        ["", "2022 €m", "% of revenue", "2021 €m", "% of revenue"],
        ["Iberia", "412.8", "48.2%", "389.5", "51.1%"],
        ["Total", "856.5", "100.0%", "762.2", "100.0%"],
    ]
    assert grid_lines(grid) == [
        "Item: Iberia; 2022 €m: 412.8; 2022 · % of revenue: 48.2%; 2021 €m: 389.5; 2021 · % of revenue: 51.1%",
        "Item: Total; 2022 €m: 856.5; 2022 · % of revenue: 100.0%; 2021 €m: 762.2; 2021 · % of revenue: 100.0%",
    ]


def test_change_columns_between_years_keep_their_names():
    grid = [["", "2019", "Change", "2018", "Change", "2017"], ["Americas", "718", "13", "705", "123", "582"]]
    assert grid_lines(grid) == ["Item: Americas; 2019: 718; Change: 13; 2018: 705; Change: 123; 2017: 582"]


SEGMENTS = [
    ["", "2022 €m", "% of revenue", "2021 €m", "% of revenue"],
    ["Revenue", "", "", "", ""],
    ["Iberia", "412.8", "48.2%", "389.5", "51.1%"],
    ["Rest of Europe", "287.4", "33.6%", "251.0", "32.9%"],
    ["Total revenue", "856.5", "100.0%", "762.2", "100.0%"],
]


def test_a_row_s_own_word_does_not_name_the_column_of_its_year():
    """ "revenue" names the section "Revenue", not the column "2022 · % of revenue" beside "2022 €m"."""
    from edgerag.answer.arithmetic import compute
    from edgerag.answer.cell_lookup import look_up

    units = [("k", "\n".join(grid_lines(SEGMENTS, caption="Performance by region")))]
    looked = look_up("What was the revenue of Rest of Europe in 2022?", units)
    assert looked is not None and looked.answer == "287.4 million", looked
    done = compute("What was the percentage change in revenue from Rest of Europe from 2021 to 2022?", units)
    assert done is not None and done.answer.startswith("14.5"), done


def test_a_share_the_table_prints_beside_its_year_s_amount_is_read_as_printed():
    """ "Iberia's share of Group revenue in 2021": the 2021 group's "% of revenue", not 2022's."""
    from edgerag.answer.arithmetic import compute

    units = [("k", "\n".join(grid_lines(SEGMENTS, caption="Performance by region")))]
    done = compute("What was Iberia's share of Group revenue in 2021?", units)
    assert done is not None and done.answer == "51.1%", done
    done = compute("What was Iberia's share of Group revenue in 2022?", units)
    assert done is not None and done.answer == "48.2%", done


def test_columns_of_amounts_named_alike_keep_their_names():
    """ "Grant Date Fair Value" beside each year's count: the year's own column heads its amounts,
    and a question of the year's count must still bind it alone."""
    grid = [
        ["", "2019", "Grant Date Fair Value", "2018", "Grant Date Fair Value"],
        ["RSAs Granted", "551,214", "$ 9.87", "478,210", "$ 12.45"],
    ]
    assert grid_lines(grid) == [
        "Item: RSAs Granted; 2019: 551,214; Grant Date Fair Value: $ 9.87; 2018: 478,210; Grant Date Fair Value: $ 12.45"
    ]


def test_a_sibling_subtotal_is_not_the_row_asked():
    """Only the investing subtotal in the context: "net cash from operating activities" names a
    sibling of "Net cash from/(used in) investing activities" (one word apart, in its place), not it."""
    from edgerag.answer.cell_lookup import look_up

    grid = [
        ["", "2021", "2020"],
        ["Purchase of equipment", "(18,000)", "(42,000)"],
        ["Net cash from/(used in) investing activities", "5,216", "(40,081)"],
    ]
    units = [("k", "\n".join(grid_lines(grid, caption="Statement of cash flows")))]
    assert look_up("What was the net cash from operating activities in 2021?", units) is None
    looked = look_up("What was the net cash from investing activities in 2021?", units)
    assert looked is not None and looked.answer.startswith("5,216"), looked
