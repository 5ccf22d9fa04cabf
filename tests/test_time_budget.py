"""The answer's time budget (issue #41): this machine's measured speeds (speeds.py), the plan that
turns seconds into tokens of evidence (answer/plan.py), and the chain that takes a further step
only while one fits (answer/chain.py). A scripted model stands in for a slow one: what is under
test is the arithmetic and the control flow; the real model's speeds are measured by
benchmarks/answers.py."""

from __future__ import annotations

import pytest

from edgerag.answer import chain as chain_module
from edgerag.answer.plan import MIN_READ_TOKENS, plan_answer
from edgerag.answer.read import Answer
from edgerag.answer.steps import Bridge
from edgerag.llm.metered import MeteredLLM
from edgerag.llm.speeds import Speeds
from edgerag.store.tables import Tables
from edgerag.types import Context, Unit

from .helpers import ScriptedLLM

SLOW = Speeds(prompt=44.0, generation=18.9)  # the 2-core AVX2 host of the issue, 0.5B model
FAST = Speeds(prompt=197.0, generation=50.0)


class TimedLLM(ScriptedLLM):
    """A scripted model with measured speeds, as `LocalLLM.speeds` gives them."""

    def __init__(self, measured: Speeds | None):
        super().__init__([])
        self.measured = measured

    def speeds(self):
        return self.measured


def _context(n: int = 40) -> Context:
    units = [
        Unit("chunk", f"c{i}", " ".join(["word"] * 45) + f" fact {i}.", 50, 1.0 - i / 100, f"d{i}", f"c{i}", title=f"T{i}")
        for i in range(n)
    ]
    return Context(query="Where was the author of Book X born?", method="text", budget=2000, units=units)


@pytest.fixture
def tables(tmp_path):
    t = Tables(str(tmp_path / "lmdb"), map_size=1 << 26)
    yield t
    t.close()


def _plan(tables, measured, seconds, budget=500):
    llm = MeteredLLM(TimedLLM(measured), tables)
    return plan_answer(llm, "Where was the author of Book X born?", _context(), mode="short", budget=budget, seconds=seconds)


def test_the_plan_fits_the_time_budget_on_a_slow_machine(tables):
    plan = _plan(tables, SLOW, 8.0)
    assert plan.time_cut > 0 and not plan.too_slow and plan.reads == 1
    assert plan.answer_seconds is not None and plan.answer_seconds <= 8.0
    assert plan.units and sum(u.tokens for u in plan.units) <= 500 - plan.time_cut
    assert "about" in plan.summary() and "budget 8 s" in plan.summary() and "fewer to keep it" in plan.summary()


def test_a_chain_question_shares_the_budget_among_its_reads(tables):
    llm = MeteredLLM(TimedLLM(SLOW), tables)
    step = Bridge(10, 30, "the author of Book X", "Who is the author of Book X?", "of", "author", "Book X")
    plan = plan_answer(
        llm, "Where was the author of Book X born?", _context(), mode="short", budget=500, seconds=15.0, chain=lambda q, units: step
    )
    alone = _plan(tables, SLOW, 15.0)
    assert plan.chain is step and plan.reads == 2 and plan.answer_seconds <= 15.0
    assert sum(u.tokens for u in plan.units) < sum(u.tokens for u in alone.units)  # each read gets its share


def test_a_few_percent_of_speed_drift_leaves_the_read_as_it_was(tables):
    # The speeds at rest may drift a little as calls alone on the cores raise them. The same
    # question must get the same evidence (the same prompt, served from the LLM cache).
    plans = [_plan(tables, Speeds(prompt=44.0 * f, generation=18.9), 8.0) for f in (1.0, 1.02, 0.985)]
    assert plans[0].time_cut > 0 and plans[0].time_cut % 50 == 0
    assert len({tuple(u.chunk_id for u in p.units) for p in plans}) == 1
    assert len({p.budget for p in plans}) == 1


def test_a_fast_machine_reads_the_whole_answer_budget(tables):
    plan = _plan(tables, FAST, 15.0)
    assert plan.time_cut == 0 and sum(u.tokens for u in plan.units) == 500
    assert plan.answer_seconds <= 15.0


def test_a_question_read_whole_reads_both_hops_where_time_allows_and_a_chain_step_one(tables):
    llm = MeteredLLM(TimedLLM(FAST), tables)
    question, ctx = "Where was the author of Book X born?", _context()
    whole = plan_answer(llm, question, ctx, mode="short", budget=500, seconds=15.0, whole_budget=1000)
    assert whole.time_cut == 0 and sum(u.tokens for u in whole.units) == 1000 and whole.answer_seconds <= 15.0
    step = Bridge(10, 30, "the author of Book X", "Who is the author of Book X?", "of", "author", "Book X")
    chained = plan_answer(llm, question, ctx, mode="short", budget=500, seconds=15.0, whole_budget=1000, chain=lambda q, u: step)
    assert chained.chain is step and sum(u.tokens for u in chained.units) == 500  # a step reads one hop
    slow = plan_answer(MeteredLLM(TimedLLM(SLOW), tables), question, ctx, mode="short", budget=500, seconds=15.0, whole_budget=1000)
    assert slow.time_cut > 0 and sum(u.tokens for u in slow.units) < 1000 and slow.answer_seconds <= 15.0  # time cuts first
    fewer = plan_answer(llm, question, ctx, mode="short", budget=500, seconds=15.0, whole_budget=lambda: 300)
    assert sum(u.tokens for u in fewer.units) == 300  # a whole budget below the answer budget is kept too


def test_no_budget_or_no_measurement_reads_the_answer_budget(tables):
    for measured, seconds in ((SLOW, None), (None, 15.0)):
        plan = _plan(tables, measured, seconds)
        assert plan.time_cut == 0 and sum(u.tokens for u in plan.units) == 500


def test_a_budget_too_short_for_any_read_reads_the_minimum_and_says_so(tables):
    plan = _plan(tables, SLOW, 2.0)
    assert plan.too_slow and plan.units and sum(u.tokens for u in plan.units) <= MIN_READ_TOKENS
    assert "read at that minimum" in plan.summary()


def test_a_chain_takes_a_further_step_only_while_it_and_the_last_read_fit(monkeypatch):
    """Three steps would be asked; at 6 s a read in a 15 s budget the first step and the final
    read fit, a second step does not: the question left is read as it stands."""
    clock = [0.0]
    monkeypatch.setattr(chain_module.time, "perf_counter", lambda: clock[0])
    asked = []

    def read(q, ctx, on_text=None):
        clock[0] += 6.0
        asked.append(q)
        return Answer(
            question=q, text=f"Name{len(asked)}", short=f"Name{len(asked)}", citations=[], context=ctx, dropped_units=0, tokens={}
        )

    def retrieve(q):
        return Context(query=q, method="text", budget=100, units=[])

    def next_bridge(question, units, lookup=None, answers=None):
        at = question.find("the author of")
        if at < 0:
            return None
        end = at + len("the author of Book X")
        return Bridge(at, end, question[at:end], "Who is the author of Book X?", "of", "author", "Book X")

    monkeypatch.setattr(chain_module, "next_bridge", next_bridge)
    question = "Where was the author of Book X born, and the author of Book X's friend?"
    first = next_bridge(question, [])
    got = chain_module.answer_chain(question, first, retrieve=retrieve, read=read, relations=False, seconds=15.0, read_seconds=6.0)
    assert got is not None and len(asked) == 2  # one step, then the final read of what was left
    assert asked[1].startswith("Where was Name1 born") and "the author of Book X" in asked[1]
    clock[0], asked[:] = 0.0, []
    chain_module.answer_chain(question, first, retrieve=retrieve, read=read, relations=False)  # no budget: every step
    assert len(asked) == 3
    # Served by the LLM cache the reads take no time, yet by their cost (the seconds their tokens
    # take here) the same steps are taken: a question asked again gets the same answer.
    monkeypatch.setattr(chain_module.time, "perf_counter", lambda: 0.0)
    asked[:] = []
    chain_module.answer_chain(
        question, first, retrieve=retrieve, read=read, relations=False, seconds=15.0, read_seconds=6.0, cost=lambda a: 6.0
    )
    assert len(asked) == 2


@pytest.mark.model
def test_the_real_model_is_timed_here_and_the_plan_says_how_long(index_copy, tmp_path, monkeypatch):
    """With the real model: the first plan probes this machine's speeds, a real call joins
    them, and the plan line gives the estimate against the budget."""
    from edgerag import EdgeRAG

    from .conftest import PLANTED_QUESTION

    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path))  # nothing measured here yet
    monkeypatch.delenv("EDGERAG_ANSWER_SECONDS")  # conftest's "none" would replace a default 15
    rag = EdgeRAG(index_copy, answer_seconds=15.0)
    ctx = rag.retrieve(PLANTED_QUESTION, budget=3000)
    plan = rag.plan_answer(PLANTED_QUESTION, ctx)
    measured = rag.answer_llm.speeds()
    assert measured is not None and measured.prompt > 0 and measured.generation > 0 and measured.calls == 0
    assert plan.expected_seconds == pytest.approx(measured.seconds(plan.prompt_tokens, 12))
    assert f"about {plan.answer_seconds:.0f} s" in plan.summary() and "budget 15 s" in plan.summary()
    ans = rag.answer(PLANTED_QUESTION, ctx, plan=plan)
    assert "tangerine-42" in ans.short
    after = rag.answer_llm.speeds()  # the call was measured: alone on the cores it is a sample, beside other work it is set aside
    assert after.calls + after.shared == 1 and after.prompt >= measured.prompt


def test_the_budget_comes_from_the_environment_when_left_at_its_default(tmp_path, monkeypatch):
    from edgerag import EdgeRAG

    monkeypatch.setenv("EDGERAG_ANSWER_SECONDS", "8")
    assert EdgeRAG(tmp_path / "a").settings.answer_seconds == 8.0
    assert EdgeRAG(tmp_path / "a", answer_seconds=30.0).settings.answer_seconds == 30.0  # said explicitly
    monkeypatch.setenv("EDGERAG_ANSWER_SECONDS", "none")
    assert EdgeRAG(tmp_path / "a").settings.answer_seconds is None
    monkeypatch.setenv("EDGERAG_ANSWER_SECONDS", "soon")
    with pytest.raises(ValueError, match="EDGERAG_ANSWER_SECONDS"):
        EdgeRAG(tmp_path / "a")
    monkeypatch.setenv("EDGERAG_ANSWER_SECONDS", "-3")
    with pytest.raises(ValueError, match="answer_seconds must be positive"):
        EdgeRAG(tmp_path / "a")


def test_a_question_asking_arithmetic_is_read_whole_not_chained(tables):
    """ "What percent of total goodwill is the goodwill from the purchase of Agiletics?": a chain
    step would put a number in the question and let the model compute; read whole, the check
    (answer/derived.py) holds the model to a number the documents state."""
    llm = MeteredLLM(TimedLLM(SLOW), tables)
    step = Bridge(39, 67, "the purchase of Agiletics", "What is the purchase of Agiletics?", "of", "purchase", "Agiletics")
    question = "What percent of total goodwill is the goodwill from the purchase of Agiletics?"
    plan = plan_answer(llm, question, _context(), mode="short", budget=500, seconds=15.0, chain=lambda q, units: step)
    assert plan.chain is None and plan.reads == 1


def test_a_chain_question_naming_an_average_but_no_operands_is_still_chained(tables):
    """ "the usual average snowfall in the city where …" names no periods or things to average:
    the average is a value a passage states, so the question is read hop by hop (MuSiQue dev
    lost a right answer when every 'average' was read whole)."""
    llm = MeteredLLM(TimedLLM(SLOW), tables)
    step = Bridge(53, 78, "the performers of Brother", "Who are the performers of Brother?", "of", "performers", "Brother")
    question = "What is the usual average snowfall in the city where the performers of Brother were formed?"
    plan = plan_answer(llm, question, _context(), mode="short", budget=500, seconds=15.0, chain=lambda q, units: step)
    assert plan.chain is step and plan.reads == 2


def test_a_users_own_case_is_read_whole_not_chained(tables):
    """ "I'm the director … What was HMRC's official rate of interest in 2020?": the chain's
    steps are found in the question proper, blind to the situation that says which process is
    asked; the user's case is read whole (and checked, as a chain's last read is not)."""
    llm = MeteredLLM(TimedLLM(SLOW), tables)
    step = Bridge(9, 24, "HMRC's official", "Who is HMRC's official?", "possessive", "official", "HMRC")
    question = "I'm the director of my company and borrowed £12,000 from it. What was HMRC's official rate of interest in 2020?"
    plan = plan_answer(llm, question, _context(), mode="short", budget=500, seconds=15.0, chain=lambda q, units: step)
    assert plan.chain is None and plan.reads == 1
    plain = "What was HMRC's official rate of interest in 2020?"
    assert plan_answer(llm, plain, _context(), mode="short", budget=500, seconds=15.0, chain=lambda q, units: step).chain is step
