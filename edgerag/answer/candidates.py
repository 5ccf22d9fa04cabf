"""Candidate answers of a context: the names, dates and numbers its passages hold.

A small model chooses far better than it composes. Asked to write an answer, the default 0.5B
model copies a passage number, repeats the question's entity or invents a phrase; asked to
pick one of the strings the passages actually contain, it picks the right one much more often
(docs/benchmarks.md, "Answers"). This module lists those strings; plan.py offers them to the
model as the only allowed outputs (llm/local.py's token trie).

Candidates, in the passages' order, as written (case kept, so the answer reads naturally):

* capitalised spans, the same runs the link keys of text/linkkeys.py are made of ("Kettering
  Hill", "University of Texas"), and two of them joined by a comma ("Teaneck, New Jersey",
  "Sleep, My Love"), since places and titles are often written so;
* dates ("4 February 1948", "February 4, 1948", "May 1887") and years;
* numbers, alone and with the word after them ("6.8 inches", "3,677 seated"), and codes that
  mix letters and digits ("tangerine-42", "A-113");
* then narrowed by the kind of question (`candidates`): the two options of a comparison, yes
  or no, dates for "when", numbers for "how many"; the question's own names are left out of
  the rest (the answer to "Where was X's father buried?" is not X).

Lower-case answers ("pneumonia", "guitar") are not candidates: questions that want one are the
price of this reader, measured in the benchmark (the share of questions whose gold answer is a
candidate is printed beside EM).
"""

from __future__ import annotations

import re

from ..text.dates import MONTHS
from ..text.keywords import stop_words
from ..text.linkkeys import capitalised_runs
from .comparison_question import question_options
from .derived import asks_number_computed

_DATES = re.compile(rf"\b(?:\d{{1,2}} (?:{MONTHS})\.? \d{{3,4}}|(?:{MONTHS})\.? \d{{1,2}}, \d{{3,4}}|(?:{MONTHS}) \d{{3,4}})\b")
_NUMBER = re.compile(r"(?<![\w.])[$£€]?\d[\d,]*(?:\.\d+)?(?:\s?%)?(?:\s(?:million|billion|trillion|thousand))?(?![\w])")
_CODE = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[^\W\d_])[^\W_]+(?:[-/][^\W_]+)+(?![\w-])")
"""Codes and model names mixing letters and digits: "tangerine-42", "A-113", "COVID-19"."""
_AFTER_NUMBER = re.compile(r"\s([a-z][a-z\-]{2,})")
_MONTH = re.compile(rf"(?:{MONTHS})\.?")
MAX_CANDIDATE_CHARS = 80
YES_NO = ("yes", "no")


def _comma_pairs(text: str, runs: list[str]) -> list[str]:
    """ "A, B" wherever two capitalised runs stand side by side with a comma between them."""
    out = []
    for a, b in zip(runs, runs[1:]):
        joined = f"{a}, {b}"
        if joined in text:
            out.append(joined)
    return out


def _numbers(text: str) -> list[str]:
    out = []
    for m in _NUMBER.finditer(text):
        n = m.group().strip()
        out.append(n)
        after = _AFTER_NUMBER.match(text, m.end())
        if after and after.group(1) not in stop_words():
            out.append(f"{n} {after.group(1)}")
    return out


_YES_NO_Q = re.compile(r"^\s*(?:is|are|am|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|must|may)\b", re.I)
_WHEN_Q = re.compile(r"^\s*(?:when\b|(?:in |on |at )?what (?:year|date|day|month|decade|century)\b)", re.I)
_COUNT_Q = re.compile(r"^\s*how (?:many|much)\b", re.I)
_YEARISH = re.compile(r"\d{3,4}")


def options(question: str) -> list[str]:
    """The two things a choice question offers ("Who was born first, A or B?", "Between A and B,
    …", "Which genus has more species, A and B?" → [A, B]), by the question's grammar
    (comparison_question.py `question_options`)."""
    return question_options(question)


def closed_choices(question: str) -> list[str] | None:
    """The answers a closed question allows whatever the passages say: the two options of a
    comparison question, or yes and no; None for an open one. The free short reader offers
    only these to the model (plan.py)."""
    if asks_number_computed(question):
        return None  # "What proportion of Options, Warrants and Rights are …?": operands, not options (derived.py)
    opts = options(question)
    if opts:
        return opts
    return list(YES_NO) if _YES_NO_Q.match(question) else None


def candidates(passages: list[str], question: str = "") -> list[str]:
    """The answers the question allows, by its kind: the two options of a comparison question
    (`options`), yes/no for a yes-no question, dates and years for "when" and "what year",
    numbers for "how many"; else every candidate of the passages (see the module doc) except
    the question's own names, then yes and no. The kinds need no model: they are the reader's
    share of what a 0.5B model cannot be relied on to infer (benchmarks/answers.py)."""
    if question:
        opts = options(question)
        if opts:
            return opts
        if _YES_NO_Q.match(question):
            return list(YES_NO)
        every = all_candidates(passages, "")
        if _WHEN_Q.match(question):
            when = [c for c in every if _YEARISH.search(c) and (_DATES.fullmatch(c) or re.fullmatch(r"\d{3,4}", c))]
            if when:
                return when
        if _COUNT_Q.match(question):
            counts = [c for c in every if (c[:1].isdigit() or c[:1] in "$£€") and not _DATES.fullmatch(c)]
            if counts:
                return counts
        own = {c.lower() for c in capitalised_runs(question)} | set(YES_NO)
        return [c for c in every if c.lower() not in own] or every
    return all_candidates(passages, question)


def all_candidates(passages: list[str], question: str = "") -> list[str]:
    """Every candidate of the passages, first occurrence first, then the question's own
    spans, then yes and no."""
    seen: dict[str, None] = {}

    def add(c: str) -> None:
        c = " ".join(c.split()).strip(" ,;:")
        if c and len(c) <= MAX_CANDIDATE_CHARS and c.lower() not in seen and not _MONTH.fullmatch(c):
            seen[c.lower()] = None
            found.append(c)

    found: list[str] = []
    for text in passages:
        runs = capitalised_runs(text)
        for c in (*_DATES.findall(text), *runs, *_comma_pairs(text, runs), *_CODE.findall(text), *_numbers(text)):
            add(c)
    for c in capitalised_runs(question):
        add(c)
    for c in YES_NO:
        add(c)
    return found
