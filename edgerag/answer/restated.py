"""The short answer of a long reply: its content, not the question said back (issue #62).

A model writing an explanation often opens by restating the question ("To notify the affected
workers, you need to notify them within one month …", "The time it takes to get an emergency
travel document is 2 working days."), or with a lead-in only ("To challenge the cost of the
bill, you can follow these steps:") and the content on the lines below. The short answer of
such a reply (what the web page and the benchmarks show beside the reply) was its first line as
written. `content` keeps what follows the restatement, the first sentence of it; a lead-in
gives way to the first item below it. The reply itself is left as the model wrote it.

A phrase restates the question where most of its content words are the question's own (the
situation's words count: "To contact your local planning authority about your extension in
Bristol, …"). A reply may also open with a run of the question's own words in its own order
(`past_restatement`, issue #63): "The decrease in amortization of purchased intangible assets was
due largely to …" for "Why did amortization of purchased intangible assets decrease?" is "due
largely to …"; a description's short answer (clause.py) is cut so too.
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..text.sentences import split_sentences
from ..text.tables import stem
from .binding import lemma
from .citations import CITE
from .question import Question

RESTATED_SHARE = 0.6
"""The least share of a phrase's content words the question holds for it to restate the question."""
_TO = re.compile(r"^(?:to|in order to|if you want to|if you wish to)\s+(?P<x>[^,:;]+?)\s*,\s*(?P<rest>.+)$", re.I)
_VERB = re.compile(r"\s(?:is|are|was|were|will be|would be|can be|may be|takes?|will take|can take|lasts?)\s", re.I)
_NOT_A_SUBJECT = re.compile(
    r"[:;]|\b(?:must|should|can|could|will|would|may|might|shall|be|been|is|are|was|were|there|if|when|whenever|unless)\b", re.I
)
"""A phrase that holds one of these is more than the subject of the verb after it ("The risk assessments must be reviewed
every year and whenever there are …")."""
_LEAD_IN = re.compile(
    r"(?::\s*$|\b(?:follow(?:ing)?|take|do|use|consider)\s+(?:these|the following)\b|\b(?:these|the following)\s+(?:steps|ways|options)\b)",
    re.I,
)
_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s*")
_HEADING = re.compile(r"^\*\*(?P<h>[^*]+?)\*\*\s*:?\s*(?P<rest>.*)$")


def restates(phrase: str, question: Question) -> bool:
    """Whether ``phrase`` says the question back (the module doc)."""
    words = [lemma(w) for w in keywords(phrase) if len(w) > 2]
    if len(words) < 2:
        return False
    own = {lemma(w) for w in keywords(question.text)}
    return sum(w in own for w in words) >= RESTATED_SHARE * len(words)


def _first_sentence(text: str) -> str:
    text = " ".join(CITE.sub("", text).replace("**", "").split())
    sentences = split_sentences(text)
    first = (sentences[0] if sentences else text).strip().rstrip(".").strip()
    return first[:1].upper() + first[1:] if first else ""


def _after(line: str, question: Question) -> str | None:
    """What follows the restatement that opens ``line``; None where it opens with none. The
    question's own words in its order first: they end where the restatement does ("The company's
    inventories were valued | at the lower of cost …")."""
    rest = past_restatement(line, question.text)
    if rest != line:
        return rest
    m = _TO.match(line)
    if m and restates(m["x"], question):
        return m["rest"]
    for v in _VERB.finditer(line):  # "X is …": the first verb, where its subject restates the question
        subject = line[: v.start()]
        if _NOT_A_SUBJECT.search(subject):
            break
        if restates(subject, question):  # "The time a document takes is 2 days": past the copula too
            return re.sub(r"^(?:is|are|was|were)\s+", "", line[v.end() :], flags=re.I)
    return None


def _first_item(reply: str) -> str:
    """The first content line below a lead-in: a list item without its mark and bold heading."""
    for line in reply.strip().splitlines()[1:]:
        line = _ITEM.sub("", line.strip())
        heading = _HEADING.match(line)
        if heading:
            line = heading["rest"] or heading["h"]
        if line.strip():
            return line
    return ""


def content(short: str, reply: str, question: Question) -> tuple[str, str]:
    """(the short answer of a long ``reply`` whose first line, cleaned, is ``short``; the rule
    that changed it: ``restated``, ``lead-in`` or "" for none). Never empty where ``short`` is not."""
    rest = _after(short, question)
    rule = "restated" if rest is not None else ""
    rest = short if rest is None else rest
    if _LEAD_IN.search(rest) and len(rest.split()) <= 12:  # "…, you can follow these steps:": the first step
        item = _first_item(reply)
        if item:
            rest, rule = _after(item, question) or item, "lead-in"
    if not rule:
        return short, ""
    kept = _first_sentence(rest)
    return (kept, rule) if kept else (short, "")


_LINKING = frozenset(
    "the a an its their our this that these those of in on for to by at from and is are was were be been has have had do does did".split()
)
"""Words a restatement of the question carries between the question's own words."""
_AUXILIARY = frozenset("is are was were be been has have had do does did".split())
_TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[\w’'-]+")
"""A word, or a number whole ("$76.3 million": its point ends no clause)."""


def _bare(word: str) -> str:
    return word.lower().removesuffix("’s").removesuffix("'s")


def past_restatement(reply: str, question: str) -> str:
    """``reply`` after its opening restatement of ``question`` (the module doc): the longest
    opening run of the question's own words (two at least), with linking words and adverbs
    between them, cut off with the linking words after it; ``reply`` itself when it opens with
    no such run or nothing of two words would be left."""
    asked = {stem(_bare(w)) for w in _TOKEN.findall(question)}
    end, own, said = 0, 0, set()
    for m in _TOKEN.finditer(reply):
        w = _bare(m.group())
        if stem(w) in asked and w not in _LINKING and stem(w) not in said:  # each once: "Tax fees include *fees* billed …"
            end, own = m.end(), own + 1
            said.add(stem(w))
        elif w not in _LINKING and not w.endswith("ly"):
            break
        if reply[m.end() : m.end() + 1] in (",", ";", ":", "."):
            break  # a clause's end: what follows is the reply's own
    if own < 2:
        return reply
    rest = reply[end:].lstrip(" ,:;")
    while (first := _TOKEN.match(rest)) and first.group().lower() in _AUXILIARY:
        rest = rest[first.end() :].lstrip()
    return rest if len(rest.split()) >= 2 else reply
