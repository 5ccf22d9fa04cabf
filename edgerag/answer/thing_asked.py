"""The thing a figure question asks, by its head noun, and whether anything read names it (issue
#63; the check's ``asked`` step, check.py).

A question asking a figure names the thing it is a figure of: "What was the bank's net interest
*margin* in 2023?", "How much did the City spend on snow *clearing*?", "How many season *passes*
did the company sell?". Where no passage read says that noun (nor a report's other word for it,
nor a user's verb for it: table_words.py `close`), the documents hold no figure of it, whatever
figure the model read beside ("33.7" of "Net interest income", "62,750" of "Transportation
services", "1,128 thousand" skier days): the reply is dropped. Only the head is asked of the
documents: its qualifiers may be a user's own words ("How much money did data services bring
in?"), and a head that names no thing ("the amount of", "the number of", "the total") passes to
the noun after its "of".

`thing_asked` reads the head from the question's grammar ("What was/were the X in …", "How much
X did …", "How many X …", "How much did … spend on X …"); None where the grammar is none of these.
`unread_thing` is the head nothing read names (the check keeps a figure whose row the question names
word for word, `row_named`: "Immunology" for "Immunology sales"); `names_thing`, whether a word names it (code's own
table reads ask it of the table they read: cell_lookup.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import SECTION_MARK, parse_row
from ..types import Unit
from .table_words import SHORT, close, content

_STOP_AT = (
    r"in|at|for|during|as|on|over|from|to|between|by|under|after|before|until|since|compared|versus|vs|"
    r"according|per|when|that|which|this|last|each|a|an|did|does|do|was|were|is|are|has|have|had|will|would|and|or|with|"
    r"excluding|including|net\s+of|if|than|due|within|across|among|against|into|through|via|using|like"
)
_THING = re.compile(
    rf"""^\s*(?:
      (?:what|which)\s+(?:was|were|is|are|will\s+be|would\s+be)\s+(?:the\s+|its\s+|their\s+|our\s+)?
        (?:[\w.&-]+(?:'s|’s)\s+)?(?P<what>[^?,]+?)
    | how\s+(?:much|many)\s+(?!(?:did|does|do|was|were|is|are|has|have|had|will|would|can|could|more|less|fewer|higher|lower|larger|
        bigger|smaller|greater|times|years?|quarters?|months?)\b)(?P<much>[^?,]+?)
        (?=\s+(?:did|does|do|was|were|is|are|has|have|had|will|would)\b)
    | how\s+much\s+(?:did|does|do)\s+[^?,]+?\s+(?:spend|pay|invest)\s+(?:on|for|in)\s+(?P<on>[^?,]+?)
    )\s*(?:\b(?:{_STOP_AT})\b|[?,]|$)""",
    re.I | re.X,
)
_NO_THING = frozenset(
    "amount amounts number numbers totals value values level levels figure figures size sum portion part "
    "percentage percent proportion share ratio rate change changes increase decrease difference average growth "
    "money cash total balance result results impact effect breakdown composition constitution constituent times years quarters "
    "months length duration term age height weight width depth distance speed frequency limit minimum maximum deadline time "
    "period people persons individuals funding financing finance support help assistance benefit benefits".split()
)
"""Heads that name no thing of their own ("the amount of", "the total"), and measures the documents
say by their units ("the minimum length of a password": "at least 14 characters"), and "people",
whom a report counts by their role ("How many people have salary-backed loans?": "Borrowers"): the
noun after "of" is asked, or none. "money", "cash", "funding", "help" and their like are a user's words for any amount ("How
much money did data services bring in?", "How much funding is available for a postgraduate student?")."""

_SAME_THING = (
    ("revenue", "revenues", "sales", "turnover", "income"),
    ("profit", "profits", "income", "earnings", "result", "surplus"),
    ("cost", "costs", "expense", "expenses", "expenditure", "spending", "charges", "outgoings"),
    ("debt", "borrowings", "borrowing"),
    ("staff", "employees", "headcount", "people", "workforce", "personnel", "fte"),
    ("loss", "losses", "deficit", "result"),
    ("fee", "fees", "charge", "charges", "price", "prices", "cost", "costs", "rate", "rates"),
)
"""A report's words for one thing: "turnover" is named by a row of "Sales". Not "loans" for "debt": a
bank's "Loans and advances to customers" are what it is owed."""


_NOT_HEADS = frozenset("respectively outstanding available attributable spent paid payable due owed held left remaining".split())
"""Words a thing asked may end in that name no thing ("shares outstanding", "profit attributable")."""


def _noun_end(words: list[str]) -> list[str]:
    """``words`` less a participle they end in ("Purchase obligations expressed", "the incentive
    compensation received"): the noun before it is the head."""
    while words and (words[-1].endswith("ed") or words[-1] in _NOT_HEADS):
        words = words[:-1]
    return words


def thing_asked(question: str) -> str | None:
    """The head noun of the thing ``question`` asks a figure of (the module doc); None where its
    grammar is not one read here, or the thing is no noun of its own."""
    m = _THING.match(question)
    if m is None:
        return None
    phrase = next(g for g in m.group("what", "much", "on") if g is not None)
    head, _, after = phrase.partition(" of ")
    words = _noun_end(content(head))
    if (not words or words[-1] in _NO_THING) and after:
        words = _noun_end(content(re.split(rf"\s+\b(?:{_STOP_AT})\b", after, maxsplit=1, flags=re.I)[0]))
    if not words or words[-1] in _NO_THING:
        return None
    short = [w for w in re.findall(r"[\w-]+", phrase.lower()) if w in SHORT]
    head = short[-1] if short and SHORT[short[-1]].split()[-1] == words[-1] else words[-1]
    return head if len(head) > 2 else None  # "R&D": no word of its own


def names_thing(head: str, word: str) -> bool:
    """Whether ``word`` says the thing ``head`` names: the same word (table_words.py `close`), or a
    report's other word for it (`_SAME_THING`)."""
    if close(head, word):
        return True
    return any(head in group and word in group for group in _SAME_THING)


def unread_thing(question: str, units: Sequence[Unit]) -> str | None:
    """The head noun ``question`` asks a figure of (`thing_asked`) where no passage of ``units``
    (its text or title) says it, or another word for it; None where one does, or no head is read."""
    head = thing_asked(question)
    if head is None or not units:
        return None
    want = content(SHORT.get(head, head))
    said = {w for u in units for w in content(f"{u.title}\n{u.text}")}
    if all(any(names_thing(h, w) for w in said) for h in want):
        return None
    return SHORT.get(head, head)


def row_named(question: str, sentence: str) -> bool:
    """Whether ``sentence`` is a table row whose own label ``question`` says word for word
    ("Immunology" for "What were Immunology sales …?"): the row is the one asked, its thing the
    table's, said or not."""
    row = parse_row(sentence)
    if row is None:
        return False
    label = next(iter(row.cells.values()), "").rpartition(SECTION_MARK)[2]
    own, asked = content(label), content(question)
    return bool(own) and all(any(close(w, q) for q in asked) for w in own)
