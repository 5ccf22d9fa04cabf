"""One model, many clients: every model call of the server runs on one thread, questions in the
order they came and before any client task (`ModelQueue`).

llama.cpp runs one call at a time, and two threads in one `Llama` corrupt its state (PrivateGPT's
#1755, #1955), so nothing but this thread touches a model. A request waits as a `Ticket` in a
bounded line; past ``max_waiting`` waiting tickets `submit` raises `QueueFull`, which the routes
answer with 503 and a Retry-After of the expected wait. A ticket whose client went away is
skipped if it has not started, and stopped at its next token if it has (llm/local.py
`interruptible`).

Questions before housekeeping: a client's own task (a chat's title, tags, follow-ups:
client_tasks.py) is a ``task`` ticket with a ``fallback``, its answer made in code. The thread
serves every waiting question before any task; a task that would wait behind a question (one
runs or waits when it comes, or one comes while it waits) is answered by its fallback at once,
and a task the model is running when a question comes is stopped at its next token and
answered by its fallback too. So a question never waits for housekeeping, and a task never
waits long. `ahead` and `wait_seconds` count what really is served first, each call at its
kind's mean seconds here.
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

    def __init__(
        self,
        fn: Callable[[Ticket], Any],
        label: str,
        timed: bool = True,
        task: bool = False,
        fallback: Callable[[Ticket], Any] | None = None,
    ) -> None:
        self.fn = fn
        self.label = label
        self.timed = timed
        """Whether its seconds count toward a call's expected seconds (a warm-up's do not)."""
        self.task = task
        """A client's housekeeping, served after every waiting question."""
        self.fallback = fallback
        """The task's answer made in code, given instead of holding a question up."""
        self.future: Future = Future()
        self.cancelled = threading.Event()
        self.preempted = threading.Event()
        """A question came while this task ran: stop at the next token, answer by the fallback."""
        self.submitted = time.monotonic()
        self.started: float | None = None

    @property
    def kind(self) -> str:
        return "task" if self.task else "question"

    def stopped(self) -> bool:
        return self.cancelled.is_set() or self.preempted.is_set()

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
        self.in_code = 0
        """Tasks answered by their fallback rather than hold a question up."""
        self._seconds: dict[str, deque[float]] = {"question": deque(maxlen=20), "task": deque(maxlen=20)}
        self._closed = False
        # issue #57 (the upload's yield, owned by serve/jobs.py): called with True before each model
        # call and False after it; serve/app.py sets it to `Jobs.model_busy`, which pauses an
        # upload's indexing between batches while the model runs.
        self.on_busy: Callable[[bool], None] | None = None
        self._thread = threading.Thread(target=self._work, name="edgerag-model", daemon=True)
        self._thread.start()

    def submit(
        self,
        fn: Callable[[Ticket], Any],
        label: str = "",
        timed: bool = True,
        task: bool = False,
        fallback: Callable[[Ticket], Any] | None = None,
    ) -> Ticket:
        """Queue ``fn`` for the model's thread, or raise `QueueFull`. A ``task`` with a
        ``fallback`` that would wait behind a question is answered by the fallback at once."""
        ticket = Ticket(fn, label, timed, task, fallback)
        answer_now: list[Ticket] = []
        with self._cond:
            if self._closed:
                raise QueueFull(len(self._waiting), 5)
            questions = self._questions_busy()
            if task and fallback is not None and questions:
                answer_now.append(ticket)
            else:
                # a question does not count the tasks it would send to their fallback
                held = len(self._waiting) - (0 if task else sum(t.task and t.fallback is not None for t in self._waiting))
                if held >= self.max_waiting and (self.running is not None or self._waiting):
                    self.refused += 1
                    raise QueueFull(len(self._waiting), self.retry_after(len(self._waiting) + 1))
                self._waiting.append(ticket)
                if not task:  # tasks waiting or running would hold it up: answered in code instead
                    for t in [t for t in self._waiting if t.task and t.fallback is not None]:
                        self._waiting.remove(t)
                        answer_now.append(t)
                    if self.running is not None and self.running.task and self.running.fallback is not None:
                        self.running.preempted.set()
                self._cond.notify()
        for t in answer_now:
            self._answer_in_code(t)
        return ticket

    def _questions_busy(self) -> bool:
        """Whether a question runs or waits (under the lock)."""
        return (self.running is not None and not self.running.task) or any(not t.task for t in self._waiting)

    def _answer_in_code(self, ticket: Ticket) -> None:
        if not ticket.future.set_running_or_notify_cancel():
            return
        try:
            result = ticket.fallback(ticket)
        except BaseException as e:
            ticket.future.set_exception(e)
        else:
            ticket.future.set_result(result)
        with self._cond:
            self.in_code += 1

    def _ahead(self, ticket: Ticket) -> list[Ticket]:
        """The tickets served before ``ticket`` (under the lock): the running one (unless a
        task this question stops), then the questions before it, or for a task every waiting
        question and the tasks before it."""
        if ticket not in self._waiting:
            return []
        before = self._waiting
        pos = before.index(ticket)
        if ticket.task:
            first = [t for t in before if not t.task] + [t for t in list(before)[:pos] if t.task]
        else:
            first = [t for t in list(before)[:pos] if not t.task]
        running = self.running
        if running is not None and not (running.task and running.fallback is not None and not ticket.task):
            first = [running, *first]
        return first

    def ahead(self, ticket: Ticket) -> int:
        """Requests the model serves before ``ticket`` (0 once it runs)."""
        with self._cond:
            return len(self._ahead(ticket))

    def wait_seconds(self, ticket: Ticket) -> int:
        """About how long ``ticket`` waits: each call ahead at its kind's mean seconds, the
        running one less what it has run."""
        with self._cond:
            first = self._ahead(ticket)
            now = time.monotonic()
            total = 0.0
            for t in first:
                mean = self.call_seconds(t.kind)
                total += max(mean - (now - t.started), 0.5) if t.started is not None else mean
            return max(1, round(total)) if first else 0

    def call_seconds(self, kind: str = "question") -> float:
        """A call's seconds here: the mean of the last 20 of its kind (a question, a task), or
        `DEFAULT_SECONDS` before any."""
        seen = self._seconds[kind]
        return sum(seen) / len(seen) if seen else DEFAULT_SECONDS

    def retry_after(self, calls: int) -> int:
        return max(1, round(calls * self.call_seconds()))

    def status(self) -> dict[str, Any]:
        with self._cond:
            return {
                "running": self.running.label if self.running is not None else None,
                "waiting": len(self._waiting),
                "waiting_tasks": sum(t.task for t in self._waiting),
                "max_waiting": self.max_waiting,
                "served": self.served,
                "refused": self.refused,
                "tasks_in_code": self.in_code,
                "seconds_per_call": round(self.call_seconds(), 2),
                "seconds_per_task": round(self.call_seconds("task"), 2),
            }

    def close(self) -> None:
        """Refuse new work and cancel what waits (the running call is stopped at its next token)."""
        with self._cond:
            self._closed = True
            for t in [*self._waiting, *([self.running] if self.running else [])]:
                t.cancel()
            self._waiting.clear()
            self._cond.notify_all()

    def _next(self) -> Ticket:
        """The first waiting question, else the first task (under the lock)."""
        ticket = next((t for t in self._waiting if not t.task), self._waiting[0])
        self._waiting.remove(ticket)
        return ticket

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed and not self._waiting:
                    return
                ticket = self._next()
                if not ticket.future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited
                ticket.started = time.monotonic()
                self.running = ticket
            t0 = time.monotonic()
            in_code, outcome = False, None
            if self.on_busy is not None:  # issue #57: uploads pause (see __init__)
                self.on_busy(True)
            try:
                with interruptible(ticket.stopped):
                    outcome = (True, ticket.fn(ticket))
            except BaseException as e:  # the caller reads it from the future
                if ticket.preempted.is_set() and not ticket.cancelled.is_set() and ticket.fallback is not None:
                    in_code = True
                    try:
                        outcome = (True, ticket.fallback(ticket))
                    except BaseException as e2:
                        outcome = (False, e2)
                else:
                    outcome = (False, e)
            finally:
                if self.on_busy is not None:  # issue #57: uploads go on
                    self.on_busy(False)
                with self._cond:  # the line is free before the caller hears: its next request finds it so
                    self.running = None
                    self.served += 1
                    self.in_code += in_code
                    if ticket.timed and not ticket.stopped():
                        self._seconds[ticket.kind].append(time.monotonic() - t0)
                if outcome is not None:
                    ok, value = outcome
                    if ok:
                        ticket.future.set_result(value)
                    else:
                        ticket.future.set_exception(value)
