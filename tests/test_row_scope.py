"""A superlative over a table in sections compares the rows of the section the question names,
never a total row it does not ask for, and answers a row's own name without its section
(text/row_scope.py, text/tables.py). Tables written here."""

from __future__ import annotations

from edgerag.text.row_scope import compared_rows
from edgerag.text.tables import table_answer

_LABELS = [
    "1. Independent Directors › Aman Mehta",
    "1. Independent Directors › V Thyagarajan",
    "2. Non-Executive Directors › N Chandrasekaran",
    "Total Managerial Remuneration › Ceiling as per the Act",
    "Total",
]


def test_the_section_named_and_no_total_row():
    q = "Which independent director had the highest commission amount?"
    assert compared_rows(q, _LABELS, range(5)) == [0, 1]
    assert compared_rows("Which director had the highest commission?", _LABELS, range(5)) == [0, 1, 2, 3]
    assert compared_rows("Which had the highest total commission?", _LABELS, range(5)) == [0, 1, 2, 3, 4]


def test_a_superlative_over_a_table_in_sections_answers_the_rows_own_name():
    values = ["315.00", "100.00", "90.00", "40,434.81", "1,210.00"]
    text = "\n".join(f"Remuneration — Name: {label}; Commission: {v}" for label, v in zip(_LABELS, values))
    d = table_answer("Which independent director had the highest commission amount?", [("t", text)])
    assert d is not None and d.answer == "Aman Mehta"
