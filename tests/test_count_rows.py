"""How many of a table's rows pass a bound in the column a question names (answer/count_rows.py)."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.text.rows import grid_lines

OBLIGATIONS = grid_lines(
    [
        ["(in thousands)", "Total", "Less than 1 year", "After 5 years"],
        ["Notes payable and long-term debt", "$2,496,465", "$375,181", "$494,896"],
        ["Operating lease obligations", "603,185", "118,312", "182,932"],
        ["Capital lease obligations", "77,829", "6,038", "49,137"],
        ["Total contractual obligations", "$3,177,479", "$499,531", "$726,965"],
    ]
)
CHANGES = grid_lines(
    [["($ in millions)", "Fiscal 2019", "Fiscal 2018", "% Change"], ["Sales", "849.8", "670.7", "27%"], ["EBITDA", "110.5", "73.3", "51%"]]
)


def _text(rows: list[str]) -> list[tuple[str, str]]:
    return [("p", "\n".join(rows))]


def test_rows_past_a_bound_in_the_column_named_are_counted_without_the_total():
    asked = "How many contractual obligations had a total payments due that exceeded $500,000 thousand?"
    assert compute(asked, _text(OBLIGATIONS)).answer == "2"
    assert compute("How many obligations had a total that exceeded $0.5 million?", _text(OBLIGATIONS)).answer == "3"  # 500 thousand
    assert (
        compute(
            "How many contractual obligations had payments due after 5 years of more than $100,000 thousand?", _text(OBLIGATIONS)
        ).answer
        == "2"
    )
    assert compute("How many items had a % change that is less than 50%?", _text(CHANGES)).answer == "1"


def test_no_column_named_counts_nothing():
    assert compute("How many obligations had payments that exceeded $500,000 thousand?", _text(OBLIGATIONS)) is None


def test_quarters_that_are_rows_are_counted_in_the_years_column():
    prices = grid_lines(
        [
            ["", "Fiscal 2019 · High", "Fiscal 2019 · Low", "Fiscal 2018 · High"],
            ["First Quarter", "$ 83.14", "$ 63.81", "$ 45.24"],
            ["Second Quarter", "$ 88.08", "$ 70.26", "$ 45.14"],
            ["Third Quarter", "$ 83.95", "$ 54.50", "$ 64.06"],
        ]
    )
    assert compute("In 2019, how many quarters did the high share price exceed $85.00?", _text(prices)).answer == "1"
    assert compute("In 2018, how many quarters did the high share price exceed $50.00?", _text(prices)).answer == "1"
