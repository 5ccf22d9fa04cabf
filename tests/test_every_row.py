"""A sum or an average over every row of a table, where the question says "all" (answer/every_row.py)."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.text.rows import grid_lines

DIRECTORS = grid_lines(
    [
        ["Name", "Fees Earned or Paid in Cash ($)", "All Other Compensation", "Total"],
        ["Richard S. Hill", "$106,000", "$4,000", "$110,000"],
        ["Darcy Antonellis", "$55,333", "", "$55,333"],
        ["David C. Habiger", "$70,000", "$17,000", "$87,000"],
    ]
)


def _text(rows: list[str]) -> list[tuple[str, str]]:
    return [("p", "\n".join(rows))]


def test_all_the_rows_named_are_summed_or_averaged_in_the_column_named():
    assert compute("What is the average fee earned or paid in cash for all non-employee directors?", _text(DIRECTORS)).answer == "77,111"
    assert (
        compute("What is the total amount of all other compensation by all the directors in the table?", _text(DIRECTORS)).answer
        == "21,000"
    )
    assert compute("What is the total fees earned or paid in cash of all 3 directors?", _text(DIRECTORS)).answer == "231,333"


def test_no_all_a_wrong_count_or_a_gap_in_an_average_decides_nothing():
    assert compute("What is the directors' total fees earned or paid in cash?", _text(DIRECTORS)) is None  # no "all": a subset, maybe
    assert compute("What is the total fees earned or paid in cash of all 4 directors?", _text(DIRECTORS)) is None  # three rows
    assert compute("What is the average other compensation for all the directors?", _text(DIRECTORS)) is None  # one row has none


PREPAID = grid_lines(
    [
        ["(in thousands)", "2019", "2018"],
        ["Prepaid services", "$221", "$252"],
        ["Prepaid bonds", "188", "199"],
        ["Prepaid insurance", "62", "19"],
        ["Prepaid licenses", "17", "51"],
        ["Other prepaid expenses", "17", "17"],
        ["Total prepaid expenses", "505", "538"],
    ]
)


def test_the_top_rows_of_a_years_column_are_summed_totals_aside():
    assert compute("What is the total sum of the top 3 prepaid expenses in 2018?", _text(PREPAID)).answer == "502 thousand"
    assert compute("What was the sum of the two highest prepaid expenses in 2019?", _text(PREPAID)).answer == "409 thousand"
    assert compute("What was the sum of the four highest prepaid expenses in 2019?", _text(PREPAID)) is None  # the 4th ties the 5th


SALARIES = grid_lines(
    [
        ["NEO", "FY18 · Annual Salary ($)", "FY19 · Annual Salary"],
        ["Gregory S. Clark", "1,000,000", "1,000,000"],
        ["Nicholas R. Noviello", "600,000", "650,000"],
        ["Samir Kapuria", "390,000", "440,000"],
    ]
)
OFFICERS = grid_lines(
    [["Name", "Age", "Position"], ["Avi Katz", "61", "CEO"], ["John Capogrossi", "66", "VP"], ["Ravinder Girgla", "56", "VP"]]
)


def test_rows_named_by_their_columns_header_are_every_row():
    """ "the NEOs' annual salary" over a label column headed "NEO": every NEO; "executive officers"
    over one headed "Name" names no row kind (a subset may be meant)."""
    assert compute("What is the total FY19 NEOs' annual salary?", _text(SALARIES)).answer == "2,090,000"
    assert compute("What is the average FY18 NEO annual salary?", _text(SALARIES)).answer == "663,333.33"
    assert compute("What is the total NEOs' annual salary?", _text(SALARIES)) is None  # two years' columns, none said
    assert compute("What is the average age of the company's executive officers?", _text(OFFICERS)) is None


def test_a_full_year_row_is_no_row_of_every_quarter():
    """ "… of all quarters" over quarter rows with a "Full year" row after each year's four: the
    full-year rows sum the quarters, so they are left out as totals are."""
    quarters = grid_lines(
        [
            ["Quarter", "EBIT (DKKm)"],
            ["Q1 2020", "104"],
            ["Q2 2020", "38"],
            ["Q3 2020", "118"],
            ["Q4 2020", "152"],
            ["Full year 2020", "412"],
        ]
    )
    assert compute("What was the total EBIT of all quarters?", _text(quarters)).answer == "412 million"
