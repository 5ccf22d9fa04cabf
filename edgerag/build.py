"""Building the stages a method reads, and planning the LLM cost before spending it.

LLM-free stages (the KNN graph, the keyword bipartite graph) are built on first use by the
retrievers themselves: seconds. LLM stages (the skeleton KG) are built only on request —
`edgerag build --method M` — because on a local model they take hours; `--plan` prints what
they will cost first: chunks to extract, input/output tokens, and time at the speed this
model has shown in the ledger (or, before any call, at an assumed speed it names).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .extract import kg as kgx
from .graph.bipartite import build_keyword_graph
from .graph.core_chunks import core_chunks
from .graph.knn import build_knn_graph
from .graph.skeleton import build_kg, extract_chunks, extractor_fingerprint, pending_chunks, stage_name
from .retrieve import KG_OF, METHODS

# Used only before this index's ledger holds a fresh LLM call to measure: the default 0.5B
# model on 2 CPU cores (benchmarks/llm_speed.py): ~120 prompt and ~24 generated tokens/s.
ASSUMED_PROMPT_TPS = 120.0
ASSUMED_GEN_TPS = 24.0
ASSUMED_OUTPUT_PER_CHUNK = 120


@dataclass
class Plan:
    method: str
    selection: str
    beta: float
    chunks: int
    core_chunks: int
    to_extract: int
    input_tokens: int
    evaluated_tokens: int
    output_tokens: int
    seconds: float
    basis: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        return (
            f"{self.method}: β={self.beta:g} ({self.selection}) → {self.core_chunks} of {self.chunks} chunks are core; "
            f"{self.to_extract} still to extract\n"
            f"estimate: {self.input_tokens:,} input tokens ({self.evaluated_tokens:,} evaluated after prefix reuse), "
            f"{self.output_tokens:,} output tokens, about {_hms(self.seconds)}\n"
            f"basis: {self.basis}"
        )


def kg_target(rag, method: str) -> tuple[str, float] | None:
    """(core selection, β) of the KG ``method`` reads, or None for LLM-free methods."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; available: {', '.join(sorted(METHODS))}")
    if method not in KG_OF:
        return None
    sel, beta = KG_OF[method]
    return sel or rag.settings.core_selection, rag.settings.beta if beta is None else beta


def plan(rag, method: str) -> Plan:
    target = kg_target(rag, method)
    index = rag.index
    n = index.counts()["chunks"]
    if target is None:
        return Plan(method, "-", 0.0, n, 0, 0, 0, 0, 0, 0.0, "no LLM stage: built on first query in seconds")
    selection, beta = target
    core = core_chunks(index, beta, selection, k=rag.settings.knn_k, damping=rag.settings.pagerank_damping, seed=rag.settings.seed)
    llm = rag.llm
    todo = pending_chunks(index, core, extractor_fingerprint(llm, rag.settings.extract_grammar, rag.settings.extract_max_tokens))
    done = index.get_many("extractions", [c for c in core if c not in set(todo)])
    instruction = llm.prompt_tokens(kgx.messages(""))
    body = sum(llm.count(" ".join(r["text"].split())) for r in index.get_many("chunks", todo))
    outs = [d["output_tokens"] for d in done if d is not None and not d.get("cached")]
    per_out = float(np.mean(outs)) if outs else ASSUMED_OUTPUT_PER_CHUNK
    input_tokens = len(todo) * instruction + body
    evaluated = body + (instruction if todo else 0)  # the instruction is evaluated once, then reused
    output = int(per_out * len(todo))
    p_tps, g_tps, basis = _speeds(rag)
    seconds = evaluated / p_tps + output / g_tps
    out_basis = f"{per_out:.0f} output tokens per chunk " + ("as measured on this index" if outs else "(assumed)")
    return Plan(method, selection, beta, n, len(core), len(todo), input_tokens, evaluated, output, seconds, f"{basis}; {out_basis}")


def _speeds(rag) -> tuple[float, float, str]:
    """Prompt and generation tokens/s of this model, measured on the ledger's fresh calls.

    Both rates are fitted (seconds ≈ evaluated/p + output/g) only when output lengths vary
    enough to separate them (extraction calls do; short answers do not); otherwise the
    generation rate is assumed and only the prompt rate is measured."""
    rows = [r for r in rag.ledger_rows() if not r.cached and r.seconds > 0 and r.model == rag.llm.llm.path.name]
    if len(rows) >= 3 and np.std([r.output_tokens for r in rows]) > 20:
        a = np.array([[r.evaluated_tokens, r.output_tokens] for r in rows], dtype=float)
        coef, *_ = np.linalg.lstsq(a, np.array([r.seconds for r in rows]), rcond=None)
        if coef[0] > 0 and coef[1] > 0:
            return 1 / coef[0], 1 / coef[1], f"{1 / coef[0]:.0f} prompt and {1 / coef[1]:.1f} generated tokens/s measured on {len(rows)} calls in this ledger"
    if rows:
        spent = sum(max(r.seconds - r.output_tokens / ASSUMED_GEN_TPS, 1e-3) for r in rows)
        p_tps = sum(r.evaluated_tokens for r in rows) / spent
        if p_tps > 0:
            return p_tps, ASSUMED_GEN_TPS, (f"{p_tps:.0f} prompt tokens/s measured on {len(rows)} calls in this ledger, "
                                            f"{ASSUMED_GEN_TPS:.0f} generated tokens/s assumed")
    return ASSUMED_PROMPT_TPS, ASSUMED_GEN_TPS, (
        f"assumed {ASSUMED_PROMPT_TPS:.0f} prompt / {ASSUMED_GEN_TPS:.0f} generated tokens/s "
        "(the default model on 2 cores; no calls in this ledger to measure yet)"
    )


def build(rag, method: str, limit: int | None = None) -> dict[str, Any]:
    """Build every stage ``method`` reads; ``limit`` caps how many chunks are extracted now
    (the rest resume on the next build)."""
    target = kg_target(rag, method)
    index = rag.index
    s = rag.settings
    out: dict[str, Any] = {"knn": build_knn_graph(index, k=s.knn_k)}
    if method in ("keyword", "ket", "ket-u"):
        out["bipartite"] = build_keyword_graph(index)
    if target is None:
        return out
    selection, beta = target
    core = core_chunks(index, beta, selection, k=s.knn_k, damping=s.pagerank_damping, seed=s.seed)
    todo = core if limit is None else core[: max(0, limit)]
    rag.index.lock()
    try:
        report = extract_chunks(index, rag.llm, todo, method, grammar=s.extract_grammar,
                                max_tokens=s.extract_max_tokens, progress=s.progress)  # fmt: skip
    finally:
        rag.index.unlock()
    out["extraction"] = asdict(report)
    missing = len(pending_chunks(index, core, extractor_fingerprint(rag.llm, s.extract_grammar, s.extract_max_tokens)))
    if missing:
        out["kg"] = {"pending_chunks": missing, "note": "run build again to extract the rest; the KG is built when the core is complete"}
        return out
    out["kg"] = build_kg(index, rag.embedder, core, stage_name(selection, beta), llm=rag.llm, method=method, desc_limit=s.desc_limit)
    return out


def _hms(seconds: float) -> str:
    h, rem = divmod(int(math.ceil(seconds)), 3600)
    m, s = divmod(rem, 60)
    return f"{h}h {m:02d}m" if h else f"{m}m {s:02d}s"
