"""Quarters and halves as ROWS (answer/period_rows.py): a table whose rows are "Q1 2019" … "Q4
2020" (or "2Q20", "H1 2020") read by the same period reading as quarters as columns
(period_cells.py): one quarter's cell, a half as its two quarters, a year's quarterly average,
a change between two quarters. Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.period_rows import row_period, turned
from edgerag.answer.periods import Period
from edgerag.answer.table_cells import grids
from edgerag.text.rows import grid_lines

QUARTERS = [
    ["Quarter", "Sales (EURm)", "Operating margin (%)", "Operating profit (EURm)"],
    ["Q1 2020", "410", "12.0", "49"],
    ["Q2 2020", "380", "9.5", "36"],
    ["Q3 2020", "455", "13.1", "60"],
    ["Q4 2020", "520", "15.2", "79"],
    ["Full year 2020", "1,765", "12.7", "224"],
    ["Q1 2021", "470", "13.0", "61"],
    ["Q2 2021", "505", "14.1", "71"],
]


def _units(grid):
    return [("k", "\n".join(grid_lines(grid, caption="Sales by quarter")))]


def test_a_row_names_its_quarter_or_half_with_its_year():
    assert row_period("Q2 2020") == Period(2020, "quarter", 2)
    assert row_period("2Q20") == Period(2020, "quarter", 2)
    assert row_period("H1 2021") == Period(2021, "half", 1)
    assert row_period("1H21") == Period(2021, "half", 1)
    assert row_period("First half 2020") == Period(2020, "half", 1)
    assert row_period("Fiscal 2019 › Third Quarter") == Period(2019, "quarter", 3)
    for label in ("Full year 2020", "Q3", "Revenue", "January 2020", "2020"):
        assert row_period(label) is None, label


def test_a_table_of_quarter_rows_is_also_read_turned():
    tables = grids(_units(QUARTERS))
    assert len(tables) == 2
    t = tables[1]
    assert t.headers[:2] == ["Q1 2020", "Q2 2020"] and "Full year 2020" in t.headers
    assert t.labels == ["Sales (EURm)", "Operating margin (%)", "Operating profit (EURm)"]
    assert turned(t) is None  # its columns are periods now: never turned back
    years = grids([("k", "\n".join(grid_lines([["", "2020", "2019"], ["Sales", "1", "2"], ["Costs", "3", "4"]])))])
    assert len(years) == 1  # a table of years by column is not turned


def test_one_quarter_row_is_read():
    looked = look_up("What were the sales in the second quarter of 2020?", _units(QUARTERS))
    assert looked is not None and looked.answer == "380 million", looked
    looked = look_up("What was the operating margin in Q1 2021?", _units(QUARTERS))
    assert looked is not None and looked.answer == "13.0%", looked


def test_compact_quarter_rows_are_read():
    compact = [[QUARTERS[0][0], *QUARTERS[0][1:]]] + [
        [r[0].replace("Q1 20", "1Q").replace("Q2 20", "2Q").replace("Q3 20", "3Q").replace("Q4 20", "4Q"), *r[1:]] for r in QUARTERS[1:]
    ]
    assert compact[2][0] == "2Q20"
    looked = look_up("What were the sales in the second quarter of 2020?", _units(compact))
    assert looked is not None and looked.answer == "380 million", looked


def test_a_half_with_no_row_is_its_two_quarters():
    done = compute("What were the total sales in the first half of 2020?", _units(QUARTERS))
    assert done is not None and done.answer == "790 million", done
    done = compute("What were the total sales in the first half of 2021?", _units(QUARTERS))
    assert done is not None and done.answer == "975 million", done


def test_an_average_quarterly_figure_is_over_the_year_s_quarter_rows():
    done = compute("What was the average quarterly operating profit in 2020?", _units(QUARTERS))
    assert done is not None and done.answer == "56 million", done  # (49 + 36 + 60 + 79) / 4, never "Full year 2020"


def test_a_change_between_two_quarter_rows():
    done = compute("What was the percentage change in sales from the third to the fourth quarter of 2020?", _units(QUARTERS))
    assert done is not None and done.answer.startswith("14.29"), done
    done = compute("What was the change in sales from Q4 2020 to Q1 2021?", _units(QUARTERS))
    assert done is not None and done.answer == "-50 million", done
