"""What the model wrote → the short answer (its citations are verified in citations.py).

A 0.5B model's reply needs reading too: it copies citation marks, the instruction's example,
a passage's aside, or whole sentences of the passage it found the answer in. `clean_answer`
and `copied_example` take the short answer out of the reply; `narrow` asks again, on the same
prompt, for one of the reply's own names, dates and numbers when the reply ran on.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from ..llm.local import Completion
from ..llm.metered import MeteredLLM
from ..text.linkkeys import capitalised_runs
from ..text.normalize import normalize
from .anchors import FUNCTION_WORDS
from .candidates import candidates, closed_choices
from .citations import CITE
from .plan import ReadPlan

DO_NOT_KNOW = "I do not know: the passages do not seem to hold the answer."
SHORT_WORDS = 8
"""An answer of at most this many words (in either mode) is checked against the passages."""


_QUALIFIER = r"(?:plus|minus|except|excluding|including|unless|if|or|and|but|per)\b"
_ASIDE = re.compile(rf"\s+\({_QUALIFIER}[^()]*\)$", re.I)


def words_before_aside(short: str) -> int:
    """The words of ``short`` before a qualifying aside it ends with ("18,000 litres (plus …)": 2):
    an answer with its qualifier did not run on."""
    return len(_ASIDE.sub("", short).split())


def clean_answer(text: str) -> str:
    """The answer without citation marks, an "Answer:" prefix, HTML entities, lines after the
    first, a trailing aside copied from the passage ("6.8 inches (17.3 cm)") or a repeated half
    ("Cork Cork": small models sometimes say it twice). An aside that qualifies the answer ("18,000
    litres (plus 6,800 litres per extra user)", "(except …)", "(or …)") is part of it and kept."""
    lines = html.unescape(text).strip().splitlines()
    text = CITE.sub("", lines[0] if lines else "")
    text = re.sub(r"^\s*(answer|the answer is)\s*[:\-]\s*", "", text.strip(), flags=re.I).strip().strip(".").strip()
    text = re.sub(rf"(?<=\S)\s+\((?!{_QUALIFIER})[^()]*\)$", "", text, flags=re.I)
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and words[:half] == words[half:]:
        text = " ".join(words[:half])
    return text


def copied_example(short: str, plan: ReadPlan) -> bool:
    """True when the short answer is a word of the instruction's example that none of the
    passages holds ("Springfield"): the model copied the prompt, it did not answer."""
    needle = normalize(short)
    if plan.choices is not None and short.strip().lower() in {c.lower() for c in plan.choices}:
        return False  # an answer it was held to ("no" is a word of the instruction too)
    if not needle or f" {needle} " not in f" {normalize(plan.messages[0]['content'])} ":
        return False
    return not any(f" {needle} " in f" {normalize(u.text)} " for u in plan.units)


RAN_ON = "the reply ran on: its short answer is the one of its own names, dates and numbers the model chose"


def narrow(llm: MeteredLLM, plan: ReadPlan, reply: str, method: str, limit: int) -> Completion | None:
    """A short answer for a reply that ran on (a 0.5B model often copies the passage it found
    the answer in): the same prompt again, the output held to the reply's own candidates
    (candidates.py, narrowed by the kind of question, the question's names left out). The
    prompt is the one just evaluated, so llama.cpp reuses it and the call costs little more
    than its few output tokens. None when the reply holds no candidate."""
    asked = plan.hop.question if plan.hop is not None else plan.question
    options = [o for o in candidates([reply], asked) if o.lower() not in ("yes", "no") and not sentence_word(o)]
    if not options:
        return None
    sources = [u.chunk_id for u in plan.units]
    return llm.chat(plan.messages, stage="answer", method=method, max_tokens=limit, sources=sources, choices=options)


_SAID = re.compile(r"^(?P<subject>.+?)\s+(?:is|was|are|were)\s+(?P<answer>.+)$")
_EXAMPLE_SUBJECT = "the author of book x"
_CLAUSE = re.compile(r"\s*(?:when|whenever|if|once|because|while|until|unless|where|upon)\b", re.I)
"""A reply opening a clause ("When obligations … are satisfied"): what precedes its verb is no subject."""


def said_of(short: str, asked: str) -> str:
    """The answer of a reply that says it in a sentence about the question's subject ("Tim
    Burton's spouse is Bree Van de Kamp", "The author of Book X was Karl Renner": the
    instruction's example copied): the part after the copula, when the part before it shares a
    word with the question or is the example's subject; else the reply as it is."""
    m = _SAID.match(short)
    if m is None or len(short.split()) < 4 or _CLAUSE.match(short):
        return short
    subject = normalize(m.group("subject"))
    words = set(normalize(asked).split()) - {"is", "was", "are", "were"}
    if subject == _EXAMPLE_SUBJECT or (set(subject.split()) & words and len(m.group("answer").split()) <= 5):
        return m.group("answer").strip()
    return short


ECHOED = "the reply repeated a name of the question: its short answer is the one of the passages' other names the model chose"
ECHOED_SEVERAL = "the reply repeated the question's words where it asks for several things: no one name answers it, so it is not answered"


_ASKS_A_YEAR = re.compile(r"\b(?:which|what)\s+(?:fiscal\s+|financial\s+)?year\b", re.I)
_A_YEAR = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$", re.I)


def echoes(short: str, asked: str) -> bool:
    """True when a short answer is a name the question itself gives ("Who did Ed Sheeran write
    the song for?" → "Ed Sheeran"): a 0.5B model often answers with the name it was asked about.
    Never for a question that offers options ("Who is younger, A or B?", "…, A and B?"): its
    answer is one of its own names (`named_option`); nor for a year where a year is asked
    ("Between 2018 and 2019, which year had the higher …?" → "2019": the years named are its options)."""
    if closed_choices(asked) or (_A_YEAR.match(short.strip()) and _ASKS_A_YEAR.search(asked)):
        return False
    needle = normalize(short)
    return bool(needle) and f" {needle} " in f" {normalize(asked)} "


_SENTENCE_WORDS = FUNCTION_WORDS | frozenset(
    "if unless while because although though once then there these those it its you your yours we our they their them "
    "he his she her i my me us some any all each every no not yes please also however so don doesn didn isn aren won "
    "under over after before during within without between through across along against upon".split()
)
"""Words capitalised only because they start a sentence ("The", "You", "If"): no answer."""


_CONTRACTED = re.compile(r"^[a-z]+['’](?:ll|re|ve|d|m|s|t)$|^[a-z]+n['’]t$")


def sentence_word(candidate: str) -> bool:
    """True when ``candidate`` is one word that only starts a sentence ("The", "If", "You",
    "You’ll", "Don't")."""
    word = candidate.strip().lower()
    return word in _SENTENCE_WORDS or (bool(_CONTRACTED.match(word)) and re.split(r"['’]", word)[0] in _SENTENCE_WORDS)


def starts_sentences_only(candidate: str, passages: list[str]) -> bool:
    """True when ``candidate`` is one word that the passages write in lower case too and
    capitalise only where a sentence, a line or a list item starts ("Calculate" of "Calculate how
    much …" beside "to calculate"): a word capitalised by its place, not a name. "Acas", never in
    lower case, is a name wherever it stands."""
    word = candidate.strip()
    if " " in word or not word[:1].isupper() or word.isupper():
        return False
    at = re.compile(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])")
    hits = [(text, m.start()) for text in passages for m in at.finditer(text)]
    common = any(re.search(rf"(?<![\w'’-]){re.escape(word.lower())}(?![\w'’-])", text) for text in passages)
    return common and bool(hits) and all(re.search(r"(?:^|[.!?:;•*\n\"“(]\s*|\n\s*(?:[-\d.)]+\s+)?)$", text[:i]) for text, i in hits)


def named_part(candidate: str, passages: list[str]) -> str:
    """``candidate`` without the words before its name that are capitalised only because they
    start a sentence ("Under", "Follow NHS" → "NHS", `sentence_word`, `starts_sentences_only`);
    "" when no word is left."""
    words = candidate.split()
    while words and (sentence_word(words[0]) or starts_sentences_only(words[0], passages)):
        words = words[1:]
    return " ".join(words)


def rechoose(llm: MeteredLLM, plan: ReadPlan, method: str, limit: int) -> Completion | None:
    """The same prompt again, the output held to the read passages' candidates that the question
    does not hold (candidates.py, narrowed by the kind of question), a word that only starts a
    sentence ("The", "You", `sentence_word`) or that the passages capitalise only there
    ("Calculate", `starts_sentences_only`) left out, and cut from the front of a longer one
    (`named_part`): the fix for an answer that `echoes` the question. The
    prompt is reused by llama.cpp, so the call costs its output tokens. None when no candidate
    is left."""
    asked = plan.hop.question if plan.hop is not None else plan.question
    texts = [u.text for u in plan.units]
    found = dict.fromkeys(named_part(o, texts) for o in candidates(texts, asked))
    options = [o for o in found if o and o.lower() not in ("yes", "no") and not echoes(o, asked)]
    if not options:
        return None
    sources = [u.chunk_id for u in plan.units]
    return llm.chat(plan.messages, stage="answer", method=method, max_tokens=limit, sources=sources, choices=options)


def merged(first: Completion, second: Completion) -> Completion:
    """Two calls' tokens as one answer's account."""
    return replace(
        second,
        prompt_tokens=first.prompt_tokens + second.prompt_tokens,
        output_tokens=first.output_tokens + second.output_tokens,
        evaluated_tokens=first.evaluated_tokens + second.evaluated_tokens,
        cached=first.cached and second.cached,
    )


_ASKS_YEAR = re.compile(r"\b(?:what|which|in what|in which) year\b|\byear (?:was|did|were|is)\b", re.I)
_ASKS_PLACE = re.compile(
    r"\b(?i:what|which|in what|in which)\s+(?:(?:[a-z]+|[A-Z][a-z]+)\s+)?(?P<noun>city|town|village|suburb|neighbou?rhood|borough|"
    r"municipality|commune|district|county|state|province|region|country|nation)\b"
)
_ASKS_MORE = re.compile(r"\b(?:year|date)\b.*\band (?:which|what|who|whom|where|how)\b", re.I)
"""A question that asks for the year and something else ("Which year and which conference …?")."""
_SMALLEST = frozenset("city town village suburb neighborhood neighbourhood borough municipality commune district".split())
_INITIAL = re.compile(r"^[A-Z]\.$")
_ASKS_WHO = re.compile(r"^\s*(?:who|whom)\b|\bwho(?:m)? (?:is|was|were|did|does|has|had)\b", re.I)
_NAME_WORD = re.compile(r"^[A-Z][\w'’.-]*$")


def named_option(short: str, offered: list[str]) -> str | None:
    """The option of a closed question (its two options, or yes and no) that a reply names: the
    option itself ("quercus." → "Quercus"), or the one option the reply holds ("Quercus has more"
    → "Quercus"); None when it names none or both. Such a reply is the answer: no rule replaces it
    with a name the question does not offer (issue #49)."""
    key = normalize(short)
    if not key:
        return None
    keys = {normalize(o): o for o in offered}
    if key in keys:
        return keys[key]
    held = [o for k, o in keys.items() if k and f" {k} " in f" {key} "]
    return held[0] if len(held) == 1 else None


def full_name(short: str, question: str, passages: list[str], titles: list[str] | None = None) -> str:
    """A person's name as the passages write it in full (issue #49): initials expanded wherever
    they stand ("J. Smith", "Harold M. Brandt" → "Harold Matthias Brandt"), where one name of the
    passages fits; and, when the question asks who, a surname alone ("Brandt") or a name without
    its middle ("Harold Brandt") as the one title of the passages read that holds it (a passage
    about that person). Anything else is returned as it is."""
    words = [w for word in short.split() for w in (re.findall(r"[A-Z]\.", word) if re.fullmatch(r"(?:[A-Z]\.){2,3}", word) else [word])]
    if not words or len(words) > 5 or not all(_NAME_WORD.match(w) for w in words):
        return short
    runs = list(dict.fromkeys(name.strip() for text in passages for r in capitalised_runs(text) for name in r.split(" and ")))
    if any(_INITIAL.match(w) for w in words):
        fits = {r for r in runs if _expands(words, r.split())}
        return fits.pop() if len(fits) == 1 else short
    if not _ASKS_WHO.search(question):
        return short
    own = {normalize(r) for r in capitalised_runs(question)}
    names = [r for r in runs if normalize(r) not in own and 2 <= len(r.split()) <= 4 and all(_NAME_WORD.match(w) for w in r.split())]
    if len(words) == 1:
        fits = {r for r in names if r.split()[-1] == words[0]}
    else:
        fits = {r for r in names if len(r.split()) > len(words) and r.split()[0] == words[0] and r.split()[-1] == words[-1]}
    titled = {t for t in titles or [] if t in fits}  # a passage about that person is read: a name, not "Southern France"
    return titled.pop() if len(titled) == 1 else short


def _expands(words: list[str], run: list[str]) -> bool:
    """Whether ``run`` spells the name ``words`` whose initials ("M.") stand for its words."""
    return len(run) == len(words) and all(
        (r[:1] == w[:1] and len(r) > 2 and not _INITIAL.match(r)) if _INITIAL.match(w) else w == r for w, r in zip(words, run)
    )


def shortest(short: str, question: str, passages: list[str], titles: list[str] | None = None) -> str:
    """The span the question asks for (`span_asked`)."""
    return span_asked(short, question, passages, titles)[0]


def span_asked(short: str, question: str, passages: list[str], titles: list[str] | None = None) -> tuple[str, str]:
    """The span the question asks for, cut from a longer right answer by the question's type and
    the passages' own words, never below what was asked (issue #42, "the shortest right answer"):

    * a date at the precision asked: "In what year …?" → "1948" of "4 February 1948" (not where
      the year is one of two things asked: "Which year and which conference …?");
    * a place without its region and country when a town is asked ("Which city …?" → "Tampere"
      of "Tampere, Finland"), the last part when a country or state is;
    * a person's name in full, as the passages write it (`full_name`): "J. Smith" → "John Smith".

    An answer that is a passage's title is a name as written ("Marion, South Australia") and
    is never cut. Anything else is returned as it is. Returns (the span, the rule that cut it:
    ``year``, ``place``, ``name`` or "" for none), so benchmarks/answers.py can count what each
    rule changed."""
    if titles and normalize(short) in {normalize(t) for t in titles if t}:
        return short, ""
    if _ASKS_YEAR.search(question) and not _ASKS_MORE.search(question):
        years = re.findall(r"\b(?:1\d{3}|20\d{2})\b", short)
        if len(years) == 1 and short.strip() != years[0] and len(short.split()) <= 4:
            return years[0], "year"
    place = _ASKS_PLACE.search(question)
    parts = [p.strip() for p in short.split(",")]
    if place and len(parts) > 1 and all(p[:1].isupper() for p in parts) and len(short.split()) <= 8:
        noun = place.group("noun").lower()
        span = (
            parts[0]
            if noun in _SMALLEST or (noun == "county" and "County" in parts[0])
            else parts[-1]
            if noun in ("country", "nation")
            else short
        )
        return span, "place" if span != short else ""
    named = full_name(short, question, passages, titles)
    return named, "name" if named != short else ""


_HOW_MANY = re.compile(r"^\s*how\s+many\s+(?P<noun>[a-z]{3,})\b", re.I)
_BARE_NUMBER = re.compile(r"^\s*(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*$", re.I)
_BOUND = r"(?:(?:a\s+maximum\s+of|a\s+minimum\s+of|up\s+to|at\s+least|at\s+most|no\s+more\s+than|more\s+than|fewer\s+than|less\s+than)\s+)?"


def counted(short: str, question: str, passages: list[str]) -> str:
    """A bare number answering "How many <things> …?" with the things counted and the bound a
    passage puts on it ("5" → "a maximum of 5 countries"), where one passage read writes the
    number before the noun asked; anything else as it is."""
    m = _HOW_MANY.match(question)
    if m is None or not _BARE_NUMBER.match(short):
        return short
    noun = m["noun"].lower()
    stem = noun[:-3] if noun.endswith("ies") else noun[:-1] if noun.endswith("s") else noun
    pattern = re.compile(rf"(?<![\w,.]){_BOUND}{re.escape(short.strip())}\s+{re.escape(stem)}\w*\b", re.I)
    found = {" ".join(h.group().split()) for text in passages for h in pattern.finditer(text)}
    return found.pop() if len(found) == 1 else short
