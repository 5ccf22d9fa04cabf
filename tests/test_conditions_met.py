"""A rule's listed requirements or exceptions decided for the user's situation, item by item
(answer/conditions_met.py, answer/item_bounds.py, issue #62): the list's polarity from its lead,
an item settled in code where a date, number or age says it, else a scripted yes / no / unknown
call, and the answer that follows. Guidance-like pages written for these tests: a made-up
licence page, a redundancy page, a boat page and a grant page."""

from __future__ import annotations

from edgerag.answer.conditions_met import asks_negated, decide, failed_bound, list_polarity, rule_list
from edgerag.answer.item_bounds import settle_in_code
from edgerag.answer.question import read_question
from edgerag.llm.local import Completion

from .helpers import passage

LICENCE = passage(
    "c1",
    "Scooter training: when you do not need it",
    "Scooter training\n\nScooter training is a course you usually have to take before you ride a scooter on the road.\n\n"
    "You do not have to take scooter training if you:\n\n"
    "- want to ride a scooter (up to 50cc) and you passed your car driving test before 1 March 2003\n\n"
    "- have a full scooter licence from another country\n\n"
    "How to book\n\nBook online.",
)
REDUNDANCY = passage(
    "r1",
    "Severance pay: eligibility",
    "Severance pay\n\nTo be eligible for severance pay, a worker must:\n\n"
    "- be an employee working under a contract of employment\n\n"
    "- have at least 3 years’ continuous service\n\n"
    "- have been dismissed or laid off\n\n"
    "Ask your employer how much you will get.",
)
BOATS = passage(
    "s1",
    "Ferry safety rules",
    "Ferry safety\n\nA ferry vessel is a boat of any kind that carries more than 15 passengers. Ferry vessels need a safety certificate.",
)
GRANT = passage(
    "g1",
    "Garden Grant",
    "Garden Grant\n\nYou can get the Garden Grant if you meet one of the following:\n\n"
    "- you are 70 or older\n\n- you get Pension Credit\n\nApply by post.",
)


class _Items:
    """Stands in for the metered model: one scripted reply per item asked, the prompts kept."""

    def __init__(self, *replies: str):
        self.replies, self.calls = list(replies), []

    def chat(self, messages, **kw):
        self.calls.append((messages, kw))
        return Completion(self.replies.pop(0), 10, 10, 1, 0.01, "stop")


def test_a_lists_polarity_is_read_from_its_lead():
    assert list_polarity("The donor must:") == (True, False)
    assert list_polarity("To be eligible, an individual must:") == (True, False)
    assert list_polarity("You can claim if you:") == (True, True)  # a condition's list: one item is enough
    assert list_polarity("You can apply if all of the following apply:") == (True, False)
    assert list_polarity("You can get it if one of the following applies:") == (True, True)
    assert list_polarity("You cannot get it unless you:")[0] is True
    assert list_polarity("You do not have to take CBT if you:")[0] is False
    assert list_polarity("You cannot claim if you:")[0] is False
    assert list_polarity("The rule does not apply if:")[0] is False
    assert list_polarity("The 3 types of pool are the:") is None  # a list that is no rule's
    assert list_polarity("The agency must give you a written statement that tells you:") is None
    assert list_polarity("If you do not send a return, the office may:") is None
    assert list_polarity("If any agency offers you services it:") is None  # no rule before its condition
    assert list_polarity("As an officer you may have to:") is None  # what may happen, not what is required
    assert asks_negated(read_question("I passed in 2008. Is it true that scooter training is not needed with a licence?"))
    assert not asks_negated(read_question("I passed in 2008. Do I need to take scooter training?"))


def test_dates_numbers_and_ages_are_settled_in_code():
    item = "want to ride a scooter (up to 50cc) and you passed your car driving test before 1 March 2003"
    assert settle_in_code(item, ["I passed my car driving test in February 2001.", "I own a 50cc scooter."]) is True
    assert settle_in_code(item, ["I passed my driving test on the 20th June 2009.", "I want to ride a 125cc scooter."]) is False
    assert settle_in_code(item, ["I passed my driving test in March 2003."]) is None  # same month, no day: code cannot tell
    assert settle_in_code("have at least 3 years’ continuous service", ["I have 4 years of continuous service."]) is True
    assert settle_in_code("have at least 3 years’ continuous service", ["I have 2 years of continuous service."]) is False
    assert settle_in_code("have at least 3 years’ continuous service", ["I am 40 years old."]) is None  # an age is no service
    assert settle_in_code("carries more than 15 passengers", ["I run a 12-seat passenger boat."]) is False
    assert settle_in_code("you are 70 or older", ["I am 72 and retired."]) is True
    assert settle_in_code("be under 25", ["I'm 30 years old."]) is False
    assert settle_in_code("have a full scooter licence from another country", ["I am 72."]) is None


def test_an_exception_the_situation_meets_turns_the_rule():
    q = read_question("I passed my car driving test in February 2001. I own a 50cc scooter. Do I need to take scooter training?")
    rule = rule_list(q, [LICENCE, REDUNDANCY])
    assert rule is not None and not rule.requirements and rule.standing.sentence.startswith("You do not have to")
    met = decide(None, q, [LICENCE, REDUNDANCY])  # no model: the first item is settled in code
    assert met is not None and met.answer == "no" and met.item.startswith("want to ride a scooter")
    assert met.text(1).startswith("No: You do not have to take scooter training if you want to ride") and met.text(1).endswith("[1]")
    negated = read_question(
        "I passed my car driving test in February 2001. I own a 50cc scooter. Is it true scooter training is not needed?"
    )
    assert decide(None, negated, [LICENCE]).answer == "yes"


def test_an_exception_no_item_meets_decides_nothing():
    q = read_question("I passed my driving test in June 2009. I want to ride a 125cc scooter. Do I need to take scooter training?")
    model = _Items("Unknown")  # the second item asked: the situation does not say
    met = decide(model, q, [LICENCE])
    assert met is not None and met.answer == "" and len(model.calls) == 1  # the call is spent, nothing decided


def test_a_requirement_the_situation_fails_says_no_citing_it():
    q = read_question(
        "I am an employee working under a contract of employment and have 4 years of continuous service. "
        "I decided to retire early. Do I qualify for severance pay?"
    )
    model = _Items("Yes", "No")  # the employee item: yes; the dismissal item: no; the service item is settled in code
    met = decide(model, q, [REDUNDANCY, LICENCE], method="test")
    assert met is not None and met.answer == "no" and met.item == "have been dismissed or laid off"
    assert met.text(2) == "No: To be eligible for severance pay, a worker must have been dismissed or laid off [2]"
    messages, kw = model.calls[0]
    assert kw["choices"] == ["Yes", "No", "Unknown"] and kw["max_tokens"] <= 4
    prompt = messages[-1]["content"]
    assert "Item: be an employee" in prompt and "Situation: I am an employee" in prompt and "scooter" not in prompt
    short = read_question("I have 2 years of continuous service. Do I qualify for severance pay?")
    model = _Items("Unknown")  # the employee item unsaid; the service item fails in code
    early = decide(model, short, [REDUNDANCY])
    assert early is not None and early.answer == "no" and early.item.startswith("have at least 3 years") and not model.replies


def test_every_requirement_met_says_yes_and_one_of_is_enough():
    q = read_question(
        "I am an employee under a contract of employment with 5 years of continuous service. I was dismissed last month. "
        "Do I qualify for severance pay?"
    )
    met = decide(_Items("Yes", "Yes"), q, [REDUNDANCY])
    assert met is not None and met.answer == "yes" and met.item == ""
    old = read_question("I am 72 and live alone. Can I get the Garden Grant?")
    met = decide(_Items(), old, [GRANT])  # "70 or older" settled in code: one of them is enough
    assert met is not None and met.answer == "yes" and met.item == "you are 70 or older"


def test_a_rule_sentence_with_a_bound_is_one_requirement_settled_in_code():
    q = read_question("I run a 12-seat passenger boat on the river. Does my boat count as a ferry vessel?")
    rule = failed_bound(q, [BOATS])
    assert rule is not None and not rule.listed and rule.standing.sentence.startswith("A ferry vessel is")
    met = decide(_Items(), q, [BOATS])  # no call: a sentence is settled in code or not at all
    assert met is not None and met.answer == "no" and met.text(1) == "No: " + BOATS.text.split("\n\n")[1].split(". ")[0] + ". [1]"
    big = read_question("I run a boat with seats for 20 passengers. Does my boat count as a ferry vessel?")
    assert decide(_Items(), big, [BOATS]) is None  # met: the sentence alone does not say yes


def test_a_rule_question_without_a_situation_is_decided_only_by_a_bound_its_own_case_fails():
    assert decide(_Items(), read_question("Do I qualify for severance pay?"), [REDUNDANCY]) is None
    assert decide(_Items(), read_question("I am 72. What is the Garden Grant?"), [GRANT]) is None
    travel = passage(
        "h1", "Travel", "Book standard class; first class is allowed only for a single journey scheduled to last more than four hours."
    )
    short = read_question("Can I travel first class on a train journey scheduled to take three hours?")
    met = decide(_Items(), short, [travel])  # no call: spelled numbers read as digits, the bound settled in code
    assert met is not None and met.answer == "no"
    assert decide(_Items(), read_question("Can I travel first class on a train journey scheduled to take five hours?"), [travel]) is None


def test_the_list_that_says_most_of_the_question_is_found_through_its_acronym():
    page = passage(
        "t1",
        "Riding a scooter",
        "Compulsory scooter training (CST) is a course you usually have to take before you ride a scooter on the road.\n\n"
        "You do not have to take CST if you:\n\n"
        "- want to ride a scooter (up to 50cc) and you passed your car driving test before 1 March 2003\n\n"
        "- live on an offshore island\n\nBook a course online.",
    )
    q = read_question(
        "I passed my car driving test in May 2002. I own a 50cc scooter. Do I need to take compulsory scooter training to ride it?"
    )
    rule = rule_list(q, [page])
    assert rule is not None and rule.standing.sentence == "You do not have to take CST if you:" and len(rule.items) == 2
    met = decide(None, q, [page])
    assert met is not None and met.answer == "no"


def test_a_question_asking_what_a_lifted_duty_allows_reads_the_other_side():
    q = read_question(
        "I passed my car driving test in February 2001. I own a 50cc scooter. Can I ride my scooter without scooter training?"
    )
    assert decide(None, q, [LICENCE]).answer == "yes"  # 'without': the duty lifted is what is asked
    may = read_question("I passed my car driving test in February 2001. I own a 50cc scooter. Am I exempt from scooter training?")
    assert decide(None, may, [LICENCE]).answer == "yes"


def test_a_date_bounds_only_the_event_the_situation_names():
    item = "want to ride a motorcycle and have a full scooter licence from passing a scooter test since 1 December 1990"
    assert settle_in_code(item, ["I passed my driving test on the 20th June 2008."]) is None  # a driving test is no scooter test
    assert settle_in_code(item, ["I passed my scooter test in 1995."]) is True


def test_a_models_yes_counts_only_where_the_users_words_say_the_item():
    q = read_question("I was a student who took out a loan. I passed my car driving test in 2009. Do I need to take scooter training?")
    model = _Items("Yes", "Yes")  # the model says yes to an item the situation only touches
    met = decide(model, q, [LICENCE])
    assert met is not None and met.answer == "" and len(model.calls) == 1  # the first item fails in code; the second's yes is not borne out


def test_a_bound_in_a_case_is_no_requirement():
    page = passage(
        "k1", "Ferry returns", "Ferry vessel returns\n\nFile 2 ferry vessel returns if your ferry carries more than 15 passengers."
    )
    q = read_question("I run a 12-seat passenger boat on the river. Can my ferry vessel file returns?")
    assert failed_bound(q, [page]) is None


def test_an_item_that_leaves_the_user_out_in_its_own_words_fails():
    item = "have been dismissed or laid off - those who opted for early retirement do not qualify"
    assert settle_in_code(item, ["I have 5 years of service.", "I recently decided on an early retirement."]) is False
    assert settle_in_code(item, ["I have 5 years of service."]) is None


def test_the_read_says_no_where_a_requirement_fails(tmp_path):
    from edgerag.answer.plan import ReadPlan, build_messages
    from edgerag.answer.read import answer_question
    from edgerag.llm.metered import MeteredLLM
    from edgerag.store.tables import Tables
    from edgerag.types import Context

    from .test_conditions import _Choosing

    text = "I have 2 years of continuous service and was dismissed last month. Do I qualify for severance pay?"
    units = [REDUNDANCY, BOATS]

    def ask(path, rule_items):
        plan = ReadPlan(
            text, "short", units, 0, 500, 0, build_messages(text, units, "short", "evidence"), 60, ["yes", "no"], None, "evidence"
        )
        model = _Choosing.make(["yes", "Unknown"])  # the read says yes; the employee item is not said
        path.mkdir()
        ans = answer_question(
            MeteredLLM(model, Tables(str(path), map_size=1 << 26)),
            text,
            Context(text, "bridge-ppr", 500, units),
            plan=plan,
            rule_items=rule_items,
        )
        return ans, model

    off, _ = ask(tmp_path / "off", False)
    assert off.short == "yes"
    on, model = ask(tmp_path / "on", True)
    assert on.short == "no" and not model.replies  # the service item fails in code, after the one call for the employee item
    assert on.text == "No: To be eligible for severance pay, a worker must have at least 3 years’ continuous service [1]"
    assert on.citations[0].n == 1 and any(r["rule"] == "items" for r in on.rules)
