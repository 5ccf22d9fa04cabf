"""What a comparison question asks, from its grammar alone: the two options, the kind of value
compared, which end wins, and whether the answer is an option or yes/no (issues #42, #49).
compare.py finds and decides the values.

The two options and the stem come from options.py (`offer`: "…, A or B?", "Between A and B,
…", "A vs. B: …", "Is A older than B?" and the rest of its phrasings).
The **stem** is the question with its options cut out: the direction words are read there, so
an option's own words ("First for Women", "The Younger Sons") never turn a question around.
Options joined by *and* are offered only where the stem compares ("Which genus has more
species, Quercus and Fagus?"); "What do A and B have in common?" is a category question.

`parse_comparison` → `ComparisonQuestion`: the kind and the direction from the stem: an earlier
or later date ("first", "older", "died later", "lived longer"); "more" / "fewer" and the noun
counted ("more Grand Slam titles"); a comparative adjective ("taller": a length, "heavier": a
mass; `LOW_POLE` holds the ones whose smaller value wins); a compass point ("further south") or
"closer to X"; "same" and its noun ("the same nationality"; "die in the same year" compares two
dates for equality); "both" and its category. An optional **relation** hop ("Which film has
*the director* who died earlier, A or B?") only where the options *have* the relation (`_HOP`:
"has the director", "whose director", "film's director", "the director of"): in "Which film
director is younger, A or B?" the noun says what the options are, and no hop is made.
No passage is read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .options import AUX, and_options, offer
from .relations import RELATION_WORDS

_RELATION = re.compile(rf"\b({RELATION_WORDS})s?\b", re.I)
_HOP = re.compile(
    rf"(?:\b(?:has|had|have|with|whose)\s+(?:(?:a|an|the)\s+)?(?:[a-z]+\s+){{0,2}}?|'s\s+(?:[a-z]+\s+)?)(?P<rel>{RELATION_WORDS})s?\b"
    rf"|\b(?P<of>{RELATION_WORDS})s?\s+of\b",
    re.I,
)
"""A relation the options have (a hop to a person): "has the director who", "whose composer",
"film's director", "the director of"; not the options' own category ("Which film director …")."""
_EARLY = re.compile(r"\b(?:first|earlier|earliest|older|oldest|sooner|before)\b", re.I)
_LATE = re.compile(r"\b(?:later|last|latest|younger|youngest|more recent(?:ly)?|most recent(?:ly)?|newer|newest|after)\b", re.I)
_BIRTH = re.compile(r"\b(?:born|birth|older|oldest|younger|youngest)\b", re.I)
_DEATH = re.compile(r"\b(?:died|die|dies|death|passed away)\b", re.I)
_LIVED = re.compile(r"\blived (?P<end>longer|shorter)\b", re.I)
_THING = re.compile(
    r"\b(?:came out|come out|released|release|founded|established|formed|started|launched|published|premiered|opened|"
    r"created|built|aired)\b",
    re.I,
)
_COMPASS = re.compile(r"\b(?:further|farther|more|most)?\s*(?P<dir>north|south|east|west)(?:ern(?:most)?|ward|most)?\b", re.I)
_NEAR = re.compile(r"\b(?:closer|nearer|closest|nearest) to (?P<place>.+?)(?:,|$)", re.I)
_AUX_START = re.compile(rf"^\s*{AUX}\b", re.I)
_MORE = re.compile(
    r"\b(?P<word>more|most|fewer|fewest|less|least|greater|larger|higher|bigger|smaller|lower)\s+(?:number of\s+)?"
    r"(?!than\b)(?P<attr>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,3}?)"
    r"(?=\s*(?:,|\?|:|$)|\s+(?:than|in|on|at|by|for|from|over|during|does|did|do|has|had|have|is|was|were|are|between|among)\b)"
)
"""A quantity by "more/fewer + noun": "has more members", "won more Grand Slam titles", "a larger population"."""
_ADJECTIVE_END = re.compile(r"(?:ous|ful|ive|able|ible|al|ic|ar|ant|ent|ly|ed|ing|ish|less)$")
"""An adjective, not a noun, after "more": "more famous", "more popular", "more recently" compare nothing counted."""
_ADJECTIVE = re.compile(
    r"\b(?:is|was|are|were|be|stands?|runs?|looks?|rises?|reaches?)\s+(?:the\s+)?(?P<word>[a-z]+(?:er|est))\b(?!\s+than\s+(?:the\s+)?other)"
)
"""A quantity by a comparative adjective: "Which is taller", "which mountain is higher"."""
LOW_POLE = frozenset(
    "smaller smallest shorter shortest lower lowest lighter lightest fewer fewest less least narrower narrowest "
    "shallower shallowest slower slowest cheaper cheapest thinner thinnest weaker weakest poorer poorest lesser".split()
)
"""English comparatives whose winner has the smaller quantity (the others: the larger)."""
DIMENSIONS = {
    "tall": "length", "high": "length", "long": "length", "short": "length", "low": "length", "deep": "length",
    "shallow": "length", "wide": "length", "narrow": "length", "far": "length",
    "heavy": "mass", "light": "mass", "fast": "speed", "slow": "speed",
    "large": None, "big": None, "small": None, "great": None,
}  # fmt: skip
"""The dimension a comparative adjective's root measures (None: any, or a count)."""
_ROOT = re.compile(r"^(?P<root>[a-z]+?)(?:i)?(?:er|est)$")
DATE_WORDS = frozenset("year date day month decade century".split())
"""What "the same …" compares as two dates: "Did A and B die in the same year?"."""


@dataclass(frozen=True)
class ComparisonQuestion:
    """What `parse_comparison` read from a question: which two things, compared how."""

    options: tuple[str, str]
    kind: str = "date"
    """``date`` (born, died, released first), ``quantity`` (more members, taller), ``place``
    (further south, closer to X), ``same`` (yes/no: the same nationality), ``both`` (yes/no: both
    X) or ``common`` (what the two have in common)."""
    date: str = ""
    """``date``: ``birth``, ``death``, ``thing`` (the option's own date) or ``lifespan``;
    ``same``: the event whose place is compared ("born in the same city": ``birth``), or ""."""
    earlier: bool = False
    """``date``: True when the earlier date (or shorter life) wins."""
    relation: str | None = None
    """A relation noun to hop through first ("director"), or None."""
    attribute: str = ""
    """What is compared or asked: "members", "tall", "nationality", "opera composers"."""
    larger: bool = True
    """``quantity`` and ``place``: True when the larger value wins (more, taller, further north)."""
    dimension: str | None = None
    """``quantity``: the dimension the attribute measures (``length``, ``mass``…), None for any."""
    near: str = ""
    """``place``: the place a "closer to X" question measures from."""
    asks: str = "which"
    """What the answer is: ``which`` (one of the options), ``wins`` (yes when the first option
    wins: "Is A older than B?") or ``equal`` (yes when the two values are equal at the
    attribute's precision: "Did A and B die in the same year?")."""

    @property
    def closed(self) -> bool:
        """Answered yes or no, not by one of the options."""
        return self.kind in ("same", "both") or self.asks != "which"

    def verdict(self, first_wins: bool) -> str:
        """The answer when the first option wins (``first_wins``) or the second does."""
        if self.asks != "which":
            return "yes" if first_wins else "no"
        return self.options[0] if first_wins else self.options[1]


def question_options(question: str) -> list[str]:
    """The two options a question asks to choose between, in any phrasing (`offer`): always
    for "… A or B"; for "… A and B" only where the question compares the two and asks for
    one of them ("Which genus has more species, Quercus and Fagus?"); none for a yes/no
    question ("Is A older than B?", "Are A and B both X?")."""
    o = offer(question)
    if o is None or o.joined == "than":
        return []
    if o.joined == "or":
        return list(o.options)
    q = parse_comparison(question)  # "and" and "bare": only where the question compares
    return list(q.options) if q is not None and not q.closed else []


def parse_comparison(question: str) -> ComparisonQuestion | None:
    """The comparison a question asks for (see `ComparisonQuestion`), or None when it asks
    something else. The direction words come from the stem (`offer`): "more"/"fewer" and a
    noun, a comparative adjective ("taller", "smaller": `LOW_POLE` wins low), a compass point,
    an earlier/later date; "same", "both" and "in common" after two things joined by "and"."""
    o = offer(question)
    if o is not None:
        q = _dated(o.stem, o.options) or _placed(o.stem, o.options) or _quantity(o.stem, o.options)
        if q is not None:
            return replace(q, asks="wins") if o.joined == "than" else q
        if o.joined in ("or", "bare", "than"):
            return None
    return _categories(question)


def _relation(stem: str) -> str | None:
    """The relation the options have ("has the director who …"), not their category (`_HOP`)."""
    m = _HOP.search(stem)
    return (m.group("rel") or m.group("of")).lower() if m else None


def _dated(stem: str, opts: tuple[str, str]) -> ComparisonQuestion | None:
    relation_name = _relation(stem)
    lived = _LIVED.search(stem)
    if lived:
        return ComparisonQuestion(opts, "date", "lifespan", lived.group("end").lower() == "shorter", relation_name)
    early, late = _EARLY.search(stem), _LATE.search(stem)
    if bool(early) == bool(late):
        return None
    person = relation_name is not None or stem.lower().lstrip().startswith(("who ", "whom ", "who's "))
    if _DEATH.search(stem):
        date = "death"
    elif _BIRTH.search(stem) and (person or "born" in stem.lower() or _RELATION.search(stem)):
        date = "birth"
    elif _THING.search(stem) or (not person and (early or late)):
        date = "thing"
    else:
        return None
    return ComparisonQuestion(opts, "date", date, bool(early), relation_name)


def _placed(stem: str, opts: tuple[str, str]) -> ComparisonQuestion | None:
    near = _NEAR.search(stem)
    if near:
        return ComparisonQuestion(opts, "place", attribute="distance", larger=False, near=near.group("place").strip())
    compass = _COMPASS.search(stem)
    if compass and re.search(r"\b(?:further|farther|more|most|\w+ern\w*|\w+most)\b", compass.group(), re.I):
        d = compass.group("dir").lower()
        return ComparisonQuestion(opts, "place", attribute=d, larger=d in ("north", "east"))
    return None


def _quantity(stem: str, opts: tuple[str, str]) -> ComparisonQuestion | None:
    more = _MORE.search(stem)
    if more and not _ADJECTIVE_END.search(more.group("attr")):
        word, attr = more.group("word").lower(), more.group("attr").strip()
        root = _ROOT.match(word)
        dim = DIMENSIONS.get(root.group("root")) if root else None
        return ComparisonQuestion(opts, "quantity", attribute=attr, larger=word not in LOW_POLE, dimension=dim)
    adj = _ADJECTIVE.search(stem.lower() if _AUX_START.match(stem) else stem)
    if adj:
        word = adj.group("word").lower()
        root = _ROOT.match(word)
        root_word = root.group("root") if root else word
        # bigger → big, larger → large, heavier → heavy; "older" is a date, "better" measures nothing written
        base = next((b for b in (root_word, root_word[:-1], root_word + "e", root_word + "y") if b in DIMENSIONS), None)
        if base is None:
            return None
        return ComparisonQuestion(opts, "quantity", attribute=base, larger=word not in LOW_POLE, dimension=DIMENSIONS[base])
    return None


_SAME = re.compile(r"\bsame (?P<attr>[a-z]+(?: [a-z]+)?)", re.I)
_SHARE = re.compile(r"\bshare (?:a |an |the )?(?P<attr>[a-z]+)\b", re.I)
_BOTH_AFTER = re.compile(r"\bboth (?P<cat>.+?)\s*\??$", re.I)
_COMMON = re.compile(r"\b(?:in common|have both|are both|were both|both (?:are|were|have|had)|share|shared)\b|\bboth\s*\??\s*$", re.I)
_WH_START = re.compile(r"^\s*(?:what|which|who)\b", re.I)


def _categories(question: str) -> ComparisonQuestion | None:
    opts = and_options(question)
    # "the directors of A and B": a hop these kinds do not make (a relation after the options is
    # the asked category only in "Are A and B both composers?")
    if not opts or _RELATION.search(question[: question.find(opts[0])]):
        return None
    pair = (opts[0], opts[1])
    same = _SAME.search(question) or (_SHARE.search(question) if _AUX_START.match(question) else None)
    if same and _RELATION.search(question):
        return None
    if same and _AUX_START.match(question):
        attr = re.sub(r"\b(?:as|of|or|and)\b.*$", "", same.group("attr")).strip()
        event = "death" if _DEATH.search(question) else "birth" if re.search(r"\bborn\b", question, re.I) else ""
        noun = attr.split()[0].lower() if attr else ""
        if noun in DATE_WORDS:  # "Did A and B die in the same year?": two dates, equal or not
            date = event or ("thing" if _THING.search(question) else "")
            return ComparisonQuestion(pair, "date", date, attribute=noun, asks="equal") if date else None
        return ComparisonQuestion(pair, "same", date=event, attribute=attr)
    if _AUX_START.match(question):
        after = question[question.find(opts[1]) + len(opts[1]) :]
        both = _BOTH_AFTER.search(after) or (_BOTH_AFTER.search(question) if question.lower().count("both") else None)
        if both and "both" in question.lower():
            cat = after.strip(" ?") if both.group("cat").startswith(opts[0]) else both.group("cat")
            cat = re.sub(
                r"^(?:both\s+)?(?:(?:a|an|the|considered|described as|known as|classified as|types? of|kinds? of)\s+)*",
                "",
                cat.strip(" ?"),
                flags=re.I,
            )
            if cat:
                return ComparisonQuestion(pair, "both", attribute=cat)
        return None
    if _WH_START.match(question) and _COMMON.search(question):
        asked = re.match(r"^\s*(?:what|which)\s+(?:type of |kind of |sort of )?(?P<noun>[a-z]+)\b", question, re.I)
        noun = (
            asked.group("noun").lower()
            if asked and asked.group("noun").lower() not in ("do", "did", "does", "is", "are", "was", "were")
            else ""
        )
        return ComparisonQuestion(pair, "common", attribute=noun)
    return None
