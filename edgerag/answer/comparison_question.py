"""What a comparison question asks, from its grammar alone: the two options, the kind of value
compared, which end wins, and whether the answer is an option or yes/no (issues #42, #49).
compare.py finds and decides the values.

`offer` → `Offer`: where a question names its two options, in any of its phrasings:

    trailing   "Who was born first, A or B?"  "…: A or B?"  "…, A and B?"  "… first A or B?"
    leading    "Between A and B, who …?"  "Of A and B, which …?"  "Among A and B, …"
    inside     "Which of A and B was born first?"  "Which of the two towns, A or B, is …?"
    pair first "A vs. B: who …?"  "A or B, which …?"  "A versus B: …"
    than       "Is A older than B?"  "Was A born before B?"  "Does A have more X than B?"  (yes/no)

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

from ..text.linkkeys import capitalised_runs
from .relations import RELATION_WORDS

MAX_OPTION_CHARS = 80
"""An option longer than this is no name: the question is not split there."""
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
_AUX = r"(?:is|are|was|were|do|does|did|has|have|had)"
_AUX_START = re.compile(rf"^\s*{_AUX}\b", re.I)
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
_THAN = re.compile(rf"^\s*(?P<aux>{_AUX})\s+(?P<middle>.+?)\s+(?P<link>than|before|after)\s+(?P<b>.+?)\s*\??\s*$", re.I)
_LEADING_WORD = re.compile(rf"^(?:{_AUX}|what|which|who|whom|whose|where|when|how|can|could|will|would)\s+", re.I)


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


def offer(question: str) -> Offer | None:
    """The two options a question names and its stem, in any phrasing of the module doc; None
    when it names no two options."""
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


def pair_options(question: str) -> list[str]:
    """The two options of a choice ("…, A or B?", "Between A and B, …", "A vs. B: …"): the
    options of `offer`, but not those of a "than" question."""
    o = offer(question)
    return list(o.options) if o is not None and o.joined != "than" else []


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
