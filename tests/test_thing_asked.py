"""The thing a figure question asks, by its head noun, named somewhere read (answer/thing_asked.py),
and a percentage is no "How much more …?" amount (answer/derived.py): the check's steps that stop
a figure read off a nearby row answering what the documents do not hold (issue #63)."""

from __future__ import annotations

import pytest

from edgerag.answer.check import check_answer
from edgerag.answer.derived import underived
from edgerag.answer.thing_asked import thing_asked, unread_thing
from edgerag.text.rows import grid_lines

from .helpers import passage

BANK = [
    ["PLN m", "2023", "2022", "Change %"],
    ["Net interest income", "6,842.3", "5,117.8", "33.7"],
    ["Net fee and commission income", "1,402.0", "1,377.5", "1.8"],
    ["Loans and advances to customers", "98,120.4", "91,795.1", "6.9"],
    ["Net finance costs", "(7,942)", "(4,381)", ""],
]
PROSE = "Cash generated from operations rose 20% to EUR 246 million in the third quarter (Q3 2023: EUR 205 million)."
UNITS = [passage("bank", "Key figures", PROSE + "\n" + "\n".join(grid_lines(BANK, "Key figures")))]


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("What was the bank's net interest margin in 2023?", "margin"),
        ("How much did the City spend on snow clearing in 2024?", "clearing"),
        ("How many season passes did the company sell in 2023/24?", "passes"),
        ("What was the number of employees at the end of 2023?", "employees"),  # "the number of": the noun after "of"
        ("What is Purchase obligations expressed as a percentage of Total contractual obligations?", "obligations"),
        ("What was the bank's NIM in 2023?", "nim"),  # a short name, said by its words
        ("How much more did they spend on capex in 2023?", None),  # a comparison: its thing is the rows'
        ("How many times did operating profit cover finance costs?", None),
        ("What was the total in 2023?", None),  # no thing of its own
        ("Did revenue grow in 2023?", None),  # no figure's grammar
    ],
)
def test_the_head_noun_of_the_thing_asked(question, head):
    assert thing_asked(question) == head


@pytest.mark.parametrize(
    "question",
    [
        "What was the bank's net interest margin in 2023?",
        "What was the bank's NIM in 2023?",
        "What was the Society's net debt at the end of 2023?",
        "How many branches did the bank operate at the end of 2023?",
    ],
)
def test_a_thing_nothing_read_names_drops_a_nearby_rows_figure(question):
    assert unread_thing(question, UNITS) is not None
    assert check_answer("33.7", "33.7", question, UNITS).abstained


def test_the_step_that_drops_it_says_the_thing_asked():
    checked = check_answer("33.7", "33.7", "What was the bank's net interest margin in 2023?", UNITS)
    assert checked.step == "asked" and "nothing read names the margin asked" in checked.why


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("What was net interest income in 2023?", "6,842.3"),
        ("How much did the bank earn in net interest in 2023?", "6,842.3"),  # no head read: the other steps decide
        ("How much did the bank lend to customers at the end of 2023?", "98,120.4"),  # a user's verb, the report's noun
        ("What were the bank's loans to customers in 2023?", "98,120.4"),
        ("What was the bank's net finance expense in 2023?", "7,942"),  # "expense" said as "costs"
    ],
)
def test_a_thing_the_documents_name_keeps_its_figure(question, reply):
    assert unread_thing(question, UNITS) is None
    assert not check_answer(reply, reply, question, UNITS).abstained


def test_how_much_more_asks_an_amount_not_a_percentage():
    asked = "How much more cash did operations bring in during Q3 2024 than in Q3 2023?"
    assert "percentage" in underived("20%", asked, UNITS)
    assert check_answer("20%", "20%", asked, UNITS).step == "derived"
    # a thing that is itself a percentage may be answered so
    assert "how much more" not in (underived("1.5%", "How much higher was the net interest margin in 2023 than in 2022?", UNITS) or "")
