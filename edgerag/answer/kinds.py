"""The kind of answer a question asks for, decided in code, and whether a reply is of that kind
(issue #56, item 3: "Asked *what position* a person took up, it answered the person's name").

`asked_kind` reads the question's grammar only: its question word and the noun after it.

=============  ======================================================  =========================
kind           asked as                                                a reply of the kind
=============  ======================================================  =========================
``yes-no``     "Is …?", "Are both …?", "Did …?" (not "Did A or B …?")  yes or no
``year``       "In what year …?", "Which year …?"                      holds a year
``date``       "When …?", "On what date …?"                            holds a year or a date, or a
                                                                       rule's time ("every year")
``number``     "How many …?", "How much …?", "What is the price …?",   holds a number ("How long
               "What was X's total income …?"                          …?": with a unit of time
                                                                       or length, `fits_measure`)
``role``       "What position / role / job / title did X …?"           a role, not a bare name
``place``      "Where …?", "In which city / country / room …?"         no number, no date
``person``     "Who …?", "Whom …?", "Which person …?"                  no number, no date
``org``        "Which department / company / university …?"            no number, no date
``thing``      "What are the types / components / factors …?",         no number, no date
               "Which are the customers …?"
``other``      anything else                                           anything
=============  ======================================================  =========================

"Who must approve …?" asks for a person or a role: ``person`` lets a role through ("the Head of
Finance"). What a kind's reply may not be is decided, not what it must be, except for
``role``, ``number``, ``date`` and ``year``, whose replies carry a mark of their own (a role
word, a digit, a year): a name of the wrong kind is what a small model gives most often.
"""

from __future__ import annotations

import re

from ..text.dates import dates
from ..text.linkkeys import capitalised_runs

KINDS = ("yes-no", "year", "date", "number", "role", "place", "person", "org", "thing", "other")

_YES_NO = re.compile(r"^\s*(?:is|are|am|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|must|may)\b", re.I)
_YEAR = re.compile(r"^\s*(?:in |by |since |until )?(?:what|which) year\b|\byear (?:was|did|were|is|does|will)\b", re.I)
_DATE = re.compile(
    r"^\s*when\b|^\s*(?:on |by |from |until |since )?(?:what|which) (?:date|day|month|decade|century)\b|\b(?:what|which) date\b", re.I
)
_NUMBER = re.compile(
    r"^\s*how (?:many|much|long|old|far|tall|big|high|large|heavy|often)\b|"
    r"\b(?:what|which) (?:is|was|are|were) (?:the )?(?:[\w'’-]+ ){0,3}"
    r"(?:price|cost|budget|number|amount|sum|salary|fee|rate|population|capacity|limit|threshold|value|count|headcount|age|"
    r"income|revenue|turnover|expenditure|spending|profit|surplus|deficit)\b|"
    r"\b(?:what|which) (?:price|amount|percentage|share|number|sum)\b",
    re.I,
)
ROLE_NOUNS = "position|role|job|post|title|rank|office|function|responsibility|occupation|profession|appointment|capacity"
_ROLE = re.compile(
    rf"\b(?:what|which) (?:(?:new|senior|current|first|last|former|official) )?(?:{ROLE_NOUNS})s?\b|"
    rf"^\s*what (?:is|was) (?:(?:[\w.-]+ ){{0,3}}[\w.-]+['’]s|the) (?:(?:new|current|official) )?(?:job|role|position|post|title)\b",
    re.I,
)
_PLACE = re.compile(
    r"^\s*where\b|\b(?:in|at|from|to|on) (?:what|which) (?:city|town|village|country|state|province|region|county|room|building|"
    r"site|campus|floor|office|location|place|street|address|lab|laboratory)\b|"
    r"\b(?:what|which) (?:city|town|village|country|state|province|region|county|room|building|site|campus|floor|location|place|"
    r"street|address)\b",
    re.I,
)
_ORG = re.compile(
    r"\b(?:what|which) (?:department|team|unit|division|group|company|firm|organi[sz]ation|university|college|school|committee|"
    r"agency|institute|institution|ministry|club|supplier|vendor|bank|board|party|band|label|publisher)\b",
    re.I,
)
_THING = re.compile(
    r"\b(?:what|which) (?:are|were) (?:the )?(?:(?!total\b|net\b|gross\b|number\b|value\b|amount\b)\w+ )?(?:types|kinds|categories"
    r"|classes|components|items|elements|factors|variables|segments|customers|suppliers|products|assumptions|activities|entities"
    r"|subsidiaries|jurisdictions|instruments|sources|streams|drivers)\b(?!['’])"
    r"|^\s*(?:what|which) (?:types|kinds|categories|components|factors|variables|segments|customers|suppliers|products|assumptions"
    r"|sources|streams)\b(?!['’])",
    re.I,
)
"""Things asked by name ("What are the types of revenue in the table?", "Which are the customers
…?"): a report's reply of bare amounts ("5,139; 1,424") names none (TAT-QA: 3 such replies, all wrong)."""
_PERSON = re.compile(r"^\s*(?:who|whom|whose)\b|^\s*(?:\w+ )?(?:what|which) (?:person|man|woman|employee|member)\b", re.I)

ROLE_WORDS = frozenset(
    """head chief director manager officer chair chairman chairwoman chairperson secretary treasurer president vice deputy
    lead leader coordinator co-ordinator assistant associate professor lecturer engineer technician administrator dean
    provost registrar supervisor inspector controller auditor counsel advisor adviser consultant analyst scientist fellow
    researcher editor clerk steward minister ambassador governor mayor captain commander general judge justice partner
    principal rector vicar bishop member owner founder ceo cfo cto coo cio representative specialist officer architect
    accountant nurse doctor physician surgeon teacher trainer convenor convener curator librarian keeper warden
    receptionist intern apprentice postdoc postdoctoral student candidate volunteer ombudsman controller""".split()
)
"""Words that mark a role ("Head of Finance", "the deputy director", "senior research fellow")."""

_DIGIT = re.compile(r"\d")
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve dozen hundred thousand million".split())
"""Numbers said in words ("seven years", "a dozen"): a count, no name."""
_YEARISH = re.compile(r"\b(?:1\d{3}|20\d{2})\b")
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY_MONTH = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b", re.I)
"""A date without its year ("11 November", "March 3rd"): a date the document's year completes."""


def asked_kind(question: str) -> str:
    """The kind of answer ``question`` asks for (the module's table), from its grammar alone."""
    q = " ".join(question.split())
    if _ROLE.search(q):
        return "role"
    if _YEAR.search(q):
        return "year"
    if _THING.search(q):
        return "thing"
    if _DATE.search(q):
        return "date"
    if _NUMBER.search(q):
        return "number"
    if _PLACE.search(q):
        return "place"
    if _ORG.search(q):
        return "org"
    if _PERSON.search(q):
        return "person"
    if _YES_NO.match(q):
        return "other" if re.search(r"\w \bor\b \w", q) else "yes-no"  # "Did A or B …?" asks which
    return "other"


def is_role(text: str) -> bool:
    """Whether ``text`` names a role: it holds a role word ("Head of Finance", "deputy director")."""
    return any(w.strip(".,;:()'’").lower() in ROLE_WORDS for w in text.split())


def _is_number(text: str) -> bool:
    return bool(_DIGIT.search(text)) or any(w.lower() in NUMBER_WORDS for w in text.split())


_WHEN_RULE = re.compile(
    r"\b(?:every|each|within|annually|yearly|monthly|weekly|daily|once|twice)\b|\b(?:year|month|week|day|hour)s?\b"
    r"|^\s*(?:when|whenever|upon|after|before|until|as\s+soon\s+as|at\s+the\s+(?:time|end|start|beginning))\b",
    re.I,
)
"""A time a rule gives rather than a date ("every year", "within 3 months of the decision"), or
the event it waits for ("when amounts fall due", "upon delivery"): what guidance and a report's
notes answer "When can we …?" and "When are payables paid?" with."""


def _is_date(text: str) -> bool:
    return bool(_YEARISH.search(text)) or bool(dates(text)) or bool(_DAY_MONTH.search(text))


def fits(reply: str, kind: str) -> bool:
    """Whether ``reply`` is an answer of ``kind`` (the module's table). An empty reply fits nothing."""
    reply = reply.strip()
    if not reply:
        return False
    if kind == "yes-no":
        return reply.lower().rstrip(".") in ("yes", "no")
    if kind == "year":
        return bool(_YEARISH.search(reply))
    if kind == "date":
        return _is_date(reply) or bool(_WHEN_RULE.search(reply))
    if kind == "number":
        return _is_number(reply)
    if kind == "role":
        return is_role(reply)
    if kind in ("place", "person", "org"):
        return _names(reply)
    if kind == "thing":  # each item of a list: "5,139; 1,424" or "At 1 January, 2019; 2018" names no thing
        return all(_names(item.strip()) for item in reply.split(";") if item.strip())
    return True


def _names(reply: str) -> bool:
    """Whether ``reply`` may name something: not a bare number, nor a short date alone."""
    words = [w.strip(",;.()$€£%") for w in reply.split()]
    bare_number = _is_number(reply) and not any(w[:1].isalpha() and w.lower() not in NUMBER_WORDS for w in words)
    return not bare_number and not (_is_date(reply) and len(reply.split()) <= 4 and not capitalised_runs(reply.replace(",", " ")))


_HOW_LONG = re.compile(r"^\s*how long\b", re.I)
_TIME_OR_LENGTH = re.compile(
    r"\b(?:seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?|decades?|century|centuries|terms?|semesters?"
    r"|seasons?|lifetime|life|until|till|indefinitely|permanently|forever"
    r"|mm|cm|km|m|metres?|meters?|kilomet(?:re|er)s?|miles?|feet|foot|ft|inch(?:es)?|yards?|pages?|words?|characters?|lines?)\b",
    re.I,
)


def asks_how_long(question: str) -> bool:
    """Whether ``question`` asks how long something takes or lasts ("How long …?")."""
    return bool(_HOW_LONG.match(question))


_BARE_YEAR = re.compile(r"^\s*(?:19|20)\d{2}\s*\.?\s*$")
_BARE_FRACTION = re.compile(r"^\s*\d[\d,]*\.\d+\s*\.?\s*$")
_KINDS_COUNTED = re.compile(
    r"^\s*how\s+many\s+(?:\w+\s+)?(?:categories|types|kinds|classes|components|items|elements|segments|factors|sources|regions|plans)\b",
    re.I,
)
"""A count of kinds of things, never an amount (not "How many shares …", which a table gives in millions)."""


def fits_measure(reply: str, question: str) -> bool:
    """Whether ``reply`` is said in what ``question`` measures: "How long …?" asks a time or a
    length ("2 working days", "215 miles", "until it expires"), never a count of other things ("5
    countries" for how long a document is valid); a count of kinds of things is never a bare
    year or fraction ("How many categories of liabilities are there?" → "2018", "107.8": a
    header and an amount the 0.5B read off the table; "How many stores …" may be 1987, "How
    many shares …" 1.2, the table's millions). Any reply fits any other question."""
    if _KINDS_COUNTED.match(question) and (_BARE_YEAR.match(reply) or _BARE_FRACTION.match(reply)):
        return False
    return not _HOW_LONG.match(question) or bool(_TIME_OR_LENGTH.search(reply))


def of_kind(options: list[str], kind: str) -> list[str]:
    """The ``options`` of ``kind``; for ``role``, the role phrases ("Head of Finance")."""
    return [o for o in options if fits(o, kind)]
