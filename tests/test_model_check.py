"""The check's model step (answer/model_check.py, check.py's ``model``): the model asked, yes or
no, whether the sentence a short answer stands on answers the question proper. A scripted model
stands in for the GGUF: what is under test is which answers are asked of, what the call reads,
and what a "no" does (the real model's side is measured in the module doc's benchmarks)."""

from __future__ import annotations

import pytest

from edgerag.answer.binding import Standing
from edgerag.answer.check import NOT_IN_DOCUMENTS, check_answer
from edgerag.answer.model_check import confirmed_by, sentence_messages, window
from edgerag.answer.question import read_question
from edgerag.llm.local import Completion
from edgerag.settings import Settings

from .helpers import passage

BENEFIT = passage(
    "b1",
    "Bereavement Support Payment",
    "You may be able to get Bereavement Support Payment if your partner died. You could get £120 a week for up to 18 months.",
)
LEAVE = passage(
    "h1",
    "Staff handbook",
    "Full-time staff receive 27 days of annual leave. After five years of continuous service this rises to 30 days.",
)
CBT = passage(
    "c1",
    "Riding a motorcycle: CBT",
    "You must take compulsory basic training (CBT) before riding on the road. "
    "You can be fined up to £1,000 if you do not have a valid CBT certificate.",
)
FINED = "You can be fined up to £1,000 if you do not have a valid CBT certificate."
PRICES = passage("p1", "Price list", "Instrument: centrifuge; Room: B-2; Price: 12,400 EUR; Bought: 2021")


@pytest.fixture(autouse=True)
def _fresh_probe(monkeypatch):
    """Each test's model answers the probe anew (`discerns` remembers a model's for the process)."""
    import edgerag.answer.model_check as mc

    monkeypatch.setattr(mc, "_DISCERNS", {})


def _model(*replies: str):
    """A confirm callback answering ``replies`` in turn, and the calls it got (sentence, answer)."""
    asked: list[tuple[str, str]] = []
    queue = list(replies)

    def confirm(standing: Standing, answer: str) -> Completion:
        asked.append((standing.sentence, answer))
        return Completion(queue.pop(0) if queue else "yes", 40, 40, 1, 0.5, "stop")

    return confirm, asked


def test_a_no_drops_the_answer_and_names_the_sentence_as_closest():
    confirm, asked = _model("no")
    checked = check_answer("£1,000", "£1,000 [1]", "How much does a CBT course cost?", [CBT], confirm=confirm)
    assert checked.abstained and checked.step == "model" and checked.short == ""
    assert asked == [(FINED, "£1,000")]
    assert [s.sentence for s in checked.closest] == [FINED]
    assert checked.confirmed is not None and checked.confirmed.text == "no"  # its tokens join the answer's


def test_a_yes_keeps_the_answer():
    confirm, asked = _model("yes")
    checked = check_answer("£120", "£120 [1]", "How much is Bereavement Support Payment a week?", [BENEFIT], confirm=confirm)
    assert (checked.short, checked.abstained, checked.step) == ("£120", False, "")
    assert len(asked) == 1


def test_without_the_model_the_answer_is_kept_as_before():
    checked = check_answer("£1,000", "£1,000 [1]", "How much does a CBT course cost?", [CBT])
    assert checked.short == "£1,000" and not checked.abstained and checked.confirmed is None  # every rule step passes it


def test_each_sentence_holding_the_answer_is_asked_in_turn_until_one_answers():
    other = passage("b2", "Bereavement Support Payment", "The higher rate is £120 a week if you get Child Benefit.")
    confirm, asked = _model("no", "yes")
    checked = check_answer("£120", "£120", "How much is Bereavement Support Payment a week?", [BENEFIT, other], confirm=confirm)
    assert checked.short == "£120" and not checked.abstained
    assert len(asked) == 2 and checked.confirmed.output_tokens == 2  # both calls counted


def test_a_yes_no_answer_and_a_table_row_are_not_asked_of():
    confirm, asked = _model("no")
    checked = check_answer("yes", "yes", "Can I get Bereavement Support Payment if my partner died?", [BENEFIT], confirm=confirm)
    assert checked.short == "yes" and not asked
    checked = check_answer("12,400 EUR", "12,400 EUR", "What is the price of the centrifuge?", [PRICES], confirm=confirm)
    assert checked.short == "12,400 EUR" and not asked  # a row's cell is bound in code


def test_a_question_pinning_its_thing_by_a_clause_is_not_asked_of():
    """ "A film starring X and Y": the sentence that gives the screenwriter need not name the stars
    (HotpotQA's dev split: the model said no to such a right answer)."""
    writer = passage("w1", "David Weissman", "David Weissman is a screenwriter with credits for Evolution and The Family Man.")
    confirm, asked = _model("no")
    question = "What screenwriter with credits for Evolution co-wrote a film starring Nicolas Cage and Téa Leoni?"
    checked = check_answer("David Weissman", "David Weissman", question, [writer], confirm=confirm)
    assert checked.short == "David Weissman" and not asked


def test_the_call_reads_the_heading_the_lead_sentence_the_question_proper_and_the_answer():
    q = read_question("I live in Leeds and my wife died last May. How many days of annual leave does staff with seven years get?")
    standing = Standing(LEAVE, "After five years of continuous service this rises to 30 days.")
    text = sentence_messages(q.core, standing, "30 days")[1]["content"]
    assert "Passage: Staff handbook" in text
    assert "Full-time staff receive 27 days of annual leave. After five years" in text  # what "this" refers to
    assert "Proposed answer: 30 days" in text and text.rstrip().endswith("Answer yes or no.")
    assert "Leeds" not in text and "wife" not in text  # the user's situation is theirs, not the question's


def test_a_long_sentence_is_read_around_the_answer():
    cells = " ".join(f"Item {i}: $ {i}.0;" for i in range(200))
    cut = window(cells + " Pension credits: $2.1 billion; " + cells, "2.1 billion")
    assert "2.1 billion" in cut and len(cut.split()) <= 62
    assert window("Short sentence of 30 days.", "30 days") == "Short sentence of 30 days."


def test_no_call_no_completion_and_calls_stop_at_the_first_yes():
    confirm, asked = _model("yes", "no")
    s = [Standing(BENEFIT, "You could get £120 a week for up to 18 months."), Standing(BENEFIT, "Other.")]
    assert confirmed_by(None, s, "£120") is None
    assert confirmed_by(confirm, [], "£120") is None
    assert confirmed_by(confirm, s, "£120").text == "yes" and len(asked) == 1


def test_the_setting_is_on_by_default_and_says_what_it_does():
    assert Settings().answer_model_check is True
    assert NOT_IN_DOCUMENTS == "The documents do not say."


def _read(tmp_path, replies, model_check):
    """The question read by answer_question with a scripted model (its replies in turn)."""
    from edgerag.answer.plan import ReadPlan, build_messages
    from edgerag.answer.read import answer_question
    from edgerag.llm.metered import MeteredLLM
    from edgerag.store.tables import Tables
    from edgerag.types import Context

    from .helpers import ScriptedLLM

    class Choosing(ScriptedLLM):
        def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None, choices=None):
            return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)

    text = "I want to ride a moped. How much does a CBT course cost?"
    plan = ReadPlan(text, "short", [CBT], 0, 500, 0, build_messages(text, [CBT], "short", "evidence"), 60, None, None, "evidence")
    model = Choosing(replies)
    tmp_path.mkdir()
    llm = MeteredLLM(model, Tables(str(tmp_path), map_size=1 << 26))
    return answer_question(llm, text, Context(text, "bridge-ppr", 500, [CBT]), plan=plan, model_check=model_check), model


def test_the_reader_drops_an_answer_the_model_check_says_no_to(tmp_path):
    off, model = _read(tmp_path / "off", ["£1,000 [1]", "yes", "no"], model_check=False)
    assert off.short == "up to £1,000" and model.replies == ["yes", "no"]  # no second call; the passage's bound kept (qualified.py)
    on, model = _read(tmp_path / "on", ["£1,000 [1]", "yes", "no"], model_check=True)  # the probe: yes; the check: no
    assert model.replies == [] and on.abstained and on.text == NOT_IN_DOCUMENTS and on.citations == []
    assert [r["rule"] for r in on.rules] == ["qualified", "model"] and "not answering" in on.reason
    assert [c.how for c in on.closest] == ["closest"] and on.closest[0].sentence == FINED
    assert on.tokens["output"] > off.tokens["output"]  # the check's call is counted in the answer's tokens
    import edgerag.answer.model_check as mc

    mc._DISCERNS.clear()
    kept, model = _read(tmp_path / "kept", ["£1,000 [1]", "yes", "yes"], model_check=True)
    assert model.replies == [] and kept.short == "up to £1,000" and not kept.abstained


def test_a_model_that_says_no_to_a_plain_answer_is_not_asked(tmp_path):
    ans, model = _read(tmp_path / "blind", ["£1,000 [1]", "no", "no"], model_check=True)  # the probe: no
    assert ans.short == "up to £1,000" and not ans.abstained and model.replies == ["no"]  # its "no" would drop every answer


@pytest.mark.model
def test_the_real_model_is_asked_only_where_it_says_yes_to_a_plain_answer(tmp_path):
    from edgerag.answer.model_check import discerns, said_no, sentence_checker
    from edgerag.llm.local import LocalLLM
    from edgerag.llm.metered import MeteredLLM
    from edgerag.llm.models import ANSWER_MODEL, installed, resolve_model
    from edgerag.store.tables import Tables

    cv = passage("cv", "Curriculum Vitae: Dr Priya Raman", "Education: PhD in Hydrology, University of Leeds, 2012.")
    for spec in {None, ANSWER_MODEL} if installed(ANSWER_MODEL) else {None}:
        llm = MeteredLLM(LocalLLM(resolve_model(spec)), Tables(str(tmp_path / str(spec)), map_size=1 << 26))
        confirm = sentence_checker(llm, "When did Dr Samuel Adeyemi complete his PhD?", method="text")
        other = confirm(Standing(cv, cv.text), "2012")  # another person's CV
        if not discerns(llm, "text"):
            assert other is None  # not asked: the model says no to the plainest text
        else:
            assert said_no(other)
            own = sentence_checker(llm, "When did Dr Priya Raman complete her PhD?", method="text")
            assert not said_no(own(Standing(cv, cv.text), "2012"))


def test_the_lead_is_read_before_the_sentence_itself_not_before_a_short_line_it_contains():
    from edgerag.answer.model_check import passage_text

    unit = passage("f1", "Fees", "Fees\n\nThe permit is free. Renewal is online. Fees: a replacement permit costs £25.")
    text = passage_text(Standing(unit, "Fees: a replacement permit costs £25."), "£25")
    assert text == "The permit is free. Renewal is online. Fees: a replacement permit costs £25."


def test_a_year_its_prior_year_bracket_settles_is_not_asked_again():
    """ "It excludes lease liabilities of €37.4 million (2021: €33.9 million)." gives 2022's figure
    (asked.py `own_year`): the call is asked the question without "in 2022", which the sentence
    does not print (the 1.5B said no to it with the year, on a held-out report). A figure inside
    the bracket, or a year the bracket does not settle, keeps the question whole."""
    note = passage(
        "n1", "Net debt", "Net debt is bank borrowings less cash. It excludes lease liabilities of €37.4 million (2021: €33.9 million)."
    )
    standing = Standing(note, "It excludes lease liabilities of €37.4 million (2021: €33.9 million).")
    asked = "How much in lease liabilities was excluded from net debt in 2022?"
    text = sentence_messages(asked, standing, "€37.4 million")[1]["content"]
    assert "Question: How much in lease liabilities was excluded from net debt?" in text
    assert "in 2022" in sentence_messages(asked, standing, "€33.9 million")[1]["content"]  # the bracket's own figure
    assert "in 2019" in sentence_messages(asked.replace("2022", "2019"), standing, "€37.4 million")[1]["content"]


def test_a_bare_number_is_proposed_as_the_sentence_prints_it():
    """The 1.5B said no to "37.4" and yes to "€37.4 million" for the same sentence: a bare number
    the model read is proposed with the sentence's currency and scale, where one amount of that
    value is printed with them."""
    from edgerag.answer.model_check import as_printed

    sentence = "It excludes lease liabilities of €37.4 million (2021: €33.9 million)."
    assert as_printed(sentence, "37.4") == "€37.4 million"
    assert as_printed(sentence, "€37.4 million") == "€37.4 million"
    assert as_printed(sentence, "41.0") == "41.0"  # not printed: as read
    assert as_printed("Staff rose to 1,204 (2021: 1,100).", "1,204") == "1,204"  # no currency nor scale to add
