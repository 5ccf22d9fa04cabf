"""A value a sentence states for the one year asked among its years "respectively"
(answer/respective_value.py), decided in code before the model reads. Sentences written here."""

from __future__ import annotations

from edgerag.answer.in_code import decide_in_code
from edgerag.answer.respective_value import respective_value

from .helpers import passage

NOTE = (
    "(1) Includes amounts capitalized related to the Company's U.S. build-to-suit facility of $41.8 million and "
    "$39.4 million as of March 31, 2019 and 2018, respectively.\n"
    "(2) Fiscal 2019, 2018 and 2017 net income (loss) includes restructuring charges, net, of $0.5 million, "
    "$0.2 million and $0.8 million, respectively."
)


def test_the_year_asked_takes_its_own_amount():
    q = "How much was the amount capitalized related to the Company's U.S. build-to-suit facility as of March 31, 2018?"
    assert respective_value(q, [("n", NOTE)])[0] == "$39.4 million"
    d = decide_in_code(q.replace("2018", "2019"), [passage("n", "Notes", NOTE)])
    assert d is not None and d.answer == "$41.8 million" and d.kind == "stated"


def test_amounts_of_another_thing_in_the_sentence_decide_nothing():
    assert respective_value("What was the net loss in 2018?", [("n", NOTE)]) is None  # the amounts are restructuring charges'


def test_a_change_two_years_or_words_the_sentence_lacks_decide_nothing():
    texts = [("n", NOTE)]
    assert respective_value("What was the change in the amount capitalized for the U.S. build-to-suit facility in 2019?", texts) is None
    assert respective_value("How much was capitalized for the U.S. build-to-suit facility in 2019 and 2018?", texts) is None
    assert respective_value("How much was the amount capitalized related to the U.K. build-to-suit facility in 2019?", texts) is None


REVIEW = (
    "The Group employed 4,310 people at 31 December 2019 (2018: 4,125), of whom 2,240 worked in Aerospace. "
    "Depreciation for the year was EUR 71.3 million (2018: EUR 66.0 million). "
    "The workforce averaged 612 full-time equivalent employees during the year (2018: 580)."
)


def test_a_prior_year_in_brackets_gives_that_year_its_amount():
    texts = [("r", REVIEW)]
    assert respective_value("What was depreciation in 2018?", texts)[0] == "EUR 66.0 million"  # as written
    assert respective_value("How many people did the Group employ in 2018?", texts)[0] == "4,125"
    assert respective_value("Average full-time equivalent employees in 2018?", texts)[0] == "580"  # a bare noun phrase
    d = decide_in_code("What was depreciation in 2018?", [passage("r", "Financial review", REVIEW)])
    assert d is not None and d.answer == "EUR 66.0 million" and d.kind == "stated"


def test_a_bracket_of_another_thing_or_year_decides_nothing():
    texts = [("r", REVIEW)]
    assert respective_value("How many people worked in Aerospace in 2018?", texts) is None  # the bracket is the Group's
    assert respective_value("What was depreciation in 2019?", texts) is None  # the sentence's own year is not named
    assert respective_value("What was the change in depreciation in 2018?", texts) is None


def test_a_bracket_of_several_years_or_of_a_change_gives_each_its_own():
    both = [("a", "Revenue was £45.2 million (2018: £41.5 million; 2017: £39.0 million).")]
    assert respective_value("What was revenue in 2018?", both)[0] == "£41.5 million"  # not 2017's
    two = [("b", "Impairment charges were £2.1m (2018: nil) and restructuring costs were £3.4m (2018: £1.2m).")]
    assert respective_value("What were restructuring costs in 2018?", two)[0] == "£1.2m"
    assert respective_value("What was revenue in 2018?", [("c", "Revenue growth was 5% (2018: 3%).")]) is None
    assert respective_value("What was revenue in 2018?", [("d", "Revenue increased by £3.7 million (2018: £2.0 million).")]) is None
