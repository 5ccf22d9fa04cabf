"""A value bound to its own item (issue #56, item 4: "In '40 at A, 25 at B', B's number is 25").

* `bound_value`: in a sentence that lists values for several subjects ("40 staff at Leeds, 25 at
  York and 12 at Hull"), the value in the list item that names the question's subject (a period
  with its own: "6 months", not "6 years"; the page's own subject names no item: issue #62; a
  date's day, "On March 27", is no item's value: issue #63).
* `year_value`: in a report's sentence that gives a value per year ("$6.5 million … during 2019
  and $7.7 million … during 2018", "$163 and $185 in 2018 and 2017": `year_pairs`, year_amounts.py
  `in_turn` and `blocks` with the words between them the question's), the value of the one year
  the question names (issue #63: the 1.5B read "$1.2 million", the change the sentence ends on).
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..types import Unit
from .binding import NUM as NUMBER
from .binding import digits, distinguishing, heads, in_file_name, lemma, list_items, names_in, question_names, subject_words, telling
from .listed import names_number
from .operation import operation, years_in
from .table_cells import GENERIC, Amount, content
from .year_amounts import A_YEAR, amounts_in, blocks, in_turn

_PERIOD = re.compile(r"\s*-?\s*(?P<unit>(?:second|minute|hour|day|week|month|year)s?)\b", re.I)
"""A period after a number ("4 years", "6-month"): a value of another period is written with its own."""


def bound_value(answer: str, sentence: str, question: str, units: list[Unit] | None = None, unit: Unit | None = None) -> str | None:
    """The value bound to the question's subject in a sentence that lists values for several
    subjects (the module doc), when it is not ``answer``; None when the sentence lists no such
    values, names the subject in no single item, or already binds ``answer`` to it. With the
    ``units`` read, the subject is told by the question's words that tell them apart ("VAT", in
    every passage of a VAT page, names no item: `distinguishing`, `telling`), and a name the
    sentence's own ``unit`` is headed by (its page, "vat-registration") is its page's subject,
    not an item's."""
    items = list_items(sentence)
    if len(items) < 2 or not digits(answer):
        return None
    with_value = [it for it in items if digits(it)]
    if len(with_value) < 2:
        return None
    names = question_names(question)
    if units is not None:
        names = [n for n in distinguishing(names, units) if unit is None or not (names_in(n, heads(unit)) or in_file_name(n, unit))]
        terms = names or sorted(telling(subject_words(question) - _name_words(question_names(question)), units))
    else:
        terms = names or sorted(subject_words(question))
    naming = [i for i, it in enumerate(items) if any(names_in(t, it) if t[:1].isupper() else t in keywords(it) for t in terms)]
    if len(naming) != 1:
        return None
    item = items[naming[0]]
    numbers = [  # "On March 27": a date's day; "ended 2019": a year, no item's value
        m.group() for m in NUMBER.finditer(item) if not names_number(item[: m.start()]) and not A_YEAR.fullmatch(m.group())
    ]
    old = [m.group() for m in NUMBER.finditer(answer)]
    if len(numbers) != 1 or len(old) != 1 or digits(numbers[0]) == digits(old[0]):
        return None  # "York: 25" split from its name, two values in the item, or already bound
    mine = _PERIOD.match(answer, answer.index(old[0]) + len(old[0]))
    theirs = _PERIOD.match(item, item.index(numbers[0]) + len(numbers[0]))
    if mine and theirs and lemma(mine["unit"]) != lemma(theirs["unit"]):  # "4 years" for goods, "6 months" for services
        at = answer.index(old[0])
        return f"{answer[:at]}{numbers[0]}{theirs.group()}{answer[mine.end() :]}"
    return answer.replace(old[0], numbers[0], 1)


def _name_words(names: list[str]) -> set[str]:
    return {w.lower() for n in names for w in n.split()}


def year_pairs(sentence: str, question: str) -> list[tuple[int, Amount]] | None:
    """(year, amount) as ``sentence`` pairs them, as blocks ("A and B in Y1 and Y2") or one after
    another ("A in Y1 and B in Y2"; year_amounts.py `blocks`, `in_turn`), the words between them
    naming nothing ``question`` does not ("… in 2019 and costs were $3.0 million in 2018" is two
    things for revenue); None where it pairs them neither way."""

    def joins(between: str) -> bool:
        return not _foreign(between, question)

    pairs = blocks(sentence, joins) or in_turn(sentence, joins)
    return [(p.year, p.amount) for p in pairs] if pairs else None


_LINKING = frozenset("total addition approximately about million billion thousand".split())


def _foreign(text: str, question: str) -> bool:
    """Whether ``text`` names a thing ``question`` does not (a content word of its own, not a
    generic, linking or scale word, nor a year)."""
    asked = {lemma(w) for w in content(question)}
    return any(lemma(w) not in asked for w in content(text) if w not in GENERIC and w not in _LINKING and not A_YEAR.fullmatch(w))


def _of_another(sentence: str, question: str) -> bool:
    """Whether the clause that leads to ``sentence``'s first amount names a thing the question
    does not ("Revenue was $5.0 million in 2019 …" for the costs): its amounts may be another thing's."""
    first = next(iter(amounts_in(sentence)), None)
    return first is None or _foreign(re.split(r"[,;:]", sentence[: first[0]])[-1], question)


def year_value(answer: str, sentence: str, question: str) -> str | None:
    """The amount ``sentence`` gives the one year ``question`` names, where the reply
    ``answer`` is another amount of that sentence (the module doc); None where the question
    names no single year or asks a computation, or the sentence pairs no amounts with years
    (`year_pairs`)."""
    asked = years_in(question)
    said = amounts_in(answer)
    if len(asked) != 1 or operation(question) is not None or len(said) != 1:
        return None
    pairs = year_pairs(sentence, question)
    if pairs is None or _of_another(sentence, question):
        return None
    mine = [a for y, a in pairs if y == asked[0]]
    values = [a for _, a in pairs] + [a for _, a, _ in amounts_in(sentence)]
    if len(mine) != 1 or not any(abs(v.value) == abs(said[0][1].value) for v in values) or abs(mine[0].value) == abs(said[0][1].value):
        return None
    return mine[0].text
