"""Where an answer stands, and whether it is bound to what the question asks about (issue #56,
item 4: "In '40 at A, 25 at B', B's number is 25").

* `stands_on`: the sentences of the passages read that hold the short answer (as written, or the
  same number or year written otherwise: "12400" in "12,400 EUR", "1830" in "10 July 1830"; never
  a decimal in an integer its digits spell: "2.240" is not in "2,240 worked in Aerospace").
* `question_names`: what the question is about, as it names it: its capitalised runs and quoted
  titles, less the question's first word and titles of address ("Dr", "Ms").
* `about`: whether a sentence is bound to the question's subject: it names one of the question's
  names, or its passage is titled so; for a question asked through another thing ("the director
  of X", `bridge_question`), a passage naming the subject or linked to one by names they share, at
  most `MAX_BRIDGES` passages away (a bridge question read whole); a question that
  names nothing must share half its telling words (two at most, by their roots: "purchased",
  "purchases") with the sentence or its heading. A page's file name ("motorcycle-cbt.html") heads
  its sentences as its title does (`in_file_name`).
* `list_items`: a listing sentence's items (list_value.py `bound_value` binds a value to one).

All in code, from the text's structure; the check (check.py) composes them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..text.keywords import keywords
from ..text.linkkeys import capitalised_runs
from ..text.normalize import normalize
from ..text.sentences import split_sentences
from ..types import Unit
from .kinds import ROLE_WORDS
from .table_words import OWN_ENTITY

TITLES = frozenset("dr dr. prof prof. professor mr mr. mrs mrs. ms ms. miss sir dame lord lady cllr councillor rev revd hon".split())
QUESTION_WORDS = frozenset(
    "who whom whose what which when where why how is are was were do does did has have had can could will would should must may".split()
)
_QUOTED = re.compile(r"[\"“”‘’']([^\"“”‘’']{3,80})[\"“”‘’']")
_POSSESSIVE = re.compile(r"['’]s?$")
_OWNER = re.compile(r"(?<=\w)['’]s?\b")
NUM = re.compile(r"\d[\d,.]*\d|\d")
"""A number as written ("1,204.5", "7")."""
_MEASURE = re.compile(r"(?P<n>\d[\d,.]*)\s*-?\s*(?P<unit>[a-z]+)", re.I)
"""An answer that is a number and its unit ("3 hours", "14 characters")."""
_ITEM_SPLIT = re.compile(r";|:|\s[—–]\s|,(?!\d{3}\b)|\band\b|\bwhile\b|\bwhereas\b|\bbut\b")
GENERIC = frozenset(
    """many much number year years date day days month months time name names person people staff member members total amount
    price cost costs value long old first last new current main""".split()
)
"""Question words that say what kind of answer is wanted, not what it is about."""


@dataclass(frozen=True)
class Standing:
    """A sentence an answer stands on, and the passage it is in."""

    unit: Unit
    sentence: str


def digits(text: str) -> list[str]:
    """The numbers ``text`` writes, without their separators ("1,204" → "1204")."""
    return [re.sub(r"[,\s]", "", m.group()) for m in NUM.finditer(text)]


def _values(text: str) -> set[float]:
    return {float(d) for d in digits(text) if re.fullmatch(r"\d+(?:\.\d+)?", d)}


def holds(text: str, answer: str) -> bool:
    key = normalize(answer)
    if not key:
        return False
    if f" {key} " in f" {normalize(text)} " or f" {key} " in f" {normalize(_OWNER.sub('', text))} ":
        # "Insolvency Service" in "the Insolvency Service’s Redundancy Payments Service"; a number's point is no comma
        # ("2.240" is not the "2,240" people of a sentence, "12.5%" no "125"), though normalized alike
        return _values(answer) <= _values(text)
    numbers = digits(answer)
    if numbers and not re.search(r"[^\W\d_]{3,}", re.sub(r"\b(?:[A-Z]{3}|[a-z]{1,3})\b", "", answer)):
        present = set(digits(text))  # the same number written otherwise: "12400" and "12,400"
        return all(n in present for n in numbers)
    measure = _MEASURE.fullmatch(answer.strip())
    if measure:  # "3 hours" in "a 3-hour induction", "7 days" in "7 calendar days"
        unit = lemma(measure["unit"])
        return (
            re.search(rf"(?<![\d.,]){re.escape(measure['n'])}(?:\s*-\s*|\s+)(?:[a-z]+\s+){{0,2}}{re.escape(unit)}s?\b", text, re.I)
            is not None
        )
    return False


def stands_on(answer: str, units: list[Unit]) -> list[Standing]:
    """The sentences of ``units`` that hold ``answer`` (the module doc), in the units' order."""
    out = []
    for u in units:
        if not holds(u.text, answer):
            continue
        for s in split_sentences(u.text):
            if holds(s, answer):
                out.append(Standing(u, s))
    return out


def _clean_name(run: str) -> str:
    words = [w for w in run.split() if w.lower() not in TITLES]
    return _POSSESSIVE.sub("", " ".join(words)).strip()


def question_names(question: str) -> list[str]:
    """The names ``question`` is about (the module doc), longest first."""
    found = [m.group(1).strip() for m in _QUOTED.finditer(question)]
    for run in capitalised_runs(question):
        words = run.split()
        while words and words[0].lower() in QUESTION_WORDS:
            words = words[1:]
        name = _clean_name(" ".join(words))
        if name and not (len(name.split()) == 1 and name.lower() in QUESTION_WORDS):
            found.append(name)
    return sorted(dict.fromkeys(found), key=len, reverse=True)


def _words(name: str) -> list[str]:
    return normalize(_clean_name(name)).split()


def names_in(name: str, text: str, surname: bool = True) -> bool:
    """Whether ``text`` names ``name``: a capitalised run of it that is the name (titles of
    address aside: "Dr Ana Ruiz"), not a longer name holding it ("Charles Mathew" is not named
    by "James Charles Mathew"); with ``surname``, a run that is the name's last word alone
    ("Ruiz"), or its first and last with up to two words between ("Alfred Antony Francis Gell"
    for "Alfred Gell"; a shorter run sharing only some of the name's words is another person's:
    "John Smith" does not name "John Henry Smith"); a run that starts with the name ("IT Policy"); a one-word name wherever
    it stands; a role of an organisation by the role alone ("Director" for "Director of the
    Brackenridge Institute"). A name with no capital
    (a quoted title) is named where its words stand. An acronym ("IT", "NERC") is named by a run
    its initials begin ("Information Technology and Security Policy")."""
    want = _words(name)
    if not want:
        return False
    if not any(w[:1].isupper() for w in name.split()):
        return f" {' '.join(want)} " in f" {normalize(text)} "
    person = not any(w in ROLE_WORDS or w in ("of", "for") for w in want)  # "Ruiz" names Ana Ruiz; "Research" no Deputy Head of Research
    role = want[: want.index("of")] if "of" in want and any(w in ROLE_WORDS for w in want[: want.index("of")]) else []  # "Director" of X
    short = [want[-1]] if surname and person and len(want) >= 2 and len(want[-1]) >= 4 else []
    first_last = [want[0], want[-1]] if surname and len(want) >= 2 else []
    runs = [_words(run) for run in capitalised_runs(text)]
    if short and any(len(g) >= 2 and g[-1] == want[-1] and not _full(g, want) for g in runs):
        short = []  # "Smith" after "John Smith" is John Smith, not John Henry Smith
    for got in runs:
        if not got:  # a run of connectors alone ("The")
            continue
        if got == want or got[: len(want)] == want or (short and got == short) or (role and got == role):  # "IT" in "IT Policy"
            return True
        if first_last and [got[0], got[-1]] == first_last and len(want) <= len(got) <= len(want) + 2:
            return True  # "Alfred Antony Francis Gell" for "Alfred Gell"; not "John Smith" for "John Henry Smith": another John Smith
    word = _clean_name(name)
    if _ACRONYM.fullmatch(word) and any(_initials(run).startswith(word) for run in capitalised_runs(text)):
        return True  # "IT" for "Information Technology and Security Policy"
    if len(want) == 1 and word:  # one word, as written: "Institute" in "The Institute's auditors", not "it" for "IT"
        return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None
    return False


def namesake(name: str, text: str) -> bool:
    """Whether ``text`` names another person sharing two or more of ``name``'s words ("The
    second son of Sir James Charles Mathew, Charles James Mathew was educated at …" for James
    Charles Mathew): a sentence naming the subject beside a namesake is the namesake's, unless
    it stands in the subject's own passage."""
    want = _words(name)
    if len(want) < 2 or not _personal(want):
        return False
    for run in capitalised_runs(text):
        got = _words(run)
        if got and _personal(got) and not _full(got, want) and len(set(got) & set(want)) >= 2 and not _full(want, got):
            return True
    return False


def _personal(words: list[str]) -> bool:
    """Whether a name's words may be a person's: no role word, no "of" ("Principal of Hallam Academy" is a role)."""
    return not any(w in ROLE_WORDS or w in _CONNECTING for w in words)


def _full(got: list[str], want: list[str]) -> bool:
    """Whether the run ``got`` writes the whole name ``want`` (or it with up to two more words between its first and last)."""
    return got[: len(want)] == want or (got[0] == want[0] and got[-1] == want[-1] and len(want) <= len(got) <= len(want) + 2)


_ACRONYM = re.compile(r"[A-Z]{2,6}")
_KIND_NOUN = re.compile(r"\b(?:which|what)\s+([a-z]+)\b", re.I)
_SOURCE_NOUN = re.compile(r"\b(information|advice|details|guidance|help)\s+(?:on|about|with|regarding|for)\b", re.I)
"""The source a question asks for ("Where can I get *information* on courses?"): what it is about follows."""
_CONNECTING = frozenset("and of for the in on to &".split())


def _initials(run: str) -> str:
    """The initials of a capitalised run's words, connectors aside ("Information Technology and Security" → "ITS")."""
    return "".join(w[0] for w in run.split() if w.lower() not in _CONNECTING and w[:1].isupper())


def subject_words(question: str) -> set[str]:
    """The question's content words that say what it is about, not what kind of answer it wants
    (nor the noun after "which" / "what": "Which *firm* audits the accounts?", nor the source
    asked for: "Where can I get *information* on courses?")."""
    kind_noun = {m.group(1).lower() for m in _KIND_NOUN.finditer(question)} | {m.group(1).lower() for m in _SOURCE_NOUN.finditer(question)}
    return {w for w in keywords(question) if w not in GENERIC and w not in QUESTION_WORDS and len(w) > 2 and w not in kind_noun}


def lemma(word: str) -> str:
    """A word without its inflection, for matching a question's words with a sentence's
    ("joined" → "join", "cities" → "city", "left" → "leave"); "officer" stays apart from "office"."""
    w = word.lower()
    w = _IRREGULAR.get(w, w)
    for suffix, put in (("ies", "y"), ("ing", ""), ("ed", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            return w[: -len(suffix)] + put
    return w


def stems(words) -> set[str]:
    return {lemma(w) for w in words}


def root(word: str) -> str:
    """A word's lemma without a final "e", so a verb meets its own forms ("purchase",
    "purchased"; "backdate", "backdating"), as `lemma` alone does not."""
    return lemma(word).rstrip("e") or lemma(word)


def roots(words) -> set[str]:
    return {root(w) for w in words}


def _shares_subject(words: set[str], text: str) -> bool:
    """Whether ``text`` holds half the question's subject words (by their roots), two at most."""
    if not words:
        return True
    theirs = roots(keywords(text))
    held = {w for w in roots(words) if w in theirs or f"{w}or" in theirs or f"{w}er" in theirs}  # "audit" in "auditors"
    return len(held) >= max(1, min(2, (len(roots(words)) + 1) // 2))


def distinguishing(names: list[str], units: list[Unit]) -> list[str]:
    """The question's names that tell passages apart: a name nearly every passage read holds
    (the organisation whose documents these are) says nothing of what is asked."""
    if len(units) < 3:
        return names
    return [n for n in names if sum(names_in(n, u.text) or names_in(n, u.title) for u in units) < 0.8 * len(units)]


def telling(words: set[str], units: list[Unit]) -> set[str]:
    """The ``words`` that tell the passages read apart: a word nearly every one holds
    ("institute", in an institute's own documents) says nothing of what is asked."""
    if len(units) < 3:
        return words
    held = [roots(keywords(f"{u.title} {u.text}")) for u in units]
    return {w for w in words if sum(root(w) in h for h in held) < 0.8 * len(units)}


MAX_BRIDGES = 3
"""Passages an answer's passage may stand from the question's subject's, through names they share
(a bridge question read whole: the film's passage names its director, whose passage holds the answer)."""


def _runs(u: Unit) -> set[str]:
    return {normalize(r) for r in capitalised_runs(f"{u.title}. {u.text}") if len(r) > 3}


_BRIDGE_NOUNS = (
    "director|composer|producer|writer|author|performer|creator|father|mother|husband|wife|spouse|son|daughter|brother|"
    "sister|parent|child|grandfather|grandmother|grandson|granddaughter|uncle|aunt|cousin|founder|owner|leader|president|"
    "capital|country|city|state|county|town|province|region|company|band|team|club|network|league|university|school|"
    "employer|label|publisher|manager|coach|singer|star|birthplace|hometown|successor|predecessor|member|head|chairman|"
    "person|man|woman|artist|organi[sz]ation|group|party|station|channel|studio|airline|river|mountain|continent"
)
_BRIDGE = re.compile(
    rf"\b(?:who|whom|whose|which|that|where|when)\b|\bthe (?:[a-z]+ )?(?:{_BRIDGE_NOUNS})s? of\b|['’]s (?:[a-z]+ )?(?:{_BRIDGE_NOUNS})\b|"
    rf"\bthe (?:{_BRIDGE_NOUNS}) [A-Z]|\bpart of\b",
)


_REDUCED_RELATIVE = re.compile(
    r"\b(?:a|an|the|some)\s+(?:[a-z]+\s+){0,2}[a-z]+\s+(?:starring|featuring|directed\s+by|written\s+by|produced\s+by|"
    r"founded\s+by|owned\s+by|released\s+by|published\s+by|created\s+by|composed\s+by|performed\s+by|designed\s+by|"
    r"built\s+by|led\s+by|run\s+by|coached\s+by|managed\s+by|based\s+on|named\s+after)\b"
)


def through_a_clause(question: str) -> bool:
    """Whether ``question`` names a thing it asks through by a clause of its own ("a film starring
    Nicolas Cage and Téa Leoni", "the project led by the Head of Aquatic Ecology"): its answer
    stands in one sentence and what pins the thing down in another."""
    return bool(_REDUCED_RELATIVE.search(question))


def bridge_question(question: str) -> bool:
    """Whether ``question`` asks of something it names only through another ("the director of
    film X", "the city where X died", "X's wife", "the country Signmark is from"): its answer
    may stand in a passage that does not name X. "In what year did X marry?", "What is the price
    of the centrifuge?" and "Who is the institute's data protection officer?" ask of X itself."""
    words = question.split(maxsplit=1)
    return bool(_BRIDGE.search(words[1] if len(words) > 1 else ""))


def bridged(seeds: set[str], units: list[Unit]) -> set[str]:
    """The passages of ``units`` within `MAX_BRIDGES` shared names of a passage in ``seeds``
    (chunk ids); a name most passages read share (the organisation's own) links none."""
    runs = {u.chunk_id: _runs(u) for u in units}
    if len(units) >= 5:
        counts = Counter(r for rs in runs.values() for r in rs)
        common = {r for r, c in counts.items() if c >= 0.8 * len(units)}
        runs = {k: rs - common for k, rs in runs.items()}
    reached, frontier = set(seeds), set(seeds)
    for _ in range(MAX_BRIDGES):
        frontier = {k for k, rs in runs.items() if k not in reached and any(rs & runs[f] for f in frontier if f in runs)}
        reached |= frontier
    return reached - seeds


def _page_says(name: str, unit: Unit, units: list[Unit]) -> bool:
    """Whether the page ``unit`` is from says ``name`` in any passage read (its headings, its
    file's name or its text), or no passage read says it at all (nothing to tell pages apart)."""
    said = [u for u in units if names_in(name, u.text) or names_in(name, heads(u)) or in_file_name(name, u)]
    return not said or any(u.doc_id == unit.doc_id for u in said)


def house_name(name: str, question: str) -> bool:
    """A one-word name the question writes after "the" ("the Institute's income", "the IT
    policy"): the organisation a user's documents all belong to, or a word of a title, said of
    the passage by the question's other words, not a subject of its own."""
    return len(name.split()) == 1 and re.search(rf"\bthe\s+{re.escape(name)}\b", question) is not None


def heads(unit: Unit) -> str:
    """What a passage is headed by: its title, its section's path, its first line when that is
    a heading ("Information Technology and Security Policy"), not a sentence, and its file's
    name ("it_policy.pdf")."""
    first = unit.text.split("\n", 1)[0].strip()
    first = first if len(first.split()) <= 14 and not first.endswith(".") else ""
    stem = re.sub(r"[_\W]+", " ", Path(unit.provenance.get("file") or "x").stem)  # "it_policy.pdf" → "it policy"
    return f"{unit.title}. {unit.provenance.get('section') or ''}. {first}. {stem}"


def in_file_name(name: str, unit: Unit) -> bool:
    """Whether the name of the file ``unit`` comes from names ``name`` ("motorcycle-cbt.html" names
    "CBT"): a page's name is its title, written without capitals, so its words are matched whole."""
    file = unit.provenance.get("file")
    want = _words(name)
    if not file or not want:
        return False
    stem = normalize(re.sub(r"[_\W]+", " ", Path(file).stem))
    return f" {' '.join(want)} " in f" {stem} "


def before(sentence: str, text: str) -> str:
    """The sentence before ``sentence`` in ``text`` (a list item's lead: "Full-time staff receive
    27 days of annual leave." before "After five years … this rises to 30 days."), or ""."""
    said = split_sentences(text)
    at = next((i for i, s in enumerate(said) if s == sentence), 0)
    return said[at - 1] if at > 0 else ""


def about(standing: Standing, question: str, units: list[Unit], names: list[str] | None = None) -> bool:
    """Whether ``standing`` is bound to what ``question`` asks about (the module doc); ``names``
    are the question's own (question.py: not the user's), else read from ``question``."""
    unit, sentence = standing.unit, standing.sentence
    own = f"{unit.title}. {sentence}"
    every = question_names(question) if names is None else list(names)
    names = distinguishing(every, units)
    if any(names_in(n, heads(unit)) or in_file_name(n, unit) or (names_in(n, own) and not namesake(n, sentence)) for n in names):
        return True  # the sentence names the subject, or is in the subject's own passage (its headings or its page's name say so)
    house = [n for n in names if house_name(n, question)]
    names = [n for n in names if not house_name(n, question)]  # else the question's other words must say it
    if house and not names and not any(_page_says(n, unit, units) for n in house):
        return False  # "the LPA" asked, and the sentence's page, read, never says it where another page read does
    if names:
        if (
            unit.kind != "evidence"
            and any(names_in(n, unit.text) and not namesake(n, unit.text) for n in names)
            and len(split_sentences(unit.text)) <= 3
        ):
            return True  # a short passage about the subject: its sentences are about it (not a few sentences cut from a longer one)
        seeds = {u.chunk_id for u in units if any(names_in(n, u.title) or names_in(n, u.text) for n in names)}
        if unit.chunk_id in seeds:  # the subject's passage names it elsewhere: a sentence of another's story,
            return bridge_question(question)  # unless the question asks through another thing
        return unit.chunk_id in bridged(seeds, units)
    common = " ".join(every).lower()
    words = {w for w in subject_words(question) if w not in common}
    words = telling(words, units)
    said = f"{own} {heads(unit)} {before(sentence, unit.text)}"
    return _shares_subject(words, said) or (introduces(sentence, question) and _shares_subject(words - _OWN_WORDS, said))


_OWN_WORDS = OWN_ENTITY | frozenset("operate operates offer offers provide provides serve serves report reports".split())
"""A question's words of the document's own entity and what it does ("What markets does the company operate in?"): a list
introduced by the noun asked need not say them; any other subject word it must ("parking permits")."""
_AUX_WORDS = frozenset("is are was were does do did has have had can could will would should".split())


def introduces(sentence: str, question: str) -> bool:
    """Whether ``sentence`` introduces the things a "What <noun> …?" question asks for by that
    noun, as a list's lead: "… growth in all three of our *markets:* technical installations …"
    for "What markets does the company operate in?", whose other words ("company", "operate")
    the sentence need not say."""
    kinds = {lemma(m.group(1)) for m in _KIND_NOUN.finditer(question) if m.group(1).lower() not in _AUX_WORDS | GENERIC}
    return any(
        re.search(rf"\b{re.escape(k)}(?:s|es)?\s*(?::|\b(?:are|were|include|includes|included|comprise|comprised)\b)", sentence, re.I)
        for k in kinds
    )


_IRREGULAR = {
    "left": "leave", "died": "die", "death": "die", "dead": "die", "birth": "born", "began": "begin", "begun": "begin",
    "became": "become", "took": "take", "taken": "take", "won": "win", "wrote": "write", "written": "write", "held": "hold",
    "built": "build", "sold": "sell", "bought": "buy", "paid": "pay", "led": "lead", "ran": "run", "met": "meet", "went": "go",
    "gone": "go", "made": "make", "gave": "give", "given": "give", "came": "come", "spent": "spend", "rose": "rise", "fell": "fall",
    "chose": "choose", "chosen": "choose", "grew": "grow", "knew": "know", "began.": "begin", "joined": "join", "married": "marry",
}  # fmt: skip


def list_items(sentence: str) -> list[str]:
    """The items of a sentence that lists ("… 2024: 68 at Durham, 31 at Kendal and 26 at
    Hexham"): its parts between colons, semicolons, spaced dashes, commas (not a thousands comma) and "and"."""
    return [p.strip() for p in _ITEM_SPLIT.split(sentence) if p.strip()]
