"""The skeleton KG: LLM extraction on the core chunks, merged into one entity–relation graph
(KET-RAG Alg. 1, §4.1), with entities and relations rewired to the sub-chunks they came from.

Two steps with different costs:

1. `extract_chunks` — the LLM work. One call per chunk, its parsed result stored in the
   ``extractions`` table the moment it returns, so a killed build resumes at the next chunk
   and never extracts a chunk twice (the LLM-call cache makes even a repeated call free). A
   chunk that yields no entity is counted and logged, never silently passed over.
2. `build_kg` — cheap, no LLM unless descriptions overflow. Merges the extractions of a set of
   chunks (the core for one β and selection rule) by normalised entity name; an entity's
   description is the (up to two) sentences of its chunks that mention it — the extractor
   writes names only — or, for older extractions, the model's descriptions, accumulated and
   summarised by the LLM only past ``desc_limit`` tokens;
   entity ("name: description") and relation texts are embedded; each entity/relation links
   to the sub-chunks of its chunks that mention it (all sub-chunks of the chunk if none does).

Stored as a stage named ``kg:<selection>:<β>`` so KGs for several β live side by side over
the same extractions.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..embed.embedder import Embedder
from ..extract import kg as kgx
from ..llm.local import Completion
from ..llm.metered import Call, MeteredLLM, Runner, run_here
from ..progress import bar
from ..store import Index
from ..store.stages import fingerprint, load_stage, save_stage, stage_record

log = logging.getLogger(__name__)

SUMMARY_INSTRUCTION = (
    "Merge the descriptions of one entity into a single short description (at most two sentences). Write only the description."
)


@dataclass
class ExtractionReport:
    chunks: int = 0
    extracted: int = 0
    already: int = 0
    zero_yield: list[str] = field(default_factory=list)
    too_long: list[str] = field(default_factory=list)
    """Chunks whose prompt does not fit the model's window (raise n_ctx or lower ℓ)."""
    entities: int = 0
    relations: int = 0
    invented: int = 0
    unparsed_lines: int = 0
    seconds: float = 0.0


def extractor_fingerprint(llm: MeteredLLM, grammar: bool, max_tokens: int) -> str:
    """What made an extraction: prompt/parser version, model, grammar, output cap."""
    return f"{kgx.VERSION}|{llm.llm.sha256[:16]}|grammar={int(bool(grammar))}|max={max_tokens}"


def extractor_model(made_by: str) -> str:
    """The model named in an extractor fingerprint (KG or TERAG): a known model's name, else
    the first 16 hex digits of its sha256."""
    from ..llm.models import KNOWN_MODELS

    parts = made_by.split("|")
    sha = parts[1] if len(parts) > 1 else ""
    return next((m.name for m in KNOWN_MODELS.values() if sha and m.sha256.startswith(sha)), sha or "unknown")


def extractor_models(records: list) -> dict[str, int]:
    """How many of these stored extractions each model made: what a stage records as its
    ``models`` (one model, unless a build was told to mix them)."""
    out: dict[str, int] = {}
    for rec in records:
        if rec is not None:
            name = extractor_model(rec.get("extractor", ""))
            out[name] = out.get(name, 0) + 1
    return out


def pending_chunks(index: Index, chunk_ids: list[str], made_by: str, table: str = "extractions") -> list[str]:
    """Chunks with no result in ``table`` (KG ``extractions`` or TERAG ``names``), or one made
    by another extractor (prompt version, model, grammar or batch, cap): the one rule for what
    a build, its plan and its completeness check count."""
    return [cid for cid, rec in zip(chunk_ids, index.get_many(table, chunk_ids)) if rec is None or rec.get("extractor") != made_by]


def stage_name(selection: str, beta: float) -> str:
    return f"kg:{selection}:{beta:g}"


def extraction_call(llm: MeteredLLM, text: str, *, grammar: bool, max_tokens: int) -> Call:
    """The KG extraction call for one chunk's text (not run)."""
    return llm.prepare(kgx.messages(text), max_tokens=max_tokens, grammar=kgx.GRAMMAR if grammar else None, halt=kgx.halt_on_repeat)


def commit_extraction(
    index: Index, llm: MeteredLLM, cid: str, text: str, call: Call, c: Completion, *, made_by: str, method: str, node: str = ""
) -> kgx.Extraction:
    """Parse one chunk's completion and commit it in one write transaction: the call's cache
    entry and ledger row (`MeteredLLM.record`) and the chunk's extraction. A build killed
    before this commit redoes the chunk; one killed after it skips the chunk; either way the
    ledger bills the chunk once. Local and distributed builds both commit through here."""
    ex = kgx.parse(c.text, text)
    with index.tables.write() as txn:
        llm.record(txn, call, c, stage="extract", method=method, ok=bool(ex.entities), sources=[cid], node=node)
        index.tables.put(
            txn,
            "extractions",
            cid,
            {
                **ex.to_dict(),
                "prompt_tokens": c.prompt_tokens,
                "output_tokens": c.output_tokens,
                "cached": c.cached,
                "seconds": c.seconds,
                "extractor": made_by,
            },
        )
    return ex


def extract_chunks(
    index: Index,
    llm: MeteredLLM,
    chunk_ids: list[str],
    method: str,
    *,
    grammar: bool = False,
    max_tokens: int = 400,
    progress: bool | None = None,
    runner: Runner | None = None,
) -> ExtractionReport:
    """Extract every chunk of ``chunk_ids`` not yet extracted (resumable, one commit per chunk).

    ``runner`` computes the calls: by default `run_here`, one after another in this process;
    cluster/indexing.py's runs them on Ray workers and hands them back as they finish. Either way
    this process commits each chunk the moment it is back (`commit_extraction`)."""
    report = ExtractionReport(chunks=len(chunk_ids))
    t0 = time.perf_counter()
    made_by = extractor_fingerprint(llm, grammar, max_tokens)
    todo = pending_chunks(index, chunk_ids, made_by)
    report.already = len(chunk_ids) - len(todo)
    pb = bar(total=len(todo), desc=f"extracting ({method})", unit="chunk", enabled=progress)

    def jobs():
        for cid in todo:
            chunk = index.get("chunks", cid)
            if chunk is None:  # deleted meanwhile
                pb.update(1)
                continue
            yield (cid, chunk["text"]), extraction_call(llm, chunk["text"], grammar=grammar, max_tokens=max_tokens)

    try:
        for done in (runner or run_here)(llm, jobs()):
            cid, text = done.tag
            if done.completion is None:  # one oversized chunk must not stop the build
                log.warning("chunk %s skipped: %s", cid, done.error)
                report.too_long.append(cid)
                pb.update(1)
                continue
            ex = commit_extraction(index, llm, cid, text, done.call, done.completion, made_by=made_by, method=method, node=done.node)
            report.extracted += 1
            report.entities += len(ex.entities)
            report.relations += len(ex.relations)
            report.invented += ex.invented
            report.unparsed_lines += ex.unparsed
            if not ex.entities:
                report.zero_yield.append(cid)
                log.warning(
                    "chunk %s yielded no entity (%d output lines, %d unparsed, %d invented)", cid, ex.lines, ex.unparsed, ex.invented
                )
            pb.set_postfix(entities=report.entities, zero=len(report.zero_yield), refresh=False)
            pb.update(1)
    finally:
        pb.close()
    report.seconds = time.perf_counter() - t0
    return report


def _made_from(chunk_ids: list[str], extractions: list, embedder: Embedder) -> str:
    return fingerprint([f"{c}|{(e or {}).get('extractor', '')}" for c, e in zip(chunk_ids, extractions)] + [embedder.model_id])


def kg_current(index: Index, embedder: Embedder, chunk_ids: list[str], name: str) -> bool:
    """Whether the KG stage ``name`` is built over exactly these chunks' stored extractions."""
    rec = stage_record(index.tables, name)
    return rec is not None and rec.get("chunk_set") == _made_from(chunk_ids, index.get_many("extractions", chunk_ids), embedder)


def build_kg(
    index: Index,
    embedder: Embedder,
    chunk_ids: list[str],
    name: str,
    *,
    llm: MeteredLLM | None = None,
    method: str = "kg",
    desc_limit: int = 200,
) -> dict:
    """Merge the extractions of ``chunk_ids`` into the KG stage ``name`` (rebuilt only when the
    chunk set changed)."""
    extractions = index.get_many("extractions", chunk_ids)
    made_from = _made_from(chunk_ids, extractions, embedder)
    rec = stage_record(index.tables, name)
    if rec is not None and rec.get("chunk_set") == made_from:
        return rec
    t0 = time.perf_counter()
    ents: dict[str, dict] = {}
    rels: dict[tuple[str, str], dict] = {}
    extracted = 0
    spent = {"llm_input": 0, "llm_output": 0, "llm_seconds": 0.0}  # description summaries (LightRAG profiling)
    for cid, ex_rec in zip(chunk_ids, extractions):
        if ex_rec is None:
            continue
        extracted += 1
        ex = kgx.Extraction.from_dict(ex_rec)
        for e in ex.entities:
            key = kgx.normalize_name(e.name)
            slot = ents.setdefault(key, {"name": e.name, "types": defaultdict(int), "descs": [], "chunks": []})
            slot["types"][e.type] += 1
            if e.description and e.description not in slot["descs"]:
                slot["descs"].append(e.description)
            if cid not in slot["chunks"]:
                slot["chunks"].append(cid)
        for r in ex.relations:
            key = tuple(sorted((kgx.normalize_name(r.source), kgx.normalize_name(r.target))))
            slot = rels.setdefault(key, {"descs": [], "strength": 0.0, "chunks": [], "source": r.source, "target": r.target})
            if r.description and r.description not in slot["descs"]:
                slot["descs"].append(r.description)
            slot["strength"] += r.strength
            if cid not in slot["chunks"]:
                slot["chunks"].append(cid)
    names = list(ents)
    pos = {k: i for i, k in enumerate(names)}
    sentences = _sentences_of(index, chunk_ids)
    ent_texts = []
    for k in names:
        e = ents[k]
        if not e["descs"]:  # the compact format has none: the passage's own sentences describe it
            e["descs"] = [t for cid in e["chunks"] for t in sentences.get(cid, []) if kgx.mentions(kgx.squash(t), k)][:2]
        desc = "; ".join(e["descs"])
        if llm is not None and len(e["descs"]) > 1 and llm.count(desc) > desc_limit:
            desc = _summarize(llm, e["name"], e["descs"], method, e["chunks"], spent)
        e["desc"] = desc
        ent_texts.append(f"{e['name']}: {desc}" if desc else e["name"])
    rel_keys = [k for k in rels if k[0] in pos and k[1] in pos]
    rel_texts = [f"{rels[(a, b)]['source']} {'; '.join(rels[(a, b)]['descs'])} {rels[(a, b)]['target']}" for a, b in rel_keys]

    sub_ids, sub_pos, sub_text = _subchunks_of(index, chunk_ids)
    e2s = _links([(ents[k]["name"], ents[k]["chunks"]) for k in names], index, sub_pos, sub_text)
    r2s = _links([(ents[a]["name"] + "\x00" + ents[b]["name"], rels[(a, b)]["chunks"]) for a, b in rel_keys], index, sub_pos, sub_text)
    tokens = np.asarray([t for _, t in (sub_text[s] for s in sub_ids)], dtype=np.int64) if sub_ids else np.zeros(0, dtype=np.int64)
    ent_vecs = embedder.encode(ent_texts) if ent_texts else np.zeros((0, embedder.dim), dtype=np.float32)
    rel_vecs = embedder.encode(rel_texts) if rel_texts else np.zeros((0, embedder.dim), dtype=np.float32)
    record = {
        "chunk_set": made_from,
        "core_chunks": len(chunk_ids),
        "extracted_chunks": extracted,
        "models": extractor_models(extractions),
        "entities": len(names),
        "relations": len(rel_keys),
        "seconds": time.perf_counter() - t0,
        **spent,
    }
    return save_stage(
        index.tables,
        name,
        record,
        {
            "entity_names": np.asarray([ents[k]["name"] for k in names]),
            "entity_texts": np.asarray(ent_texts),
            "entity_chunks": np.asarray([ents[k]["chunks"][0] for k in names]),
            "entity_degree": np.bincount([pos[a] for a, _ in rel_keys] + [pos[b] for _, b in rel_keys], minlength=len(names)).astype(
                np.int64
            ),
            "entity_vectors": ent_vecs,
            "rel_src": np.asarray([pos[a] for a, _ in rel_keys], dtype=np.int64),
            "rel_dst": np.asarray([pos[b] for _, b in rel_keys], dtype=np.int64),
            "rel_texts": np.asarray(rel_texts),
            "rel_strength": np.asarray([rels[k]["strength"] for k in rel_keys]),
            "rel_chunks": np.asarray([rels[k]["chunks"][0] for k in rel_keys]),
            "rel_vectors": rel_vecs,
            "E2S": e2s,
            "R2S": r2s,
            "sub_ids": np.asarray(sub_ids),
            "sub_tokens": tokens,
            "chunks": np.asarray(chunk_ids, dtype=str),
        },
    )


@dataclass(frozen=True, eq=False)
class KnowledgeGraph:
    """A KG stage (``kg:{selection}:{β}``) as retrievers read it: entities, relations between
    them (``rel_src``/``rel_dst`` index the entities), and the sub-chunks that mention each."""

    entity_names: np.ndarray
    entity_texts: np.ndarray
    """"name: description" — what entity retrieval shows and embeds."""
    entity_chunks: np.ndarray
    """The first chunk that named each entity."""
    entity_degree: np.ndarray
    entity_vectors: np.ndarray
    rel_src: np.ndarray
    rel_dst: np.ndarray
    rel_texts: np.ndarray
    rel_strength: np.ndarray
    rel_chunks: np.ndarray
    rel_vectors: np.ndarray
    E2S: sp.csr_matrix
    """Entities × sub-chunks that mention them."""
    R2S: sp.csr_matrix
    """Relations × sub-chunks that mention both ends."""
    sub_ids: np.ndarray
    sub_tokens: np.ndarray
    chunks: np.ndarray | None = None
    """The core chunks it was merged from (None in stages built before it was stored)."""


def load_kg(index: Index, name: str) -> KnowledgeGraph:
    """The built KG stage ``name`` (`stage_name`)."""
    return load_stage(index.tables, name, KnowledgeGraph)


def _sentences_of(index: Index, chunk_ids: list[str]) -> dict[str, list[str]]:
    out = {}
    for cid, chunk in zip(chunk_ids, index.get_many("chunks", chunk_ids)):
        if chunk is not None:
            out[cid] = [s["text"] for s in index.get_many("sentences", chunk["sentences"]) if s]
    return out


def _subchunks_of(index: Index, chunk_ids: list[str]):
    sub_ids: list[str] = []
    sub_text: dict[str, tuple[str, int]] = {}
    for chunk in index.get_many("chunks", chunk_ids):
        if chunk is None:
            continue
        for sid, srec in zip(chunk["subchunks"], index.get_many("subchunks", chunk["subchunks"])):
            sub_ids.append(sid)
            sub_text[sid] = (kgx.squash(srec["text"]), srec["tokens"])
    return sub_ids, {s: i for i, s in enumerate(sub_ids)}, sub_text


def _links(items: list[tuple[str, list[str]]], index: Index, sub_pos: dict[str, int], sub_text) -> sp.csr_matrix:
    """Rows = items (entities, or relations as 'a\\0b'), columns = sub-chunks: the sub-chunks of
    the item's chunks that mention it (every sub-chunk of the chunk when none does)."""
    rows, cols = [], []
    chunk_subs = {}
    for r, (label, chunks) in enumerate(items):
        needles = [kgx.normalize_name(p) for p in label.split("\x00")]
        for cid in chunks:
            if cid not in chunk_subs:
                chunk_subs[cid] = (index.get("chunks", cid) or {}).get("subchunks", [])
            subs = [s for s in chunk_subs[cid] if s in sub_pos]
            hit = [s for s in subs if any(kgx.mentions(sub_text[s][0], n) for n in needles)] or subs
            for s in hit:
                rows.append(r)
                cols.append(sub_pos[s])
    return sp.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(items), len(sub_pos)))


def _summarize(llm: MeteredLLM, name: str, descs: list[str], method: str, chunks: list[str], spent: dict) -> str:
    """One entity's descriptions merged by the model; its tokens are added to ``spent`` (the
    KG stage's record keeps them, so a method reading the stage is charged for them)."""
    msgs = [
        {"role": "system", "content": SUMMARY_INSTRUCTION},
        {"role": "user", "content": f"Entity: {name}\nDescriptions:\n" + "\n".join(f"- {d}" for d in descs)},
    ]
    c = llm.chat(msgs, stage="summarize", method=method, max_tokens=120, validate=lambda t: bool(t.strip()), sources=chunks)
    spent["llm_input"] += c.prompt_tokens
    spent["llm_output"] += c.output_tokens
    spent["llm_seconds"] += c.seconds
    out = c.text.strip()
    return out or "; ".join(descs)
