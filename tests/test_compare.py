"""Comparisons of dates decided in code (answer/compare.py): the parsers on their own, the decision on
real passages of the bundled sample, and through the API on a real index, where the answer
comes without a model call and cites the passages it read."""

from __future__ import annotations

import json

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.compare import decide
from edgerag.answer.comparison_question import parse_comparison
from edgerag.answer.relations import related_people
from edgerag.text.dates import When, dates, person_dates, thing_date
from edgerag.types import Unit

from .conftest import SAMPLE
from .helpers import passage

YOUNGER = 'Which film whose director is younger, I Cannot Say "Farewell" or Tanjuska And The 7 Devils?'
"""A bundled sample question: both films name their director, both directors have a passage."""


def _sample(titles: list[str]) -> list[dict]:
    records = [json.loads(line) for line in (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    return [next(r for r in records if r["title"] == t) for t in titles]


def _unit(rec: dict) -> Unit:
    return passage(rec["id"], rec["title"], rec["text"])


YOUNGER_PASSAGES = ['I Cannot Say "Farewell"', "Tanjuska and the 7 Devils", "Boris Durov", "Pirjo Honkasalo"]


def test_dates_keep_the_precision_the_text_has():
    assert [(d.year, d.month, d.day) for d in dates("( December 18, 1904 – March 8, 1975) and 26 April 1897, May 1887, 1963")] == [
        (1904, 12, 18),
        (1975, 3, 8),
        (1897, 4, 26),
        (1887, 5, 0),
        (1963, 0, 0),
    ]
    assert When(1950, 5, 3).before(When(1950, 6, 1)) is True
    assert When(1950).before(When(1950, 6, 1)) is None  # same year, and one has no month: undecided
    assert When(1949, 12, 31).before(When(1950)) is True


def test_a_persons_lifespan_and_a_things_date():
    assert person_dates("Douglas Sirk( born Hans Detlef Sierck; 26 April 1897 – 14 January 1987) was a German director.") == (
        When(1897, 4, 26),
        When(1987, 1, 14),
    )
    born, died = person_dates("Pirjo Irene Honkasalo (born 22 February 1947) is a Finnish film director.")
    assert born == When(1947, 2, 22) and died is None
    assert person_dates("Ann Roe was a painter. She was born in Leeds in 1901 and died on 3 May 1950 in York.") == (
        When(1901),
        When(1950, 5, 3),
    )
    assert thing_date("The More the Merrier is a 1943 American comedy film made by Columbia Pictures.") == When(1943)
    assert thing_date("Arthur's Magazine (1844–1846) was an American literary periodical.") == When(1844)
    assert thing_date("First for Women is a woman's magazine. The magazine was started in 1989 by Bauer.") == When(1989)
    assert thing_date("Thai Mozhi( lit. Mother Tongue) is a 1992 Tamil action film.") == When(1992)


@pytest.mark.parametrize(
    ("question", "date", "earlier", "relation"),
    [
        ("Which film has the director who died later, The More The Merrier or Sleep, My Love?", "death", False, "director"),
        (YOUNGER, "birth", False, "director"),
        ("Which film has the director who is older than the other, Paattinte Palazhy or Calling The Tune?", "birth", True, "director"),
        ("Who died earlier, Chiang Chung-Ling or George Andreadis?", "death", True, None),
        ("Which film was released more recently, Brudebuketten or Clownery?", "thing", False, None),
        ("Which magazine was started first, Arthur's Magazine or First for Women?", "thing", True, None),
        ("Which song has the performer who was born first, Hello or Yesterday?", "birth", True, "performer"),
    ],
)
def test_the_question_says_which_date_and_which_end_wins(question, date, earlier, relation):
    q = parse_comparison(question)
    assert q is not None and (q.date, q.earlier, q.relation) == (date, earlier, relation)


@pytest.mark.parametrize(
    "question",
    [
        "Which is more famous, the Nile or the Amazon?",  # nothing a passage writes as a value
        "Where was the director of film Léonor born?",  # no options
        "Who directed Alien or Aliens?",  # options, but no comparison
    ],
)
def test_other_questions_are_left_to_the_model(question):
    assert parse_comparison(question) is None


def test_the_relations_person_is_the_name_after_by():
    assert related_people(
        "director", "Heinz in the Moon is a 1934 German comedy film directed by Robert A. Stemmle and starring Heinz Rühmann."
    )[0] == ("Robert A. Stemmle")
    assert "Pirjo Honkasalo" in related_people(
        "director", "Tanjuska is a 1993 documentary film by Finnish director Pirjo Honkasalo about a girl."
    )
    assert related_people("director", "Malibu Express is a film. It was directed, written, and produced by Andy Sidaris and it is fun.")[
        0
    ] == ("Andy Sidaris")
    assert related_people("director", "Gold for the Caesars is a 1963 peplum film starring Jeffrey Hunter.") == []


def test_a_bridge_comparison_decided_on_the_sample_passages():
    units = [_unit(r) for r in _sample(YOUNGER_PASSAGES)]
    d = decide(YOUNGER, units)
    assert d is not None and d.answer == "Tanjuska And The 7 Devils"
    assert [u.title for u in d.units] == YOUNGER_PASSAGES[:1] + YOUNGER_PASSAGES[2:3] + YOUNGER_PASSAGES[1:2] + YOUNGER_PASSAGES[3:]
    assert "Boris Durov" in d.reason and "12 March 1937" in d.reason and "22 February 1947" in d.reason
    # "older" is the other option, from the same dates
    assert decide(YOUNGER.replace("younger", "older"), units).answer == 'I Cannot Say "Farewell"'
    # a director without a passage, or a film that names none: no decision, the model answers
    assert decide(YOUNGER, units[:3]) is None
    assert decide(YOUNGER, units, lookup=lambda name: []) is not None  # the context alone suffices here
    lookup_only = decide(YOUNGER, units[:2], lookup=lambda name: [u for u in units if u.title == name])
    assert lookup_only is not None and lookup_only.answer == "Tanjuska And The 7 Devils"


def test_equal_dates_decide_nothing():
    a = passage("a", "Ann Roe", "Ann Roe (1 May 1900 – 2 June 1950) was a painter.")
    b = passage("b", "Bo Lin", "Bo Lin (born 1900) was a poet.")
    assert decide("Who was born first, Ann Roe or Bo Lin?", [a, b]) is None
    assert decide("Who was born later, Ann Roe or Bo Lin?", [a, b]) is None


@pytest.fixture
def with_films(index_copy, tmp_path) -> EdgeRAG:
    """The session index plus the two films and two directors of `YOUNGER`, from the sample."""
    corpus = tmp_path / "films.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in _sample(YOUNGER_PASSAGES)), encoding="utf-8")
    rag = EdgeRAG(index_copy, Settings(progress=False))
    rag.insert([corpus])
    yield rag
    rag.close()


def test_the_api_answers_a_comparison_without_the_model(with_films):
    """No model is loaded at all (the `model` marker's fixture would say so)."""
    rag = with_films
    ctx = rag.retrieve(YOUNGER, budget=2000)
    plan = rag.plan_answer(YOUNGER, ctx)
    assert plan.decision is not None and plan.prompt_tokens == 0 and plan.reader == "compare"
    assert "no model call" in plan.summary() and "Boris Durov" in plan.summary()
    rows = len(rag.ledger_rows())
    streamed: list[str] = []
    ans = rag.answer(YOUNGER, ctx, plan=plan, on_text=streamed.append)
    assert ans.short == "Tanjuska And The 7 Devils" and "".join(streamed) == ans.text
    assert len(rag.ledger_rows()) == rows, "a comparison decided in code calls no model"
    assert {c.title for c in ans.citations} == set(YOUNGER_PASSAGES) and all(c.how == "cited" for c in ans.citations)
    assert ans.reason == plan.decision.reason


@pytest.mark.model
def test_with_comparisons_off_the_model_reads_the_evidence(with_films):
    rag = with_films
    rag.configure(answer_hops=False)
    plan = rag.plan_answer(YOUNGER, rag.retrieve(YOUNGER, budget=2000))
    assert plan.decision is None and plan.reader == "evidence" and plan.prompt_tokens > 0
    assert plan.choices == ['I Cannot Say "Farewell"', "Tanjuska And The 7 Devils"]
