"""The evidence reader: sentences chosen from the retrieved passages (real index, real MiniLM
embedder), the prompt they make, closed questions, and what the plan says before the call."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.candidates import closed_choices
from edgerag.answer.check import NOT_IN_DOCUMENTS
from edgerag.answer.evidence import evidence_units
from edgerag.answer.plan import ReadPlan
from edgerag.answer.prompt import EVIDENCE_INSTRUCTION, build_messages
from edgerag.answer.read import answer_question
from edgerag.answer.reply import DO_NOT_KNOW, clean_answer, copied_example
from edgerag.llm.metered import MeteredLLM
from edgerag.types import Context, Unit

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import ScriptedLLM

BRIDGE_QUESTION = "In which town was the astronomer who sealed the Zorblax vault born?"


@pytest.fixture
def with_biography(index_copy, tmp_path):
    """The session index plus a second passage that names the astronomer of zorblax.md: the
    hop from the vault to the town goes through the key "Edith Varga"."""
    bio = tmp_path / "varga.txt"
    bio.write_text(
        "Edith Varga\n\nEdith Varga was born in Szeged in 1888. She studied mathematics in Vienna. "
        "Her survey of comets ran for eleven winters. She never married.\n",
        encoding="utf-8",
    )
    rag = EdgeRAG(index_copy, Settings(progress=False))
    rag.insert([bio])
    return rag


def test_evidence_is_the_sentence_that_answers_under_its_title(index_copy):
    rag = EdgeRAG(index_copy, Settings(progress=False))
    ctx = rag.retrieve(PLANTED_QUESTION, budget=3000)
    evidence = evidence_units(rag.index, rag.embedder, PLANTED_QUESTION, ctx.units, 120)
    assert evidence and all(u.kind == "evidence" for u in evidence)
    assert any(PLANTED_ANSWER in u.text for u in evidence)
    # fewer tokens than the passages they come from, within the budget but for the hop sentences
    assert sum(u.tokens for u in evidence) <= 120 + 60
    assert sum(u.tokens for u in evidence) < sum(u.tokens for u in ctx.units)
    # one unit per passage, in the context's order, carrying the passage's ids and title
    order = [u.chunk_id for u in ctx.units]
    assert [order.index(u.chunk_id) for u in evidence] == sorted(order.index(u.chunk_id) for u in evidence)
    for u in evidence:
        source = next(c for c in ctx.units if c.chunk_id == u.chunk_id)
        assert u.doc_id == source.doc_id and u.meta["of"] == source.id
        assert not source.title or u.text.startswith(f"{source.title}: ")


def test_the_second_hop_follows_a_key_of_the_first(with_biography):
    rag = with_biography
    ctx = rag.retrieve(BRIDGE_QUESTION, budget=3000)
    assert any("Szeged" in u.text for u in ctx.units)  # the retriever found both passages
    # a small selection: three first-hop sentences, one linked sentence, no fill
    evidence = evidence_units(rag.index, rag.embedder, BRIDGE_QUESTION, ctx.units, 1, k1=3, k2=1)
    assert len(evidence) == 2, [u.text for u in evidence]
    vault, bio = sorted(evidence, key=lambda u: "Szeged" in u.text)
    assert "sealed in 1931 by the astronomer Edith Varga" in vault.text and not vault.meta["linked_by"]
    assert bio.meta["linked_by"] == ["edith varga"] and "born in Szeged" in bio.text
    assert bio.meta["sentences"] == 1


def test_a_passage_without_sentences_gives_no_evidence(index_copy):
    rag = EdgeRAG(index_copy, Settings(progress=False))
    ghost = Unit("chunk", "nope", "text", 5, 1.0, "d", "no-such-chunk")
    assert evidence_units(rag.index, rag.embedder, PLANTED_QUESTION, [ghost], 100) == []


def test_the_evidence_prompt():
    units = [Unit("evidence", "c1#evidence", "Cork: Cork is a city in Ireland.", 8, 1.0, "d1", "c1", title="Cork")]
    system, user = build_messages("Where?", units, "short", "evidence")
    assert system["content"] == EVIDENCE_INSTRUCTION
    assert user["content"] == "Passages:\n[1] Cork: Cork is a city in Ireland.\n\nQuestion: Where?"
    assert build_messages("Why?", units, "long", "evidence")[0]["content"] != EVIDENCE_INSTRUCTION  # long answers read passages


@pytest.mark.parametrize(
    ("question", "choices"),
    [
        ("Which film came out first, The Glass Road or Night Harbour?", ["The Glass Road", "Night Harbour"]),
        ("Who was born first, Ann Smith or Bo Li?", ["Ann Smith", "Bo Li"]),
        ("Are both Kettering Hill and Pellmore Point in England?", ["yes", "no"]),
        ("Where was Edith Varga born?", None),
        ("What is the access code of the Zorblax vault?", None),
    ],
)
def test_closed_questions_allow_only_their_options(question, choices):
    assert closed_choices(question) == choices


@pytest.mark.parametrize(
    ("raw", "short"),
    [
        ("Cork [2].", "Cork"),
        ("Answer: Szeged\nBecause the passage says so.", "Szeged"),
        ("Ben &amp; Jerry&#x27;s", "Ben & Jerry's"),
        ("New York New York", "New York"),
        ("the the", "the"),
        ("6.8 inches (17.3 cm)", "6.8 inches"),
        ("(1998)", "(1998)"),
    ],
)
def test_clean_answer(raw, short):
    assert clean_answer(raw) == short


def test_an_answer_copied_from_the_instruction_is_not_an_answer(index_copy):
    units = [Unit("evidence", "c1#evidence", "Edith Varga: Edith Varga was born in Szeged.", 9, 1.0, "d1", "c1")]
    messages = build_messages("Where was Edith Varga born?", units, "short", "evidence")
    plan = ReadPlan("Where was Edith Varga born?", "short", units, 0, 500, 0, messages, 60, None, None, "evidence")
    assert copied_example("Springfield", plan)  # the instruction's example, in no passage
    assert not copied_example("Szeged", plan)
    # end to end with a scripted model that copies the example: the user is told, not misled
    rag = EdgeRAG(index_copy, Settings(progress=False))
    llm = MeteredLLM(ScriptedLLM(["Springfield"]), rag.index.tables)
    ctx = Context(query=plan.question, method="bridge-ppr", budget=500, units=units)
    ans = answer_question(llm, plan.question, ctx, plan=plan)
    assert ans.abstained and ans.text == NOT_IN_DOCUMENTS and ans.short == "" and ans.citations == []
    unchecked = answer_question(MeteredLLM(ScriptedLLM(["Springfield"]), rag.index.tables), plan.question, ctx, plan=plan, check=False)
    assert unchecked.text == DO_NOT_KNOW and unchecked.short == ""


@pytest.mark.model
def test_the_default_reader_reads_evidence_and_the_plan_says_so(index_copy):
    rag = EdgeRAG(index_copy, Settings(progress=False))
    assert rag.settings.answer_reader == "evidence"
    ctx = rag.retrieve(PLANTED_QUESTION, budget=3000)
    plan = rag.plan_answer(PLANTED_QUESTION, ctx)
    assert plan.reader == "evidence" and plan.mode == "short"
    assert all(u.kind == "evidence" for u in plan.units)
    assert plan.left_out == sum(u.chunk_id not in {p.chunk_id for p in plan.units} for u in ctx.units) > 0
    assert plan.summary().startswith(f"the model reads evidence sentences of {len(plan.units)} of ")
    assert plan.messages[0]["content"] == EVIDENCE_INSTRUCTION and PLANTED_ANSWER in plan.messages[1]["content"]
    # long answers and the passages reader read whole passages
    assert rag.plan_answer("Summarise what the passages say about the vault.", ctx).reader == "passages"
    rag.configure(answer_reader="passages")
    assert rag.plan_answer(PLANTED_QUESTION, ctx).reader == "passages"
    with pytest.raises(ValueError, match="answer_reader"):
        rag.configure(answer_reader="sentences")


@pytest.mark.model
def test_the_real_model_answers_a_comparison_with_one_of_its_options(with_biography):
    rag = with_biography
    question = "Who sealed the Zorblax vault, Edith Varga or Arthur Quell?"
    plan = rag.plan_answer(question, rag.retrieve(question, budget=3000))
    assert plan.reader == "evidence" and plan.choices == ["Edith Varga", "Arthur Quell"]
    ans = rag.answer(question, rag.retrieve(question, budget=3000), plan=plan)
    assert ans.text in plan.choices
    assert all(c.how == "matched" for c in ans.citations) and ans.citations


class ChoosingLLM(ScriptedLLM):
    """A scripted model that also takes ``choices`` and remembers what it was offered."""

    def __init__(self, replies):
        super().__init__(replies)
        self.offered: list[list[str] | None] = []

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None, choices=None):
        self.offered.append(choices)
        return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)


def test_a_reply_that_runs_on_is_narrowed_to_one_of_its_own_names(index_copy):
    from edgerag.answer.reply import RAN_ON

    question = "Ralph Hefferline was a psychology professor at a university in what city?"
    units = [
        Unit(
            "evidence", "c1#evidence", "Ralph Hefferline: He was a professor at Columbia University in New York City.", 14, 1.0, "d1", "c1"
        )
    ]
    plan = ReadPlan(question, "short", units, 0, 500, 0, build_messages(question, units, "short", "evidence"), 60, None, None, "evidence")
    context = Context(query=question, method="bridge-ppr", budget=500, units=units)
    rag = EdgeRAG(index_copy, Settings(progress=False))
    ran_on = "Ralph Hefferline was a psychology professor at Columbia University in New York City from 1947 until he died"
    model = ChoosingLLM([ran_on, "New York City"])
    ans = answer_question(MeteredLLM(model, rag.index.tables), question, context, plan=plan)
    assert model.offered[0] is None and "New York City" in model.offered[1] and "Columbia University" in model.offered[1]
    assert "Ralph Hefferline" not in model.offered[1]  # the question's own name is not its answer
    assert ans.short == "New York City" and ans.text == ran_on and ans.reason == RAN_ON
    assert ans.tokens["output"] == len(ran_on.split()) + 3  # both calls are on the answer's account
    assert [c.how for c in ans.citations] == ["matched"]
    # a reply that is already short is taken as it is: one call
    model = ChoosingLLM(["New York City"])
    other = "In which city did Ralph Hefferline teach psychology?"  # another prompt: no cache hit
    plan = ReadPlan(other, "short", units, 0, 500, 0, build_messages(other, units, "short", "evidence"), 60, None, None, "evidence")
    ans = answer_question(MeteredLLM(model, rag.index.tables), other, context, plan=plan)
    assert len(model.offered) == 1 and ans.short == "New York City" and not ans.reason
