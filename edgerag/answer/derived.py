"""A model's number for a question that asks arithmetic (issue #63): kept only where the documents
state it, since a small model does not compute.

Where a question asks a change, a percentage change, a difference, an average, a ratio, a
proportion, or a sum of two or more named things (operation.py), and code could not compute it
(arithmetic.py left it to the model), the model's reply is most often one operand copied from a
table ("What was the change in revenue from 2018 to 2019?" → the 2019 cell), or a number it made
up. Such a reply is not the answer: the check drops it ("The documents do not say.") unless

* a sentence of prose read states the number ("Revenue increased by 12 %", "up $19.7 million"),
  a percentage as a percentage (a reply "13 %" is not stated by "$13"): the text gives the
  result, it need not be computed; or
* a table read gives it in a row or column that says the operation ("% Change", "Increase
  (decrease)", "Average", "Ratio", "per skier day", "% of revenue", "Total"), in a row the question names, in a
  column of no year it does not name: the table computed it. A percentage holds a change, sum
  or average only where the question asks one; one year's cell holds no sum or average of
  several years. On TAT-QA's whole test set a cell so cued held 5 right replies and let 15
  wrong ones through, each of another year's column, another row or the percentage beside an
  amount; held to these, 5 and 9. A proportion is held only where a row or column says a share
  ("% of revenue", "share", "of total"), not a rate in per cent ("Combined ratio (in %): 93.1" is
  no share of premiums: a held-out report's 0.5B reply). A proportion is not held by a column or row of changes ("% CHANGE:
  5.5%" for "the percentage of IPTV subscribers out of the total"), nor by prose that says the
  number as a change ("up 5.5% from 1,675,706 subscribers"): two wrong replies so held.

A choice among things by size over the tables read ("Which segment had the largest change?",
"Who has the highest compensation?") is a comparison code makes (compare.py, arithmetic.py) or
none: the model's pick is dropped (`unranked`) unless a sentence read says it of the thing picked
("Nokia was our largest customer"); a year chosen so, or a pick where no table was read ("Who gets
the highest rate of Attendance Allowance?" over guidance prose), is left to the other steps.

"How much more cash did operations bring in …?" asks an amount: a percentage reply ("20%", the
growth the prose states) is no answer, unless the thing asked is itself a percentage (a margin, a
rate, a share).

A reply with no number to a question that asks the number itself ("What proportion of the
shares … ?" → "Warrants") is dropped too; to one that asks a choice ("In which year …", "… A or
B?") it is left to the other steps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.rows import SECTION_MARK, row_spans, rows_in
from ..text.sentences import split_sentences
from ..types import Unit
from .operation import Operation, operation, years_in
from .periods import column_period
from .table_cells import A_CHANGE, close, content, header_year, question_words
from .text_operands import prose

_COMPUTED = ("change", "percent_change", "difference", "average", "ratio", "proportion", "sum")
_CUES = {
    "change": r"chang|increas|decreas|varian|growth|grew|declin|movement|differen",
    "difference": r"chang|increas|decreas|varian|differen",
    "average": r"average|\bmean\b",
    "ratio": r"ratio|\btimes\b|\bx\b|\bper\b|(?<!\d)/(?!\d)",
    "proportion": r"%\s*of\b|percent(?:age)?\s+of\b|\bshare\b|\bof\s+(?:total|revenue|sales)|\bmix\b|\bmargin\b",
    "sum": r"total|\bsum\b|combined|aggregate",
}
_CUES["percent_change"] = _CUES["change"] + r"|%"
_CHANGE_WORD = re.compile(r"chang|varian|increas|decreas|growth|movement", re.I)
"""A column or row of changes ("% CHANGE"): its percentages are no part of a whole."""
_ASKS_PERCENT = re.compile(r"%|\bpercent|\brate\b", re.I)
"""A question that asks a percentage or a rate: its change may be one."""
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"(?:19|20)\d\d")
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b)", re.I)
_ASKS_NUMBER = re.compile(r"\s*(?:what|how\s+much)\b", re.I)
"""A question that asks a number itself (not "In which year …", "Was A or B …")."""
_CHOICE = re.compile(r"\bwhich\b|\bor\b", re.I)
_ASKS_THING = re.compile(
    r"\s*(?:who|whom|whose|where|why|what\s+(?!(?:is|was|are|were|will|would|did|does|do|has|have|had|percent|percentage|proportion|share|"
    r"fraction|ratio|amount|change|difference|increase|decrease|average|mean|total|sum|rate|value|portion|part|growth|net)\b)[a-z]+)\b",
    re.I,
)
"""A question that asks a person, a place, a reason or a thing ("What steps …", "What documents …"),
never a number computed, whatever word of change or sum it says."""
_COUNT = re.compile(r"\s*how\s+many\b(?!\s+(?:percent|per\s+cent|%))", re.I)
"""A count ("How many items had a % change …?") is read, not computed."""


_MARGIN = re.compile(
    r"\b(?P<kind>gross|operating|ebitdax?|ebitdar|ebit|net|profit|contribution|core\s+operating|adjusted\s+ebitda|pre-?tax)\s+(?:profit\s+)?margin\b",
    re.I,
)
"""A margin asked ("the EBITDA margin"): a proportion of revenue, which the report states or code computes."""


_PER_UNIT = re.compile(r"\bper\s+(?!(?:share|cent|annum|year|month|week|day|quarter|hour)\b)(?:[a-z][\w-]*\s+)?[a-z][\w-]*\b", re.I)
"""An amount per unit of another ("per skier day", "tonnes per hectare", "per borrower"): a ratio of two rows
or columns, unless a row prints it ("Revenue per skier day"); not per share, per cent or per unit of time."""
_A_PRICE = re.compile(r"\b(?:fees?|prices?|charges?|costs?|rates?|tariffs?|premiums?|wages?|salar\w*|rents?|fares?)\s+per\b", re.I)
"""A price per unit ("What is the fee per applicant?"): printed as it is, never computed."""


def asks_computed(asked: str) -> Operation | None:
    """The operation ``asked`` asks whose answer is computed, never read as one value: a change,
    percentage change, difference, average, ratio, proportion, or a sum of two or more named
    things ("the total of A and B", "in 2018 and 2019", "for Q1 and Q2"; not "the total revenue in 2019", nor "the
    total property and equipment"); a
    count ("How many …?") is none."""
    op = operation(asked)
    if op is None and (m := _MARGIN.search(asked)) and not _COUNT.match(asked):  # "What was the group's EBITDA margin in 2024?"
        op = Operation("proportion", (), years_in(asked), 2, m.group())  # a share of revenue, stated or computed, never guessed
    if (
        op is None and (m := _PER_UNIT.search(asked)) and not _COUNT.match(asked) and not _A_PRICE.search(asked)
    ):  # "How much revenue … per skier day?"
        op = Operation("ratio", (), years_in(asked), 2, m.group())  # one amount over another, stated or computed, never a cell copied
    if op is None or _COUNT.match(asked) or op.op not in _COMPUTED:
        return None
    if op.op == "sum" and len(op.parts) < 2 and len(op.periods) < 2:
        return None
    if op.cue and re.search(rf"\w-{re.escape(op.cue)}\b", asked, re.I):
        return None  # "the Weighted-Average Exercise Price": a name's word, not the operation asked
    if _ASKS_THING.match(asked):
        return None  # "What steps can I take to have the decision changed?": a thing asked, no number
    return op


def names_operands(op: Operation | None) -> bool:
    """Whether an operation asked names its operands: two periods ("in 2019 and 2018") or two
    things ("of A and B"). "the usual average snowfall in the city where …" names none: the
    average is a value some passage states, and a chain question may still be read hop by hop."""
    return op is not None and (len(op.periods) >= 2 or len(op.parts) >= 2)


def asks_number_computed(asked: str) -> bool:
    """Whether ``asked`` asks a computed number itself ("What proportion of A, B and C are D?"),
    not a choice between things ("In which year was the average higher, 2018 or 2019?"): its
    names are operands, never options to choose among."""
    return asks_computed(asked) is not None and bool(_ASKS_NUMBER.match(asked)) and not _CHOICE.search(asked)


def _values(text: str, percent: bool = False) -> set[float]:
    """The sizes of the numbers ``text`` writes, years left out; ``percent``: percentages only."""
    return {
        abs(float(m.group().replace(",", "")))
        for m in _NUMBER.finditer(text)
        if not _YEAR.fullmatch(m.group()) and (not percent or _PERCENT.match(text, m.end()))
    }


def figures(text: str) -> set[float]:
    """The sizes of the numbers ``text`` writes, years left out ("-1,204 thousand" → {1204.0})."""
    return _values(text.replace("\u2212", "-"))


def reply_number(short: str) -> tuple[float, bool] | None:
    """The first number of a reply that is not a bare year, as a size, and whether it is a percentage."""
    short = short.replace("\u2212", "-")
    for m in _NUMBER.finditer(short):
        if not _YEAR.fullmatch(m.group()):
            return abs(float(m.group().replace(",", ""))), bool(_PERCENT.match(short, m.end()))
    return None


def _in_cue_cell(value: float, op: Operation, text: str, asked: str) -> bool:
    """Whether a table row of ``text`` gives ``value`` as the result of ``op`` for what ``asked``
    asks (the module doc): a cell whose header or row label says the operation (a percentage
    cell says a proportion), in a row or column the question names ("Customs Duty") or whose
    label says the operation; not a cell of a year the question does not name ("2018 and 2017"
    for "from 2017 to 2019"), nor one year's cell for a sum or average of several, nor a
    percentage for a change, sum or average of amounts ("-22%" for "the difference in
    restructuring expenses")."""
    cue = re.compile(_CUES[op.op], re.I)
    words = question_words(asked)
    years = set(years_in(asked))
    asks_percent = bool(_ASKS_PERCENT.search(asked))
    rows = rows_in(text)
    whole = {  # a column of shares: its total row is 100 ("Total: 100.0" under "2019 · %")
        h
        for r in rows
        if re.match(r"\s*total\b", next(iter(r.cells.values()), ""), re.I)
        for h, c in r.cells.items()
        if c.strip().rstrip("%") in ("100", "100.0")
    }
    for row in rows:
        label = next(iter(row.cells.values()), "")
        own = label.rpartition(SECTION_MARK)[2]
        named = any(close(w, q) for w in content(own) for q in words)
        for header, cell in row.cells.items():
            if value not in _values(cell):
                continue
            shares = op.op == "proportion" and ("%" in cell or header in whole)
            if not (cue.search(header) or cue.search(label) or shares):
                continue
            if op.op == "proportion" and (_CHANGE_WORD.search(header) or _CHANGE_WORD.search(own)) and not _CHANGE_WORD.search(asked):
                continue  # "% CHANGE: 5.5%" is the row's growth, not its share of the total asked
            if not (named or cue.search(own) or any(close(w, q) for w in content(header) for q in words)):
                continue  # "% Revenues by Business › Hardware" for the EMEA and Americas regions' revenue
            if (kind := _MARGIN.search(asked)) and not re.search(rf"\b{re.escape(kind['kind'].split()[-1][:4])}", f"{own} {header}", re.I):
                continue  # "EBITDA margin: 32.4%" for "the gross margin": another margin
            said = set(years_in(header))
            if years and said - years:
                continue
            if op.op in ("sum", "average") and max(len(years), len(op.periods)) >= 2 and len(said | _parts_named(header)) == 1:
                continue
            if "%" in cell and op.op in ("change", "difference", "sum", "average") and not asks_percent and not _of_percents(row, header):
                continue
            return True
    return False


_MOVED = re.compile(
    r"\b(?:(?<!made\s)(?<!make\s)(?<!makes\s)up|down|rose|fell|grew|improv\w*|declin\w*|increas\w*|decreas\w*|chang\w*)\s+(?:by\s+)?$", re.I
)
"""The words before a number that say it is a change ("up 5.5%", "improved by 4.3%")."""


_MOVED_EARLIER = re.compile(r"\b(?:rose|fell|grew|increas\w*|decreas\w*|declin\w*|improv\w*|up|down)\s+by\b", re.I)


def _in_prose(value: float, percent: bool, op: Operation, asked: str, text: str) -> bool:
    """Whether the prose of ``text`` states ``value``; for a proportion, not as a change ("up 5.5%
    from 1,675,706 subscribers" holds no share of a total), unless a change is asked."""
    said = prose(text)
    if value not in _values(said, percent):
        return False
    if op.op != "proportion" or _CHANGE_WORD.search(asked):
        return True
    for m in _NUMBER.finditer(said):
        if abs(float(m.group().replace(",", ""))) == value and (not percent or _PERCENT.match(said, m.end())):
            before = said[max(0, m.start() - 24) : m.start()]
            elided = re.search(r"\bby\s+$", before) and _MOVED_EARLIER.search(said[max(0, m.start() - 120) : m.start()])
            if not _MOVED.search(before) and not elided:  # "revenue increased by 10.5% … and EBITDA by 12.2%": a change too
                return True
    return False


def _one_row(op: Operation, units: Sequence[Unit]) -> bool:
    """Whether the two parts a sum names are one row's label ("the combined value of trade and
    other receivables" over "Trade and other receivables"): one thing, no sum."""
    if not op.joined:
        return False
    words = set(content(op.joined))
    return any(words <= set(content(next(iter(r.cells.values()), "").rpartition(SECTION_MARK)[2])) for u in units for r in rows_in(u.text))


def _parts_named(header: str) -> set[str]:
    """The quarters, halves or months a column's header names ("Q1", "First half")."""
    period = column_period(header, None)
    return {f"{period.part}{period.index}"} if period is not None and period.part else set()


def _of_percents(row, header: str) -> bool:
    """Whether the row's years are percentages ("Gross margin: 41.2%; 40.0%"): its change is one
    (not a "% Change" cell beside amounts)."""
    years = [v for h, v in list(row.cells.items())[1:] if h != header and header_year(h) is not None and not A_CHANGE.search(h)]
    return bool(years) and all("%" in v for v in years)


_HOW_MUCH_MORE = re.compile(r"how\s+much\s+(?:more|less|higher|lower|bigger|smaller|larger)\b", re.I)
_OF_PERCENTS = re.compile(r"%|\bper\s*cent|\bpercent|\brate\b|\bmargin\b|\bratio\b|\bshare\b|\byield\b|\breturn\b", re.I)
"""A thing asked that is itself a percentage ("How much higher was the gross margin …?")."""


def underived(short: str, asked: str, units: Sequence[Unit]) -> str | None:
    """Why ``short``, the model's reply to ``asked``, is no answer (the module doc); None when
    it may stand (the question asks nothing computed, the reply holds no number, or the
    documents state it)."""
    op = asks_computed(asked)
    if op is None or _one_row(op, units):
        return None
    number = reply_number(short)
    if number is None:  # "What proportion of the shares … are the 2001 plan's?" → "Warrants": no number at all
        if asks_number_computed(asked):
            return f"the question asks a {op.op.replace('_', ' ')}; the model's '{short}' holds no number"
        return None
    value, percent = number  # "13 %" is not stated by "$13"
    if percent and op.op == "difference" and _HOW_MUCH_MORE.match(op.cue) and not _OF_PERCENTS.search(asked):
        return f"the question asks how much more, an amount; the model's '{short}' is a percentage"
    if any(_in_prose(value, percent, op, asked, u.text) or _in_cue_cell(value, op, u.text, asked) for u in units):
        return None
    return f"the question asks a {op.op.replace('_', ' ')} that code could not compute from the cells read; the model's '{short}' is not stated as one"


_RANKED = re.compile(r"\b(?:most|largest|highest|greatest|biggest|lowest|smallest|least|fewest|oldest|youngest)\b", re.I)
_WHICH_THING = re.compile(r"\s*(?:which|who)\b(?!\s+(?:fiscal\s+)?(?:years?|quarters?|months?|periods?|dates?)\b)", re.I)
"""A choice among things ("Which segment …", "Who …"), not among periods (which_year's)."""


def unranked(short: str, asked: str, units: Sequence[Unit]) -> str | None:
    """Why ``short``, the model's choice for ``asked``, a question of which thing is largest
    or smallest over the tables read, is no answer (the module doc); None when ``asked`` is no
    such question, the reply is a year, no table was read, or a sentence read says the
    superlative of ``short``."""
    ranked = _RANKED.search(asked)
    if ranked is None or not _WHICH_THING.match(asked) or not short.strip() or _YEAR.fullmatch(short.strip()):
        return None
    if not any(row_spans(u.text) for u in units):
        return None  # no table read: the documents' prose ranks it, or no one does ("the highest rate of Attendance Allowance")
    said = re.compile(rf"{re.escape(short.strip())}.*\b{ranked.group()}\b|\b{ranked.group()}\b.*{re.escape(short.strip())}", re.I | re.S)
    if any(said.search(s) for u in units for s in split_sentences(prose(u.text))):
        return None
    return f"the question asks which is {ranked.group().lower()}: code compares the cells read and could not; the model's '{short}' is not compared"
