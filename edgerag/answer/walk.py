"""A question's walk through its `ReadPlan`, top to bottom (`answer_planned`, what
`EdgeRAG.answer` calls once the plan is made):

1. a chain question hop by hop (chain.py `answer_chain`), when the plan names its first step;
2. else, or when the chain's first step gets no usable answer, a comparison's missing sides read
   as steps, then decided in code (chain.py `answer_comparison`);
3. else, or when a side is still missing, the question read whole (read.py `answer_question`),
   the reason saying which side was missing.

Each step of a chain or a comparison is retrieved with the context's method at the λ a read
needs (`STEP_CONTEXT` × the answer budget, not the question's λ), and read whole by the short
reader in its share of the time budget (`step_reader`). The index's parts come in a `Reader`
(api.py passes its own retrieval, plan and name lookup): this module knows nothing of the index.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..llm.metered import MeteredLLM
from ..types import Context, Unit
from .budget import read_cost
from .chain import STEP_CONTEXT, Step, answer_chain, answer_comparison
from .plan import READ_OVERHEAD_S, ReadPlan
from .read import Answer, answer_question
from .steps import Bridge


@dataclass(frozen=True)
class Reader:
    """What a question's walk reads with (api.py passes the index's own)."""

    llm: MeteredLLM
    """The answering model: every read, and its measured speeds (what a read costs a chain)."""
    retrieve: Callable[..., Context]
    """``retrieve(query, method=, budget=)``: the index's retrieval, for a step's question."""
    plan: Callable[..., ReadPlan]
    """``plan(question, context, mode=, seconds=)``: a plan that reads the question whole, no
    steps (`EdgeRAG.plan_answer` with ``steps=False``)."""
    lookup: Callable[[str], list[Unit]] | None
    """A name's passages, for a step made in code (`EdgeRAG.passages_named`)."""
    answer_budget: int
    """Tokens a read reads (``answer_budget``): a step retrieves `STEP_CONTEXT` times it."""
    max_tokens: int
    """Tokens an answer may write (``answer_max_tokens``)."""
    relations: bool = True
    """A chain's step through a known relation made in code (``answer_hops``)."""
    check: bool = True
    """Each read's short answer checked against what it stands on (``answer_check``, check.py)."""
    rule_check: bool = True
    """A rule's yes/no read again from the rule's sentence (``answer_rule_check``, rule_check.py)."""
    rule_items: bool = True
    """A rule's listed items decided for the situation (``answer_rule_items``, conditions_met.py)."""
    model_check: bool = True
    """A prose short answer's sentence asked of, yes or no (``answer_model_check``, model_check.py)."""


def answer_planned(
    reader: Reader, question: str, context: Context, plan: ReadPlan, *, on_text: Callable[[str], None] | None = None
) -> Answer:
    """Answer ``question`` from ``context`` as ``plan`` says (the module doc): its chain, else its
    pending comparison, else the question read whole; ``on_text`` streams the last read's tokens."""
    if plan.chain is not None:
        ans = _chain(reader, question, context, plan, on_text)
        if ans is not None:
            return ans
    note = ""
    if plan.comparison is not None:
        retrieve, read = step_reader(reader, context, plan)
        ans, note = answer_comparison(plan, context, retrieve=retrieve, read=read, on_text=on_text)
        if ans is not None:
            return ans
    ans = answer_question(
        reader.llm,
        question,
        context,
        plan=plan,
        max_tokens=reader.max_tokens,
        on_text=on_text,
        check=reader.check,
        rule_check=reader.rule_check,
        rule_items=reader.rule_items,
        model_check=reader.model_check,
    )
    if note:
        ans.reason = "; ".join(x for x in (note, ans.reason) if x)
    return ans


def step_reader(reader: Reader, context: Context, plan: ReadPlan):
    """(retrieve, read) for a step of ``plan``: retrieved with the context's method at the λ a
    read needs (`STEP_CONTEXT` × the answer budget, at most the context's own), read whole by the
    short reader in its share of the time budget."""
    share = plan.seconds / plan.reads if plan.seconds else None

    def retrieve(q: str) -> Context:
        return reader.retrieve(q, method=context.method, budget=min(context.budget, STEP_CONTEXT * reader.answer_budget))

    def read(q: str, ctx: Context, on_text=None) -> Answer:
        step_plan = reader.plan(q, ctx, mode="short", seconds=share)
        # a step's answer feeds the next hop, and the question's last read is checked: a step is not
        return answer_question(reader.llm, q, ctx, plan=step_plan, max_tokens=reader.max_tokens, on_text=on_text, check=False)

    return retrieve, read


def _chain(reader: Reader, question: str, context: Context, plan: ReadPlan, on_text) -> Answer | None:
    """A chain question hop by hop (chain.py), after the relation hops the plan already made in
    code (hops.py); None when its first step gets no usable answer. A step's time is its read's
    cost at this machine's speeds, not the clock (`read_cost`)."""
    retrieve, read = step_reader(reader, context, plan)
    asked, units, done, first = question, context.units, [], plan.chain
    if plan.hop is not None:  # relation hops already made in code (hops.py)
        asked, units = plan.hop.question, plan.hop.units + context.units
        done = [Step(line, "", "", "in code", units=plan.hop.units) for line in plan.hop.steps]
    else:
        first = rebased(first, plan.asked.read_as, question)
        if first is None:
            return None
    speeds = reader.llm.speeds() if plan.seconds else None  # a read's cost, not the clock
    return answer_chain(
        asked,
        first,
        retrieve=retrieve,
        read=read,
        lookup=reader.lookup,
        relations=reader.relations,
        units=units,
        done=done,
        on_text=on_text,
        seconds=plan.seconds,
        read_seconds=plan.expected_seconds + READ_OVERHEAD_S if plan.expected_seconds is not None else None,
        cost=read_cost(speeds) if speeds is not None else None,
    )


def rebased(first: Bridge, read_as: str, question: str) -> Bridge | None:
    """The first step's span, found in the question proper (``read_as``, question.py), moved to
    where it stands in the whole ``question`` the chain goes on from (the user's situation
    before it): the step's answer then replaces the phrase, not the situation's letters ("I'm the
    d…y shareholder" was asked). None where the question proper is not in it word for word (a
    question read in another form): the question is read whole."""
    if question == read_as:
        return first
    at = question.rfind(read_as)
    return None if at < 0 else replace(first, start=first.start + at, end=first.end + at)
