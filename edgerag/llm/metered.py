"""The metered front every caller uses: a `LocalLLM` behind the index's LLM-call cache and
token ledger (store/ledger.py). Every call is recorded with its stage and method; a repeated
call costs no fresh tokens.

A call is prepared (`Call`: the formatted prompt, stop strings, output cap, grammar, halt
rule, cache key), run somewhere (`run_here` in this process, cluster/indexing.py on Ray workers:
a `Runner`), and recorded in the caller's write transaction (`MeteredLLM.record`), so an
extraction stage commits a chunk's result, its cache entry and its ledger row together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..store.ledger import Ledger, LedgerRow, LLMCache, cache_key
from ..store.tables import Tables
from .local import Completion, LocalLLM, Messages, PromptTooLongError


@lru_cache(maxsize=8)
def compiled_grammar(text: str):
    """GBNF text compiled by llama.cpp, once per process (the extractors have few grammars)."""
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(text, verbose=False)


@dataclass
class Call:
    """One metered call, prepared but not run: what the model must compute (the formatted
    prompt, stop strings, output cap, GBNF grammar text, halt rule) and the cache key it is
    filed under. A local build runs it in this process (`MeteredLLM.run`), a distributed one
    on a worker (cluster/indexing.py); either way `MeteredLLM.record` commits the outcome."""

    prompt: str
    stop: list[str]
    max_tokens: int
    grammar: str | None
    halt: Callable[[str], bool] | None
    key: str
    choices: list[str] | None = None
    """The only outputs allowed (`ChoiceTrie`), or None for free text."""


def run_call(llm: LocalLLM, call: Call, on_text: Callable[[str], None] | None = None) -> Completion:
    """Compute ``call`` on ``llm``: the one place a prepared call meets a model."""
    compiled = compiled_grammar(call.grammar) if call.grammar else None
    extra = {"choices": call.choices} if call.choices else {}  # stand-in models need not know choices
    return llm.complete(call.prompt, call.stop, call.max_tokens, grammar=compiled, on_text=on_text, halt=call.halt, **extra)


@dataclass
class Done:
    """A call that came back: the caller's ``tag`` (which chunk it was for), the call, and its
    completion, or None with ``error`` saying why there is none (the prompt does not fit the
    model's window). ``node`` names the machine that computed it ("" for this process)."""

    tag: Any
    call: Call
    completion: Completion | None
    error: str = ""
    node: str = ""


Runner = Callable[["MeteredLLM", Iterable[tuple[Any, Call]]], Iterator[Done]]
"""Computes (tag, call) jobs and yields each as it finishes, committing nothing: the caller
commits each `Done` (`MeteredLLM.record`) before it asks for the next. `run_here` is the
local one; cluster/indexing.py has one that runs the calls on Ray workers."""


def run_here(llm: MeteredLLM, jobs: Iterable[tuple[Any, Call]]) -> Iterator[Done]:
    """Each job in order in this process: from the cache when it is there, else on the model."""
    for tag, call in jobs:
        c = llm.cached(call)
        if c is None:
            try:
                c = llm.run(call)
            except PromptTooLongError as e:
                yield Done(tag, call, None, error=str(e))
                continue
        yield Done(tag, call, c)


class MeteredLLM:
    """A `LocalLLM` whose every call goes through the index's cache and ledger."""

    def __init__(self, llm: LocalLLM, tables: Tables) -> None:
        self.llm = llm
        self.ledger = Ledger(tables)
        self.cache = LLMCache(tables)
        self.spent: Counter[str] = Counter()
        """Tokens of this object's calls, for a caller that wants the cost of a step (eval
        takes differences): fresh ``input``/``evaluated``/``output``, ``cached_input``/
        ``cached_output`` served by the cache, and ``calls`` (fresh or cached)."""

    def prepare(
        self,
        messages: Messages,
        *,
        max_tokens: int,
        grammar: str | None = None,
        halt: Callable[[str], bool] | None = None,
        choices: list[str] | None = None,
    ) -> Call:
        """The call ``messages`` make, formatted and keyed for the cache, not yet run."""
        prompt, stop = self.llm.format(messages)
        sampling = {
            "temperature": 0.0,
            "max_tokens": max_tokens,
            "grammar": grammar or "",
            "halt": getattr(halt, "cache_key", getattr(halt, "__name__", "")),
        }
        if choices:
            sampling["choices"] = choices
        return Call(
            prompt=prompt,
            stop=stop,
            max_tokens=max_tokens,
            grammar=grammar,
            halt=halt,
            key=cache_key(self.llm.sha256, prompt, sampling),
            choices=choices or None,
        )

    def cached(self, call: Call) -> Completion | None:
        """The cache's answer to ``call``, or None."""
        hit = self.cache.get(call.key)
        if hit is None:
            return None
        return Completion(
            text=hit["text"],
            prompt_tokens=hit["prompt_tokens"],
            evaluated_tokens=0,
            output_tokens=hit["output_tokens"],
            seconds=0.0,
            finish_reason=hit["finish_reason"],
            cached=True,
        )

    def run(self, call: Call, on_text: Callable[[str], None] | None = None) -> Completion:
        """Compute ``call`` on this process's model (a fresh call; nothing is recorded in the
        index; its speed joins this machine's figures, speeds.py)."""
        c = run_call(self.llm, call, on_text=on_text)
        record = getattr(self.llm, "record_speed", None)  # stand-in models (tests) have none
        if record is not None:
            record(c)
        return c

    def speeds(self):
        """The model's measured `speeds.Speeds` on this machine, or None (none yet, or a
        stand-in model without them)."""
        measured = getattr(self.llm, "speeds", None)
        return measured() if measured is not None else None

    def record(
        self, txn, call: Call, c: Completion, *, stage: str, method: str, ok: bool = True, sources: list[str] | None = None, node: str = ""
    ) -> None:
        """Commit a finished call inside the caller's write transaction: its cache entry (a
        fresh call) and its ledger row, both or neither. Extraction stages put their parsed
        result in the same transaction (graph/kg.py), so a chunk is committed whole or
        not at all, whoever computed it; ``node`` names the machine that did (distributed
        builds; empty for this process)."""
        self._account(c)
        if not c.cached:
            self.cache.put(
                txn,
                call.key,
                {
                    "text": c.text,
                    "prompt_tokens": c.prompt_tokens,
                    "output_tokens": c.output_tokens,
                    "finish_reason": c.finish_reason,
                    "chunks": sorted(set(sources or [])),
                },
            )
        self.ledger.record(
            txn,
            LedgerRow(
                stage=stage,
                method=method,
                prompt_tokens=c.prompt_tokens,
                evaluated_tokens=c.evaluated_tokens,
                output_tokens=c.output_tokens,
                seconds=c.seconds,
                cached=c.cached,
                model=self.llm.path.name,
                ok=ok,
                node=node,
            ),
        )

    def _account(self, c: Completion) -> None:
        self.spent.update(calls=1)
        if c.cached:
            self.spent.update(cached_input=c.prompt_tokens, cached_output=c.output_tokens)
        else:
            self.spent.update(input=c.prompt_tokens, evaluated=c.evaluated_tokens, output=c.output_tokens)

    def chat(
        self,
        messages: Messages,
        *,
        stage: str,
        method: str,
        max_tokens: int,
        grammar: str | None = None,
        on_text: Callable[[str], None] | None = None,
        use_cache: bool = True,
        validate: Callable[[str], bool] | None = None,
        halt: Callable[[str], bool] | None = None,
        sources: list[str] | None = None,
        choices: list[str] | None = None,
    ) -> Completion:
        """One metered call. ``grammar`` is GBNF text (compiled by llama.cpp) for extractors
        that want constrained output; ``validate`` says whether the output was usable, and the
        ledger counts the unusable ones (their tokens were spent all the same). ``sources`` are
        the chunk ids whose text is in the prompt: the cache entry remembers them, so deleting
        a document deletes the calls that read it (deletion.py). ``choices`` limits the output
        to one of those strings (`ChoiceTrie`)."""
        call = self.prepare(messages, max_tokens=max_tokens, grammar=grammar, halt=halt, choices=choices)
        c = self.cached(call) if use_cache else None
        if c is not None:
            if on_text is not None:
                on_text(c.text)
        else:
            c = self.run(call, on_text=on_text)
        ok = validate(c.text) if validate else True
        if self.ledger.tables.readonly:  # a read-only index can answer, but keeps no record of it
            self._account(c)
            return c
        with self.ledger.tables.write() as txn:  # the call's cache entry and its ledger row: both or neither
            self.record(txn, call, c, stage=stage, method=method, ok=ok, sources=sources)
        return c

    def count(self, text: str) -> int:
        return self.llm.count(text)

    PREFILL_MIN_TOKENS = 200
    """Calls that evaluated fewer prompt tokens say little about prefill speed."""

    def prefill_rate(self) -> float | None:
        """Prompt tokens per second this model evaluates here: Σ evaluated ÷ Σ seconds over the
        last 20 fresh calls of this model in the ledger that evaluated at least
        `PREFILL_MIN_TOKENS` (their seconds include a few output tokens, so the figure errs on
        the slow side); None before any such call."""
        name = self.llm.path.name
        rows = [
            r
            for r in self.ledger.rows()
            if r.model == name and not r.cached and r.evaluated_tokens >= self.PREFILL_MIN_TOKENS and r.seconds > 0
        ]
        rows = sorted(rows, key=lambda r: r.ts)[-20:]
        return sum(r.evaluated_tokens for r in rows) / sum(r.seconds for r in rows) if rows else None

    def prompt_tokens(self, messages: Messages) -> int:
        prompt, _ = self.llm.format(messages)
        return len(self.llm.tokenize(prompt))
