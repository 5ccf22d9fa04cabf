"""One model, many clients: every model call of the server runs on one thread, in the order the
requests came (`ModelQueue`).

llama.cpp runs one call at a time, and two threads in one `Llama` corrupt its state (PrivateGPT's
#1755, #1955), so nothing but this thread touches a model. A request waits as a `Ticket` in a
bounded line; past ``max_waiting`` waiting tickets `submit` raises `QueueFull`, which the routes
answer with 503 and a Retry-After of the expected wait. A ticket whose client went away is
skipped if it has not started, and stopped at its next token if it has (llm/local.py
`interruptible`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from ..llm.local import interruptible

DEFAULT_SECONDS = 15.0
"""A call's expected seconds before any has been timed (the default answer time budget)."""


class QueueFull(Exception):
    """The line for the model is full; ``retry_after`` seconds is the expected wait."""

    def __init__(self, waiting: int, retry_after: int) -> None:
        super().__init__(f"{waiting} requests are already waiting for the model; retry in about {retry_after} s")
        self.waiting = waiting
        self.retry_after = retry_after


class Ticket:
    """One request's turn on the model: ``fn(ticket)`` runs on the model's thread, its result
    or exception lands in ``future``."""

    def __init__(self, fn: Callable[[Ticket], Any], label: str, timed: bool = True) -> None:
        self.fn = fn
        self.label = label
        self.timed = timed
        """Whether its seconds count toward a call's expected seconds (a warm-up's do not)."""
        self.future: Future = Future()
        self.cancelled = threading.Event()
        self.submitted = time.monotonic()

    def cancel(self) -> None:
        """The client went away: skip the work, or stop it at its next token."""
        self.cancelled.set()
        self.future.cancel()  # succeeds only while it waits


class ModelQueue:
    def __init__(self, max_waiting: int) -> None:
        if max_waiting < 0:
            raise ValueError(f"the queue's size must be 0 or more, got {max_waiting}")
        self.max_waiting = max_waiting
        self._waiting: deque[Ticket] = deque()
        self._cond = threading.Condition()
        self.running: Ticket | None = None
        self.served = 0
        self.refused = 0
        self._seconds: deque[float] = deque(maxlen=20)
        self._closed = False
        # issue #57 (the upload's yield, owned by serve/jobs.py): called with True before each model
        # call and False after it; serve/app.py sets it to `Jobs.model_busy`, which pauses an
        # upload's indexing between batches while the model runs.
        self.on_busy: Callable[[bool], None] | None = None
        self._thread = threading.Thread(target=self._work, name="edgerag-model", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[Ticket], Any], label: str = "", timed: bool = True) -> Ticket:
        """Queue ``fn`` for the model's thread, or raise `QueueFull`."""
        with self._cond:
            if self._closed:
                raise QueueFull(len(self._waiting), 5)
            if len(self._waiting) >= self.max_waiting and (self.running is not None or self._waiting):
                self.refused += 1
                raise QueueFull(len(self._waiting), self.retry_after(len(self._waiting) + 1))
            ticket = Ticket(fn, label, timed)
            self._waiting.append(ticket)
            self._cond.notify()
            return ticket

    def ahead(self, ticket: Ticket) -> int:
        """Requests the model serves before ``ticket`` (0 once it runs)."""
        with self._cond:
            if ticket not in self._waiting:
                return 0
            return self._waiting.index(ticket) + (self.running is not None)

    def call_seconds(self) -> float:
        """A call's seconds here: the mean of the last 20, or `DEFAULT_SECONDS` before any."""
        return sum(self._seconds) / len(self._seconds) if self._seconds else DEFAULT_SECONDS

    def retry_after(self, calls: int) -> int:
        return max(1, round(calls * self.call_seconds()))

    def status(self) -> dict[str, Any]:
        with self._cond:
            return {
                "running": self.running.label if self.running is not None else None,
                "waiting": len(self._waiting),
                "max_waiting": self.max_waiting,
                "served": self.served,
                "refused": self.refused,
                "seconds_per_call": round(self.call_seconds(), 2),
            }

    def close(self) -> None:
        """Refuse new work and cancel what waits (the running call is stopped at its next token)."""
        with self._cond:
            self._closed = True
            for t in [*self._waiting, *([self.running] if self.running else [])]:
                t.cancel()
            self._waiting.clear()
            self._cond.notify_all()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed and not self._waiting:
                    return
                ticket = self._waiting.popleft()
                if not ticket.future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited
                self.running = ticket
            t0 = time.monotonic()
            if self.on_busy is not None:  # issue #57: uploads pause (see __init__)
                self.on_busy(True)
            try:
                with interruptible(ticket.cancelled.is_set):
                    result = ticket.fn(ticket)
            except BaseException as e:  # the caller reads it from the future
                ticket.future.set_exception(e)
            else:
                ticket.future.set_result(result)
            finally:
                if self.on_busy is not None:  # issue #57: uploads go on
                    self.on_busy(False)
                with self._cond:
                    self.running = None
                    self.served += 1
                    if ticket.timed and not ticket.cancelled.is_set():
                        self._seconds.append(time.monotonic() - t0)
