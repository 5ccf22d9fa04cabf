"""Progress of long work: tqdm bars on a terminal, log lines, or an observer's callback (the TUI).

Long loops (indexing batches, graph stages, extraction calls) report through ``bar()``. By
default that is a tqdm bar on stderr, shown only on a terminal; with ``EDGERAG_PROGRESS=lines``
each step is one plain line on stderr instead (batch scripts that log to a file). Inside
``observe(callback)`` every bar in that thread instead calls ``callback(Progress)`` after each
step; the callback may raise `Cancelled` to stop the work at that step. Steps are reported
after their results are committed, so a cancelled build or insert loses nothing and resumes
where it stopped.

`stop_on_interrupt()` (the CLI wraps `index` and `build` in it) turns the first Ctrl-C into such a
stop: the step under way finishes and commits, the next step boundary raises `Cancelled`. A
second Ctrl-C interrupts at once (LMDB aborts the open transaction, so even that loses only
the uncommitted step).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from tqdm.auto import tqdm


class Cancelled(Exception):
    """Raised by a progress observer to stop long work between two committed steps."""


@dataclass
class Progress:
    """One step of a long job: ``n`` of ``total`` ``unit``s done (``total`` None = unknown)."""

    desc: str
    n: int
    total: int | None
    unit: str
    postfix: dict[str, Any] = field(default_factory=dict)
    done: bool = False


_stop = threading.Event()


def _check_stop() -> None:
    if _stop.is_set():
        raise Cancelled("stopped on request")


@contextmanager
def stop_on_interrupt(message: str = "stopping after the step under way (Ctrl-C again to stop at once) …") -> Iterator[None]:
    """The first SIGINT requests a stop at the next step boundary, the second raises
    KeyboardInterrupt. Only in the main thread (elsewhere signals cannot be caught)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        if _stop.is_set():
            signal.signal(signal.SIGINT, signal.default_int_handler)
            raise KeyboardInterrupt
        _stop.set()
        print(f"\n{message}", file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _stop.clear()


_observer: ContextVar[Callable[[Progress], None] | None] = ContextVar("edgerag_progress", default=None)


@contextmanager
def observe(callback: Callable[[Progress], None]) -> Iterator[None]:
    """Send every progress step of this thread's work to ``callback`` instead of a tqdm bar."""
    token = _observer.set(callback)
    try:
        yield
    finally:
        _observer.reset(token)


class _Observed:
    """The part of tqdm's interface our loops use, reporting to an observer."""

    def __init__(self, callback: Callable[[Progress], None], total: int | None, desc: str, unit: str) -> None:
        self.callback = callback
        self.state = Progress(desc, 0, total, unit)
        callback(self.state)

    def update(self, n: int = 1) -> None:
        self.state.n += n
        self.callback(self.state)
        _check_stop()

    def set_postfix(self, refresh: bool = True, **values: Any) -> None:
        self.state.postfix = dict(values)

    def close(self) -> None:
        if not self.state.done:
            self.state.done = True
            try:
                self.callback(self.state)
            except Cancelled:  # the work is over anyway
                pass


class _Bar(tqdm):
    """tqdm whose steps are also stop points (see `stop_on_interrupt`)."""

    def update(self, n: float | None = 1) -> bool | None:
        shown = super().update(n)
        _check_stop()
        return shown


def _line(p: Progress) -> None:
    total = f"/{p.total}" if p.total is not None else ""
    extra = "".join(f" {k}={v}" for k, v in p.postfix.items())
    state = " done" if p.done else ""
    print(f"{p.desc}: {p.n}{total} {p.unit}{extra}{state}", file=sys.stderr, flush=True)


def bar(total: int | None = None, desc: str = "", unit: str = "it", enabled: bool | None = None):
    """A progress bar: the observer's when one is set (see `observe`), else one line per step
    when ``EDGERAG_PROGRESS=lines``, else a tqdm bar on stderr; ``enabled=None`` shows that
    only when stderr is a terminal, ``enabled=False`` shows nothing (steps still stop on
    request)."""
    callback = _observer.get()
    if callback is not None:
        return _Observed(callback, total, desc, unit)
    if enabled is not False and os.environ.get("EDGERAG_PROGRESS", "").lower() == "lines":
        return _Observed(_line, total, desc, unit)
    if enabled is None:
        enabled = sys.stderr.isatty()
    return _Bar(total=total, desc=desc, unit=unit, disable=not enabled, file=sys.stderr, dynamic_ncols=True)
