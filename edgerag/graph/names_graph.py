"""TERAG's graph (Xiao, Tsang, Bai 2025, §3.1–3.2): passages and the names in them.

1. `extract_names` — the LLM work, ``Settings.terag_batch`` passages per call (extract/names.py),
   each passage's names committed in the ``names`` table as its call returns, so a killed
   build resumes at the next batch and nothing is extracted twice. A passage the batch answer
   left empty (the model stopped early, or skipped it) is retried once on its own; one that
   still yields nothing is counted and logged as zero-yield.
2. `build_names_graph` — no LLM. Concept nodes are the entities and concepts, deduplicated
   by normalised (kind, name) (Eq. 2); edges: concept → passage for every passage naming it,
   and concept ↔ concept for every two names of one passage (co-occurrence). Node vectors are
   the embedded names, for semantic matching of query entities. Stored as the stage ``terag``.

Node order in the adjacency: the concepts first (0 … C−1), then the passages (C … C+P−1).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ..embed.embedder import Embedder
from ..extract import names as nm
from ..extract.kg import normalize_name
from ..llm.metered import Call, Done, MeteredLLM, Runner, run_here
from ..progress import bar
from ..store import Index
from ..store.stages import fingerprint, load_stage, save_stage, stage_record
from .kg import extractor_models, pending_chunks

log = logging.getLogger(__name__)

STAGE = "terag"


@dataclass
class NamesReport:
    chunks: int = 0
    extracted: int = 0
    already: int = 0
    calls: int = 0
    retried: int = 0
    """Passages an answer left empty, asked again on their own."""
    zero_yield: list[str] = field(default_factory=list)
    too_long: list[str] = field(default_factory=list)
    entities: int = 0
    concepts: int = 0
    invented: int = 0
    unparsed_lines: int = 0
    seconds: float = 0.0


def extractor_fingerprint(llm: MeteredLLM, batch: int, max_tokens: int) -> str:
    return f"{nm.VERSION}|{llm.llm.sha256[:16]}|batch={batch}|max={max_tokens}"


def names_call(llm: MeteredLLM, texts: list[str], max_tokens: int) -> Call:
    """The names call for a batch of passages (not run); its output cap is ``max_tokens`` a passage."""
    return llm.prepare(nm.messages(texts), max_tokens=max_tokens * len(texts), halt=nm.halt_for(len(texts)))


def extract_names(
    index: Index,
    llm: MeteredLLM,
    chunk_ids: list[str],
    *,
    batch: int = 5,
    max_tokens: int = 60,
    progress: bool | None = None,
    runner: Runner | None = None,
) -> NamesReport:
    """Names of every chunk in ``chunk_ids`` not yet done, ``batch`` passages a call (TERAG
    §3.1); ``max_tokens`` caps the output per passage.

    Rounds of calls: first every batch; a passage a batch answer left empty is asked again on
    its own in the next round (small models skip passages of a batch), and a batch too long
    for the window is split in halves; a single passage too long is skipped. ``runner``
    computes the calls (`run_here`, or Ray workers: cluster/indexing.py); each answer is committed
    as it comes back, its cache entry, ledger row and the names of its passages in one
    transaction (`_commit`)."""
    report = NamesReport(chunks=len(chunk_ids))
    t0 = time.perf_counter()
    made_by = extractor_fingerprint(llm, batch, max_tokens)
    todo = pending_chunks(index, chunk_ids, made_by, table="names")
    report.already = len(chunk_ids) - len(todo)
    pb = bar(total=len(todo), desc="extracting names (terag)", unit="chunk", enabled=progress)
    first_share: dict[str, dict] = {}  # a retried passage's share of the batch that left it out

    def first_round():
        for start in range(0, len(todo), batch):
            ids = todo[start : start + batch]
            group = [(cid, c["text"]) for cid, c in zip(ids, index.get_many("chunks", ids)) if c]
            pb.update(len(ids) - len(group))  # deleted meanwhile
            if group:
                yield group

    def jobs(groups):
        for group in groups:
            yield group, names_call(llm, [t for _, t in group], max_tokens)

    try:
        groups = first_round()
        while groups:
            later: list[list[tuple[str, str]]] = []
            for done in (runner or run_here)(llm, jobs(groups)):
                group = done.tag
                if done.completion is None:
                    if len(group) > 1:
                        later += [group[: len(group) // 2], group[len(group) // 2 :]]
                        continue
                    log.warning("chunk %s skipped: %s", group[0][0], done.error)
                    report.too_long.append(group[0][0])
                    pb.update(1)
                    continue
                committed, again = _commit(index, llm, done, made_by, first_share, report)
                later += [[p] for p in again]
                pb.set_postfix(entities=report.entities, zero=len(report.zero_yield), refresh=False)
                pb.update(committed)
            groups = later
    finally:
        pb.close()
    report.seconds = time.perf_counter() - t0
    return report


def _commit(
    index: Index, llm: MeteredLLM, done: Done, made_by: str, first_share: dict[str, dict], report: NamesReport
) -> tuple[int, list[tuple[str, str]]]:
    """Commit one answered call in one transaction: its cache entry and ledger row, and the
    names of each passage it answered. A passage of a batch (not yet retried) that the answer
    left empty is not committed but returned, to be asked again alone; a retried passage is
    billed its share of the batch and the whole retry. Returns (passages committed, retries)."""
    group, c = done.tag, done.completion
    texts = [t for _, t in group]
    parsed = nm.parse_batch(c.text, texts)
    report.calls += 1
    report.unparsed_lines += parsed.unparsed
    n = len(group)
    share = {
        "prompt_tokens": c.prompt_tokens / n,
        "output_tokens": c.output_tokens / n,
        "seconds": c.seconds / n,
        "cached": c.cached,
        "batch": n,
    }
    keep, again = [], []
    for (cid, text), names in zip(group, parsed.passages):
        if n > 1 and not (names.entities or names.concepts) and cid not in first_share:
            first_share[cid] = share
            again.append((cid, text))
            report.retried += 1
            continue
        first = first_share.pop(cid, None)
        mine = share if first is None else {**share, **{k: share[k] + first[k] for k in ("prompt_tokens", "output_tokens", "seconds")}}
        keep.append((cid, names, mine))
    ok = any(p.entities or p.concepts for p in parsed.passages)
    with index.tables.write() as txn:
        llm.record(txn, done.call, c, stage="extract", method="terag", ok=ok, sources=[cid for cid, _ in group], node=done.node)
        for cid, names, mine in keep:
            index.tables.put(txn, "names", cid, {**names.to_dict(), **mine, "extractor": made_by})
    for cid, names, _ in keep:
        report.extracted += 1
        report.entities += len(names.entities)
        report.concepts += len(names.concepts)
        report.invented += names.invented
        if not (names.entities or names.concepts):
            report.zero_yield.append(cid)
            log.warning("chunk %s yielded no entity or concept", cid)
    return len(keep), again


def _made_from(chunk_ids: list[str], recs: list) -> str:
    return fingerprint([f"{c}|{(r or {}).get('extractor', '')}" for c, r in zip(chunk_ids, recs)])


def names_graph_current(index: Index, embedder: Embedder, chunk_ids: list[str]) -> bool:
    """Whether the TERAG graph is built over exactly these chunks' stored names."""
    old = stage_record(index.tables, STAGE)
    return (
        old is not None
        and old.get("made_from") == _made_from(chunk_ids, index.get_many("names", chunk_ids))
        and old.get("embedder") == embedder.model_id
    )


def build_names_graph(index: Index, embedder: Embedder, chunk_ids: list[str], made_by: str | None) -> dict:
    """The TERAG graph over ``chunk_ids`` from their stored names (rebuilt only when they
    changed). Names made by another extractor than ``made_by`` are left out; ``None`` takes
    every stored record (a rebuild after a delete, with no model loaded)."""
    recs = index.get_many("names", chunk_ids)
    made_from = _made_from(chunk_ids, recs)
    old = stage_record(index.tables, STAGE)
    if old is not None and old.get("made_from") == made_from and old.get("embedder") == embedder.model_id:
        return old
    t0 = time.perf_counter()
    node: dict[tuple[str, str], int] = {}
    labels: list[str] = []
    kinds: list[str] = []
    rows, cols = [], []  # concept × passage
    for p, rec in enumerate(recs):
        if rec is None or (made_by is not None and rec.get("extractor") != made_by):
            continue
        for kind in ("entities", "concepts"):
            for name in rec[kind]:
                key = (kind, normalize_name(name))
                if key not in node:
                    node[key] = len(labels)
                    labels.append(name)
                    kinds.append(kind[:-1] if kind == "concepts" else "entity")
                rows.append(node[key])
                cols.append(p)
    n_c, n_p = len(labels), len(chunk_ids)
    c2p = sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n_c, n_p))
    c2p.data[:] = 1.0
    co = (c2p @ c2p.T).tocsr()  # concepts named by one passage
    co.setdiag(0)
    co.eliminate_zeros()
    co.data[:] = 1.0
    adj = sp.bmat([[co, c2p], [sp.csr_matrix((n_p, n_c)), sp.csr_matrix((n_p, n_p))]], format="csr")
    vecs = embedder.encode(labels) if labels else np.zeros((0, embedder.dim), dtype=np.float32)
    tokens = np.asarray([(c or {}).get("tokens", 0) for c in index.get_many("chunks", chunk_ids)], dtype=np.int64)
    record = {
        "made_from": made_from,
        "embedder": embedder.model_id,
        "models": extractor_models([r for r in recs if r is not None and (made_by is None or r.get("extractor") == made_by)]),
        "passages": n_p,
        "passages_with_names": int((np.diff(c2p.tocsc().indptr) > 0).sum()),
        "concepts": n_c,
        "entities": kinds.count("entity"),
        "concept_edges": int(co.nnz // 2),
        "passage_edges": int(c2p.nnz),
        "seconds": time.perf_counter() - t0,
    }
    return save_stage(
        index.tables,
        STAGE,
        record,
        {
            "adj": adj,
            "C2P": c2p,
            "labels": np.asarray(labels),
            "kinds": np.asarray(kinds),
            "vectors": vecs,
            "keys": np.asarray([normalize_name(x) for x in labels]),
            "pf": np.asarray(c2p.sum(axis=1)).ravel(),
            "ids": np.asarray(chunk_ids),
            "tokens": tokens,
        },
    )


@dataclass(frozen=True, eq=False)
class TeragGraph:
    """The stage ``terag``: concept and entity nodes (first ``len(labels)`` rows) and passages."""

    adj: sp.csr_matrix
    """Nodes × nodes: concepts named by one passage linked to each other, and to the passage."""
    C2P: sp.csr_matrix
    """Concepts × passages that name them."""
    labels: np.ndarray
    kinds: np.ndarray
    vectors: np.ndarray
    keys: np.ndarray
    """Each label normalised for exact matching."""
    pf: np.ndarray
    """Passage frequency of each concept (the 1/pf weight of a seed)."""
    ids: np.ndarray
    tokens: np.ndarray

    @cached_property
    def key_index(self) -> dict[str, list[int]]:
        """Normalised name → its concept rows."""
        idx: dict[str, list[int]] = {}
        for i, k in enumerate(self.keys):
            idx.setdefault(str(k), []).append(i)
        return idx


def load_names_graph(index: Index) -> TeragGraph:
    """The built TERAG graph."""
    return load_stage(index.tables, STAGE, TeragGraph)
