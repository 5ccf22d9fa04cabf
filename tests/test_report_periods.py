"""Arithmetic over a report's table whose columns are parts of years (issue #63): a question's
quarters, halves and months read with their years (periods.py) and bound to the columns that
name them (period_cells.py), a change later less earlier (Q4 - Q3), an average "quarterly" over
the quarters and never the "Full year"; a table of years read as before. And a sum of two things
named whose names hold "and", split where the table's row labels split them; "the combined X of A
and B" and "A and B combined" a sum of A and B. Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.derived import asks_computed
from edgerag.answer.operation import operation
from edgerag.answer.periods import Period, column_period, periods_asked
from edgerag.text.rows import grid_lines

BUDGET = [
    ["Budget line", "Q1", "Q2", "Q3", "Q4", "Full year"],
    ["Membership fees", "182,400", "176,900", "168,300", "191,200", "718,800"],
    ["Swimming lessons", "64,500", "71,200", "58,800", "66,100", "260,600"],
    ["Total income", "259,200", "257,900", "234,500", "271,900", "1,023,500"],
    ["Staff costs", "148,000", "148,000", "152,500", "152,500", "601,000"],
    ["Maintenance", "15,000", "22,500", "–", "18,000", "55,500"],
    ["Total expenditure", "201,200", "200,100", "179,600", "212,300", "793,200"],
]


def _text(grid, caption=""):
    return "\n".join(grid_lines(grid, caption=caption))


def _answer(question, grid, caption=""):
    c = compute(question, [("t", _text(grid, caption))])
    return None if c is None else c.answer


def test_a_questions_quarters_take_the_years_said_beside_them():
    q = Period
    assert periods_asked("What is the total budgeted income for Q1 and Q2 combined?") == (q(None, "quarter", 1), q(None, "quarter", 2))
    assert periods_asked("What was the change in the total revenue between Q3 and Q4 2020?") == (
        q(2020, "quarter", 3),
        q(2020, "quarter", 4),
    )
    assert periods_asked("What is the change in costs between the fourth quarter of 2018 and 2019?") == (
        q(2018, "quarter", 4),
        q(2019, "quarter", 4),
    )
    assert periods_asked("What was the change in the high price in the second quarter between 2018 and 2019?") == (
        q(2018, "quarter", 2),
        q(2019, "quarter", 2),
    )
    assert periods_asked("What was the average income in H1 2019 and H2 2019?") == (q(2019, "half", 1), q(2019, "half", 2))
    assert periods_asked("What was the change in sales from January 2020 to February 2020?") == (q(2020, "month", 1), q(2020, "month", 2))
    assert periods_asked("What was revenue in the first and second quarters of 2020 combined?") == (
        q(2020, "quarter", 1),
        q(2020, "quarter", 2),
    )
    assert periods_asked("What was the change between the first and second halves of 2019?") == (q(2019, "half", 1), q(2019, "half", 2))
    assert periods_asked("What was the change in revenue from 2018 to 2019?") == ()
    assert periods_asked("What was the balance as of December 31, 2019 and 2018?") == ()  # a date, no month
    assert periods_asked("What may be the change in revenue in 2019?") == ()
    assert operation("What was the change in revenue from 2018 to 2019?").periods == (Period(2018), Period(2019))  # type: ignore[union-attr]


def test_a_columns_period_is_its_part_with_its_year():
    assert column_period("Q1", None) == Period(None, "quarter", 1)
    assert column_period("First Quarter · 2019", 2019) == Period(2019, "quarter", 1)
    assert column_period("2020 · Q3", 2020) == Period(2020, "quarter", 3)
    assert column_period("H1", None) == Period(None, "half", 1)
    assert column_period("Jan-20", None) == Period(None, "month", 1)
    for header in ("Full year", "December 31, 2019", "31 December 2019", "Three months ended · March 31, 2020", "Q4 vs Q3"):
        assert column_period(header, None) is None, header


def test_quarter_columns_bind_a_sum_a_change_and_an_average():
    assert _answer("What is the total budgeted income for Q1 and Q2 combined?", BUDGET) == "517,100"
    assert _answer("By how much does membership fee income change from Q3 to Q4?", BUDGET) == "22,900"  # Q4 - Q3
    assert _answer("By how much does membership fee income change from Q2 to Q3?", BUDGET) == "-8,600"
    assert _answer("What is the average quarterly budget for swimming lessons income?", BUDGET) == "65,150"  # not "Full year"
    assert _answer("What is the average quarterly budget for maintenance?", BUDGET) is None  # a quarter with no amount
    assert asks_computed("What is the total budgeted income for Q1 and Q2?") is not None  # two periods added: a sum asked
    assert asks_computed("What is the total budgeted income for Q1?") is None  # one period: a cell


def test_quarters_of_several_years_bind_only_the_year_named():
    grid = [
        ["", "Q3 2019", "Q4 2019", "Q3 2020", "Q4 2020"],
        ["Total revenue", "2,300", "2,500", "2,656", "3,073"],
        ["Net income", "200", "250", "407", "500"],
    ]
    assert _answer("What was the change in the total revenue between Q3 and Q4 2020?", grid) == "417"
    assert _answer("What was the change in the total revenue between Q4 2019 and Q4 2020?", grid) == "573"
    assert _answer("What was the change in the total revenue from Q3 to Q4?", grid) is None  # which year's: not said
    assert _answer("What was the change in the total revenue in Q4 2020?", grid) is None  # from Q3, or from Q4 2019: not said
    assert _answer("What is the average quarterly net income?", grid) is None


def test_a_table_of_years_is_read_by_its_years_as_before():
    grid = [["", "Three months ended · 31 December 2019", "31 December 2018"], ["VAS", "26,120", "20,330"], ["Other", "1", "2"]]
    assert _answer("What is the change in costs of VAS revenue between the fourth quarter of 2018 and 2019?", grid) == "5,790"
    years = [["", "2019", "2018", "2017"], ["Revenue", "1,054", "1,151", "1,000"], ["Costs", "5", "6", "7"]]
    assert _answer("What was the change in Revenue from 2018 to 2019?", years) == "-97"
    assert _answer("What was the average Revenue?", years) == "1,068.33"


def test_a_sum_of_parts_whose_names_hold_and_splits_at_the_row_labels():
    grid = [
        ["", "2019", "2018"],
        ["Research and development", "96,218", "88,540"],
        ["Sales and marketing", "112,904", "109,377"],
        ["General and administrative", "41,385", "39,812"],
        ["Total operating expenses", "250,507", "237,729"],
    ]
    q = "What was the sum of research and development and sales and marketing expenses in fiscal 2019?"
    assert operation(q).parts == ("research", "development and sales and marketing expenses")  # type: ignore[union-attr]
    assert _answer(q, grid) == "209,122"
    assert _answer("What was the sum of general and administrative and research and development expenses in 2018?", grid) == "128,352"


def test_combined_x_of_a_and_b_is_a_sum_of_a_and_b():
    grid = [["Region", "2019", "2018"], ["Northern Europe", "46.2", "39.8"], ["Central Europe", "31.7", "35.4"], ["Total", "77.9", "75.2"]]
    caption = "Capital expenditure by region (EUR million)"
    for q in (
        "What was the combined capital expenditure of Northern Europe and Central Europe in 2019?",
        "What were Northern Europe and Central Europe combined in 2019?",
        "What is the sum of Northern Europe and Central Europe capital expenditure in 2019?",
    ):
        assert operation(q).parts[0] == "Northern Europe", q  # type: ignore[union-attr]
        assert _answer(q, grid, caption) == "77.9 million", q
    assert (
        _answer("What was the combined capital expenditure of Northern Europe and Central Europe in 2018?", grid, caption) == "75.2 million"
    )


def test_a_change_between_two_quarters_is_the_later_less_the_earlier_however_named():
    grid = [["", "Q3 2020", "Q4 2020"], ["Total revenue", "2,656", "3,073"], ["Net income", "407", "500"]]
    assert _answer("What was the change in the total revenue between Q4 2020 and Q3 2020?", grid) == "417"
    assert _answer("What was the change in the total revenue from Q3 to Q4 2020?", grid) == "417"


def test_quarters_by_row_are_read_by_their_rows_as_before():
    grid = [
        ["", "2019 · High", "2019 · Low"],
        ["First Quarter", "45.24", "37.43"],
        ["Fourth Quarter", "50.00", "40.00"],
        ["Other", "1", "2"],
    ]
    assert _answer("What was the change in the high price between the first quarter and the fourth quarter of 2019?", grid) == "4.76"


def test_an_average_quarterly_in_the_year_named():
    grid = [
        ["", "Q1 2019", "Q2 2019", "Q3 2019", "Q4 2019", "Q1 2020", "Q2 2020", "Q3 2020", "Q4 2020", "2020"],
        ["Revenue", "10", "20", "30", "40", "50", "60", "70", "80", "260"],
        ["Costs", "1", "2", "3", "4", "5", "6", "7", "8", "26"],
    ]
    assert _answer("What was the average quarterly revenue in 2020?", grid) == "65"  # never the full year's column
    assert _answer("What was the average quarterly revenue?", grid) is None  # which year's quarters: not said


def test_two_columns_of_one_quarter_are_averaged_by_no_one():
    text = "\n".join(grid_lines([["", "Q1 Budget", "Q1 Actual", "Q2 Budget", "Q2 Actual"], ["Revenue", "100", "120", "200", "260"]], "R"))
    assert compute("What was the average quarterly revenue?", [("r", text)]) is None  # budget and actual mixed


QUARTER_AND_YEARS = [["", "Q1 2019", "Q1 2018", "2019", "2018"], ["Revenue", "100", "90", "420", "380"], ["Costs", "10", "9", "42", "38"]]


def test_a_year_said_apart_from_a_quarter_is_the_whole_year():
    q = Period
    assert periods_asked("What were Q1 2019 revenue and 2018 revenue?") == (q(2019, "quarter", 1), q(2018))
    assert periods_asked("What were the revenue in 2019 and Q1 2018?") == (q(2018, "quarter", 1), q(2019))
    assert periods_asked("What was revenue in Q4 2019, 2018 and 2017?") == (
        q(2019, "quarter", 4),
        q(2018, "quarter", 4),
        q(2017, "quarter", 4),
    )


def test_a_year_said_apart_from_a_quarter_binds_its_own_column():
    from edgerag.answer.cell_lookup import look_up

    text = _text(QUARTER_AND_YEARS, "Results")
    assert _answer("What was the sum of Q1 2019 revenue and 2018 revenue?", QUARTER_AND_YEARS) == "480"  # 100 + 380, not Q1 2018's 90
    assert _answer("What is the change in revenue between the first quarter of 2018 and 2019?", QUARTER_AND_YEARS) == "10"  # Q1 of each
    looked = look_up("What were Q1 2019 revenue and 2018 revenue?", [("t", text)])
    assert looked is not None and looked.answer == "100; 380", looked
    looked = look_up("What were the revenue in 2019 and Q1 2018?", [("t", text)])
    assert looked is not None and looked.answer == "420; 90", looked
    looked = look_up("What was the revenue in Q1 2019 and 2018?", [("t", text)])
    assert looked is not None and looked.answer == "100; 90", looked  # a year listed with the quarter's: that quarter
