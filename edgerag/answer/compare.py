"""Comparisons decided in code: two lookups and a decision, whatever is compared (issue #42).

"Who was born first, A or B?", "Which band has more members, A or B?", "Which city is further
south, A or B?", "Which is closer to X, A or B?", "Were A and B of the same nationality?", "Are
A and B both X?", "What do A and B have in common?".

A 0.5B model reads both values and still picks an option at chance: on the first 50
2WikiMultihopQA dev questions it answered 12 of 23 comparisons right, and no better with the
gold passages in front of it (docs/benchmarks.md, "Answers on an edge CPU"). Comparing two
values is not a language task, so the reader does it in code when it can:

1. **Parse** (comparison_question.py: `parse_comparison` → `ComparisonQuestion`): the two options ("…, A or B?", "…
   first A or B?" without a comma, or "A and B" for same / both / in common), the kind, and
   the direction, all from the question's grammar: an earlier or later date ("first", "older",
   "died later", "lived longer"); "more" / "fewer" and the noun counted ("more Grand Slam
   titles"); a comparative adjective ("taller": a length, "heavier": a mass; `LOW_POLE` holds
   the ones whose smaller value wins); a compass point ("further south") or "closer to X";
   "same" and its noun; "both" and its category. An optional **relation** hop ("Which film has
   the *director* who died earlier, A or B?": the director of each film, then that person).
2. **Find** each side's passages (`side_passages`): its own passage (titled as the option, from
   the context or the ``lookup`` callable), then retrieved passages whose text names it; a
   value is read only from sentences that name the option, or from its own passage.
3. **Read each value in code** (`side_value`): a date (text/dates.py: `person_dates`, `thing_date`); a
   quantity with its unit, converted to one base (text/quantities.py: "9 mi" against "12 km"),
   the number right before the counted noun first ("250 species"); a latitude or longitude
   from coordinates ("41°09′N 8°37′W"), or the great-circle distance to X; a category, the
   phrase after "is a" in the sentence that defines the option ("an American film director").
4. **Read a missing value by the model** (`finish`, quantities and "same" only): the side's
   one-hop question ("How many employees does A have?") retrieved on its own and read by the
   short reader, as a chain step is (chain.py), and its reply parsed as in step 3. Both sides
   of a "same" question are read alike, so "American" is never compared with "United States".
5. **Decide** (`judge`): the larger or smaller value, the earlier or later date; yes when the
   two nationalities share a word; yes when both categories hold the asked category's noun, no
   when one does not; the longest phrase both categories hold ("pressure valve"). Equal
   values, or values of different dimensions, decide nothing.

When a value cannot be found or parsed, the model reads the question whole, as before, and the
answer's reason says which side was missing. Every step names the passage it read, so the
answer cites both sides' passages and says how it was decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..text.dates import lifespan, person_dates, thing_date
from ..text.normalize import normalize
from ..text.quantities import Quantity, coordinates, distance_km, quantities
from ..text.sentences import split_sentences
from ..types import Unit
from .comparison_question import ComparisonQuestion, parse_comparison
from .relations import find_passage, hop, title_key

# ---- each side's value ---------------------------------------------------------------------------
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


def _stem(word: str) -> str:
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
    nouns = [_stem(words[-1])] if words else []
    nouns += [_stem(n) for n in _ADJECTIVE_NOUNS.get(q.attribute, "").split()] + (
        [_stem(q.attribute)] if q.attribute in _ADJECTIVE_NOUNS else []
    )
    best: tuple[int, Quantity] | None = None
    for s in _sentences_about(option, passages):
        stems = {_stem(w) for w in re.findall(r"[A-Za-z]+", s)}
        named = any(n in stems for n in nouns)
        for found in quantities(s):
            if q.dimension and found.dimension != q.dimension:
                continue
            after = [_stem(w) for w in found.after.split()[: len(words) + 1]]
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


# ---- the decision --------------------------------------------------------------------------------
@dataclass
class Decision:
    """A comparison decided in code: the answer, the passages it read and why."""

    answer: str
    units: list[Unit]
    """The passages read, option by option (a relation's passage after its option's)."""
    reason: str
    """One line for a person: each option's value and which won."""
    kind: str = "date"
    sides: list[Side] = field(default_factory=list)
    text: str = ""
    """The answer as shown, where it says more than ``answer`` (a computed number's formula); "" : ``answer``."""


@dataclass
class Pending:
    """A comparison whose sides code could not all read: the sides the model reads as steps
    (`finish`), each retrieved on its own."""

    question: ComparisonQuestion
    sides: list[Side]

    @property
    def to_read(self) -> list[Side]:
        return [s for s in self.sides if s.value is None]

    def missing(self) -> str:
        return ", ".join(s.option for s in self.to_read)


def decide(question: str, units: list[Unit], lookup: Callable[[str], list[Unit]] | None = None) -> Decision | Pending | None:
    """The comparison decided in code (see the module doc); a `Pending` one when a side's value
    is to be read by the model first; None when the question is no comparison this module
    decides, or a side cannot be read (the model reads the question whole)."""
    q = parse_comparison(question)
    if q is None:
        return None
    if q.kind == "date":
        return _decide_dates(q, units, lookup)
    near = None
    if q.near:
        near_passages = side_passages(q.near, units, lookup)
        near = next((c for u in near_passages[:2] if (c := coordinates(u.text)) is not None), None)
        if near is None:
            return None
    sides = []
    for option in q.options:
        side = Side(option, side_passages(option, units, lookup))
        side_value(q, side, near)
        sides.append(side)
    if all(s.value is not None for s in sides):
        return judge(q, sides)
    if any(step_question(q, s.option) is None for s in sides if s.value is None):
        return None
    if q.kind == "same":  # both sides read alike, or "American" and "United States" differ
        for s in sides:
            s.value, s.text = None, ""
    return Pending(q, sides)


def judge(q: ComparisonQuestion, sides: list[Side]) -> Decision | None:
    """The decision from both sides' values, or None when they do not decide it (equal, or of
    different dimensions)."""
    a, b = sides
    answer = None
    if q.kind in ("quantity", "place"):
        va = a.value.value if isinstance(a.value, Quantity) else a.value
        vb = b.value.value if isinstance(b.value, Quantity) else b.value
        if isinstance(a.value, Quantity) and isinstance(b.value, Quantity) and not a.value.comparable(b.value):
            return None
        if va == vb:
            return None
        answer = q.verdict((va > vb) == q.larger)
    elif q.kind == "same":  # "Dutch-born American" and "American" share a nationality
        shared = (set(normalize(str(a.value)).split()) & set(normalize(str(b.value)).split())) - _FILLER
        answer = "yes" if shared else "no"
    elif q.kind == "both":
        head = [_stem(w) for w in re.findall(r"[A-Za-z]+", q.attribute)]
        has = [bool(head) and head[-1] in {_stem(w) for w in re.findall(r"[A-Za-z]+", str(s.value))} for s in sides]
        if all(has):
            answer = "yes"
        elif any(has):
            answer = "no"
        else:
            return None
    elif q.kind == "common":
        answer = shared_phrase(str(a.value), str(b.value), q.attribute)
        if not answer:
            return None
    if answer is None:
        return None
    what = q.attribute or q.kind
    reason = f"{what}: {a.said()}; {b.said()}: {answer}"
    units: dict[str, Unit] = {}
    for s in sides:
        for u in s.units[:1]:
            units.setdefault(u.chunk_id, u)
    return Decision(answer=answer, units=list(units.values()), reason=reason, kind=q.kind, sides=sides)


_FILLER = frozenset("a an the and or of in on at by for with to from as is was".split())


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
            while run and run[0].lower() in _FILLER:
                run = run[1:]
            while run and run[-1].lower() in _FILLER:
                run = run[:-1]
            if len(run) > len(best):
                best = run
    return " ".join(best)


def finish(pending: Pending, *, retrieve: Callable[[str], object], read: Callable[..., object]) -> Decision | None:
    """Read each missing side as a step: its one-hop question retrieved on its own (``retrieve``,
    question → context) and read by the short reader (``read(question, context)`` → an answer
    with ``short`` and ``context.units``); then decide. None when a side's reply holds no value."""
    q = pending.question
    for side in pending.to_read:
        asked = step_question(q, side.option)
        got = read(asked, retrieve(asked))
        parsed = parse_read(q, got.short)
        if parsed is None:
            return None
        side.value, side.text = parsed
        side.how = "read"
        cited = {c.chunk_id for c in got.citations}
        side.units = [u for u in got.context.units if u.chunk_id in cited] or list(got.context.units[:1]) or side.units
    return judge(q, pending.sides)


def _decide_dates(q: ComparisonQuestion, units: list[Unit], lookup) -> Decision | None:
    found: list[tuple[object, list[Unit], str]] = []
    for option in q.options:
        passage = find_passage(option, units, lookup)
        if passage is None:
            return None
        read, subject = [passage], option
        if q.relation:
            found_person = hop(q.relation, passage, units, lookup)
            if found_person is None:
                return None
            person, passage = found_person
            read.append(passage)
            subject = f"{option}'s {q.relation} {person}"
        if q.date == "thing":
            when = thing_date(passage.text)
        elif q.date == "lifespan":
            birth, death = person_dates(passage.text)
            when = lifespan(birth, death)
        else:
            birth, death = person_dates(passage.text)
            when = birth if q.date == "birth" else death
        if when is None:
            return None
        found.append((when, read, subject))
    (a, read_a, who_a), (b, read_b, who_b) = found
    if q.asks == "equal":  # "the same year": equal at the precision asked, when both dates have it
        same = a.same(b, q.attribute)
        if same is None:
            return None
        verb = {"birth": "born", "death": "died", "thing": "dated"}[q.date]
        answer = "yes" if same else "no"
        reason = f"{who_a} {verb} {a.text}; {who_b} {verb} {b.text}: the same {q.attribute or 'date'}? {answer}"
        units = list({u.chunk_id: u for u in read_a + read_b}.values())
        return Decision(answer=answer, units=units, reason=reason)
    if q.date == "lifespan":
        if a == b:
            return None
        wins_a = (a < b) if q.earlier else (a > b)
        end = "shorter" if q.earlier else "longer"
        reason = f"{who_a} lived {a:g} years; {who_b} lived {b:g} years: {end} is {q.options[0] if wins_a else q.options[1]}"
    else:
        first = a.before(b)
        if first is None:
            return None
        wins_a = first if q.earlier else not first
        verb = {"birth": "born", "death": "died", "thing": "dated"}[q.date]
        end = "earlier" if q.earlier else "later"
        reason = f"{who_a} {verb} {a.text}; {who_b} {verb} {b.text}: {end} is {q.options[0] if wins_a else q.options[1]}"
    seen: dict[str, Unit] = {}
    for u in read_a + read_b:
        seen.setdefault(u.chunk_id, u)
    return Decision(answer=q.verdict(wins_a), units=list(seen.values()), reason=reason)
