"""A question that names a table's row, decided in code from its row lines (text/rows.py), as
text/tables.py decides a column's superlative (issue #56, items 2, 4 and 5):

    "What does chlorophyll a analysis cost for an internal project?"  → the row's Internal price
    "Who funds the Eel Passage project?"                              → the row's Funder
    "Who approves a trip costing £1,800?"        → the row whose range ("over £500 and up to
                                                   £2,500") holds £1,800: its Approved by
    "Is Peat Pipe Flow funded by the Leverhulme Trust?"  → no: its Funder is another
    "Are both Tarn Carbon and Citizen Streams based at Kendal?"  → each row's Site, side by side
    "Do RIVERSENSE and Peat Pipe Flow have the same funder?"     → the two rows' Funder, equal?

`row_lookup` reads:

1. **The row**, named by the question: a cell of text whose words (its parenthesis aside, or
   with it) the question holds, at least two thirds of them, or a number the question gives
   beside its header's word ("the station that *opened* in *2011*") ("trace metals by ICP-MS" names
   "Trace metals by ICP-MS (24 elements)", "the Grey Heron survey boat with skipper" names
   "Survey boat with skipper (Grey Heron)"), the row naming most words winning, none tied; or a
   cell that is a range of amounts ("over £500 and up to £2,500") holding the amount the
   question names.
2. **The column**, by the header words the question uses (a word sharing its first four
   letters with the header's: "funds" → Funder), else the words of the row's own cell ("written
   quotations" → "three written quotations"), the kind asked breaking a tie ("who" → a lead /
   owner / approver column, "where" → a site / room / laboratory); "Which …?" asked by another
   column gets the row's name. A tie decides nothing.
3. **A year** the question names must be the table's, where its caption names one ("in the
   2026-27 price list" is not the 2025 list's), and its passage's at least (an org chart
   updated in 2026 says nothing of "the end of 2024").

A yes/no question is read the same way: the rows named, and a value the question names from
another row's cell of the same column ("the Leverhulme Trust", "Kendal"), or "the same
<header>". Anything less sure gives None, and the model reads the rows as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .cells import date, number
from .table_groups import Table, tables_in
from .tables import CUES, PEOPLE, PLACES, STOP, VERB_STEMS, TableDecision, cue_in, rows_named, stem, words_in

_PAREN = re.compile(r"\s*\([^()]*\)")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_YES_NO = ("is", "are", "was", "were", "does", "do", "did", "has", "have", "had", "can")
_AMOUNT = r"[£$€]?\s?\d[\d,]*(?:\.\d+)?\s?(?:k|m|million|thousand)?"
_RANGE = re.compile(
    rf"^(?:(?P<lo_word>over|more than|above|from|at least|exceeding)\s+(?P<lo>{_AMOUNT}))?"
    rf"\s*(?:and|,|to|-|–)?\s*(?:(?P<hi_word>up to|under|less than|below|not more than|to|-|–)\s*(?P<hi>{_AMOUNT}))?"
    rf"\s*(?P<more>or more|and over|and above|\+)?$",
    re.I,
)
_ASKED_AMOUNT = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|million|thousand)\b)?")
MIN_NAMED = 2 / 3
"""The share of a cell's content words the question must hold to name its row."""


_ASKING = frozenset(
    "many much long old does do did can could may must should would will need needed get gets both either same from into about per".split()
)
_RELATIVE = frozenset("whose that which who whom where".split())


def _content(text: str) -> list[str]:
    """The words of ``text`` that say something: no stop word, no bare number."""
    return [w for w in words_in(text) if w not in STOP and w not in _ASKING and not w.replace(",", "").replace(".", "").isdigit()]


def _wants(qwords: list[str]) -> str:
    """The value a question wants, as a cell holds it: ``number`` ("how many / much"), ``date`` ("when"), ``name`` ("who") or ""."""
    if qwords[:2] in (["how", "many"], ["how", "much"]):
        return "number"
    if qwords[:1] == ["when"]:
        return "date"
    return "name" if qwords[:1] in (["who"], ["whom"]) else ""


def _fits(cell: str, want: str) -> bool:
    if want == "number":
        if re.fullmatch(r"\s*(?:19|20)\d{2}\s*", cell):
            return False  # a year is no count
        return number(cell) is not None or bool(re.search(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", cell, re.I))
    if want == "date":
        return date(cell) is not None
    if want == "name":
        return number(cell) is None and date(cell) is None
    return True


def _close(a: str, b: str) -> bool:
    """Two words alike: the same stem, or sharing their first four letters when both are that long ("funds", "funder")."""
    sa, sb = sorted((stem(a), stem(b)), key=len)
    if sa == sb:
        return True
    return (len(sa) >= 4 and (sb.startswith(sa) or sa[:5] == sb[:5])) or (len(sa) == 3 and sb.startswith(sa) and len(sb) <= 5)


def _holds_words(words: list[str], question: list[str]) -> int:
    return sum(any(_close(w, q) for q in question) for w in words)


def _named_rows(table: Table, qwords: list[str], several: bool = False) -> tuple[list[int], str]:
    """The row the question names by a cell's words (item 1), and that cell's header; ([], "")
    when none or tied. With ``several``, every row named so, by one column."""
    scored: dict[int, tuple[float, str]] = {}
    for i, row in enumerate(table.rows):
        for h, v in row.cells.items():
            if not _content(v) and v.strip() in qwords and _holds_words(_content(h), qwords):
                scored.setdefault(i, (1.0, h))  # a value the question gives with its header: "the station that *opened* in *2011*"
                continue
            for text in (v, _PAREN.sub("", v), v.split(":")[0]):
                words = _content(text)
                if not words:
                    continue
                held = _holds_words(words, qwords)
                if held >= 1 and held / len(words) >= MIN_NAMED and held > scored.get(i, (0, ""))[0]:
                    scored[i] = (held + held / len(words) / 10, h)
    if not scored:
        return [], ""
    if several:
        column = Counter(h for _, h in scored.values()).most_common(1)[0][0]
        return sorted(i for i, (_, h) in scored.items() if h == column), column
    ranked = sorted(scored.items(), key=lambda kv: kv[1][0], reverse=True)
    if len(ranked) > 1 and ranked[1][1][0] == ranked[0][1][0]:
        return [], ""
    return [ranked[0][0]], ranked[0][1][1]


def _amount(text: str) -> float | None:
    n = number(text)
    return n.value if n is not None else None


def _in_range(cell: str, value: float) -> bool | None:
    """Whether ``value`` lies in the range ``cell`` writes ("over £500 and up to £2,500"); None when it writes no range."""
    m = _RANGE.match(" ".join(cell.split()))  # one space a gap: the pattern's optional spaces backtrack on long runs
    if m is None or not (m["lo_word"] or m["hi_word"] or m["more"]):
        return None
    lo = _amount(m["lo"]) if m["lo"] else None
    hi = _amount(m["hi"]) if m["hi"] else None
    if lo is None and hi is None:
        return None
    at_least = (m["lo_word"] or "").lower() in ("from", "at least")
    if lo is not None and (value < lo or (value == lo and not at_least)):
        return False
    under = (m["hi_word"] or "").lower() in ("under", "less than", "below")
    return not (hi is not None and (value > hi or (value == hi and under)))


def _range_row(table: Table, question: str) -> tuple[list[int], str]:
    """The row whose range cell holds the amount the question names (item 1), and the range's header."""
    m = _ASKED_AMOUNT.search(question)
    value = _amount(m.group()) if m else None
    if value is None:
        return [], ""
    for h in table.headers:
        held = [i for i, r in enumerate(table.rows) if _in_range(r.cells.get(h, ""), value)]
        ranges = [i for i, r in enumerate(table.rows) if _in_range(r.cells.get(h, ""), value) is not None]
        if len(ranges) >= 2 and len(ranges) >= len(table.rows) - 1 and len(held) == 1:
            return held, h
    return [], ""


def _column(table: Table, qwords: list[str], row: int, skip: set[str]) -> str:
    """The header whose value answers the question (item 2): the question's words, the kind it
    asks breaking a tie; "" when none or tied."""
    naming = [_content(table.rows[row].cells.get(h, "")) for h in skip]
    asked = {w for w in _content(" ".join(qwords)) if not any(_close(w, x) for ws in naming for x in ws)}
    want = _wants(qwords)
    scores = []
    for n, h in enumerate(table.headers):
        if h in skip or not _fits(table.rows[row].cells.get(h, ""), want):
            continue
        header = _holds_words(_content(h), sorted(asked))
        cell = table.rows[row].cells.get(h, "")
        in_cell = _holds_words(_content(_PAREN.sub("", cell)), sorted(asked)) if number(cell) is None else 0
        kind = 0
        hw = {stem(w) for w in words_in(h)}
        if {"who", "whom"} & set(qwords) and hw & {stem(x) for x in PEOPLE.split()}:
            kind = 1
        elif "where" in qwords and hw & {stem(x) for x in PLACES.split()}:
            kind = 1
        if header or in_cell >= 2 or (in_cell and kind):  # a cell's words alone: two of them ("three *written quotations*")
            scores.append((2 * header + in_cell + kind, -n, h))
    if not scores and want == "number":  # "How much was X's grant?": the row's one amount, whatever its header
        amounts = [h for h in table.headers if h not in skip and _is_amount(table.rows[row].cells.get(h, ""))]
        return amounts[0] if len(amounts) == 1 else ""
    scores.sort(reverse=True)
    if not scores or (len(scores) > 1 and scores[1][0] == scores[0][0]):
        return ""
    return scores[0][2]


def _named_column(table: Table, qwords: list[str], by: str) -> str:
    """The row's name (its first column) for "Which <thing> …?" asked by another column ("Which
    field station opened in 2011?" → the Site); "" otherwise."""
    first = table.headers[0]
    return first if qwords[:1] == ["which"] and by != first else ""


def _is_amount(cell: str) -> bool:
    """A cell holding a number that is no year nor a span of years ("£165,000", "14", not "2021–2023")."""
    return number(cell) is not None and not re.fullmatch(r"\s*(?:(?:19|20)\d{2}[-–—to\s]*+)+", cell)  # possessive: linear


def _other_year(table: Table, question: str, passage: str) -> bool:
    """Whether the question names a year the table's caption does not, where the caption names
    one, or that its passage never names (an undated org chart for "at the end of 2024"; item 3)."""
    asked = set(_YEAR.findall(question))
    captions = {y for r in table.rows for y in _YEAR.findall(r.caption)}
    return bool(asked and ((captions and not asked & captions) or not asked <= set(_YEAR.findall(passage))))


_TITLES = frozenset("dr prof mr mrs ms miss dame sir".split())
_LIGHT = frozenset("time based located situated kept held done carried take takes taken required".split())
"""Words a question may use that neither a table nor its passage need hold ("turnaround *time*", "*based* at")."""
_ANOTHER_TIME = frozenset("before after previous previously former formerly until originally".split())


def speaks_of(question: str, table_text: str, passage: str) -> bool:
    """Whether a table (``table_text``: its row lines, caption and headers in each) speaks of
    everything the question does, its superlatives aside (each word alike to one of the
    table's): one word more its passage holds ("for an
    internal *project*"), names its passage holds ("Priya Raman's grant" of her CV's table), and
    light words (`_LIGHT`), but not "the new *boathouse* at Hexham" of
    the sites table, nor a time other than the table's ("head *before* X")."""
    asked = [w for w in _content(question) if w not in CUES]
    if _ANOTHER_TIME & set(asked):
        return False
    in_table = set(words_in(table_text))
    in_passage = set(words_in(passage))

    def said(w: str, held: set[str]) -> bool:
        return any(_close(w, h) for h in held) or bool(VERB_STEMS.get(stem(w), set()) & {stem(h) for h in held})

    beyond = [w for w in asked if not said(w, in_table) and w not in _LIGHT]
    named = {w for w in words_in(" ".join(re.findall(r"\b[A-Z][\w'’-]*", question[1:])))}  # the question's names
    beyond = [w for w in beyond if not (w in named and said(w, in_passage))]  # "Priya Raman's grant": her CV's table
    return not beyond or (len(beyond) == 1 and said(beyond[0], in_passage))


def _yes_no(question: str, qwords: list[str], table: Table) -> TableDecision | None:
    """A yes/no question over the rows it names (the module doc)."""
    names = rows_named(table, question, set())
    first = table.headers[0]
    rows, by = sorted(names.get(first, set())), first
    if len(rows) < 2:  # the rows named by most of a cell's words ("RIVERSENSE" for "RIVERSENSE: low-cost …")
        more, column = _named_rows(table, qwords, several=True)
        if not rows or (len(more) > len(rows) and column == first):
            rows, by = more, column
        if not rows:
            return None
    both = len(rows) >= 2
    for h, hit in names.items():  # a value of another column the question names: "based at Kendal"
        if h in (first, by):
            continue
        value = next(table.rows[i].cells[h] for i in hit)
        if sum(r.cells.get(h, "").lower() == value.lower() for r in table.rows) == len(table.rows):
            continue  # a value every row has says nothing
        cells = [table.rows[i].cells.get(h, "") for i in rows]
        if not all(cells):
            return None
        agree = all(c.lower() == value.lower() for c in cells)
        shown = "; ".join(f"{table.rows[i].cells.get(first, '?')}: {h} {c}" for i, c in zip(rows, cells, strict=True))
        return _decision("yes" if agree else "no", table, rows, h, f"{shown} (asked: {value})")
    if not both:  # "Is Peat Pipe Flow funded by the Leverhulme Trust?": the row's Funder, said or not
        h = _column(table, qwords, rows[0], {by, first})
        cell = table.rows[rows[0]].cells.get(h, "") if h else ""
        words = set(_content(cell)) - _TITLES
        if words and number(cell) is None:
            said = words & set(qwords)
            if said == words or not said:
                name = table.rows[rows[0]].cells.get(by, "?")
                return _decision("yes" if said else "no", table, rows, h, f"{name}: {h} {cell}")
        return None
    if "same" in qwords:
        h = _column(table, qwords, rows[0], {first})
        cells = [table.rows[i].cells.get(h, "") for i in rows] if h else []
        if not cells or not all(cells):
            return None
        shown = "; ".join(f"{table.rows[i].cells.get(first, '?')}: {c}" for i, c in zip(rows, cells, strict=True))
        return _decision("yes" if len({c.lower() for c in cells}) == 1 else "no", table, rows, h, f"{h}: {shown}")
    return None


def _decision(answer: str, table: Table, rows: list[int], header: str, why: str) -> TableDecision:
    return TableDecision(answer, tuple(table.rows[i].text for i in rows), tuple(table.keys[i] for i in rows), header, header, why)


def row_lookup(question: str, units_texts: Sequence[tuple[str, str]]) -> TableDecision | None:
    """A question naming a row of a table in ``units_texts`` (``(key, text)`` pairs), decided in
    code (the module doc); None when no table answers it surely."""
    qwords = words_in(question)
    if not qwords or (cue_in(qwords) is not None and qwords[0] not in _YES_NO):
        return None  # a superlative or comparison: text/tables.py
    asking = next((i for i, w in enumerate(qwords) if w in _RELATIVE or w in ("what", "how", "when")), 0)
    through = bool(_RELATIVE & set(qwords[asking + 1 :]))  # asked through another thing: only a range names its row
    texts = dict(units_texts)
    found, by_range = [], []
    for table in tables_in(units_texts):
        if _other_year(table, question, " ".join(texts.get(k, "") for k in set(table.keys))):
            continue
        rows, by = _range_row(table, question)
        if rows:  # a rule with thresholds: the table whose headers the question's words are most alike
            header = _column(table, qwords, rows[0], {by})
            value = table.rows[rows[0]].cells.get(header, "") if header else ""
            uses = _holds_words(_content(question), sorted({w for h in table.headers for w in _content(h)}))
            if value and uses:
                why = f"{by}: {table.rows[rows[0]].cells[by]} holds {_ASKED_AMOUNT.search(question).group()} → {header}: {value}"
                by_range.append((uses, _decision(value, table, rows, header, why)))
            continue
        passage = " ".join(texts.get(k, "") for k in set(table.keys))
        if through or not speaks_of(question, " ".join(r.text for r in table.rows), passage):
            continue
        if qwords[0] in _YES_NO:
            decided = _yes_no(question, qwords, table)
            if decided is not None:
                found.append(decided)
            continue
        rows, by = _named_rows(table, qwords)
        if len(rows) != 1:
            continue
        header = _column(table, qwords, rows[0], {by}) or _named_column(table, qwords, by)
        value = table.rows[rows[0]].cells.get(header, "") if header else ""
        said = set(_content(value)) - _TITLES
        if value and not (said and said <= set(qwords)):  # not a name the question already says
            name = table.rows[rows[0]].cells.get(by, "?")
            found.append(_decision(value, table, rows, header, f"{by}: {name} → {header}: {value}"))
    if by_range:
        by_range.sort(key=lambda x: -x[0])
        return by_range[0][1] if len(by_range) == 1 or by_range[1][0] < by_range[0][0] else None
    return found[0] if len(found) == 1 else None
