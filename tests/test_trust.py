"""Answers a user can trust (issue #56), through the API with the real 0.5B model on real
indexes: the bundled sample's four questions of the issue, and a small written corpus of office
documents (tests/data/trust) whose questions need a number bound to its subject, a role, and a
"the documents do not say"."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG, Settings

from .conftest import DATA

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    rag = EdgeRAG(tmp_path_factory.mktemp("trust") / "index", Settings(progress=False))
    rag.insert([DATA / "trust"])
    yield rag
    rag.close()


def test_the_sample_answers_the_father_his_dates_and_says_what_it_does_not_know(index_copy):
    rag = EdgeRAG(index_copy, Settings(progress=False))
    try:
        father = rag.query("Who was the father of Charles Mathew?")
        assert "James Charles Mathew" in father.short and not father.abstained
        assert father.tokens["input"] == 0  # the relation asked is the answer: no second hop, no model call
        born = rag.query("When was James Charles Mathew born?")
        died = rag.query("When did James Charles Mathew die?")
        assert "1830" in born.short and "1908" in died.short
        assert [c.title for c in died.citations] == ["James Charles Mathew"]
        unknown = rag.query("In what year did James Charles Mathew marry?")
        assert unknown.abstained and unknown.short == "" and unknown.citations == []
        assert unknown.text == "The documents do not say."
        assert unknown.closest and all(c.how == "closest" and c.sentence for c in unknown.closest)
    finally:
        rag.close()


def test_a_number_is_bound_to_its_subject_in_a_list(office):
    ans = office.query("How many staff did the institute employ at York at the end of 2023?")
    assert ans.short.startswith("25") and not ans.abstained
    assert any(c.how in ("cited", "matched") for c in ans.citations)


def test_a_question_whose_answer_no_document_holds_is_said_so(office):
    for question in ("Who is the institute's data protection officer?", "In what year did Ana Ruiz leave the institute?"):
        ans = office.query(question)
        assert ans.abstained, (question, ans.short, ans.reason)
        assert ans.citations == [] and ans.text == "The documents do not say."


def test_an_answer_of_the_kind_asked(office):
    ans = office.query("What position did Ana Ruiz take up in 2021?")
    assert ans.abstained or "head of facilities" in ans.short.lower(), (ans.short, ans.rules)
    assert ans.short.lower() not in ("ana ruiz", "dr ana ruiz")


def test_minutes_lists_decide_attendance_and_a_role_is_not_read_from_a_cv(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "minutes-2025-05.md").write_text(
        "# Minutes of the board meeting, 12 May 2025\n\nPresent: Rosa Kemp (Chair), Ian Vale, Dr Hugo Lang (Director).\n\n"
        "Apologies: Mira Osei.\n\nThe board approved a cleanroom budget of 1.2 million GBP.\n",
        encoding="utf-8",
    )
    (docs / "cv-tom-birch.md").write_text(
        "# CV: Dr Tom Birch\n\nDr Tom Birch: Head of Analytical Services, Northfield Materials Institute, Leeds.\n\n"
        "He joined the institute in 2019 from the University of York.\n",
        encoding="utf-8",
    )
    rag = EdgeRAG(tmp_path / "index", Settings(progress=False))
    try:
        rag.insert([docs])
        absent = rag.query("Was Mira Osei present at the board meeting of 12 May 2025?")
        assert absent.short == "no" and absent.tokens["input"] == 0, (absent.short, absent.reason)  # the list decides, in code
        assert "Apologies" in absent.reason
        director = rag.query("Who is the Director of Northfield Materials Institute?")
        # his CV names another role, and the list names the Director in Dr Hugo Lang's own item: right, or said not held
        assert director.abstained or "Hugo Lang" in director.short, (director.short, director.rules)
    finally:
        rag.close()
