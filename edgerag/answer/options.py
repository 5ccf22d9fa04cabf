"""Where a question names the two things it compares, in any phrasing (issue #49): `offer` →
`Offer`, the two options, the **stem** (the question without them, where comparison_question.py
reads the direction words) and how they are joined:

    trailing   "Who was born first, A or B?"  "…: A or B?"  "…, A and B?"  "… first A or B?"
    leading    "Between A and B, who …?"  "Of A and B, which …?"  "Among A and B, …"
    inside     "Which of A and B was born first?"  "Which of the two towns, A or B, is …?"
    pair first "A vs. B: who …?"  "A or B, which …?"  "A versus B: …"
    than       "Is A older than B?"  "Was A born before B?"  "Does A have more X than B?"  (yes/no)

`and_options`: the two things of "Are A and B both …?", "What do A and B have in common?".
Nothing here says whether the question compares: comparison_question.py decides that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.linkkeys import capitalised_runs
from .kinds import asked_kind, fits

MAX_OPTION_CHARS = 80
"""An option longer than this is no name: the question is not split there."""
AUX = r"(?:is|are|was|were|do|does|did|has|have|had)"
"""The auxiliary a yes/no question starts with."""


@dataclass(frozen=True)
class Offer:
    """Where a question names its two options (`offer`)."""

    options: tuple[str, str]
    stem: str
    """The question without its options: where the direction words are read."""
    joined: str
    """``or`` (also "vs."), ``and``, ``bare`` ("… first A or B" with no comma or lead word: the
    options are a capitalised run and the rest) or ``than`` ("Is A older than B?": yes/no)."""


_JOINER = re.compile(r"\s+(?P<j>or|and|vs\.?|versus)\s+", re.I)
_LEAD = re.compile(r"^\s*(?:between|of|among|comparing)\s+(?P<pair>.+?)\s*[,:;]\s*(?P<rest>.+)$", re.I)
_PAIR_FIRST = re.compile(
    r"^\s*(?P<pair>[^,:;?]+?\s+(?:or|and|vs\.?|versus)\s+[^,:;?]+?)\s*(?:[,:;]|\s[–—-])\s*"
    r"(?P<rest>(?:who|whom|whose|which|what)\b.+)$",
    re.I,
)
_WHICH_OF = re.compile(r"^\s*(?P<wh>which|who)\s+of\s+(?P<body>.+)$", re.I)
_ASIDE = re.compile(r"^(?P<head>[^,]+?),\s+(?P<pair>[^,]+?\s+(?:or|and|vs\.?|versus)\s+[^,]+?),\s+(?P<rest>[a-z].+)$")
"""A pair set off by commas, the question going on after it in lower case ("…, A or B, is
further north?"); "…, A or Sleep, My Love?" is a trailing pair whose option holds a comma."""
_TRAIL = re.compile(r"^(?P<rest>.+?)(?:,|:|\s[–—-])\s+(?P<pair>.+?)\s*\??\s*$")
_WH = re.compile(r"^\s*(?:who|whom|whose|which|what)\b", re.I)
_THAN = re.compile(rf"^\s*(?P<aux>{AUX})\s+(?P<middle>.+?)\s+(?P<link>than|before|after)\s+(?P<b>.+?)\s*\??\s*$", re.I)
_LEADING_WORD = re.compile(rf"^(?:{AUX}|what|which|who|whom|whose|where|when|how|can|could|will|would)\s+", re.I)


def _split(pair: str, last: bool = True) -> tuple[str, str, str] | None:
    """(A, B, joiner) of "A or B" / "A and B" / "A vs. B", at the last joiner (or the first)."""
    found = list(_JOINER.finditer(pair))
    if not found:
        return None
    ors = [m for m in found if m.group("j").lower() != "and"]
    m = (ors or found)[-1 if last else 0]
    a, b = pair[: m.start()].strip(" ,"), pair[m.end() :].strip(" ,?")
    if not a or not b or max(len(a), len(b)) > MAX_OPTION_CHARS:
        return None
    joined = "and" if m.group("j").lower() == "and" else "or"
    return a, b, joined


def _clean(option: str) -> str:
    return _LEADING_WORD.sub("", option.strip()).strip(" ,.?")


NO_NUMBER_KINDS = ("person", "place", "org", "thing")
"""The kinds of answer (kinds.py) that are never a number or a date: a pair of years or amounts
is no choice for them ("Who was the largest customer in 2019, 2018 and 2017?" asks for a name,
not between 2018 and 2017)."""


def offer(question: str) -> Offer | None:
    """The two options a question names and its stem, in any phrasing of the module doc; None
    when it names no two options, or none of the kind of answer it asks for (`NO_NUMBER_KINDS`)."""
    o = _offer(question)
    if o is None:
        return None
    kind = asked_kind(question)
    return None if kind in NO_NUMBER_KINDS and not all(fits(x, kind) for x in o.options) else o


def _offer(question: str) -> Offer | None:
    q = " ".join(question.split()).rstrip("?").strip()
    lead = _LEAD.match(q)
    if lead and (parts := _split(lead.group("pair"), last=False)):
        return Offer((parts[0], parts[1]), lead.group("rest"), parts[2])
    first = _PAIR_FIRST.match(q)
    if first and (parts := _split(first.group("pair"), last=False)):
        return Offer((_clean(parts[0]), parts[1]), first.group("rest"), parts[2])
    aside = _ASIDE.match(q)  # "Which of the two towns, A or B, is further north?"
    if aside and (_WH.match(aside.group("head")) or aside.group("head").lower().startswith("of ")):
        parts = _split(aside.group("pair"), last=False)
        if parts:
            head = re.sub(r"^of\s+the\s+two\b", "", aside.group("head"), flags=re.I).strip()
            return Offer((parts[0], parts[1]), f"{head} {aside.group('rest')}".strip(), parts[2])
    which_of = _which_of(q)
    if which_of:
        return which_of
    trail = _TRAIL.match(q)
    if trail and _WH.match(trail.group("rest")) and (parts := _split(trail.group("pair"))):
        return Offer((parts[0], parts[1]), trail.group("rest"), parts[2])
    if trail and " or " in trail.group("pair") and (parts := _split(trail.group("pair"))):  # "Is it A or B?"
        return Offer((parts[0], parts[1]), trail.group("rest"), parts[2])
    bare = _bare_or(q)
    if bare:
        return bare
    than = _THAN.match(q)
    if than:
        middle = than.group("middle")
        article = re.match(r"^(?:the|a|an)\s+", middle, re.I)
        body = middle[article.end() :] if article else middle
        runs = [r for r in capitalised_runs(body) if body.startswith(r)]
        b = than.group("b").strip(" ,")
        if runs and runs[0] != body.strip() and (b[:1].isupper() or b.lower().startswith("the ")):
            a = (article.group() if article else "") + runs[0]
            predicate = body[len(runs[0]) :].strip()
            link = than.group("link").lower()
            stem = f"{than.group('aux').lower()} {predicate} {link}"
            if len(b) <= MAX_OPTION_CHARS and not re.fullmatch(r"(?:the\s+)?others?|(?:any|every)\w*", b, re.I):
                return Offer((a, b), stem, "than")
    return None


def _which_of(q: str) -> Offer | None:
    """ "Which of A and B was born first?": A up to the joiner, B the capitalised run after it
    (an article may lead it), the stem "which" and the rest."""
    m = _WHICH_OF.match(q)
    if not m:
        return None
    body = m.group("body")
    joiner = next((j for j in _JOINER.finditer(body)), None)
    if joiner is None:
        return None
    a, tail = body[: joiner.start()].strip(), body[joiner.end() :]
    article = re.match(r"^(?:the|a|an)\s+", tail, re.I)
    rest = tail[article.end() :] if article else tail
    runs = [r for r in capitalised_runs(rest) if rest.startswith(r)]
    if not a or not runs or runs[0] == rest.strip() or re.match(r"^(?:the\s+)?two\b", a, re.I):
        return None
    b = (article.group() if article else "") + runs[0]
    joined = "and" if joiner.group("j").lower() == "and" else "or"
    return Offer((a, b), f"{m.group('wh')} {tail[len(b) :].strip()}", joined)


def _bare_or(q: str) -> Offer | None:
    """ "Which magazine was started first Arthur's Magazine or First for Women": no separator;
    A the capitalised run that ends at " or ", B the rest."""
    head, sep, b = q.rpartition(" or ")
    if not sep or (not b[:1].isupper() and not b[:1].isdigit()) or len(b) > MAX_OPTION_CHARS:
        return None
    runs = [r for r in capitalised_runs(head) if head.endswith(r)]
    if not runs or runs[-1] == head.strip() or not _WH.match(head):
        return None
    return Offer((runs[-1], b.strip()), head[: len(head) - len(runs[-1])].strip(), "bare")


def and_options(question: str) -> list[str]:
    """The two things of "Are A and B both …?", "Were A and B of the same …?", "What do A and B
    have in common?": the capitalised runs either side of " and " (a run may hold the "and");
    the question's own first word ("Did", "What") is no part of a name."""
    runs = [_clean(r) for r in capitalised_runs(question)]
    runs = [r for r in runs if r]
    for run in runs:
        if " and " in run:
            a, _, b = run.partition(" and ")
            if a and b and not a.lower().startswith(("both ", "are ", "were ")):
                return [a.strip(), b.strip()]
    for a, b in zip(runs, runs[1:]):
        if f"{a} and {b}" in question or f"{a}, and {b}" in question:
            return [a, b]
    return []
