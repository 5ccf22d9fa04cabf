"""Context + question → an answer with citations, from the local model.

The prompt keeps its fixed instruction first and the variable text (passages, question) last,
so llama.cpp reuses the evaluated instruction from call to call. Passages are numbered; the
model is asked to cite them as [n]. In long answers, citations are the numbers it cites that
exist. Short answers (short mode, or any answer of at most 8 words) can be checked: a cited passage that contains the answer is ``cited``;
passages that contain it without being cited are ``matched``; a cited passage that does not
contain it is ``unverified`` (small models copy the passage number of the prompt's example).

The context is cut to what fits the model's window in the model's own tokens, dropping the
lowest-ranked units first; nothing is ever truncated silently by llama.cpp.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .eval.metrics import normalize
from .llm import MeteredLLM, PromptTooLongError
from .types import Context, Unit

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
SHORT_WORDS = 8
"""An answer of at most this many words (in either mode) is checked against the passages."""
_CITE = re.compile(r"\[(\d{1,3})(?:\s*,\s*(\d{1,3}))*\]")
_CITE_ALL = re.compile(r"\d{1,3}")


@dataclass
class Citation:
    n: int
    doc_id: str
    chunk_id: str
    title: str
    how: str
    """``cited`` (the model named it), ``matched`` (contains the short answer, not cited) or
    ``unverified`` (cited, but the short answer is not in it)."""
    where: str = ""
    """The file and page or section of the passage (``report.pdf p. 12–13``), provenance.py."""


@dataclass
class Answer:
    question: str
    text: str
    """The answer as the model wrote it."""
    short: str
    """The answer with citation marks and trailing punctuation removed (what EM/F1 score)."""
    citations: list[Citation]
    context: Context
    """The units the model saw (the retrieved context cut to the window)."""
    dropped_units: int
    tokens: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cached: bool = False

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


def build_messages(question: str, units: list[Unit], short: bool) -> list[dict[str, str]]:
    user = f"Passages:\n{passages_block(units)}\n\nQuestion: {question.strip()}"
    return [{"role": "system", "content": SHORT_INSTRUCTION if short else INSTRUCTION}, {"role": "user", "content": user}]


def fit_to_window(llm: MeteredLLM, question: str, units: list[Unit], short: bool, max_tokens: int) -> list[Unit]:
    """The longest rank-order prefix of ``units`` whose prompt fits the model's window."""
    window = llm.llm.n_ctx - max_tokens
    if llm.prompt_tokens(build_messages(question, [], short)) > window:
        raise PromptTooLongError(f"the question alone does not fit the model's window ({llm.llm.n_ctx} tokens)")
    lo, hi = 0, len(units)
    while lo < hi:  # binary search: prompt length grows with the number of units
        mid = (lo + hi + 1) // 2
        if llm.prompt_tokens(build_messages(question, units[:mid], short)) <= window:
            lo = mid
        else:
            hi = mid - 1
    return units[:lo]


def parse_citations(text: str, units: list[Unit]) -> list[int]:
    """1-based passage numbers cited as [n] or [n, m] that exist, in order of first mention."""
    seen: dict[int, None] = {}
    for m in _CITE.finditer(text):
        for num in _CITE_ALL.findall(m.group()):
            n = int(num)
            if 1 <= n <= len(units):
                seen.setdefault(n, None)
    return list(seen)


def clean_answer(text: str) -> str:
    text = _CITE.sub("", text)
    text = re.sub(r"^\s*(answer|the answer is)\s*[:\-]\s*", "", text.strip(), flags=re.I)
    return text.strip().strip(".").strip()


def answer_question(
    llm: MeteredLLM,
    question: str,
    context: Context,
    *,
    short: bool = False,
    max_tokens: int = 256,
    on_text: Callable[[str], None] | None = None,
) -> Answer:
    t0 = time.perf_counter()
    if short:
        max_tokens = min(max_tokens, 48)
    units = fit_to_window(llm, question, context.units, short, max_tokens)
    used = Context(query=context.query, method=context.method, budget=context.budget, units=units)
    c = llm.chat(build_messages(question, units, short), stage="answer", method=context.method, max_tokens=max_tokens,
                 on_text=on_text, validate=lambda t: bool(t.strip()), sources=[u.chunk_id for u in units])  # fmt: skip
    text = c.text.strip()
    short_text = clean_answer(text)
    checkable = short or len(short_text.split()) <= SHORT_WORDS
    citations = _citations(parse_citations(text, units), units, short_text if checkable else None)
    tokens = {"input": 0 if c.cached else c.prompt_tokens, "output": 0 if c.cached else c.output_tokens,
              "evaluated": c.evaluated_tokens, "cached_input": c.prompt_tokens if c.cached else 0,
              "cached_output": c.output_tokens if c.cached else 0}  # fmt: skip
    return Answer(question=question, text=text, short=short_text, citations=citations, context=used,
                  dropped_units=len(context.units) - len(units), tokens=tokens,
                  seconds=time.perf_counter() - t0, cached=c.cached)  # fmt: skip


def _citations(cited: list[int], units: list[Unit], short_answer: str | None) -> list[Citation]:
    if short_answer is None:
        return [_citation(n, units[n - 1], "cited") for n in cited]
    needle = normalize(short_answer)
    contains = [i for i, u in enumerate(units, 1) if needle and f" {needle} " in f" {normalize(u.text)} "]
    out = [_citation(n, units[n - 1], "cited") for n in cited if n in contains]
    out += [_citation(n, units[n - 1], "matched") for n in contains if n not in cited]
    out += [_citation(n, units[n - 1], "unverified") for n in cited if n not in contains]
    return out


def _citation(n: int, u: Unit, how: str) -> Citation:
    return Citation(n=n, doc_id=u.doc_id, chunk_id=u.chunk_id, title=u.title, how=how, where=u.provenance.get("label", ""))
