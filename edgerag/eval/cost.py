"""What a method's index cost: the LLM tokens and the seconds of every stage it reads.

A method is charged for each stage it reads, whoever built it first. `ket` at β = 0.2 is
charged the extraction of its ⌈β·n⌉ core chunks (KET-RAG §4.1) even when a β = 1 build paid
for them earlier. So a result does not depend on the order methods were built in, and a
method is priced as if its index were built from scratch, as the KET-RAG and G2ConS papers
price theirs in USD. Chunking and embedding, which every method shares, are
counted once per result file (`ingest_seconds`), not per method.

LLM seconds are the model time stored with each chunk's extraction. Records written before
that was stored (and cache hits, which never ran here) get an estimate from this index's
ledger speed; `llm_seconds_estimated` counts them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..build import llm_chunks, model_speeds
from ..graph import bipartite, concept_graph, knn, links, names_graph
from ..graph.kg import stage_name
from ..methods import get
from ..store.stages import stage_record


@dataclass
class IndexCost:
    """Indexing spent on the stages one method reads (see the module docstring)."""

    input_tokens: int = 0
    """LLM prompt tokens: extraction of the method's chunks, plus KG description summaries."""
    output_tokens: int = 0
    """LLM output tokens, the same calls."""
    llm_chunks: int = 0
    """Chunks whose LLM extraction the method reads."""
    llm_seconds: float = 0.0
    """Model time of those calls."""
    llm_seconds_estimated: int = 0
    """How many of the chunks' seconds are estimated from the ledger's speed, not measured."""
    graph_seconds: float = 0.0
    """Build time of the LLM-free graphs and of merging extractions into a graph."""
    stages: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Stages the method reads that are not built (their cost is not in the figures)."""

    @property
    def seconds(self) -> float:
        return self.llm_seconds + self.graph_seconds

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "seconds": self.seconds}


def stages_of(rag, method: str) -> list[str]:
    """Names of the stages ``method`` reads under ``rag.settings``: its LLM-free graphs, the
    graph that ranks its KG's core, then its LLM stage (the registry, methods.py)."""
    m, s = get(method), rag.settings
    names = {"knn": knn.stage(s.knn_k), "bipartite": bipartite.STAGE, "concepts": concept_graph.stage(s), "links": links.STAGE}
    core = m.core_graph(s.core_selection)
    out = [names[g] for g in dict.fromkeys([*m.graphs, *([core] if core else [])])]
    if m.names:
        out.append(names_graph.STAGE)
    if m.kg is not None:
        out.append(stage_name(*m.kg_core(s)))
    return out


def index_cost(rag, method: str) -> IndexCost:
    """The LLM tokens and seconds of the stages ``method`` reads (built or not)."""
    cost = IndexCost(stages=stages_of(rag, method))
    tables = rag.index.tables
    for name in cost.stages:
        rec = stage_record(tables, name)
        if rec is None:
            cost.missing.append(name)
            continue
        cost.graph_seconds += float(rec.get("seconds", 0.0)) - float(rec.get("llm_seconds", 0.0))
        cost.input_tokens += int(rec.get("llm_input", 0))
        cost.output_tokens += int(rec.get("llm_output", 0))
        cost.llm_seconds += float(rec.get("llm_seconds", 0.0))
    reads = llm_chunks(rag, method)
    if reads is None:
        return cost
    table, chunks, made_by = reads
    per_token = _ledger_speed(rag, "terag" if table == "names" else None)
    tokens_in = tokens_out = 0.0  # TERAG stores each passage's share of a batched call: sum, then round
    for rec in rag.index.get_many(table, chunks):
        if rec is None or rec.get("extractor") != made_by:  # not what the current stage reads
            continue
        cost.llm_chunks += 1
        tokens_in += rec.get("prompt_tokens", 0)
        tokens_out += rec.get("output_tokens", 0)
        if "seconds" in rec and not rec.get("cached"):
            cost.llm_seconds += float(rec["seconds"])
        else:
            cost.llm_seconds_estimated += 1
            cost.llm_seconds += per_token(rec.get("prompt_tokens", 0), rec.get("output_tokens", 0))
    cost.input_tokens += round(tokens_in)
    cost.output_tokens += round(tokens_out)
    return cost


def _ledger_speed(rag, method: str | None):
    """seconds(prompt, output) for one extraction, from this index's fresh extraction calls
    (TERAG's own when ``method`` is "terag", else the KG extractor's): the share of prompt
    tokens the model evaluated (the rest reused from the previous prompt) and the prompt and
    generation rates `build.plan` fits."""
    rows = [
        r
        for r in rag.ledger_rows()
        if r.stage == "extract" and not r.cached and r.prompt_tokens and (r.method == "terag") == (method == "terag")
    ]
    share = sum(r.evaluated_tokens for r in rows) / max(sum(r.prompt_tokens for r in rows), 1) if rows else 1.0
    p_tps, g_tps, _ = model_speeds(rag)
    return lambda prompt, output: share * prompt / p_tps + output / g_tps
