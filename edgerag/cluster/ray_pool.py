"""Ray plumbing for distributed runs: a session, a pool of actors of one kind, and a parallel
map over them that survives losing some (cluster/indexing.py puts edgerag's model work on it).

`Pool.map` draws jobs lazily, keeps ``RayOptions.depth`` queued on each worker, and sends a
job again to another worker when its worker dies, raises, or answers something that is not a
result of that job (the worker is then retired). A job that fails on ``max_attempts``
workers stops the run with `DistributedError`. Ray is imported only when a session starts.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger(__name__)

RAY_EXTRA = "pip install 'edgerag[ray]'"


class RayUnavailableError(ImportError):
    """``--ray`` was asked for but Ray is not installed."""


class DistributedError(RuntimeError):
    """The distributed run cannot go on (no worker left, a call failing everywhere);
    everything committed so far is kept."""


def import_ray():
    """The ``ray`` module, or a clear error naming the extra to install."""
    try:
        import ray
    except ImportError as e:
        raise RayUnavailableError(f"--ray needs Ray, which is not installed: {RAY_EXTRA} (on every node)") from e
    return ray


@dataclass
class RayOptions:
    """Where and how wide a distributed run is."""

    address: str | None = None
    """None (or "local"): start a Ray instance on this machine for the run and stop it after;
    "auto": the cluster this machine joined with ``ray start``; "HOST:PORT": that cluster's
    head. When Ray is already initialised in this process, that session is used as it is."""
    workers: int | None = None
    """Model workers; None = as many as the cluster's CPUs hold at ``threads`` each."""
    threads: int = 1
    """CPU threads per worker (llama.cpp's threads, torch's threads); each worker reserves as
    many Ray CPUs."""
    depth: int = 2
    """Calls (or text slices) queued on each worker, so that none idles between two."""
    embed_slice: int = 64
    """Texts per embedding task."""
    max_attempts: int = 3
    """Workers one call may fail on (died, raised, or answered garbage) before the run stops."""
    num_cpus: int | None = None
    """CPUs of a local instance (None: this machine's)."""
    object_store_memory: int = 200 * 2**20
    """Object store of a local instance: results are small, so 200 MB is plenty."""

    @classmethod
    def of(cls, value: RayOptions | str | bool | None) -> RayOptions | None:
        """Options from what the CLI or a caller gave: None/False = no Ray, True or "" = a
        local instance, a string = that address."""
        if value is None or value is False:
            return None
        if isinstance(value, RayOptions):
            return value
        if value is True or value == "":
            return cls()
        return cls(address=str(value))


@dataclass
class WorkerInfo:
    """Who a worker is: where it runs and what model it loaded."""

    node: str
    """``host (ray node id prefix)``: written into the ledger rows of its calls."""
    pid: int
    threads: int
    model: str
    """The GGUF's sha256, or the embedder's id."""


@dataclass
class PoolReport:
    """What a pool did, for the build's report."""

    workers: list[dict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """Workers refused at start (another model on their node, or no model at all)."""
    retired: list[str] = field(default_factory=list)
    """Workers lost during the run, and why."""
    resent: int = 0
    """Calls (or slices) sent again because their worker died or answered garbage."""
    by_node: dict[str, int] = field(default_factory=dict)
    """Results committed per node."""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


# ---- sessions ----------------------------------------------------------------------------------
@contextmanager
def ray_session(opts: RayOptions) -> Iterator[Any]:
    """Ray, initialised for ``opts`` (and shut down after, when this call started it)."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        if opts.address in (None, "", "local"):
            ray.init(
                num_cpus=opts.num_cpus or os.cpu_count() or 1,
                object_store_memory=opts.object_store_memory,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            try:
                ray.init(address=opts.address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise DistributedError(
                    f"cannot reach the Ray cluster at {opts.address!r}: {_reason(e)} "
                    "(is `ray start` running there? see docs/distributed.md)"
                ) from e
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


# ---- the pool: a parallel map with failover ----------------------------------------------------
@dataclass
class _Worker:
    handle: Any
    name: str
    info: WorkerInfo | None = None
    inflight: int = 0
    alive: bool = True


class Pool:
    """Ray actors of one kind and a `map` over them that survives losing some."""

    def __init__(self, ray, workers: list[_Worker], opts: RayOptions, report: PoolReport) -> None:
        self.ray = ray
        self.workers = workers
        self.opts = opts
        self.report = report

    @classmethod
    def start(cls, ray, actor_class: type, args: tuple, opts: RayOptions, role: str) -> Pool:
        """Start the workers and wait until each has loaded its model; a worker that fails to
        (another model on its node) is refused and the others go on."""
        t0 = time.perf_counter()
        total_cpus = int(ray.cluster_resources().get("CPU", 1))
        n = opts.workers or max(1, total_cpus // max(1, opts.threads))
        remote = ray.remote(num_cpus=opts.threads, max_restarts=0, max_task_retries=0)(actor_class)
        tag = f"edgerag-{role}-{os.getpid()}-{time.time_ns() % 10**9}"
        workers = [_Worker(remote.options(name=f"{tag}-{i}", scheduling_strategy="SPREAD").remote(*args), f"{tag}-{i}") for i in range(n)]
        report = PoolReport()
        for w in workers:
            try:
                w.info = ray.get(w.handle.info.remote())
            except Exception as e:  # the constructor raised: model missing or not the driver's
                w.alive = False
                report.refused.append(_reason(e))
                ray.kill(w.handle, no_restart=True)
        live = [w for w in workers if w.alive]
        for r in report.refused:
            log.warning("%s", r)
        if not live:
            raise DistributedError(f"no {role} worker could start: " + "; ".join(report.refused))
        report.workers = [{"name": w.name, **asdict(w.info)} for w in live]
        report.seconds = time.perf_counter() - t0
        return cls(ray, live, opts, report)

    def close(self, wait: float = 30.0) -> None:
        """Stop every worker, and wait (up to ``wait`` seconds) until Ray lists none of them:
        `ray.kill` only asks, and a worker busy inside llama.cpp takes a moment to go. Without
        the wait, a build stopped with Ctrl-C could return while its workers still hold CPUs
        that the next run asks for."""
        for w in self.workers:
            if w.alive:
                try:
                    self.ray.kill(w.handle, no_restart=True)
                except Exception:  # already gone
                    pass
                w.alive = False
        names = {w.name for w in self.workers}
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                if not names & set(self.ray.util.list_named_actors()):
                    break
            except Exception:  # the cluster went away: nothing left to wait for, and an error here would hide the run's own
                break
            time.sleep(0.1)

    def _retire(self, w: _Worker, why: str) -> None:
        if not w.alive:
            return
        w.alive = False
        node = w.info.node if w.info else w.name
        self.report.retired.append(f"{w.name} on {node}: {why}")
        log.warning("worker %s on %s retired: %s", w.name, node, why)
        try:
            self.ray.kill(w.handle, no_restart=True)
        except Exception:
            pass

    def map(
        self, jobs: Iterable[tuple[Any, Any]], method: str, valid: Callable[[Any, Any], bool]
    ) -> Iterator[tuple[Any, Any, Any, WorkerInfo]]:
        """(tag, payload, result, worker info) for every (tag, payload) job, in the order the
        results come back. ``method`` is the actor method that takes a payload; ``valid``
        says whether a result is an answer to its payload. Jobs are drawn lazily, at most
        ``depth`` queued per worker; a job whose worker died, raised or answered garbage is
        sent again (to another worker: the dead and the garbage-speaking are retired)."""
        ray = self.ray
        from ray.exceptions import RayActorError, RayTaskError

        jobs = iter(jobs)
        again: deque = deque()
        inflight: dict[Any, tuple[_Worker, Any, Any, int]] = {}
        exhausted = False
        t0 = time.perf_counter()
        try:
            while True:
                for w in sorted((w for w in self.workers if w.alive), key=lambda w: w.inflight):
                    while w.alive and w.inflight < self.opts.depth:
                        if again:
                            tag, payload, attempts = again.popleft()
                        elif not exhausted:
                            try:
                                tag, payload = next(jobs)
                            except StopIteration:
                                exhausted = True
                                break
                            attempts = 0
                        else:
                            break
                        inflight[getattr(w.handle, method).remote(payload)] = (w, tag, payload, attempts)
                        w.inflight += 1
                if not inflight:
                    if again or not exhausted:
                        raise DistributedError(
                            "every worker is gone ("
                            + "; ".join(self.report.retired)
                            + "); everything committed is kept: run the same command again to resume"
                        )
                    return
                (ref,), _ = ray.wait(list(inflight), num_returns=1)
                w, tag, payload, attempts = inflight.pop(ref)
                w.inflight -= 1
                try:
                    result = ray.get(ref)
                except RayActorError as e:  # the worker died: node lost, process killed
                    self._retire(w, f"died ({_reason(e)})")
                    self._again(again, tag, payload, attempts, e)
                    continue
                except RayTaskError as e:  # the worker raised on this job
                    log.warning("a %s call raised on %s: %s", method, w.info.node if w.info else w.name, _reason(e))
                    self._again(again, tag, payload, attempts, e)
                    continue
                if not valid(payload, result):
                    self._retire(w, "answered something that is not a result of the call it was sent")
                    self._again(again, tag, payload, attempts, None)
                    continue
                node = w.info.node if w.info else w.name
                self.report.by_node[node] = self.report.by_node.get(node, 0) + 1
                yield tag, payload, result, w.info
        finally:
            self.report.seconds += time.perf_counter() - t0

    def _again(self, again: deque, tag, payload, attempts: int, error: Exception | None) -> None:
        if attempts + 1 >= self.opts.max_attempts:
            raise DistributedError(
                f"a job failed on {attempts + 1} workers (last: {_reason(error) if error else 'garbage'}); "
                "everything committed is kept: run the same command again to resume"
            )
        self.report.resent += 1
        again.appendleft((tag, payload, attempts + 1))


def _reason(e: BaseException | None) -> str:
    text = str(e or "").strip().splitlines()
    return " ".join(text[-3:])[:500] if text else type(e).__name__
