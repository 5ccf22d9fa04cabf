"""The prompt a read sends (step 1 of the path, with plan.py): the fixed instruction of each
mode and reader first, then the numbered passages and the question as the prompt says it (the
user's situation, then the question in the form asked), so llama.cpp reuses the evaluated
instruction from call to call; `within_budget` and `fit_to_window` keep the rank-order prefix of
the units that the answer budget and the model's window hold.
"""

from __future__ import annotations

from ..llm.local import PromptTooLongError
from ..llm.metered import MeteredLLM
from ..types import Unit
from .question import Question

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
# example's passage number, which is why short-mode citations are verified (citations.py).
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


def passages_block(units: list[Unit]) -> str:
    lines = []
    for i, u in enumerate(units, 1):
        title = f" ({u.title})" if u.title and not u.text.startswith(u.title) else ""
        lines.append(f"[{i}]{title} {' '.join(u.text.split())}")
    return "\n".join(lines)


_INSTRUCTIONS = {"choose": CHOOSE_INSTRUCTION, "short": SHORT_INSTRUCTION, "long": INSTRUCTION}


def instruction(mode: str, reader: str = "passages") -> str:
    return EVIDENCE_INSTRUCTION if reader in ("evidence", "section") and mode != "long" else _INSTRUCTIONS[mode]


def prompt_question(question: str | Question) -> str:
    """The question as the prompt says it: a typed question's situation, then its question in the
    form asked ("Is there a time limit …?" as "What is the time limit …?", question.py)."""
    if isinstance(question, str):
        return question.strip()
    if not question.situated and question.read_as == question.asked:
        return question.text.strip()
    return " ".join([*question.situation, question.read_as]).strip()


def build_messages(question: str | Question, units: list[Unit], mode: str | bool, reader: str = "passages") -> list[dict[str, str]]:
    """The chat for ``mode`` (``True``/``False`` stand for ``short``/``long``) and ``reader``."""
    mode = {True: "short", False: "long"}.get(mode, mode)  # type: ignore[arg-type]
    user = f"Passages:\n{passages_block(units)}\n\nQuestion: {prompt_question(question)}"
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
    llm: MeteredLLM, question: str | Question, units: list[Unit], mode: str | bool, max_tokens: int, reader: str = "passages"
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
