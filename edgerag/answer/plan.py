"""What the model reads for one question, decided before the call (step 1 of the path, see the
package doc): the mode, the reader, the units within the answer budget and the model's window,
the prompt (prompt.py), the answers it may choose among. No model call is made here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..llm.metered import MeteredLLM
from ..types import Context, Unit
from .candidates import candidates
from .compare import Decision, Pending
from .derived import asks_computed, names_operands
from .hops import Hop
from .prompt import build_messages, fit_to_window, within_budget
from .question import Question, read_question
from .steps import Bridge

MODES = ("auto", "choose", "short", "long")
READERS = ("evidence", "passages")

SHORT_OUTPUT = 12
"""Output tokens a short or chosen answer is planned for (a name and its citation; the cap is 48)."""
READ_OVERHEAD_S = 0.5
"""Seconds a read costs beside the model: retrieving a step, embedding its evidence sentences."""
MIN_READ_TOKENS = 120
"""The least evidence a read gets, whatever the time budget: a few sentences. Below it a read
is not worth its call; a budget too short for it is said in the plan, and read all the same."""
TIME_STEP_TOKENS = 50
"""The time budget cuts evidence in steps of this many tokens. The speeds it is planned with (at
rest: the median of recent calls alone on the cores, llm/speeds.py) drift by a few percent from
call to call; without a step, each drift changed a read's evidence by a sentence, so a question
asked again got a new prompt, missed the LLM cache and could get another answer (two benchmark
runs of unchanged code differed by up to 3 answers in 100). A step holds the read still through
such drift."""
TYPICAL_PROMPT_EXTRA = 200
"""Prompt tokens of a read beside its evidence (instruction, question, passage marks; about 150–250)."""
LARGE_READER_PARAMS = 1_000_000_000
"""A reader of at least this many parameters reads twice the answer budget where a question is
read whole (`whole_read_budget`)."""
CHAIN_READS = 2
"""Reads a chain question is planned for at first (its first step and the question left); a
chain that needs more takes a further step only while the time budget holds one (chain.py)."""

_FACT = re.compile(
    r"^\s*(?:who|whom|whose|when|where|which|what|how (?:many|much|old|long|far|tall|big)|in (?:what|which)|"
    r"on (?:what|which)|at (?:what|which)|from (?:what|which)|is|are|am|was|were|do|does|did|has|have|had|can|could|will|would|should|must|shall|may)\b",
    re.I,
)
_OPEN = re.compile(r"^\s*(?:what (?:is|are|was|were) (?:a |an |the )?\S+\??$|what (?:do|does|did)\b.*\b(?:mean|say|do)\b)", re.I)


_FACT_INSIDE = re.compile(r"\b(?:what|which|who|whom|whose|when|where|how (?:many|much|old|long|far|tall|big))\b", re.I)
_REQUEST = re.compile(
    r"^\s*(?:why|how (?:does|do|did|is|are|was|were|can|could|would|should)|explain|describe|summari[sz]e|compare|list)\b", re.I
)


def asks_for_fact(question: str) -> bool:
    """True for a question whose answer is a name, place, date, number or yes/no ("Where was
    …", "Who directed …", "Is X older than Y?", and statements that end in a question word:
    "The arena where the Maineiacs played can seat how many people?"); False for requests and
    open questions ("Summarise …", "Why …", "How does …", "What is X?"), which get a long answer."""
    q = question.strip()
    if _OPEN.match(q) or _REQUEST.match(q):
        return False
    return bool(_FACT.match(q)) or (q.endswith("?") and bool(_FACT_INSIDE.search(q)))


def resolve_mode(mode: str, question: str) -> str:
    if mode not in MODES:
        raise ValueError(f"answer_mode must be one of {', '.join(MODES)}; got {mode!r}")
    if mode == "auto":
        return "short" if asks_for_fact(question) else "long"
    return mode


@dataclass
class ReadPlan:
    """What the model will read for one question, decided before the call (`plan_answer`)."""

    question: str
    mode: str
    """``choose``, ``short`` or ``long`` (``auto`` resolved)."""
    units: list[Unit]
    """The units the model reads, as numbered in the prompt: the context's best units, or
    (reader ``evidence``) one ``evidence`` unit per passage the sentences come from."""
    left_out: int
    """Units of the retrieved context the model does not read (not even a sentence of)."""
    budget: int
    """The answer budget that applied (tokens of the context's own unit)."""
    window_cut: int
    """Of ``left_out``, the units the budget admitted but the model's window did not."""
    messages: list[dict[str, str]]
    prompt_tokens: int
    """The prompt's length in the model's own tokens."""
    choices: list[str] | None
    """The allowed answers (``choose``), else None."""
    expected_seconds: float | None
    """This read's expected seconds: prompt tokens and a short answer's output at the speeds
    measured here (speeds.py); without them, the wait for the first word at the prefill speed
    the ledger measured (None until it has timed a call of this model)."""
    reader: str = "passages"
    """``passages``, ``evidence``, ``section`` (a rule's section whole, then evidence sentences:
    ``Settings.answer_section``) or ``compare`` (the module doc)."""
    decision: Decision | None = None
    """A comparison decided in code (compare.py): the answer without a model call."""
    comparison: Pending | None = None
    """A comparison decided in code once the model has read the sides code could not
    (compare.py `finish`, one read a side); ``units`` and ``messages`` are the whole question's
    read, used when a side's value is still not found."""
    hop: Hop | None = None
    """Relation hops made in code (hops.py): the model is asked ``hop.question``."""
    chain: Bridge | None = None
    """A chain question to answer hop by hop (chain.py), from this first step; ``units`` and
    ``messages`` are the whole question's read, used when the first step gets no answer."""
    seconds: float | None = None
    """The time budget of the whole answer (``Settings.answer_seconds``), None for none."""
    reads: int = 1
    """Model reads the answer is planned for (`CHAIN_READS` for a chain question)."""
    time_cut: int = 0
    """Tokens of evidence the time budget took off the answer budget (0: it took none)."""
    too_slow: bool = False
    """Even a minimal read (`MIN_READ_TOKENS`) does not fit the time budget: read at the minimum."""
    typed: Question | None = None
    """The question read once (question.py): the user's situation, the question proper, its
    kind, options and names; the read, the reply's rules and the check take it from here."""

    @property
    def asked(self) -> Question:
        """The question as the model reads it: the hop's question where hops were made in code,
        else the typed question (read now where the plan was made without one)."""
        if self.hop is not None:
            return read_question(self.hop.question)
        return self.typed if self.typed is not None else read_question(self.question)

    @property
    def answer_seconds(self) -> float | None:
        """Expected seconds of the whole answer: every planned read, and their overheads."""
        if self.expected_seconds is None:
            return None
        return self.reads * (self.expected_seconds + READ_OVERHEAD_S)

    def summary(self) -> str:
        """One line for a person: what is read, what is not, how long until the first word."""
        if self.decision is not None:
            return f"compared in code, no model call: {self.decision.reason} ({len(self.units)} passages read)"
        total = len(self.units) + self.left_out
        what = {"evidence": "reads evidence sentences of", "section": "reads a rule's section and evidence sentences of"}.get(
            self.reader, "reads"
        )
        parts = [f"the model {what} {len(self.units)} of {total} units ({self.prompt_tokens:,} prompt tokens"]
        if self.left_out:
            why = f"answer budget {self.budget:,} tokens" + (f"; {self.window_cut} more did not fit the window" if self.window_cut else "")
            parts.append(f"; {self.left_out} left out: {why}")
        parts.append(")")
        if self.choices is not None:
            parts.append(f", choosing among {len(self.choices)} candidate answers")
        if self.hop is not None:
            parts.append(f"; hopped in code ({self.hop.reason}), asking: {self.hop.question}")
        if self.chain is not None:
            parts.append(f"; answered hop by hop, first: {self.chain.question}")
        if self.comparison is not None:
            parts.append(
                f"; compared in code once the model reads {self.comparison.question.attribute or 'the value'} of {self.comparison.missing()}"
            )
        if self.seconds is not None and self.answer_seconds is not None:
            parts.append(f"; about {self.answer_seconds:.0f} s" + (f" in {self.reads} reads" if self.reads > 1 else ""))
            parts.append(f" (budget {self.seconds:g} s")
            if self.too_slow:
                parts.append(f"; even {MIN_READ_TOKENS} tokens of evidence take longer here, read at that minimum")
            elif self.time_cut:
                parts.append(f"; {self.time_cut:,} tokens of evidence fewer to keep it")
            parts.append(")")
        elif self.expected_seconds is not None:
            parts.append(f"; first word in about {self.expected_seconds:.0f}s")
        return "".join(parts)


def plan_answer(
    llm: MeteredLLM,
    question: str,
    context: Context,
    *,
    mode: str = "auto",
    budget: int | None = None,
    max_tokens: int = 256,
    evidence: Callable[[Question, list[Unit], int], list[Unit]] | None = None,
    section: Callable[[Question, list[Unit], int], list[Unit]] | None = None,
    compare: Callable[[list[Unit]], Decision | Pending | None] | None = None,
    hops: Callable[[list[Unit]], Hop | None] | None = None,
    chain: Callable[[str, list[Unit]], Bridge | None] | None = None,
    seconds: float | None = None,
    whole_budget: int | Callable[[], int] | None = None,
) -> ReadPlan:
    """What the model will read (see the module doc); no model call is made. ``evidence``
    (``question, units, budget → evidence units``, evidence.py) makes a short or chosen answer
    read evidence sentences instead of passages; ``compare`` (``units → Decision, Pending or
    None``, compare.py) may decide a comparison without the model, or once the model has read
    the sides code could not; ``hops`` (``units → Hop or
    None``, hops.py) may rewrite a bridge question into the one-hop question the model reads;
    ``chain`` (``question, units → Bridge or None``, steps.py) finds the first step of a chain
    question that is answered hop by hop (chain.py), for a free short answer to an open
    question that describes no situation of the user's. ``seconds``, the whole answer's time budget, shrinks each read's evidence to
    what this machine reads in its share of it (`time_budget`, in steps of `TIME_STEP_TOKENS`),
    never below `MIN_READ_TOKENS`.
    ``whole_budget`` replaces ``budget`` when the question is read whole in one read (no chain
    step, hop or comparison side: `whole_read_budget`), before the time budget cuts it; a
    callable is asked only then (it may load the model to read its size)."""
    typed = read_question(question)  # read once: every stage below takes it, not the string
    mode = resolve_mode(mode, typed.read_as)
    budget = budget or context.budget
    decision = compare(context.units) if compare is not None and mode != "long" else None
    pending = decision if isinstance(decision, Pending) else None
    if pending is not None:
        decision = None
    if decision is not None:
        read = {u.chunk_id for u in decision.units}
        return ReadPlan(
            question=question,
            mode=mode,
            units=decision.units,
            left_out=sum(u.chunk_id not in read for u in context.units),
            budget=budget,
            window_cut=0,
            messages=[],
            prompt_tokens=0,
            choices=None,
            expected_seconds=0.0,
            reader="compare",
            decision=decision,
            typed=typed,
        )
    limit = max_tokens if mode == "long" else min(max_tokens, 48)
    reader = "evidence" if evidence is not None and mode != "long" else "passages"
    if reader == "evidence" and section is not None and (typed.rule or typed.limit):
        reader, evidence = "section", section  # a rule read where it stands: its section whole, then evidence
    hop = hops(context.units) if hops is not None and mode != "long" else None
    asked, pool = typed, context.units
    if hop is not None:  # the one-hop question, read from the passages the hops landed on
        asked, pool = read_question(hop.question), hop.units
    first = None
    if (
        chain is not None
        and mode == "short"
        and asked.options is None
        and not names_operands(asks_computed(asked.read_as))
        and not typed.situated
    ):  # arithmetic over named operands is read whole (derived.py); so is a user's own case: its process is one page's, not a chain of things
        first = chain(asked.read_as, context.units if hop is None else hop.units + context.units)
    reads = CHAIN_READS if first is not None else max(1, len(pending.to_read)) if pending is not None else 1
    if whole_budget and first is None and hop is None and pending is None and mode != "long":
        budget = whole_budget() if callable(whole_budget) else whole_budget
    speeds = llm.speeds() if seconds else None
    time_cut, too_slow = 0, False
    if speeds is not None and mode != "long":
        fixed = llm.prompt_tokens(build_messages(asked, [], mode, reader))
        afford = time_budget(seconds / reads, speeds, fixed)
        too_slow = afford < MIN_READ_TOKENS
        time_cut = max(0, budget - max(afford // TIME_STEP_TOKENS * TIME_STEP_TOKENS, MIN_READ_TOKENS))
        budget -= time_cut
    admitted = within_budget(evidence(asked, pool, budget) if reader in ("evidence", "section") else pool, budget)
    units = fit_to_window(llm, asked, admitted, mode, limit, reader)
    messages = build_messages(asked, units, mode, reader)
    n = llm.prompt_tokens(messages)
    if mode == "choose":
        choices = candidates([u.text for u in units], asked.read_as)
    else:
        choices = list(asked.options) if reader in ("evidence", "section") and asked.options is not None else None
    read = {u.chunk_id for u in units}
    if speeds is not None:
        expected = speeds.seconds(n, SHORT_OUTPUT if mode != "long" else limit)
    else:
        rate = llm.prefill_rate()
        expected = n / rate if rate else None
    return ReadPlan(
        question=question,
        mode=mode,
        units=units,
        left_out=sum(u.chunk_id not in read for u in context.units),
        budget=budget,
        window_cut=len(admitted) - len(units),
        messages=messages,
        prompt_tokens=n,
        choices=choices,
        expected_seconds=expected,
        reader=reader,
        hop=hop,
        chain=first,
        comparison=pending,
        seconds=seconds,
        reads=reads,
        time_cut=time_cut,
        too_slow=too_slow,
        typed=typed,
    )


def whole_read_budget(budget: int, n_params: int | None) -> int:
    """The tokens a question read whole in one read (no chain step, no hop in code, no
    comparison's side) may read, time permitting (``Settings.answer_whole_budget`` auto): twice
    the answer ``budget`` for a reader of `LARGE_READER_PARAMS` or more, so a bridge question's
    two hops' evidence fits one prompt where a chain step reads one hop's; the answer budget for
    a smaller one. Measured on 100 dev questions a split (issue #41; docs/benchmarks.md,
    "Reading both hops in one read"): at twice the budget the 1.5B model got 5 more of the 140
    questions read so right (HotpotQA EM 40 → 45), the 0.5B model 3 fewer, confused by the
    longer evidence. ``n_params`` None (not known): the answer budget."""
    return 2 * budget if n_params is not None and n_params >= LARGE_READER_PARAMS else budget


def time_budget(seconds: float, speeds, fixed_tokens: int) -> int:
    """Tokens of evidence one read can take in ``seconds`` at this machine's ``speeds``
    (speeds.py): what is left after the read's overhead and a short answer's output, at the
    prompt speed, less the prompt's own ``fixed_tokens`` (instruction and question). May be
    below `MIN_READ_TOKENS`, or negative: the caller reads the minimum and says so."""
    left = seconds - READ_OVERHEAD_S - SHORT_OUTPUT / speeds.generation
    return int(left * speeds.prompt) - fixed_tokens
