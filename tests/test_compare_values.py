"""Comparisons of numbers, places and categories decided in code (answer/compare.py, issue #42),
on a corpus written for these tests (tests/data/compare: suppliers, pipelines and cities with
figures, units and coordinates): the question's grammar, each side's value, the decision, a side
read by the model as a step, and the answer cut to the span the question asks for."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.compare import Decision, Pending, decide, finish, shared_phrase
from edgerag.answer.comparison_question import parse_comparison, question_options
from edgerag.answer.reply import shortest
from edgerag.text.quantities import coordinates, quantities
from edgerag.types import Context, Unit

from .conftest import DATA
from .helpers import passage

CORPUS = DATA / "compare" / "corpus.jsonl"


def _units() -> list[Unit]:
    return [passage(r["id"], r["title"], r["text"]) for r in map(json.loads, CORPUS.read_text(encoding="utf-8").splitlines())]


def test_quantities_keep_their_unit_in_a_common_base():
    (m,) = [q for q in quantities("The tower is 381 m tall.")]
    assert m.dimension == "length" and m.value == 381
    miles, km = quantities("It runs 9 mi, not 12 km.")
    assert miles.value > km.value and miles.comparable(km)
    assert [(q.value, q.after.split()[0]) for q in quantities("about 1,500 species and three acts")] == [(1500, "species"), (3, "acts")]
    assert quantities("12.4 million inhabitants")[0].value == 12_400_000
    assert quantities("It was laid in 1998.") == []  # a year is a date, not a quantity
    assert coordinates("Porto (41°09′N 8°37′W) is a city") == pytest.approx((41.15, -8.6167), abs=1e-3)
    assert coordinates("at 40.7128, -74.0060.") == (40.7128, -74.006)
    assert coordinates("a city in Portugal") is None


@pytest.mark.parametrize(
    ("question", "kind", "attribute", "larger"),
    [
        ("Which band has more members, Letters to Cleo or Screaming Trees?", "quantity", "members", True),
        ("Which tennis player won more Grand Slam titles, Henri Leconte or Jonathan Stark?", "quantity", "Grand Slam titles", True),
        ("Which supplier delivered fewer valves, Orland Fittings or Castell Hydraulics?", "quantity", "valves", False),
        ("Which city has a larger population, Tampere or Porto?", "quantity", "population", True),
        ("Which is taller, the Empire State Building or the Bank of America Tower?", "quantity", "tall", True),
        ("Which tower is shorter, Aa Tower or Bb Tower?", "quantity", "short", False),
        ("Which city is further south, Tampere or Porto?", "place", "south", False),
        ("Which city lies farther north, Tampere or Porto?", "place", "north", True),
        ("Which city is closer to Leeds, Tampere or Porto?", "place", "distance", False),
        ("Were Scott Derrickson and Ed Wood of the same nationality?", "same", "nationality", True),
        ("Are Giuseppe Verdi and Ambroise Thomas both Opera composers?", "both", "Opera composers", True),
        ("Are both Dictyosperma, and Huernia described as a genus?", "both", "genus", True),
        ("What do Kate Moss and Brian Aldiss have in common?", "common", "", True),
    ],
)
def test_the_question_says_what_is_compared_and_which_end_wins(question, kind, attribute, larger):
    q = parse_comparison(question)
    assert q is not None and (q.kind, q.attribute, q.larger) == (kind, attribute, larger), q


def test_options_without_a_comma_and_questions_that_compare_nothing_written():
    assert question_options("Which magazine was started first Arthur's Magazine or First for Women?") == [
        "Arthur's Magazine",
        "First for Women",
    ]
    assert question_options("who is younger Keith Bostic or Jerry Glanville ?") == ["Keith Bostic", "Jerry Glanville"]
    assert parse_comparison("Which is better, Aa or Bb?") is None  # "better" measures nothing a passage writes
    assert parse_comparison("Who directed Alien or Aliens?") is None
    assert parse_comparison("What is the capital of Finland?") is None


@pytest.mark.parametrize(
    ("question", "answer", "cited"),
    [
        ("Which supplier delivered more valves, Orland Fittings or Castell Hydraulics?", "Orland Fittings", {"orland", "castell"}),
        ("Which supplier delivered fewer valves, Orland Fittings or Castell Hydraulics?", "Castell Hydraulics", {"orland", "castell"}),
        # 12 km against 9 mi (14.5 km): the units differ, the lengths are compared
        ("Which pipeline is longer, the Linden pipeline or the Brook pipeline?", "the Brook pipeline", {"linden-pipe", "brook-pipe"}),
        ("Which city is further south, Tampere or Porto?", "Porto", {"tampere", "porto"}),
        ("Which city is further north, Tampere or Porto?", "Tampere", {"tampere", "porto"}),
        ("Which city is closer to Leeds, Tampere or Porto?", "Porto", {"tampere", "porto"}),  # 1,502 km against 1,717
        ("Are Orland Fittings and Castell Hydraulics from the same country?", "no", {"orland", "castell"}),
        ("Are Orland Fittings and Castell Hydraulics both makers of valves?", "yes", {"orland", "castell"}),
        ("Are the K-17 and the R-2 both valves?", "no", {"k17", "r2"}),
        ("What do the K-17 and the P-4 have in common?", "pressure valve", {"k17", "p4"}),
    ],
)
def test_decided_in_code_from_each_sides_own_passage(question, answer, cited):
    d = decide(question, _units())
    assert isinstance(d, Decision), d
    assert d.answer == answer, d.reason
    assert {u.chunk_id for u in d.units} == cited, d.reason


def test_a_side_code_cannot_read_is_a_step_for_the_model():
    # "employs 340 people" is read in code; "a staff of 410" names no employees: the model reads it
    question = "Which supplier has more employees, Orland Fittings or Castell Hydraulics?"
    pending = decide(question, _units())
    assert isinstance(pending, Pending) and pending.missing() == "Orland Fittings"
    units = _units()
    asked = []

    def retrieve(q: str) -> Context:
        return Context(query=q, method="text", budget=1000, units=[u for u in units if u.chunk_id == "orland"])

    def read(q: str, ctx: Context):
        asked.append(q)
        return type("A", (), {"short": "410", "citations": [], "context": ctx})()

    d = finish(pending, retrieve=retrieve, read=read)
    assert asked == ["How many employees does Orland Fittings have?"]
    assert d is not None and d.answer == "Orland Fittings" and "410 (read)" in d.reason and "340" in d.reason
    # a reply without a number decides nothing: the model reads the question whole
    pending = decide(question, _units())
    assert finish(pending, retrieve=retrieve, read=lambda q, c: type("A", (), {"short": "many", "citations": [], "context": c})()) is None


def test_what_two_categories_share():
    assert shared_phrase("American film director and screenwriter", "American actor and film director") == "film director"
    assert shared_phrase("steel pressure valve", "brass pressure valve") == "pressure valve"
    assert shared_phrase("Norwegian politician", "Norwegian skier", "nationality") == "Norwegian"
    assert shared_phrase("genus of cacti", "city in Finland") == ""


@pytest.mark.parametrize(
    ("short", "question", "trimmed"),
    [
        ("4 February 1948", "In what year was the novel first published?", "1948"),
        ("4 February 1948", "When was the novel first published?", "4 February 1948"),  # the day was asked
        ("Tampere, Finland", "In which city is Orland Fittings headquartered?", "Tampere"),
        ("Tampere, Pirkanmaa, Finland", "Which country is Tampere in?", "Finland"),
        ("Honolulu, Hawaii", "Where was he born?", "Honolulu, Hawaii"),  # "where" asks the place as written
        ("J. Smith", "Who wrote it?", "John Smith"),
    ],
)
def test_the_shortest_right_answer(short, question, trimmed):
    assert shortest(short, question, ["The book was written by John Smith in 1990."]) == trimmed


def test_a_title_is_a_name_and_is_never_cut():
    asked = "Which Australian city founded in 1838 contains a boarding school?"
    assert shortest("Marion, South Australia", asked, [], ["Marion, South Australia"]) == "Marion, South Australia"
    assert shortest("Marion, South Australia", asked, [], ["Adelaide"]) == "Marion"


def test_a_relation_between_two_things_is_left_to_the_model():
    # the directors' countries, not the films': a hop this kind does not make
    assert parse_comparison("Do both films: Mr. Arkadin and Kick-Ass 2 (Film) have the directors from the same country?") is None


@pytest.mark.model
def test_comparisons_through_the_api_with_the_real_model(tmp_path):
    rag = EdgeRAG(tmp_path / "index", Settings(progress=False))
    rag.insert([CORPUS])
    # different units, decided in code: no model call, both passages cited
    q = "Which pipeline is longer, the Linden pipeline or the Brook pipeline?"
    plan = rag.plan_answer(q, rag.retrieve(q))
    assert plan.decision is not None and "compared in code" in plan.summary()
    ans = rag.query(q)
    assert ans.short == "the Brook pipeline" and {"linden-pipe", "brook-pipe"} <= {c.doc_id for c in ans.citations}
    assert "9 mi" in ans.reason and "12 km" in ans.reason
    # a side the real model reads as a step ("a staff of 410"), then decided in code
    q = "Which supplier has more employees, Orland Fittings or Castell Hydraulics?"
    plan = rag.plan_answer(q, rag.retrieve(q))
    assert plan.comparison is not None and "Orland Fittings" in plan.summary()
    ans = rag.query(q)
    assert ans.short == "Orland Fittings", ans.reason
    assert "(read)" in ans.reason and {"orland", "castell"} <= {c.doc_id for c in ans.citations}, ans.citations
    assert ans.tokens["input"] + ans.tokens["cached_input"] > 0  # the model read the step
    # a yes/no on categories and a place from coordinates
    assert rag.query("Are Orland Fittings and Castell Hydraulics from the same country?").short == "no"
    far = rag.query("Which city is further south, Tampere or Porto?")
    assert far.short == "Porto" and {"tampere", "porto"} <= {c.doc_id for c in far.citations}
    rag.close()
