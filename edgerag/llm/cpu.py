"""What this CPU offers llama.cpp, and whether llama.cpp may repack a model's weights for it.

llama.cpp can load a model's weights into *extra buffer types* that repack them for a faster
kernel: AMX tiles on Intel Xeons since Sapphire Rapids (``amx_int8``), interleaved Q4_0/Q4_K
blocks on AVX2 and Arm (``CPU_REPACK``). A pip source build compiles the AMX kernels whenever
the build machine has AMX, and those kernels crash on Q4_K weights: SIGSEGV in
``ggml_backend_amx_mul_mat`` at the first decode (llama.cpp #20824, ollama #17205; on a
Sapphire Rapids host every model call of edgerag died so). Loading with
``llama_model_params.use_extra_bufts = False`` keeps the weights in the plain CPU buffer and
the same build runs. `repack_decision` makes that choice from ``Settings.llm_repack``:

* ``auto`` (the default): no repacking where the CPU reports AMX, repacking elsewhere
  (benchmarks/llm_speed.py measures both; docs/operations.md has the figures);
* ``on`` / ``off``: the user's word, whatever the CPU.

Whatever the choice, `probe.py` proves it in a child process before a process trusts it.
"""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass
from functools import lru_cache

LLAMA_FEATURES = (
    "sse3",
    "ssse3",
    "avx",
    "avx2",
    "f16c",
    "fma",
    "avx_vnni",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "avx512_vbmi",
    "avx512_bf16",
    "amx_tile",
    "amx_int8",
    "amx_bf16",
    "asimd",
    "asimddp",
    "sve",
    "i8mm",
)
"""The CPU features llama.cpp's CPU backend has kernels for (x86 and Arm, as /proc/cpuinfo names them)."""

AMX = frozenset({"amx_tile", "amx_int8"})
REPACK_SETTINGS = ("auto", "on", "off")


@lru_cache(maxsize=1)
def cpu_flags() -> frozenset[str]:
    """Every feature flag the CPU reports: /proc/cpuinfo on Linux, sysctl on macOS, else none."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return frozenset(value.split())
    except OSError:
        pass
    if platform.system() == "Darwin":
        try:
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"], capture_output=True, text=True, timeout=5
            ).stdout
            return frozenset(w.lower().replace(".", "_") for w in out.split())
        except (OSError, subprocess.SubprocessError):
            pass
    return frozenset()


def cpu_class(flags: frozenset[str]) -> str:
    """The class of int8 and vector kernels this CPU gets, as the docs name hosts: ``amx``,
    ``avx512-vnni``, ``avx512``, ``avx2``, ``arm`` or ``other``."""
    if AMX <= flags:
        return "amx"
    if "avx512f" in flags:
        return "avx512-vnni" if "avx512_vnni" in flags else "avx512"
    if "avx2" in flags:
        return "avx2"
    return "arm" if "asimd" in flags else "other"


@lru_cache(maxsize=1)
def cpu_model() -> str:
    """The CPU's marketing name, as the OS reports it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "Hardware"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def usable_cores() -> int:
    """Cores this process may run on (a container's or taskset's limit, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS
        return os.cpu_count() or 1


def llama_features(flags: frozenset[str] | None = None) -> list[str]:
    """The CPU's features that llama.cpp has kernels for, in `LLAMA_FEATURES` order."""
    flags = cpu_flags() if flags is None else flags
    return [f for f in LLAMA_FEATURES if f in flags]


@dataclass(frozen=True)
class RepackDecision:
    repack: bool
    """Load with llama.cpp's extra buffer types (``use_extra_bufts``)."""
    setting: str
    reason: str


def repack_decision(setting: str = "auto", flags: frozenset[str] | None = None) -> RepackDecision:
    """Whether llama.cpp may repack weights (``use_extra_bufts``) on a CPU with ``flags``."""
    if setting not in REPACK_SETTINGS:
        raise ValueError(f"llm_repack must be one of {', '.join(REPACK_SETTINGS)}; got {setting!r}")
    if setting != "auto":
        return RepackDecision(setting == "on", setting, f"llm_repack={setting}")
    flags = cpu_flags() if flags is None else flags
    amx = sorted(AMX & flags)
    if amx:
        return RepackDecision(
            False, setting, f"the CPU reports {', '.join(amx)}: llama.cpp's AMX kernels crash on Q4_K weights, so weights are not repacked"
        )
    return RepackDecision(True, setting, "no AMX on this CPU: llama.cpp may repack weights for its faster kernels")
