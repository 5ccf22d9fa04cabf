"""The check's steps on guidance pages asked in a person's own words (issue #62): a right answer
is not dropped because the person names a thing their own way ("Coast Guard", "Corporate Tax"),
because the page's name holds the question's name ("motorcycle-cbt.html" for "CBT"), or because
a verb meets another form of itself ("purchased", "purchases"); a number is bound to its own
list item by a word that tells the items apart, not by the page's subject. Sentences written here."""

from __future__ import annotations

from edgerag.answer.binding import Standing, about, stands_on, subject_words
from edgerag.answer.list_value import bound_value
from edgerag.answer.polarity import conditional, says_no
from edgerag.answer.sides import each_side
from edgerag.answer.spelled import loosely_named
from edgerag.types import Unit

from .helpers import section as page_section


def section(id: str, file: str, title: str, text: str) -> Unit:
    """A page's section as the reader reads it: evidence, its page's file and its heading."""
    return page_section(id, title, text, file)


TAKE = section("c5", "motorcycle-cbt.html", "What to take to your course", "Take your UK driving licence to your training course.")
BOOK = section("c3", "motorcycle-cbt.html", "Booking your CBT course", "Book your CBT course directly with a training school.")
HELMET = section("h1", "moped-insurance.html", "What to take to your course", "Take your UK driving licence to your training course.")


def test_a_page_named_for_the_question_name_holds_its_sentences():
    asked = "What should I bring for the CBT lessons?"
    sentence = "What to take to your course: Take your UK driving licence to your training course."
    assert about(Standing(TAKE, sentence), asked, [TAKE, BOOK], ["CBT"])  # motorcycle-cbt.html
    assert not about(Standing(HELMET, sentence), asked, [HELMET, BOOK], ["CBT"])  # another page's


def test_a_verb_meets_its_own_forms_when_a_sentence_is_matched_with_the_question():
    before = section(
        "v1",
        "vat-registration.html",
        "Purchases made before registration",
        "The time limit for backdating is 4 years for purchases you still have.",
    )
    other = section("v2", "vat-registration.html", "Appeals", "The time limit for an appeal is 4 years.")
    asked = "How far can I backdate claims on tools I have purchased previously?"
    assert about(Standing(before, before.text), asked, [before, other], [])  # backdating / backdate, purchases / purchased
    assert not about(Standing(other, other.text), asked, [before, other], [])


def test_a_name_is_read_as_the_person_writes_it():
    assert loosely_named("Coast Guard", "You must pass initial training by HM Coastguard.")
    assert loosely_named("Coastguard", "Volunteer with the coast guard rescue service.")
    assert loosely_named("Corporate Tax", "You pay Corporation Tax on the profit from selling shares.")
    assert not loosely_named("Coast Guard", "Contact the Border Force at the coast.")
    assert not loosely_named("Corporate Tax", "You may have to pay Capital Gains Tax.")
    assert not loosely_named("Tax", "Book a taxi.")


def test_a_yes_stands_where_the_side_is_named_in_other_words():
    units = [
        section("g1", "volunteer-as-a-coastguard.html", "Overview", "You can volunteer to be a coastguard rescue officer."),
        section("g2", "volunteer-as-a-coastguard.html", "Training", "You must pass initial training by HM Coastguard."),
    ]
    assert each_side("Am I the sort of person that the Coast Guard want to recruit?", units, ["Coast Guard"]) == ("yes", "")
    assert each_side("Am I the sort of person that the Border Force want to recruit?", units, ["Border Force"])[0] == ""


def test_a_number_is_bound_to_its_item_by_what_tells_the_items_apart():
    text = (
        "From your date of registration the time limit is: 4 years for goods you still have, or 6 months for services "
        "You can only reclaim VAT on purchases for the business now registered for VAT."
    )
    page = section("r1", "vat-registration.html", "Purchases made before registration", text)
    other = section("r2", "vat-returns.html", "Overview", "Submit a VAT Return every 3 months.")
    units = [page, other]
    sentence = page.text
    services = "How far can I backdate claims for VAT on services I have paid for previously?"
    goods = "How far can I backdate claims for VAT on tools I have purchased previously?"
    assert bound_value("4 years", sentence, services, units, page) == "6 months"  # its own period, not "6 years"
    assert bound_value("4 years", sentence, goods, units, page) is None  # "VAT" is the page's, no item's


def test_a_not_in_a_condition_is_no_no_to_what_was_asked():
    permit = section("p1", "permits.html", "Apply for a permit", "You'll need a permit if you do not meet the general binding rules.")
    appeal = section(
        "a1", "appeals.html", "Appeal against a review", "If you asked for a review and you're not happy with the decision, you can appeal."
    )
    unpaid = section("v1", "volunteer.html", "What to expect", "As a volunteer you will not be paid for the hours you work.")
    assert says_no("Do I need to apply for a permit to meet the general binding rules?", [permit]) is None
    assert says_no("Can I appeal against the decision of the review?", [appeal], rule=True) is None
    assert says_no("Will a volunteer be paid for the hours worked?", [unpaid], rule=True) is not None  # no condition: a no
    assert conditional("Your goods may be seized if you do not follow the rules.", 30)
    assert not conditional("If you qualify, you do not pay.", 20)  # the condition ended at its comma


def test_a_name_stands_where_the_page_writes_it_as_an_owner():
    rps = section(
        "r1", "staff-redundant.html", "Financial difficulties", "The Insolvency Service’s Redundancy Payments Service may be able to help."
    )
    assert stands_on("Insolvency Service", [rps])
    assert not stands_on("Insolvency Services", [rps])


def test_the_source_a_question_asks_for_is_not_what_it_is_about():
    advice = section(
        "f1",
        "further-education.html",
        "Advice",
        "Find out more about courses and what financial help you can get through the National Careers Service.",
    )
    loans = section("f2", "student-loans.html", "Repayments", "Contact the Student Loans Company about repayments and funding.")
    asked = "Where can I get information on courses and funding?"
    assert subject_words(asked) == {"courses", "funding"}  # "information on …": the source asked for
    assert about(Standing(advice, advice.text), asked, [advice, loans], [])
    assert not about(Standing(advice, advice.text), "Where can I get information on loans and repayments?", [advice, loans], [])
