"""A report question's operation and operands bound as a reader of the report would (issue #63):
"total X as a percentage of Y" is a share, not a sum; "the sum of A and B" adds two rows; an
average "between 2017 and 2019" is over every year of it; a label saying the operation's word
once ("Weighted average shares") does not swallow a question that says it twice; a count of
shares named for a per-share figure is scaled; a row named only by the words of the table's
lead-in yields to a row the question also names by words that tell it apart (table_topic.py).
Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.operation import operation
from edgerag.answer.table_cells import unscaled_label
from edgerag.answer.table_topic import lead_in
from edgerag.text.rows import grid_lines


def _text(grid, caption="", lead=""):
    return (lead + "\n\n" if lead else "") + "\n".join(grid_lines(grid, caption=caption))


def test_a_total_as_a_percentage_of_another_is_a_share_not_a_sum():
    op = operation("What was the total Term Loan Facility as a percentage of total contractual obligations?")
    assert op is not None and op.op == "proportion"
    text = _text(
        [
            ["", "Total", "Less than 1 year"],
            ["Term Loan Facility", "2,435.4", "24.0"],
            ["Total contractual obligations", "14,461.6", "900.0"],
        ]
    )
    c = compute("What was the total Term Loan Facility as a percentage of total contractual obligations?", [("t", text)])
    assert c is not None and c.answer == "16.84%"
    assert operation("What was the total revenue in 2018 and 2019?").op == "sum"  # type: ignore[union-attr]


def test_the_sum_of_two_rows_names_them_apart():
    op = operation("What was the sum of total revenue and total other income for FY19?")
    assert op is not None and op.op == "sum" and op.parts == ("total revenue", "total other income")
    text = _text(
        [["", "FY19", "FY18"], ["Total revenue", "179,260", "170,000"], ["Total other income", "3,034", "2,000"], ["Expenses", "100", "90"]]
    )
    c = compute("What was the sum of total revenue and total other income for FY19?", [("t", text)])
    assert c is not None and c.value == 182294


def test_an_average_between_two_years_is_over_every_year_between():
    q = "What is the average number of potential common shares excluded between 2017 and 2019?"
    assert sorted(operation(q).years) == [2017, 2018, 2019]  # type: ignore[union-attr]
    assert sorted(operation("What is the change in revenue between 2017 and 2019?").years) == [2017, 2019]  # type: ignore[union-attr]
    text = _text([["", "2019", "2018", "2017"], ["Potential common shares excluded", "8,737", "9,022", "10,806"], ["Other", "1", "2", "3"]])
    c = compute(q, [("t", text)])
    assert c is not None and c.answer == "9,521.67"


def test_an_operation_said_twice_is_the_questions_not_the_labels():
    text = _text([["", "2019", "2018"], ["Weighted average common shares outstanding", "71,005", "68,490"], ["Net loss", "(5)", "(6)"]])
    c = compute("What is the average Weighted average common shares outstanding for 2019 and 2018?", [("t", text)])
    assert c is not None and c.value == 69747.5
    c = compute("What was the Weighted average common shares outstanding in 2019?", [("t", text)])
    assert c is None or c.value == 71005  # the label's own "average": its cell, never an average of years
    assert operation("What is the average year-on-year change in Weighted average grant date fair value from 2017 to 2019?") is None


def test_a_count_of_shares_named_for_a_per_share_figure_is_scaled():
    assert not unscaled_label("Potential common shares excluded from diluted net loss per share")
    assert not unscaled_label("Shares used in computing net loss per share, basic")
    assert unscaled_label("Net loss per share")
    assert unscaled_label("Basic earnings per share")
    text = _text(
        [
            ["", "2019", "2018"],
            ["Potential common shares excluded from diluted net loss per share", "8,737", "9,022"],
            ["Net loss per share", "(0.5)", "(0.6)"],
        ],
        caption="(in thousands)",
    )
    c = compute("What is the change in potential common shares excluded from diluted net loss per share from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "-285 thousand"


_PROVISION = [
    ["Item", "2019", "2018", "2017"],
    ["Current: › Federal", "$ 26", "$ 764", "$ 22"],
    ["Current: › Total current", "102", "813", "66"],
    ["Deferred: › Federal", "35", "239", "61"],
    ["Deferred: › Total deferred", "-3", "270", "74"],
    ["Provision for income taxes", "$ 99", "$ 1,083", "$ 140"],
]


def test_a_row_named_only_by_the_lead_in_yields_to_one_named_apart():
    lead = "The provision for income taxes consists of the following (in millions):"
    text = _text(_PROVISION, caption="(in millions)", lead=lead)
    assert "provision for income taxes" in lead_in(text.split("\n")[2], [text])
    c = compute("What was the change in total current provision for income tax between 2017 and 2018?", [("t", text)])
    assert c is not None and c.value == 747
    c = compute("What was the change in provision for income taxes between 2017 and 2018?", [("t", text)])
    assert c is not None and c.value == 943  # the lead-in's own row, where no other is named
    plain = _text(_PROVISION, caption="(in millions)")  # no lead-in: the row holding most words, as before
    c = compute("What was the change in total current provision for income tax between 2017 and 2018?", [("t", plain)])
    assert c is not None and c.value == 943


def test_a_lead_in_that_lists_things_names_no_topic():
    lead = "Obligations under long-term debt; operating leases; claims payable were as follows:"
    text = _text(
        [
            ["", "Total", "Less than 1 Year"],
            ["Operating leases", "47,774", "15,363"],
            ["Purchase obligations: › Total", "331,454", "233,143"],
        ],
        lead=lead,
    )
    assert lead_in(text.split("\n")[2], [text]) == ""
