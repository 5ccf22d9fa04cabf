"""The local GGUF model through llama-cpp-python (metered.py puts the cache and ledger in front).

`LocalLLM` loads a model once per process with an explicit context window (``n_ctx``; no
silent 512/2048 default), all cores, every layer on the GPU when llama.cpp was built with
one, greedy decoding and a hard cap on output tokens. The first load on a machine is proven
in a child process first (probe.py), so a llama.cpp crash is a message. Prompts are formatted with the chat
template stored in the GGUF and measured in the model's own vocabulary *before* the call, so
a prompt that does not fit the window is refused rather than truncated by llama.cpp.

`ChoiceTrie` constrains an output to one of a list of strings (the reader's ``choose`` mode).

`interruptible(check)` makes every call this thread starts stoppable: generation ends at the next
token once ``check()`` is true, raising `Interrupted` (the server frees the model so when its
client disconnects, serve/model_queue.py). Nothing of an interrupted call is cached or metered.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from . import sharing
from .models import ModelError, check_gguf, model_sha256
from .probe import load_llama, proven_repack

SPEED_PROBE_PROMPT = 512
"""Prompt tokens of the probe that first measures a model's speeds (`LocalLLM.speeds`): about one
read's prompt (500 tokens of evidence and the question), where prefill runs at the speed reads see;
128 tokens measured the 0.5B model at 120-158 tokens/s where its reads ran at 183-208."""


class PromptTooLongError(ValueError):
    """The prompt plus the output cap does not fit the model's context window."""


class Interrupted(Exception):
    """A call stopped because its `interruptible` check said so (its caller went away)."""


_interrupt: ContextVar[Callable[[], bool] | None] = ContextVar("edgerag_interrupt", default=None)


@contextmanager
def interruptible(check: Callable[[], bool]) -> Iterator[None]:
    """Within the block, every model call of this thread ends at its next token once ``check()``
    is true (raising `Interrupted`), and one not yet started is not started."""
    token = _interrupt.set(check)
    try:
        yield
    finally:
        _interrupt.reset(token)


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
    others_cores: float | None = None
    """Cores other processes kept busy during the call (sharing.py; None: not known): a call that
    shared the cores is no sample of this machine's speed at rest (speeds.py)."""

    def account(self) -> dict[str, int]:
        """Its tokens as an answer counts them: fresh ``input``/``output`` (none when the cache
        served it), ``evaluated``, and ``cached_input``/``cached_output``."""
        return {
            "input": 0 if self.cached else self.prompt_tokens,
            "output": 0 if self.cached else self.output_tokens,
            "evaluated": self.evaluated_tokens,
            "cached_input": self.prompt_tokens if self.cached else 0,
            "cached_output": self.output_tokens if self.cached else 0,
        }


Messages = list[dict[str, str]]


def gpu_offload_available() -> bool:
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


@lru_cache(maxsize=2)
def _load(path: str, n_ctx: int, n_threads: int, n_gpu_layers: int, repack_setting: str = "auto"):
    """The model, loaded once per process, with the repack choice a probe proved on this
    machine (probe.py: a crash in llama.cpp becomes a `ModelCrashError`, not a dead process)."""
    repack = proven_repack(path, repack_setting, n_gpu_layers, n_threads)
    try:
        llama = load_llama(path, n_ctx, n_threads, n_gpu_layers, repack)
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
    def __init__(
        self,
        path: str | os.PathLike,
        n_ctx: int = 8192,
        n_threads: int | None = None,
        n_gpu_layers: int | None = None,
        repack: str = "auto",
    ) -> None:
        self.path = Path(path)
        check_gguf(self.path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads or os.cpu_count() or 1
        self.n_gpu_layers = (-1 if gpu_offload_available() else 0) if n_gpu_layers is None else n_gpu_layers
        self.repack = repack
        """``Settings.llm_repack``: whether llama.cpp may repack weights (cpu.py)."""
        self._lock = threading.Lock()

    @cached_property
    def llama(self):
        return _load(str(self.path), self.n_ctx, self.n_threads, self.n_gpu_layers, self.repack)

    @cached_property
    def n_params(self) -> int:
        """The model's parameter count, from its GGUF (loads the model)."""
        import llama_cpp

        return int(llama_cpp.llama_model_n_params(self.llama.model))

    @cached_property
    def sha256(self) -> str:
        return model_sha256(self.path)

    # ---- speed on this machine (speeds.py) -------------------------------------------------
    @cached_property
    def speed_key(self) -> str:
        from .speeds import machine_key

        return machine_key(self.sha256, self.n_threads, self.n_gpu_layers)

    def speeds(self):
        """This model's `speeds.Speeds` at rest here with these threads: a probe's figures, raised
        by its calls alone on the cores (a call that shared them never lowers them). The first
        time, a probe measures them (a child process, as at a first load: `SPEED_PROBE_PROMPT`
        prompt tokens, 16 out, a few seconds once per machine and thread count); None when probes
        are off (``EDGERAG_PROBE=off``) or it fails."""
        from . import speeds
        from .probe import probes_off

        got = speeds.load(self.speed_key)
        if got is None and not probes_off():
            self.measure_speeds()
            got = speeds.load(self.speed_key)
        return got

    def measure_speeds(self, reset: bool = False, max_tokens: int = 16):
        """Probe this model's speeds now (a child process: `SPEED_PROBE_PROMPT` prompt tokens,
        ``max_tokens`` out) and remember them (speeds.py `from_probe`; ``reset``: replace the
        rest figure, as ``edgerag doctor`` does). Returns the `probe.ProbeResult` and whether
        its figures were taken as the rest figure (not when other work used the cores)."""
        from . import speeds
        from .probe import probe

        repack = proven_repack(str(self.path), self.repack, self.n_gpu_layers, self.n_threads)
        result = probe(self.path, repack, self.n_gpu_layers, self.n_threads, prompt_tokens=SPEED_PROBE_PROMPT, max_tokens=max_tokens)
        taken = result.ok and speeds.from_probe(
            self.speed_key,
            result.prompt_tokens_per_s,
            result.generation_tokens_per_s,
            others=result.others_cores,
            threads=self.n_threads,
            reset=reset,
        )
        return result, taken

    def record_speed(self, c: Completion) -> None:
        """One fresh call's figures join this machine's speeds (once there are some to join)."""
        from . import speeds

        if not c.cached:
            speeds.record(self.speed_key, c.evaluated_tokens, c.output_tokens, c.seconds, others=c.others_cores, threads=self.n_threads)

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
    def complete(
        self,
        prompt: str,
        stop: list[str],
        max_tokens: int,
        grammar=None,
        on_text: Callable[[str], None] | None = None,
        halt: Callable[[str], bool] | None = None,
        choices: list[str] | None = None,
    ) -> Completion:
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
        stop_now = _interrupt.get()
        if stop_now is not None and stop_now():
            raise Interrupted("the call was not started: its caller went away")
        with self._lock:
            llama = self.llama
            reused = _common_prefix(llama.input_ids[: llama.n_tokens], tokens[:-1])
            t0, w0 = time.perf_counter(), sharing.watch()
            params = dict(max_tokens=max_tokens, temperature=0.0, top_k=1, top_p=1.0, repeat_penalty=1.0, stop=stop, grammar=grammar)
            if choices:
                from llama_cpp import LogitsProcessorList

                params["logits_processor"] = LogitsProcessorList([trie])
            text, finish, n_out, checked = "", "stop", 0, 0
            if on_text is None and halt is None and stop_now is None:
                out = llama.create_completion(tokens, **params)
                text = out["choices"][0]["text"]
                finish = out["choices"][0]["finish_reason"] or "stop"
                n_out = out["usage"]["completion_tokens"]
            else:
                for chunk in llama.create_completion(tokens, stream=True, **params):
                    if stop_now is not None and stop_now():
                        raise Interrupted(f"stopped after {len(text)} characters: its caller went away")
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
            seconds, others = time.perf_counter() - t0, sharing.others_cores(w0, sharing.watch())
        return Completion(
            text=text,
            prompt_tokens=len(tokens),
            evaluated_tokens=len(tokens) - reused,
            output_tokens=n_out,
            seconds=seconds,
            finish_reason=finish,
            others_cores=others,
        )


HALT_EVERY = 160


class ChoiceTrie:
    """A llama.cpp logits processor that lets the model write only one of a list of token
    sequences, then end its turn: at each step every token that does not continue some
    allowed sequence gets −∞. Greedy decoding under it walks the trie of the choices, taking
    the likeliest allowed token each time, so the model picks among the strings it was
    offered (the candidate answers of answer/candidates.py) at the cost of a few output tokens."""

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


def _common_prefix(a, b) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
