"""Building the stages a method reads, and planning the LLM cost before spending it.

LLM-free stages (the KNN graph, the keyword bipartite graph, the concept graph) are built on
first use by the retrievers themselves: seconds. LLM stages (a KG over a β or κ core, TERAG's
names of every passage) are built only on request —
`edgerag build --method M` — because on a local model they take hours; `--plan` prints what
they will cost first: chunks to extract, input/output tokens, and time at the speed this
model has shown in the ledger (or, before any call, at an assumed speed it names), for the
model ``extract_model`` names and for every other installed model (`plans`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .embed.pieces import embed_missing
from .extract import kg as kgx
from .extract import names as nm
from .graph.bipartite import build_keyword_graph
from .graph.concept_graph import build_concept_graph
from .graph.core_chunks import core_chunks
from .graph.kg import build_kg, extract_chunks, extractor_fingerprint, extractor_model, kg_current, pending_chunks, stage_name
from .graph.knn import build_knn_graph
from .graph.links import build_links
from .graph.names_graph import STAGE as TERAG_STAGE
from .graph.names_graph import build_names_graph, extract_names, names_graph_current
from .graph.names_graph import extractor_fingerprint as names_fingerprint
from .methods import get as get_method
from .progress import bar

# Used only before this index's ledger holds a fresh LLM call to measure: the default 0.5B
# model on 2 CPU cores (benchmarks/llm_speed.py): ~120 prompt and ~24 generated tokens/s.
ASSUMED_PROMPT_TPS = 120.0
ASSUMED_GEN_TPS = 24.0
ASSUMED_OUTPUT_PER_CHUNK = 120
ASSUMED_NAMES_PER_PASSAGE = 30


@dataclass
class Plan:
    method: str
    selection: str
    beta: float
    """β, or κ when the core is concept-ranked (G2ConS)."""
    chunks: int
    core_chunks: int
    to_extract: int
    input_tokens: int
    evaluated_tokens: int
    output_tokens: int
    seconds: float
    basis: str
    model: str = ""
    """The model that would extract (a known name, or the GGUF's file name)."""
    replaces: dict[str, int] = field(default_factory=dict)
    """Chunks to extract that hold another model's extraction, by that model: the build
    overwrites them (the LLM cache keeps that model's calls, so going back costs no model time)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        if self.selection == "all":
            scope = f"{self.method}: every chunk ({self.chunks}) is named; "
        else:
            sym = "κ" if self.selection == "concept" else "β"
            scope = f"{self.method}: {sym}={self.beta:g} ({self.selection}) → {self.core_chunks} of {self.chunks} chunks are core; "
        redo = "".join(
            f"\n{n} of them were extracted by this model at other settings (prompt version, batch or cap): this build replaces them"
            if other == self.model
            else f"\n{n} of them hold {other}'s extraction: this build replaces it and rebuilds the graph from this model's alone"
            for other, n in self.replaces.items()
        )
        return (
            (f"[{self.model}] " if self.model else "") + f"{scope}{self.to_extract} still to extract{redo}\n"
            f"estimate: {self.input_tokens:,} input tokens ({self.evaluated_tokens:,} evaluated after prefix reuse), "
            f"{self.output_tokens:,} output tokens, about {hms(self.seconds)}\n"
            f"basis: {self.basis}"
        )


def kg_target(rag, method: str) -> tuple[str, float] | None:
    """(core selection, β or κ) of the KG ``method`` reads, or None for LLM-free methods."""
    return get_method(method).kg_core(rag.settings)


@dataclass
class _Job:
    """The LLM extraction a method needs: which chunks, which extractor, how it is billed.
    Making one reads the model file's sha256 but does not load the model."""

    selection: str
    fraction: float
    chunks: list[str]
    table: str
    made_by: str
    per_call: int
    todo: list[str]

    @property
    def stage(self) -> str:
        """The graph stage built from these chunks' extractions."""
        return TERAG_STAGE if self.table == "names" else stage_name(self.selection, self.fraction)


def _job(rag, method: str, llm=None) -> _Job | None:
    """The extraction ``method`` needs from ``llm`` (default: the ``extract_model``)."""
    index, s = rag.index, rag.settings
    llm = llm or rag.extract_llm
    if get_method(method).names:  # TERAG names every passage, several per call
        chunks = index.ids("chunks")
        made_by = names_fingerprint(llm, s.terag_batch, s.terag_max_tokens)
        return _Job("all", 1.0, chunks, "names", made_by, s.terag_batch, pending_chunks(index, chunks, made_by, table="names"))
    target = kg_target(rag, method)
    if target is None:
        return None
    selection, fraction = target
    if selection == "concept":  # G2ConS ranks its core on the concept graph, which reads every piece vector
        embed_missing(index, rag.embedder, s.progress)
    core = core_chunks(index, fraction, selection, s)
    made_by = extractor_fingerprint(llm, s.extract_grammar, s.extract_max_tokens)
    return _Job(selection, fraction, core, "extractions", made_by, 1, pending_chunks(index, core, made_by))


def llm_chunks(rag, method: str) -> tuple[str, list[str], str] | None:
    """(table, chunk ids, extractor fingerprint) of the LLM extraction ``method`` reads —
    TERAG's names of every chunk, or the KG extraction of its β/κ core — or None for an
    LLM-free method."""
    job = _job(rag, method)
    return None if job is None else (job.table, job.chunks, job.made_by)


def llm_work_left(rag, method: str) -> str | None:
    """What the model must still do before ``method`` can be served from the index — chunks
    to extract, or its KG/TERAG graph not built over the stored extractions (building it
    may summarise descriptions with the model) — or None. Does not load the model."""
    job = _job(rag, method)
    if job is None:
        return None
    if job.todo:
        return f"{len(job.todo)} of {len(job.chunks)} chunks to extract"
    current = (
        names_graph_current(rag.index, rag.embedder, job.chunks)
        if job.table == "names"
        else kg_current(rag.index, rag.embedder, job.chunks, job.stage)
    )
    return None if current else f"its {job.stage} graph is not built over the {len(job.chunks)} extracted chunks"


def graph_steps(rag, method: str) -> list[tuple[str, Any]]:
    """The LLM-free stages ``method`` reads, as (name, builder) in build order; each builder
    returns at once when its stage is current."""
    index, s = rag.index, rag.settings
    builders = {
        "pieces": lambda: embed_missing(index, rag.embedder, s.progress),
        "knn": lambda: build_knn_graph(index, k=s.knn_k),
        "bipartite": lambda: build_keyword_graph(index),
        "concepts": lambda: build_concept_graph(index, s),
        "links": lambda: build_links(index, s),
    }
    return [(name, builders[name]) for name in get_method(method).graph_stages(s.core_selection, s.text_unit)]


def plans(rag, method: str) -> list[Plan]:
    """`plan` for the ``extract_model`` first, then for every other installed known model: what
    each would cost here before anything is spent (each model's tokens, at its speed here)."""
    from .llm.models import KNOWN_MODELS, installed

    first = plan(rag, method)
    if not get_method(method).llm_built:
        return [first]
    chosen = rag.extract_llm.llm.path
    others = [rag.metered(name) for name in KNOWN_MODELS if installed(name)]
    return [first] + [plan(rag, method, llm) for llm in others if llm.llm.path != chosen]


def plan(rag, method: str, llm=None) -> Plan:
    """What building ``method`` with ``llm`` (default: the ``extract_model``) will cost."""
    index = rag.index
    n = index.counts()["chunks"]
    if not get_method(method).llm_built:
        return Plan(method, "-", 0.0, n, 0, 0, 0, 0, 0, 0.0, "no LLM stage: built on first query in seconds")
    llm = llm or rag.extract_llm
    job = _job(rag, method, llm)
    instruction_tokens = llm.prompt_tokens(nm.messages([]) if job.table == "names" else kgx.messages(""))
    todo = set(job.todo)
    done = index.get_many(job.table, [c for c in job.chunks if c not in todo])
    body = sum(llm.count(" ".join(r["text"].split())) for r in index.get_many("chunks", job.todo))
    outs = [d["output_tokens"] for d in done if d is not None and not d.get("cached")]
    per_out = float(np.mean(outs)) if outs else (ASSUMED_OUTPUT_PER_CHUNK if job.per_call == 1 else ASSUMED_NAMES_PER_PASSAGE)
    calls = math.ceil(len(job.todo) / job.per_call)
    input_tokens = calls * instruction_tokens + body
    evaluated = body + (instruction_tokens if calls else 0)  # the instruction is evaluated once, then reused
    output = int(per_out * len(job.todo))
    p_tps, g_tps, basis = model_speeds(rag, llm)
    seconds = evaluated / p_tps + output / g_tps
    replaces: dict[str, int] = {}
    for rec in index.get_many(job.table, job.todo):
        if rec is not None:
            made_by = rec.get("extractor", "")
            same = made_by.split("|")[1:2] == [llm.llm.sha256[:16]]  # this model, other settings
            other = model_name(llm) if same else extractor_model(made_by)
            replaces[other] = replaces.get(other, 0) + 1
    out_basis = f"{per_out:.0f} output tokens per chunk " + ("as measured on this index" if outs else "(assumed)")
    if job.per_call > 1:
        out_basis += f"; {job.per_call} passages per call ({calls} calls)"
    return Plan(
        method,
        job.selection,
        job.fraction,
        n,
        len(job.chunks),
        len(job.todo),
        input_tokens,
        evaluated,
        output,
        seconds,
        f"{basis}; {out_basis}",
        model=model_name(llm),
        replaces=replaces,
    )


def model_name(llm) -> str:
    """A metered model's known name, else its file name."""
    from .llm.models import KNOWN_MODELS

    path = llm.llm.path
    return next((m.name for m in KNOWN_MODELS.values() if m.filename == path.name), path.name)


def model_speeds(rag, llm=None) -> tuple[float, float, str]:
    """Prompt and generation tokens/s of ``llm`` (default: the ``extract_model``), measured on
    the ledger's fresh calls of that model.

    Both rates are fitted (seconds ≈ evaluated/p + output/g) only when output lengths vary
    enough to separate them (extraction calls do; short answers do not); otherwise only the
    prompt rate comes from the ledger and the generation rate is the one measured for the
    model on this machine (llm/speeds.py: its probe, or its calls in other indexes), else
    assumed. A model with no calls in this ledger is priced at this machine's speeds for it,
    else at assumed ones."""
    llm = llm or rag.extract_llm
    rows = [r for r in rag.ledger_rows() if not r.cached and r.seconds > 0 and r.model == llm.llm.path.name]
    if len(rows) >= 3 and np.std([r.output_tokens for r in rows]) > 20:
        a = np.array([[r.evaluated_tokens, r.output_tokens] for r in rows], dtype=float)
        coef, *_ = np.linalg.lstsq(a, np.array([r.seconds for r in rows]), rcond=None)
        if coef[0] > 0 and coef[1] > 0:
            return (
                1 / coef[0],
                1 / coef[1],
                f"{1 / coef[0]:.0f} prompt and {1 / coef[1]:.1f} generated tokens/s measured on {len(rows)} calls in this ledger",
            )
    here = _machine_speeds(llm)
    if rows:
        g_tps, g_basis = (here.generation, "as measured for it on this machine") if here is not None else (ASSUMED_GEN_TPS, "assumed")
        spent = sum(max(r.seconds - r.output_tokens / g_tps, 1e-3) for r in rows)
        p_tps = sum(r.evaluated_tokens for r in rows) / spent
        if p_tps > 0:
            return (
                p_tps,
                g_tps,
                f"{p_tps:.0f} prompt tokens/s measured on {len(rows)} calls in this ledger, {g_tps:.0f} generated tokens/s {g_basis}",
            )
    if here is not None:
        return here.prompt, here.generation, f"{here.summary()} measured for this model on this machine (no calls in this ledger yet)"
    return (
        ASSUMED_PROMPT_TPS,
        ASSUMED_GEN_TPS,
        (
            f"assumed {ASSUMED_PROMPT_TPS:.0f} prompt / {ASSUMED_GEN_TPS:.0f} generated tokens/s "
            "(the default model on 2 cores; no calls in this ledger to measure yet)"
        ),
    )


def _machine_speeds(llm):
    """The model's speeds on this machine (probed once if never measured), or None."""
    speeds = getattr(llm.llm, "speeds", None)  # stand-in models (tests) have none
    return speeds() if speeds is not None else None


def build(rag, method: str, limit: int | None = None, ray=None) -> dict[str, Any]:
    """Build every stage ``method`` reads; ``limit`` caps how many chunks are extracted now
    (the rest resume on the next build). Holds the index's writer lock throughout.
    ``ray`` (`distributed.RayOptions`, an address, or True for a local instance) computes the
    KG extraction calls on Ray workers; this process still commits every chunk."""
    index = rag.index
    index.lock()
    try:
        return _build(rag, method, limit, ray)
    finally:
        index.unlock()


@contextmanager
def _runner(rag, ray, todo: list[str], out: dict[str, Any]) -> Iterator[Any]:
    """The `llm.Runner` of this build: None (this process) unless Ray was asked for and there
    is something to extract; the pool's report lands in ``out["ray"]``."""
    from .cluster.ray_pool import RayOptions

    opts = RayOptions.of(ray)
    if opts is None or not todo:
        yield None
        return
    from .cluster.indexing import llm_pool, llm_runner

    with llm_pool(rag, opts) as pool:
        try:
            yield llm_runner(pool)
        finally:
            out["ray"] = pool.report.to_dict()


def _build(rag, method: str, limit: int | None, ray=None) -> dict[str, Any]:
    index = rag.index
    s = rag.settings
    out: dict[str, Any] = _run_steps("building graphs", graph_steps(rag, method), s.progress)
    llm = rag.extract_llm
    job = _job(rag, method, llm)
    if job is None:
        return out
    todo = job.todo if limit is None else job.todo[: max(0, limit)]
    with _runner(rag, ray, todo, out) as runner:
        if job.table == "names":
            report = extract_names(index, llm, todo, batch=s.terag_batch, max_tokens=s.terag_max_tokens, progress=s.progress, runner=runner)
        else:
            report = extract_chunks(
                index, llm, todo, method, grammar=s.extract_grammar, max_tokens=s.extract_max_tokens, progress=s.progress, runner=runner
            )
    out["extraction"] = asdict(report)
    out["extraction"].update(chunks=len(job.chunks), already=report.already + len(job.chunks) - len(job.todo))
    missing = len(pending_chunks(index, job.chunks, job.made_by, table=job.table))
    graph = "terag" if job.table == "names" else "kg"
    if missing:
        out[graph] = {"pending_chunks": missing, "note": "run build again to extract the rest; the graph is built when every chunk is done"}
        return out

    def make() -> dict[str, Any]:
        if job.table == "names":
            return build_names_graph(index, rag.embedder, job.chunks, job.made_by)
        return build_kg(index, rag.embedder, job.chunks, job.stage, llm=llm, method=method, desc_limit=s.desc_limit)

    out.update(_run_steps(f"building the {graph} graph", [(graph, make)], s.progress))
    return out


def _run_steps(desc: str, steps: list, progress: bool | None) -> dict[str, Any]:
    """Run LLM-free graph stages in order, one progress step each (each stage commits whole)."""
    out: dict[str, Any] = {}
    pb = bar(total=len(steps), desc=desc, unit="stage", enabled=progress)
    try:
        for name, make in steps:
            out[name] = make()
            pb.update(1)
    finally:
        pb.close()
    return out


def hms(seconds: float) -> str:
    h, rem = divmod(int(math.ceil(seconds)), 3600)
    m, s = divmod(rem, 60)
    return f"{h}h {m:02d}m" if h else f"{m}m {s:02d}s"
