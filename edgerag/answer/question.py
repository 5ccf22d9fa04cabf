"""The question read once, typed (issue #62, item 1): what a person typed, split into their
situation and the question proper, made once at the start of the plan (plan.py) and handed to
the stages that read it (the read, the reply's rules, the check), so no stage parses the raw
string its own way.

People ask as they would ask an adviser: "My father died in March and I work for a small firm in
Leeds. I have been there eight months. Can I take paid leave?" The first two sentences are the
user's **situation**; the last is the **question proper**. The situation's words (a town, an
employer, a month, "I'm") are the user's own: the documents will never name them, so the check
never asks for them (check.py); they steer which case of a rule applies (evidence.py weighs
them beside the question proper). The question proper says the kind of answer asked (kinds.py),
its options and the names it is about.

* `read_question`: the `Question` of a text.
* The question proper is the last interrogative sentence; within it, a clause about the user
  before the question ("If I give permission to the charity, are they eligible?") or after it
  ("Can I claim, as my father died in March?") joins the situation.
* ``core`` is the question proper without those clauses: the words the check holds the reading
  to. ``names`` are its names, less the user's own (names the situation gives that the question
  proper does not ask of), first-person words ("I'm", "My") and a capitalised adverb that only
  opens a sentence ("Unfortunately").
* A question of the form "Is there a time limit to apply?" asks for the limit, not yes or no:
  ``read_as`` asks it so ("What is the time limit to apply?"), and ``kind`` is that question's.
* The form beyond the first word (form.py): a question proper that offers alternatives ("…
  as one payment or in instalments?", "Will I need a new BRP, or can I update it online?") asks
  which: its ``kind`` is not yes/no and its ``options`` are the two phrases (none for two
  clauses: the answer is in the documents' words); "Can I challenge it and if so how?" is read
  as "How can I challenge it?"; "Is there anything else that I need to include?" as "What else
  do I need to include?".
* ``rule``: a yes/no question about what a rule allows or requires ("Can I …?", "Am I eligible
  …?", "Do I have to …?", "Will I get …?"): its answer may carry the rule's condition
  (conditions.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.linkkeys import capitalised_runs
from ..text.sentences import split_sentences
from .binding import TITLES, question_names
from .candidates import closed_choices
from .form import Alternatives, alternatives, anything, if_so
from .kinds import asked_kind

FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|me|my|mine|myself|we|we're|we’re|we've|our|ours|us)\b", re.I)
_OWN_WORDS = frozenset("i i'm i’m i've i’ve i'd i’d i'll my me we we're our us mine".split())
_ASKING = re.compile(
    r"^(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|"
    r"must|may|might|am)\b",
    re.I,
)
_CLAUSE_LEAD = re.compile(r"^(?:if|because|as|since|when|after|before|although|though|given|now|so|but|and|while|whereas)\b", re.I)
_LIMIT = re.compile(
    r"^(?P<aux>is|are)\s+there\s+(?:any\s+|a\s+|an\s+)?(?P<what>(?:[\w'’-]+\s+){0,3}?"
    r"(?:limit|limits|deadline|minimum|maximum|cap|threshold|fee|fees|charge|charges|cost|costs|age limit|time limit|requirement|requirements"
    r"|restriction|restrictions|period|waiting period|notice period))\b(?P<rest>.*)$",
    re.I,
)
_RULE = re.compile(
    r"^(?:can|could|may|must|should|shall|will|would|do|does|am|is|are)\s+(?:i|we|he|she|they|my|our|his|her|their|the|a|an|you|it)\b"
    r"|\b(?:eligible|entitled|qualify|allowed|able to|have to|need to|required|get|claim|apply)\b",
    re.I,
)
_YEAR = re.compile(r"\b(?:1\d{3}|20\d{2})\b")
_MONTHS = frozenset(
    "january february march april may june july august september october november december monday tuesday wednesday thursday friday "
    "saturday sunday".split()
)


@dataclass(frozen=True)
class Question:
    """A question as typed, read once (the module doc)."""

    text: str
    """As the person typed it."""
    asked: str
    """The question proper: the last interrogative sentence (the whole text when it is one)."""
    situation: tuple[str, ...] = ()
    """The sentences and clauses about the user ("I work for a small firm in Leeds.")."""
    core: str = ""
    """The question proper less the clauses about the user, in the form asked (``read_as``): what
    the check holds the reading to."""
    read_as: str = ""
    """The question the model is asked: ``asked``, or its right form ("Is there a time limit …?" →
    "What is the time limit …?")."""
    kind: str = "other"
    """The kind of answer asked (kinds.py), of ``read_as``."""
    options: tuple[str, ...] | None = None
    """The answers a closed question allows (its two options, or yes and no), else None."""
    years: tuple[str, ...] = ()
    """Years the question proper names."""
    names: tuple[str, ...] = ()
    """What the question proper is about, as it names it, less the user's own."""
    own: tuple[str, ...] = ()
    """Names and capitalised words that are the user's own (their town, employer, month)."""
    rule: bool = False
    """A yes/no about what a rule allows or requires (conditions.py may add its condition)."""
    limit: str = ""
    """What an "Is there a … limit / requirement?" question asks for ("time limit"), else ""."""
    alternatives: Alternatives | None = None
    """The alternatives the question proper offers (form.py), else None."""
    notes: list[str] = field(default_factory=list, compare=False)
    """How the text was read, one line each (for a person, and the benchmarks)."""

    @property
    def situated(self) -> bool:
        """Whether the user gave a situation beside the question."""
        return bool(self.situation)


_END = re.compile(r"(?<=\?)\s*(?=\S)|(?<=[a-z0-9][.!])\s*(?=[A-Z])")
"""Where a typed text's sentence ends that Punkt may miss: after "?", after "." or "!" before a
capital ("I am ill. Is there …", "England.During …"), unless the word before is an
abbreviation (`_ABBREVIATIONS`: "Prof. Catherine Doyle", "Quercia vs. Fagolia")."""
_ABBREVIATIONS = TITLES | frozenset(
    "vs v etc no st jr sr inc ltd co corp gen col capt sgt lt mt rev dept univ approx fig vol ed eds".split()
)


def _cut(sentence: str) -> list[str]:
    out, start = [], 0
    for m in _END.finditer(sentence):
        word = re.search(r"([\w.]+)[.!?]?\s*$", sentence[start : m.start()])
        last = (word.group(1) if word else "").lower().rstrip(".")
        if sentence[m.start() - 1] == "." and (last in _ABBREVIATIONS or f"{last}." in _ABBREVIATIONS or len(last) <= 1 or "." in last):
            continue  # "Prof. Doyle", "vs. Fagolia", "U.K. Institute", "J. Smith"
        out.append(sentence[start : m.start()])
        start = m.end()
    out.append(sentence[start:])
    return [p.strip() for p in out if p.strip()]


def _pieces(text: str) -> list[str]:
    """The sentences of ``text`` (Punkt's, cut again where `_END` says)."""
    out = []
    for s in split_sentences(" ".join(text.split())):
        out.extend(_cut(s))
    return out


def _clauses(sentence: str) -> list[str]:
    return [c.strip() for c in re.split(r",\s+|;\s+|\s[—–-]\s", sentence) if c.strip()]


def _proper(sentence: str) -> tuple[str, list[str]]:
    """(the question proper of an interrogative ``sentence``, the clauses about the user around it)."""
    parts = _clauses(sentence)
    if len(parts) == 1:
        return sentence, []
    at = next((i for i, c in enumerate(parts) if _ASKING.match(c)), None)
    if at is None:  # "My son, can he …" reads whole where no clause asks
        at = 0
    before, rest = parts[:at], parts[at:]
    own_before = [c for c in before if FIRST_PERSON.search(c)]  # "When the war ended, who …?" is one question
    if len(own_before) != len(before):  # a clause of the question itself ("In 2024, how many …?"): keep it
        return sentence, []
    after = [c for c in rest[1:] if _CLAUSE_LEAD.match(c) and FIRST_PERSON.search(c)]
    kept = [c for c in rest if c not in after]
    asked = ", ".join(kept)
    asked = asked[:1].upper() + asked[1:]
    if sentence.rstrip().endswith("?") and not asked.endswith("?"):
        asked = asked.rstrip(" .") + "?"
    return asked, before + after


_INVERSION = re.compile(
    r"\b(?:am|is|are|can|could|do|does|did|will|would|should|must|may|shall|have|has)\s+(?:i|we|he|she|they|you|it|my|our|his|her|their)\b",
    re.I,
)


_WH_BEFORE = re.compile(r"\b(?:how|what|which|when|where|who|whom|whose|why)\b", re.I)


def _inverted(asked: str) -> tuple[str, list[str]]:
    """A question proper that a clause about the user opens without a comma ("As I am under
    eighteen am I allowed to apply?" → "Am I allowed to apply?", the clause to the situation)."""
    if _ASKING.match(asked) or not FIRST_PERSON.search(asked):
        return asked, []
    m = _INVERSION.search(asked)
    if m is None or m.start() == 0:
        return asked, []
    at = m.start()
    wh = list(_WH_BEFORE.finditer(asked[:at]))  # "If I apply how long can it take?": the question opens at "how long"
    if wh and len(asked[wh[-1].start() : at].split()) <= 3:
        at = wh[-1].start()
    lead = asked[:at].strip(" ,")
    rest = asked[at:]
    return rest[:1].upper() + rest[1:], [lead]


def _own_clause_cut(asked: str) -> tuple[str, list[str]]:
    """``asked`` without a trailing clause about the user that no comma sets apart ("Can I claim
    if my father died in March?" → "Can I claim?", the clause to the situation)."""
    m = re.search(r"\s+(?:if|because|as|since|when|after|although|though|now that|given that)\s+(?P<c>.+?)\??$", asked, re.I)
    if m and FIRST_PERSON.search(m["c"]) and _ASKING.match(asked):
        return asked[: m.start()].rstrip(" ,") + "?", [m.group().strip(" ?")]
    return asked, []


def _is_opener(name: str, text: str) -> bool:
    """A one-word run that only opens a sentence or a clause ("Unfortunately", "Recently"): a
    question's subject is not its first word (that is the question word)."""
    if len(name.split()) != 1:
        return False
    word = re.escape(name.strip())
    opens = re.search(rf"(?:^|[.?!]\s*){word}\b", text) is not None
    elsewhere = re.search(rf"(?<![.?!])\s{word}\b", text) is not None
    return opens and not elsewhere


def _clean_names(names: list[str], text: str) -> list[str]:
    out = []
    for n in names:
        words = [w for w in n.split() if w.lower() not in _OWN_WORDS]
        while words and words[-1].lower() in ("and", "of", "the", "&"):
            words = words[:-1]
        if not words:
            continue
        n = " ".join(words)
        if _is_opener(n, text) or (len(words) == 1 and words[0].lower() in _MONTHS):
            continue
        out.append(n)
    return out


def read_question(text: str) -> Question:
    """The `Question` of ``text`` (the module doc)."""
    text = " ".join(text.split())
    pieces = _pieces(text) or [text]
    last = max((i for i, p in enumerate(pieces) if p.endswith("?")), default=len(pieces) - 1)
    asked, around = _proper(pieces[last])
    asked, lead = _inverted(asked)
    asked, tail = _own_clause_cut(asked) if len(asked.split()) > 5 else (asked, [])
    around = around + lead
    situation = [p for i, p in enumerate(pieces) if i != last] + around + tail
    read_as, limit, notes = asked, "", []
    m = _LIMIT.match(asked)
    if m:
        limit = m["what"].strip()
        verb = "are" if limit.lower().endswith("s") and not limit.lower().endswith("ss") else "is"
        read_as = f"What {verb} the {limit}{m['rest']}".rstrip()
        read_as = read_as if read_as.endswith("?") else read_as.rstrip(".") + "?"
    offered = alternatives(asked)
    reformed = None if limit or offered else (if_so(asked) or anything(asked))
    if reformed is not None:  # "Can I challenge it and if so how?" asks the how (form.py)
        read_as = reformed
        notes.append(f"asks for more than yes or no: read as {read_as}")
    core = read_as  # the clauses about the user are already the situation's
    kind = asked_kind(read_as)
    choices = closed_choices(read_as)
    if offered:  # "… one payment or instalments?" asks which: one of them, never yes or no (form.py)
        kind = "other" if kind == "yes-no" else kind
        choices = None if offered.clauses else list(offered.options)
        notes.append(
            f"offers alternatives: {' or '.join(offered.options)}"
            + (" (clauses: answered in the documents' words)" if offered.clauses else "")
        )
    asked_names = _clean_names(question_names(asked), asked)
    said = " ".join(situation)
    situation_names = _clean_names([r for r in capitalised_runs(said)], said) if said else []
    own_words = [r for r in capitalised_runs(said) if r.split()[0].lower() in _OWN_WORDS] if said else []
    own = [n for n in situation_names if not any(n.lower() == a.lower() for a in asked_names)]
    own += [w for w in own_words if w not in own]
    own += [n for n in question_names(asked) if n not in asked_names]  # "I'm", a sentence's opening adverb
    names = [n for n in asked_names if not _own_in_clause(n, asked)]
    own += [n for n in asked_names if n not in names]
    rule = kind == "yes-no" and bool(_RULE.search(asked))
    if situation:
        notes.insert(0, f"situation: {len(situation)} sentence(s) or clause(s) about the user; asked: {asked}")
    if limit:
        notes.append(f"asks for the {limit}: read as {read_as}")
    return Question(
        text=text,
        asked=asked,
        situation=tuple(situation),
        core=core,
        read_as=read_as,
        kind=kind,
        options=tuple(choices) if choices is not None else None,
        years=tuple(dict.fromkeys(_YEAR.findall(asked))),
        names=tuple(dict.fromkeys(names)),
        own=tuple(dict.fromkeys(own)),
        rule=rule,
        limit=limit,
        alternatives=offered,
        notes=notes,
    )


def _own_in_clause(name: str, asked: str) -> bool:
    """Whether ``name`` stands in a first-person part of the question proper, after "my" or "our"
    ("… from my job at Tesco?"), not as what it asks about."""
    return re.search(rf"\b(?:my|our)\s+(?:[\w'’-]+\s+){{0,3}}(?:at|in|with|for|from)\s+{re.escape(name)}\b", asked, re.I) is not None


def as_question(question: str | Question) -> Question:
    """``question`` typed: a `Question` as it is, a string read (`read_question`)."""
    return question if isinstance(question, Question) else read_question(question)
