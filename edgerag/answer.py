"""Context + question → an answer with citations, from the local model: the reader.

Reading happens in two steps, so nothing is dropped silently:

1. `plan_answer` decides what the model reads: the context's best units up to the answer
   budget (``answer_budget``, tokens; retrieval keeps λ for ``--json`` and eval, the model reads
   what it can use), then cut again, if need be, to the model's window in its own tokens. The
   plan says how many units were left out and why, the prompt's length, and the expected
   seconds to the first word (prompt tokens ÷ the prefill speed the ledger has measured), so
   the CLI and the TUI can say so *before* the call.
2. `answer_question` runs the plan.

Modes (``answer_mode``):

* ``choose`` — the answer is one of the candidate strings of the passages (candidates.py:
  names, dates, numbers, yes/no), enforced token by token (llm.ChoiceTrie). A 0.5B model picks
  far better than it composes (docs/benchmarks.md, "Answers").
* ``short`` — a free short phrase with a passage number, e.g. "Springfield [4]".
* ``long`` — a free answer citing passages as [n].
* ``auto`` (default) — ``short`` for questions that ask for a name, place, date, number or
  yes/no (`asks_for_fact`), ``long`` for the rest ("Summarise …", "Why …", "How does …").
  On the first 30 dev questions of each split (benchmarks/answers.py, bridge-ppr, 1,000
  tokens) free short answers beat chosen ones (EM 10.0 / 33.3 against 6.7 / 26.7 on MuSiQue /
  2Wiki), so ``choose`` stays an option, not the default.

Two kinds of question get help in code before the model reads (``answer_hops``):

* a comparison of dates ("Which film has the director who died earlier, A or B?") is decided
  when the passages give both dates (compare.py): the plan says so, no model is called, and
  the answer cites the passages it read and says why;
* a bridge through a named relation ("Where was the director of film X born?") is hopped
  (hops.py): the model is asked "Where was Max Mack born?" and reads the passages the hop
  landed on (Max Mack's first, then the film's), not the rest of the context: other passages'
  sentences that match the rewritten question ("buried", "born") only mislead it.

Readers (``answer_reader``), for ``short`` and ``choose``; ``long`` answers always read passages:

* ``evidence`` (default) — the model reads the question's evidence sentences (evidence.py:
  first hop by similarity, second hop through the keys that link them, under their passages'
  titles), up to the answer budget, with `EVIDENCE_INSTRUCTION`. A closed question (a
  comparison "…, A or B?", or yes/no) may only be answered by its options
  (`candidates.closed_choices`, enforced token by token).
* ``passages`` — the model reads the context's best passages up to the answer budget.

Citations are verified: in short answers (any mode, or any answer of at most 8 words) a cited
passage that contains the answer is ``cited``; passages that contain it without being cited are
``matched``; a cited passage that does not contain it is ``unverified`` (small models copy the
passage number of the prompt's example). A chosen answer cites no number: the passages that
hold it are its ``matched`` citations.

The prompt keeps its fixed instruction first and the variable text (passages, question) last,
so llama.cpp reuses the evaluated instruction from call to call.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .candidates import candidates, closed_choices
from .compare import Decision
from .hops import Hop
from .llm import PromptTooLongError
from .metered import MeteredLLM
from .reply import (
    DO_NOT_KNOW,
    RAN_ON,
    SHORT_WORDS,
    Citation,
    citation,
    clean_answer,
    copied_example,
    merged,
    narrow,
    parse_citations,
    verified_citations,
)
from .types import Context, Unit

MODES = ("auto", "choose", "short", "long")
READERS = ("evidence", "passages")

INSTRUCTION = (
    "You answer questions using only the numbered passages the user gives. "
    "Cite the passages you used by their numbers in square brackets, like [2]. "
    "If the passages do not contain the answer, say that you do not know."
)
SHORT_INSTRUCTION = (
    "Answer the question using only the numbered passages the user gives. Write only the answer, "
    "as a short phrase copied from the passages (a name, place, date or number), followed by the "
    "passage number in square brackets. Example: Question: In which city was the author of Book X "
    "born? Answer: Springfield [4]"
)
# Chosen on the first 10 questions of the bundled sample with the default 0.5B model: variants
# with a "Paris [2]"-style example or a bare format description made it reply "[1]" alone in
# up to 6 of 10; this one always gave an answer (EM 0.4, F1 0.44). Small models copy the
# example's passage number, which is why short-mode citations are verified (see below).
CHOOSE_INSTRUCTION = (
    "Answer the question using only the numbered passages the user gives. Many questions need two "
    "passages: one names a person or thing, another tells the fact about it. Reply with only the "
    "answer: a name, place, date, number, or yes or no, copied from the passages."
)
# Measured with evidence sentences on the first 30 dev questions of each split (docs/benchmarks.md,
# "Answers on an edge CPU"). Few-shot examples did worse: the 0.5B model copied their answers
# ("Ostend", "Paul Ardent") into unrelated questions; the one-line example here is copied rarely,
# and `copied_example` catches it.
EVIDENCE_INSTRUCTION = (
    "Answer the question using only the passages the user gives. Many questions need two passages: one "
    "names a person or thing, another tells the fact asked about it. Write only the answer, a few words "
    "copied from the passages (a name, place, date or number), no sentence. "
    "Example: Question: In which city was the author of Book X born? Answer: Springfield"
)
_FACT = re.compile(
    r"^\s*(?:who|whom|whose|when|where|which|what|how (?:many|much|old|long|far|tall|big)|in (?:what|which)|"
    r"on (?:what|which)|at (?:what|which)|from (?:what|which)|is|are|was|were|do|does|did|has|have|had|can|could|will)\b",
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
    """Prompt tokens ÷ the measured prefill speed: the wait for the first word (None until
    the ledger has timed a call of this model)."""
    reader: str = "passages"
    """``passages``, ``evidence`` or ``compare`` (the module doc)."""
    decision: Decision | None = None
    """A comparison decided in code (compare.py): the answer without a model call."""
    hop: Hop | None = None
    """Relation hops made in code (hops.py): the model is asked ``hop.question``."""

    def summary(self) -> str:
        """One line for a person: what is read, what is not, how long until the first word."""
        if self.decision is not None:
            return f"compared in code, no model call: {self.decision.reason} ({len(self.units)} passages read)"
        total = len(self.units) + self.left_out
        what = "reads evidence sentences of" if self.reader == "evidence" else "reads"
        parts = [f"the model {what} {len(self.units)} of {total} units ({self.prompt_tokens:,} prompt tokens"]
        if self.left_out:
            why = f"answer budget {self.budget:,} tokens" + (f"; {self.window_cut} more did not fit the window" if self.window_cut else "")
            parts.append(f"; {self.left_out} left out: {why}")
        parts.append(")")
        if self.choices is not None:
            parts.append(f", choosing among {len(self.choices)} candidate answers")
        if self.hop is not None:
            parts.append(f"; hopped in code ({self.hop.reason}), asking: {self.hop.question}")
        if self.expected_seconds is not None:
            parts.append(f"; first word in about {self.expected_seconds:.0f}s")
        return "".join(parts)


@dataclass
class Answer:
    question: str
    text: str
    """The answer as the model wrote it."""
    short: str
    """The answer with citation marks and trailing punctuation removed (what EM/F1 score)."""
    citations: list[Citation]
    context: Context
    """The units the model saw (the retrieved context cut to the answer budget and window)."""
    dropped_units: int
    """Units of the retrieved context the model did not read (said before the call)."""
    tokens: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cached: bool = False
    mode: str = "long"
    reason: str = ""
    """How the short answer was reached when it is not simply the model's reply: a comparison
    decided in code (compare.py), or a reply that ran on, narrowed to one of its own candidates."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["context"] = self.context.to_dict()
        return d


def passages_block(units: list[Unit]) -> str:
    lines = []
    for i, u in enumerate(units, 1):
        title = f" ({u.title})" if u.title and not u.text.startswith(u.title) else ""
        lines.append(f"[{i}]{title} {' '.join(u.text.split())}")
    return "\n".join(lines)


_INSTRUCTIONS = {"choose": CHOOSE_INSTRUCTION, "short": SHORT_INSTRUCTION, "long": INSTRUCTION}


def instruction(mode: str, reader: str = "passages") -> str:
    return EVIDENCE_INSTRUCTION if reader == "evidence" and mode != "long" else _INSTRUCTIONS[mode]


def build_messages(question: str, units: list[Unit], mode: str | bool, reader: str = "passages") -> list[dict[str, str]]:
    """The chat for ``mode`` (``True``/``False`` stand for ``short``/``long``) and ``reader``."""
    mode = {True: "short", False: "long"}.get(mode, mode)  # type: ignore[arg-type]
    user = f"Passages:\n{passages_block(units)}\n\nQuestion: {question.strip()}"
    return [{"role": "system", "content": instruction(mode, reader)}, {"role": "user", "content": user}]


def within_budget(units: list[Unit], budget: int) -> list[Unit]:
    """The longest rank-order prefix of ``units`` holding at most ``budget`` tokens (at least
    the first unit, so a long best unit is read rather than nothing)."""
    held, out = 0, []
    for u in units:
        if out and held + u.tokens > budget:
            break
        out.append(u)
        held += u.tokens
    return out


def fit_to_window(
    llm: MeteredLLM, question: str, units: list[Unit], mode: str | bool, max_tokens: int, reader: str = "passages"
) -> list[Unit]:
    """The longest rank-order prefix of ``units`` whose prompt fits the model's window."""
    window = llm.llm.n_ctx - max_tokens
    if llm.prompt_tokens(build_messages(question, [], mode, reader)) > window:
        raise PromptTooLongError(f"the question alone does not fit the model's window ({llm.llm.n_ctx} tokens)")
    lo, hi = 0, len(units)
    while lo < hi:  # binary search: prompt length grows with the number of units
        mid = (lo + hi + 1) // 2
        if llm.prompt_tokens(build_messages(question, units[:mid], mode, reader)) <= window:
            lo = mid
        else:
            hi = mid - 1
    return units[:lo]


def plan_answer(
    llm: MeteredLLM,
    question: str,
    context: Context,
    *,
    mode: str = "auto",
    budget: int | None = None,
    max_tokens: int = 256,
    evidence: Callable[[str, list[Unit], int], list[Unit]] | None = None,
    compare: Callable[[list[Unit]], Decision | None] | None = None,
    hops: Callable[[list[Unit]], Hop | None] | None = None,
) -> ReadPlan:
    """What the model will read (see the module doc); no model call is made. ``evidence``
    (``question, units, budget → evidence units``, evidence.py) makes a short or chosen answer
    read evidence sentences instead of passages; ``compare`` (``units → Decision or None``,
    compare.py) may decide a comparison of dates without the model; ``hops`` (``units → Hop or
    None``, hops.py) may rewrite a bridge question into the one-hop question the model reads."""
    mode = resolve_mode(mode, question)
    budget = budget or context.budget
    decision = compare(context.units) if compare is not None and mode != "long" else None
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
        )
    limit = max_tokens if mode == "long" else min(max_tokens, 48)
    reader = "evidence" if evidence is not None and mode != "long" else "passages"
    hop = hops(context.units) if hops is not None and mode != "long" else None
    asked, pool = question, context.units
    if hop is not None:  # the one-hop question, read from the passages the hops landed on
        asked, pool = hop.question, hop.units
    admitted = within_budget(evidence(asked, pool, budget) if reader == "evidence" else pool, budget)
    units = fit_to_window(llm, asked, admitted, mode, limit, reader)
    messages = build_messages(asked, units, mode, reader)
    n = llm.prompt_tokens(messages)
    if mode == "choose":
        choices = candidates([u.text for u in units], asked)
    else:
        choices = closed_choices(asked) if reader == "evidence" else None
    read = {u.chunk_id for u in units}
    rate = llm.prefill_rate()
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
        expected_seconds=n / rate if rate else None,
        reader=reader,
        hop=hop,
    )


def answer_question(
    llm: MeteredLLM,
    question: str,
    context: Context,
    *,
    mode: str = "auto",
    short: bool = False,
    budget: int | None = None,
    max_tokens: int = 256,
    on_text: Callable[[str], None] | None = None,
    plan: ReadPlan | None = None,
) -> Answer:
    """Answer ``question`` from ``context`` (``short=True`` is ``mode="short"``, kept for
    callers of the old signature); pass the ``plan`` that `plan_answer` made to reuse it."""
    t0 = time.perf_counter()
    if plan is None:
        plan = plan_answer(llm, question, context, mode="short" if short else mode, budget=budget, max_tokens=max_tokens)
    limit = max_tokens if plan.mode == "long" else min(max_tokens, 48)
    units = plan.units
    used = Context(query=context.query, method=context.method, budget=context.budget, units=units, notes=context.notes)
    if plan.decision is not None:
        return decided(plan, used, t0, on_text)
    c = llm.chat(
        plan.messages,
        stage="answer",
        method=context.method,
        max_tokens=limit,
        on_text=on_text,
        validate=lambda t: bool(t.strip()),
        sources=[u.chunk_id for u in units],
        choices=plan.choices,
    )
    text = c.text.strip()
    short_text = clean_answer(text)
    if plan.mode != "long" and copied_example(short_text, plan):
        text, short_text = DO_NOT_KNOW, ""
    reason = ""
    if plan.mode == "short" and plan.choices is None and len(short_text.split()) > SHORT_WORDS:
        narrowed = narrow(llm, plan, short_text, context.method, limit)
        if narrowed is not None:
            c = merged(c, narrowed)
            short_text, reason = narrowed.text.strip(), RAN_ON
    checkable = plan.mode != "long" or len(short_text.split()) <= SHORT_WORDS
    citations = verified_citations(parse_citations(text, units), units, short_text if checkable else None)
    tokens = {
        "input": 0 if c.cached else c.prompt_tokens,
        "output": 0 if c.cached else c.output_tokens,
        "evaluated": c.evaluated_tokens,
        "cached_input": c.prompt_tokens if c.cached else 0,
        "cached_output": c.output_tokens if c.cached else 0,
    }
    return Answer(
        question=question,
        text=text,
        short=short_text,
        citations=citations,
        context=used,
        dropped_units=plan.left_out,
        tokens=tokens,
        seconds=time.perf_counter() - t0,
        cached=c.cached,
        mode=plan.mode,
        reason=reason,
    )


def decided(plan: ReadPlan, used: Context, t0: float, on_text: Callable[[str], None] | None = None) -> Answer:
    """The answer of a comparison decided in code: every passage it read is cited."""
    d = plan.decision
    if on_text is not None:
        on_text(d.answer)
    return Answer(
        question=plan.question,
        text=d.answer,
        short=d.answer,
        citations=[citation(n, u, "cited") for n, u in enumerate(plan.units, 1)],
        context=used,
        dropped_units=plan.left_out,
        tokens={"input": 0, "output": 0, "evaluated": 0, "cached_input": 0, "cached_output": 0},
        seconds=time.perf_counter() - t0,
        mode=plan.mode,
        reason=d.reason,
    )
