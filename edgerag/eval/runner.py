"""Run a method over a benchmark's questions and report Coverage, Recall@5, EM/F1, tokens.

The index of a benchmark folder is built on first use (the folder's ``corpus.jsonl`` only)
and reused afterwards.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..api import EdgeRAG
from ..progress import bar
from .datasets import Dataset
from .metrics import coverage, exact_match, f1 as f1_score, recall_at_k


TOKEN_KEYS = ("input", "output", "evaluated", "cached_input", "cached_output")


@dataclass
class EvalResult:
    method: str
    dataset: str
    questions: int
    budget: int
    coverage: float
    recall_at_5: float | None
    em: float | None = None
    f1: float | None = None
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKEN_KEYS, 0))
    """LLM tokens of answering: fresh ``input``/``output`` (what was spent now), ``evaluated``
    (input the model actually computed), and ``cached_input``/``cached_output`` (served by the
    LLM cache at no cost)."""
    seconds: float = 0.0
    """Wall time over all questions: retrieval, and answering when asked (``latency_ms`` is
    retrieval alone)."""
    index_seconds: float = 0.0
    latency_ms: dict[str, float] = field(default_factory=dict)
    per_question: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def write(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False))

    def table(self) -> str:
        def pct(x):
            return "-" if x is None else f"{100 * x:.1f}"

        rows = [
            ("method", self.method), ("dataset", self.dataset), ("questions", str(self.questions)),
            ("budget (tokens)", str(self.budget)), ("Coverage %", pct(self.coverage)),
            ("Recall@5 %", pct(self.recall_at_5)), ("EM %", pct(self.em)), ("F1 %", pct(self.f1)),
            ("LLM tokens in/out (fresh)", f"{self.tokens['input']}/{self.tokens['output']}"),
            ("LLM tokens in/out (cached)", f"{self.tokens['cached_input']}/{self.tokens['cached_output']}"),
            ("seconds (retrieval median ms/q)", f"{self.seconds:.1f} ({self.latency_ms.get('median', 0):.1f})"),
            ("indexing s", f"{self.index_seconds:.1f}"),
        ]  # fmt: skip
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


def evaluate(rag: EdgeRAG, dataset: Dataset, method: str = "text", budget: int | None = None, answer: bool = False) -> EvalResult:
    """Retrieve for every question (and, with ``answer``, answer it in short mode)."""
    budget = budget or rag.settings.budget
    index_seconds = ensure_indexed(rag, dataset)
    covered, recalls, per_q, latencies = [], [], [], []
    ems, f1s, tokens = [], [], dict.fromkeys(TOKEN_KEYS, 0)
    t0 = time.perf_counter()
    progress = bar(total=len(dataset.questions), desc=f"eval {method}", unit="q", enabled=rag.settings.progress)
    for q in dataset.questions:
        t = time.perf_counter()
        ctx = rag.retrieve(q.question, method=method, budget=budget)
        latencies.append(1000 * (time.perf_counter() - t))
        cov = coverage(q.answers, ctx.text())
        rec = recall_at_k(q.supporting_ids, ctx.doc_ids, 5)
        covered.append(cov)
        if rec is not None:
            recalls.append(rec)
        row = {"id": q.id, "coverage": cov, "recall_at_5": rec, "context_tokens": ctx.tokens, "units": len(ctx.units)}
        if answer:
            ans = rag.answer(q.question, ctx, short=True)
            ems.append(exact_match(ans.short, q.answers))
            f1s.append(f1_score(ans.short, q.answers))
            for k in TOKEN_KEYS:
                tokens[k] += ans.tokens[k]
            row.update(answer=ans.short, em=ems[-1], f1=f1s[-1], cached=ans.cached,
                       citations=[c.doc_id for c in ans.citations])  # fmt: skip
        per_q.append(row)
        progress.update(1)
    progress.close()
    n = len(dataset.questions)
    return EvalResult(
        method=method, dataset=dataset.name, questions=n, budget=budget,
        coverage=sum(covered) / n if n else 0.0,
        recall_at_5=sum(recalls) / len(recalls) if recalls else None,
        em=sum(ems) / n if answer and n else None, f1=sum(f1s) / n if answer and n else None, tokens=tokens,
        seconds=time.perf_counter() - t0, index_seconds=index_seconds,
        latency_ms=_latency(latencies), per_question=per_q,
    )  # fmt: skip


def _latency(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {}
    ordered = sorted(ms)
    return {"median": statistics.median(ordered), "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]}
