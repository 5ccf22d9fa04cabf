"""Progress of long work: tqdm bars on a terminal, or an observer's callback (the TUI).

Long loops (indexing batches, extraction calls) report through ``bar()``. By default that is
a tqdm bar on stderr, shown only on a terminal. Inside ``observe(callback)`` every bar in
that thread instead calls ``callback(Progress)`` after each step; the callback may raise
`Cancelled` to stop the work at that step. Steps are reported after their results are
committed, so a cancelled build or insert loses nothing and resumes where it stopped.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

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

    def set_postfix(self, refresh: bool = True, **values: Any) -> None:
        self.state.postfix = dict(values)

    def close(self) -> None:
        if not self.state.done:
            self.state.done = True
            try:
                self.callback(self.state)
            except Cancelled:  # the work is over anyway
                pass


def bar(total: int | None = None, desc: str = "", unit: str = "it", enabled: bool | None = None):
    """A progress bar: the observer's when one is set (see `observe`), else a tqdm bar on
    stderr; ``enabled=None`` shows that only when stderr is a terminal."""
    callback = _observer.get()
    if callback is not None:
        return _Observed(callback, total, desc, unit)
    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, file=sys.stderr, dynamic_ncols=True)
