"""A long answer's claim said in the documents' own words (answer/quoted.py, issue #62): the
sentence read the reply restates is its short answer, cited; a step no sentence read holds is
"The documents do not say.", the closest sentences named; a summary is left the model's own.
A guidance-like page written for these tests; a scripted model where the read is under test."""

from __future__ import annotations

from edgerag.answer.check import NOT_IN_DOCUMENTS, Check
from edgerag.answer.plan import plan_answer
from edgerag.answer.quoted import Quote, held_to_documents, quotable, quote
from edgerag.answer.read import answer_question
from edgerag.llm.metered import MeteredLLM
from edgerag.store.tables import Tables
from edgerag.types import Context

from .helpers import ScriptedLLM, passage

BILL = passage(
    "b1",
    "Challenge your solicitor's bill",
    "Overview\n\nYou can challenge your solicitor's bill if you think you have been charged too much. "
    "Ask the Costs Office to make a ‘detailed assessment’ of your bill. "
    "You must apply within one month of getting the bill.\n\n"
    "How to apply\n\nDownload and fill in 3 copies of the claim form (N208). "
    "To find out whether you can apply, contact the Costs Office through the court helpline.",
)
FEES = passage("f1", "Court fees", "The court fee is £55. You can pay the fee by cheque made payable to the court.")


def test_a_paraphrase_is_said_in_the_documents_words():
    found = quote(
        "This involves asking the Costs Office to make a detailed assessment of your bill", "How can I challenge the bill?", [FEES, BILL]
    )
    assert isinstance(found, Quote)
    assert found.said == "Ask the Costs Office to make a ‘detailed assessment’ of your bill"
    assert found.standing.unit is BILL and found.shared >= 5


def test_the_quote_is_past_its_restatement_of_the_question():
    found = quote("You would contact the Costs Office in England", "How do I find out whether I can apply?", [BILL])
    assert found is not None and found.said == "Contact the Costs Office through the court helpline"


def test_a_step_no_sentence_read_holds_is_not_in_the_documents():
    held = held_to_documents(
        "Bristol is part of England, so you would write to the Mayor",
        "Bristol is part of England …",
        "How do I challenge the bill?",
        [BILL, FEES],
    )
    assert isinstance(held, Check) and held.abstained and held.step == "quoted"
    assert held.closest and all(s.unit in (BILL, FEES) for s in held.closest)  # the sentences read closest are named


def test_a_reply_that_does_not_know_is_dropped_not_quoted():
    held = held_to_documents("The passages do not say how to challenge the bill", "", "How can I challenge the bill?", [BILL])
    assert isinstance(held, Check) and held.step == "said"  # its words are the question's: never quoted


def test_a_summary_is_left_the_models_own():
    assert not quotable("Summarise the guidance on solicitors' bills")
    assert not quotable("Why was my bill so high?")
    assert quotable("I had a divorce. How can I challenge the cost of the bill?")
    assert quotable("What happens if I miss the deadline?")
    assert not quotable("Write a long account of the lighthouse and its keepers.")  # a request: streamed as written


def _read(text, reply, units, tmp_path, on_text=None):
    llm = MeteredLLM(ScriptedLLM([reply]), Tables(str(tmp_path), map_size=1 << 26))
    ctx = Context(text, "bridge-ppr", 500, units)
    plan = plan_answer(llm, text, ctx, evidence=lambda q, units, budget: units)
    return plan, answer_question(llm, text, ctx, plan=plan, on_text=on_text)


def test_a_long_answer_held_to_the_documents_is_shown_once_checked(tmp_path):
    """Never a guess streamed, then its retraction: a what-to-do answer is shown whole after the
    check; a summary, which is not held to a sentence, streams as the model writes it."""
    shown: list[str] = []
    invented = "Bristol is part of England, so you should write to your MP about it [1]."
    _, ans = _read("I live in Bristol. How can I challenge the cost of the bill?", invented, [FEES, BILL], tmp_path / "a", shown.append)
    assert ans.abstained and "".join(shown) == NOT_IN_DOCUMENTS
    streamed: list[str] = []
    summary = "The guidance covers fees and how to challenge a bill [2]."
    _, ans = _read("Summarise the guidance on solicitors' bills", summary, [FEES, BILL], tmp_path / "b", streamed.append)
    assert "".join(streamed) == ans.text and "challenge a bill" in "".join(streamed)


def test_a_long_answer_is_quoted_and_cited(tmp_path):
    reply = "To challenge the cost of the bill, you can follow these steps:\n1. **Ask for an assessment**: ask the Costs Office to assess your bill in detail [1]."
    # in rank order: the bill's page first, as retrieval finds it for the user's case (check.py, the ``page`` step)
    plan, ans = _read("My divorce cost £9500. How can I challenge the cost of the bill?", reply, [BILL, FEES], tmp_path)
    assert plan.mode == "long" and not ans.abstained
    assert ans.short == "Ask the Costs Office to make a ‘detailed assessment’ of your bill"
    assert ans.text == reply  # the model's explanation is kept beside the documents' words
    first = ans.citations[0]
    assert first.how == "cited" and first.chunk_id == BILL.chunk_id and "detailed assessment" in first.sentence
    assert ans.closest and ans.closest[0].how == "stands on"
    assert any(r["rule"] == "quoted" for r in ans.rules)
    assert "own words" in ans.reason and BILL.title in ans.reason  # the footers show the short answer beside the reply


def test_an_invented_step_is_not_in_the_documents(tmp_path):
    reply = "Bristol is part of England, so you should write to your MP about it [1]."
    plan, ans = _read("I live in Bristol. How can I challenge the cost of the bill?", reply, [FEES, BILL], tmp_path)
    assert plan.mode == "long"
    assert ans.abstained and ans.text == NOT_IN_DOCUMENTS and ans.short == "" and ans.citations == []
    assert ans.closest and all(c.how == "closest" for c in ans.closest) and "no sentence read says" in ans.reason


def test_a_lead_in_is_said_with_the_item_the_claim_restates():
    payroll = passage(
        "p1",
        "Running payroll",
        "Every time you pay your employees, use your payroll software to:\n\n"
        "record their pay - salary or wages and any other pay\n\n"
        "calculate deductions from their pay, like tax and National Insurance\n\n"
        "Produce payslips for each employee.",
    )
    found = quote("You should use your payroll software to record their pay", "How do I pay my staff?", [payroll])
    assert found is not None and found.said == "Use your payroll software to: record their pay"  # never a dangling "… software to"
    assert found.standing.sentence.startswith("Every time you pay your employees")
    alone = quote("Produce payslips for each employee", "How do I pay my staff?", [payroll])
    assert alone is not None and alone.said == "Produce payslips for each employee"  # an item that wins alone is said alone
