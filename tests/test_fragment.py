"""A fragment is no answer (answer/fragment.py): one or two words for a description, a phrase
cut mid-way, a reply narrowed to its opening common word; in the check and at a chain's end."""

from __future__ import annotations

from edgerag.answer.chain import without_fragment
from edgerag.answer.check import NOT_IN_DOCUMENTS, check_answer
from edgerag.answer.fragment import asks_description, fragment, opening_word
from edgerag.answer.read import Answer
from edgerag.types import Context

from .helpers import passage

CASH = passage(
    "p1",
    "Financing cash flows",
    "Financing cash flows comprise the net amount of proceeds from borrowings and repayments of borrowings, "
    "net interest paid on borrowings, and settlement of swaps for bonds repaid.",
)


def test_a_description_is_asked_by_its_grammar():
    for q in (
        "What does the table show?",
        "What is the content of Note 5?",
        'What is included in the line item "financing cash flows"?',
        "What was the effect of reductions in LIFO-valued inventories?",
        "In what situations can the tax rate fluctuate?",
        "What were revenues by geographic area based on?",
        "What data does the table contain?",
    ):
        assert asks_description(q), q
    for q in ("Who approves the audit services?", "What was the revenue in 2019?", "Which country is the terminal in?"):
        assert not asks_description(q), q


def test_a_word_or_two_for_a_description_is_a_fragment():
    assert fragment("Bonds", 'What is included in the line item "financing cash flows"?')
    assert fragment("Leasehold improvements", "What is the content of Note 5?")
    # a phrase, a figure, or a question that asks for a name are answers of their kind
    assert not fragment("net interest paid on borrowings and swaps", 'What is included in the line item "financing cash flows"?')
    assert not fragment("-24.1%", "What is the impact of tax on profits?")
    assert not fragment("Ernst & Young", "Who audits the group?")


def test_a_phrase_cut_mid_way_is_a_fragment_whatever_was_asked():
    assert fragment("Share Incentive Plan In", "What is the Share Incentive Plan?")
    assert fragment("the sale of", "Which agreement was entered into?")
    assert not fragment("show who you are", "What can I use the ARC for?")
    assert not fragment("In", "Where is it?")  # one word: the description rule's, not this one's
    # a reply opening inside a sentence: its subject is elsewhere
    assert fragment("Or EPS, is calculated by dividing net income", "How is Basic earnings per share, or EPS calculated?")
    assert fragment("as discussed above and lower operating expenses", "What led to the increase in media revenue?")
    assert not fragment("Andrew Ortiz", "Who chairs the committee?")  # "And…" inside a word is no conjunction


def test_one_value_for_several_asked_respectively():
    asked = "What was the accumulated amortization of fiscal years 2018 and 2019, respectively?"
    assert fragment("$212.1 million", asked)
    assert not fragment("$212.1 million; $260.8 million", asked)
    assert not fragment("$212.1 million", "What was the accumulated amortization in fiscal 2018?")


def test_a_reply_narrowed_to_its_opening_common_word():
    texts = ["The group entered into an agreement for the sale of commercial investment property in Dunedin."]
    assert opening_word("Sale", "Sale of commercial investment property in Dunedin", texts)
    assert not opening_word("Dunedin", "Sale of commercial investment property in Dunedin", texts)  # not its first word
    assert not opening_word("Paris", "Paris is the capital", ["Paris is the capital of France."])  # a name: never lower case
    assert not opening_word("EBITDA", "EBITDA and adjusted EBITDA", ["ebitda"])  # an acronym
    assert not opening_word("Sale", "Sale", texts)  # the reply is the word itself


def test_the_check_drops_a_fragment_and_keeps_the_phrase():
    asked = 'What is included in the line item "financing cash flows"?'
    dropped = check_answer("Bonds", "Bonds", asked, [CASH])
    assert dropped.abstained and dropped.step == "fragment"
    kept = check_answer("net interest paid on borrowings", "net interest paid on borrowings", asked, [CASH])
    assert kept.step != "fragment"


def _answer(short: str) -> Answer:
    return Answer(
        question="q", text=short, short=short, citations=[], context=Context(query="q", method="hybrid", budget=0), dropped_units=0
    )


def test_a_chain_final_answer_is_checked_against_the_question_first_asked():
    gone = without_fragment(_answer("Leasehold improvements"), "What is the content of Note 5?")
    assert gone.abstained and gone.short == "" and gone.text == NOT_IN_DOCUMENTS
    assert gone.rules[-1]["rule"] == "fragment"
    kept = without_fragment(_answer("Leasehold improvements"), "Which row of Note 5 is largest?")
    assert kept.short == "Leasehold improvements" and not kept.abstained


SEGMENTS = passage(
    "p2",
    "Operating segments",
    "3. Operating segments: Non-current assets by region.\n"
    "Item: Non-current assets › Americas; 2019 · $ million: 196.9; 2018 · $ million: 184.6\n"
    "Item: Non-current assets › Asia Pacific; 2019 · $ million: 7.4; 2018 · $ million: 4.4\n"
    "Item: Non-current assets › Europe, Middle East and Africa; 2019 · $ million: 11.5; 2018 · $ million: 5.1\n"
    "Item: Total; 2019 · $ million: 215.8; 2018 · $ million: 194.1\n"
    "Item: Revenue › Americas; 2019 · $ million: 500.0; 2018 · $ million: 450.0",
)


def test_one_row_label_for_a_question_asking_several_names_the_rows_beside_it():
    from edgerag.answer.several import row_siblings

    asked = "Where are the operating segments for non-current assets in the table?"
    # the rows under the same section and first header, in the table's order; the total row and
    # another section's row of the same label left out
    assert row_siblings("Americas", asked, [SEGMENTS]) == ["Americas", "Asia Pacific", "Europe, Middle East and Africa"]
    assert row_siblings("Oceania", asked, [SEGMENTS]) == []  # no row's label
    assert row_siblings("196.9", asked, [SEGMENTS]) == []  # a cell, no label
    # a question that picks rows by a bound or a rank may ask for one
    assert row_siblings("Americas", "What are the regions with non-current assets more than 100 million?", [SEGMENTS]) == []


def test_a_list_item_is_named_as_its_row_is_labelled():
    from edgerag.answer.several import labelled

    plans = passage(
        "p3",
        "Share-based payment charge",
        "Share-based payment charge:\n"
        "Item: Share Incentive Plan (‘SIP’); 2019 · £m: 0.2; 2018 · £m: 0.3\n"
        "Item: Sharesave scheme (‘SAYE’); 2019 · £m: 0.2; 2018 · £m: 0.3\n"
        "Item: Performance Share Plan (2019 grant); 2019 · £m: 0.1; 2018 · £m: 0.0\n"
        "Item: Performance Share Plan (2018 grant); 2019 · £m: 0.4; 2018 · £m: 0.5\n"
        "Item: Deferred Annual Bonus; 2019 · £m: 1.1; 2018 · £m: 0.3",
    )
    got = labelled(["Share Incentive Plan", "Sharesave scheme", "Performance Share Plan", "Deferred Annual Bonus", "Other"], [plans])
    # the aside the reply left out put back; two rows fitting alike, a label without aside, and no row left as they are
    assert got == ["Share Incentive Plan (‘SIP’)", "Sharesave scheme (‘SAYE’)", "Performance Share Plan", "Deferred Annual Bonus", "Other"]


def test_a_list_item_that_is_a_piece_of_one_rows_label_is_named_by_the_whole_label():
    from edgerag.answer.several import labelled

    pay = passage(
        "p4",
        "Relative importance of spend on pay",
        "Item: Shareholder distributions – dividends1; 2019 · £m: 60.0; 2018 · £m: 57.9\n"
        "Item: Total employee expenditure; 2019 · £m: 350.1; 2018 · £m: 340.2\n"
        "Item: Social security expenses, expenses for post-employment benefits and related employee benefits; 2019: 5; 2018: 4\n"
        "Item: Trade accounts receivable, net, current; 2019: 10; 2018: 9\n"
        "Item: Trade accounts receivable, net, noncurrent; 2019: 3; 2018: 2\n"
        "Item: Less: bitcoin costs; 2019: 1; 2018: 0\n"
        "Item: Data centre rent (included in Facility costs); 2019: 1; 2018: 0",
    )
    # the label's footnote number left off; two pieces of one label are that label once
    assert labelled(["Shareholder distributions", "Total employee expenditure"], [pay]) == [
        "Shareholder distributions – dividends",
        "Total employee expenditure",
    ]
    assert labelled(["Total employee expenditure", "Social security expenses", "post-employment benefits"], [pay]) == [
        "Total employee expenditure",
        "Social security expenses, expenses for post-employment benefits and related employee benefits",
    ]
    assert labelled(["current", "noncurrent"], [pay]) == [
        "Trade accounts receivable, net, current",
        "Trade accounts receivable, net, noncurrent",
    ]
    # a lead ("Less:") or a closing note is no part of a row's name; items from prose stay as read
    assert labelled(["bitcoin costs", "Data centre rent"], [pay]) == ["bitcoin costs", "Data centre rent"]
    assert labelled(["staffing", "Shareholder distributions"], [pay]) == ["staffing", "Shareholder distributions"]


def test_a_reply_that_names_its_section_then_the_rows_lists_the_rows():
    from edgerag.answer.several import items_read

    taxes = passage(
        "p5",
        "Deferred income tax",
        "Deferred income tax liabilities in relation to:\n"
        "Item: Deferred income tax liabilities in relation to: › Intangible assets; 2019: 6.1; 2018: 5.9\n"
        "Item: Deferred income tax liabilities in relation to: › Deferred selling cost; 2019: 8.5; 2018: 8.5",
    )
    reply = "Deferred income tax liabilities in relation to: Intangible assets; Deferred selling cost"
    assert items_read(reply, [taxes]) == ["Intangible assets", "Deferred selling cost"]
    assert items_read("2019: 6.1; 2018: 5.9", [taxes]) == []  # a row's cells copied: no list


def test_a_list_leaves_out_the_thing_whose_parts_are_asked():
    from edgerag.answer.several import not_the_asked

    asked = "What were the components making up Total Restructuring Reserves in the table?"
    items = ["Accrued and other current liabilities", "Other liabilities", "Restructuring Reserves"]
    assert not_the_asked(items, asked) == ["Accrued and other current liabilities", "Other liabilities"]
    assert not_the_asked(["2019", "2018"], "Which years were the reserves in 2019 and 2018 provided for?") == ["2019", "2018"]
    assert not_the_asked(["Restructuring Reserves", "Other liabilities"], asked) == ["Restructuring Reserves", "Other liabilities"]
    other = ["Personnel-related items", "Deferred revenue", "Other"]  # one word the question holds is no echo
    assert not_the_asked(other, "What are the components of Accrued expenses and other payables?") == other


CASH_FLOW = passage(
    "p4",
    "Free cash flow",
    "Free cash flow is set out below:\n"
    "($ million) — Item: Cash flow from operations; 2019: 124.9; 2018: 65.9\n"
    "($ million) — Item: Tax paid; 2019: -5.6; 2018: -5.7\n"
    "($ million) — Item: Net cash inflow from operating activities; 2019: 119.3; 2018: 60.2\n"
    "($ million) — Item: Net capital expenditure; 2019: -11.9; 2018: -10.6\n"
    "($ million) — Item: Free cash flow; 2019: 100.1; 2018: 50.9",
)


def test_the_parts_of_a_sum_are_the_rows_above_it():
    from edgerag.answer.several import parts_of_sum

    asked = "What are the components factored in when calculating the net cash inflow from operating activities?"
    ran_on = ["cash flow from operations", "Tax paid", "Net capital expenditure"]
    assert parts_of_sum(ran_on, asked, [CASH_FLOW]) == ["Cash flow from operations", "Tax paid"]
    # no parts asked, no row of the table named, or the items no rows of it: as they are
    assert parts_of_sum(ran_on, "What are the cash flows in the table?", [CASH_FLOW]) == ran_on
    assert parts_of_sum(ran_on, "What are the components of revenue?", [CASH_FLOW]) == ran_on
    assert parts_of_sum(["rent", "rates"], asked, [CASH_FLOW]) == ["rent", "rates"]


def test_the_thing_asked_named_back_is_no_answer():
    """ "Eligibility criteria set by TfL for your vehicle" says what was asked, not what it is."""
    asked = "What are the eligibility criteria for my vehicle to be licenced as a private hire vehicle in London?"
    assert fragment("Eligibility criteria set by TfL for your vehicle", asked)
    assert not fragment("Have no more than 8 passenger seats", asked)
    assert not fragment("Eligibility criteria include no more than eight passenger seats and a clean record", asked)
    assert not fragment("Rules for the new scheme", "Who sets the rules for the new scheme?")  # no thing asked by name
