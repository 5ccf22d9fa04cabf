"""The model check of a short answer (issue #62, item 4): the model asked, in one short call
constrained to "yes" or "no" (llm `ChoiceTrie`), whether the sentence the answer stands on gives
that answer to the question proper (question.py ``core``, never the user's situation), read
under its passage's heading with the two sentences before it (what "this" refers to, the rule a
"more than" qualifies):

    Passage: Bereavement Support Payment. What you'll get
    Text: You may be able to get Bereavement Support Payment if your partner died. You could get £120 a week …
    Question: How much is Widowed Parent's Allowance a week?
    Proposed answer: £120
    Does the text give this answer to the question? Answer yes or no.

A "no" drops the answer (check.py's ``model`` step): "The documents do not say.", the sentence
named as the closest read. Each sentence that holds the answer and passed the rule steps is
asked in turn (at most `MODEL_CHECKS`) until one is said to answer. The rule steps read words; a
small model answers an unanswerable question with a figure of another sentence sharing its
words ("£120" of another benefit, "2012" of another person's CV, "Gareth Pryce" the policy
owner for "the new Treasurer"), and every word test passes it; asked of the text alone, the
model reads what it is about.

Only a short answer the model read from prose is asked of (check.py): not a yes or no, not an
answer decided in code (arithmetic, a table's cell, a comparison, a cell moved to the year
asked), not a table's row line, not a bridge question's (its sentence answers a hop), nor a
question that pins its thing down by a clause of its own ("a film starring Nicolas Cage and Téa
Leoni", binding.py `through_a_clause`): the sentence that gives the answer need not say the
clause, and the model said no to such a right answer on HotpotQA's dev split.

The answering model is asked only where it says "yes" to a text that plainly gives the answer
(`PROBE`, once a process): the 0.5B says "no" to every text tried, that one included, so its
"no" would drop every answer it read (tests/test_model_check.py).

Measured with the 1.5B against main's results on the same caches (benchmarks/results/
check_model_*_1_5b.json; right / abstained / wrong):

* ConditionalQA, 212: 126/14/72 → 129/17/66: 6 wrong stopped (4 unanswerable now said so:
  "£120" for Widowed Parent's Allowance, "£1,000" a CBT fine for its cost), 1 right lost (a
  Plan 2 threshold read from a list of plans);
* TAT-QA sample, 301: 187/59/55 → 186/65/50: 5 wrong stopped, 1 right lost (net income of "the
  prior quarter" for "the third quarter");
* office, 133: 113/2/18 → 114/4/15: answerable right 98 → 97 (85 %), unanswerable said so 15 →
  17 of 19 (89 %), wrong 13.5 → 11.3 %; 1 right lost (a pay award the minutes of March give).

Tried and not kept (the three sets): the sentence alone, without the answer ("Does this
sentence answer the question?"): 16 wrong stopped for 9 right lost (it says no to a list's item
and to "this rises to 30 days"); with the answer and one sentence before: 13 for 4; on the 27
answers the others changed, "could the answer be X?" stopped 5 for 3 lost, and "is the text
about what the question asks?" fewer.

One call reads 125-185 prompt tokens: p50 0.6-0.9 s, p95 1.5 s with the 1.5B on the AMD EPYC
host (2 cores, avx2 + avx512f + avx512_vnni, no AMX; about 150 prompt tok/s while shared), made
only where an answer passed every rule step.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..llm.local import Completion
from ..llm.metered import MeteredLLM
from ..text.rows import parse_row
from ..text.sentences import split_sentences
from ..types import Unit
from .asked import own_year
from .binding import Standing
from .reply import merged
from .scaled import BARE
from .year_amounts import amounts_in

MODEL_CHECKS = 3
"""Sentences holding the answer asked of at most, in turn, until the model says one answers."""
LEAD_SENTENCES = 2
"""Sentences before the one the answer stands on that the call reads too: on the office set one
("this rises to 30 days" under "Full-time staff receive 27 days") lost "You may carry over up
to 5 unused days" two sentences up, and with two the model said yes to it."""
WINDOW_WORDS = 30
"""Words either side of the answer the call reads of a long sentence (a table flattened into
one sentence runs to hundreds): one short call, the answer always in it."""
SYSTEM = "You check whether a text from a document answers a question. Answer yes or no only."


def heading_of(standing: Standing) -> str:
    """The passage's title and section path, as the call reads them ("" where it has none)."""
    unit = standing.unit
    parts = [unit.title.strip(), str(unit.provenance.get("section") or "").strip()]
    out: list[str] = []
    for p in parts:
        if p and p.lower() not in (o.lower() for o in out):
            out.append(p)
    return ". ".join(out)


def window(sentence: str, answer: str) -> str:
    """``sentence``, or the `WINDOW_WORDS` either side of where ``answer`` is in it when longer."""
    words = sentence.split()
    if len(words) <= 2 * WINDOW_WORDS:
        return " ".join(words)
    key = (answer.split() or [""])[0].strip("$£€").lower()
    at = next((i for i, w in enumerate(words) if key and key in w.lower()), 0)
    lo = max(0, at - WINDOW_WORDS)
    return ("… " if lo else "") + " ".join(words[lo : at + WINDOW_WORDS]) + (" …" if at + WINDOW_WORDS < len(words) else "")


def passage_text(standing: Standing, answer: str) -> str:
    """What the call reads: the `LEAD_SENTENCES` sentences before (a list's lead, what "this"
    refers to, the rule a "more than" qualifies), then the sentence, each cut to a window (the
    sentence's around the answer)."""
    said = split_sentences(standing.unit.text)
    held = [(len(s), -i) for i, s in enumerate(said) if s and s in standing.sentence]  # "Heading: sentence" holds it
    at = -max(held)[1] if held else None  # the longest held: not a one-word heading met earlier
    lead = said[max(0, at - LEAD_SENTENCES) : at] if at is not None else []
    return " ".join([*(window(s, "") for s in lead), window(standing.sentence, answer)])


def year_settled(question: str, standing: Standing, answer: str) -> str:
    """``question`` without the year it names where the sentence gives ``answer`` as that year's
    by its prior-year bracket (asked.py `own_year`: "It excludes lease liabilities of €37.4
    million (2021: €33.9 million)" is 2022's): the rule step settled the year, and the call, shown
    no "2022", said no to the report's own figure; else ``question`` as it is."""
    year = own_year(standing.sentence, answer)
    if year is None or year not in question:
        return question
    said = re.compile(
        rf"\s*,?\s*\b(?:(?:in|for|during|as\s+(?:at|of)|at\s+the\s+end\s+of)\s+)?(?:(?:the\s+)?(?:fiscal|financial)\s+(?:year\s+)?|FY\s?)?{year}\b",
        re.I,
    )
    return " ".join(said.sub("", question, count=1).split())


def as_printed(sentence: str, answer: str) -> str:
    """``answer``, a bare number, as the sentence prints it ("37.4" → "€37.4 million", the one
    amount of that value it states with a currency or scale); else ``answer``. Asked of "37.4",
    the 1.5B said no to the sentence that gives "€37.4 million"."""
    if not BARE.match(answer.strip()):
        return answer
    try:
        value = abs(float(re.sub(r"[^\d.]", "", answer)))
    except ValueError:
        return answer
    printed = {a.text for _, a, scale in amounts_in(sentence) if abs(a.value) == value and (a.currency or scale) and not a.percent}
    return next(iter(printed)) if len(printed) == 1 else answer


def sentence_messages(question: str, standing: Standing, answer: str) -> list[dict[str, str]]:
    """The call's prompt (the module doc): the text under its heading, the question (its year
    left out where the sentence's bracket settles it, `year_settled`), the answer read, as the
    sentence prints it (`as_printed`)."""
    heading = heading_of(standing)
    lines = [f"Passage: {heading}"] if heading else []
    lines += [
        f"Text: {passage_text(standing, answer)}",
        f"Question: {year_settled(question, standing, answer)}",
        f"Proposed answer: {as_printed(standing.sentence, answer)}",
        "Does the text give this answer to the question? Answer yes or no.",
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def checkable(standing: Standing) -> bool:
    """Whether the model is asked of the sentence: prose, not a table's row line (a row's cell is
    bound to its row and column in code)."""
    return not parse_row(standing.sentence)


def _said(llm: MeteredLLM, question: str, standing: Standing, answer: str, method: str, sources: list[str] | None) -> Completion:
    return llm.chat(
        sentence_messages(question, standing, answer), stage="answer", method=method, max_tokens=4, sources=sources, choices=["yes", "no"]
    )


PROBE = (
    "Parking permits",
    "Residents' permits cost £45 a year.",
    "How much does a resident's parking permit cost?",
    "£45 a year",
)
"""A text that plainly gives the answer: a model that says "no" to it is not asked (`discerns`)."""
_DISCERNS: dict[str, bool] = {}


def probe(llm: MeteredLLM, method: str) -> tuple[bool, Completion | None]:
    """Whether the model says "yes" to the `PROBE`, a sentence that plainly gives the answer
    (asked once a process, cached with the model's calls): the 0.5B says "no" to every text, this
    one included, so its "no" would drop every answer it read; it is not asked. (A model that
    says "yes" to everything drops nothing.) With the probe's completion where it was asked now
    (its tokens are the answer's that asked it), else None."""
    key = str(getattr(llm.llm, "sha256", "")) or str(getattr(llm.llm, "path", ""))
    if key in _DISCERNS:
        return _DISCERNS[key], None
    title, sentence, question, answer = PROBE
    unit = Unit(kind="chunk", id="probe", text=sentence, tokens=0, score=0.0, doc_id="probe", chunk_id="probe", title=title)
    asked = _said(llm, question, Standing(unit, sentence), answer, method, None)
    _DISCERNS[key] = not said_no(asked)
    return _DISCERNS[key], asked


def discerns(llm: MeteredLLM, method: str) -> bool:
    """Whether the model is asked at all (`probe`)."""
    return probe(llm, method)[0]


class SentenceChecker:
    """``confirm(standing, answer)`` for check.py: the model's yes or no for ``question`` (the
    question proper) and ``answer`` from ``standing``'s sentence alone, as its completion; None
    (not asked) where the model says "no" to the plain `PROBE`. ``probed``: the probe's call where
    this answer made it (read.py counts its tokens with the answer's)."""

    def __init__(self, llm: MeteredLLM, question: str, method: str) -> None:
        self.llm, self.question, self.method = llm, question, method
        self.probed: Completion | None = None

    def __call__(self, standing: Standing, answer: str) -> Completion | None:
        ok, asked = probe(self.llm, self.method)
        self.probed = asked or self.probed
        if not ok:
            return None
        return _said(self.llm, self.question, standing, answer, self.method, [standing.unit.chunk_id])


def sentence_checker(llm: MeteredLLM, question: str, *, method: str) -> SentenceChecker:
    """The model check's ``confirm`` for one answer (`SentenceChecker`)."""
    return SentenceChecker(llm, question, method)


def said_no(c: Completion | None) -> bool:
    """Whether the model said the sentence does not answer (no call: it answers)."""
    return c is not None and c.text.strip().lower().startswith("no")


def confirmed_by(confirm: Callable[[Standing, str], Completion | None] | None, standings: list[Standing], answer: str) -> Completion | None:
    """``standings`` asked of in turn until the model says one gives ``answer`` to the question:
    the calls as one (`merged`, the last one's text); None where none was asked."""
    out = None
    for s in standings if confirm is not None else []:
        c = confirm(s, answer)
        if c is None:
            continue
        out = c if out is None else merged(out, c)
        if not said_no(c):
            break
    return out
