"""How a question's words meet a table's labels and headers (issue #63): one word is another's
when their stems agree, or they share their first five letters, or one is a user's verb and the
other the noun a report says it by ("lend" and "Loans", `close`); `content` keeps the words that
can name a row or a column.
"""

from __future__ import annotations

import re

from ..text.tables import STOP, stem, words_in

OWN_ENTITY = frozenset(
    "company company's group group's bank bank's mine business firm organisation organization "
    "trust trust's society society's charity charity's co-operative cooperative insurer operator".split()
)
"""Words by which a report names its own entity ("How much did the bank lend …?", "What markets does the
company operate in?", a charity's "the Trust", a co-op's "the Society"): every page is about it, so they name no row and tell no sentence apart."""

_SAID_AS = [
    "sold sell sells selling sale sales",
    "lend lends lent lending loan loans advance advances",
    "earn earns earned earning earnings",
    "spend spends spent spending expenditure expenditures expense expenses",
    "pay pays paid paying payment payments",
    "borrow borrows borrowed borrowing borrowings",
    "employ employs employed employee employees headcount workforce",
    "tax taxes taxation",
    "oz ounce ounces",
    "invest invests invested investing investment investments",
    "lose loses lost losing loss losses",
    "grow grows grew grown growing growth",
    "owe owes owed owing",
]
"""A user's verb and the noun a report's row says it by ("How much did the bank lend?" → "Loans
…", "What was paid in dividends?" → "Dividends paid" or "Dividend payments"): one word to `close`."""
_SAID_AS_STEMS = {stem(w): k for k, group in enumerate(_SAID_AS) for w in group.split()}


def close(a: str, b: str) -> bool:
    """Whether two words are one: the same stem, or stems of four letters or more that share
    their first five, or a verb and its report noun (`_SAID_AS`: "lend", "loans")."""
    sa, sb = stem(a), stem(b)
    if sa == sb or (min(len(sa), len(sb)) >= 4 and sa[:5] == sb[:5]):
        return True
    ka = _SAID_AS_STEMS.get(sa)
    return ka is not None and ka == _SAID_AS_STEMS.get(sb)


SHORT = {
    "capex": "capital expenditure",
    "opex": "operating expenses",
    "eps": "earnings per share",
    "dps": "dividend per share",
    "fcf": "free cash flow",
    "ffo": "funds from operations",
    "npl": "non-performing loans",
    "npls": "non-performing loans",
    "nim": "net interest margin",
    "roe": "return on equity",
    "roa": "return on assets",
    "roce": "return on capital employed",
    "aum": "assets under management",
    "nav": "net asset value",
    "nta": "net tangible assets",
    "cer": "constant exchange rates",
    "par": "portfolio at risk",
}
"""A report's short names, said for their words by a user or a label alike ("How much more did they
spend on capex?" over "Capital expenditure")."""


def content(text: str) -> list[str]:
    """The words of ``text`` that can name a row or a column: no stop word, no number; a short
    name as its words (`SHORT`)."""
    words = [w for w in words_in(text) if w not in STOP and not re.fullmatch(r"[\d.,']+|fy\d+|f\d+", w)]
    if not any(w in SHORT for w in words):
        return words
    out: list[str] = []
    for w in words:
        out += [x for x in SHORT[w].split() if x not in STOP and x not in words] if w in SHORT else [w]
    return out
