"""The amounts a report's sentence gives its years (issue #63): one reader per way a sentence pairs
them, each giving `YearAmount`s, that the callers judge by their own guards (which pattern they
take, whether the words around the amounts are the question's).

* "respectively" (`respectively`): as many amounts as years, in the years' order; "(1) Includes
  amounts capitalized related to the Company's U.S. build-to-suit facility of $41.8 million and
  $39.4 million as of March 31, 2019 and 2018, respectively." → 2019: $41.8 million, 2018: $39.4
  million (respective_value.py, text_operands.py);
* "bracketed" (`bracketed`): a prior year's amount in parentheses after the year, "Revenue rose
  to £45.2 million (2018: £41.5 million)." → 2018: £41.5 million (text_operands.py);
* "own year" (`own_year`): a sentence naming one year (or only a prior year's bracket: then the
  year after it, the report's own), the amount nearest the subject's words
  (at most `NEAR` words away, and nearer than any other), "Altium had US$6.9 million in long-term
  deferred revenue as at June 2019 which resulted in an adjustment of US$0.2 million." → 2019:
  US$6.9 million for "long-term deferred revenue" (text_operands.py);
* "in turn" (`in_turn`): each amount followed by its year, "A total of $6.5 million of software
  costs during 2019 and $7.7 million of software costs during 2018 were capitalized, …" → 2019:
  $6.5 million, 2018: $7.7 million; the pairs end where the words between two of them do not
  join them (``joins``: "… were capitalized, resulting in an increase of the expense by $1.2
  million compared to 2018" is another thing's for list_value.py);
* "blocks" (`blocks`): the amounts, then their years in the same order, "Amortization expense was
  approximately $163 and $185 in 2018 and 2017." → 2018: $163, 2017: $185 (list_value.py).

"in turn" and "blocks" read years before the first amount as the sentence's period, not a pair's
("ended December 31, 2019 was $163 and $185 in 2018 and 2017": the years after), and an amount
opening an aside as positive ("(21.0% in fiscal 2019, 24.5% in fiscal 2018 …)", no "(1,204)").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from ..text.printed import CURRENCY_SIGN, scale_word
from .operation import years_in
from .table_cells import Amount, close, content

NEAR = 6
"""The most words between the subject's words and the amount a sentence gives its own year."""
A_YEAR = re.compile(r"(?<![\d,.])(?:19|20)\d{2}(?!\d|,\d)")
"""A year as "in turn" and "blocks" read it ("2019", not "2,019" or "12019")."""
_AMOUNT = re.compile(
    r"(?P<neg>-|\()?(?P<cur>[A-Z]{1,3}\$|"
    + CURRENCY_SIGN
    + r")?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d,]\d)\s?(?P<scale>million|billion|thousand|m\b|bn\b)?(?P<pct>\s?%|\s+per\s?cent)?"
)
_PAREN_YEAR = re.compile(
    r"\(\s*(?:FY\s?)?(?P<y>(?:19|20)\d{2})\s*:\s*[^);]*?(?P<amt>(?:US\$|[$€£])?\s?\d[\d,]*(?:\.\d+)?\s?(?:million|billion|thousand|m\b|bn\b)?\s?%?)\s*(?=[;)])"
)
PART_OF_YEAR = re.compile(
    r"\b(?:first|second|third|fourth|last)\s+(?:half|quarter)\b|\b(?:three|six|nine)\s+months\b|\bH[12]\b|\bQ[1-4]\b|\binterim\b|\bhalf[- ]year\b",
    re.I,
)
"""A part of a year a sentence names ("the first half", "six months", "Q3"): its figures are no year's."""
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


@dataclass(frozen=True)
class YearAmount:
    """An amount a sentence gives a year: ``how`` names the pattern read ("respectively",
    "bracketed", "own year", "in turn", "blocks"); ``scale`` its scale word ("million", or "");
    ``at`` where the amount starts in the sentence."""

    year: int
    amount: Amount
    how: str
    scale: str = ""
    at: int = 0

    @property
    def written(self) -> str:
        """The amount as the sentence writes it ("$39.4 million")."""
        return self.amount.text


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


def respectively(sentence: str) -> list[YearAmount] | None:
    """The years' amounts of a sentence saying "respectively" that names two years or more and
    as many amounts, in order (the module doc); None where it does not."""
    named = years_in(sentence)
    amounts = amounts_in(sentence)
    if not _RESPECTIVELY.search(sentence) or len(named) < 2 or len(amounts) != len(named):
        return None
    return [YearAmount(y, a, "respectively", s, p) for y, (p, a, s) in zip(named, amounts)]


def bracketed(sentence: str) -> list[YearAmount]:
    """Each "(2018: £41.5 million)" of the sentence holding one amount, in order (the module doc)."""
    out = []
    for m in _PAREN_YEAR.finditer(sentence):
        inner = amounts_in(m["amt"])
        if len(inner) == 1:
            p, a, s = inner[0]
            out.append(YearAmount(int(m["y"]), a, "bracketed", s, m.start("amt") + p))
    return out


def own_year(sentence: str, subject: list[str], years: Collection[int], near: int = NEAR) -> YearAmount | None:
    """The amount nearest the ``subject``'s words (at most ``near`` words away, nearer than any
    other, in no brackets) for the one year of ``years`` the sentence names that no bracket
    gives an amount (`bracketed`); None where there is not one such year or amount."""
    given = {b.year for b in bracketed(sentence)}
    own = [y for y in years_in(sentence) if y in years and y not in given]
    if not own and given and set(years_in(sentence)) <= given and max(given) + 1 in years and not PART_OF_YEAR.search(sentence):
        own = [max(given) + 1]  # "… was NZ$6.2 million (2017: NZ$5.1 million)": the figure outside the bracket is the next year's
    if len(own) != 1:
        return None
    tokens = sentence.split()
    at = [i for i, t in enumerate(tokens) if any(close(w, s) for w in content(t) for s in subject)]
    if not at:
        return None
    spans = [(m.start(), m.end()) for m in _PAREN_YEAR.finditer(sentence)]
    outside = [(p, a, s) for p, a, s in amounts_in(sentence) if not any(b <= p < e for b, e in spans)]
    ranked = sorted((min(abs(_word_at(sentence, p) - i) for i in at), p, a, s) for p, a, s in outside)
    if not ranked or ranked[0][0] > near or (len(ranked) > 1 and ranked[1][0] <= ranked[0][0]):
        return None
    _, p, a, s = ranked[0]
    return YearAmount(own[0], a, "own year", s, p)


def _word_at(sentence: str, pos: int) -> int:
    return len(sentence[:pos].split())


def _everything(_: str) -> bool:
    return True


def in_turn(sentence: str, joins: Callable[[str], bool] = _everything) -> list[YearAmount] | None:
    """Each amount with the year after it, one pair after another ("A in Y1 and B in Y2", the
    module doc), up to the first pair the words before it (from the year before) do not
    ``joins``; None where the sentence pairs them not so, or fewer than two pairs are kept."""
    marks = _marks(sentence)
    kinds = "".join("a" if k == "amount" else "y" for _, k, _ in marks)
    if not re.fullmatch(r"(?:ay){2,}a*", kinds):
        return None
    pairs: list[YearAmount] = []
    for i in range(0, 2 * kinds.count("y"), 2):
        if i and not joins(sentence[marks[i - 1][0] : marks[i][0]]):
            break
        at, _, (a, s) = marks[i]
        pairs.append(YearAmount(marks[i + 1][2], a, "in turn", s, at))
    return pairs if len(pairs) >= 2 else None


def blocks(sentence: str, joins: Callable[[str], bool] = _everything) -> list[YearAmount] | None:
    """Two amounts or more, then as many years in their order ("A and B in Y1 and Y2", the module
    doc), the words from the first amount to the last year ``joins``-ed; else None."""
    marks = _marks(sentence)
    kinds = "".join("a" if k == "amount" else "y" for _, k, _ in marks)
    if not re.fullmatch(r"(a+)(y+)", kinds) or not kinds.count("a") == kinds.count("y") >= 2:
        return None
    if not joins(sentence[marks[0][0] : marks[-1][0]]):
        return None
    years = [x for _, k, x in marks if k == "year"]
    return [YearAmount(y, a, "blocks", s, at) for y, (at, _, (a, s)) in zip(years, [m for m in marks if m[1] == "amount"])]


def _marks(sentence: str) -> list[tuple[int, str, int | tuple[Amount, str]]]:
    """The sentence's amounts ((amount, scale)) and years ("amount" / "year") by position, the
    years before its first amount dropped: its period, not a pair's."""
    amounts: list[tuple[int, str, int | tuple[Amount, str]]] = [
        (p, "amount", (_unbracketed(a, sentence[p:]), s)) for p, a, s in amounts_in(sentence)
    ]
    marks = sorted(amounts + [(m.start(), "year", int(m.group())) for m in A_YEAR.finditer(sentence)], key=lambda m: (m[0], m[1]))
    while marks and marks[0][1] == "year":
        marks.pop(0)
    return marks


def _unbracketed(amount: Amount, written: str) -> Amount:
    """An amount that opens an aside ("(21.0% in fiscal 2019, …)") is no negative "(1,204)"."""
    if amount.value < 0 and written.startswith("(") and not re.match(r"\(\s*[$€£]?\s?\d[\d,.]*\s*[%a-z]*\)", written):
        return Amount(-amount.value, amount.percent, amount.currency, amount.text)
    return amount
