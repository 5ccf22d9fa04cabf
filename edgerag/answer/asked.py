"""Whether a sentence an answer stands on says what was asked, not only something of the same
subject (issue #56, item 4; the check's ``asked`` step, check.py): binding.py finds where an
answer stands and whether that is about the question's subject; this module asks whether it
says the thing asked.

* `says_what_was_asked`: a year the question names (or its range, "the 2026-27 price list") is
  read, and a year that dates the fact asked is the sentence's or its passage's (a figure beside a
  prior year's bracket, "(2018: EUR 367 million)", is the next year's, `own_year`); a date answers
  only where the sentence says the event asked, a life in parentheses, or a thing's year.
* `role_bound`: a person asked by a role ("Who is the Director of X?") stands where the role is
  named, in the answer's own item of a list of people ("A (Chair), B, C (Director)": C).
* `unnamed_row`: a figure read off a table's row that names nothing the question asks: not its
  label, section, caption, the figure's column nor the passage's heading ("-1,204 thousand" for "Free cash flow in
  fiscal 2019?" off "Interest and other income"; TAT-QA's whole set: 4 such replies, all wrong).
* `another_part`: a figure read off a table's row that is the whole's where the question names a
  part another table breaks the figures down by ("What EBITDA did the Leixanha terminal make?" off
  the group's "EBITDA", beside a table of each terminal's volumes).
* `unplanned`: a figure asked as planned ("What net profit did the company target?") read off a
  column of what happened.
* `unread_qualifier`: a word the question puts before a noun the answer's sentence speaks of
  ("the violet laser") that nothing read holds: a figure asked of a kind of thing the documents
  do not name (figures only: "a psychology professor at a university in what city?" is a
  description the passage need not repeat). A word that says the whole entity's figure
  ("consolidated net revenue", `WHOLE_ENTITY`) is no such qualifier: a report's figures are.
"""

from __future__ import annotations

import re

from ..text.keywords import keywords
from ..text.rows import SECTION_MARK, Row, parse_row
from ..types import Unit
from .binding import GENERIC, QUESTION_WORDS, TITLES, Standing, before, heads, holds, lemma, names_in, question_names, stems, telling
from .cases import band
from .derived import figures
from .kinds import NUMBER_WORDS, ROLE_WORDS, asks_how_long
from .operation import years_in
from .periods import column_period, named_period, periods_asked, written_years
from .table_cells import PLANNED, close, content, header_year, question_words
from .table_words import OWN_ENTITY
from .year_amounts import PART_OF_YEAR, amounts_in

_LIFESPAN = re.compile(r"\(\s*(?:born|b\.|died|d\.)?[^()]*\d{3,4}[^()]*\)")
_ATTRIBUTE_YEAR = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+(?:\w+\s+)?\d{4}\b")
_YEAR = re.compile(r"\b(?:1\d{3}|20\d{2})\b")
_WHEN_OF_FACT = re.compile(r"(?<!born )(?<!ed )\b(?:in|during|for|by|of|at the end of|by the end of|as of)\s+(?:the\s+)?YEAR\b", re.I)
"""A year that dates the fact asked ("income in 2024", "at the end of 2023"), not one that tells
a thing apart ("the driver born in 1990", "released in 1977")."""


_ASKED_ROLE = re.compile(
    r"^\s*who\s+(?:is|was|are|were)\s+(?:the|a|an|its|their)\s+(?:[\w-]+\s+){0,2}?(?P<role>[A-Za-z-]+)(?=\s+(?:of|for|at)\b|\s*\??\s*$)",
    re.I,
)
"""The role a person question asks by, where the role holder is the answer ("Who is the Director of X?"), not where the
role names the subject ("Who does the Head of IT report to?")."""


def role_bound(question: str, answer: str, standing: Standing) -> bool:
    """Whether ``standing`` names the role a person question asks by ("Who is *the Director* of
    X?") for ``answer``: the role's word is in the sentence, the one before it or its headings
    (not a CV's "Head of Catchment Science, X"), and, in a sentence listing several people
    ("Present: A (Chair), B, C (Director)"), in the answer's own item, not another's. True where
    the question asks by no role noun."""
    roles = {lemma(m["role"]) for m in [_ASKED_ROLE.match(question)] if m and m["role"].lower() in ROLE_WORDS}
    if not roles:
        return True
    unit, sentence = standing.unit, standing.sentence
    if not roles & stems(keywords(f"{heads(unit)} {before(sentence, unit.text)} {sentence}")):
        return False
    items = [it for it in _PEOPLE_SPLIT.split(sentence) if it.strip()]
    naming = [it for it in items if holds(it, answer)]
    with_role = [it for it in items if roles & stems(keywords(it))]
    return len(items) < 2 or not naming or not with_role or any(it in with_role for it in naming)


_PEOPLE_SPLIT = re.compile(r";|,(?!\d{3}\b)")
"""Where a list of people splits into its items ("A (Chair), B, C (Director)")."""


_YEAR_RANGE = re.compile(r"\b((?:19|20)\d{2})\s*[-–—/]\s*((?:19|20)?\d{2})\b")
"""A financial or academic year ("2025-26", "2025–2026", "2025/26")."""


def _says_range(first: str, last: str, text: str) -> bool:
    """Whether ``text`` names the years ``first``–``last``: as a range, written any way above, or
    both years ("from 1 April 2025 to 31 March 2026" is the 2025-26 price list)."""
    end = last[-2:]
    if re.search(rf"\b{first}\s*(?:[-–—/]|to)\s*(?:{first[:2]})?{end}\b", text):
        return True
    return {first, f"{first[:2]}{end}"} <= set(_YEAR.findall(text))


def _verb_stem(word: str) -> str:
    return lemma(word)[:4]


_PRIOR_BRACKET = re.compile(r"\(\s*(?:FY\s?)?(?P<y>(?:19|20)\d{2})\s*:[^()]*\)")
"""A prior year's figure in brackets, "(2018: EUR 367 million)"."""


def own_year(sentence: str, short: str) -> str | None:
    """The year a report's sentence gives ``short`` by its prior-year brackets: "The order book at
    year end amounted to EUR 412 million (2018: EUR 367 million)" says 412 of the year after the
    bracket's, the report's own; None where the sentence has no such bracket or ``short``'s
    number is only inside one."""
    if PART_OF_YEAR.search(sentence):
        return None  # "Revenue for the first half was EUR 210 million (2018: …)": a half's figure, no year's
    years = [int(m["y"]) for m in _PRIOR_BRACKET.finditer(sentence)]
    wanted = {abs(a.value) for _, a, _ in amounts_in(short)}
    outside = {abs(a.value) for _, a, _ in amounts_in(_PRIOR_BRACKET.sub(" ", sentence))}
    return str(max(years) + 1) if years and wanted and wanted <= outside else None


def says_what_was_asked(standing: Standing, question: str, kind: str, units: list[Unit], short: str = "") -> bool:
    """Whether the sentence says the thing asked, not only something of the same subject: a
    year (or a year's range, "2026-27") the question names is in what was read, and a year that dates the fact asked ("in
    2022") is the sentence's, or, where the sentence names none, its passage's ("How many staff
    in 2022?" is not answered by 2023's figure, nor by an undated one); a date or year answers only where the sentence says what
    happened ("joined", "founded") as the question does (by the question's words that tell the
    passages read apart: not "institute" in an institute's documents), or gives a life in
    parentheses or a thing's year as what it is ("… is a 1997 album"); a time "How long …?" asks
    answers only where the sentence says what takes it (an appeal's "several months", not a large
    application's "13 weeks" on the same planning page)."""
    unit, sentence = standing.unit, standing.sentence
    read = " ".join(f"{u.title} {u.text}" for u in units)
    read_years = written_years(read)  # "4Q23" is 2023's
    said_years = set(_YEAR.findall(sentence)) | written_years(sentence) | ({y} if short and (y := own_year(sentence, short)) else set())
    around = f"{heads(unit)} {unit.text}"
    plain = re.sub(r"\([^()]*\)", "", question)  # not a name's "(Died 1304)"
    if any(not _says_range(first, last, read) for first, last in _YEAR_RANGE.findall(plain)):
        return False  # "the 2026-27 price list" where only 2025-26's was read
    for year in _YEAR.findall(plain):
        if year not in read and year not in said_years and year not in read_years:
            return False
        if not _WHEN_OF_FACT.search(plain.replace(year, "YEAR", 1)):
            continue  # a year that tells a thing apart ("the driver born in 1990", "Suicide's 1977 album")
        if (said_years and year not in said_years and year not in heads(unit)) or (not said_years and year not in around):
            return False  # 2025's figure, or a figure of no year, for "How many staff in 2023?"
    if kind not in ("date", "year") and not asks_how_long(question):
        return True
    names = " ".join(n for n in question_names(question) if len(n.split()) > 1).lower()  # "PhD" is what happened, not who
    words = {
        w
        for w in keywords(question)
        if w not in GENERIC and w not in QUESTION_WORDS and w not in names and w not in TITLES and not w.isdigit()
    }
    asked = {_verb_stem(w) for w in telling(words, units)}
    if not asked or len(asked) > 3:  # a long question's words are its bridges' too, not one event's
        return True
    if _LIFESPAN.search(sentence) or _ATTRIBUTE_YEAR.search(sentence):
        return True
    said = {_verb_stem(w) for w in keywords(f"{sentence} {unit.title}")}
    return bool(asked & said)


_PAIR_WORDS = re.compile(r"(?<![\w'’-])(?=([a-z][a-z-]+)\s+([a-z][a-z-]+)(?![\w'’-]))")
"""Each two words in a row, overlapping ("budgeted catering income": both pairs). A pair whose
second word qualifies a noun after it is tried too ("consolidated net revenue"): leaving those
out let two wrong TAT-QA answers through ("the three highest carrying value", "each listed
period end") for a case measured nowhere."""


WHOLE_ENTITY = frozenset("consolidated overall entire whole aggregate aggregated combined group-wide companywide company-wide".split())
"""Words that say a figure is the whole entity's ("the consolidated net revenue"): a report's
figures are, unless named otherwise, so such a word asks of no other kind of thing and is no
qualifier to be read."""


def unread_qualifier(question: str, sentence: str, units: list[Unit]) -> str | None:
    """The question's words "q n" where ``sentence`` speaks of the noun n and nothing read holds
    the word q before it: "the flow cytometer's *violet* laser" over "Lasers: 488 nm (blue, 50 mW)
    and 640 nm (red, 40 mW)" asks of a laser the documents do not name. A word of a name
    (capitalised) is the ``about`` step's; a question or kind word, or a number said in words
    ("*seven* years of service": the user's count), or a word of the whole entity's figure
    ("*consolidated* net revenue", `WHOLE_ENTITY`), is no qualifier."""
    stops = set(keywords(question))
    said = stems(keywords(sentence))
    read = " ".join(f"{u.title} {u.text}" for u in units).lower()
    for m in _PAIR_WORDS.finditer(question):
        q, n = m.group(1), m.group(2)
        if q not in stops or q in GENERIC or q in QUESTION_WORDS or q in NUMBER_WORDS or q in WHOLE_ENTITY or lemma(n) not in said:
            continue
        if re.search(rf"(?<![a-z]){re.escape(lemma(q)[:5])}", read) is None:  # "violet", "violets": not once
            return f"{q} {n}"
    return None


_SAME_THING = (
    ("revenue", "revenues", "sales", "turnover"),
    ("profit", "income", "earnings"),
    ("cost", "costs", "expense", "expenses", "expenditure", "spending"),
    ("debt", "borrowings", "loans"),
    ("staff", "employees", "headcount", "people", "workforce"),
)
"""A report's words for one thing: a row of "Sales" is named by a question of revenue or turnover."""


_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


_NO_ROW = OWN_ENTITY | frozenset("end ended ending week weeks month months period periods year years".split())
"""A question's words that date its figure or name the report's own entity ("How much did the bank
lend to customers at the end of FY24?"): no row's, so no column's "year ended" names the row."""


def figure_row(sentence: str, short: str) -> tuple[Row, list[tuple[str, str]], list[str]] | None:
    """``sentence`` as a table's row holding ``short``'s figures: the row, its cells after the
    label, and the columns that hold them; None for prose, or a reply with no figure."""
    row = parse_row(sentence)
    said = figures(short)
    if row is None or not said:
        return None
    _, *rest = row.cells.items()
    return row, rest, [h for h, cell in rest if said & figures(cell)]


def unnamed_row(question: str, sentence: str, short: str, heading: str = "") -> bool:
    """Whether ``sentence`` is a table's row whose label, section and caption, the columns
    holding ``short``'s figures, and, for a row labelled by a band of money or dates (cases.py
    `band`), its passage's ``heading`` (binding.py `heads`: a guidance page's "Challenge a
    solicitor's bill" over its fee bands) share no word with ``question``
    (the module doc); False for prose, or a reply with no figure the row holds."""
    row = parse_row(sentence)
    asked = [
        w for w in question_words(question) if w not in _MONTHS and w not in _NO_ROW
    ]  # "at June 30, 2021" dates the figure, names no row
    said = figures(short)
    if row is None or not asked or not said:
        return False
    label, *rest = row.cells.items()
    columns = [h for h, cell in rest if said & figures(cell)]
    if not columns:
        return False
    case_row = band(label[1]) is not None  # "£100,000.01 or more": a band of the user's case, named by its page
    told = content(" ".join([label[1], row.caption, heading if case_row else "", *columns]))
    told += [w for t in told for group in _SAME_THING if any(close(t, g) for g in group) for w in group]
    return not any(close(w, q) for w in told for q in asked)


_PART_SAID = re.compile(
    r"\b(?:quarters?|quarterly|half|halves|half-year|semester|months?|[1-4]\s*Q|Q\s*[1-4]|H[12]|[12]H|three|six|nine|interim)\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s*[-–—]\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
    re.I,
)
"""A caption or label that says its columns are parts of years ("Fourth quarter", "Three months ended")."""


def label_of(row: Row) -> str:
    """A table row's label, its sections and all ("Demersal species › Cod")."""
    return next(iter(row.cells.values()), "")


def other_period(question: str, sentence: str, short: str) -> bool:
    """Whether ``sentence`` is a table's row that holds ``short``'s figures only in columns of
    another part of a year than the one ``question`` asks ("What were Immunology sales in the second
    quarter of 2024?" over "H1 2024: 1,215"; "net income in the third quarter of 2023" over "Quarter ·
    4Q23: 24,106"): that period's figure is not printed; nor is a whole year's, asked where the row
    has that year's own column, in a quarter's ("How much molybdenum in 2023?" over "Q4 2023: 412;
    2023: 1,602"); nor a quarter's or half's, asked of a row whose figure is only in whole years' columns
    ("FY 2024" for "net income in the fourth quarter of 2024"), where the caption says no part of a
    year. False for prose, a question naming no one period, or a column naming none."""
    asked = periods_asked(question)
    held = figure_row(sentence, short)
    if held is None:
        return False
    row, rest, columns = held
    named = [named_period(h) or column_period(h, header_year(h)) for h in columns]
    if not asked and len(years := set(years_in(question))) == 1:
        year = years.pop()  # a whole year asked: "412" read from "Q4 2023" beside the row's own "2023" column
        whole = [h for h, _ in rest if header_year(h) == year and (named_period(h) or column_period(h, year)) is None]
        return bool(columns) and bool(whole) and all(p is not None and p.part for p in named)
    if len(asked) != 1 or not asked[0].part:
        return False
    want = asked[0]
    whole_year = not _PART_SAID.search(
        f"{row.caption} {label_of(row)}"
    )  # "Fourth quarter" over "2024 | 2023": the year's columns are the quarter's
    return bool(columns) and all(
        (p is not None and ((p.part, p.index) != (want.part, want.index) or (p.year is not None and p.year != want.year)))
        or (p is None and whole_year and want.part != "month" and header_year(h) is not None and not _PART_SAID.search(h))
        for p, h in zip(named, columns)
    )  # a column "Q2" under "Budget 2024" is Q2 2024's; "FY 2024" holds no quarter's figure


def another_part(question: str, names: list[str], sentence: str, short: str, units: list[Unit], heading: str = "") -> str | None:
    """The name ``question`` gives that a table read breaks its figures down by (a row's label or
    section, a column's header: "Leixanha" of "TEU handled · Leixanha · 2024") where ``sentence``,
    the table row holding ``short``'s figure, says it nowhere (its label, caption, the figure's
    columns, nor the passage's ``heading``): "What EBITDA did the Leixanha terminal make?" read off
    the group's "EBITDA: 49,972" is the whole's figure, not the part's; so is a word of the question
    telling a table's sections apart that the row does not say ("the total demersal catch" off
    "Total catch", beside "Demersal species › Cod" and "Pelagic species › Herring"). None for
    prose, or a name the row says or no table breaks down by."""
    held = figure_row(sentence, short)
    if held is None:
        return None
    row, _, columns = held
    own = " ".join([label_of(row), row.caption, heading, *columns])
    for name in names:
        if names_in(name, own, surname=False):
            continue
        for u in units:
            for line in u.text.splitlines():
                other = parse_row(line)
                if other is None or other.caption == row.caption:
                    continue
                first, *others = other.cells.items()
                if names_in(name, first[1], surname=False) or any(names_in(name, h, surname=False) for h, _ in others):
                    return name
    told = content(own)
    asked = [w for w in question_words(question) if w not in _NO_ROW and not any(close(w, t) for t in told)]
    for w in asked:  # a word telling a table's sections apart ("demersal" of "Demersal species", "Pelagic species")
        if any(close(w, d) for d in _section_words(units)):
            return w
    return None


def _section_words(units: list[Unit]) -> set[str]:
    """The words that tell a table's sections apart, where two of its sections share a word
    ("demersal" and "pelagic" of "Demersal species" and "Pelagic species"; none of "As at June
    30, 2019:" and "As at June 30, 2018:", nor of sections sharing nothing)."""
    sections: dict[str, set[str]] = {}
    for u in units:
        for line in u.text.splitlines():
            row = parse_row(line)
            section = label_of(row).rpartition(SECTION_MARK)[0] if row is not None else ""
            if section:
                sections.setdefault(row.caption, set()).add(section.rpartition(SECTION_MARK)[2])
    out: set[str] = set()
    for labels in sections.values():
        words = [set(content(label)) for label in labels]
        for a in words:
            for b in words:
                if a is not b and a & b:
                    out |= a - b
    return out


_ASKS_PLAN = re.compile(
    r"\b(?:target(?:ed|s)?|plann(?:ed|ing)|budget(?:ed)?|forecast(?:ed)?|guid(?:ed|ance))\b|\bplan\s+(?:for|in)\b", re.I
)
_AGAINST_PLAN = re.compile(r"\b(?:against|versus|vs\.?|beat|exceed\w*|miss\w*|short|variance|than|compared|achiev\w*|actual)\b", re.I)


def unplanned(question: str, sentence: str, short: str) -> bool:
    """Whether ``question`` asks what was planned ("What net profit did the company target for
    FY2024?", "the budgeted revenue") and ``sentence`` is a table row holding ``short``'s figure
    only in columns that say no plan, budget, target or forecast: the figure is what happened, not
    what was planned. A question setting the two side by side ("beat the budget", "against
    target") is not asked so."""
    if not _ASKS_PLAN.search(question) or _AGAINST_PLAN.search(question):
        return False
    held = figure_row(sentence, short)
    return held is not None and bool(held[2]) and not any(PLANNED.search(h) for h in held[2])
