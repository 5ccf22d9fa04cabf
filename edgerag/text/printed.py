"""A table as a report prints it, made plain before its rows are written (text/rows.py
`grid_lines`, for every reader: HTML, Markdown, DOCX, PDF):

* **Cells**: a negative in parentheses ``(1,204)`` / ``$(3.1)`` / ``(15)%`` / ``(CHF 3.2)``, or
  printed with a typeset minus ``−45`` / ``– 12.5``, is written ``-1,204`` / ``-$3.1`` / ``-15%`` /
  ``-CHF 3.2`` / ``-45`` / ``-12.5``; thousands set apart by spaces (``1 204 567``) by commas; a
  dash alone (``-``, ``–``, ``—``) or ``nil`` is nothing; footnote marks (``Gross profit(4)``,
  ``Revenue*``, ``2019¹``, a trailing `` .``) are dropped. A currency may be a sign or a code
  (`CURRENCY`: ``₹``, ``NZ$``, ``CHF``, ``Rs.``).
* **A currency or percent sign in a cell of its own** (``$`` | ``1,204``, ``12.5`` | ``%``)
  joins its number; a column left empty by that is dropped.
* **Spans lost**: an upper header cell spans the empty cells after it ("2019" over "$" and
  "%"), never into a column a row above heads on its own ("For the Year Ended" over "2018 |
  2017", beside "Change Amount": the empty cell under "Change Amount" is no "2017"); an upper
  header row's labels printed over any column of their group, where a header row below repeats
  a run of labels ("Fiscal 2019" over "Low" of "High", "Low", "High", "Low"), head their whole
  group.
* **Header rows found in the body**: leading rows with an empty first cell whose other cells
  are years or units (``2019`` | ``2018``, ``$m`` | ``$m``) head the table too (Markdown, DOCX
  and PDF know one header row only), and so does one whose first cell is the table's scale over
  two years or more and column names (``(In thousands)`` | ``2019`` | ``2018`` | ``Change from
  2018``: an HTML page's second header row in its body). TAT-QA's test pages: with the bare
  "m" heading a table's labels (below), two pages read anew, six answers made right in code.
* **Section rows found in the header**: a row after a real header row (one with two labels or
  more) that names a section, its label in the first cell and every other cell empty or one
  cell spanning the whole width (``<th colspan="6">Income</th>``, a row of ``<th>`` an HTML
  reader takes for a header), is the body's first row: its section heads the rows below it
  (text/rows.py), not the columns. A scale (``(in millions)``) or a year so spanning stays a
  header row, as does a spanning row above a header row of years or units
  (``Year ended 31 March`` over ``2019`` | ``2018``).
* **Period rows**: a row that names the columns' period (``Year ended 31 December``, ``As at
  30 June``, ``Three months ended``), its label alone or spanning the width, under the header's
  row of years (a second header row, or the body's first row) is the header's too, never a
  section of the rows below (`period_row`).
* **Rows not applicable**: a row whose every value cell is ``n/a`` or a dash (``—``, ``-``)
  keeps them (``n/a``, a dash as ``-``): its values do not apply, and with its cells left empty
  it would read as a section heading the rows below.
* **Columns of shares named alike** ("2022 €m" | "% of revenue" | "2021 €m" | "% of revenue"): each
  takes the year of the column before it that names one ("2021 · % of revenue"), as a group
  header over both would give it (`_years_to_twins`).
* **The table's scale** (``(in thousands)``, ``$ in millions``, ``'000``, a bare ``(millions)``, a currency code's
  ``USDm`` or ``RMB'Million``): a header row that
  holds only it, or the first column's header (a bare "m" there too: the labels' column holds
  no amounts), or the text just before the table; it is taken
  out of the header and said once, after the caption.

`plain` returns the grid, its number of header rows and the scale phrase ("" when none).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

DASHES = frozenset({"-", "–", "—", "−", "--", "n/a", "N/A", "n.a.", "nm", "NM", "*", "nil", "Nil", "NIL"})
SIGNS = "$€£¥₹₩₦₱₺₽₪฿₫"
"""The currency signs reports print: dollar, euro, pound, yen / yuan, rupee, won, naira, peso, lira, rouble, shekel, baht, dong."""
CURRENCY_SIGN = f"[{re.escape(SIGNS)}]"
"""A currency sign, as a regular expression's character class."""


def tight(text: str) -> str:
    """A cell as printed with no space after its currency sign ("$ 1,204" → "$1,204")."""
    return re.sub(rf"(?<={CURRENCY_SIGN})\s+", "", text)


CODES = (
    "USD|EUR|GBP|CHF|JPY|INR|ZAR|SEK|NOK|DKK|ISK|AUD|NZD|CAD|SGD|HKD|CNY|RMB|TWD|KRW|BRL|MXN|CLP|COP|PEN|ARS|PLN|CZK|HUF|RON"
    "|TRY|RUB|UAH|ILS|AED|SAR|QAR|KWD|EGP|NGN|KES|GHS|IDR|MYR|THB|PHP|VND|PKR|BDT|LKR"
)
"""ISO 4217 codes of the currencies reports are printed in ("KRW billion", "PLN 3.2")."""
CURRENCY = rf"[{SIGNS}]|[A-Z]{{1,3}}\$|(?:{CODES}|Rs\.?|Rp\.?|zł)\s?"
"""A currency as a cell prints it before its number: a sign ("$", "₹", "NZ$") or a code ("CHF 3.2", "Rs. 1,204", "Rp 1.204")."""
_NEGATIVE = re.compile(
    rf"^(?P<cur>{CURRENCY})?\s*\(\s*(?P<cur2>{CURRENCY})?\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\s*\)\s*(?P<pct2>%)?$"
)
_MINUS = re.compile(r"^[−–]\s?(?=(?:" + CURRENCY_SIGN + r"|[A-Z]{1,3}\$)?\s?\d)")
"""A minus printed as U+2212 or an en dash before a number ("−45", "– 12.5"), as typeset reports print it."""
_SPACED = re.compile(r"(?<![\d.,])(\d{1,3}(?: \d{3})+)(?![\d,])")
"""Thousands set apart by spaces ("1 204 567", a thin or no-break space in the page), as many European reports print them."""
_FOOTNOTE = re.compile(r"(?:\s*\((?:\d{1,2}|[a-z]|[ivx]{1,3})\))+$|\s*[*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+$|\s+\.$")
_VALUE_FOOTNOTE = re.compile(r"(?:\s*\((?:\d{1,2}|[a-z])\))+$|\s*[*†‡§]+$")
"""A value's marks: not "²" or "³", which are its unit's ("1.2 km²")."""
_SIGN = re.compile(r"^(?:" + CURRENCY_SIGN + r"|[A-Z]{1,3}\$|US\$|A\$|R|RMB|HK\$)$")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)|\b(?:FY|F)\s?'?\d{2}\b", re.I)
_UNIT = re.compile(
    r"^\(?\s*(?:"
    + CURRENCY_SIGN
    + rf"|[A-Z]{{1,3}}\$|(?-i:{CODES}|RMB|SR|RM|R))?\s*['’‘]?(?:000s?|m|mn|bn|k|million|millions|thousands?|billions?)\s*\)?$|^\(?%\)?$|^\(?"
    + CURRENCY_SIGN
    + r"\)?$"
    r"|^\(?\s*(?:TEUR|KEUR|T€|k€|Mio\.?\s?(?:€|EUR)?|(?:€|EUR)\s?(?:Mio\.?|thousand|million)|R\$\s?mil|Rm|R\s?million|¥\s?millions?|₹\s?crores?)\s*\)?$",
    re.I,
)
SCALE = re.compile(
    r"\(?\s*(?:(?:(?:U\.?S\.?\s*|[A-Z]{1,3})?"
    + CURRENCY_SIGN
    + r"|dollars|U\.?S\.?\s+dollars|amounts|figures|euros)\s+)?in\s+(?:"
    + CURRENCY_SIGN
    + r"\s*)?(?P<word>thousands|millions|billions)\b[^)]*\)?"
    r"|\(\s*(?P<bare>thousands|millions|billions)\s*\)"
    rf"|(?P<code>(?:[{SIGNS}]|US\$|A\$|HK\$|(?<![A-Za-z])(?-i:{CODES}|RMB|SR|RM|R))?\s*['’‘]000s?|(?<!\w)(?:[A-Z]{{1,3}})?[{SIGNS}]\s?(?:m|mn|bn|k|millions?|thousands?|billions?)\b"
    rf"|(?<!\w)(?-i:{CODES}|Rp|zł)\s?['’‘]?\s?(?:m|mn|bn|k|millions?|thousands?|billions?)\b)"
    r"|(?P<kilo>(?<![\w'’‘])(?:"
    + CURRENCY_SIGN
    + r"|[A-Z]{1,3}\$)000s?\b|\b[TK](?:EUR|CHF|USD|GBP|DKK|SEK|NOK)\b|\bT€|(?-i:\bTSD\b)|R\$\s?mil\b(?!h))"
    r"|(?P<mega>(?-i:\bMio\b\.?|\bM(?:EUR|CHF|USD)\b|\bR\s?(?:m|mn|million)\b)|\bmilh(?:ões|oes)\b)"
    r"|(?P<giga>(?-i:\bMrd\b\.?))",
    re.I,
)
"""A table's scale as a header or note says it: "(in millions)", "$m", "'000", "USDm", and as
other countries' reports print it: "$000", "TEUR" / "T€" (thousands), "Mio. €", "Rm" (millions),
"Mrd." (billions), Brazil's "R$ mil" (thousands) and "milhões" (millions); any currency's sign or
code before its scale ("₩ billion", "KRW billion", "PLN m", "Rp billion")."""
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_PERIOD = re.compile(
    r"^(?:for\s+the\s+)?(?:(?:fiscal|financial)\s+)?"
    r"(?:years?|quarters?|half[- ]years?|periods?|(?:three|six|nine|twelve|\d{1,2})[- ]months?|\d{2}[- ]weeks?)\s+(?:ended|ending|to)\b"
    rf"|^(?:as\s+)?(?:at|of)\s+(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?{_MONTH}"
    r"|^(?:fiscal|financial)\s+years?$",
    re.I,
)
"""A period's label: "Year ended 31 December", "Years ended June 30,", "As at 31 March"."""
_DASH_GLYPHS = frozenset({"-", "–", "—", "−", "--"})
_BARE_SCALE = re.compile(r"\(?\s*(?P<unit>m|mn|bn|['’]000s?)\s*\)?", re.I)
_BARE_WORDS = {"m": "millions", "mn": "millions", "bn": "billions", "000": "thousands", "000s": "thousands"}
"""A scale printed bare over the labels' column ("m" | "2019" | "2018"): no currency beside it."""
_NUMBERISH = re.compile(r"^-?" + CURRENCY_SIGN + r"?-?\d[\d,]*(?:\.\d+)?%?$")


def scale_word(text: str) -> str:
    """ "thousand", "million", "billion" or "" for the scale ``text`` names ("$m", "'000", "(in millions)")."""
    m = SCALE.search(text)
    if m is None:
        return ""
    if m["kilo"] or m["mega"] or m["giga"]:  # "TEUR", "Mio. €", "Rm": a unit cell or a bracket, never a word of prose ("Rm 2.14")
        bracketed = "(" in text[: m.start()] and ")" in text[m.end() :]
        if len(text.split()) > 3 and not bracketed:
            return ""
        return "thousand" if m["kilo"] else "million" if m["mega"] else "billion"
    said = (m["word"] or m["bare"] or m["code"] or "").lower()
    if "thousand" in said or "000" in said or said.endswith("k"):
        return "thousand"
    if "billion" in said or said.endswith("bn"):
        return "billion"
    return "million"


def _period(cells: Sequence[str]) -> int:
    """The shortest run of labels ``cells`` repeats, two groups or more ("High", "Low", "High",
    "Low" → 2); 0 when they repeat none."""
    n = len(cells)
    for p in range(2, n // 2 + 1):
        if n % p == 0 and all(cells[:p]) and all(cells[i] == cells[i % p] for i in range(n)):
            return p
    return 0


def _grouped(heads: list[list[str]]) -> None:
    """An upper header row's labels given to their groups' columns, in place, where a header row
    below repeats one run of labels under them ("Fiscal 2019" | "Fiscal 2018" over "High",
    "Low", "High", "Low"): a page that lost its column spans prints each label over any column of
    its group (the second, the middle), and reading it forward would give "Fiscal 2019" to 2018's
    "High". Each label must fall in a group of its own; else the row is left as it is."""
    for n, r in enumerate(heads[:-1]):
        p = next((q for row in heads[n + 1 :] if (q := _period(row[1:]))), 0)  # a lower row's run ("CENTS PER", "TOTAL", …)
        if not p:
            continue
        at = [k for k in range(1, len(r)) if r[k]]
        groups = [(k - 1) // p for k in at]
        if len(at) != (len(r) - 1) // p or len(set(groups)) != len(at):
            continue
        for k, g in zip(at, groups):
            label = r[k]
            for j in range(1 + g * p, 1 + (g + 1) * p):
                r[j] = label


_CHANGE = re.compile(r"\b(?:change|increase|decrease|variance|growth|movement)", re.I)
"""A column of changes between the years either side of it, no one year's."""
_SHARE = re.compile(r"%|\bpercent|\bshare\b|\bmargin\b", re.I)
"""A column of shares beside each year's amounts ("% of revenue", "Margin")."""


def _years_to_twins(heads: list[list[str]]) -> None:
    """Columns named alike ("% of revenue" twice), in place: each takes the year of the nearest
    column before it whose header names one ("2022 €m" | "% of revenue" | "2021 €m" | "% of
    revenue" → "2022 · % of revenue", "2021 · % of revenue"), as a group header over both
    would, where they are shares ("% of revenue", "margin"; a column of amounts beside each year,
    "Grant Date Fair Value", is left: a year's own column heads its amounts); left as they are
    unless every twin so gets a year of its own, or when they are changes
    between the years either side ("2019" | "Change" | "2018" | "Change" | "2017")."""
    width = max((len(r) for r in heads), default=0)
    paths = [tuple(r[k] for r in heads if k < len(r) and r[k]) for k in range(width)]
    seen: dict[tuple[str, ...], list[int]] = {}
    for k in range(1, width):
        if paths[k] and not any(yearish(c) or _CHANGE.search(c) for c in paths[k]) and _SHARE.search(paths[k][-1]):
            seen.setdefault(paths[k], []).append(k)
    for cols in seen.values():
        if len(cols) < 2:
            continue
        years = []
        for k in cols:
            j = next((j for j in range(k - 1, 0, -1) if any(yearish(c) for c in paths[j])), 0)
            m = _YEAR.search(" ".join(paths[j])) if j else None
            years.append(m.group() if m else "")
        if all(years) and len(set(years)) == len(years):
            for k, year in zip(cols, years):
                heads[-1][k] = f"{year} · {heads[-1][k]}"


def clean_cell(text: str) -> str:
    """One cell made plain (the module doc): negatives (a typeset minus too), dashes, footnote
    marks, thousands set apart by spaces."""
    text = " ".join(text.split())  # a no-break or thin space too
    if text in DASHES:
        return ""
    if _MINUS.match(text) and re.fullmatch(rf"(?:{CURRENCY})?\s?\d[\d, ]*(?:\.\d+)?\s?%?", _MINUS.sub("", text)):
        text = _MINUS.sub("-", text)  # a number's minus, not a label's dash ("– 1 to 30 days")
    if re.fullmatch(rf"-?(?:{CURRENCY})?\s?\(?\s?\d{{1,3}}(?: \d{{3}})+(?:\.\d+)?\s?\)?\s?%?", text):
        text = _SPACED.sub(lambda m: m.group(1).replace(" ", ","), text)  # "1 204" → "1,204": one number, never two
    m = _NEGATIVE.match(text)
    if m:
        cur = (m["cur"] or m["cur2"] or "").strip()
        return f"-{cur}{' ' if len(cur) > 2 and not cur.endswith('$') else ''}{m['num']}{'%' if m['pct'] or m['pct2'] else ''}"
    text = (_VALUE_FOOTNOTE if text[:1].isdigit() else _FOOTNOTE).sub("", text).strip()
    return "" if text in DASHES else text


def _is_number(cell: str) -> bool:
    return bool(_NUMBERISH.match(cell.replace(" ", "")))


def _merge_signs(row: list[str]) -> list[str]:
    """A "$" cell joined to the number after it, a "%" cell to the number before it."""
    row = list(row)
    for k, c in enumerate(row):
        if _SIGN.match(c) and k + 1 < len(row) and row[k + 1] and _is_number(clean_cell(row[k + 1])):
            v = clean_cell(row[k + 1])
            row[k + 1] = f"-{c}{v[1:]}" if v.startswith("-") else f"{c}{v}"
            row[k] = ""
        elif c in ("%", "(%)") and k > 0 and row[k - 1] and _is_number(clean_cell(row[k - 1])):
            row[k - 1] = clean_cell(row[k - 1]) + "%"
            row[k] = ""
    return row


def yearish(cell: str) -> bool:
    """A column's name that is a year or a date ("2019", "FY19", "July 27, 2019", "2018-19"), no value."""
    if not _YEAR.search(cell) or len(cell.split()) > 6:
        return False
    rest = _YEAR.sub("", cell)
    return not any(int(d) > 31 for d in re.findall(r"\d+", rest))


_BARE_YEAR = re.compile(r"(?:FY\s?)?(?:19|20)\d{2}(?:/\d{2}(?:\d{2})?)?|FY\s?\d{2}", re.I)


def _heads_more(row: Sequence[str]) -> bool:
    """A body row that is one more header row: an empty first cell, or one naming the columns'
    period ("Year ended 30 June" under "Revenue" and "EBITDA"), the rest years or units; or the
    table's scale in the first cell over two years or more and column names ("(In thousands) |
    2019 | 2018 | Change from 2018")."""
    rest = [c for c in row[1:] if c]
    if row and SCALE.fullmatch(row[0].strip()) and sum(1 for c in rest if yearish(c)) >= 2:
        return _header_like(row)
    if row[0] and _PERIOD.match(row[0].strip()):  # "Year ended 30 June" over bare years, never over dates (a deadlines table)
        return len(rest) >= 2 and all(_BARE_YEAR.fullmatch(c.strip()) or _UNIT.match(c) for c in rest)
    return not row[0] and len(rest) >= 2 and all(yearish(c) or _UNIT.match(c) for c in rest)


def _qualifies(row: Sequence[str]) -> bool:
    """A body row that says the columns' basis, above a table of numbers: its first cell empty or
    the table's scale, two cells or more past it, each a few words and no number: "(unaudited)" |
    "(unaudited)", "CHF m" | "CHF" | "CER" under "H1 2024" | "H1 2023" | "% change" | "% change"."""
    rest = [_FOOTNOTE.sub("", c).strip() for c in row[1:] if c]
    first = not row[0] or bool(SCALE.fullmatch(row[0].strip())) or bool(_UNIT.match(row[0].strip()))
    return first and len(rest) >= 2 and all(_BASIS.fullmatch(c) for c in rest)


_BASIS = re.compile(
    r"\((?:un)?audited\)|\((?:restated|reported|actual|budget|adjusted|pro\s?forma)\)|(?:un)?audited|restated|reported|actual|budget"
    r"|CER|at\s+CER|constant\s+(?:currency|exchange\s+rates?)|[A-Z]{3}|" + CURRENCY_SIGN + r"|local\s+currency|IFRS|(?:non-)?GAAP|core",
    re.I,
)
"""A column's basis under its name: audited or not, restated, reported, at constant exchange rates (CER), a currency."""


def section_row(row: Sequence[str]) -> bool:
    """A row that names a section of a table's body: a label in its first cell and every other
    cell empty, or one label repeated in every cell (a cell spanning the width); a scale, a
    unit or a year so written is a header's, not a section's."""
    filled = [c for c in row if c]
    if not row or not row[0] or not (len(filled) == 1 or (len(filled) == len(row) and len(set(filled)) == 1)):
        return False
    label = row[0].strip()
    return not (SCALE.fullmatch(label) or _UNIT.match(label) or yearish(label) or _is_number(label))


def period_row(row: Sequence[str]) -> bool:
    """A row that names the columns' period ("Year ended 31 December", "As at 30 June"), its
    label in the first cell and every other cell empty, or spanning the width: a header's row."""
    filled = [c for c in row if c]
    if not row or not row[0] or not (len(filled) == 1 or (len(filled) == len(row) and len(set(filled)) == 1)):
        return False
    return bool(_PERIOD.match(row[0].strip()))


def _not_applicable(row: Sequence[str]) -> bool:
    """A body row as printed whose value cells all say "n/a" or a dash (a "$" beside one aside)."""
    rest = [c for c in row[1:] if c]
    return bool(row[0]) and any(c in DASHES for c in rest) and all(c in DASHES or _SIGN.match(c) or c in ("%", "(%)") for c in rest)


def _not_applicable_cells(row: Sequence[str]) -> list[str]:
    """A row not applicable (`_not_applicable`) made plain: its "n/a" kept, a dash as "-", a sign
    beside one ("$" | "—") dropped."""
    return [
        ("-" if c in _DASH_GLYPHS else c) if n and c in DASHES else "" if n and (_SIGN.match(c) or c in ("%", "(%)")) else clean_cell(c)
        for n, c in enumerate(row)
    ]


def _header_like(row: Sequence[str]) -> bool:
    """A row of column names: two cells or more past the first, each a year, a unit or words."""
    rest = [c for c in row[1:] if c]
    return len(rest) >= 2 and all(yearish(c) or _UNIT.match(c) or not _is_number(clean_cell(c)) for c in rest)


def _before_sections(rows: Sequence[Sequence[str]], header_rows: int) -> int:
    """The header rows left when the first section row among them (`section_row`), after a real
    header row and above no more header rows, opens the body instead."""
    for k in range(1, header_rows):
        if not section_row(rows[k]) or period_row(rows[k]):
            continue
        named = any(len({c for c in r if c}) >= 2 for r in rows[:k])
        if named and not any(_header_like(r) for r in rows[k + 1 : header_rows]):
            return k
    return header_rows


def plain(grid: Sequence[Sequence[str]], header_rows: int = 1, before: str = "") -> tuple[list[list[str]], int, str]:
    """``grid`` as printed made plain (the module doc): (rows, header rows, scale phrase)."""
    width = max((len(r) for r in grid), default=0)
    rows = [[" ".join(c.split()) for c in r] + [""] * (width - len(r)) for r in grid]
    rows = [r for r in rows if any(r)]
    header_rows = min(max(header_rows, 1), len(rows))
    header_rows = _before_sections(rows, header_rows)
    numbers = any(_is_number(clean_cell(c)) for r in rows[header_rows:] for c in r[1:])
    while header_rows < len(rows) - 1 and (
        _heads_more(rows[header_rows])
        or (period_row(rows[header_rows]) and any(yearish(c) for c in rows[header_rows - 1][1:]))
        or (numbers and _qualifies(rows[header_rows]))
    ):
        header_rows += 1  # one more header row in the body: years or units, the period under the years, or the columns' basis
    scale = ""
    body = [_merge_signs(r) if n >= header_rows else r for n, r in enumerate(rows)]
    body = [
        (_not_applicable_cells(r) if _not_applicable(r) else [clean_cell(c) for c in r])
        if n >= header_rows
        else [(_VALUE_FOOTNOTE if c[:1].isdigit() else _FOOTNOTE).sub("", c).strip() for c in r]
        for n, r in enumerate(body)
    ]
    keep = [k for k in range(width) if any(r[k] for r in body[header_rows:])] or list(range(width))
    for k in range(width - 1):  # a "$" column's header ("2019") names the number beside it
        if k not in keep and k + 1 in keep and not any(r[k + 1] for r in body[:header_rows]):
            for r in body[:header_rows]:
                r[k + 1] = r[k]
    if len(keep) < width and len(keep) >= 2:
        body = [[r[k] for k in keep] for r in body]
    _grouped(body[:header_rows])  # "Fiscal 2019" printed over its group's second column ("High", "Low", "High", "Low")
    for n, r in enumerate(body[: header_rows - 1]):  # an upper header cell spans the empty cells after it ("2019" over "$" and "%")
        if sum(1 for c in r[1:] if c) >= 2:
            for k in range(2, len(r)):
                if not r[k] and r[k - 1] and all(not u[k] or u[k] == u[k - 1] for u in body[:n]):
                    r[k] = r[k - 1]  # not under a header of the column's own ("2017" never spans into "Change Amount")
    for r in body[:header_rows]:  # "20181" beside "2017" and "2019": a year with its footnote's digit run on
        if sum(1 for c in r if re.fullmatch(r"(?:19|20)\d{2}", c)) >= 2:
            r[:] = [c[:4] if re.fullmatch(r"(?:19|20)\d{3}", c) else c for c in r]
    heads: list[list[str]] = []
    for r in body[:header_rows]:
        filled = [c for c in r if c]
        if (len(filled) == 1 or (len(filled) == len(r) and len(set(filled)) == 1)) and SCALE.fullmatch(filled[0].strip()) and not scale:
            scale = filled[0]  # "(In millions)" alone on a header row (or spanning it): the table's scale
            continue
        heads.append(r)
    corner = " ".join(r[0] for r in heads).strip()
    if heads and not scale and (bare := _BARE_SCALE.fullmatch(corner)):  # "m" heading the labels: "(in millions)"
        scale = f"(in {_BARE_WORDS[bare['unit'].lower().strip(chr(39) + '’')]})"
        for r in heads:
            r[0] = ""
    if heads and heads[0] and (m := SCALE.search(" ".join(r[0] for r in heads))) and not scale:
        scale = m.group().strip()
        for r in heads:
            r[0] = " ".join(re.sub(r"\(\s*\)", "", SCALE.sub("", r[0])).split()).strip(" ,")  # "(€ million)": no "()" left
    if not scale and (m := SCALE.search(before[-300:])) and not (m["kilo"] or m["mega"] or m["giga"]):
        scale = m.group().strip()  # the prose's "in thousands", never a word that spells a unit ("Rm 2.14", "TSD")
    if not heads:
        heads = [[""] * len(body[0])]
    _years_to_twins(heads)
    return heads + body[header_rows:], len(heads), scale
