"""How fast a model runs on this machine at rest, in prompt and generation tokens per second
(issues #41, #57).

The answer's time budget (``Settings.answer_seconds``) is turned into tokens with these
figures, and ``answer_model auto`` chooses the model that answers by them. A machine's speed is
measured, never guessed from its CPU flags: the 0.5B model reads 44 prompt tokens/s on one
2-core AVX2 host and 197 on another.

What is read must not depend on what else the machine is doing (#57): while a build ran, the
plan shrank, the answer changed, the LLM cache kept the changed one, and ``answer_model auto``
dropped the 1.5B model for good. So the figures are the speeds **at rest**, and a call that
shared the cores never lowers them:

* The rest figure starts from a probe (probe.py: one generation in a child process, the first
  time a model loads on a machine; ``edgerag doctor`` measures again and replaces it).
  A probe that shared the cores (sharing.py) is kept only where there is no figure yet, marked
  as such, until a measurement alone on the cores raises it.
* Every fresh model call is then a sample. A call's seconds are split with the other figure:
  prompt speed = evaluated ÷ (seconds − output ÷ generation speed) for a call that spent most of
  its time reading, generation speed the other way round for one that spent most of it writing
  (a KG extraction call is mostly writing: no prompt-speed sample). A call that shared the cores
  (sharing.py), or that measured under `SLOW_FRACTION` of the rest figure (sharing not seen), is
  counted and set aside.
* The rest figure is the probe's, or the median of the last `KEEP` calls alone on the cores
  where there are `MIN_CLEAN` of them and it is higher: clean calls move it (never below the
  probe's), a call that shared the cores never does; ``edgerag doctor`` measures it afresh.

Load changes how long a wait is (the server's line counts calls' real seconds), never what is read.

They are kept per model (sha256), CPU, thread count and GPU offload under `models.cache_dir`
``/speeds``, outside any index: a new index on the same machine plans with what the last one
learnt. The file: ``probe`` (the rest measurement; older files have it too), ``clean`` (samples of
calls alone on the cores), ``prompt`` and ``generation`` (every call's samples, as older versions
kept them: not read for the plan) and ``shared_calls``. A file written before #57 loads with its
probe's figures: its call samples may come from a busy hour.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from .sharing import shared as shared_cores

KEEP = 15
"""Samples kept per speed."""
MIN_CLEAN = 3
"""Calls alone on the cores it takes to raise the rest figure (their median: one fast outlier does not)."""
MIN_PROMPT = 64
"""Evaluated prompt tokens a call needs to be a prompt-speed sample."""
MIN_OUTPUT = 8
"""Output tokens a call needs to be a generation-speed sample."""
SLOW_FRACTION = 0.5
"""A sample under this share of the rest figure is taken as a call that shared the cores, seen or not."""


@dataclass(frozen=True)
class Speeds:
    """A model's speeds here at rest, in tokens per second."""

    prompt: float
    generation: float
    calls: int = 0
    """Calls alone on the cores among the samples kept (0: the probe's figures alone)."""
    shared: int = 0
    """Calls that shared the cores with other work since the last ``edgerag doctor``: not counted."""
    provisional: bool = False
    """The only measurement was taken while other work used the cores (the figures may be low)."""

    def seconds(self, evaluated: int, output: int) -> float:
        """Expected seconds of a call that evaluates ``evaluated`` prompt tokens and writes ``output``."""
        return evaluated / self.prompt + output / self.generation

    def summary(self) -> str:
        how = f"the probe's and {self.calls} calls alone on the cores" if self.calls else "the probe's"
        if self.provisional:
            how += "; measured while other work used the cores: run `edgerag doctor` when the machine is idle"
        if self.shared:
            how += f"; {self.shared} calls beside other work not counted"
        return f"at rest: prompt {self.prompt:.0f} tokens/s, generation {self.generation:.1f} tokens/s ({how})"


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


def from_probe(
    key: str, prompt_tps: float, generation_tps: float, *, others: float | None = None, threads: int | None = None, reset: bool = False
) -> bool:
    """Remember a probe's figures; True when they are taken as the rest figure. ``others``: the
    cores other processes used meanwhile (sharing.py), with the probe's ``threads``. A probe
    that shared the cores is kept only where there is no figure yet (marked provisional). A
    clean one replaces a provisional figure and raises a lower one; with ``reset``
    (``edgerag doctor``) it replaces the figure and the calls' samples: measured afresh."""
    if not (prompt_tps > 0 and generation_tps > 0):
        return False
    data = _read(key)
    base = data.get("probe") or {}
    busy = shared_cores(others, threads or os.cpu_count() or 1) is True
    entry = {"prompt": prompt_tps, "generation": generation_tps, "others_cores": others, "at": time.time()}
    if busy:
        if not base:
            data["probe"] = entry | {"shared": True}
            _write(key, data)
        return False
    if reset or not base or base.get("shared"):
        data["probe"] = entry
        if reset:
            for name in ("clean", "prompt", "generation", "shared_calls"):
                data.pop(name, None)
    else:  # a faster clean measurement raises the figure; a slower one does not lower it
        data["probe"] = entry | {
            "prompt": max(prompt_tps, base.get("prompt") or 0),
            "generation": max(generation_tps, base.get("generation") or 0),
        }
    _write(key, data)
    return True


def _rest(base: float | None, clean: list[float]) -> float | None:
    if len(clean) >= MIN_CLEAN:
        return max(base or 0.0, statistics.median(clean))
    return base


def load(key: str) -> Speeds | None:
    """The speeds at rest measured here (None before any probe)."""
    data = _read(key)
    base = data.get("probe") or {}
    clean = data.get("clean") or {}
    p, g = _rest(base.get("prompt"), clean.get("prompt") or []), _rest(base.get("generation"), clean.get("generation") or [])
    if not p or not g:
        return None
    calls = max(len(clean.get("prompt") or []), len(clean.get("generation") or []))
    provisional = bool(base.get("shared")) and (p, g) == (base.get("prompt"), base.get("generation"))
    return Speeds(float(p), float(g), calls=calls, shared=int(data.get("shared_calls") or 0), provisional=provisional)


def samples(now: Speeds, evaluated: int, output: int, seconds: float) -> dict[str, float]:
    """What one call says of the speeds, split with the rest figures ``now``: a prompt speed
    for a call that spent most of its time reading, a generation speed for one that spent it
    writing (each only past `MIN_PROMPT` / `MIN_OUTPUT` tokens)."""
    reading = evaluated / now.prompt >= output / now.generation
    out: dict[str, float] = {}
    if reading and evaluated >= MIN_PROMPT and seconds - output / now.generation > 0:
        out["prompt"] = evaluated / (seconds - output / now.generation)
    if not reading and output >= MIN_OUTPUT and seconds - evaluated / now.prompt > 0:
        out["generation"] = output / (seconds - evaluated / now.prompt)
    return out


def record(
    key: str, evaluated: int, output: int, seconds: float, *, others: float | None = None, threads: int | None = None
) -> Speeds | None:
    """Add one fresh call's figures; returns the speeds after it. ``others``: the cores other
    processes kept busy during the call (sharing.py; None: not known), ``threads`` its llama.cpp
    threads. A call that shared the cores, or measured far under the rest figure, is counted
    and leaves the rest figure as it was."""
    now = load(key)
    if now is None or seconds <= 0:
        return now
    got = samples(now, evaluated, output, seconds)
    if not got:
        return now
    data = _read(key)
    alone = shared_cores(others, threads or os.cpu_count() or 1) is not True
    alone = alone and all(v >= SLOW_FRACTION * getattr(now, name) for name, v in got.items())
    clean = data.get("clean") if isinstance(data.get("clean"), dict) else {}
    for name, v in got.items():
        data[name] = (data.get(name) or [])[-(KEEP - 1) :] + [v]  # every call's, as older versions kept them
        if alone:
            clean[name] = (clean.get(name) or [])[-(KEEP - 1) :] + [v]
    data["clean"] = clean
    if not alone:
        data["shared_calls"] = int(data.get("shared_calls") or 0) + 1
    _write(key, data)
    return load(key)
