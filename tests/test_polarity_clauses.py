"""Which "not" of a guidance sentence says no to a person's yes/no question (answer/polarity.py,
issue #62): a duty lifted in so many words ("… but they don't have to") is a no to "Do they have
to …?" even where the question says one telling word; a "not" in the clause set against the one
that answers ("You can get X, but you cannot get Y") or one that leads a list ("money that is
not: a salary, …") is no no to what was asked; an outright no (no case of its own) is told
apart from one a situation may decide (rule_check.py reads only the latter again). Sentences
written here."""

from __future__ import annotations

from edgerag.answer.check import check_answer
from edgerag.answer.polarity import conditional, contrasted, leads_list, lifted_duty, outright, says_no
from edgerag.answer.question import read_question

from .helpers import section

WAGES = section("w1", "Wages", "Your manager may pay you for jury service days but they don't have to.")
WAGES_IF = section("w2", "Wages", "Your manager does not have to pay you if you are self-employed.")
WAGES_MUST = section("w3", "Wages", "Your manager must pay you for the days you work.")
LEAVE = section("l1", "Parental rights", "You may be able to get statutory adoption pay, but you cannot get statutory adoption leave.")
LOAN = section("d1", "Overview", "A staff loan is money you get from your employer that is not: a salary, a bonus or an expense repayment.")
REFUSE = section("r1", "Withheld pay", "Your agency cannot refuse to pay you because your client is unhappy with your work.")


def test_a_duty_lifted_in_so_many_words_is_a_no_to_a_one_word_duty_question():
    asked = "Do they have to pay for my days off?"
    said = lifted_duty(asked, [WAGES])
    assert said is not None and "don't have to" in said[1]
    assert says_no(asked, [WAGES], rule=True) is not None
    assert lifted_duty(asked, [WAGES_IF]) is None  # lifted only in a case: the situation decides it
    assert lifted_duty(asked, [WAGES_MUST]) is None  # a duty kept
    assert lifted_duty("Can they pay for my days off?", [WAGES]) is None  # not a duty asked


def test_a_not_in_the_clause_set_against_the_answer_is_no_no():
    asked = "Am I eligible for adoption pay of any kind?"
    sentence = LEAVE.text
    assert contrasted(sentence, sentence.index("cannot"), {"adoption", "pay", "eligible"})
    assert says_no(asked, [LEAVE], rule=True) is None
    assert says_no("Can I get statutory adoption leave?", [LEAVE], rule=True) is not None  # the clause that speaks of it says no


def test_a_not_that_leads_a_list_is_no_no_to_what_was_asked():
    sentence = LOAN.text
    assert leads_list(sentence, sentence.index("not") + 3)
    assert not leads_list("You will not be paid for the hours you work.", 12)
    assert not leads_list("Taxis are paid only after 22:00 or when carrying equipment.", 20)  # a time's colon leads nothing
    assert says_no("Can this be classified as a staff loan?", [LOAN]) is None


def test_an_outright_no_is_told_apart_from_one_with_a_case():
    assert outright(REFUSE.text)
    assert outright(WAGES.text)
    assert not outright(WAGES_IF.text)
    assert not outright("Eligibility: You will not be able to get a loan if:")
    assert outright(
        "Compensation if you stay on the register: You cannot get compensation for lost fees."
    )  # the heading's "if" is its topic


def test_the_check_names_the_sentence_its_polarity_step_read_as_a_no():
    q = read_question("My agency has not paid me for two weeks. Can the agency refuse to pay because the client is unhappy with my work?")
    checked = check_answer("yes", "yes", q, [REFUSE])
    assert checked.short == "no" and checked.step == "polarity"
    assert checked.negated == REFUSE.text.split(": ", 1)[1] or checked.negated == REFUSE.text
    assert check_answer("no", "no", q, [REFUSE]).negated == ""


def test_a_condition_goes_on_past_a_comma_before_but():
    sentence = "You can get a refund if your licence was suspended, but you were not struck off the register."
    assert conditional(sentence, sentence.index("not"))
    assert not conditional("If you qualify, you do not pay.", 20)  # a comma before the main clause ends the condition
    register = section("g1", "Refunds", sentence)
    assert says_no("Can he be struck off the register?", [register], rule=True) is None
