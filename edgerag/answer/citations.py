"""The passage numbers a reply cites, checked against the passages: `parse_citations` reads the
[n] marks, `verified_citations` checks each against the short answer (``cited`` / ``matched`` /
``unverified``), `citation` names the file and page the answer stands on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..provenance import label_at
from ..text.normalize import normalize
from ..types import Unit

CITE = re.compile(r"\[(\d{1,3})(?:\s*,\s*(\d{1,3}))*\]")
"""A citation mark: [n] or [n, m, …]."""
_CITE_ALL = re.compile(r"\d{1,3}")


@dataclass
class Citation:
    n: int
    doc_id: str
    chunk_id: str
    title: str
    how: str
    """``cited`` (the model named it), ``matched`` (contains the short answer, not cited) or
    ``unverified`` (cited, but the short answer is not in it); for an answer's ``closest``,
    ``stands on`` or ``closest`` (check.py)."""
    where: str = ""
    """The file and page or section of the passage (``report.pdf p. 12–13``), provenance.py."""
    sentence: str = ""
    """The sentence meant, where one is (an answer's ``closest``: the sentence it stands on, or
    the sentences read closest to a question the documents do not answer)."""


def parse_citations(text: str, units: list[Unit]) -> list[int]:
    """1-based passage numbers cited as [n] or [n, m] that exist, in order of first mention."""
    seen: dict[int, None] = {}
    for m in CITE.finditer(text):
        for num in _CITE_ALL.findall(m.group()):
            n = int(num)
            if 1 <= n <= len(units):
                seen.setdefault(n, None)
    return list(seen)


def verified_citations(cited: list[int], units: list[Unit], short_answer: str | None) -> list[Citation]:
    if short_answer is None:
        return [citation(n, units[n - 1], "cited") for n in cited]
    needle = normalize(short_answer)
    contains = [i for i, u in enumerate(units, 1) if needle and f" {needle} " in f" {normalize(u.text)} "]
    out = [citation(n, units[n - 1], "cited", short_answer) for n in cited if n in contains]
    out += [citation(n, units[n - 1], "matched", short_answer) for n in contains if n not in cited]
    out += [citation(n, units[n - 1], "unverified") for n in cited if n not in contains]
    return out


def citation(n: int, u: Unit, how: str, answer: str | None = None) -> Citation:
    """A citation of unit ``u``; with the short ``answer`` it holds, ``where`` names the page
    the answer stands on when the unit spans pages (provenance.label_at)."""
    where = label_at(u.provenance, u.text, answer)
    return Citation(n=n, doc_id=u.doc_id, chunk_id=u.chunk_id, title=u.title, how=how, where=where)
