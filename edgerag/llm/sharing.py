"""Whether a model call had this machine's cores to itself (issue #57).

llama.cpp runs one thread a core and waits for the slowest at every step, so another process on
the cores slows it far more than its share: beside a build the probe measured 0.3 generated
tokens/s where it measures 40 at rest. A speed measured then says what the other process did,
not what this machine does, and the rest figure (speeds.py) must not learn from it.

A `Watch` taken before and after a call reads the cores' busy time from ``/proc/stat`` (every
process's, this one's included) and this process's own CPU time; what the cores spent beyond
this process's own is other processes' work, in cores (`others_cores`). A call `shared` the
cores when others used more than the cores llama.cpp left free, and `SPARE_CORES` of a core
besides (a desktop's idle chatter stays under it). Where ``/proc/stat`` cannot be read (not
Linux), or a call was too short to tell (`MIN_WALL_S`), the answer is None: not known.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

SPARE_CORES = 0.25
"""Cores other processes may use during a call, beyond those llama.cpp leaves free, and the call
still counts as alone on them."""
MIN_WALL_S = 0.5
"""Calls shorter than this are not judged: ``/proc/stat`` counts in 10 ms ticks."""

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Watch:
    """The clocks at one moment: wall, this process's CPU, and all cores' busy time (None: unknown)."""

    wall: float
    own: float
    busy: float | None
    cores: int


def _cores_busy() -> tuple[float, int] | None:
    """Seconds all cores have been busy since boot (user, nice, system, irq, softirq, steal),
    and how many cores ``/proc/stat`` counts."""
    try:
        with open("/proc/stat") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    first = lines[0].split() if lines else []
    if len(first) < 9 or first[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    cores = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    return (user + nice + system + irq + softirq + steal) / _TICK, max(1, cores)


def watch() -> Watch:
    got = _cores_busy()
    return Watch(time.monotonic(), time.process_time(), got[0] if got else None, got[1] if got else (os.cpu_count() or 1))


def others_cores(start: Watch, end: Watch) -> float | None:
    """Cores other processes kept busy, on average, between ``start`` and ``end``; None when
    not known (no ``/proc/stat``, or too short a span to tell)."""
    wall = end.wall - start.wall
    if start.busy is None or end.busy is None or wall < MIN_WALL_S:
        return None
    others = (end.busy - start.busy) - (end.own - start.own)
    return max(0.0, others / wall)


def shared(others: float | None, threads: int, cores: int | None = None) -> bool | None:
    """Whether a call with ``threads`` llama.cpp threads shared the cores with other processes
    that kept ``others`` cores busy (None: not known)."""
    if others is None:
        return None
    cores = cores or os.cpu_count() or 1
    return others > max(0, cores - threads) + SPARE_CORES
