"""Values stated in a report's text, as operands like a table's cells (issue #63, item 3): "Altium
had US$6 million in long-term deferred revenue as at 30 June 2018 …", "… US$6.9 million in
long-term deferred revenue as at June 2019 …" give the change and the percentage change of
long-term deferred revenue from 2018 to 2019.

A value is read for each year the question names, from a sentence (not a table row) that holds
`MIN_SUBJECT` of the question's own words (its operation, years and asking words aside):

* "A and B …, respectively" with as many years: the amounts in the years' order;
* "(2018: £41.5 million)": the amount after the year in parentheses;
* else the amount written next to the subject's words (at most `NEAR` words away), in a
  sentence that names one year.

Each year must get exactly one value, all of one kind (percentages or amounts); else None, and
the model reads the question as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.printed import scale_word
from ..text.rows import row_spans
from ..text.sentences import split_sentences
from ..text.tables import _STOP
from .operation import Operation, years_in
from .table_cells import _GENERIC, Amount, Cell, _close, content

MIN_SUBJECT = 0.75
NEAR = 6
_AMOUNT = re.compile(
    r"(?P<neg>-|\()?(?P<cur>US\$|A\$|C\$|HK\$|[$€£¥])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d,]\d)\s?(?P<scale>million|billion|thousand|m\b|bn\b)?(?P<pct>\s?%|\s+per\s?cent)?"
)
_PAREN_YEAR = re.compile(
    r"\(\s*(?:FY\s?)?(?P<y>(?:19|20)\d{2})\s*:\s*[^)]*?(?P<amt>(?:US\$|[$€£])?\s?\d[\d,]*(?:\.\d+)?\s?(?:million|billion|thousand|m\b|bn\b)?\s?%?)\s*\)"
)


def amounts_in(sentence: str) -> list[tuple[int, Amount, str]]:
    """(position, amount, scale word) of the sentence's amounts: no year, no day of a date."""
    out = []
    for m in _AMOUNT.finditer(sentence):
        num = m["num"]
        if not (m["cur"] or m["scale"] or m["pct"]) and (re.fullmatch(r"(?:19|20)\d{2}", num) or len(num.replace(",", "")) <= 2):
            continue  # a year, a day, a note's number
        value = float(num.replace(",", ""))
        value = -value if m["neg"] else value
        out.append(
            (
                m.start(),
                Amount(value, bool(m["pct"]), m["cur"] or "", m.group().strip(" (")),
                scale_word(f"in {m['scale']}s") if m["scale"] else "",
            )
        )
    return out


def _subject(question: str, op: Operation) -> list[str]:
    cue = set(content(op.cue))
    return [w for w in content(question) if w not in _GENERIC and w not in _STOP and w not in cue and not years_in(w)]


def prose(text: str) -> str:
    for s, e in reversed(row_spans(text)):
        text = text[:s] + text[e:]
    return text


def _word_at(sentence: str, pos: int) -> int:
    return len(sentence[:pos].split())


def text_cells(op: Operation, question: str, units_texts: Sequence[tuple[str, str]]) -> list[Cell] | None:
    """One value a year for the years ``op`` names, read from the texts' sentences (the module doc), or None."""
    years = sorted(op.years)
    subject = _subject(question, op)
    if len(years) < 2 or len(subject) < 2:
        return None
    found: dict[int, list[Cell]] = {y: [] for y in years}
    for key, text in units_texts:
        for sentence in split_sentences(prose(text)):
            words = content(sentence)
            held = sum(any(_close(w, s) for s in words) for w in subject)
            if held / len(subject) < MIN_SUBJECT:
                continue
            for y, a, scale in _in_sentence(sentence, years, subject):
                found[y].append(Cell(" ".join(subject), str(y), a, key, sentence, scale))
    cells = []
    for y in years:
        values = {c.amount.value for c in found[y]}
        if len(values) != 1:
            return None  # none, or two values read for one year
        cells.append(found[y][0])
    return cells if len({c.amount.percent for c in cells}) == 1 else None


def _in_sentence(sentence: str, years: list[int], subject: list[str]) -> list[tuple[int, Amount, str]]:
    named = years_in(sentence)
    amounts = amounts_in(sentence)
    if re.search(r"\brespectively\b", sentence, re.I) and len(named) >= 2 and len(amounts) == len(named):
        return [(y, a, s) for y, (_, a, s) in zip(named, amounts) if y in years]
    out = []
    for m in _PAREN_YEAR.finditer(sentence):
        y = int(m["y"])
        inner = amounts_in(m["amt"])
        if y in years and len(inner) == 1:
            out.append((y, inner[0][1], inner[0][2]))
    others = [y for y in named if y in years and y not in {o[0] for o in out}]
    if len(others) == 1:  # the sentence's own year: the amount next to the subject's words
        tokens = sentence.split()
        at = [i for i, t in enumerate(tokens) if any(_close(w, s) for w in content(t) for s in subject)]
        outside = [(p, a, s) for p, a, s in amounts if not any(m.start() <= p < m.end() for m in _PAREN_YEAR.finditer(sentence))]
        near = sorted((min(abs(_word_at(sentence, p) - i) for i in at), p, a, s) for p, a, s in outside) if at else []
        if near and near[0][0] <= NEAR and (len(near) == 1 or near[1][0] > near[0][0]):
            out.append((others[0], near[0][2], near[0][3]))
    return out
