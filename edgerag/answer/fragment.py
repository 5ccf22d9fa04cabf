"""A short answer that is a fragment of a phrase, not an answer of the kind asked (issue #63).

Five shapes, each read in code from the question's grammar and the answer's own words:

* **A word for a description.** A question asking what something is, holds or shows ("What
  does the table show?", "What is the content of Note 5?", "What is included in the line item
  …?", "What was the effect of …?", "In what situations can …?", clause.py `asks_clause` and
  the forms below) is answered by a phrase or a clause; a reply of one or two words without a
  figure ("Bonds", "Net", "Leasehold improvements") is a table row's label or a phrase's head
  word, not what was asked. On TAT-QA's whole test set (1,663 questions, 1.5B answering)
  such replies were 15 wrong and 1 right ("substandard ratings" for "What does a rating of 7
  refer to?"); none was asked on ConditionalQA or the office set.
* **A phrase cut mid-way.** An answer ending on a preposition, an article or a conjunction
  ("Share Incentive Plan In") was cut inside its phrase, and one opening on a conjunction or on
  "as discussed above" ("Or EPS, is calculated by …") starts inside its sentence: no answer
  (TAT-QA, whole set: 3 wrong, 0 right; none on ConditionalQA or the office set). A long
  reply's short answer is held to this too (read.py, after restated.py and quoted.py).
* **One value for several.** A question asking each of several things' values "respectively"
  ("… in 2019 and 2018, respectively?") answered with one number is half an answer (TAT-QA,
  whole set: 3 wrong, 0 right; none on ConditionalQA or the office set).
* **A reply's opening word chosen for it.** A reply that ran on is narrowed to one of its own
  names, dates and numbers (reply.py `narrow`); where the one chosen is the reply's first word
  and a common word the passages write in lower case too ("Sale" of "Sale of commercial
  investment property …", "Net" of "Net derivative gains …"), the choice cut a phrase to its
  head word, no name. TAT-QA, whole set: 7 such narrowings, all wrong.

* **The thing asked, named back.** A reply that opens with the thing the question asks for by
  name and goes on only to qualify it, in a few words with no figure ("Eligibility criteria set
  by TfL for your vehicle" for "What are the eligibility criteria for my vehicle …?"), says
  what was asked, not what it is (`named_back`).

Each is not answered ("The documents do not say.").
"""

from __future__ import annotations

import re

from .binding import lemma
from .clause import asks_clause

_DESCRIPTION = re.compile(
    r"^\s*(?:what\s+(?:does|do|did)\s+.+?\s+(?:show|contain|provide|disclose|exclude|refer\s+to|indicate|describe)\b"
    r"|what\s+(?:is|was|are|were)\s+(?:the\s+)?(?:contents?|nature|purpose|effect|impact|basis|meaning|definition|reasons?|causes?)"
    r"\s+(?:of|for)\b"
    r"|what\s+(?:information|data|details)\b"
    r"|in\s+what\s+(?:situations?|circumstances?|cases?|ways?)\b"
    r"|what\s+(?:is|are|was|were)\s+.+?\s+(?:based\s+on|used\s+for)\s*\??\s*$)",
    re.I,
)
_CUT_AFTER = frozenset("in of the a an and or to for with by from at on than".split())
"""Words a phrase does not end on: a reply ending on one was cut inside its phrase."""
_OPENS_ON = re.compile(r"^\s*(?:and|or|but|nor|as\s+(?:discussed|described|noted|mentioned)\s+(?:above|below|earlier))\b", re.I)
"""A reply that opens on a conjunction or on "as discussed above" ("Or EPS, is calculated by …",
"as discussed above and lower operating expenses …") starts inside a sentence: its subject is
elsewhere."""
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[\w'’-]+")
CUT_TO_ITS_HEAD = (
    "the reply ran on, and the one of its own words it was narrowed to is its opening common word: a phrase cut to its head, no answer"
)
_ASKED_THING = re.compile(
    r"^\s*what\s+(?:is|are|was|were)\s+the\s+(?P<thing>(?:[\w'’-]+\s+){0,3}?[\w'’-]+?)\s+"
    r"(?:for|of|to|that|which|in|on|under|required|needed|used|i|we|you|my|our)\b",
    re.I,
)
"""The thing a question asks for by name: "What are the *eligibility criteria* for my vehicle …?"."""
_QUALIFIER = re.compile(
    r"^(?:[a-z]+ed|set|made|given|paid|held|shown|laid|put|kept|sent|done|known|laid\s+down|for|of|by|in|on|from|under|with)\b", re.I
)
"""What only qualifies a thing named: a participle ("set by TfL") or a preposition ("for your vehicle")."""
QUALIFIER_WORDS = 6
MOST_WORDS = 2
"""A description of at most this many words, none a figure, is a label or a head word."""


def asks_description(question: str) -> bool:
    """Whether ``question`` asks what something is, holds or shows (the module doc): answered by
    a phrase or a clause, never by a label."""
    return asks_clause(question) or bool(_DESCRIPTION.match(question))


def fragment(short: str, question: str) -> str:
    """Why ``short`` is a fragment and no answer to ``question`` (the module doc's shapes but the
    fourth); "" when it is none."""
    words = _WORD.findall(short)
    if len(words) > 1 and words[-1].lower() in _CUT_AFTER:
        return f"'{short}' ends on '{words[-1]}': a phrase cut mid-way is no answer"
    if len(words) > 1 and _OPENS_ON.match(short):
        return f"'{short[:40]}' opens inside a sentence: a phrase cut mid-way is no answer"
    if _RESPECTIVELY.search(question) and len(_AMOUNT.findall(short)) == 1 and ";" not in short:
        return f"the question asks a value for each of several, respectively; '{short}' is one value"
    if words and len(words) <= MOST_WORDS and not _DIGIT.search(short) and asks_description(question):
        return f"the question asks for a description; '{short}' is a label or a head word, not one"
    if named_back(short, question):
        return f"'{short}' names what the question asks for and only qualifies it: not what it is"
    return ""


def named_back(short: str, question: str) -> bool:
    """Whether ``short`` opens with the thing ``question`` asks for by name and goes on only to
    qualify it, in a few words with no figure ("Eligibility criteria set by TfL for your vehicle"
    for "What are the eligibility criteria for my vehicle …?"): the thing named back, not its
    content (the module doc's fifth shape)."""
    m = _ASKED_THING.match(question)
    if m is None or _DIGIT.search(short):
        return False
    thing = [lemma(w) for w in _WORD.findall(m["thing"])]
    words = _WORD.findall(short)
    if len(words) <= len(thing) or [lemma(w) for w in words[: len(thing)]] != thing:
        return False
    rest = words[len(thing) :]
    return len(rest) <= QUALIFIER_WORDS and _QUALIFIER.match(" ".join(rest)) is not None


def opening_word(chosen: str, reply: str, passages: list[str]) -> bool:
    """Whether ``chosen``, narrowed from ``reply``, is the reply's first word and a common word
    the ``passages`` write in lower case too ("Sale" of "Sale of commercial investment property
    …"): a phrase cut to its head word, not a name (the module doc's last shape)."""
    word = chosen.strip()
    if " " in word or not word[:1].isupper() or word.isupper() or _DIGIT.search(word):
        return False
    first = _WORD.findall(reply)
    if len(first) < 2 or first[0] != word:
        return False
    lower = re.compile(rf"(?<![\w'’-]){re.escape(word.lower())}(?![\w'’-])")
    return any(lower.search(text) for text in passages)
