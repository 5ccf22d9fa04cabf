"""A question that asks for several things, and the list a reply gives kept whole (issue #63,
item 4).

"What are the components of …?", "Which years does the table cover?", "What were the balances
of A and B, respectively?": a small model often reads every item, and the short answer used to
keep the first ("the reply ran on", reply.py `narrow`). Here the reply's items are kept, each
in the documents' words: an item is kept where a passage read holds it as written (or, for an
item written inside a phrase, the one name, date or number of it a passage holds), in the
reply's order, once each; a part the passages hold whole is one item even where it says "and"
("Purchased parts and assemblies, Work-in-process"), and so is a line of a passage the reply holds
(a page's list item, "tax relief on income, gains and profits"). Where two or more of the reply's
items lie in one list the page prints (the lines after "You'll get:", evidence.py keeps them
apart), the answer is those list items whole, and what the reply took from elsewhere is dropped:
"Tax relief, income, gains, …, membership fees" → "tax relief on income, gains and profits from
some activities; Gift Aid repayments on donations; business rates relief". A table's column
headers are such a list too ("1 year, 5 years, more than 5 years" → "Less than 1 year; 1-5
years; More than 5 years"). Items are joined by
"; " (numbers and dates keep their commas).
A reply the passages hold as written is one phrase ("property, plant and equipment"), and a
reply that copies a table row ("2019: 166.0") is no list: both are read as before. A reply that
names the section the passages head before its rows ("Deferred income tax liabilities in
relation to: Intangible assets; Deferred selling cost") lists the rows (TAT-QA's test set: 1
wrong made right). A table's total row ("Total share-based payment charge") is no item beside the rows it sums. An item that is a
piece of one row's label, where two items or more are rows, is named by the whole label
(`labelled`: "Shareholder distributions" → "Shareholder distributions – dividends", "current" →
"Trade accounts receivable, net, current"), without the label's lead ("Less:"), footnote number
or closing note; TAT-QA's test set (code alone, the run's list answers): 5 wrong made right,
none lost.

`asks_several` reads the question's grammar: "respectively", a plural copula after
"what"/"which" ("What are the …", "Which were …"), a plural noun asked ("Which years …",
"What costs …"), "both" / "each", or two years joined by "and" with no computation asked.
"""

from __future__ import annotations

import re

from ..text.normalize import normalize
from ..text.rows import SECTION_MARK, parse_row
from ..text.sentences import ENDS_SENTENCE
from ..types import Unit
from .candidates import all_candidates
from .citations import CITE
from .operation import operation

_SEVERAL = re.compile(
    r"\brespective(?:ly)?\b|^\s*(?:what|which|who|where)\s+(?:are|were)\b|^\s*(?:what|which|who)\b.*\b(?:both|each\s+of)\b|^\s*(?:list|name)\s+(?:the|all)\b"
    r"|\b(?:19|20)\d{2}\s*(?:,\s*(?:19|20)\d{2}\s*)*,?\s+and\s+(?:19|20)\d{2}\b",
    re.I,
)
_ASKED_NOUN = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:the|two|three|four|main|key|major|kinds?\s+of|types?\s+of)\s+)*"
    r"(?:(?!(?:is|was|are|were|does|do|did|has|have|had|can|will|would)\b)[a-z]+\s+)?(?P<noun>[a-z]+)"
    r"\s+(?:are|were|does|do|did|have|had|has|of|in|for|that|which|can|will|would|is\s+the\s+table)\b",
    re.I,
)
_NOT_PLURAL = frozenset("is was has does this its his plus thus status basis analysis business process loss gross less".split())
_SPLIT = re.compile(r"\s*(?:\n+\s*(?:[-*•]|\d+[.)])?\s*|;\s*|,\s+and\s+|,\s+(?!(?:19|20)\d{2}\b))\s*")
_AND = re.compile(r"\s+and\s+")
"""Items part at lines, semicolons and commas; at "and" only where the passages do not hold the
part whole ("Purchased parts and assemblies" is one item)."""
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b", re.I)
_TOTAL = re.compile(r"^\s*(?:total|sub-?total)\b", re.I)
SEPARATOR = "; "
LISTED = "the question asks for several things: every item of the reply a passage read holds is kept"
ROWS_LISTED = "the question asks for several things, and the reply named one row of a table: the rows beside it are named too"
_CHOSEN_AMONG = re.compile(
    r"\b(?:more|less|greater|fewer|higher|lower|larger|smaller|bigger|above|below|over|under|exceed\w*|at (?:least|most)|most|least|"
    r"highest|lowest|largest|smallest|biggest|top|bottom|increas\w*|decreas\w*|positive|negative|only|other than|except|excluding)\b",
    re.I,
)
"""A question that picks some rows of a table by a bound or a rank ("… more than 100,000",
"the top 2 …"): one row may be all it asks."""


def asks_several(question: str) -> bool:
    """Whether ``question`` asks for several things (the module doc)."""
    if _YES_NO.match(question):
        return False
    op = operation(question)
    if op is not None and op.op not in ("sum",):
        return False  # a computation asks one number
    if _SEVERAL.search(question):
        return True
    m = _ASKED_NOUN.match(question)
    if m is None:
        return False
    noun = m["noun"].lower()
    return noun.endswith("s") and not noun.endswith("ss") and noun not in _NOT_PLURAL and len(noun) > 3


_LINE = re.compile(r"\x00(\d+)\x00")


def _lines_kept(reply: str, units: list[Unit]) -> tuple[str, list[str]]:
    """``reply`` with each line of a passage it holds (a list's item as the page prints it, commas
    and all: "tax relief on income, gains and profits") held as one part, and those lines."""
    lines: list[str] = []
    for u in units:
        for line in u.text.splitlines():
            line = " ".join(line.split()).strip(" .;:")
            if 2 <= len(line.split()) <= 20 and ("," in line or " and " in line) and line not in lines:
                lines.append(line)
    for n, line in sorted(enumerate(lines), key=lambda p: -len(p[1])):
        reply = re.sub(rf"(?<!\w){re.escape(line)}(?!\w)", f"\x00{n}\x00", reply, flags=re.I)
    return reply, lines


_ROW = re.compile(r" — |: |\|")
"""A table's row line ("Revenue — Item: …; 2019: 5.2"), no list item."""


def _item_line(line: str) -> bool:
    """A list item as pages print them: a short line that does not end as a sentence, no lead of
    its own, no table row."""
    return len(line.split()) <= 20 and not ENDS_SENTENCE.search(line) and not line.endswith(":") and not _ROW.search(line)


def page_lists(units: list[Unit]) -> list[list[str]]:
    """The lists the passages print: the item lines after a line that ends with a colon ("The
    council may check your vehicle to make sure:" → "it's roadworthy", "the taximeter works
    properly", …), two items or more, each a short line that does not end as a sentence."""
    out = []
    for u in units:
        lines = [" ".join(line.split()) for line in u.text.splitlines()]
        lines = [line for line in lines if line]
        i = 0
        while i < len(lines):
            if not lines[i].endswith(":"):
                i += 1
                continue
            j = i + 1
            while j < len(lines) and _item_line(lines[j]):
                j += 1
            if j - i > 2:
                out.append([line.rstrip(" ;") for line in lines[i + 1 : j]])
            i = max(j, i + 1)
    return out


def _words(text: str) -> str:
    """``text`` normalised, a hyphen a space ("1-5 years" holds "5 years")."""
    return " ".join(normalize(re.sub(r"[-–]", " ", text)).split())


def header_lists(units: list[Unit]) -> list[list[str]]:
    """The column headers of each table the passages hold, its row label's header aside ("Less
    than 1 year", "1-5 years", "More than 5 years" of a table of obligations), three or more: a
    list the table prints across its top."""
    out: list[list[str]] = []
    for u in units:
        for line in u.text.splitlines():
            row = parse_row(line)
            headers = list(row.cells)[1:] if row is not None else []
            if len(headers) >= 3 and headers not in out:
                out.append(headers)
    return out


def _from_one_list(parts: list[str], units: list[Unit]) -> list[str] | None:
    """Where two or more of a reply's ``parts`` lie in the items of one list a passage prints
    (`page_lists`, or a table's column headers, `header_lists`; a part may be a piece of an item: "Tax relief", "income" of "tax relief on
    income, gains and profits from some activities"), those items whole, in the reply's order,
    once each; the parts read elsewhere are no item of what was asked. None: no such list."""
    best: list[str] = []
    for items in page_lists(units) + header_lists(units):
        keys = [f" {_words(it)} " for it in items]
        hit: dict[str, None] = {}
        for part in parts:
            key = f" {_words(part)} "
            inside = [k for k, item in enumerate(keys) if key.strip() and key in item]
            whole = [k for k in inside if keys[k] == key]  # the item it is, else the first not yet named that holds it
            n = next(iter(whole + [k for k in inside if items[k] not in hit] + inside), None)
            if n is not None:
                hit.setdefault(items[n], None)
        if len(hit) > len(best):
            best = list(hit)
    return best if len(best) >= 2 else None


def _as_written(part: str, units: list[Unit]) -> str:
    """``part`` as a passage writes it ("research and development" → "Research and development"), else as it is."""
    pattern = re.compile(rf"(?<!\w){re.escape(part)}(?!\w)", re.I)
    return next((m.group() for u in units if (m := pattern.search(u.text))), part)


def items_read(reply: str, units: list[Unit]) -> list[str]:
    """The items of ``reply`` a passage read holds, in the reply's order, once each (the module doc)."""
    held = f" {normalize(' '.join(u.text for u in units))} "
    reply = CITE.sub("", reply).strip().rstrip(".")
    lead, colon, rest = reply.partition(": ")
    if colon and ": " not in rest and not re.search(r"\d", lead) and f" {normalize(lead)} " in held and ";" in rest:
        reply = rest  # "Deferred income tax liabilities in relation to: A; B; C": the section the passages head, then its rows
    if ": " in reply or f" {normalize(reply)} " in held:
        return []  # a table row copied, or one phrase as the documents write it ("plant and equipment"): no list
    out: dict[str, None] = {}
    reply, lines = _lines_kept(reply, units)
    parts = []
    for part in _SPLIT.split(reply):
        whole = f" {normalize(part)} " in held or _LINE.search(part)
        parts += [part] if whole else _AND.split(part)
    parts = [_LINE.sub(lambda m: lines[int(m.group(1))], p) for p in parts]
    if (listed := _from_one_list([p.strip(" .:;,'\"").removeprefix("and ").strip() for p in parts], units)) is not None:
        return listed
    for part in parts:
        part = part.strip(" .:;,'\"").removeprefix("and ").strip()
        if not part:
            continue
        key = normalize(part)
        if key and f" {key} " in held:
            out.setdefault(_as_written(part, units), None)
            continue
        inside = [c for c in all_candidates([part]) if normalize(c) and f" {normalize(c)} " in held]
        if len(inside) == 1:
            out.setdefault(inside[0], None)
    parts = [p for p in out if not _TOTAL.match(p)]
    return labelled(parts if len(parts) >= 2 else list(out), units)  # a table's total row is no component of it


_ASIDE = re.compile(r"\s*\((?:[^()\s]+\s?){1,2}\)\s*$")
"""A label's closing aside of one or two words: an abbreviation or a unit ("(‘SIP’)", "(USD)"),
part of its name; a longer one is a note on the row ("(included in Professional fees)")."""


def labelled(items: list[str], units: list[Unit]) -> list[str]:
    """``items`` each as a table read labels its row where the label is the item and an aside in
    parentheses the reply left out ("Share Incentive Plan" → "Share Incentive Plan (‘SIP’)",
    "Basic earnings per share" → "Basic earnings per share (USD)"): the row as the documents
    print it. An item two rows' labels fit alike is kept as it is."""
    labels: dict[str, list[str]] = {}
    owns: list[str] = []
    for u in units:
        for line in u.text.splitlines():
            row = parse_row(line)
            if row is None or not row.cells:
                continue
            own = _label(row)[2]
            owns += [own] if own and own not in owns else []
            bare = _ASIDE.sub("", own).strip()
            if bare and bare != own and own not in labels.setdefault(normalize(bare), []):
                labels[normalize(bare)].append(own)
    out = [found[0] if len(found := labels.get(normalize(it), [])) == 1 else it for it in items]
    names = list(dict.fromkeys(_name(o) for o in owns))
    whole = [_whole_label(it, out, names) for it in out]
    if sum(1 for it, w in zip(out, whole) if _words(w) in {_words(n) for n in names}) < 2:
        return out  # items read from prose, not a table's rows: as they are
    widened = [w for it, w in zip(out, whole) if w != it]
    kept = [w for it, w in zip(out, whole) if w != it or not any(f" {_words(it)} " in f" {_words(o)} " for o in widened)]
    return list(dict.fromkeys(kept))  # "Social security expenses", "post-employment benefits": one row's label, once


_LEAD = re.compile(r"^\s*(?:less|add|plus|minus|deduct)\b:?\s*", re.I)
_NOTE_MARK = re.compile(r"(?<=[a-z])\d{1,2}$|\s+\d{1,2}$|\s*\([^()]*\)$")
"""A label's lead ("Less: …", "plus …"), footnote number ("… dividends1") or closing note
("(included in Professional fees)"): no part of the row's name as a list names it."""


def _name(label: str) -> str:
    """A row's label as a list of rows names it: without its lead, footnote number or closing note."""
    return _NOTE_MARK.sub("", _LEAD.sub("", label)).strip() or label


def _whole_label(item: str, items: list[str], names: list[str]) -> str:
    """``item`` as the one row name it is a piece of, where no row is named ``item`` itself and
    that name is no other item's ("Shareholder distributions" → "Shareholder distributions –
    dividends", "currency effects" → "thereof currency effects", "current" → "Trade accounts
    receivable, net, current"); as it is otherwise."""
    key = _words(item)
    keys = [_words(n) for n in names]
    if not key or key in keys or re.search(r"\d", item):
        return item
    others = {_words(o) for o in items if o != item}
    fits = [n for n, k in zip(names, keys) if f" {key} " in f" {k} " and k not in others]
    return fits[0] if len(fits) == 1 else item


def _label(row) -> tuple[str, str, str]:
    """A row's first header, its section ("Non-current assets" of "Non-current assets › Americas") and its own label."""
    header, label = next(iter(row.cells.items()))
    section, _, own = label.rpartition(SECTION_MARK)
    return header, section, own


def row_siblings(short: str, question: str, units: list[Unit]) -> list[str]:
    """A question asking for several things ("Where are the operating segments … in the table?",
    "What are the types of … in the table?") answered with one table row's label ("Americas"):
    the labels of the rows beside it, under the same caption, first header and section, in the
    table's order, its total row aside; [] where it is no such label, where the rows are fewer
    than two, or where the question picks rows by a bound or a rank (`_CHOSEN_AMONG`). Applied
    only where the check holds the one label (read.py). TAT-QA, whole test set (1.5B): 2 wrong
    made right, none lost."""
    key = normalize(short)
    if not key or re.search(r"\d", short) or _CHOSEN_AMONG.search(question):
        return []
    for u in units:
        rows = [r for line in u.text.splitlines() if (r := parse_row(line)) is not None and r.cells]
        for row in rows:
            header, section, own = _label(row)
            if normalize(own) != key:
                continue
            beside: list[str] = []
            for other in rows:
                h, s, label = _label(other)
                if h == header and s == section and other.caption == row.caption and label and not _TOTAL.match(label):
                    beside += [label] if label not in beside else []
            if len(beside) >= 2:
                return beside
    return []


def not_the_asked(items: list[str], question: str) -> list[str]:
    """``items`` less those the question itself names ("What were the components making up Total
    Restructuring Reserves?" → "Restructuring Reserves"; "… the unlevered free cash flow from the
    net cash flow from operating activities?" → "Net cash flow from operating activities"): the
    thing whose parts are asked is none of them. Items with a figure are kept (a year asked is
    an item), and so is a one-word item ("Other" of "… accrued expenses and other payables"),
    and all where fewer than two would be left."""
    asked = f" {normalize(question)} "
    kept = [it for it in items if re.search(r"\d", it) or len(normalize(it).split()) < 2 or f" {normalize(it)} " not in asked]
    return kept if len(kept) >= 2 else items


_PARTS = re.compile(r"\b(?:components?|factored\s+in|making\s+up|make\s+up|comprising|parts?|items?)\b", re.I)
"""A question asking the parts of a sum ("What are the components factored in when calculating X?")."""


def parts_of_sum(items: list[str], question: str, units: list[Unit]) -> list[str]:
    """The parts of the sum a question names, where the reply's ``items`` are rows of one table
    read (two or more) and the question names another of its rows, with values ("What are the
    components factored in when calculating the net cash inflow from operating activities?"):
    the rows above that row, back to the table's start or its last total row above, as a report
    prints a sum below its parts ("Cash flow from operations; Tax paid", not the rows the reply
    ran on to below it). ``items`` as they are where no table holds them so, where fewer than two
    rows lie above, or where the question picks some of them by a bound or a rank."""
    if not _PARTS.search(question) or _CHOSEN_AMONG.search(question):
        return items  # "… the components … that are more than 100,000": some of the rows above, not all
    asked = f" {normalize(question)} "
    keys = {normalize(it) for it in items}
    for u in units:
        rows = [r for line in u.text.splitlines() if (r := parse_row(line)) is not None and r.cells]
        labels = [_label(r)[2] for r in rows]
        keyed = [normalize(label) for label in labels]
        if len(keys & set(keyed)) < 2:
            continue
        named = [i for i, k in enumerate(keyed) if len(k.split()) >= 2 and f" {k} " in asked and k not in keys and len(rows[i].cells) > 1]
        if not named:
            continue
        at = max(named, key=lambda i: len(keyed[i]))
        start = max((i + 1 for i in range(at) if _TOTAL.match(labels[i])), default=0)
        above = [label for label in labels[start:at] if label]
        if len(above) >= 2:
            return above
    return items
