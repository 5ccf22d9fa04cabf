"""The token ledger and the LLM-call cache: two LMDB tables of the index.

Tokens are edgerag's currency. Every LLM call, fresh or answered from the cache, adds one
ledger row: stage (extract, summarize, query-keywords, answer), method, prompt tokens sent,
prompt tokens the model actually evaluated (llama.cpp reuses the evaluated prefix of the
previous prompt), output tokens, seconds, and whether it was cached. Totals per stage and
method are sums over those rows.

The cache is keyed by sha256(model sha256, full prompt, sampling settings), so a rerun or a
resumed build spends no new tokens on work already done.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any

from .tables import Tables

_SEQ = itertools.count()


@dataclass
class LedgerRow:
    stage: str
    method: str
    prompt_tokens: int
    evaluated_tokens: int
    output_tokens: int
    seconds: float
    cached: bool
    model: str
    ok: bool = True
    """False when the output was unusable (a parser rejected it); the tokens were still spent."""
    ts: float = 0.0
    node: str = ""
    """The machine that computed the call in a distributed build (``host (ray node id)``);
    empty when the writing process did (every local call)."""


def cache_key(model_sha256: str, prompt: str, sampling: dict[str, Any]) -> str:
    h = hashlib.sha256()
    h.update(model_sha256.encode())
    h.update(b"\x00")
    h.update(prompt.encode("utf-8"))
    h.update(b"\x00")
    h.update(json.dumps(sampling, sort_keys=True).encode())
    return h.hexdigest()


class Ledger:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def record(self, txn, row: LedgerRow) -> None:
        """Add a row inside the caller's write transaction (`MeteredLLM.chat` commits the
        call's cache entry with it, so a process killed between the two can neither lose the
        tokens nor bill them twice)."""
        row.ts = row.ts or time.time()
        key = f"{time.time_ns():020d}-{os.getpid()}-{next(_SEQ)}"
        self.tables.put(txn, "ledger", key, asdict(row))

    def rows(self) -> list[LedgerRow]:
        with self.tables.read() as txn:
            return [LedgerRow(**v) for _, v in self.tables.items(txn, "ledger")]

    def totals(self, since: float | None = None) -> dict[str, Any]:
        """Sums overall, per stage, per method and per model, and per stage and per method
        split by model (``stage_models``, ``method_models``: {stage: {model: sums}}), fresh and
        cached tokens kept apart. Tokens are only comparable within one model."""
        out: dict[str, Any] = {"all": _empty(), "by_stage": {}, "by_method": {}, "by_model": {}, "stage_models": {}, "method_models": {}}
        for r in self.rows():
            if since is not None and r.ts < since:
                continue
            for bucket in (
                out["all"],
                out["by_stage"].setdefault(r.stage, _empty()),
                out["by_method"].setdefault(r.method, _empty()),
                out["by_model"].setdefault(r.model, _empty()),
                out["stage_models"].setdefault(r.stage, {}).setdefault(r.model, _empty()),
                out["method_models"].setdefault(r.method, {}).setdefault(r.model, _empty()),
            ):
                _add(bucket, r)
        return out


def _empty() -> dict[str, float]:
    return {
        "calls": 0,
        "cached_calls": 0,
        "failed_calls": 0,
        "input": 0,
        "evaluated": 0,
        "output": 0,
        "cached_input": 0,
        "cached_output": 0,
        "seconds": 0.0,
    }


def _add(b: dict[str, float], r: LedgerRow) -> None:
    b["calls"] += 1
    b["failed_calls"] += 0 if r.ok else 1
    if r.cached:
        b["cached_calls"] += 1
        b["cached_input"] += r.prompt_tokens
        b["cached_output"] += r.output_tokens
    else:
        b["input"] += r.prompt_tokens
        b["evaluated"] += r.evaluated_tokens
        b["output"] += r.output_tokens
        b["seconds"] += r.seconds


class LLMCache:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def get(self, key: str) -> dict[str, Any] | None:
        with self.tables.read() as txn:
            return self.tables.get(txn, "llm_cache", key)

    def put(self, txn, key: str, value: dict[str, Any]) -> None:
        """Store a call's answer inside the caller's write transaction (with its ledger row)."""
        self.tables.put(txn, "llm_cache", key, value)
