"""Chain questions hop by hop (answer/steps.py, answer/chain.py): the steps found by grammar on
questions of any wording, the chain's control flow with a scripted reader, and a chain over a
small parts-and-suppliers corpus written for this test (tests/data/chain), answered by the real
default model on a real index, with no word of the relation list."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.chain import answer_chain
from edgerag.answer.read import Answer
from edgerag.answer.relations import RELATIONS
from edgerag.answer.steps import next_bridge
from edgerag.answer.walk import rebased
from edgerag.types import Context, Unit

from .conftest import DATA
from .helpers import passage

CHAIN = DATA / "chain" / "corpus.jsonl"
SUPPLIER = "Where is the supplier of the valve that failed in March headquartered?"


def _units() -> list[Unit]:
    return [passage(r["id"], r["title"], r["text"]) for r in map(json.loads, CHAIN.read_text(encoding="utf-8").splitlines())]


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # a relation of a thing, inside a relative clause: the innermost phrase first
        ("Who was in charge of the country where the composer of Aschenbrodel was a citizen?", "Who is the composer of Aschenbrodel?"),
        # the phrase is the question's subject: the clause ends before the question's verb
        ("When did the country where Beira is located become independent?", "In which country is Beira located?"),
        ("When was the country that produced Fist Power taken by the British?", "Which country produced Fist Power?"),
        # a statement that ends in its wh-word: the clause ends before the main verb
        (
            "The arena where the Lewiston Maineiacs played their home games can seat how many people?",
            "What is the arena where the Lewiston Maineiacs played their home games?",
        ),
        (
            "The football manager who recruited David Beckham managed Manchester United during what timeframe?",
            "Which football manager recruited David Beckham?",
        ),
        # a possessive with any noun, and a described, quoted title
        ("What kind of plane dropped the bomb on Akinoshu Kenji's birthplace?", "What is Akinoshu Kenji's birthplace?"),
        (
            'The director of the romantic comedy "Big Stone Gap" is based in what New York city?',
            'Who is the director of the romantic comedy "Big Stone Gap"?',
        ),
        # no relation word at all: a user's own documents
        (SUPPLIER, "Which valve failed in March?"),
    ],
)
def test_the_innermost_phrase_is_the_first_step(question, first):
    b = next_bridge(question, [])
    assert b is not None and b.question == first
    assert question[b.start : b.end] == b.phrase


@pytest.mark.parametrize(
    "question",
    [
        "Who is the spouse of Max Mack?",  # one hop as asked
        "What is the name of the fight song?",  # no anchor
        "Alfred Balk served as the secretary of the Committee on Minority Groups under which Vice President?",  # predicative
        'When was Poison\'s album "Shut Up, Make Love" released?',  # the thing is named
        "Who was the writer of These Boots Are Made for Walkin' and who died in 2007?",  # one thing, two conditions
        "What are the main terms of the purchase of Note 5 in the accounts?",  # a part of the document, named by its number
    ],
)
def test_a_one_hop_question_has_no_step(question):
    assert next_bridge(question, []) is None


def test_the_next_step_hangs_on_the_answer_put_in_place():
    units = _units()
    b = next_bridge(SUPPLIER, units)
    asked = SUPPLIER[: b.start] + "K-17 valve" + SUPPLIER[b.end :]
    assert asked == "Where is the supplier of K-17 valve headquartered?"
    b2 = next_bridge(asked, units, known=["K-17 valve"])
    assert b2.question == "What is the supplier of K-17 valve?" and b2.anchor == "K-17 valve"
    assert b2.relation is None and "supplier" not in RELATIONS
    assert next_bridge("Where is Orland Fittings headquartered?", units, known=["K-17 valve", "Orland Fittings"]) is None


def _scripted(replies: dict[str, str], units: list[Unit]):
    """A reader that answers each question from ``replies``, citing the passage that holds the answer."""
    from edgerag.answer.citations import citation

    asked: list[str] = []

    def read(q: str, ctx: Context, on_text=None) -> Answer:
        asked.append(q)
        short = replies.get(q, "")
        held = [u for u in ctx.units if short and short in u.text][:1]
        cites = [citation(1, held[0], "cited")] if held else []
        return Answer(q, short, short, cites, Context(q, "text", 100, held), 0, tokens={"input": 10, "output": 2}, mode="short")

    def retrieve(q: str) -> Context:
        return Context(q, "text", 100, units)

    return read, retrieve, asked


def test_each_step_is_read_and_put_in_place_and_every_step_is_cited():
    units = _units()
    replies = {
        "Which valve failed in March?": "K-17 valve",
        "What is the supplier of K-17 valve?": "Orland Fittings",
        "Where is Orland Fittings headquartered?": "Tampere",
    }
    read, retrieve, asked = _scripted(replies, units)
    ans = answer_chain(SUPPLIER, next_bridge(SUPPLIER, units), retrieve=retrieve, read=read, units=units)
    assert asked == list(replies)
    assert ans.short == "Tampere" and [s["answer"] for s in ans.steps] == ["K-17 valve", "Orland Fittings", "Tampere"]
    assert {c.chunk_id for c in ans.citations} == {"k17", "orland"}  # the valve's passage names both the valve and its supplier
    assert [c.n for c in ans.citations] == sorted(c.n for c in ans.citations)
    assert all(ans.context.units[c.n - 1].chunk_id == c.chunk_id for c in ans.citations)
    assert "the valve that failed in March → K-17 valve" in ans.reason and ans.tokens["input"] == 30


def test_a_step_without_an_answer_ends_the_chain():
    units = _units()
    read, retrieve, asked = _scripted({}, units)  # the model does not know the first step
    assert answer_chain(SUPPLIER, next_bridge(SUPPLIER, units), retrieve=retrieve, read=read, units=units) is None
    assert asked == ["Which valve failed in March?"]
    # a step that answers with the name it started from makes no progress either
    read, retrieve, asked = _scripted({"What is the supplier of K-17 valve?": "K-17 valve"}, units)
    asked_q = "Where is the supplier of K-17 valve headquartered?"
    assert answer_chain(asked_q, next_bridge(asked_q, units), retrieve=retrieve, read=read, units=units) is None


def test_a_step_answered_with_an_amount_ends_the_chain():
    """An amount in a thing's place leaves no question ("What is 1,112,987 30, 2019?")."""
    units = _units()
    read, retrieve, asked = _scripted({"Which valve failed in March?": "$1,204 thousand"}, units)
    assert answer_chain(SUPPLIER, next_bridge(SUPPLIER, units), retrieve=retrieve, read=read, units=units) is None
    assert asked == ["Which valve failed in March?"]


def test_a_step_found_in_the_question_proper_replaces_its_phrase_not_the_situation():
    units = _units()
    situation = "I run the Durham site and we had a failure last spring. "
    first = next_bridge(SUPPLIER, units)
    moved = rebased(first, SUPPLIER, situation + SUPPLIER)
    assert (situation + SUPPLIER)[moved.start : moved.end] == first.phrase
    assert rebased(first, SUPPLIER, "Something else entirely?") is None  # not word for word: read whole


@pytest.mark.model
def test_a_chain_without_relation_words_is_answered_hop_by_hop_by_the_real_model(tmp_path):
    rag = EdgeRAG(tmp_path / "index", Settings(progress=False))
    rag.insert([CHAIN])
    ctx = rag.retrieve(SUPPLIER)
    plan = rag.plan_answer(SUPPLIER, ctx)
    assert plan.chain is not None and "hop by hop" in plan.summary()
    ans = rag.answer(SUPPLIER, ctx, plan=plan)
    rag.close()
    steps = [s for s in ans.steps if s["phrase"]]
    assert len(steps) == 2 and all(s["how"] == "read" for s in steps), ans.steps
    assert "K-17" in steps[0]["answer"] and "Orland Fittings" in steps[1]["answer"], ans.steps
    assert "Tampere" in ans.short, ans.steps
    assert {"k17", "orland"} <= {c.doc_id for c in ans.citations}, ans.citations
    # every question read whole, as before: the reader sees one read and no steps
    rag = EdgeRAG(tmp_path / "index", Settings(progress=False, answer_chain=False))
    whole = rag.plan_answer(SUPPLIER, rag.retrieve(SUPPLIER))
    assert whole.chain is None
    rag.close()


@pytest.mark.parametrize(
    ("reply", "asked", "short"),
    [
        ("Tim Burton's spouse is Bree Van de Kamp", "Who is the spouse of Tim Burton?", "Bree Van de Kamp"),
        ("The author of Book X was Karl Renner", "Who was in charge of Austria?", "Karl Renner"),  # the example's subject
        ("Paris is a city", "Where was Max Mack born?", "Paris is a city"),  # no word of the question: left as written
        ("Max Mack", "Who directed it?", "Max Mack"),
        ("As of 2019, the total revenue was $5 million", "What was the total revenue as of 2019?", "$5 million"),  # "As of" is no clause
        (
            "When obligations under the contract are satisfied",
            "When is revenue recognized under a contract?",
            "When obligations under the contract are satisfied",
        ),  # a clause, no subject
    ],
)
def test_a_reply_said_as_a_sentence_about_the_question_keeps_its_answer(reply, asked, short):
    from edgerag.answer.reply import said_of

    assert said_of(reply, asked) == short


def test_an_answer_that_repeats_the_question_is_an_echo_unless_the_question_offers_it():
    from edgerag.answer.reply import echoes

    assert echoes("Ed Sheeran", 'Who did Ed Sheeran write the song "Thinking Out Loud" for?')
    assert not echoes("Athina Andrelos", 'Who did Ed Sheeran write the song "Thinking Out Loud" for?')
    assert not echoes("Keith Bostic", "who is younger Keith Bostic or Jerry Glanville ?")
    asked = "Between 2018 and 2019 year end, which year has a higher total fair value of money market funds?"
    assert not echoes("2019", asked)  # a year asked: the years named are its options
    assert echoes("money market funds", asked)
    assert echoes("2019", "What drove the increase in revenue in 2019?")


@pytest.mark.parametrize(
    ("setting", "model", "took", "seconds", "installed", "gpu", "spec"),
    [
        ("auto", None, 11.0, 15.0, True, False, "qwen2.5-coder-1.5b-instruct-q4_k_m"),  # measured within the budget
        ("auto", None, 31.0, 15.0, True, False, None),  # measured over it (a 44 tokens/s host): the default model
        ("auto", None, 31.0, 40.0, True, False, "qwen2.5-coder-1.5b-instruct-q4_k_m"),  # a longer budget takes it
        ("auto", None, None, 15.0, True, False, None),  # its speed unknown here
        ("auto", None, 31.0, None, True, False, "qwen2.5-coder-1.5b-instruct-q4_k_m"),  # no time budget
        ("auto", None, 31.0, 15.0, True, True, "qwen2.5-coder-1.5b-instruct-q4_k_m"),  # a GPU runs it
        ("auto", None, 11.0, 15.0, False, False, None),  # not installed
        ("auto", "/models/mine.gguf", 11.0, 15.0, True, False, None),  # the user's own model answers too
        ("/models/reader.gguf", None, None, 15.0, False, False, "/models/reader.gguf"),  # as set
    ],
)
def test_the_answering_model_is_the_larger_one_where_it_is_installed_and_measured_fast_enough(
    monkeypatch, setting, model, took, seconds, installed, gpu, spec
):
    """Chosen by the time a typical answer takes here, whatever the CPU's flags (issue #41)."""
    from edgerag.llm import models

    monkeypatch.delenv("EDGERAG_ANSWER_MODEL", raising=False)
    monkeypatch.delenv("EDGERAG_MODEL", raising=False)
    monkeypatch.setattr(models, "installed", lambda name: installed)
    asked = []
    choice = models.answer_model_choice(setting, model, gpu=gpu, seconds=seconds, typical_seconds=lambda name: asked.append(name) or took)
    assert choice.spec == spec and choice.reason
    if took is not None and seconds is not None and installed and not gpu and setting == "auto" and model is None:
        assert asked == ["qwen2.5-coder-1.5b-instruct-q4_k_m"] and f"{took:.0f} s" in choice.reason
    monkeypatch.setenv("EDGERAG_ANSWER_MODEL", "qwen2.5-coder-0.5b-instruct-q4_k_m")
    assert (
        models.answer_model_choice("auto", None, seconds=15.0, typical_seconds=lambda n: 1.0).spec == "qwen2.5-coder-0.5b-instruct-q4_k_m"
    )
