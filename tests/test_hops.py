"""Bridge questions one hop at a time (answer/hops.py): the rewrite on real passages of the bundled
sample, what it refuses, and the plan the model reads through the API on a real index."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.hops import resolve
from edgerag.answer.relations import related_people
from edgerag.types import Unit

from .conftest import SAMPLE
from .helpers import passage

DIRECTOR = "Where was the director of film A Day Of Roses In August born?"


@pytest.fixture(scope="module")
def sample_units() -> list[Unit]:
    records = [json.loads(line) for line in (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    return [passage(r["id"], r["title"], r["text"]) for r in records]


def _titled(units: list[Unit], *titles: str) -> list[Unit]:
    return [next(u for u in units if u.title == t) for t in titles]


@pytest.mark.parametrize(
    ("question", "asked", "first"),
    [
        (DIRECTOR, "Where was Max Mack born?", "Max Mack"),
        ("Where was the performer of song Euphoria (Usher Song) born?", "Where was Usher born?", "Usher (musician)"),
        # a possessive, and a title with a disambiguation in parentheses
        (
            "Where was the place of burial of Charles Mathew's father?",
            "Where was the place of burial of James Charles Mathew?",
            "James Charles Mathew",
        ),
        (
            "What is the place of birth of Queen Jeongsun (Wonjong)'s husband?",
            "What is the place of birth of Wonjong of Goryeo?",
            "Wonjong of Goryeo",
        ),
    ],
)
def test_the_relation_is_hopped_and_its_passage_read_first(sample_units, question, asked, first):
    hop = resolve(question, sample_units)
    assert hop is not None and hop.question == asked
    assert hop.units[0].title == first and len(hop.units) == 2
    assert hop.reason.startswith("the ") and " is " in hop.reason


def test_two_hops_when_the_relation_nests(sample_units):
    units = _titled(sample_units, "A Day of Roses in August", "Max Mack")
    father = passage("f", "Max Mack", "Max Mack was the son of Ludwig Mack, a merchant.")
    ludwig = passage("l", "Ludwig Mack", "Ludwig Mack (1820–1890) was a merchant in Halberstadt.")
    hop = resolve("Where did the father of the director of film A Day Of Roses In August die?", [units[0], father, ludwig])
    assert hop is not None and hop.question == "Where did Ludwig Mack die?"
    assert [u.title for u in hop.units] == ["Ludwig Mack", "Max Mack", "A Day of Roses in August"] and len(hop.steps) == 2


def test_what_cannot_be_resolved_is_left_as_asked(sample_units):
    assert resolve("Where was Max Mack born?", sample_units) is None  # no relation
    # the film's passage is there, the director's is not: no hop, the model reads as before
    assert resolve(DIRECTOR, _titled(sample_units, "A Day of Roses in August")) is None
    # the film is unknown to the passages and to the lookup
    assert resolve("Where was the director of film Nowhere At All born?", sample_units, lookup=lambda name: []) is None
    # a lookup finds the director's passage the context lacks
    film, director = _titled(sample_units, "A Day of Roses in August", "Max Mack")
    hop = resolve(DIRECTOR, [film], lookup=lambda name: [director] if name == "Max Mack" else [])
    assert hop is not None and hop.units[0] is director


def test_family_relations_name_the_person_after_the_phrase():
    assert related_people("father", "Charles Mathew was the son of James Charles Mathew and his wife.")[0] == "James Charles Mathew"
    assert related_people("wife", "In 1902 he married Anna Holm, a painter.")[0] == "Anna Holm"
    assert related_people("husband", "She was the wife of Wonjong of Goryeo.")[0] == "Wonjong of Goryeo"
    assert related_people("mother", "His father was a judge.") == []


@pytest.mark.model
def test_the_plan_asks_the_hopped_question_and_reads_its_passage_first(index_copy, tmp_path, sample_units):
    corpus = tmp_path / "roses.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"id": u.id, "title": u.title, "text": u.text}) + "\n"
            for u in _titled(sample_units, "A Day of Roses in August", "Max Mack")
        ),
        encoding="utf-8",
    )
    rag = EdgeRAG(index_copy, Settings(progress=False))
    rag.insert([corpus])
    ctx = rag.retrieve(DIRECTOR, budget=2000)
    plan = rag.plan_answer(DIRECTOR, ctx)
    assert plan.hop is not None and plan.hop.question == "Where was Max Mack born?"
    assert plan.units[0].title == "Max Mack" and "Halberstadt" in plan.units[0].text
    assert {u.title for u in plan.units} == {"Max Mack", "A Day of Roses in August"}  # the hop's passages, nothing else
    assert plan.messages[-1]["content"].endswith("Question: Where was Max Mack born?")
    assert "hopped in code (the director of A Day Of Roses In August is Max Mack)" in plan.summary()
    rag.configure(answer_hops=False)
    plain = rag.plan_answer(DIRECTOR, ctx)
    assert plain.hop is None and plain.messages[-1]["content"].endswith(f"Question: {DIRECTOR}")
    rag.close()
