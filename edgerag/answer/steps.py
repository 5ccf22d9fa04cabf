"""A chain question split into single-hop steps by its grammar, not by its words: the innermost
noun phrase that names a thing the question does not name outright.

"Who was in charge of the country where the composer of Aschenbrodel was a citizen?" holds two
such phrases, one inside the other: "the composer of Aschenbrodel" (a thing's relation, any
noun: composer, performer, first president, headquarters) and "the country where … was a
citizen" (a relative clause). `next_bridge` finds the innermost one and the one-hop question
that asks for it ("Who is the composer of Aschenbrodel?"); chain.py answers it, puts the answer
in its place ("the country where Johann Strauss II was a citizen") and asks again, until no
phrase is left and the question itself is one hop.

The phrases it knows (IRCoT and Self-Ask let a large model split the question; a 0.5B or 1.5B
model mostly repeats it, docs/benchmarks.md, "An iterative reader"), each needing an
*anchor*, a name the question gives (a passage's title, a capitalised run, a quoted title,
or an earlier step's answer):

* **of** — "the <noun> of <anchor>": "the composer of Aschenbrodel", "the director of the
  romantic comedy "Big Stone Gap"" (up to three descriptive words before the anchor);
* **possessive** — "<anchor>'s <noun>": "Hello Love's performer", "Big Eye's main director";
* **relative** — "the <noun> <which|that|who|where|in which|…> <clause>", "the <noun>
  <participle> …" ("the country containing Nugegoda") and "the <noun> <Name> is from"; the
  clause runs to the question's end, a comma, the end of a passive verb ("… is located") when
  more follows, or, when the question's own wh-word would fall inside it, to the auxiliary or
  anchor before it ("The arena where the Lewiston Maineiacs played their home games | can seat
  how many people?").

The anchor itself is found by anchors.py. A phrase is not a step when it is all the question asks ("Who is the spouse of X?": the
question is already one hop) or when its noun names no thing ("the name of", "the east of",
"the number of").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..types import Unit
from .anchors import TRIM, anchor_after, anchor_before
from .relations import RELATIONS

STOP_HEADS = frozenset(
    "name names east west north south part parts rest end start beginning middle top bottom side edge "
    "center centre number numbers amount percentage size type kind sort year years date time basis "
    "one ones some all most many majority title total length height age population".split()
)
"""Nouns that name no thing to look up: "the name of …", "the east of …", "the number of …"."""
NAME_HEADS = frozenset(
    "village town city municipality county province state island kingdom republic region district borough parish".split()
)
"""Nouns that are part of a name before "of": "the village of Clonbrook", "the state of Ohio"."""
PERSON_HEADS = frozenset(
    set(RELATIONS)
    | set(
        "person people man woman performer performers singer artist actor actress founder founders president "
        "leader king queen ruler owner manager coach player creator designer architect inventor editor narrator "
        "host child son daughter brother sister parent parents governor mayor senator minister chairman "
        "captain winner star partner successor predecessor emperor pope bishop general commander sibling "
        "husband wife spouse voice cofounder co-founder head ceo lead chair director secretary treasurer supervisor".split()
    )
)
"""Nouns whose step is asked with "Who" ("Who is the performer of Hello Love?")."""
MODIFIERS = frozenset(
    "paternal maternal main first second third last current former late original eldest youngest older younger biological birth home".split()
)
"""Words that may come before a possessive's noun ("Big Eye's main director")."""
_RELATIVE = r"which|that|who|whom|whose|where|when|(?:in|at|on|from|of|to|by|for|with|near|under|into|through) which"
_PARTICIPLE = (
    r"[a-z]+ing|located|based|founded|named|known|made|owned|produced|released|published|built|created|written|directed|run|held|born|"
    r"led|headed|managed|chaired|funded|coordinated|supervised|kept|used|approved"
)
_RELATIVE_WORDS = frozenset("which that who whom whose where when".split()) | {
    f"{p} which" for p in "in at on from of to by for with near under into through".split()
}
_HEAD = r"(?P<head>(?:[a-z][\w-]* ){0,2}?[a-z][\w-]*)"
_OF = re.compile(rf"\b[Tt]he {_HEAD} of (?:the )?")
_REL = re.compile(rf"\b[Tt]he {_HEAD},? (?P<pron>{_RELATIVE}|{_PARTICIPLE})\b")
_ZERO = re.compile(rf"\b[Tt]he {_HEAD} (?P<pron>)(?=[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)* (?:is|was|are|were) (?:from|in|part of)\b)")
_ZERO_CLAUSE = re.compile(r".*? (?:is|was|are|were) (?:from|in|part of)\b")
_POSSESSIVE = re.compile(r"['’]s ((?P<mod>[a-z]+) )?(?P<head>[a-z][\w-]*)\b")
_AUX = re.compile(r"\b(?:is|was|are|were|has|have|had|can|could|will|would|does|did|do)\b")
_PASSIVE = re.compile(
    r"\b(?:is|was|are|were)\s+(?:[a-z]+ed|born|found|known|held|made|built|run|set|located|situated|stuck)\b(?:\s+to\s+[a-z]+)?"
)
_LEADING_WH = re.compile(
    r"^\s*(?:(?:in|on|at|from|during|for|by|to|of|with)\s+)?(?:who|whom|whose|what|which|when|where|how|is|are|was|were|do|does|did)\b",
    re.I,
)
_INVERTED_START = re.compile(
    r"^\s*(?:(?:in|on|at|from|during|for|by|to|of|with)\s+)?(?:who|whom|whose|what|which|when|where|how)(?:\s+[\w-]+){0,3}?"
    r"\s+(?:did|does|do|was|is|were|are|has|have|had|can|could|will|would)\s+",
    re.I,
)
"""The start of a question that asks about its subject: "When did <the country where …> become independent?"."""
_NAME_RUN = re.compile(
    r"(?:[\"“][^\"”]+[\"”]|(?:the |The )?(?:\d+(?:st|nd|rd|th)? )?[A-Z][\w.'’-]*(?: (?:of|de|the|and|&) [A-Z][\w.'’-]*| [A-Z][\w.'’-]*)*)"
)
_PARTICIPLE_WORD = re.compile(r"\b(?:[a-z]+ed|[a-z]+en|born|found|known|held|made|built|run|set|located|situated|stuck)\b")
_VERB = re.compile(r"\b(?:[a-z]+ed|won|led|became|made|took|gave|held|ran|wrote|sang|left|lost|began|grew|built)\b")
_WH = re.compile(r"\b(?:who|whom|what|which|when|where|how)\b", re.I)
ONE_HOP_WORDS = frozenset("who what which whom where when is was are were the name of called".split())
"""Words a question may keep around a phrase and still be only that phrase ("What is the name of …")."""
ADVERBS = frozenset("last first once still also ever never recently later earlier".split())


@dataclass(frozen=True)
class Bridge:
    """One step of a chain question: the phrase that names an unknown thing, and how to ask for it."""

    start: int
    end: int
    """The phrase's span in the question: the step's answer takes its place."""
    phrase: str
    """"the composer of Aschenbrodel"."""
    question: str
    """The one-hop question that asks for it: "Who is the composer of Aschenbrodel?"."""
    kind: str
    """``of``, ``possessive`` or ``relative``."""
    head: str
    """The noun the phrase is about: "composer", "country"."""
    anchor: str
    """The name it hangs on: "Aschenbrodel"."""

    @property
    def relation(self) -> str | None:
        """The relation word when the phrase is "the <relation> of X" or "X's <relation>": a
        step relations.py may resolve in code."""
        word = self.head.split()[-1].lower().rstrip("s") if self.kind in ("of", "possessive") else ""
        return word if word in RELATIONS else None


def _wh(head: str) -> str:
    return "Who" if head.split()[-1].lower() in PERSON_HEADS else "What"


def _is(head: str) -> str:
    last = head.split()[-1].lower()
    return "are" if last.endswith("s") and not last.endswith("ss") and last not in PERSON_HEADS - {"people", "parents"} else "is"


_SUBJECT_START = re.compile(r"^(?:(?:the|a|an|his|her|its|their|he|she|it|they)\b|[A-Z\d\"“])")


def _after_name(question: str, at: int, end: int, verb_words: int) -> int | None:
    """The end of the first name run in ``question[at:end]`` and ``verb_words`` words after it
    (and an auxiliary before them), or None when no name is there."""
    run = _NAME_RUN.search(question, at, end)
    if run is None:
        return None
    cut = run.end()
    noun = re.match(r"\s+[a-z][\w-]*(?=\s+[a-z]+ed\b|\s*$)", question[cut:end])
    if (
        noun and not verb_words and not noun.group().strip().endswith(("ed", "ly")) and noun.group().strip() not in ADVERBS
    ):  # "the K-17 valve | headquartered"
        cut += noun.end()
    for _ in range(verb_words):
        nxt = re.match(
            r"\s+(?:(?:is|was|are|were|has|had|did|does|do)\s+)?[a-z][\w-]*(?:\s+(?:for|in|at|on|from|with|by|to|of|into)\b)?",
            question[cut:end],
        )
        if nxt is None:
            break
        cut += nxt.end()
    return cut


def _in_subject(question: str, start: int) -> bool:
    """True when the phrase at ``start`` is, or ends, the subject of an inverted question ("Where
    is the supplier of <the valve that failed in March> headquartered?")."""
    m = _INVERTED_START.match(question)
    if not m or m.end() > start or re.fullmatch(r"(?:(?:the|a|an) [\w -]+? of )*", question[m.end() : start]) is None:
        return False
    if re.search(r"\b(?:is|was|are|were)\s+$", m.group(), re.I):  # "What is <NP>?" has no verb after it unless a participle follows
        return bool(_PARTICIPLE_WORD.search(question, start))
    return True


def _clause_end(question: str, start: int, at: int, pron: str) -> int:
    """Where a relative clause that starts at ``at`` ends (the module doc); ``start`` is where
    its phrase starts, ``pron`` its relative word ("" for "the country Signmark is from")."""
    end = len(question.rstrip().rstrip("?").rstrip())
    comma = re.search(r",\s+(?=[a-z])", question[at:end])
    if comma:
        end = at + comma.start()
    clause = question[at:end].strip()
    participle = bool(pron) and pron.lower() not in _RELATIVE_WORDS
    subject_relative = participle or (pron.lower() in ("which", "that", "who") and not _SUBJECT_START.match(clause))
    if not pron:
        zero = _ZERO_CLAUSE.match(question, at, end)
        if zero:
            end = zero.end()
    elif _in_subject(question, start):  # the phrase is in the question's subject: its verb follows the clause
        cut = _after_name(question, at, end, 0 if subject_relative else 1)
        passive = _PASSIVE.search(question, at, end)
        if passive and (cut is None or passive.end() >= cut):
            cut = passive.end()
        if cut is not None:
            end = cut
    else:
        aux = [m for m in _AUX.finditer(question, at, end) if question[at : m.start()].strip()] if subject_relative else []
        passive = _PASSIVE.search(question, at, end)
        if aux:  # "who played Captain Miller | is stuck in …": the next auxiliary is the outer verb
            end = aux[0].start()
        elif passive and question[passive.end() : end].strip():
            end = passive.end()
    wh = _WH.search(question, at, end)
    if wh and not _LEADING_WH.match(question):  # the question's own wh-word: the clause ended before the main verb
        auxes = [m for m in _AUX.finditer(question, at, wh.start()) if question[at : m.start()].strip()]
        verbs = [m for m in _VERB.finditer(question, at, wh.start()) if question[at : m.start()].strip()]
        if auxes:
            end = auxes[-1].start()
        elif verbs:  # "who recruited David Beckham | managed Manchester United during what …"
            end = verbs[-1].start()
        else:
            cut = _after_name(question, at, wh.start(), 0)
            end = cut if cut is not None else at
    return len(question[:end].rstrip(TRIM))


def _relative_question(head: str, pron: str, clause: str) -> str:
    """The one-hop question for "the <head> <pron> <clause>": "Which association published X?",
    "In which country is the Bubye River found?", else "What is the <head> <pron> <clause>?"."""
    pron_l = pron.lower()
    if pron_l in ("which", "that", "who") and not _SUBJECT_START.match(clause):
        return f"Which {head} {clause}?"
    prep = {"where": "in", "when": "in"}.get(pron_l) or (pron_l.split()[0] if pron_l.endswith(" which") else "")
    aux = _AUX.search(clause)
    if prep and aux and aux.group() in ("is", "was", "are", "were") and aux.start() > 0:
        subject, rest = clause[: aux.start()].strip(), clause[aux.end() :].strip()
        return f"{prep.capitalize()} which {head} {aux.group()} {subject} {rest}".rstrip() + "?"
    return f"{_wh(head)} {_is(head)} the {head} {pron} {clause}".replace("  ", " ").rstrip() + "?"


def _predicative(question: str, start: int) -> bool:
    """True for a phrase that says what something is ("served as the secretary of …", "known as
    the father of …"), not a thing the question asks through."""
    return bool(re.search(r"\bas\s*$", question[:start]))


def bridges(question: str, units: list[Unit], lookup=None, known: list[str] | None = None) -> list[Bridge]:
    """Every phrase of ``question`` that names a thing through an anchor (the module doc)."""
    known = known or []
    found = _bridges(question, units, lookup, known)
    return [b for b in found if not _predicative(question, b.start)]


def _bridges(question: str, units: list[Unit], lookup, known: list[str]) -> list[Bridge]:
    out: list[Bridge] = []
    for m in _OF.finditer(question):
        head = m.group("head")
        if head.split()[-1].lower() in STOP_HEADS | NAME_HEADS or _WH.search(head):
            continue
        anchor = anchor_after(question, m.end(), units, lookup, known)
        if anchor is None or re.match(r"\s*\d", question[anchor[1] :]):
            continue  # "the content of Note 5", "the adoption of ASU 2016-02": the name goes on, a thing named
        phrase = question[m.start() : anchor[1]]
        asked = f"{_wh(head)} {_is(head)} t{phrase[1:]}?"
        out.append(Bridge(m.start(), anchor[1], phrase, asked, "of", head, question[anchor[0] : anchor[1]]))
    for m in _POSSESSIVE.finditer(question):
        head = m.group("head")
        mod = m.group("mod")
        if mod and mod not in MODIFIERS:  # "X's performer lived": the noun is the first word
            head, end = mod, m.start("mod") + len(mod)
        else:
            head, end = (f"{mod} {head}" if mod else head), m.end()
        if head.split()[-1].lower() in STOP_HEADS or re.match(r"\s+(?:[\"“]|[A-Z])", question[end:]):
            continue  # "Poison's album "Shut Up, Make Love"": the thing is named
        of = re.match(r" of (?!the\b|a\b|an\b)[a-z]+\b", question[end:])
        if of:  # "Corey Taylor's city of birth"
            head, end = head + of.group(), end + of.end()
        anchor = anchor_before(question, m.start(), units, lookup, known)
        if anchor is None:
            continue
        phrase = question[anchor[0] : end]
        out.append(
            Bridge(anchor[0], end, phrase, f"{_wh(head)} {_is(head)} {phrase}?", "possessive", head, question[anchor[0] : anchor[1]])
        )
    for pattern in (_REL, _ZERO):
        for m in pattern.finditer(question):
            head, pron = m.group("head"), m.group("pron")
            if head.split()[-1].lower() in STOP_HEADS or _WH.search(head) or _AUX.fullmatch(head.split()[-1]):
                continue
            at = m.end("pron") if pron else m.end("head")
            end = _clause_end(question, m.start(), at, pron)
            clause = question[at:end].strip()
            if not clause or not _has_anchor(clause, known):
                continue
            phrase = question[m.start() : end]
            asked = _relative_question(head, pron, clause) if pron else f"{_wh(head)} {_is(head)} the {head} {clause}?"
            out.append(Bridge(m.start(), end, phrase, asked, "relative", head, clause))
    return out


def _has_anchor(clause: str, known: list[str]) -> bool:
    if any(k and k.lower() in clause.lower() for k in known):
        return True
    return bool(re.search(r"(?:^|\s)[\"“]|(?:^|\s)[A-Z]|(?:^|\s)[a-z]+[A-Z]", clause))  # "eDNA", "iPhone" too


_PLACE_TAIL = re.compile(r"\s*(?:(?:at|in|within|with)\s+(?:the\s+)?[A-Z][^?,]*+)?\s*[?.!]?\s*")  # possessive: linear
"""Where the relation holds, after it ("at the Institute"): no thing of its own to look up."""


def is_whole_question(question: str, b: Bridge) -> bool:
    """True when ``b`` is all ``question`` asks ("Who is the spouse of X?"): no step to take."""
    if re.match(r"['’\"”]?\s*,?\s*and\s+(?:who|which|what|whose|that)\b", question[b.end :]):
        return _only_wh(question[: b.start])  # "Who was the writer of X and who died in 2007?"
    if b.kind in ("of", "possessive") and _PLACE_TAIL.fullmatch(question[b.end :]):
        return _only_wh(question[: b.start])  # "What is Gareth Pryce's job at the Institute?": the relation asked itself
    return _only_wh(question[: b.start] + " " + question[b.end :])


def _only_wh(rest: str) -> bool:
    rest = rest.lower()
    return all(w.strip(TRIM) in ONE_HOP_WORDS or not w.strip(TRIM) for w in rest.split())


def next_bridge(question: str, units: list[Unit], lookup=None, known: list[str] | None = None) -> Bridge | None:
    """The innermost phrase to resolve first (one that holds no other; the rightmost of those),
    or None when the question is one hop as it stands."""
    found = [b for b in bridges(question, units, lookup, known) if not is_whole_question(question, b)]
    inner = [
        b
        for b in found
        if not any(o is not b and b.start <= o.start and o.end <= b.end and (o.start, o.end) != (b.start, b.end) for o in found)
    ]
    if not inner:
        return None
    return max(inner, key=lambda b: (b.start, -b.end))
