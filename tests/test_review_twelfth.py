"""One guard per finding of the twelfth round's code review (issue #63): each input once gave a
wrong answer that looked right, or lost one that worked, and now does not."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.listed import listed_value
from edgerag.answer.operation import operation
from edgerag.answer.periods import column_period
from edgerag.answer.rows_moved import rows_moved
from edgerag.answer.table_cells import grids
from edgerag.ingest import iter_documents
from edgerag.text.rows import grid_lines
from edgerag.types import Document

from .docmaker import make_docx, make_pdf
from .helpers import passage

FIGURES = [["€ million", "2023", "2022", "2021"], ["Revenue", "1,300", "1,200", "1,000"], ["Operating costs", "900", "800", "700"]]
SEGMENTS = [
    ["€ million", "2023", "2022"],
    ["Retail", "120", "100"],
    ["Wholesale", "110", "120"],
    ["Online", "104", "100"],
    ["Total", "334", "320"],
]


def _units(grid, caption=""):
    return [("k", "\n".join(grid_lines(grid, caption)))]


def _text(path):
    return "\n".join(d.text for d in iter_documents([path]) if isinstance(d, Document))


def test_rows_moved_reads_a_bound_without_by_and_leaves_comparisons_of_amounts_alone():
    (grid,) = grids(_units(SEGMENTS, "Revenue by segment"))
    assert rows_moved("Which segments grew more than 10% in 2023?", grid).labels == ("Retail",)
    for q in (
        "Which segments made more than €100 million in 2023?",
        "Which segments grew revenue faster than the group in 2023?",
        "Which segments increased by more than €10 million in 2023?",
    ):
        assert rows_moved(q, grid) is None, q


def test_a_choice_of_two_years_asking_a_change_or_a_share_is_no_values_comparison():
    units = _units(FIGURES)
    for q in ("Did revenue grow more in 2022 or in 2023?", "Did operating costs increase more in 2022 or 2023?"):
        assert compute(q, units) is None, q
    assert compute("Was revenue higher in 2022 or in 2023?", units).answer == "2023"


def test_by_how_much_one_thing_exceeded_another_is_not_one_rows_change():
    assert compute("By how much did revenue exceed operating costs in 2023?", _units(FIGURES)) is None


def test_how_fast_and_by_how_much_per_cent_ask_a_rate():
    units = _units(FIGURES)
    assert compute("How fast did revenue grow in 2023?", units).answer == "8.33%"
    assert compute("By how much per cent did revenue grow in 2023?", units).answer == "8.33%"


def test_a_pdf_page_that_opens_with_a_table_of_its_own_keeps_its_header(tmp_path):
    q4 = "Fourth quarter results\n| | Q4 2023 | Q4 2022 |\n| Revenue | 410.2 | 380.5 |\n| EBITDA | 98.1 | 90.3 |\n| Net profit | 40.2 | 35.1 |"
    year = (
        "Full-year results\n| | 2023 | 2022 |\n| Revenue | 1,573.9 | 1,442.7 |\n| EBITDA | 380.4 | 345.1 |\n| Net profit | 150.2 | 131.1 |"
    )
    text = _text(make_pdf(tmp_path / "results.pdf", [q4, year]))
    assert "Full-year results — Item: Revenue; 2023: 1,573.9; 2022: 1,442.7" in text
    assert look_up("What was revenue in Q4 2023?", [("k", text)]).answer == "410.2"
    assert look_up("What was revenue in 2023?", [("k", text)]).answer == "1,573.9"  # the full year's table, not the quarter's


def test_a_docx_note_above_a_table_keeps_the_heading_in_the_caption(tmp_path):
    fees = [["Category", "Annual fee"], ["Adult", "£120"], ["Student", "£60"]]
    path = make_docx(tmp_path / "fees.docx", [("h", 1, "Membership fees"), ("p", "Valid from 1 April 2024"), ("t", fees)])
    assert "Membership fees: Valid from 1 April 2024 — Category: Student; Annual fee: £60" in _text(path)


def test_a_month_as_of_or_a_quarter_ending_still_reads_its_months_column():
    grid = [["", "Jan 2024", "Feb 2024", "Mar 2024"], ["Headcount", "410", "420", "430"], ["Revenue", "50", "52", "55"]]
    units = _units(grid)
    assert look_up("What was the headcount as of March 2024?", units).answer == "430"
    quarters = [
        ["€ million", "Mar 2023", "Jun 2023", "Sep 2023", "Dec 2023"],
        ["Revenue", "100", "110", "120", "130"],
        ["EBITDA", "20", "22", "24", "26"],
    ]
    assert look_up("What was revenue for the quarter ending September 2023?", _units(quarters, "Quarterly results")).answer == "120 million"


def test_words_of_a_report_are_no_month_and_a_comparison_of_two_years_parts_no_period():
    grid = [["€ million", "Q4 2023", "FY 2023", "Q4 2022", "FY 2022"], ["Revenue", "1,200", "4,500", "1,100", "4,100"]]
    grid += [["Marketing expenses", "90", "330", "80", "300"], ["Gross margin (%)", "40.1", "39.5", "38.0", "38.2"]]
    units = _units(grid)
    assert look_up("What were marketing expenses in 2023?", units).answer == "330 million"
    assert look_up("What was the gross margin in 2023?", units).answer == "39.5%"
    assert column_period("Jan–Mar 2023 vs Jan–Mar 2022", None) is None


def test_a_word_that_is_no_currency_code_is_no_money():
    page = passage("p1", "Results", "In real terms, visitors rose: 4,100 came in spring, 5,300 in summer and 2,900 in autumn.")
    assert listed_value("How much money did the summer bring in?", [page]) is None
    assert operation("How much money did the summer bring in?") is None


def test_a_whole_year_asked_is_no_quarters_figure_beside_the_years_own_column():
    """The model's "412" for "How much molybdenum did they produce in 2023?" from "Q4 2023" where the
    row has its own "2023" column (a fourth outside tester's copper mine): that year's figure is not it."""
    from edgerag.answer.asked import other_period

    row = "Operating statistics — Item: Molybdenum in concentrate; Q4 2023: 412; Q3 2023: 388; 2023: 1,602; 2022: 1,791"
    assert other_period("How much molybdenum did they produce in 2023?", row, "412")
    assert not other_period("How much molybdenum did they produce in 2023?", row, "1,602")
    assert not other_period("How much molybdenum did they produce in Q4 2023?", row, "412")


BUDGET = [["$'000", "2024 Budget", "2024 Actual", "Variance fav / (unfav.)", "2023 Actual"], ["Revenue:", "", "", "", ""]]
BUDGET += [["Property taxation", "186,450", "187,912", "1,462", "178,305"], ["Total revenue", "296,000", "297,681", "1,681", "284,097"]]
BUDGET += [
    ["Expenses:", "", "", "", ""],
    ["Protective services", "78,900", "81,265", "(2,365)", "75,002"],
    ["Total expenses", "274,000", "273,018", "982", "256,787"],
]


def test_a_budget_to_actual_statement_in_a_users_words():
    """A fifth outside tester's city budget, after its unseen first run: "actual" inside a part names
    the column ("the City's actual 2024 revenue": 2024 Actual, not 2024 Budget); "What pushed …
    over budget?" asks a cause, no cell; "by how much … miss their plan" asks no one row's change;
    "total spending" is total expenses; "by how much … exceed its budget" keeps the variance column."""
    from edgerag.answer.year_cell import _ASKS_CHANGE

    units = _units(BUDGET, "Budget to actual comparison")
    assert compute("What proportion of the City's actual 2024 revenue came from property taxes?", units).answer == "63.13%"
    assert look_up("What pushed protective services over budget?", units) is None
    assert operation("By how much did the revenue lines that came in under budget miss their plan in 2024?") is None
    assert look_up("What was total spending in 2023?", units).answer == "256,787 thousand"
    assert _ASKS_CHANGE.search("By how much did spending on protective services exceed its 2024 budget?")
    assert operation("In which of the last five years did the bank make the most money?").op == "which_year"


def test_a_docx_paragraph_opening_table_is_the_caption_alone(tmp_path):
    figures = [["€ thousand", "2023", "2022"], ["Gross written premiums", "2,445,590", "2,377,320"], ["Net income", "96,480", "71,230"]]
    path = make_docx(
        tmp_path / "keyfigures.docx",
        [("h", 2, "Business development of the Group"), ("p", "Table: Key figures of the Group"), ("t", figures)],
    )
    assert "Table: Key figures of the Group (€ thousand) — Item: Net income; 2023: 96,480" in _text(path)


def test_a_figure_read_from_a_sibling_column_moves_to_the_column_the_question_names():
    """The second set's pharma half year: "at constant exchange rates" names "% change · CER", so the
    model's "8%" read from "% change · CHF" is the row's 12%; a question that names neither column
    apart, or names the column read, leaves the reply as it is."""
    from edgerag.answer.year_cell import in_column_named

    grid = [["CHF m", "H1 2024", "H1 2023", "% change · CHF", "% change · CER"], ["Oncology", "1,842", "1,706", "8", "12"]]
    grid.append(["Immunology", "1,215", "1,100", "10", "15"])
    units = [passage("p1", "Group performance", "\n".join(grid_lines(grid, "Group performance")))]
    moved = in_column_named("8%", "How much did Oncology sales grow at constant exchange rates in the first half of 2024?", units)
    assert moved is not None and moved.answer == "12%"
    assert in_column_named("8%", "How much did Oncology sales grow in the first half of 2024?", units) is None
    assert in_column_named("12%", "How much did Oncology sales grow at constant exchange rates in the first half of 2024?", units) is None
    budget = _units(BUDGET)
    actual = in_column_named("78,900", "What did protective services actually cost in 2024?", [passage("p2", "Budget", budget[0][1])])
    assert actual is not None and actual.answer == "81,265"
