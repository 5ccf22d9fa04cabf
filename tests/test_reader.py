"""The reader (answer/): defaults, the answer budget, prompt formats, candidate answers and
the choice-constrained decoding, on the real default model where a model is involved."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.candidates import all_candidates, candidates, capitalised_runs, options
from edgerag.answer.plan import asks_for_fact, build_messages, plan_answer, resolve_mode, within_budget
from edgerag.llm.local import ChoiceTrie
from edgerag.types import Unit

from .conftest import PLANTED_QUESTION, REPO


def _unit(i: int, text: str, tokens: int = 10, title: str = "") -> Unit:
    return Unit("chunk", f"c{i}", text, tokens, 1.0 / i, f"d{i}", f"c{i}", title=title)


# ---- defaults -----------------------------------------------------------------------------
def test_the_default_method_is_the_best_llm_free_retriever(index_copy):
    assert Settings().method == "bridge-ppr"
    rag = EdgeRAG(index_copy)
    ctx = rag.retrieve(PLANTED_QUESTION, budget=400)
    assert ctx.method == "bridge-ppr" and ctx.units
    assert rag.retrieve(PLANTED_QUESTION, method="text", budget=400).method == "text"
    with pytest.raises(ValueError, match="answer_mode"):
        EdgeRAG(index_copy, answer_mode="guess")


@pytest.mark.slow
def test_cli_query_uses_the_default_method(built_index):
    out = subprocess.run(
        [sys.executable, "-m", "edgerag.cli.main", "query", PLANTED_QUESTION, "--index", str(built_index), "--budget", "300", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert '"method": "bridge-ppr"' in out.stdout


# ---- questions and modes ------------------------------------------------------------------
@pytest.mark.parametrize(
    "question",
    [
        "Where was the father of Charles Mathew buried?",
        "Who directed Sleep, My Love?",
        "When did the director of film X die?",
        "Which film came out first, A or B?",
        "Are both bands from the same country?",
        "How many people live in Cork?",
        "What is the place of birth of the director of film Seeta?",
        "The arena where the Lewiston Maineiacs played their home games can seat how many people?",
        "This singer of A Rather Blustery Day also voiced what hedgehog?",
    ],
)
def test_fact_questions_get_a_short_answer(question):
    assert asks_for_fact(question) and resolve_mode("auto", question) == "short"


@pytest.mark.parametrize(
    "question",
    [
        "Summarise the report.",
        "Why did the bridge collapse?",
        "How does the index store vectors?",
        "What is edgerag?",
        "Explain the access rules of the vault",
        "Explain who may open the vault?",
        "How does the vault stay sealed, and who holds the code?",
    ],
)
def test_open_requests_get_a_long_answer(question):
    assert not asks_for_fact(question) and resolve_mode("auto", question) == "long"
    assert resolve_mode("short", question) == "short"
    with pytest.raises(ValueError, match="answer_mode"):
        resolve_mode("brief", question)


def test_prompt_formats_per_mode():
    units = [_unit(1, "It is a city.", title="Cork"), _unit(2, "James Mathew was buried in Cork.")]
    for mode, needle in (("choose", "copied from the passages"), ("short", "[4]"), ("long", "square brackets")):
        system, user = build_messages("Where?", units, mode)
        assert needle in system["content"]
        assert user["content"].startswith("Passages:\n[1] (Cork) It is a city.\n[2] James Mathew")
        assert user["content"].endswith("Question: Where?")


def test_the_answer_budget_keeps_the_best_units_in_order():
    units = [_unit(i, f"text {i}", tokens=t) for i, t in enumerate([900, 800, 400, 100], 1)]
    assert [u.id for u in within_budget(units, 2000)] == ["c1", "c2"]  # c3 would overflow: stop there
    assert [u.id for u in within_budget(units, 100)] == ["c1"]  # the best unit even when it alone is over
    assert within_budget([], 100) == []


# ---- candidates ---------------------------------------------------------------------------
def test_candidates_are_the_names_dates_and_numbers_as_written():
    passages = [
        "James Charles Mathew was buried in Cork, Ireland on 4 February 1908. He sat for Teaneck, New Jersey.",
        "The Zorblax vault opened in May 1887 and holds 3,677 seated guests and 6.8 inches of dust.",
    ]
    cands = all_candidates(passages + ["The code is tangerine-42."], "Which came first, the Vault of Ur or Zorblax?")
    for c in (
        "James Charles Mathew",
        "Cork",
        "Ireland",
        "Cork, Ireland",
        "4 February 1908",
        "Teaneck, New Jersey",
        "Zorblax",
        "May 1887",
        "3,677",
        "3,677 seated",
        "6.8 inches",
        "tangerine-42",
        "Vault of Ur",
        "yes",
        "no",
    ):
        assert c in cands, c
    assert "He" not in cands and "The Zorblax" not in cands  # sentence-initial stop words start no name
    assert "May" not in cands and "February" not in cands  # a month alone is no answer
    assert len(cands) == len({c.lower() for c in cands})  # distinct


def test_the_kind_of_question_narrows_the_candidates():
    passages = ["James Mathew was buried in Cork on 4 February 1908. He had 3 sons in Cork."]
    assert options("Which film came out later, The More The Merrier or Sleep, My Love?") == ["The More The Merrier", "Sleep, My Love"]
    assert candidates(passages, "Who was born first, Ann Lee or Bo Chan?") == ["Ann Lee", "Bo Chan"]
    assert candidates(passages, "Are both bands from Cork?") == ["yes", "no"]
    assert candidates(passages, "When did James Mathew die?") == ["4 February 1908", "1908"]
    assert "3 sons" in candidates(passages, "How many sons did he have?")
    where = candidates(passages, "Where was James Mathew buried?")
    assert "Cork" in where and "James Mathew" not in where and "yes" not in where


def test_capitalised_runs_keep_connectors_inside_names():
    assert capitalised_runs("She studied at the University of Texas at Austin.") == ["University of Texas", "Austin"]


# ---- choice-constrained decoding ----------------------------------------------------------
def test_choice_trie_allows_only_continuations_of_the_choices():
    end = [99]
    trie = ChoiceTrie([[5, 6], [5, 7, 8], [9]], end, start=3)
    assert sorted(trie.allowed([])) == [5, 9]
    assert sorted(trie.allowed([5])) == [6, 7]
    assert trie.allowed([5, 6]) == end and trie.allowed([9]) == end
    assert trie.allowed([5, 7]) == [8] and trie.allowed([4]) == end
    scores = np.arange(100, dtype=np.float32)
    out = trie(np.array([1, 2, 3, 5, 7]), scores.copy())  # prompt of 3 tokens, then 5, 7
    assert np.isfinite(out).sum() == 1 and out[8] == 8


@pytest.mark.model
def test_the_real_model_answers_with_one_of_the_choices(index_copy):
    """A chosen answer is one of the candidates of what it read, and is cached like any call."""
    rag = EdgeRAG(index_copy, answer_budget=600, answer_reader="passages")
    ctx = rag.retrieve(PLANTED_QUESTION, budget=3000)
    plan = rag.plan_answer("Which vault has the access code tangerine-42?", ctx, mode="choose")
    assert plan.mode == "choose" and plan.choices and "Edith Varga" in plan.choices
    assert plan.left_out == len(ctx.units) - len(plan.units) > 0  # the budget, not the window, cut it
    assert sum(u.tokens for u in plan.units) <= 600 or len(plan.units) == 1
    assert f"{plan.left_out} left out: answer budget 600 tokens" in plan.summary()
    ans = rag.answer(plan.question, ctx, plan=plan)
    assert ans.text in plan.choices, (ans.text, plan.choices[:20])
    assert ans.mode == "choose" and ans.dropped_units == plan.left_out
    assert all(c.how == "matched" for c in ans.citations)
    assert rag.answer(plan.question, ctx, plan=plan).cached
    assert plan_answer(rag.llm, plan.question, ctx, mode="choose", budget=600).expected_seconds > 0  # the ledger timed one


# ---- what a person meets ------------------------------------------------------------------
@pytest.mark.model
@pytest.mark.slow
def test_cli_answer_says_what_the_model_reads_and_exits_cleanly(index_copy):
    """The real model answers through the CLI; the plan is printed before the answer, and the
    model is closed before the interpreter exits (no "Exception ignored in Llama.__del__")."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "edgerag.cli.main",
            "query",
            PLANTED_QUESTION,
            "--index",
            str(index_copy),
            "--budget",
            "3000",
            "--answer-budget",
            "300",
            "--answer",
            "--answer-mode",
            "choose",
            "-q",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "Exception ignored" not in out.stderr and "Traceback" not in out.stderr, out.stderr
    plan_line = next(line for line in out.stdout.splitlines() if line.startswith("the model reads"))
    assert "left out: answer budget 300 tokens" in plan_line and "candidate answers" in plan_line
    assert out.stdout.index("the model reads") < out.stdout.index("answer: ")
    assert "tangerine-42" in out.stdout.split("answer: ", 1)[1].splitlines()[0]


def test_the_tui_opens_with_the_cursor_in_the_question_box(index_copy):
    import asyncio

    from tui.app import EdgeRAGApp

    async def run():
        app = EdgeRAGApp(index_copy)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.focused is not None and app.focused.id == "question"
            await pilot.press("h", "i")
            assert app.focused.value == "hi"

    asyncio.run(run())
