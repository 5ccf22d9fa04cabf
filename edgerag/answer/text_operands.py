"""Values stated in a report's text, as operands like a table's cells (issue #63, item 3): "Altium
had US$6 million in long-term deferred revenue as at 30 June 2018 …", "… US$6.9 million in
long-term deferred revenue as at June 2019 …" give the change and the percentage change of
long-term deferred revenue from 2018 to 2019.

A value is read for each year the question names, from a sentence (not a table row) that holds
`MIN_SUBJECT` of the question's own words (its operation, years and asking words aside), as
year_amounts.py reads a sentence's amounts by year:

* "A and B …, respectively" with as many years: the amounts in the years' order, and nothing
  else of that sentence;
* "(2018: £41.5 million)": the amount after the year in parentheses;
* and the amount written next to the subject's words (at most `year_amounts.NEAR` words away)
  for the one year asked the sentence names outside such brackets.

Each year must get exactly one value, all of one kind (percentages or amounts); else None, and
the model reads the question as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.rows import row_spans
from ..text.sentences import split_sentences
from ..text.tables import STOP
from .operation import Operation, years_in
from .table_cells import GENERIC, Cell, close, content
from .year_amounts import YearAmount, bracketed, own_year, respectively

MIN_SUBJECT = 0.75


def subject_asked(question: str, op: Operation) -> list[str]:
    """The words of ``question`` that name what is asked: no asking word, stop word, year, nor ``op``'s cue."""
    cue = set(content(op.cue))
    return [w for w in content(question) if w not in GENERIC and w not in STOP and w not in cue and not years_in(w)]


def prose(text: str) -> str:
    for s, e in reversed(row_spans(text)):
        text = text[:s] + text[e:]
    return text


def text_cells(op: Operation, question: str, units_texts: Sequence[tuple[str, str]]) -> list[Cell] | None:
    """One value a year for the years ``op`` names, read from the texts' sentences (the module doc), or None."""
    years = sorted(op.years)
    subject = subject_asked(question, op)
    if len(years) < 2 or len(subject) < 2:
        return None
    found: dict[int, list[Cell]] = {y: [] for y in years}
    for key, text in units_texts:
        for sentence in split_sentences(prose(text)):
            words = content(sentence)
            held = sum(any(close(w, s) for s in words) for w in subject)
            if held / len(subject) < MIN_SUBJECT:
                continue
            for p in _in_sentence(sentence, years, subject):
                found[p.year].append(Cell(" ".join(subject), str(p.year), p.amount, key, sentence, p.scale))
    cells = []
    for y in years:
        values = {c.amount.value for c in found[y]}
        if len(values) != 1:
            return None  # none, or two values read for one year
        cells.append(found[y][0])
    return cells if len({c.amount.percent for c in cells}) == 1 else None


def _in_sentence(sentence: str, years: list[int], subject: list[str]) -> list[YearAmount]:
    """The amounts ``sentence`` gives ``years``: its "respectively" alone where it says so, else
    its bracketed years' and its own year's (year_amounts.py)."""
    said = respectively(sentence)
    if said is not None:
        return [p for p in said if p.year in years]
    own = own_year(sentence, subject, years)
    return [p for p in bracketed(sentence) if p.year in years] + ([own] if own is not None else [])
