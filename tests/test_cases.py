"""A value the guidance gives case by case, chosen by the user's own sum or date (answer/cases.py),
and the check that makes it (answer/check.py, step ``case``): on pages written here."""

from __future__ import annotations

import math

import pytest

from edgerag.answer.asked import says_what_was_asked
from edgerag.answer.binding import Standing
from edgerag.answer.cases import band, in_case
from edgerag.answer.check import check_answer
from edgerag.answer.question import read_question

from .helpers import passage, section

FEES = section(
    "fees",
    "Get a detailed assessment",
    "You must also pay a court fee. How much you pay will depend on the size of your solicitor’s bill.\n"
    "Get a detailed assessment — Amount on your solicitor’s bill: £15,000 or less; Fee: £335\n"
    "Get a detailed assessment — Amount on your solicitor’s bill: £15,000.01 to £50,000; Fee: £675\n"
    "Get a detailed assessment — Amount on your solicitor’s bill: £50,000.01 to £100,000; Fee: £1,005\n"
    "Get a detailed assessment — Amount on your solicitor’s bill: £100,000.01 or more; Fee: £1,345",
)
LOAN = section(
    "loan",
    "What you'll get",
    "£11,570 if your course starts on or after 1 August 2021 £11,222 if your course started between 1 August 2020 and "
    "31 July 2021 £10,906 if your course started between 1 August 2019 and 31 July 2020",
)
DUTY = section(
    "duty",
    "Customs Duty",
    "You pay Customs Duty on goods worth more than £135.\n"
    "Customs Duty — Type and value of goods: Gifts above £135 and up to £630; Customs Duty: 2.5%, but rates are lower for some goods\n"
    "Customs Duty — Type and value of goods: Gifts above £630; Customs Duty: The rate depends on the type of goods",
)


@pytest.mark.parametrize(
    "words, kind, low, high",
    [
        ("£15,000 or less", "money", -math.inf, 15000),
        ("£15,000.01 to £50,000", "money", 15000.01, 50000),
        ("Gifts above £135 and up to £630", "money", 135, 630),
        ("£100,000.01 or more", "money", 100000.01, math.inf),
        ("over £630", "money", 630, math.inf),
    ],
)
def test_a_band_of_money_is_read_from_its_words(words, kind, low, high):
    b = band(words)
    assert (b.kind, b.low, b.high) == (kind, low, high)


def test_a_band_of_dates_holds_its_days_and_no_others():
    b = band("if your course started between 1 August 2020 and 31 July 2021")
    assert b.kind == "date"
    after = band("on or after 1 August 2021")
    assert after.low == b.high + 1 and after.high == math.inf
    assert band("before 6 April 2017").high < band("on or after 6 April 2017").low
    assert band("if you live in Wales") is None


def _check(text: str, short: str, units):
    return check_answer(short, short, read_question(text), units)


def test_a_fee_read_from_another_band_is_the_fee_of_the_users_sum():
    q = "The final bill from my solicitor was £100950. How much is the court fee for a detailed assessment of the bill?"
    got = _check(q, "£335", [FEES])
    assert (got.short, got.step, got.abstained) == ("£1,345", "case", False)
    assert "£100,950" in got.why


def test_a_fee_table_under_its_page_heading_answers_a_question_in_other_words():
    """The fee rows name no word of "How much did it cost to challenge the bill …?"; their page
    does ("Challenge your solicitor's bill"): the row stands (asked.py `unnamed_row`)."""
    fees = section("fees2", "Challenge your solicitor's bill", FEES.text)
    q = "The final bill from my solicitor was £100950. How much did it cost to challenge the bill through an independent body?"
    got = _check(q, "£335", [fees])
    assert (got.short, got.step) == ("£1,345", "case")


def test_a_sum_already_in_its_band_keeps_the_answer():
    q = "The final bill from my solicitor was £9,000. How much is the court fee for a detailed assessment of the bill?"
    assert _check(q, "£335", [FEES]).short == "£335"


def test_no_sum_said_leaves_the_models_pick():
    q = "I want to challenge my solicitor's bill. How much is the court fee for a detailed assessment of the bill?"
    assert _check(q, "£675", [FEES]).short == "£675"


def test_a_listed_amount_is_moved_to_the_case_of_the_users_date():
    q = "My course will be starting on the 1st July 2020. How much funding is available for a postgraduate student?"
    got = _check(q, "£11,222", [LOAN])
    assert (got.short, got.step) == ("£10,906", "case")


def test_a_date_in_no_case_is_not_in_the_documents():
    q = "I started a master's course in September 2018. What was the most I could borrow as a Master's Loan for a course that started in 2018?"
    got = _check(q, "£11,222", [LOAN])
    assert got.abstained and got.step == "case"


def test_a_month_split_between_two_cases_decides_nothing():
    q = "My course starts in August 2020 or so, maybe July. How much funding is available for a postgraduate student?"
    assert in_case("£11,222", [], read_question(q)) is None  # nothing read: nothing moved
    got = _check("My course started in 2020. How much funding is available for a postgraduate student?", "£11,222", [LOAN])
    assert got.short == "£11,222" and got.step != "case"  # 2020 straddles two cases


def test_the_row_of_the_users_sum_answers_in_its_own_words():
    q = "My cousin sent me a leather jacket worth £700 as a present. What percentage of Customs Duty will I pay on the jacket?"
    got = _check(q, "2.5%", [DUTY])
    assert (got.short, got.step) == ("The rate depends on the type of goods", "case")


def test_a_date_said_of_another_event_is_not_the_cases():
    on = [Standing(LOAN, LOAN.text)]
    moved = "I moved to Leeds in March 2019. How much funding is available for a postgraduate course?"
    assert in_case("£11,222", on, read_question(moved)) is None
    started = "My course started in March 2019. How much funding is available for a postgraduate course?"
    assert in_case("£11,222", on, read_question(started)).value == ""  # before every case


SICK_PAY = section(
    "sick",
    "Sick pay",
    "Occupational sick pay depends on length of service: - in the first year of service: 4 weeks on full pay and 4 weeks on "
    "half pay; - after one year: 12 weeks on full pay and 12 weeks on half pay; - after five years: 26 weeks on full pay and "
    "26 weeks on half pay.",
)


def test_a_ladder_of_lengths_of_service_gives_the_rung_the_question_is_on():
    assert band("after one year").kind == "length" and band("1-5 years").high == 5 and band("in the first year of service").high < 1
    on = [Standing(SICK_PAY, SICK_PAY.text)]
    q = read_question("How many weeks on full sick pay does someone with three years of service receive?")
    moved = in_case("26 weeks", on, q)
    assert moved is not None and moved.value == "12 weeks"  # the figure the answer gave, of the rung "after one year"
    assert in_case("12 weeks", on, q) is None  # already its rung
    long = read_question("How many weeks on full sick pay does someone with seven years of service receive?")
    assert in_case("12 weeks", on, long).value == "26 weeks"


def test_the_users_case_is_read_from_the_page_their_words_find_first():
    """A time read from another process's page is no answer to the user's case (the ``page`` step)."""
    asylum = section(
        "a", "Claim asylum: after you apply", "You will usually get a decision on your claim within 6 months.", file="asylum.html"
    )
    septic = section(
        "s", "Septic tanks: how long it takes", "You should get a decision on your application within 13 weeks.", file="septic.html"
    )
    q = read_question("My uncle claimed asylum last month and is waiting. How long does it take to get a decision?")
    other = check_answer("13 weeks", "13 weeks", q, [asylum, septic], case_page="asylum.html")
    assert other.abstained and other.step == "page"
    own = check_answer("6 months", "6 months", q, [asylum, septic], case_page="asylum.html")
    assert own.short == "6 months" and not own.abstained
    plain = read_question("How long does it take to get a decision on a septic tank permit?")  # no situation: not held to one page
    assert check_answer("13 weeks", "13 weeks", plain, [asylum, septic], case_page="asylum.html").short == "13 weeks"


def test_a_value_per_category_is_the_one_the_users_words_name():
    """ "9% … for Plan 2" read for "a recent postgraduate": the postgraduate loan's line is theirs."""
    loans = section(
        "l",
        "Student and Postgraduate loan repayments",
        "They repay:\n9% of their income above £19,895 a year for Plan 1\n9% of their income above £27,295 a year for Plan 2\n"
        "6% of their income above £21,000 a year for Postgraduate loans",
    )
    q = read_question("Our new employee is a recent postgraduate with a loan from his doctoral research. How much should I deduct?")
    moved = check_answer("9%", "9%", q, [loans])
    assert moved.step == "case" and moved.short == "6% of their income above £21,000 a year"
    unnamed = read_question("Our new employee has a student loan. How much should I deduct?")  # no category named: the pick stands
    assert check_answer("9%", "9%", unnamed, [loans]).short == "9%"
    row = "Item: Fiscal Year Ended April 27, 2019 › Third Quarter; High: 33.98; Low: 20.99; Dividends Declared Per Share: 0.11"
    prices = passage("p", "Stock prices", row)
    label = check_answer("Third Quarter", "Third Quarter", "In which quarter of 2019 was the high price greater than $40.00?", [prices])
    assert label.short == "Third Quarter" and label.step != "case"  # a row's label chosen is no category's value


def test_how_long_is_answered_where_the_sentence_says_what_takes_the_time():
    """ "13 weeks" for a large application is no answer to how long an appeal takes (asked.py)."""
    after = section("a", "Planning permission: after you apply", "For unusually large or complex applications the time limit is 13 weeks.")
    appeals = section("b", "Planning permission: appeals", "An appeal is usually decided within 16 weeks.")
    asked = "How long will my appeal take to be decided?"
    units = [after, appeals]
    assert not says_what_was_asked(Standing(after, after.text.split(": ", 1)[1]), asked, "number", units)
    assert says_what_was_asked(Standing(appeals, appeals.text.split(": ", 1)[1]), asked, "number", units)
    q = read_question(f"The council refused my application and I want to appeal. {asked}")
    assert check_answer("13 weeks", "13 weeks", q, units).abstained
    assert check_answer("16 weeks", "16 weeks", q, units).short == "16 weeks"
