"""Each side of a comparison and its value, read in code (compare.py's steps 2 and 3, and the
model's step read of a missing side, step 4): `side_passages` finds a side's passages,
`side_value` reads a date-free value from them (a quantity with its unit, a coordinate or a
distance, a category), `step_question` is the one-hop question a missing side is read with and
`parse_read` its reply's value; `shared_phrase` is what two categories have in common.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..text.normalize import normalize
from ..text.quantities import Quantity, coordinates, distance_km, quantities
from ..text.sentences import split_sentences
from ..types import Unit
from .comparison_question import ComparisonQuestion
from .relations import find_passage, title_key

_CATEGORY = re.compile(
    r"\b(?:is|was|are|were)\s+(?:(?:a|an|the|one of the)\s+)(?P<cat>[^.;()]+?)"
    r"(?=\s+(?:who|which|that|whose|where|from|based|located|known|best|founded|born|in|on|at|by|with|for|since|used|made|"
    r"produced|owned|operated|built|designed|written|directed|named|called|created|developed|published|released)\b|[.;(]|$)"
)
_ADJECTIVE_NOUNS = {
    "tall": "height high", "high": "height elevation altitude tall", "long": "length", "short": "length", "low": "height elevation",
    "deep": "depth", "shallow": "depth", "wide": "width", "narrow": "width", "heavy": "weight mass", "light": "weight mass",
    "large": "area size population", "big": "size area", "small": "area size population", "great": "",
    "fast": "speed", "slow": "speed", "far": "distance",
}  # fmt: skip
"""The nouns a passage may write a comparative adjective's measure with ("taller" → "height")."""


def stem(word: str) -> str:
    return word.lower().rstrip("s")[:6]


@dataclass
class Side:
    """One option of a comparison: its passages and the value read for it (None: not found)."""

    option: str
    units: list[Unit]
    value: object | None = None
    """A `When`, a `Quantity`, a float (a coordinate or a distance), or a string (a category)."""
    text: str = ""
    """The value as written, for the reason line."""
    how: str = "in code"
    """``in code`` or ``read`` (a step the model read, `finish`)."""

    def said(self) -> str:
        return f"{self.option}: {self.text}" + (" (read)" if self.how == "read" else "")


def side_passages(option: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None) -> list[Unit]:
    """The passages about ``option``: its own (titled so) first, then retrieved ones that name it."""
    own = find_passage(option, units, None)
    key = normalize(option)
    pool = list(units)
    if lookup is not None:  # one retrieval for the option's name: its own passage, and others naming it
        pool += lookup(option)
        own = own or find_passage(option, pool, None)
    naming = [u for u in pool if key and f" {key} " in f" {normalize(u.text)} "]
    out: dict[str, Unit] = {}
    for u in ([own] if own else []) + naming:
        out.setdefault(u.chunk_id, u)
    return list(out.values())


def _sentences_about(option: str, passages: list[Unit]) -> list[str]:
    """Sentences that can hold the option's value: every sentence of its own passage, and the
    sentences of other passages that name it."""
    key = normalize(option)
    out = []
    for u in passages:
        own = title_key(u.title) == key
        for s in split_sentences(u.text):
            if own or f" {key} " in f" {normalize(s)} ":
                out.append(s)
    return out


def category(option: str, passages: list[Unit]) -> str | None:
    """What the option is, from the first sentence that says so: "X is an American film
    director" → "American film director"."""
    for s in _sentences_about(option, passages)[:3]:
        m = _CATEGORY.search(s)
        if m:
            return " ".join(m.group("cat").split())
    return None


def quantity(q: ComparisonQuestion, option: str, passages: list[Unit]) -> Quantity | None:
    """The option's value for the quantity asked: a number right before the attribute's noun
    ("250 species"), else in a sentence naming the attribute ("a population of 12,345"), of the
    dimension the question measures ("taller": a length) when it says one; else, when it does,
    the first quantity of that dimension ("Which is shorter …?": "It is 300 m tall")."""
    words = q.attribute.split()
    nouns = [stem(words[-1])] if words else []
    nouns += [stem(n) for n in _ADJECTIVE_NOUNS.get(q.attribute, "").split()] + (
        [stem(q.attribute)] if q.attribute in _ADJECTIVE_NOUNS else []
    )
    best: tuple[int, Quantity] | None = None
    for s in _sentences_about(option, passages):
        stems = {stem(w) for w in re.findall(r"[A-Za-z]+", s)}
        named = any(n in stems for n in nouns)
        for found in quantities(s):
            if q.dimension and found.dimension != q.dimension:
                continue
            after = [stem(w) for w in found.after.split()[: len(words) + 1]]
            # a number before the noun, else in a sentence naming it, else any of the dimension asked ("250 m")
            score = 3 if any(n in after for n in nouns[:1]) else 2 if named else 1 if q.dimension else 0
            if score and (best is None or score > best[0]):
                best = (score, found)
    return best[1] if best else None


def side_value(q: ComparisonQuestion, side: Side, near: tuple[float, float] | None = None) -> None:
    """Read ``side``'s value in code from its passages (`Side.value` stays None when none is found)."""
    if q.kind == "quantity":
        found = quantity(q, side.option, side.units)
        if found is not None:
            side.value, side.text = found, found.text
    elif q.kind == "place":
        for s in [u.text for u in side.units[:1]] + _sentences_about(side.option, side.units):
            at = coordinates(s)
            if at is not None:
                if q.near:
                    if near is not None:
                        side.value, side.text = distance_km(at, near), f"{distance_km(at, near):,.0f} km from {q.near}"
                else:
                    i = 0 if q.attribute in ("north", "south") else 1
                    side.value, side.text = at[i], f"{abs(at[i]):.2f}°{'NS'[at[i] < 0] if i == 0 else 'EW'[at[i] < 0]}"
                break
    elif q.kind in ("same", "both", "common"):
        cat = category(side.option, side.units)
        if cat is not None:
            if q.kind == "same" and q.attribute in ("nationality", "country", "nation", "citizenship"):
                demonyms = [w for w in cat.split() if w[:1].isupper()]
                if demonyms:
                    side.value, side.text = " ".join(demonyms), " ".join(demonyms)
            elif q.kind != "same":
                side.value, side.text = cat, cat


def step_question(q: ComparisonQuestion, option: str) -> str | None:
    """The one-hop question a side's value is read with when code finds none (None: not read)."""
    if q.kind == "quantity":
        if q.attribute in _ADJECTIVE_NOUNS:
            return f"How {q.attribute} is {option}?"
        if q.attribute.endswith("s"):
            return f"How many {q.attribute} does {option} have?"
        return f"What is the {q.attribute} of {option}?"
    if q.kind == "same" and q.date:  # "born in the same city": where each was born
        return f"Where was {option} born?" if q.date == "birth" else f"Where did {option} die?"
    if q.kind == "same" and q.attribute:
        return f"What is the {q.attribute} of {option}?"
    return None


def parse_read(q: ComparisonQuestion, reply: str) -> tuple[object, str] | None:
    """A side's value from the model's short answer to its `step_question`."""
    if q.kind == "quantity":
        found = [x for x in quantities(reply) if not q.dimension or x.dimension == q.dimension]
        return (found[0], found[0].text) if found else None
    if q.kind == "same":
        key = normalize(reply)
        return (reply, reply) if key and not reply.lower().startswith("i do not know") else None
    return None


FILLER = frozenset("a an the and or of in on at by for with to from as is was".split())


def shared_phrase(a: str, b: str, asked: str = "") -> str:
    """What two category phrases share: the longest run of words both hold ("American film
    director" and "American actor and film director" → "film director"), or, when the question
    asks one kind of word ("What nationality…"), the capitalised words both hold."""
    wa, wb = a.split(), b.split()
    if asked in ("nationality", "country", "nation"):
        common = [w for w in wa if w[:1].isupper() and w in wb]
        return " ".join(common)
    best: list[str] = []
    lb = [w.lower().strip(",") for w in wb]
    la = [w.lower().strip(",") for w in wa]
    for i in range(len(la)):
        for j in range(len(lb)):
            k = 0
            while i + k < len(la) and j + k < len(lb) and la[i + k] == lb[j + k]:
                k += 1
            run = [w.strip(",") for w in wa[i : i + k]]
            while run and run[0].lower() in FILLER:
                run = run[1:]
            while run and run[-1].lower() in FILLER:
                run = run[:-1]
            if len(run) > len(best):
                best = run
    return " ".join(best)
