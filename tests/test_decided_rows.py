"""What code decides from a table's rows and a sentence's list before any read, and the checks
that turn a small model's "yes" or a year's figure away (issue #56, items 2, 4 and 5):
text/lookup.py (a row the question names, a range holding its amount, yes/no over rows),
answer/listed.py (a number listed for the question's subject), answer/polarity.py, and the
binding rules added with them. Written documents of a school and a clinic (not the office
benchmark's), real sentence splitting and row parsing; no model (the model's side runs in
tests/test_trust.py and benchmarks/office.py)."""

from __future__ import annotations

import pytest

from edgerag.answer.asked import says_what_was_asked, unread_qualifier
from edgerag.answer.binding import Standing, about, names_in, stands_on
from edgerag.answer.check import check_answer
from edgerag.answer.evidence import _joined
from edgerag.answer.in_code import decide_in_code
from edgerag.answer.kinds import asked_kind, fits
from edgerag.answer.listed import counted, listed_value
from edgerag.answer.polarity import says_no
from edgerag.text.lookup import row_lookup
from edgerag.text.rows import row_line
from edgerag.text.sentences import split_sentences

from .helpers import passage

ROOMS = ["Room", "Building", "Seats", "Projector", "Booked through"]
ROOM_ROWS = [
    ["Lecture Hall A", "Main Building", "220", "yes", "Estates Office"],
    ["Seminar Room 3", "Library Wing", "24", "no", "Library Desk"],
    ["Chemistry Lab 2", "Science Block", "30", "yes", "Science Technicians"],
]
FEES = ["Course", "Fee per term", "Leader", "Day"]
FEE_ROWS = [
    ["Beginners' Spanish", "£180", "Marta Ibarra", "Monday"],
    ["Watercolour painting (materials included)", "£240", "Owen Price", "Thursday"],
    ["Creative writing", "£150", "Marta Ibarra", "Tuesday"],
]
SIGNING = ["Amount of the invoice", "Signed off by"]
SIGNING_ROWS = [["up to £250", "the course leader"], ["over £250 and up to £3,000", "the bursar"], ["over £3,000", "the head teacher"]]


def _table(key: str, caption: str, headers: list[str], rows: list[list[str]], before: str = "") -> tuple[str, str]:
    text = "\n".join([before, *(row_line(headers, r, caption) for r in rows)]).strip()
    return key, text


@pytest.fixture
def tables() -> list[tuple[str, str]]:
    return [
        _table("rooms", "Teaching rooms 2026", ROOMS, ROOM_ROWS, "Rooms are booked a term ahead."),
        _table("fees", "Evening classes", FEES, FEE_ROWS, "Fees are paid at enrolment."),
        _table("sign", "Invoices", SIGNING, SIGNING_ROWS, "Every invoice for the school is signed off before payment."),
    ]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How many seats does Seminar Room 3 have?", "24"),
        ("Which building is Chemistry Lab 2 in?", "Science Block"),
        ("Who leads the watercolour painting class?", "Owen Price"),  # the cell's parenthesis aside
        ("What is the fee per term for creative writing?", "£150"),
        ("On which day is the Beginners' Spanish class?", "Monday"),
        ("Who signs off an invoice of £1,200?", "the bursar"),  # the range holding the amount
        ("Who has to sign off an invoice for £3,400?", "the head teacher"),
        ("Who signs off a £90 invoice?", "the course leader"),
        ("Which room is booked through the Library Desk?", "Seminar Room 3"),  # asked by another column: the row's name
        ("Which room has 220 seats?", "Lecture Hall A"),  # a number given with its header's word
    ],
)
def test_a_row_the_question_names_is_read_in_code(tables, question, answer):
    d = row_lookup(question, tables)
    assert d is not None and d.answer == answer, d


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Does Seminar Room 3 have a projector?", "no"),
        ("Is Lecture Hall A booked through the Library Desk?", "no"),  # another row's value of that column
        ("Is Seminar Room 3 booked through the Library Desk?", "yes"),
        ("Are both Lecture Hall A and Chemistry Lab 2 booked through the Estates Office?", "no"),
        ("Do Beginners' Spanish and Creative writing have the same leader?", "yes"),
    ],
)
def test_yes_or_no_over_the_rows_named(tables, question, answer):
    d = row_lookup(question, tables)
    assert d is not None and d.answer == answer, d


@pytest.mark.parametrize(
    "question",
    [
        "How many seats does the new sports hall have?",  # a row never named
        "When was Lecture Hall A last refurbished?",  # no column says it
        "How many seats did Seminar Room 3 have before 2020?",  # another time than the table's
        "How many seats does Seminar Room 3 have in the 2019 timetable?",  # another year than its caption's
        "Who leads the class that Owen Price took over?",  # asked through another thing
        "Which room has the most seats?",  # a superlative: text/tables.py decides it
    ],
)
def test_nothing_is_decided_where_the_table_does_not_say(tables, question):
    assert row_lookup(question, tables) is None


def test_a_row_decision_must_be_of_the_kind_asked(tables):
    units = [passage(k, "School", t) for k, t in tables]
    decided = decide_in_code("How many seats does Seminar Room 3 have?", units)
    assert decided is not None and decided.answer == "24" and decided.kind == "table"
    assert decide_in_code("When is Lecture Hall A booked through the Estates Office?", units) is None  # no date in the row


CLINIC = passage(
    "c1",
    "Annual review 2025",
    "The clinic saw 9,120 patients in 2025: 4,010 at Ashford, 2,870 at Burley and 2,240 at Colne. "
    "Income was £3.1 million: NHS contracts £2.6 million, private patients £0.4 million and grants £0.1 million.",
)
CLINIC_2024 = passage(
    "c0", "Annual review 2024", "The clinic saw 8,400 patients in 2024: 3,900 at Ashford, 2,600 at Burley and 1,900 at Colne."
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How many patients were seen at Burley in 2025?", "2,870"),
        ("How many patients did the clinic see at Colne in 2024?", "1,900"),
        ("How much came from private patients in 2025?", "£0.4 million"),
    ],
)
def test_a_number_listed_for_the_subject_is_read_in_code(question, answer):
    d = listed_value(question, [CLINIC, CLINIC_2024])
    assert d is not None and d.answer == answer, d


@pytest.mark.parametrize(
    "question",
    [
        "How many patients were seen at Burley in 2023?",  # no list for that year
        "How many doctors worked at Burley in 2025?",  # the list counts patients
        "How many patients were seen at Denton in 2025?",  # no item names it
        "How long is the wait at Burley?",  # not a count
    ],
)
def test_no_listed_number_where_the_list_does_not_bind_it(question):
    assert listed_value(question, [CLINIC, CLINIC_2024]) is None


def test_what_how_many_counts():
    assert counted("How many of the 2024 peer-reviewed papers came from York?") == {"peer-review", "paper"}
    assert counted("How many doctoral students did the school have in 2025?") == {"doctoral", "student"}
    assert "people" in counted("How many staff worked at York?")
    assert counted("How much did the roof cost?") == set()
    assert counted("Who leads the project?") is None


POLICY = passage(
    "pol",
    "Expenses policy",
    "Taxis are reimbursed only after 22:00 or when carrying equipment. Alcohol is never reimbursed. "
    "Staff may claim a meal allowance of £15 on a full day away.",
)


@pytest.mark.parametrize(
    ("question", "no"),
    [
        ("Does the school reimburse alcohol?", True),
        ("Are taxis reimbursed at 18:00?", True),  # "only after 22:00"
        ("May staff claim a meal allowance on a full day away?", False),
        ("Is alcohol never reimbursed?", False),  # the question says the negation itself
    ],
)
def test_a_yes_whose_sentence_says_no(question, no):
    assert (says_no(question, [POLICY]) is not None) is no


def test_the_check_turns_a_yes_to_no_and_keeps_a_held_yes():
    assert check_answer("yes", "yes", "Does the school reimburse alcohol?", [POLICY]).short == "no"
    kept = check_answer("yes", "yes", "May staff claim a meal allowance on a full day away?", [POLICY])
    assert kept.short == "yes" and not kept.abstained


def test_the_kind_of_a_choice_and_of_a_date_without_its_year():
    assert asked_kind("Did Ashford or Colne see more patients?") == "other"  # a choice, not yes/no
    assert asked_kind("Did Ashford see more patients than Colne?") == "yes-no"
    assert fits("11 November", "date") and fits("March 3rd", "date") and not fits("Ashford", "date")


def test_an_answer_stands_on_its_number_and_unit_written_otherwise():
    hour = passage("m", "Manual", "Training is a 3-hour induction. Sick leave may be self-certified for 7 calendar days.")
    assert stands_on("3 hours", [hour]) and stands_on("7 days", [hour])
    assert not stands_on("13 hours", [hour])


def test_an_acronym_names_its_words():
    assert names_in("IT", "Information Technology and Security Policy")
    assert names_in("NHS", "the National Health Service contracts")
    assert not names_in("IT", "Internal Audit Charter")


def test_a_passage_is_about_what_its_file_is_named_for():
    unit = passage("it", "Acme Ltd", "Passwords must be at least 14 characters long.")
    unit.provenance["file"] = "/docs/it_policy.pdf"
    sentence = Standing(unit, "Passwords must be at least 14 characters long.")
    other = passage("x", "Acme Ltd", "Meeting rooms hold 14 people.")
    assert about(sentence, "What is the minimum length of a password under the IT policy?", [unit, other])


def test_a_figure_for_another_year_does_not_say_what_was_asked():
    s = Standing(CLINIC, CLINIC.text.split(". ")[0] + ".")
    assert says_what_was_asked(s, "How many patients did the clinic see in 2025?", "number", [CLINIC, CLINIC_2024])
    assert not says_what_was_asked(s, "How many patients did the clinic see in 2024?", "number", [CLINIC, CLINIC_2024])


def test_a_chain_step_is_decided_from_its_rows_without_lookups(tables):
    from edgerag.answer.in_code import decide_from_read

    units = [passage(k, "School", t) for k, t in tables]
    d = decide_from_read("Which building is Chemistry Lab 2 in?", units)
    assert d is not None and d.answer == "Science Block"
    assert decide_from_read("Which building is the new sports hall in?", units) is None


def test_the_sentence_naming_whom_it_asks_of_decides_a_yes():
    minutes = passage(
        "m",
        "Minutes of the governors' meeting, 4 May 2026",
        "Present: the head teacher, the bursar and five governors of the board. Apologies: Mr Tom Reyes.",
    )
    assert says_no("Was Tom Reyes present at the governors' meeting of 4 May 2026?", [minutes]) is not None


def test_a_relation_asked_of_x_where_it_holds_is_one_hop():
    from edgerag.answer.steps import next_bridge

    assert next_bridge("What is Ana Ruiz's job at the Institute?", []) is None  # not "then asked: What is <job> at …?"
    assert next_bridge("Which firm audits the Trust's accounts?", []) is None  # "the Trust's": no thing of its own to look up
    assert next_bridge("Where was the director of Big Stone Gap born?", [passage("b", "Big Stone Gap", "A film.")]) is not None


def test_the_questions_own_subject_is_no_answer():
    from edgerag.answer.check import is_the_subject

    assert is_the_subject("Greenfield School Trust", "Which firm audits the Trust's accounts?", "org")
    assert not is_the_subject("Hartley & Rowe LLP", "Which firm audits the Trust's accounts?", "org")
    assert not is_the_subject("Tarn Carbon", "Which ends later, Tarn Carbon or Peat Pipe Flow?", "other")


def test_a_long_answer_about_a_name_nothing_read_names_is_not_written(index_copy):
    from edgerag import EdgeRAG, Settings
    from edgerag.answer.check import NOT_IN_DOCUMENTS
    from edgerag.answer.plan import ReadPlan, build_messages
    from edgerag.answer.read import answer_question
    from edgerag.llm.metered import MeteredLLM
    from edgerag.types import Context

    from .helpers import ScriptedLLM

    manual = passage("man", "Pump manual", "Error code E-12 means the inlet is blocked. Error code E-31 means the filter is full.")
    rag = EdgeRAG(index_copy, Settings(progress=False))

    def ask(question: str, replies: list[str]):
        plan = ReadPlan(
            question, "long", [manual], 0, 500, 0, build_messages(question, [manual], "long", "evidence"), 200, None, None, "evidence"
        )
        context = Context(query=question, method="bridge-ppr", budget=500, units=[manual])
        return answer_question(MeteredLLM(ScriptedLLM(replies), rag.index.tables), question, context, plan=plan)

    ans = ask("What does error code E-45 on the pump mean?", [])  # no reply scripted: a model call would fail
    assert ans.abstained and ans.text == NOT_IN_DOCUMENTS and ans.citations == [] and "E-45" in ans.reason
    ans = ask("What does error code E-31 on the pump mean?", ["Error code E-31 means the filter is full [1]."])
    assert not ans.abstained and "filter is full" in ans.text
    rag.close()


def test_an_undated_table_does_not_answer_for_a_year():
    staff = _table("org", "Staff by site", ["Site", "Staff"], [["Leeds", "40"], ["York", "25"]], "Updated 12 January 2026.")
    assert row_lookup("How many staff are at York?", [staff]).answer == "25"
    assert row_lookup("How many staff were at York at the end of 2024?", [staff]) is None


def test_a_salary_is_not_read_from_a_budget():
    minutes = passage("m", "Minutes", "The Finance Director presented the budget for 2026, with income of £10.0 million.")
    assert check_answer("£10.0 million", "£10.0 million", "What is the Director's salary?", [minutes]).abstained


# ---- this session's rules: attendance lists, a year's range, a row alone, a qualifier, a role ----
MINUTES = (
    "Minutes of the parish council, 4 February 2026. Present: Cllr Ada Moss (Chair), Cllr Ben Ortiz, Cllr Carla Nunn. "
    "In attendance: Dev Patel (Clerk). Apologies: Cllr Edna Quist. The council agreed the precept."
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Was Cllr Edna Quist present at the meeting of 4 February 2026?", "no"),
        ("Did Edna Quist attend the parish council meeting?", "no"),
        ("Was Edna Quist absent from the meeting?", "yes"),
        ("Was Ben Ortiz present at the meeting?", "yes"),
        ("Did Dev Patel attend the meeting?", "yes"),  # "In attendance" is present
    ],
)
def test_whether_a_person_was_at_a_meeting_is_read_from_the_minutes_lists(question, answer):
    minutes = passage("min", "Parish council minutes", MINUTES)
    d = decide_in_code(question, [minutes])
    assert d is not None and d.answer == answer and d.units == [minutes]


def test_attendance_decides_nothing_where_no_list_names_them_or_lists_disagree():
    minutes = passage("min", "Parish council minutes", MINUTES)
    assert decide_in_code("Was Fay Rowe present at the meeting?", [minutes]) is None  # the model reads it
    assert decide_in_code("Did Ben Ortiz attend the University of Leeds?", [minutes]) is None  # no meeting asked of
    other = passage("min2", "Parish council minutes, March", "Present: Cllr Edna Quist, Cllr Ada Moss.")
    assert decide_in_code("Was Edna Quist present at the meeting?", [minutes, other]) is None  # two meetings' lists


def test_a_years_range_the_question_names_must_be_read():
    prices = passage("p", "Lab price list", "Prices valid from 1 April 2025 to 31 March 2026. A titration costs £12 a sample.")
    row = Standing(prices, split_sentences(prices.text)[1])
    assert says_what_was_asked(row, "What does a titration cost in the 2025-26 price list?", "number", [prices])  # both years
    assert says_what_was_asked(row, "What does a titration cost in the 2025/2026 price list?", "number", [prices])
    assert not says_what_was_asked(row, "What does a titration cost in the 2026-27 price list?", "number", [prices])


def test_evidence_rows_stand_on_lines_of_their_own():
    rows = [
        row_line(["Project", "Budget", "Start"], r, "Projects") for r in (["Kestrel", "£90,000", "2023"], ["Osprey", "£40,000", "2025"])
    ]
    text = _joined(["Budgets are in pounds.", *rows, "Figures as at 2026."])
    assert split_sentences(text) == ["Budgets are in pounds.", *rows, "Figures as at 2026."]
    projects = passage("p", "Projects", text)
    # Kestrel's row names no 2025 (Osprey's does): its budget is no spend "by the end of 2025"
    assert check_answer("£90,000", "£90,000", "How much had Kestrel spent by the end of 2025?", [projects]).abstained


def test_a_qualifier_nothing_read_holds_is_not_answered_by_the_thing_it_qualifies():
    spec = passage("s", "Microscope specification", "Objectives: 10x (dry, 0.25 NA) and 40x (dry, 0.65 NA).")
    said = split_sentences(spec.text)[0]
    assert unread_qualifier("What is the numerical aperture of the oil objectives?", said, [spec]) == "oil objectives"
    assert unread_qualifier("What is the numerical aperture of the dry objectives?", said, [spec]) is None
    assert check_answer("0.65 NA", "0.65 NA", "What is the NA of the microscope's oil objective?", [spec]).abstained
    # two qualifiers in a row: "budgeted" is read (the page's "Budget"), "catering" is not, and is still found
    budget = passage("b", "Budget", "Budget — Budget line: Total income; Q1: 259,200; Q2: 257,900")
    said = split_sentences(budget.text)[0]
    assert unread_qualifier("What is the budgeted catering income for Q1?", said, [budget]) == "catering income"
    leave = passage("h", "Staff handbook", "After five years of continuous service this rises to 30 days.")
    asked = "How many days of annual leave does a member of staff with seven years of service get?"
    assert unread_qualifier(asked, leave.text, [leave]) is None  # "seven": the user's count, no qualifier


def test_a_person_asked_by_a_role_stands_where_the_role_is_named():
    cv = passage("cv", "CV: Dr Ian Holt", "Dr Ian Holt: Head of Geography, Hallam Academy, Sheffield.")
    staff = passage("st", "Staff list", "Principal: Mrs Joan Ede (Hallam Academy). Bursar: Tom Fenn.")
    asked = "Who is the Principal of Hallam Academy?"
    assert check_answer("Dr Ian Holt", "Dr Ian Holt", asked, [cv, staff]).abstained
    assert check_answer("Joan Ede", "Joan Ede", asked, [cv, staff]).short == "Joan Ede"
    board = passage("bd", "Governors' meeting", "Present: Ann Lowe (Chair), Raj Singh, Mrs Joan Ede (Principal of Hallam Academy).")
    assert check_answer("Raj Singh", "Raj Singh", asked, [board]).abstained  # the role is another item's
    assert check_answer("Joan Ede", "Joan Ede", asked, [board]).short == "Joan Ede"


def test_an_acronym_after_of_the_anchors_a_step_and_a_lead_is_a_person():
    from edgerag.answer.steps import next_bridge

    b = next_bridge("Who does the owner of the HR policy report to?", [])
    assert b is not None and b.anchor == "HR policy" and b.question == "Who is the owner of the HR policy?"
    b = next_bridge("Where did the lead of the Kestrel project study?", [])
    assert b is not None and b.question == "Who is the lead of the Kestrel project?"


def test_table_cells_of_many_years_and_long_gaps_are_read_in_linear_time():
    from edgerag.text.lookup import _in_range, _is_amount

    assert _is_amount("2000 " * 40 + "n/a")  # exponential backtracking before: this would not return
    assert not _is_amount("2019 to 2020")
    assert _in_range("over £500" + " " * 3000 + "x", 600) is None  # no range written
    assert _in_range("over   £500  and up to £2,500", 1200)


def test_a_description_the_passage_does_not_repeat_is_no_qualifier():
    bio = passage("b", "Ralph Hefferline", "He was a professor at Columbia University in New York City.")
    asked = "Ralph Hefferline was a psychology professor at a university in what city?"
    assert check_answer("New York City", "New York City", asked, [bio]).short == "New York City"


def test_a_description_is_read_whole_not_cut_to_a_name(index_copy):
    """ "What is included in Tax fees?": the model's clause runs on to its sentence's end (clause.py),
    and no rule for names cuts it to "Professional"."""
    from edgerag import EdgeRAG, Settings
    from edgerag.answer.plan import ReadPlan, build_messages
    from edgerag.answer.read import answer_question
    from edgerag.llm.metered import MeteredLLM
    from edgerag.types import Context

    from .helpers import ScriptedLLM

    fees = passage(
        "fees", "Fees", "Tax fees include fees billed for professional services rendered by Ernst & Young, primarily for tax compliance."
    )
    rag = EdgeRAG(index_copy, Settings(progress=False))
    question = "What is included in Tax fees?"
    plan = ReadPlan(question, "short", [fees], 0, 500, 0, build_messages(question, [fees], "short", "evidence"), 48, None, None, "evidence")
    context = Context(query=question, method="bridge-ppr", budget=500, units=[fees])
    reply = "Professional services rendered by Ernst & Young [1]"
    ans = answer_question(MeteredLLM(ScriptedLLM([reply, "Professional"]), rag.index.tables), question, context, plan=plan)
    assert ans.short == "professional services rendered by Ernst & Young, primarily for tax compliance", ans
    rag.close()


def test_a_value_restated_in_other_terms_is_no_list_of_subjects():
    """ "Rental revenues increased $13.8 million, or 5.3%, …" says one value twice: it decides
    nothing, so "How much additional rental revenue …" is read where it is said ($12.4 million)."""
    text = (
        "Franchise rental revenues increased $13.8 million, or 5.3%, in 2019 versus a year ago due primarily to an "
        "increase in the number of franchised restaurants. The increase in the number of restaurants leased from the "
        "Company due to our refranchising strategy, contributed additional rental revenues of $12.4 million in 2019."
    )
    units = [passage("r", "Franchise revenues", text)]
    assert listed_value("How much additional rental revenue was contributed by the refranchising strategy in 2019?", units) is None
    two = passage(
        "s", "Staff", "The Institute employed 142 people at the end of 2024: 68 at Durham, 31 at Kendal, 26 at Hexham and 17 at Whitby."
    )
    assert listed_value("How many staff were employed at Hexham at the end of 2024?", [two]).answer == "26"


def test_a_dates_day_a_footnote_mark_and_a_names_number_are_no_listed_amounts():
    """ "At December 31, 2019 and 2018 there were 383,000 and 750,000 incremental shares": the
    item naming the subject holds "31", a date's day, not its amount; nor is "(2)" or "IAS 39"."""
    shares = passage(
        "s",
        "Earnings per share",
        "At December 31, 2019 and 2018 there were 383,000 and 750,000 incremental shares, respectively, from the assumed exercise of options.",
    )
    assert listed_value("How much was the incremental shares at December 31, 2019 and 2018 respectively?", [shares]) is None
    notes = passage(
        "n",
        "Selected data",
        "(2) Fiscal 2019 net income includes an income tax benefit, and (3) fiscal 2018 net income includes a tax charge.",
    )
    assert listed_value("How much income tax benefit is included in net income of fiscal 2018?", [notes]) is None


def test_a_month_of_a_date_asked_names_no_item_of_a_list():
    """ "… the U.K. facility as of March 31, 2018?" over a sentence about the U.S. facility: its
    item "$39.4 million as of March 31" names the month, not the facility asked (TAT-QA)."""
    us = passage(
        "f",
        "Property",
        "(1) Includes amounts capitalized related to the Company's U.S. build-to-suit facility of $41.8 million and $39.4 million"
        " as of March 31, 2019 and 2018, respectively.",
    )
    question = "How much was the amount capitalized related to the Company's U.K. build-to-suit facility as of March 31, 2018?"
    assert listed_value(question, [us]) is None


def test_a_report_s_whole_entity_word_is_no_unread_qualifier():
    """ "consolidated net revenue" over a row "Net revenue": a report's figures are the whole
    entity's unless named otherwise, so "consolidated" asks of no other kind of revenue; a word
    that picks some things out ("the three highest carrying value", "each listed period end") is
    still a qualifier to be read."""
    results = passage("r", "Results", "Results (in millions) — Item: Net revenue; 2019: 1,204; 2018: 1,100")
    said = split_sentences(results.text)[0]
    assert unread_qualifier("What was the consolidated net revenue in 2019?", said, [results]) is None
    assert unread_qualifier("What was the overall net revenue in 2019?", said, [results]) is None
    assert unread_qualifier("What was the wholesale net revenue in 2019?", said, [results]) == "wholesale net"
    values = passage("v", "Investments", "Investments — Item: Carrying value; 2018: 41.2; 2017: 39.0")
    said = split_sentences(values.text)[0]
    assert unread_qualifier("What was the sum of the three highest carrying value in 2018?", said, [values]) == "highest carrying"
    results_asked = "What was the consolidated net revenue in 2019?"
    assert not check_answer("1,204", "1,204", results_asked, [results]).abstained  # the check's "asked" step reads it
    assert check_answer("1,204", "1,204", "What was the wholesale net revenue in 2019?", [results]).abstained
