"""How fast a model runs on this machine, in prompt and generation tokens per second (issue #41).

The answer's time budget (``Settings.answer_seconds``) is turned into tokens with these
figures, and ``answer_model auto`` chooses the model that answers by them. A machine's speed is
measured, never guessed from its CPU flags: the 0.5B model reads 44 prompt tokens/s on one
2-core AVX2 host and 197 on another.

* The first figures are the probe's (probe.py: one short generation in a child process the
  first time a model loads on a machine, remembered with its verdict).
* Every fresh model call then adds a sample (`record`). A call's seconds are split with the
  other figure: prompt speed = evaluated ÷ (seconds − output ÷ generation speed), and the other
  way round for a call that spent most of its time writing (a short answer's few tokens say
  little about generation speed). The speeds are the medians of the last `KEEP` samples, so one slow call (another
  job on the cores) moves them little.

They are kept per model (sha256), CPU, thread count and GPU offload under `models.cache_dir`
``/speeds``, outside any index: a new index on the same machine plans with what the last one
learnt.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
from dataclasses import dataclass
from pathlib import Path

KEEP = 15
"""Samples kept per speed; the figure is their median."""
MIN_PROMPT = 64
"""Evaluated prompt tokens a call needs to be a prompt-speed sample."""
MIN_OUTPUT = 8
"""Output tokens a call needs to be a generation-speed sample."""


@dataclass(frozen=True)
class Speeds:
    """A model's measured speeds here, in tokens per second."""

    prompt: float
    generation: float
    calls: int = 0
    """Model calls measured beyond the probe (0: the probe's figures alone)."""

    def seconds(self, evaluated: int, output: int) -> float:
        """Expected seconds of a call that evaluates ``evaluated`` prompt tokens and writes ``output``."""
        return evaluated / self.prompt + output / self.generation

    def summary(self) -> str:
        how = f"median of {self.calls} calls" if self.calls else "the probe's"
        return f"prompt {self.prompt:.0f} tokens/s, generation {self.generation:.1f} tokens/s ({how})"


def machine_key(model_sha: str, threads: int, gpu_layers: int) -> str:
    """The model on this CPU with this many threads, offloaded or not."""
    from .cpu import cpu_model

    blob = json.dumps({"model": model_sha, "cpu": cpu_model(), "threads": threads, "gpu": gpu_layers != 0}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _path(key: str) -> Path:
    from .models import cache_dir

    return cache_dir() / "speeds" / f"{key}.json"


def _read(key: str) -> dict:
    try:
        data = json.loads(_path(key).read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write(key: str, data: dict) -> None:
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: the probe's figures serve


def from_probe(key: str, prompt_tps: float, generation_tps: float) -> None:
    """Remember a probe's figures as the first speeds (kept when calls have been measured)."""
    if prompt_tps > 0 and generation_tps > 0:
        data = _read(key)
        data["probe"] = {"prompt": prompt_tps, "generation": generation_tps}
        _write(key, data)


def load(key: str) -> Speeds | None:
    """The speeds measured here (None before any probe or call)."""
    data = _read(key)
    probe = data.get("probe") or {}
    prompt, generation = data.get("prompt") or [], data.get("generation") or []
    p = statistics.median(prompt) if prompt else probe.get("prompt")
    g = statistics.median(generation) if generation else probe.get("generation")
    if not p or not g:
        return None
    return Speeds(float(p), float(g), calls=max(len(prompt), len(generation)))


def record(key: str, evaluated: int, output: int, seconds: float) -> Speeds | None:
    """Add one fresh call's figures; returns the speeds after it."""
    now = load(key)
    if now is None or seconds <= 0:
        return now
    data = _read(key)
    if evaluated >= MIN_PROMPT:
        spent = seconds - output / now.generation
        if spent > 0:
            data["prompt"] = (data.get("prompt") or [])[-(KEEP - 1) :] + [evaluated / spent]
    if output >= MIN_OUTPUT and output / now.generation >= evaluated / now.prompt:  # mostly writing
        spent = seconds - evaluated / now.prompt
        if spent > 0:
            data["generation"] = (data.get("generation") or [])[-(KEEP - 1) :] + [output / spent]
    _write(key, data)
    return load(key)
