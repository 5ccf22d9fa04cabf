"""Guards for the review of #63's eleventh round (each input a reviewer found giving a wrong
answer that looked right, run model-free): scale words in prose, dates that are not the column's,
years read in "of 20%", ratios named by an amount row, change columns, the passive "covered by",
"guidance for", a money row for a head count, periods as rows of months, a deadlines table, a
quarter column of no year, and an unrelated list."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.asked import other_period, says_what_was_asked
from edgerag.answer.binding import Standing, about
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.year_cell import in_year_asked
from edgerag.ingest.pdf_tables import period_name
from edgerag.text.printed import scale_word
from edgerag.text.rows import grid_lines
from edgerag.text.tables import table_answer
from edgerag.types import Unit

from .helpers import passage


def _t(grid, caption="", before=""):
    return "\n".join(grid_lines(grid, caption, 1, before))


def test_a_word_of_prose_is_no_scale():
    t = _t(
        [["Session", "Attendees", "Cost"], ["Morning", "450", "1,200"], ["Afternoon", "300", "900"]], "", "Workshops are held in Rm 2.14."
    )
    assert look_up("How many attendees were there at the morning session?", [("k", t)]).answer == "450"
    assert (
        scale_word("Mio Tanaka, Head of Sales") == ""
        and scale_word("Mio. €") == "million"
        and scale_word("Key figures (TEUR)") == "thousand"
    )


def test_another_date_or_a_month_is_not_the_columns():
    t = _t([["", "31 March 2024", "31 March 2023"], ["Cash", "1,200", "1,100"], ["Debt", "300", "280"]])
    assert look_up("What was cash as at 30 September 2023?", [("k", t)]) is None
    assert look_up("What was cash as at 31 March 2023?", [("k", t)]).answer == "1,100"
    year = _t([["$m", "2023", "2022"], ["Revenue", "1,200", "1,100"], ["Operating profit", "300", "280"]])
    assert look_up("What was revenue in May 2023?", [("k", year)]) is None


def test_of_20_percent_is_no_year():
    s = "Membership costs £45 a year, with a discount of 20% for members of 25 years or more."
    u = Unit(chunk_id="a", text="Join the club. " + s, title="Membership", kind="chunk", id="a", tokens=10, score=1.0, doc_id="a")
    assert not any(says_what_was_asked(Standing(u, s), f"How much did membership cost in {y}?", "number", [u], "£45") for y in (2020, 2025))


def test_a_ratio_asked_by_name_is_no_amount_row():
    t = _t([["", "2023", "2022"], ["Total debt", "500", "400"], ["Total equity", "1,000", "900"]])
    assert look_up("What was the debt ratio in 2023?", [("k", t)]) is None


def test_a_change_asked_in_other_words_keeps_the_change_column():
    t = _t([["", "2023", "2022", "Change"], ["Students", "1,200", "1,150", "50"], ["Staff", "300", "290", "10"]])
    units = [passage("k", "Numbers", t)]
    assert in_year_asked("10", "How many new staff joined in 2023?", units) is None
    shares = _t(
        [
            ["", "2023 · $m", "2023 · %", "2022 · $m", "2022 · %"],
            ["Retail", "500", "41.0", "450", "40.0"],
            ["Online", "720", "59.0", "675", "60.0"],
        ]
    )
    assert in_year_asked("40.0%", "What was Retail in 2023?", [passage("s", "Mix", shares)]) is None


def test_covered_by_is_not_computed_backwards():
    t = _t([["$m", "2023", "2022"], ["Operating profit", "500", "400"], ["Interest expense", "100", "80"]])
    assert compute("How many times did operating profit cover interest expense in 2023?", [("k", t)]).answer == "5"
    assert compute("How many times was interest expense covered by operating profit in 2023?", [("k", t)]) is None


def test_guidance_for_a_year_is_still_computed():
    t = _t(
        [["$m", "2024 outlook", "2023 actual"], ["Capital expenditure", "1,200", "1,000"], ["Revenue", "9,000", "8,000"]],
        "Guidance for 2024",
    )
    assert compute("What is the average capital expenditure in the guidance for 2023 and 2024?", [("k", t)]).answer == "1,100 million"


def test_a_money_row_is_no_head_count():
    t = _t([["£000", "2023", "2022"], ["Staff", "3,000", "2,800"], ["Premises", "500", "480"]])
    assert look_up("How many employees did the group have in 2023?", [("k", t)]) is None


def test_rows_of_months_or_quarters_answer_which_month():
    t = _t([["Month", "Rainfall (mm)", "Sunshine (hours)"], ["January", "80", "50"], ["February", "60", "70"], ["July", "20", "210"]])
    assert table_answer("Which month had the highest rainfall?", [("k", t)]).answer == "January"
    q = _t([["Quarter", "Sales"], ["Q1", "100"], ["Q2", "140"], ["Q3", "120"]])
    assert table_answer("Which quarter had the highest sales?", [("k", q)]).answer == "Q2"


def test_a_deadlines_table_keeps_its_first_row():
    lines = grid_lines(
        [
            ["Period", "Filing deadline", "Payment deadline"],
            ["Year ended 5 April 2024", "31 October 2024", "31 January 2025"],
            ["Year ended 5 April 2025", "31 October 2025", "31 January 2026"],
        ]
    )
    assert len(lines) == 2 and "Year ended 5 April 2024" in lines[0]


def test_a_quarter_column_of_no_year_is_the_quarter_asked():
    row = "Budget 2024 — Item: Marketing; Q1: 10; Q2: 20; Q3: 30; Q4: 40"
    assert not other_period("What was the marketing budget for Q2 2024?", row, "20")
    assert other_period("What was the marketing budget for Q3 2024?", row, "20")


def test_a_list_on_another_subjects_page_is_not_about_the_question():
    s = "Discounts include a 25% single person discount."
    u = Unit(kind="chunk", id="1", text="Council Tax. " + s, tokens=0, score=0.0, doc_id="d", chunk_id="c", title="Council Tax discounts")
    assert not about(Standing(u, s), "What discounts are available on parking permits?", [u])


def test_a_span_of_two_years_names_no_pdf_column():
    assert not period_name("2019 – 2023") and period_name("Q1 2023") and period_name("52 weeks ended 30 March 2024")
