"""Evidence sentences: what a small model reads instead of whole passages.

A 0.5B model answers a bridge question far better from six sentences than from six passages:
on the first 30 MuSiQue dev questions (bridge-ppr) it reached EM 20.0 / F1 31.9 reading about
500 tokens of evidence sentences, against EM 10.0 reading the 1,000 best tokens of passages,
and EM 23.3 / F1 38.2 reading the gold passages themselves (docs/benchmarks.md, "Answers on
an edge CPU"). The retrieved context holds the answer; the sentences that state it are few.

`evidence_units` picks them from the retrieved passages, LLM-free, with the sentence vectors
the index already has (indexing.py embeds every sentence):

1. **First hop.** Every sentence of the passages is scored by its cosine to the question plus
   a rank prior ``rank_weight / (1 + r)`` for the passage's rank r in the context (the
   retriever's order carries information the sentence alone does not). The ``k1`` best are kept.
2. **Second hop** (the bridge). The link keys of those sentences (their capitalised runs and
   their passage's title, less what the question already names) point to the next hop: the
   ``k2`` best-scoring sentences of *other* passages that contain such a key, or whose title is
   one, are kept too, and remember the key (``meta["linked_by"]``). This is the evidence chain
   bridge and bridge-ppr explain, at sentence level.
3. **Fill** with the next best sentences up to the budget (tokens).

A question typed with the user's situation (question.py: "I work for a small firm in Leeds. Can I
take paid leave?") is scored by its question proper, which picks the rule, and by the whole
text at `SITUATION_WEIGHT`, which steers to the case of the rule the situation is in.

The kept sentences are grouped by passage, in the passage's own order, under its title
("Title: s1 s2", a table row on a line of its own), passages in context order. Each group is a `Unit` of kind ``evidence`` that
carries its passage's ids and provenance, so citations and page labels work as for passages.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..embed.embedder import Embedder
from ..embed.pieces import vectors_of
from ..provenance import describe
from ..store import Index
from ..text.linkkeys import capitalised_runs
from ..text.normalize import normalize
from ..text.rows import parse_row
from ..text.sentences import ENDS_SENTENCE
from ..types import Unit
from .question import Question, as_question

RANK_WEIGHT = 0.3
"""Weight of the passage-rank prior (w/(1+r)); on 100 dev questions per split, offline, 0.3
held the answer in the chosen sentences most often across the three splits (500 tokens)."""
FIRST_HOP = 3
"""k1: first-hop sentences whose keys lead to the second hop."""
SECOND_HOP = 3
"""k2: second-hop sentences kept for those keys."""
SITUATION_WEIGHT = 0.3
"""Weight of the whole text (situation and question) beside the question proper's in a
sentence's score, for a question typed with a situation (question.py)."""


def _sentences(
    index: Index, embedder: Embedder, units: list[Unit]
) -> list[tuple[int, Unit, list[tuple[str, int, int | None]], np.ndarray]]:
    """Per passage (first occurrence of each chunk): its rank, unit, (text, tokens, page) of
    its sentences (page: where the sentence starts, None outside PDFs) and their vectors
    (pieces.vectors_of: embedded now, in one batch, where indexing left them out)."""
    seen: set[str] = set()
    found = []
    for rank, u in enumerate(units):
        if u.chunk_id in seen:
            continue
        seen.add(u.chunk_id)
        chunk = index.get("chunks", u.chunk_id) or {}
        ids = list(chunk.get("sentences", []))
        recs = index.get_many("sentences", ids)
        kept = [
            (sid, r["text"], int(r["tokens"]), (r.get("loc", {}).get("pages") or [None])[0]) for sid, r in zip(ids, recs, strict=True) if r
        ]
        if kept:
            found.append((rank, u, kept))
    vectors = vectors_of(index, embedder, "sentences", [k[0] for _, _, kept in found for k in kept])
    out, at = [], 0
    for rank, u, kept in found:
        out.append((rank, u, [k[1:] for k in kept], vectors[at : at + len(kept)]))
        at += len(kept)
    return out


def evidence_units(
    index: Index,
    embedder: Embedder,
    question: str | Question,
    units: list[Unit],
    budget: int,
    *,
    rank_weight: float = RANK_WEIGHT,
    k1: int = FIRST_HOP,
    k2: int = SECOND_HOP,
    whole: bool = False,
) -> list[Unit]:
    """The evidence sentences of ``units`` for ``question``, at most ``budget`` tokens (see the
    module doc), as one ``evidence`` unit per passage, passages in context order. Empty when the
    passages have no sentences (nothing to select from). ``whole``: the passage (a section of its
    page, text/chunking.py) of the best sentence is read whole where it fits half the budget,
    its heading, paragraphs and list items in their order (a rule with its conditions and
    exceptions), before the first hop's sentences."""
    per = _sentences(index, embedder, units)
    if not per:
        return []
    typed = as_question(question)
    q = embedder.encode_one(typed.read_as)
    if typed.situated:  # the question proper picks the rule; the situation steers to its case
        q = (1 - SITUATION_WEIGHT) * q + SITUATION_WEIGHT * embedder.encode_one(typed.text)
    # (score, passage position in `per`, sentence index, tokens, text)
    scored: list[tuple[float, int, int, int, str]] = []
    for p, (rank, u, sents, vectors) in enumerate(per):
        title = normalize(u.title)
        for i, ((text, tokens, _), cos) in enumerate(zip(sents, vectors @ q, strict=True)):
            if i == 0 and title and normalize(text) == title:
                continue  # the title line: the group header says it
            scored.append((float(cos) + rank_weight / (1 + rank), p, i, tokens, text))
    scored.sort(key=lambda s: -s[0])
    chosen: dict[tuple[int, int], str | None] = {}
    if whole and scored:  # the rule's section, whole: its conditions and exceptions stand around it
        p = scored[0][1]
        if sum(t for _, t, _ in per[p][2]) <= budget // 2:
            chosen.update({(p, i): None for i in range(len(per[p][2]))})
    chosen.update({(s[1], s[2]): None for s in scored[:k1] if (s[1], s[2]) not in chosen})

    asked = {normalize(r) for r in capitalised_runs(typed.text)}
    keys: set[str] = set()
    for _, p, _, _, text in scored[:k1]:
        keys.update(k for k in map(normalize, capitalised_runs(text)) if len(k) > 2 and k not in asked)
        title = normalize(per[p][1].title)
        if title and title not in asked:
            keys.add(title)
    first_hop = {s[1] for s in scored[:k1]}
    linked = 0
    for _, p, i, _, text in scored:
        if linked == k2:
            break
        if p in first_hop or (p, i) in chosen:
            continue
        title, body = normalize(per[p][1].title), f" {normalize(text)} "
        key = title if title in keys else next((k for k in keys if f" {k} " in body), None)
        if key:
            chosen[(p, i)] = key
            linked += 1

    held = sum(s[3] for s in scored if (s[1], s[2]) in chosen)
    for _, p, i, tokens, _ in scored:
        if held >= budget:
            break
        if (p, i) not in chosen and held + tokens <= budget:
            chosen[(p, i)] = None
            held += tokens

    out = []
    for p, (_, u, sents, _) in enumerate(per):
        picked = sorted(i for passage, i in chosen if passage == p)
        if not picked:
            continue
        head = f"{u.title}: " if u.title else ""
        lines = [" ".join(sents[i][0].split()) for i in picked]
        keys_here = sorted({chosen[(p, i)] for i in picked if chosen[(p, i)]})
        out.append(
            replace(
                u,
                kind="evidence",
                id=f"{u.chunk_id}#evidence",
                text=head + _joined(lines),
                tokens=sum(sents[i][1] for i in picked),
                meta={**u.meta, "of": u.id, "sentences": len(picked), "linked_by": keys_here},
                provenance=_narrowed(u.provenance, len(head), lines, [sents[i][2] for i in picked]),
            )
        )
    return out


def _joined(lines: list[str]) -> str:
    """The sentences picked, one space apart, a table row on a line of its own (text/rows.py):
    "… End: 31 March 2027 Current research projects — Project: …" would read as one sentence,
    its neighbours' dates dating it (the check, binding.py). So is a page's list item, a line
    with no full stop after a lead that ends with a colon ("You'll get:" / "tax relief on income,
    gains and profits" / "Gift Aid repayments on donations"): run together, its items read as one
    phrase. One character either way, so the offsets `_narrowed` counts hold."""
    out, last_row, in_list, last_item = "", False, False, False
    for n, line in enumerate(lines):
        row = parse_row(line) is not None
        item = in_list and not ENDS_SENTENCE.search(line)
        out += ("" if n == 0 else "\n" if row or last_row or item or last_item else " ") + line
        last_row, in_list, last_item = row, line.endswith(":") or item, item
    return out


def _narrowed(provenance: dict, offset: int, lines: list[str], pages: list[int | None]) -> dict:
    """The passage's provenance cut to the sentences picked: the pages they stand on, and where
    each page starts in the evidence text (provenance.page_at), so a citation names the page."""
    if not provenance.get("pages") or None in pages:
        return provenance
    starts: list[list[int]] = []
    for line, page in zip(lines, pages):
        if not starts or starts[-1][1] != page:
            starts.append([offset, page])
        offset += len(line) + 1
    starts[0][0] = 0
    out = {k: v for k, v in provenance.items() if k != "page_starts"}
    return {**describe(provenance.get("file", ""), {**out, "pages": [min(pages), max(pages)]}), "page_starts": starts}
