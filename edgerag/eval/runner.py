"""Run methods over a benchmark's questions: Coverage, Recall@k, EM/F1, tokens and time.

`evaluate` scores one method under the current settings. `evaluate_many` runs several
methods (and sweeps of β, κ, θ, λ_w or the budget λ) over one index, building every stage
once, and returns one result document: the JSON that `edgerag eval --out` writes and
`edgerag report` reads. Its schema (`SCHEMA`) is documented in docs/result-schema.md.

The index of a benchmark folder is built on first use (the folder's ``corpus.jsonl`` only)
and reused afterwards.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import statistics
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..api import EdgeRAG
from ..build import graph_steps, hms, llm_work_left
from ..methods import KNOBS, readers
from ..methods import get as get_method
from ..progress import bar
from .cost import index_cost
from .datasets import Dataset
from .metrics import coverage, exact_match, recall_at_k, truthfulness
from .metrics import f1 as f1_score

SCHEMA = "edgerag.eval/1"
TOKEN_KEYS = ("input", "output", "evaluated", "cached_input", "cached_output")
RECALL_KS = (2, 5, 10)


class NotBuiltError(ValueError):
    """A method needs LLM extraction that has not run (and the caller did not ask to run it)."""


@dataclass
class EvalResult:
    """One method under one set of settings, over every question of a dataset."""

    method: str
    dataset: str
    questions: int
    budget: int
    coverage: float
    recall_at_5: float | None
    recall_at_k: dict[str, float | None] = field(default_factory=dict)
    em: float | None = None
    f1: float | None = None
    abstained: float | None = None
    """Share of the questions answered "The documents do not say." (answer/check.py), with ``answer``."""
    truthfulness: float | None = None
    """CRAG's score (Meta, KDD Cup 2024): right +1, abstained 0, wrong −1, averaged over the
    questions (right = exact match), with ``answer``: a wrong answer costs more than none."""
    label: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    """The settings this method reads that a sweep may vary (β, κ, θ, λ_w, budget)."""
    index_tokens: dict[str, int] = field(default_factory=lambda: {"input": 0, "output": 0})
    """LLM tokens of the index stages the method reads, whoever paid for them (eval/cost.py)."""
    index_seconds: float = 0.0
    """Seconds of those stages: LLM extraction plus graph building (not the shared embedding)."""
    index: dict[str, Any] = field(default_factory=dict)
    """The full `IndexCost`: stages, chunks extracted, measured vs estimated seconds."""
    query_tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKEN_KEYS, 0))
    """LLM tokens spent at query time over all questions (query NER or keywords, and the
    answers with ``answer``): fresh ``input``/``output``/``evaluated`` and cache hits."""
    seconds: float = 0.0
    """Wall time over all questions: retrieval, and answering when asked."""
    latency_ms: dict[str, float] = field(default_factory=dict)
    """Retrieval alone, per question: ``median`` and ``p95``."""
    per_question: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def table(self) -> str:
        def pct(x):
            return "-" if x is None else f"{100 * x:.1f}"

        q = self.query_tokens
        rows = [
            ("method", self.label or self.method),
            ("dataset", self.dataset),
            ("questions", str(self.questions)),
            ("budget (tokens)", str(self.budget)),
            ("Coverage %", pct(self.coverage)),
            ("Recall@5 %", pct(self.recall_at_5)),
            ("EM %", pct(self.em)),
            ("F1 %", pct(self.f1)),
            ("abstained %", pct(self.abstained)),
            ("truthfulness (CRAG) %", pct(self.truthfulness)),
            ("index LLM tokens in/out", f"{self.index_tokens['input']:,}/{self.index_tokens['output']:,}"),
            ("query LLM tokens in/out (fresh)", f"{q['input']:,}/{q['output']:,}"),
            ("query LLM tokens in/out (cached)", f"{q['cached_input']:,}/{q['cached_output']:,}"),
            ("retrieval ms median/p95", f"{self.latency_ms.get('median', 0):.1f}/{self.latency_ms.get('p95', 0):.1f}"),
            ("seconds (all questions)", f"{self.seconds:.1f}"),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


def ensure_indexed(rag: EdgeRAG, dataset: Dataset) -> float:
    """Index the dataset's corpus if it is not yet; returns the seconds spent. A corpus whose
    every record is already in the index is not opened for writing, so evaluating works while
    another process holds the writer lock (a long `build`)."""
    if (Path(rag.path) / "manifest.json").exists():
        with open(dataset.corpus, encoding="utf-8") as f:
            ids = [json.loads(line).get("id") for line in f if line.strip()]
        if ids and all(ids) and all(rag.index.has_doc(str(i)) for i in ids):
            return 0.0
    report = rag.insert([dataset.corpus])
    return report.seconds if report.docs_added else 0.0


def _spent(meters) -> Counter:
    """Tokens and calls spent so far by the models a run uses (the index's model for LLM
    retrieval, the answering model for answers)."""
    total: Counter = Counter()
    for m in meters:
        total.update(m.spent)
    return total


def evaluate(
    rag: EdgeRAG, dataset: Dataset, method: str = "text", budget: int | None = None, answer: bool = False, label: str = ""
) -> EvalResult:
    """Retrieve for every question (and, with ``answer``, answer it in short mode)."""
    budget = budget or rag.settings.budget
    ensure_indexed(rag, dataset)
    covered, per_q, latencies = [], [], []
    recalls: dict[int, list[float]] = {k: [] for k in RECALL_KS}
    ems, f1s, abstained = [], [], []
    uses_llm = get_method(method).query_llm or answer
    meters = list(
        {id(m): m for m in ([rag.extract_llm] if get_method(method).query_llm else []) + ([rag.answer_llm] if answer else [])}.values()
    )
    before = _spent(meters)
    t0 = time.perf_counter()
    progress = bar(total=len(dataset.questions), desc=f"eval {label or method}", unit="q", enabled=rag.settings.progress)
    for q in dataset.questions:
        t = time.perf_counter()
        ctx = rag.retrieve(q.question, method=method, budget=budget)
        latencies.append(1000 * (time.perf_counter() - t))
        cov = coverage(q.answers, ctx.text())
        covered.append(cov)
        row = {"id": q.id, "coverage": cov, "context_tokens": ctx.tokens, "units": len(ctx.units)}
        for k in RECALL_KS:
            rec = recall_at_k(q.supporting_ids, ctx.doc_ids, k)
            row[f"recall_at_{k}"] = rec
            if rec is not None:
                recalls[k].append(rec)
        if answer:
            ans = rag.answer(q.question, ctx, short=True)
            ems.append(exact_match(ans.short, q.answers))
            f1s.append(f1_score(ans.short, q.answers))
            abstained.append(ans.abstained)
            row.update(answer=ans.short, em=ems[-1], f1=f1s[-1], cached=ans.cached, abstained=ans.abstained)
            row["citations"] = [c.doc_id for c in ans.citations]
        per_q.append(row)
        progress.update(1)
    progress.close()
    n = len(dataset.questions)
    spent = _spent(meters) if uses_llm else {}
    recall = {str(k): (sum(v) / len(v) if v else None) for k, v in recalls.items()}
    return EvalResult(
        method=method,
        dataset=dataset.name,
        questions=n,
        budget=budget,
        coverage=sum(covered) / n if n else 0.0,
        recall_at_5=recall["5"],
        recall_at_k=recall,
        em=sum(ems) / n if answer and n else None,
        f1=sum(f1s) / n if answer and n else None,
        abstained=sum(abstained) / n if answer and n else None,
        truthfulness=truthfulness(ems, abstained) if answer and n else None,
        label=label or method,
        query_tokens={k: int(spent.get(k, 0) - before.get(k, 0)) for k in TOKEN_KEYS},
        seconds=time.perf_counter() - t0,
        latency_ms=_latency(latencies),
        per_question=per_q,
    )


def runs_for(methods: list[str], sweeps: dict[str, list[Any]] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(method, setting changes) for every run: each method once per combination of the swept
    settings it reads, and once at the current settings when it reads none of them."""
    sweeps = sweeps or {}
    if not methods:
        raise ValueError("no methods given")
    for key, values in sweeps.items():
        if key not in KNOBS:
            raise ValueError(f"cannot sweep {key!r}; sweepable: {', '.join(KNOBS)}")
        if not values:
            raise ValueError(f"the sweep of {key} has no values")
        if not readers(key) & set(methods):
            raise ValueError(f"none of {', '.join(methods)} reads {key}; it is read by {', '.join(sorted(readers(key)))}")
    out = []
    for m in methods:
        get_method(m)  # an unknown name fails here, naming the methods there are
        keys = [k for k in sweeps if m in readers(k)]
        for values in itertools.product(*(sweeps[k] for k in keys)):
            out.append((m, dict(zip(keys, values))))
    return out


def setting_label(knob: str, value: Any) -> str:
    """``β=0.2``, ``λ=4000``: a swept setting as the papers write it."""
    return f"{KNOBS[knob]}={value:g}" if isinstance(value, float) else f"{KNOBS[knob]}={value}"


def run_label(method: str, changes: dict[str, Any]) -> str:
    return f"{method} (" + ", ".join(setting_label(k, v) for k, v in changes.items()) + ")" if changes else method


def evaluate_many(
    rag: EdgeRAG,
    dataset: Dataset,
    methods: list[str],
    *,
    sweeps: dict[str, list[Any]] | None = None,
    answer: bool = False,
    build: bool = False,
) -> dict[str, Any]:
    """Every run of `runs_for` over one index; returns the result document (schema `SCHEMA`).

    Stages are built once per distinct setting and shared by every run that reads them. The
    model is used only where a run needs it: with ``build``, for extraction still to do (and
    the KG description summaries of a graph not yet built), and for query-time calls. Without
    ``build``, a run that needs such work stops everything before any question is asked,
    naming each missing build and its cost."""
    t0 = time.perf_counter()
    plan = runs_for(methods, sweeps)  # bad names fail before any indexing
    ingest = ensure_indexed(rag, dataset)
    base = rag.settings
    try:
        missing = []
        for method, changes in plan:
            rag.configure(**changes)
            left = llm_work_left(rag, method)
            if left and not build:
                if "to extract" in left:
                    p = rag.plan(method)
                    left += f", about {p.output_tokens:,} output tokens and {hms(p.seconds)}"
                missing.append(f"{run_label(method, changes)}: {left}")
        if missing:
            raise NotBuiltError(
                "these runs need the local model first (add --build to run it now, or "
                "`edgerag build --method M` with the same settings):\n  " + "\n  ".join(missing)
            )
        runs = []
        for method, changes in plan:
            rag.configure(**changes)
            _prepare(rag, method)
            cost = index_cost(rag, method)
            r = evaluate(rag, dataset, method=method, answer=answer, label=run_label(method, changes))
            r.settings = {k: getattr(rag.settings, k) for k in KNOBS if method in readers(k)}
            r.index = cost.to_dict()
            r.index_tokens = {"input": cost.input_tokens, "output": cost.output_tokens}
            r.index_seconds = cost.seconds
            runs.append(r)
    finally:
        rag.settings = base
    uses_model = any(r.index["llm_chunks"] or any(r.query_tokens.values()) for r in runs)
    queried = any(any(r.query_tokens.values()) for r in runs if get_method(r.method).query_llm)
    return {
        "schema": SCHEMA,
        "dataset": {
            "name": dataset.name,
            "path": str(dataset.path),
            "questions": len(dataset.questions),
            "chunks": rag.index.counts()["chunks"],
        },
        "index": str(rag.path),
        "embedder": rag.index.manifest["embedder"]["id"],
        "model": _model(rag.answer_llm) if answer else (_model(rag.extract_llm) if uses_model else None),
        "models": {
            "answer": _model(rag.answer_llm) if answer else None,
            "query": _model(rag.extract_llm) if queried else None,
            "stages": {name: rec["models"] for name, rec in rag.stages().items() if rec.get("models")},
        },
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "gpu": _gpu(rag)},
        "edgerag": __version__,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "ingest_seconds": ingest or None,
        "seconds": time.perf_counter() - t0,
        "runs": [r.to_dict() for r in runs],
    }


def _model(llm) -> dict[str, str]:
    return {"file": llm.llm.path.name, "sha256": llm.llm.sha256}


def _prepare(rag: EdgeRAG, method: str) -> None:
    """Build the stages ``method`` reads before it is timed, so no query pays for a build. The
    LLM-free graphs are built as a query would build them, without the writer lock (nothing
    is written when they are current: eval runs beside a long `build`); the model's work goes
    through `build` and only when `llm_work_left` says there is some."""
    for _, make in graph_steps(rag, method):
        make()
    if llm_work_left(rag, method):
        rag.build(method)


def _gpu(rag: EdgeRAG) -> bool:
    """Whether the model ran with layers offloaded to a GPU, or the embedder ran on one."""
    llms = [rag.__dict__.get(k) for k in ("llm", "extract_llm", "answer_llm")]
    offloaded = any(m is not None and "llama" in m.llm.__dict__ and bool(getattr(m.llm, "n_gpu_layers", 0)) for m in llms)
    return offloaded or str(getattr(rag.__dict__.get("embedder"), "device", "cpu")).startswith("cuda")


def write_result(doc: dict[str, Any], path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(doc, indent=2, ensure_ascii=False))


def _latency(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {}
    ordered = sorted(ms)
    return {"median": statistics.median(ordered), "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]}
