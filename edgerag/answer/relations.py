"""One hop through a named relation, LLM-free: the passage about a thing, and the person its
text names for a relation ("… a 1948 film noir directed by Douglas Sirk" → the director is
Douglas Sirk, whose own passage is the next hop).

Shared by compare.py (the director of each of two films, then their dates) and hops.py (the
director of a film, then the question asked about that person). Both take a passage only by
its title, so a hop never lands on a passage that merely mentions a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text.linkkeys import capitalised_runs
from ..text.normalize import normalize
from ..types import Unit

_AND_MORE = r"(?:,?\s+(?:and\s+)?[a-z]+){0,3},?\s+by"
"""Other credits between the verb and "by": "directed, written, and produced by"."""
_WIFE = r"(?:husband|widower) of|married(?: to)?|his wife,?(?: was| is)?"
_HUSBAND = r"(?:wife|widow|consort) of|married(?: to)?|her husband,?(?: was| is)?"
RELATIONS = {
    "director": rf"directed{_AND_MORE}|direction of|(?:film|documentary|movie|picture) by",
    "composer": rf"composed{_AND_MORE}|music (?:is )?by|score by|(?:opera|symphony|operetta|ballet) by",
    "producer": rf"produced{_AND_MORE}",
    "writer": rf"written{_AND_MORE}|screenplay by|(?:novel|book|play|poem|story) by",
    "author": rf"written{_AND_MORE}|(?:novel|book|play|poem|story) by",
    "performer": rf"performed{_AND_MORE}|(?:song|single|album) (?:is )?by|recorded by|sung by",
    "creator": rf"created{_AND_MORE}",
    "father": r"(?:son|daughter|child) of|(?:his|her) father,?(?: was| is)?",
    "mother": r"(?:his|her) mother,?(?: was| is)?",
    "husband": _HUSBAND,
    "wife": _WIFE,
    "spouse": f"{_HUSBAND}|{_WIFE}",
}
"""Relation nouns a question may hop through, and how a passage names the relation's person."""
RELATION_WORDS = "|".join(RELATIONS)
_ARTICLE = re.compile(r"^(?:The|A|An)$")
LEAD_WORDS = 5
"""At most this many words between the phrase and the name ("by his older brother N. T. Rama Rao")."""


def title_key(title: str) -> str:
    """A title as compared with a name: without a disambiguation suffix ("Henry King (director)")."""
    return normalize(re.sub(r"\s*\([^)]*\)\s*$", "", title or ""))


def find_passage(name: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None) -> Unit | None:
    """The passage about ``name``: a retrieved one titled so, else one ``lookup`` finds."""
    key = normalize(name)
    if not key:
        return None
    for pool in (units, lookup(name) if lookup else []):
        for u in pool:
            if title_key(u.title) == key or normalize(u.title) == key:
                return u
    return None


def related_people(relation: str, text: str) -> list[str]:
    """The names the passage may give for ``relation``, likeliest first: the capitalised run
    after each "directed by" (or the relation's other phrasings), then the same run less its
    leading words ("film by Finnish director Pirjo Honkasalo" → "Finnish", "Pirjo
    Honkasalo"; "the Austrian- American John H. Auer" → …, "John H. Auer"). The first of two
    joined by "and" ("Reginald Denham and Thorold Dickinson" → "Reginald Denham"). The caller
    keeps the first name that has a passage of its own."""
    out: list[str] = []
    for m in re.finditer(rf"\b(?:{RELATIONS[relation]})\s+(.{{0,120}})", text):
        tail = m.group(1)
        for run in capitalised_runs(tail):
            if len(tail[: tail.find(run)].split()) > LEAD_WORDS:
                break
            words = run.split(" and ")[0].split()
            out += [" ".join(words[i:]) for i in range(len(words)) if not _ARTICLE.match(words[i])]
    return list(dict.fromkeys(out))


def hop(relation: str, passage: Unit, units: list[Unit], lookup: Callable[[str], list[Unit]] | None) -> tuple[str, Unit] | None:
    """(name, passage) of the person ``passage`` names for ``relation``: the first name that has
    a passage titled so; None when none has."""
    for name in related_people(relation, passage.text):
        found = find_passage(name, units, lookup)
        if found is not None and found.chunk_id != passage.chunk_id:
            return name, found
    return None
