"""A value the guidance gives per category, moved to the category the user's words name (issue
#62, "the condition of another case"; the check's ``case`` step, beside cases.py's bands).

Guidance lists one value per kind of person or thing:

    They repay:
    9% of their income above £27,295 a year for Plan 2
    6% of their income above £21,000 a year for Postgraduate loans

A small model reads the first value, or the commonest, whoever the user is ("a recent
postgraduate … doctoral research"). So where the sentence a short answer stands on is such a
list (`categories`: two or more items, each a value "for" its category or a category ":" its
value, the answer one item's value), and the user's own words (the situation and the question
proper) name the category of exactly one item, by a word that tells it from the others (a
modifier of its head noun: "postgraduate", not "loans", which "a student loan" says too; not
"Plan", which three of them share, nor a bare number), the answer is that item's value as the
page prints it ("6% of their income above £21,000 a year"). Where the user's words name none, or
several, the model's pick stands: a category is never guessed. A reply that is no value (a year,
a row's label such as "Third Quarter": issue #63) is left to the other steps.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..text.keywords import keywords
from .binding import Standing, lemma
from .question import Question

_FOR = re.compile(r"^(?P<value>.*?\d.*?)\s+for\s+(?P<category>[^.;:]+?)\.?$", re.I)
"""An item giving its value first: "6% of their income above £21,000 a year for Postgraduate loans"."""
_COLON = re.compile(r"^(?P<category>[^:\d]{3,60}):\s*(?P<value>.*?\d.*?)\.?$")
"""An item giving its category first: "Postgraduate loans: 6% of income above £21,000"."""
_ITEM_SPLIT = re.compile(r"\n+|;\s+|\s+[•·]\s+")


@dataclass(frozen=True)
class Category:
    """One item of a list of values by category."""

    value: str
    """The value as printed ("6% of their income above £21,000 a year")."""
    category: str
    """Its category ("Postgraduate loans")."""


def categories(sentence: str) -> list[Category]:
    """The items of ``sentence`` that each give a value for a category (the module doc); [] when
    fewer than two do."""
    out = []
    for part in _ITEM_SPLIT.split(sentence):
        part = " ".join(part.split()).strip(" -*")
        m = _FOR.match(part) or _COLON.match(part)
        if m:
            out.append(Category(m["value"].strip(" ,"), m["category"].strip()))
    return out if len(out) >= 2 else []


def _telling(items: list[Category]) -> list[set[str]]:
    """Each item's words that tell its category from the others': its modifiers, not its head
    noun ("postgraduate" of "Postgraduate loans": "a student loan" names no category), in no
    other item's category, words, not numbers."""
    words = []
    for c in items:
        alpha = [lemma(w) for w in keywords(c.category) if w.isalpha() and len(w) > 2]
        words.append(set(alpha[:-1] if len(alpha) >= 2 else alpha))
    seen = Counter(w for ws in words for w in ws)
    return [{w for w in ws if seen[w] == 1} for ws in words]


def in_category(short: str, standing: list[Standing], q: Question) -> Category | None:
    """The item of the category the user's words name, where ``short`` is another item's value
    (the module doc); None when the step does not apply or the answer is already it."""
    if not re.search(r"\d", short) or re.fullmatch(r"(?:19|20)\d{2}", short.strip()):
        return None  # a year or a label ("Third Quarter") chosen, not a category's value
    said = {lemma(w) for w in keywords(" ".join((*q.situation, q.asked)))}
    for s in standing:
        items = categories(s.sentence)
        if not items or not any(short.lower() in c.value.lower() for c in items):
            continue
        named = [c for c, tell in zip(items, _telling(items)) if tell & said]
        if len(named) != 1 or short.lower() in named[0].value.lower():
            return None
        return named[0]
    return None
