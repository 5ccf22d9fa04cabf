"""A report table whose cells or headers leave a bracket unclosed is still read back row by row
(text/rows.py `balanced_cell`): a stray ")" in a label, or a long header cut short inside "(…",
used to make every row line unreadable, so the rows were lost to code and the model guessed. A
scale noted in one column's header only ("(dollars in millions)") scales the whole table
(answer/table_cells.py `prose_scale`). Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.text.rows import balanced_cell, grid_lines, rows_in


def test_a_stray_bracket_is_left_out_and_matched_ones_kept():
    assert balanced_cell("Sales per square metre ($)$)") == "Sales per square metre ($)$"
    assert balanced_cell("(2,879)") == "(2,879)"
    assert balanced_cell("Revenue (a") == "Revenue a"


def test_a_row_with_a_stray_bracket_is_read_back_and_computed():
    grid = [
        ["", "F19", "F18"],
        ["Sales", "6,712", "6,433"],
        ["Sales per square metre ($)$)", "16,626", "15,621"],
    ]
    lines = grid_lines(grid, caption="(NZ$ MILLION)")
    assert len(rows_in("\n".join(lines))) == 2
    c = compute("What is the average sales per square metre for both F18 and F19?", [("t", "\n".join(lines))])
    assert c is not None and c.value == 16123.5


def test_a_header_cut_inside_a_bracket_keeps_its_rows_and_its_scale():
    grid = [
        ["", "", "", "(dollars in millions)  Increase/ (Decrease)", "Increase/ (Decrease)"],
        ["Years Ended December 31,", "2019", "2018", "(dollars in millions)", "2019 vs. 2018"],
        ["Interest income", "$ 121", "$ 94", "$ 27", "28.7%"],
        ["Other, net", "(44)", "(73)", "29", "39.7"],
    ]
    text = "\n".join(grid_lines(grid, header_rows=2))
    assert len(rows_in(text)) == 2
    c = compute("What is the change in Interest income from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "27 million"


def test_a_column_that_scales_itself_does_not_scale_the_others():
    grid = [
        ["", "2019", "2018", "Change $m"],
        ["Revenue", "121", "94", "27"],
        ["Costs", "50", "40", "10"],
    ]
    text = "\n".join(grid_lines(grid))
    c = compute("What is the change in Revenue from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "27"
