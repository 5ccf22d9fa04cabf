"""A number listed for the question's subject, decided in code before any read (issue #56,
item 4: "In '40 at A, 25 at B', B's number is 25").

"How many staff were employed at Hexham at the end of 2024?" over "The Institute employed 142
people at the end of 2024: 68 at Durham, 31 at Kendal, 26 at Hexham and 17 at Whitby." is 26:
the sentence lists values for several subjects, one item names the question's subject, and that
item holds one number. A small model reads the first number, or the total; code reads the item.

A sentence decides only when all of these hold, else the model reads as before:

* the question asks "how many" or "how much" and names its subject: a name of its own
  (binding.py `question_names`, not the organisation every passage names), or, for "how much",
  its telling words ("donations and legacies");
* the sentence splits into at least two items holding a number (binding.py `list_items`; an
  item that only restates the value before it, "…, or 5.3%,", is none; a date's day, "December
  31", a footnote's "(2)" and a name's number, "IAS 39", are no numbers), and exactly one item
  names the subject, with exactly one number in it;
* a year the question names is the sentence's or its passage's headings' ("Annual Report
  2024 › Finances"), never where the sentence names only later years ("For 2024, the group
  targets … €1.45 billion" answers nothing of 2023), and the sentence (or the one before
  it, for "… 47 of them") speaks of what "how many" counts
  ("papers": "Staff published 118 peer-reviewed papers. Durham contributed 47 of them, …"),
  people words standing for each other ("staff", "people", "employed"), in the unit counted
  ("days of leave" is not "26 weeks");
* the question asks one value (not "respective …", not two years), a rate's item holds a
  percentage ("the profit margin" is no "RMB16 million"), money's a currency ("How much money
  did data services bring in?" is no "44.6 million used data services"), and a word of change
  ("decreased") or the report's own entity ("the group") tells no item apart;
* an item that names a year of its own names one the question asks ("a benefit of $0.3 million
  in fiscal 2017" answers nothing of 2019: on TAT-QA's report excerpts such items were wrong);
* every sentence read that decides so gives the same value.
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..text.printed import CODES, CURRENCY_SIGN, SIGNS
from ..text.rows import parse_row
from ..text.sentences import split_sentences
from ..types import Unit
from .anchors import FUNCTION_WORDS
from .binding import (
    GENERIC,
    QUESTION_WORDS,
    before,
    distinguishing,
    heads,
    house_name,
    lemma,
    list_items,
    names_in,
    question_names,
    subject_words,
    telling,
)
from .compare import Decision
from .kinds import asked_kind
from .operation import operation
from .table_words import OWN_ENTITY

_YEAR = re.compile(r"\b(?:1\d{3}|20\d{2})\b")
_VALUE = re.compile(
    r"(?:" + CURRENCY_SIGN + r"\s?)?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|bn|m|k)\b)?(?:\s?(?:%|per\s?cent\b))?"
    r"(?:\s?(?:hours?|days?|weeks?|months?|years?|kg|km|m|mw|w|gbp|eur|usd)\b)?",
    re.I,
)


_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?"
)
_CURRENCY_CODE = r"(?:USD|EUR|GBP|RMB|CNY|HKD|SGD|AUD|NZD|CAD|CHF|JPY|INR|ZAR|SEK|NOK|DKK|US)"
_NAMED_BEFORE = re.compile(
    rf"(?:\b{_MONTH}|\b(?!{_CURRENCY_CODE}\b)[A-Z]{{2,}}|\b(?:Note|Notes|Section|Item|Part|Rule|Article|Schedule|Level|Tier|Phase))\s*$"
)
"""What makes the number after it a name's, not an amount: a month ("December 31"), a code
("IAS 39", "ASU 2016"), a part of a document ("Note 5", "Item 7")."""


def names_number(before: str) -> bool:
    """Whether the number written right after ``before`` is a name's (`_NAMED_BEFORE`): "March 27", "Note 5"."""
    return bool(_NAMED_BEFORE.search(before))


_SEVERAL = re.compile(r"\brespective(?:ly)?\b", re.I)
_MONEY_ASKED = re.compile(
    r"\bhow\s+much\s+(?:money|cash)\b|\bhow\s+much\b.*\b(?:spend|spent|cost|pay|paid|earn|earned|bring\s+in|brought\s+in|raise|raised|charge|charged"
    r"|invest|invested|lend|lent|borrow|borrowed|receive|received)\b",
    re.I,
)
"""A question of money in people's words ("How much money did data services bring in …?"): an item's
value with no currency ("of whom 44.6 million used data services") is a count, not its answer."""
_MONEY_VALUE = re.compile(
    rf"[{SIGNS}]|(?-i:\b(?:{CODES}|Rs|Rp|zł)\b)|\b(?:euros?|dollars?|pounds?|francs?|kronor|kroner|krona|yen|yuan|naira|rupees?|rand|pesos?|złoty|zloty|lira|reais)\b",
    re.I,
)
_RATE = re.compile(r"\b(?:margin|rate|ratio|percentage|percent)\b|%", re.I)
_MOVES = frozenset(
    lemma(w)
    for w in "increase increased decrease decreased rise rose fall fell grow grew decline declined change changed drop dropped reduce reduced".split()
)
"""Words of a change: said of every amount that moved, they name no item ("How much did depreciation
*decrease*?" is not "Our gross margin *decreased* to 53%")."""


def _values(text: str) -> list[str]:
    """The amounts of ``text``: not a year, a date's day, a footnote mark "(2)", or a name's number."""
    out = []
    for m in _VALUE.finditer(text):
        value = m.group().strip()
        if _YEAR.fullmatch(value) or names_number(text[: m.start()]):
            continue
        if re.fullmatch(r"\d{1,2}", value) and (text[m.start() - 1 : m.start()] == "(" and text[m.end() : m.end() + 1] == ")"):
            continue  # "(2) Fiscal 2019 …": a footnote's mark
        out.append(value)
    return out


def _stems(text: str) -> set[str]:
    return {lemma(w) for w in keywords(text)}


_HOW = re.compile(r"\bhow (many|much)\b(?P<rest>(?:\s+[\w-]+){0,6})", re.I)
_AMOUNT_NOUN = re.compile(
    r"^\s*what (?:is|was|were|are) (?:the )?(?:[\w'’-]+ ){0,3}(income|revenue|turnover|expenditure|spending|profit|surplus|deficit|"
    r"salary|salaries|wage|wages)\b",
    re.I,
)
_SKIP = frozenset("of the a an our its their his her these those".split())
_VERBS = frozenset("did does do were was are is have has had will would can could may must should came come".split())
_PEOPLE = frozenset("people staff employee person worker member headcount employ".split())
_ROLES = frozenset(
    "borrower customer client member subscriber student patient passenger visitor user holder depositor pensioner "
    "resident tenant spectator supporter policyholder shareholder account".split()
)
"""The roles by which a report counts people ("Active borrowers"), for a user's "How many people …?"."""
_UNITS = frozenset("hour day week month year".split())
_THEM = re.compile(r"\b(?:of|among) (?:them|these|those)\b", re.I)


def counted(question: str) -> set[str] | None:
    """What "how many" counts, as lemmas ("How many of the 2024 peer-reviewed papers …" → paper,
    peer-review), people words standing for each other; empty for "how much"; the amount a
    "What was the … income?" names; None when the question asks neither."""
    m = _HOW.search(question)
    if m is None:  # "What was the investment income in 2025?": the amount named
        amount = _AMOUNT_NOUN.search(question)
        return {lemma(amount.group(1))} if amount else None
    if m.group(1).lower() == "much":
        return set()
    words = []
    for w in m["rest"].lower().split():
        if w in _VERBS:
            break  # "How many doctoral students *did* the Institute have": what is counted ends at its verb
        if w not in _SKIP and not _YEAR.fullmatch(w):
            words.append(w)
    words = words[:3]
    out = {lemma(w) for w in words}
    if out & {"people", "person", "individual"}:  # "How many people have salary-backed loans?": counted by their role
        return out | _PEOPLE | _ROLES
    return out | _PEOPLE if out & _PEOPLE else out


def says_counted(count: set[str], text: str, value: str) -> bool:
    """Whether ``text`` speaks of what is counted, and ``value``'s unit is the one counted ("days", not "26 weeks")."""
    if not count:
        return True
    units = {lemma(w) for w in re.findall(r"[a-z]+", value.lower())} & _UNITS
    if units and not units & count:
        return False  # "3,000 hours" counts no samples
    return bool(count & _stems(text))


def _counted_before(sentence: str) -> str:
    """What the sentence before "… 47 of them" counts: the words after its numbers ("Staff
    published 118 *peer-reviewed papers*."), not its subject."""
    return " ".join(m.group(1) for m in re.finditer(r"\d[\d,.]*\s+((?:[\w-]+\s+){0,2}[\w-]+)", sentence))


def _restated(item: str) -> bool:
    """An item that only says the value before it again, in other terms: "… increased $13.8
    million, *or 5.3%*, in 2019": no subject's item of a list (its words are no name's)."""
    return bool(_values(item)) and not any(not re.fullmatch(r"[\d.,]+", w) for w in _stems(item))


_WORD = re.compile(r"[A-Za-z][A-Za-z\d'’]*")


def _before_each(text: str) -> dict[str, str]:
    """Each word's lemma → the lemma of the word before it ("" where none, or a function word)."""
    words = [w.lower() for w in _WORD.findall(text)]
    return {lemma(w): (lemma(words[k - 1]) if k and words[k - 1] not in FUNCTION_WORDS else "") for k, w in enumerate(words)}


_NO_MODIFIERS = GENERIC | QUESTION_WORDS | frozenset("thousand million billion bn".split())
"""Words before a noun that tell no kind of it apart ("a $2.43 billion decrease", "How much decrease")."""


def _contrasted(item: str, question: str) -> bool:
    """Whether the item says its noun with another modifier than the question's ("operating revenue
    was ¥612,480 million" for "international passenger revenue"): each word before the shared noun,
    the other side does not say."""
    mine, asked = _before_each(item), _before_each(question)
    for w, a in mine.items():
        q = asked.get(w)
        if w in FUNCTION_WORDS or not a or not q or a == q or {a, q} & _NO_MODIFIERS:
            continue
        if a not in asked and q not in mine:
            return True
    return False


def _with_lead(items: list[str]) -> list[str]:
    """Each item with the items before it that hold no value and follow one that does ("commercial
    analysis" before "consultancy £2.2 million"): a name a list split at its "and"."""
    out, lead = [], ""
    for it in items:
        out.append(f"{lead} {it}".strip())
        lead = "" if _values(it) else f"{lead} {it}".strip()
    return out


def _others(items: list[str], i: int) -> set[str]:
    return set().union(*(_stems(o) for j, o in enumerate(items) if j != i))


def listed_value(question: str, units: list[Unit]) -> Decision | None:
    """The value listed for the question's subject (the module doc), or None."""
    count = counted(question)
    if count is None or asked_kind(question) != "number" or _SEVERAL.search(question) or len(set(_YEAR.findall(question))) > 1:
        return None  # "the respective maintenance revenue in 2018 and 2019": two values asked, not one item's
    if (op := operation(question)) is not None and op.op not in ("sum", "ratio"):
        return None  # "the average quarterly net revenue": computed, never one item's figure ("NRR of 108%")
    amount = _HOW.search(question) is None or "much" in _HOW.search(question).group(1).lower()
    every = [n for n in distinguishing(question_names(question), units) if not re.fullmatch(_MONTH, n)]  # "as of March 31": a date, no name
    every = [n for n in every if n.lower() not in count]  # "How many TEU did the Porto Alvor terminal handle?": TEU is the unit counted
    names = [n for n in every if not house_name(n, question)] or ([] if amount else every)  # "the Institute's income"
    if not names and not amount:
        return None  # "how many" of no named subject: too little to bind a list item to
    words = telling(subject_words(question), units)
    name_words = {lemma(w) for n in names for w in keywords(n)}
    years = set(_YEAR.findall(question))
    rest = {lemma(w) for w in words if not w.isdigit()} - name_words - _MOVES - {lemma(w) for w in OWN_ENTITY}  # "the group": every page's
    found: dict[str, tuple[int, Unit, str, str]] = {}
    for u in units:
        for sentence in split_sentences(u.text):
            if parse_row(sentence) is not None:
                continue  # a table's row: its cells are bound by row and column (table_cells.py), not as a list
            items = [it for it in list_items(sentence) if not _restated(it)]
            if len([it for it in items if _values(it)]) < 2:
                continue
            if names:
                naming = [it for it in items if any(names_in(n, it) for n in names)]
            else:  # no name: the item holding most telling words, a word no other item holds among them ("legacies £0.7 million")
                named = _with_lead(items)  # "commercial analysis and consultancy £2.2 million": split at "and", one item
                held = {i: len(_stems(named[i]) & rest) for i, it in enumerate(items) if _values(it)}
                top = max(held.values(), default=0)
                enough = 1 if len(rest) <= 2 else 2  # "How much did the operator pay for spectrum licences?": not "… €0.30 was paid"
                naming = [
                    items[i]
                    for i, n in held.items()
                    if n == top and n >= enough and _stems(items[i]) & rest - _others(items, i) and not _contrasted(items[i], question)
                ]
            if len(naming) != 1 or len(_values(naming[0])) != 1:
                continue
            if _RATE.search(question) and not re.search(r"%|per\s?cent", _values(naming[0])[0], re.I):
                continue  # "the profit margin": a rate asked, an amount listed ("RMB16 million")
            if _MONEY_ASKED.search(question) and not _MONEY_VALUE.search(naming[0]):
                continue  # money asked, a count listed ("of whom 44.6 million used data services")
            said_years = set(_YEAR.findall(sentence))
            lead = _counted_before(before(sentence, u.text)) if _THEM.search(sentence) else ""  # "Durham contributed 47 of them"
            headed = set(_YEAR.findall(f"{heads(u)} {lead}"))  # "Annual Report 2024 › …", whatever year it compares with
            if years and not (years <= said_years or years <= headed):
                continue
            if years and said_years and min(map(int, said_years)) > max(map(int, years)):
                continue  # "For 2024, the group targets … eCapex of around €1.45 billion": a later year's, though headed 2023
            if years and (own := set(_YEAR.findall(naming[0]))) and not years & own:
                continue  # the item's own year is another ("… 308,000 awards … for the fiscal year ended 2019" for 2018)
            if not says_counted(count, f"{lead} {sentence}", _values(naming[0])[0]):
                continue  # the subject's item in a list of something else
            score = len(_stems(naming[0]) & rest) if not names else 0
            found.setdefault(_values(naming[0])[0], (score, u, sentence, naming[0]))
    best = max((f[0] for f in found.values()), default=0)
    found = {v: f for v, f in found.items() if f[0] == best}  # the item holding most of the question's words
    if len(found) != 1:
        return None
    value, (_, unit, sentence, item) = next(iter(found.items()))
    return Decision(answer=value, units=[unit], reason=f"'{item.strip()}' in the list of '{sentence[:120]}'", kind="listed")
