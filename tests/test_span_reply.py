"""Span answers of a reply (issue #62): the echo's re-choice never offers a word that only starts
a sentence, a qualifying aside stays with the answer, and a bare count keeps what it counts."""

from __future__ import annotations

from types import SimpleNamespace

from edgerag.answer.plan import plan_answer
from edgerag.answer.qualified import qualified
from edgerag.answer.read import answer_question
from edgerag.answer.reply import (
    ECHOED_SEVERAL,
    clean_answer,
    counted,
    named_part,
    rechoose,
    sentence_word,
    starts_sentences_only,
    words_before_aside,
)
from edgerag.llm.metered import MeteredLLM
from edgerag.store.tables import Tables
from edgerag.types import Context

from .helpers import ScriptedLLM, passage

PAGE = (
    "The general binding rules apply to a new septic tank. You must not cause pollution. "
    "If you cannot meet the rules, apply to the Environment Agency for a permit."
)


class ChoiceRecorder:
    """Stands in for MeteredLLM.chat: records the options offered and answers the first."""

    def __init__(self):
        self.offered: list[str] = []

    def chat(self, messages, **kw):
        self.offered = list(kw["choices"])
        return SimpleNamespace(text=self.offered[0])


def plan_for(question: str, text: str):
    return SimpleNamespace(hop=None, question=question, units=[SimpleNamespace(text=text, chunk_id=1)], messages=[])


def test_sentence_words_are_no_candidate():
    assert sentence_word("The") and sentence_word("you") and sentence_word("If")
    assert sentence_word("You’ll") and sentence_word("Don't") and sentence_word("It's")
    assert not sentence_word("O'Neill") and not sentence_word("Children's")
    assert not sentence_word("Environment Agency") and not sentence_word("Acas")


def test_rechoose_leaves_out_sentence_initial_words():
    llm = ChoiceRecorder()
    got = rechoose(llm, plan_for("What are the general binding rules for a new septic tank?", PAGE), "m", 8)
    assert got is not None and "Environment Agency" in llm.offered
    assert not {"The", "You", "If"} & set(llm.offered)


def test_rechoose_none_when_only_sentence_words_are_left():
    llm = ChoiceRecorder()
    assert rechoose(llm, plan_for("What must you do?", "You must wait. If it rains, stay in."), "m", 8) is None


def test_a_qualifying_aside_is_kept_and_a_conversion_dropped():
    assert clean_answer("18,000 litres per 2 users (plus another 6,800 litres per each extra user)") == (
        "18,000 litres per 2 users (plus another 6,800 litres per each extra user)"
    )
    assert clean_answer("£40 a week (except in Scotland)").endswith("(except in Scotland)")
    assert clean_answer("6.8 inches (17.3 cm)") == "6.8 inches"
    assert words_before_aside("18,000 litres per 2 users (plus another 6,800 litres per each extra user)") == 5  # no run-on
    assert words_before_aside("18,000 litres (17.3 cm)") == 4  # an aside that qualifies nothing counts


def test_a_bare_count_keeps_its_noun_and_bound():
    passages = ["You can use it to travel through a maximum of 5 countries. It costs £100."]
    assert counted("5", "How many countries can I travel through?", passages) == "a maximum of 5 countries"
    assert counted("5", "How many cities can I visit?", passages) == "5"  # no passage counts cities
    assert counted("5 countries", "How many countries can I travel through?", passages) == "5 countries"
    assert counted("5", "What is the limit?", passages) == "5"


def test_a_count_two_passages_write_differently_stays_bare():
    passages = ["Up to 3 visits a year.", "At least 3 visits are needed."]
    assert counted("3", "How many visits are allowed?", passages) == "3"


def test_a_word_capitalised_only_where_a_sentence_starts_is_no_name():
    page = "Calculate how much sewage you discharge. You need to calculate it.\nReleasing to the ground\nStop releasing it. Ask Acas."
    assert starts_sentences_only("Calculate", [page]) and starts_sentences_only("Releasing", [page])
    assert not starts_sentences_only("Acas", [page]) and not starts_sentences_only("Acas", ["Acas can help."])
    llm = ChoiceRecorder()
    rechoose(llm, plan_for("What must you do for a septic tank?", page), "m", 8)
    assert llm.offered and not {"Calculate", "Releasing"} & set(llm.offered)


def test_words_before_a_name_that_only_start_a_sentence_are_cut():
    page = "Follow NHS advice. You should follow it.\nUnder the rules, ask the Environment Agency."
    assert named_part("Follow NHS", [page]) == "NHS" and named_part("Under", [page]) == ""
    assert named_part("The Environment Agency", [page]) == "Environment Agency"
    assert named_part("Environment Agency", [page]) == "Environment Agency"


SEPTIC = passage(
    "s1",
    "Septic tanks: the general binding rules",
    "General binding rules\n\nYou must follow the general binding rules for a new septic tank. You must not cause "
    "pollution. You must use a small sewage treatment plant. If you cannot, apply to the Environment Agency for a permit.",
)


def _read(question, replies, tmp_path):
    llm = MeteredLLM(ScriptedLLM(replies), Tables(str(tmp_path), map_size=1 << 26))
    ctx = Context(question, "bridge-ppr", 500, [SEPTIC])
    plan = plan_answer(llm, question, ctx, evidence=lambda q, units, budget: units)
    return plan, answer_question(llm, question, ctx, plan=plan)


def test_an_echo_of_a_question_asking_several_things_is_not_answered(tmp_path):
    plan, ans = _read("What are the general binding rules for a new septic tank?", ["The general binding rules"], tmp_path)
    assert plan.mode == "short"
    assert ans.abstained and ans.short == "" and ans.reason.startswith(ECHOED_SEVERAL)


def test_a_short_answer_keeps_the_qualifier_the_passage_writes_after_it():
    page = "Contact the environmental health department at your local council for help. Risk assessments must be reviewed every year and whenever the ship changes."
    assert qualified("Environmental health department", "Who should I contact?", [page]) == (
        "Environmental health department at your local council"
    )
    when = "When must the risk assessments be reviewed?"
    assert qualified("every year", when, [page]) == "every year and whenever the ship changes"
    assert qualified("every year", "What is reviewed?", [page]) == "every year"  # a time not asked: no join
    # two passages continue it differently: as it is
    assert qualified("the office", "Who?", ["Ask the office at your school.", "Ask the office for a form."]) == "the office"


def test_a_name_asked_who_keeps_the_body_of_it_the_passage_names():
    page = "If you cannot pay, the Insolvency Service’s Redundancy Payments Service (RPS) may be able to help."
    who = "Who can we contact for help if we become insolvent?"
    assert qualified("Insolvency Service", who, [page]) == "Insolvency Service’s Redundancy Payments Service (RPS)"
    assert qualified("Insolvency Service", "What may help?", [page]) == "Insolvency Service"  # not asked "Who …?"
    assert qualified("Dr Okafor", "Who chairs it?", ["Dr Okafor's team chairs it."]) == "Dr Okafor"  # no name follows


def test_a_thing_keeps_the_body_that_gives_it_but_a_number_does_not():
    page = "You must pass initial training by HM Coastguard, followed by regular training. Pay £50 by Direct Debit."
    assert qualified("initial training", "What training is required?", [page]) == "initial training by HM Coastguard"
    assert qualified("£50", "How much is it?", [page]) == "£50"
    assert qualified("regular training", "What training is required?", [page]) == "regular training"  # no name follows


def test_an_amount_keeps_the_bound_before_it_and_its_points():
    """ "30 days" is "within 30 days", "$584 million" "up to $584 million": a bound changes what
    the number says; a bare number of basis points keeps them. Two passages bounding it apart, or
    a question that says the bound itself: as it is."""
    notes = "Trade payables are paid within 30 days of recognition. Restructuring costs are up to $584 million in total."
    assert qualified("30 days", "When are trade payables paid?", [notes]) == "within 30 days"
    assert qualified("$584 million", "How much are the restructuring costs?", [notes]) == "up to $584 million"
    margin = "Selling expenses rose approximately 70 basis points as a percentage of net sales."
    assert qualified("70", "How much basis points did selling expenses rise?", [margin]) == "approximately 70 basis points"
    assert qualified("30 days", "Are payables paid within 30 days?", [notes]) == "30 days"
    assert qualified("28 days", "How much notice?", ["Give no less than 28 days notice."]) == "no less than 28 days"  # negation kept
    assert qualified("30 days", "When?", [notes, "Invoices are due 30 days after delivery."]) == "30 days"
