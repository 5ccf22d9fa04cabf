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

import numpy as np
import scipy.sparse as sp

from ..embed import Embedder
from ..extract import names as nm
from ..extract.kg import normalize_name
from ..llm import MeteredLLM, PromptTooLongError
from ..progress import bar
from ..store import Index
from ..store.stages import fingerprint, save_stage, stage_record
from .skeleton import pending_chunks

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


def extract_names(index: Index, llm: MeteredLLM, chunk_ids: list[str], *, batch: int = 5, max_tokens: int = 60,
                  progress: bool | None = None) -> NamesReport:  # fmt: skip
    """Names of every chunk in ``chunk_ids`` not yet done; ``max_tokens`` caps the output per
    passage (a call's cap is that times the passages in it)."""
    report = NamesReport(chunks=len(chunk_ids))
    t0 = time.perf_counter()
    made_by = extractor_fingerprint(llm, batch, max_tokens)
    todo = pending_chunks(index, chunk_ids, made_by, table="names")
    report.already = len(chunk_ids) - len(todo)
    pb = bar(total=len(todo), desc="extracting names (terag)", unit="chunk", enabled=progress)
    try:
        for start in range(0, len(todo), batch):
            group = [(cid, c["text"]) for cid, c in zip(todo[start : start + batch], index.get_many("chunks", todo[start : start + batch])) if c]
            got = _call(llm, group, max_tokens, report)
            empty = [cid for cid, text in group if cid in got and not (got[cid][0].entities or got[cid][0].concepts)]
            if len(group) > 1:
                for cid, text in [(c, t) for c, t in group if c in empty]:
                    report.retried += 1
                    first = got[cid][1]
                    for rid, (names, share) in _call(llm, [(cid, text)], max_tokens, report).items():
                        # the passage cost its share of the batch and the whole retry
                        got[rid] = (names, {**share, **{k: share[k] + first[k] for k in ("prompt_tokens", "output_tokens", "seconds")}})
            with index.tables.write() as txn:
                for cid, (names, share) in got.items():
                    index.tables.put(txn, "names", cid, {**names.to_dict(), **share, "extractor": made_by})
            for cid, (names, _) in got.items():
                report.extracted += 1
                report.entities += len(names.entities)
                report.concepts += len(names.concepts)
                report.invented += names.invented
                if not (names.entities or names.concepts):
                    report.zero_yield.append(cid)
                    log.warning("chunk %s yielded no entity or concept", cid)
            pb.set_postfix(entities=report.entities, zero=len(report.zero_yield), refresh=False)
            pb.update(len(group))
    finally:
        pb.close()
    report.seconds = time.perf_counter() - t0
    return report


def _call(llm: MeteredLLM, group: list[tuple[str, str]], max_tokens: int, report: NamesReport) -> dict[str, tuple[nm.Names, dict]]:
    """One call for ``group``; each passage's names and its share of the call's tokens. A
    batch too long for the window is split in halves; a single passage too long is skipped."""
    if not group:
        return {}
    texts = [t for _, t in group]
    try:
        c = llm.chat(nm.messages(texts), stage="extract", method="terag", max_tokens=max_tokens * len(texts), halt=nm.halt_for(len(texts)),
                     sources=[cid for cid, _ in group], validate=lambda out: any(p.entities or p.concepts for p in nm.parse_batch(out, texts).passages))  # fmt: skip
    except PromptTooLongError as e:
        if len(group) == 1:
            log.warning("chunk %s skipped: %s", group[0][0], e)
            report.too_long.append(group[0][0])
            return {}
        half = len(group) // 2
        return {**_call(llm, group[:half], max_tokens, report), **_call(llm, group[half:], max_tokens, report)}
    report.calls += 1
    parsed = nm.parse_batch(c.text, texts)
    report.unparsed_lines += parsed.unparsed
    n = len(group)
    share = {"prompt_tokens": c.prompt_tokens / n, "output_tokens": c.output_tokens / n, "seconds": c.seconds / n, "cached": c.cached, "batch": n}
    return {cid: (names, share) for (cid, _), names in zip(group, parsed.passages)}


def _made_from(chunk_ids: list[str], recs: list) -> str:
    return fingerprint([f"{c}|{(r or {}).get('extractor', '')}" for c, r in zip(chunk_ids, recs)])


def names_graph_current(index: Index, embedder: Embedder, chunk_ids: list[str]) -> bool:
    """Whether the TERAG graph is built over exactly these chunks' stored names."""
    old = stage_record(index.tables, STAGE)
    return old is not None and old.get("made_from") == _made_from(chunk_ids, index.get_many("names", chunk_ids)) \
        and old.get("embedder") == embedder.model_id


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
        "made_from": made_from, "embedder": embedder.model_id, "passages": n_p,
        "passages_with_names": int((np.diff(c2p.tocsc().indptr) > 0).sum()), "concepts": n_c,
        "entities": kinds.count("entity"), "concept_edges": int(co.nnz // 2), "passage_edges": int(c2p.nnz),
        "seconds": time.perf_counter() - t0,
    }  # fmt: skip
    return save_stage(index.tables, STAGE, record, {
        "adj": adj, "C2P": c2p, "labels": np.asarray(labels), "kinds": np.asarray(kinds), "vectors": vecs,
        "keys": np.asarray([normalize_name(x) for x in labels]), "pf": np.asarray(c2p.sum(axis=1)).ravel(),
        "ids": np.asarray(chunk_ids), "tokens": tokens,
    })  # fmt: skip
