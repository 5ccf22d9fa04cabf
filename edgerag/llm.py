"""The local GGUF model through llama-cpp-python, and the metered front every caller uses.

`LocalLLM` loads a model once per process with an explicit context window (``n_ctx``; no
silent 512/2048 default), all cores, every layer on the GPU when llama.cpp was built with
one, greedy decoding and a hard cap on output tokens. Prompts are formatted with the chat
template stored in the GGUF and measured in the model's own vocabulary *before* the call, so
a prompt that does not fit the window is refused rather than truncated by llama.cpp.

`MeteredLLM` adds the index's LLM-call cache and token ledger (store/ledger.py): every call
is recorded with its stage and method; a repeated call costs no fresh tokens.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .models import ModelError, check_gguf, model_sha256
from .store.ledger import LLMCache, Ledger, LedgerRow, cache_key
from .store.tables import Tables


class PromptTooLongError(ValueError):
    """The prompt plus the output cap does not fit the model's context window."""


@dataclass
class Completion:
    text: str
    prompt_tokens: int
    evaluated_tokens: int
    """Prompt tokens the model actually computed (the rest reused from the previous prompt)."""
    output_tokens: int
    seconds: float
    finish_reason: str
    cached: bool = False


Messages = list[dict[str, str]]


@dataclass
class Call:
    """One metered call, prepared but not run: what the model must compute (the formatted
    prompt, stop strings, output cap, GBNF grammar text, halt rule) and the cache key it is
    filed under. A local build runs it in this process (`MeteredLLM.run`), a distributed one
    on a worker (distributed.py); either way `MeteredLLM.record` commits the outcome."""

    prompt: str
    stop: list[str]
    max_tokens: int
    grammar: str | None
    halt: Callable[[str], bool] | None
    key: str
    choices: list[str] | None = None
    """The only outputs allowed (`ChoiceTrie`), or None for free text."""


def run_call(llm: "LocalLLM", call: Call, on_text: Callable[[str], None] | None = None) -> Completion:
    """Compute ``call`` on ``llm``: the one place a prepared call meets a model."""
    compiled = _grammar(call.grammar) if call.grammar else None
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
local one; distributed.py has one that runs the calls on Ray workers."""


def run_here(llm: "MeteredLLM", jobs: Iterable[tuple[Any, Call]]) -> Iterator[Done]:
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


def gpu_offload_available() -> bool:
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


@lru_cache(maxsize=2)
def _load(path: str, n_ctx: int, n_threads: int, n_gpu_layers: int):
    from llama_cpp import Llama

    try:
        llama = Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads,
                      n_gpu_layers=n_gpu_layers, seed=0, verbose=False)  # fmt: skip
        _LOADED.append(llama)
        return llama
    except (ValueError, RuntimeError, OSError) as e:
        size = os.path.getsize(path)
        raise ModelError(f"llama.cpp could not load {path} ({size:,} bytes): {e}; the file may be truncated or corrupt") from e


_LOADED: list = []


@atexit.register
def close_models() -> None:
    """Free every loaded model while the interpreter is still whole. Left to the garbage
    collector at exit, llama.cpp's ``Llama.__del__`` runs after the modules it needs are torn
    down and prints "Exception ignored in: <function Llama.__del__>" and a traceback."""
    while _LOADED:
        _LOADED.pop().close()
    _load.cache_clear()


class LocalLLM:
    def __init__(self, path: str | os.PathLike, n_ctx: int = 8192, n_threads: int | None = None, n_gpu_layers: int | None = None) -> None:
        self.path = Path(path)
        check_gguf(self.path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads or os.cpu_count() or 1
        self.n_gpu_layers = (-1 if gpu_offload_available() else 0) if n_gpu_layers is None else n_gpu_layers
        self._lock = threading.Lock()

    @cached_property
    def llama(self):
        return _load(str(self.path), self.n_ctx, self.n_threads, self.n_gpu_layers)

    @cached_property
    def sha256(self) -> str:
        return model_sha256(self.path)

    @cached_property
    def _formatter(self):
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        llama = self.llama
        template = llama.metadata.get("tokenizer.chat_template")
        if not template:
            raise ModelError(f"{self.path.name} has no chat template: edgerag needs an instruct (chat) model")
        model = llama._model
        eos = model.token_get_text(llama.token_eos()) if llama.token_eos() >= 0 else ""
        bos = model.token_get_text(llama.token_bos()) if llama.token_bos() >= 0 else ""
        return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos, stop_token_ids=[llama.token_eos()])

    # ---- prompts ---------------------------------------------------------------------------
    def format(self, messages: Messages) -> tuple[str, list[str]]:
        """The prompt text (chat template applied, generation prompt added) and stop strings."""
        out = self._formatter(messages=messages)
        self._template_adds_bos = bool(getattr(out, "added_special", False))
        stop = out.stop if isinstance(out.stop, list) else ([out.stop] if out.stop else [])
        return out.prompt, stop

    _template_adds_bos = False

    def tokenize(self, text: str) -> list[int]:
        """Prompt tokens as llama.cpp will see them; BOS is added only when the chat template
        did not write it already (Llama 3's template does: two BOS would hurt the model)."""
        return self.llama.tokenize(text.encode("utf-8"), add_bos=not self._template_adds_bos, special=True)

    def count(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)) if text else 0

    def count_tokens(self, text: str) -> list[int]:
        """``text`` in the model's tokens, as the start of an output (no BOS, no specials)."""
        return self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)

    def end_tokens(self) -> list[int]:
        """Tokens that end a turn: the model's EOS and the chat template's end-of-turn marks."""
        llama = self.llama
        ends = {llama.token_eos()}
        for mark in ("<|im_end|>", "<|eot_id|>", "<|end|>", "<end_of_turn>"):
            ids = llama.tokenize(mark.encode(), add_bos=False, special=True)
            if len(ids) == 1:
                ends.add(ids[0])
        return sorted(t for t in ends if t >= 0)

    def check_fits(self, prompt_tokens: int, max_tokens: int) -> None:
        if prompt_tokens + max_tokens > self.n_ctx:
            raise PromptTooLongError(
                f"the prompt is {prompt_tokens} tokens and {max_tokens} more are allowed for the output, "
                f"but the model's window (n_ctx) is {self.n_ctx}: shorten the input or raise n_ctx"
            )

    # ---- generation ------------------------------------------------------------------------
    def complete(self, prompt: str, stop: list[str], max_tokens: int, grammar=None,
                 on_text: Callable[[str], None] | None = None,
                 halt: Callable[[str], bool] | None = None, choices: list[str] | None = None) -> Completion:  # fmt: skip
        """Greedy completion of a formatted prompt; ``on_text`` receives pieces as they come;
        ``halt(text_so_far)``, checked at each line end and every ``HALT_EVERY`` characters of
        one long line, may end generation early (small models loop, or copy their input: a
        repeated or runaway line is a good reason to stop). With ``choices``, the output is
        one of those strings and nothing else (`ChoiceTrie`)."""
        tokens = self.tokenize(prompt)
        if choices:
            trie = ChoiceTrie([self.count_tokens(c) for c in choices], self.end_tokens(), start=len(tokens))
            max_tokens = min(max_tokens, trie.depth + 1)
        self.check_fits(len(tokens), max_tokens)
        with self._lock:
            llama = self.llama
            reused = _common_prefix(llama.input_ids[: llama.n_tokens], tokens[:-1])
            t0 = time.perf_counter()
            params = dict(max_tokens=max_tokens, temperature=0.0, top_k=1, top_p=1.0, repeat_penalty=1.0, stop=stop, grammar=grammar)
            if choices:
                from llama_cpp import LogitsProcessorList

                params["logits_processor"] = LogitsProcessorList([trie])
            text, finish, n_out, checked = "", "stop", 0, 0
            if on_text is None and halt is None:
                out = llama.create_completion(tokens, **params)
                text = out["choices"][0]["text"]
                finish = out["choices"][0]["finish_reason"] or "stop"
                n_out = out["usage"]["completion_tokens"]
            else:
                for chunk in llama.create_completion(tokens, stream=True, **params):
                    piece = chunk["choices"][0]["text"]
                    if piece:
                        text += piece
                        if on_text is not None:
                            on_text(piece)
                    finish = chunk["choices"][0].get("finish_reason") or finish
                    if halt is not None and ("\n" in piece or len(text) - checked >= HALT_EVERY):
                        checked = len(text)
                        if halt(text):
                            finish = "halted"
                            break
                n_out = max(0, llama.n_tokens - len(tokens))
        return Completion(text=text, prompt_tokens=len(tokens), evaluated_tokens=len(tokens) - reused,
                          output_tokens=n_out, seconds=time.perf_counter() - t0, finish_reason=finish)  # fmt: skip


HALT_EVERY = 160


class ChoiceTrie:
    """A llama.cpp logits processor that lets the model write only one of a list of token
    sequences, then end its turn: at each step every token that does not continue some
    allowed sequence gets −∞. Greedy decoding under it walks the trie of the choices, taking
    the likeliest allowed token each time, so the model picks among the strings it was
    offered (the candidate answers of candidates.py) at the cost of a few output tokens."""

    def __init__(self, sequences: list[list[int]], end: list[int], start: int) -> None:
        self.root: dict = {}
        self.start = start
        """Prompt length: tokens from here on are the output so far."""
        self.end = end
        self.depth = 0
        for seq in sequences:
            if not seq:
                continue
            node = self.root
            for t in seq:
                node = node.setdefault(t, {})
            node[None] = {}  # a choice may end here
            self.depth = max(self.depth, len(seq))

    def allowed(self, output: list[int]) -> list[int]:
        node = self.root
        for t in output:
            node = node.get(t)
            if node is None:
                return self.end
        nxt = [t for t in node if t is not None]
        return nxt + self.end if None in node or not nxt else nxt

    def __call__(self, input_ids, scores):
        import numpy as np

        keep = self.allowed([int(t) for t in input_ids[self.start :]])
        out = np.full_like(scores, -np.inf)
        out[keep] = scores[keep]
        return out


@lru_cache(maxsize=8)
def _grammar(text: str):
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(text, verbose=False)


def _common_prefix(a, b) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class MeteredLLM:
    """A `LocalLLM` whose every call goes through the index's cache and ledger."""

    def __init__(self, llm: LocalLLM, tables: Tables) -> None:
        self.llm = llm
        self.ledger = Ledger(tables)
        self.cache = LLMCache(tables)
        self.spent: Counter[str] = Counter()
        """Tokens of this object's calls, for a caller that wants the cost of a step (eval
        takes differences): fresh ``input``/``evaluated``/``output``, and ``cached_input``/
        ``cached_output`` served by the cache."""

    def prepare(self, messages: Messages, *, max_tokens: int, grammar: str | None = None,
                halt: Callable[[str], bool] | None = None, choices: list[str] | None = None) -> Call:  # fmt: skip
        """The call ``messages`` make, formatted and keyed for the cache, not yet run."""
        prompt, stop = self.llm.format(messages)
        sampling = {"temperature": 0.0, "max_tokens": max_tokens, "grammar": grammar or "", "halt": getattr(halt, "cache_key", getattr(halt, "__name__", ""))}
        if choices:
            sampling["choices"] = choices
        return Call(prompt=prompt, stop=stop, max_tokens=max_tokens, grammar=grammar, halt=halt,
                    key=cache_key(self.llm.sha256, prompt, sampling), choices=choices or None)  # fmt: skip

    def cached(self, call: Call) -> Completion | None:
        """The cache's answer to ``call``, or None."""
        hit = self.cache.get(call.key)
        if hit is None:
            return None
        return Completion(text=hit["text"], prompt_tokens=hit["prompt_tokens"], evaluated_tokens=0,
                          output_tokens=hit["output_tokens"], seconds=0.0, finish_reason=hit["finish_reason"], cached=True)  # fmt: skip

    def run(self, call: Call, on_text: Callable[[str], None] | None = None) -> Completion:
        """Compute ``call`` on this process's model (a fresh call; nothing is recorded)."""
        return run_call(self.llm, call, on_text=on_text)

    def record(self, txn, call: Call, c: Completion, *, stage: str, method: str, ok: bool = True,
               sources: list[str] | None = None, node: str = "") -> None:  # fmt: skip
        """Commit a finished call inside the caller's write transaction: its cache entry (a
        fresh call) and its ledger row, both or neither. Extraction stages put their parsed
        result in the same transaction (graph/skeleton.py), so a chunk is committed whole or
        not at all, whoever computed it; ``node`` names the machine that did (distributed
        builds; empty for this process)."""
        self._account(c)
        if not c.cached:
            self.cache.put(txn, call.key, {"text": c.text, "prompt_tokens": c.prompt_tokens, "output_tokens": c.output_tokens,
                                           "finish_reason": c.finish_reason, "chunks": sorted(set(sources or []))})  # fmt: skip
        self.ledger.record(txn, LedgerRow(stage=stage, method=method, prompt_tokens=c.prompt_tokens, evaluated_tokens=c.evaluated_tokens,
                                          output_tokens=c.output_tokens, seconds=c.seconds, cached=c.cached, model=self.llm.path.name,
                                          ok=ok, node=node))  # fmt: skip

    def _account(self, c: Completion) -> None:
        if c.cached:
            self.spent.update(cached_input=c.prompt_tokens, cached_output=c.output_tokens)
        else:
            self.spent.update(input=c.prompt_tokens, evaluated=c.evaluated_tokens, output=c.output_tokens)

    def chat(self, messages: Messages, *, stage: str, method: str, max_tokens: int, grammar: str | None = None,
             on_text: Callable[[str], None] | None = None, use_cache: bool = True,
             validate: Callable[[str], bool] | None = None,
             halt: Callable[[str], bool] | None = None, sources: list[str] | None = None,
             choices: list[str] | None = None) -> Completion:  # fmt: skip
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
        rows = [r for r in self.ledger.rows() if r.model == name and not r.cached and r.evaluated_tokens >= self.PREFILL_MIN_TOKENS and r.seconds > 0]
        rows = sorted(rows, key=lambda r: r.ts)[-20:]
        return sum(r.evaluated_tokens for r in rows) / sum(r.seconds for r in rows) if rows else None

    def prompt_tokens(self, messages: Messages) -> int:
        prompt, _ = self.llm.format(messages)
        return len(self.llm.tokenize(prompt))
