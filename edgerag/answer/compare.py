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
2. **Find** each side's passages (side_values.py `side_passages`): its own passage (titled as the option, from
   the context or the ``lookup`` callable), then retrieved passages whose text names it; a
   value is read only from sentences that name the option, or from its own passage.
3. **Read each value in code** (side_values.py `side_value`): a date (text/dates.py: `person_dates`, `thing_date`); a
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
from ..text.quantities import Quantity, coordinates
from ..types import Unit
from .comparison_question import ComparisonQuestion, parse_comparison
from .relations import find_passage, hop
from .side_values import FILLER, Side, parse_read, shared_phrase, side_passages, side_value, stem, step_question

__all__ = ["Decision", "Pending", "Side", "decide", "finish", "judge", "shared_phrase"]


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
        shared = (set(normalize(str(a.value)).split()) & set(normalize(str(b.value)).split())) - FILLER
        answer = "yes" if shared else "no"
    elif q.kind == "both":
        head = [stem(w) for w in re.findall(r"[A-Za-z]+", q.attribute)]
        has = [bool(head) and head[-1] in {stem(w) for w in re.findall(r"[A-Za-z]+", str(s.value))} for s in sides]
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
