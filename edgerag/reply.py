"""What the model wrote → the short answer and its verified citations.

A 0.5B model's reply needs reading too: it copies citation marks, the instruction's example,
a passage's aside, or whole sentences of the passage it found the answer in. `clean_answer`
and `copied_example` take the short answer out of the reply; `narrow` asks again, on the same
prompt, for one of the reply's own names, dates and numbers when the reply ran on; `verified_citations`
checks each passage number against the passages (``cited`` / ``matched`` / ``unverified``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .candidates import candidates
from .eval.metrics import normalize
from .llm import Completion
from .metered import MeteredLLM
from .provenance import label_at
from .types import Unit

if TYPE_CHECKING:
    from .answer import ReadPlan

DO_NOT_KNOW = "I do not know: the passages do not seem to hold the answer."
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
    """The answer without citation marks, an "Answer:" prefix, HTML entities, lines after the
    first, a trailing aside copied from the passage ("6.8 inches (17.3 cm)") or a repeated half
    ("Cork Cork": small models sometimes say it twice)."""
    lines = html.unescape(text).strip().splitlines()
    text = _CITE.sub("", lines[0] if lines else "")
    text = re.sub(r"^\s*(answer|the answer is)\s*[:\-]\s*", "", text.strip(), flags=re.I).strip().strip(".").strip()
    text = re.sub(r"(?<=\S)\s+\([^()]*\)$", "", text)
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and words[:half] == words[half:]:
        text = " ".join(words[:half])
    return text


def copied_example(short: str, plan: ReadPlan) -> bool:
    """True when the short answer is a word of the instruction's example that none of the
    passages holds ("Springfield"): the model copied the prompt, it did not answer."""
    needle = normalize(short)
    if not needle or f" {needle} " not in f" {normalize(plan.messages[0]['content'])} ":
        return False
    return not any(f" {needle} " in f" {normalize(u.text)} " for u in plan.units)


RAN_ON = "the reply ran on: its short answer is the one of its own names, dates and numbers the model chose"


def narrow(llm: MeteredLLM, plan: ReadPlan, reply: str, method: str, limit: int) -> Completion | None:
    """A short answer for a reply that ran on (a 0.5B model often copies the passage it found
    the answer in): the same prompt again, the output held to the reply's own candidates
    (candidates.py, narrowed by the kind of question, the question's names left out). The
    prompt is the one just evaluated, so llama.cpp reuses it and the call costs little more
    than its few output tokens. None when the reply holds no candidate."""
    asked = plan.hop.question if plan.hop is not None else plan.question
    options = [o for o in candidates([reply], asked) if o.lower() not in ("yes", "no")]
    if not options:
        return None
    sources = [u.chunk_id for u in plan.units]
    return llm.chat(plan.messages, stage="answer", method=method, max_tokens=limit, sources=sources, choices=options)


def merged(first: Completion, second: Completion) -> Completion:
    """Two calls' tokens as one answer's account."""
    return replace(
        second,
        prompt_tokens=first.prompt_tokens + second.prompt_tokens,
        output_tokens=first.output_tokens + second.output_tokens,
        evaluated_tokens=first.evaluated_tokens + second.evaluated_tokens,
        cached=first.cached and second.cached,
    )


def verified_citations(cited: list[int], units: list[Unit], short_answer: str | None) -> list[Citation]:
    if short_answer is None:
        return [citation(n, units[n - 1], "cited") for n in cited]
    needle = normalize(short_answer)
    contains = [i for i, u in enumerate(units, 1) if needle and f" {needle} " in f" {normalize(u.text)} "]
    out = [citation(n, units[n - 1], "cited", short_answer) for n in cited if n in contains]
    out += [citation(n, units[n - 1], "matched", short_answer) for n in contains if n not in cited]
    out += [citation(n, units[n - 1], "unverified") for n in cited if n not in contains]
    return out


def citation(n: int, u: Unit, how: str, answer: str | None = None) -> Citation:
    """A citation of unit ``u``; with the short ``answer`` it holds, ``where`` names the page
    the answer stands on when the unit spans pages (provenance.label_at)."""
    where = label_at(u.provenance, u.text, answer)
    return Citation(n=n, doc_id=u.doc_id, chunk_id=u.chunk_id, title=u.title, how=how, where=where)
