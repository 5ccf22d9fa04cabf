"""Answers of the right form (issue #62): a question whose question proper offers alternatives
is answered by one of them, never a bare yes or no; "… and if so how?" asks the how; "Is there
anything else …?" asks for the things; a leading conditional clause ("If I apply …, how long
…?") does not make a question yes/no (answer/form.py, read once in answer/question.py); a long
reply that restates the question keeps what follows (answer/restated.py). Questions and a
guidance-like page written for these tests; a scripted model where the read is under test."""

from __future__ import annotations

from edgerag.answer.check import check_answer
from edgerag.answer.form import affirmed, alternatives, anything, if_so
from edgerag.answer.plan import plan_answer, resolve_mode
from edgerag.answer.question import read_question
from edgerag.answer.read import answer_question
from edgerag.answer.restated import content
from edgerag.llm.local import Completion
from edgerag.llm.metered import MeteredLLM
from edgerag.store.tables import Tables
from edgerag.types import Context

from .helpers import ScriptedLLM, passage

GRANT = passage(
    "g1",
    "Study Support Grant: how it is paid",
    "How you are paid\n\nThe Study Support Grant is paid in 3 instalments, one at the start of each term. "
    "It is not paid as a single lump sum. You must tell the grants office within 14 days if your address changes.",
)


def test_phrase_alternatives_are_the_options_and_not_yes_or_no():
    q = read_question("I start my course in September. Will I be paid as one lump sum or in instalments?")
    assert q.kind != "yes-no" and not q.rule
    assert q.options == ("one lump sum", "instalments")
    assert read_question("Is the grant paid weekly or monthly?").options == ("weekly", "monthly")
    assert alternatives("Is VAT charged on it, either at the point of sale or on delivery?").options == ("the point of sale", "delivery")


def test_clause_alternatives_are_answered_in_the_documents_words():
    q = read_question("I moved house last week. Will I need a new residence card, or can I simply update my address online?")
    assert q.kind != "yes-no" and q.options is None and not q.rule
    assert q.alternatives.clauses and q.alternatives.options == ("need a new residence card", "update my address online")
    assert read_question("Will the money go to my college or will it be given to me?").options is None


CARD = passage(
    "c1",
    "Residence cards: changes",
    "If you move house, you can update your address online. You will need a new residence card if your name changes.",
)


def test_a_yes_to_alternatives_is_the_alternative_it_names_or_a_read_again():
    q = read_question("I moved house last week. Will I need a new residence card, or can I simply update my address online?")
    named = check_answer("Yes, you can update my address online", "", q, [CARD])
    assert named.short == "update my address online" and named.step == "form" and not named.abstained
    asked = []

    def reread(options):
        asked.append(options)
        return Completion("need a new residence card", 10, 10, 2, 0.01, "stop")

    again = check_answer("Yes", "Yes", q, [CARD], reread=reread)
    assert asked == [["need a new residence card", "update my address online"]]
    assert again.short == "need a new residence card" and again.step == "form"
    neither = check_answer("No", "No", q, [GRANT], reread=lambda options: Completion("yes", 10, 10, 2, 0.01, "stop"))
    assert neither.abstained and neither.step == "form"
    assert affirmed("You need a new residence card", q.alternatives) is None  # no yes or no: the check reads it as any answer


def test_an_alternative_no_sentence_read_says_is_not_in_the_documents():
    q = read_question("I moved house last week. Will I need a new residence card, or can I simply update my address online?")
    named = check_answer("Yes, you can update my address online", "", q, [GRANT])  # the grant's page says neither
    assert named.abstained and named.step == "stands" and "update my address online" in named.why
    chosen = check_answer("Yes", "Yes", q, [GRANT], reread=lambda options: Completion("need a new residence card", 10, 10, 2, 0.01, "stop"))
    assert chosen.abstained and chosen.step == "stands" and chosen.reread is not None  # the read again's tokens still count


def test_an_either_question_stays_yes_or_no():
    for text in (
        "Do I need to apply for a permit or a licence to keep it?",
        "Do I have to pay tax on it or not?",
        "Can my husband or I claim?",
    ):
        assert alternatives(text) is None, text
    assert read_question("Do I have to pay tax on it or not?").options == ("yes", "no")


def test_and_if_so_how_asks_the_how():
    q = read_question("My results were lower than expected. Can I challenge my exam results and if so how?")
    assert q.read_as == "How can I challenge my exam results?" and q.kind != "yes-no" and not q.rule
    assert resolve_mode("auto", q.read_as) == "long"  # a how is explained, not answered yes or no
    assert if_so("Can I claim, and if so, how much will I get?") == "How much will I get?"
    assert if_so("Can I appeal?") is None


def test_is_there_anything_asks_for_the_things():
    q = read_question("My payslips show the gross pay and the tax. Is there anything else that I need to include?")
    assert q.read_as == "What else do I need to include?" and q.kind != "yes-no" and q.options is None
    assert anything("Is there anything that stops me from claiming?") == "What stops me from claiming?"
    assert anything("Is there a time limit?") is None  # the limit itself (question.py `limit`)


def test_a_leading_conditional_clause_does_not_make_a_yes_no():
    q = read_question("I lost my passport abroad. If i apply for an emergency travel document how long can it take?")
    assert q.asked == "How long can it take?" and q.kind == "number"
    assert any("emergency travel document" in s for s in q.situation)
    assert read_question("As I am under nineteen am I allowed to apply?").asked == "Am I allowed to apply?"  # no wh-word: as before


def test_a_reply_that_restates_the_question_keeps_what_follows():
    q = read_question(
        "I changed their contracts. If I make changes to their statements, how soon do I need to notify the affected workers?"
    )
    reply = "To notify the affected workers, you need to notify them within one month of making the change. This is stated in [3]."
    assert content(reply.splitlines()[0], reply, q) == ("You need to notify them within one month of making the change", "restated")
    lead = read_question("The bill was £9,500. How can I challenge the cost of the bill?")
    listed = "To challenge the cost of the bill, you can follow these steps:\n\n1. **Ask for an assessment**: Ask the costs office to assess the bill [2].\n2. Pay the fee."
    assert content("To challenge the cost of the bill, you can follow these steps:", listed, lead) == (
        "Ask the costs office to assess the bill",
        "lead-in",
    )
    said = read_question("How long does an emergency travel document take?")
    assert content("The time an emergency travel document takes is 2 working days.", "", said)[0] == "2 working days"


def test_a_reply_restating_the_question_in_its_own_order_is_cut_and_another_kept():
    q = read_question("How often must the risk assessments be reviewed?")
    first = "The risk assessments must be reviewed every year and whenever there are significant changes."
    # no "X is …" subject restates it, but the reply opens with the question's own words in its order
    assert content(first, first, q) == ("Every year and whenever there are significant changes", "restated")
    other = read_question("How do I apply for the grant?")
    assert content("Apply online through the grants office.", "", other) == ("Apply online through the grants office.", "")


def _read(text, replies, tmp_path, pages=None):
    class Recording(ScriptedLLM):
        def __init__(self, replies):
            super().__init__(replies)
            self.choices = []

        def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None, choices=None):
            self.choices.append(choices)
            return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)

    model = Recording(replies)
    llm = MeteredLLM(model, Tables(str(tmp_path), map_size=1 << 26))
    ctx = Context(text, "bridge-ppr", 500, pages or [GRANT])
    plan = plan_answer(llm, text, ctx, evidence=lambda q, units, budget: units)
    return plan, answer_question(llm, text, ctx, plan=plan)


def test_alternatives_are_read_as_a_choice_between_them(tmp_path):
    plan, ans = _read("I start in September. Will I be paid as one lump sum or in instalments?", ["in instalments"], tmp_path)
    assert plan.choices == ["one lump sum", "instalments"]  # the model chooses between them, not yes or no
    assert ans.short == "instalments" and not ans.abstained


def test_an_option_the_page_does_not_say_is_not_the_answer(tmp_path):
    """The model picks one of the two phrases it is handed whether or not a page says it."""
    plan, ans = _read("I start in September. Will I be paid weekly or monthly?", ["weekly"], tmp_path)
    assert plan.choices == ["weekly", "monthly"]
    assert ans.abstained and ans.short == "" and any(r["rule"] == "stands" for r in ans.rules)


def test_a_long_replys_short_answer_is_its_content(tmp_path):
    reply = "To tell the grants office about a new address, you must tell them within 14 days if your address changes [1].\nMore below."
    plan, ans = _read("I moved last week. How do I tell the grants office about a new address?", [reply], tmp_path)
    assert plan.mode == "long"
    assert ans.short == "You must tell the grants office within 14 days if your address changes"  # the documents' words (quoted.py)
    assert ans.text.startswith("To tell the grants office") and any(r["rule"] == "restated" for r in ans.rules)


def test_a_long_answer_for_the_users_case_is_read_from_their_case_page(tmp_path):
    """The user's case is the page their words find first: the same reply quoted from another
    process's page (a council's parking permits) is not an answer to it."""
    parking = passage(
        "p1", "Parking permits", "You must tell the council within 14 days if your address changes. Apply for a resident permit online."
    )
    question = "I moved last week. How do I tell the grants office about a new address?"
    reply = "To tell the grants office about a new address, you must tell them within 14 days if your address changes [2]."
    _, own = _read(question, [reply], tmp_path / "own", pages=[GRANT, parking])  # said on both pages: the case page's words
    assert not own.abstained and own.short == "You must tell the grants office within 14 days if your address changes"
    _, other = _read(
        question, ["To tell the grants office, apply for a resident permit online [2]."], tmp_path / "other", pages=[GRANT, parking]
    )
    assert other.abstained and any(r["rule"] == "page" for r in other.rules)
