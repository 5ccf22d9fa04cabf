"""Batch indexing on a Ray cluster: edgerag's per-chunk work as a parallel map, this process
as the single writer (``edgerag index/build … --ray [ADDRESS]``, ``pip install 'edgerag[ray]'``).

The shape is the one a local build already has. A local build asks the model for one chunk,
then commits that chunk in one LMDB transaction (graph/skeleton.py `commit_extraction`: the
extraction, the call's cache entry and its ledger row). Here the asking is spread over Ray
actors and the committing stays in this process:

* **Workers** are Ray actors (`LLMWorker`, `EmbedWorker`), each with its own thread count,
  that load the GGUF or the embedder once and then compute what they are sent: a prepared
  call (`llm.Call`: formatted prompt, output cap, halt rule) or a slice of texts. They never
  open the index. Each finds the model on its own node the way one machine does (the pip
  package, or a path that exists on every node) and is refused when its sha256 (the
  embedder's id) differs from this process's.
* **The driver** (this process) prepares each call, answers it from the LLM cache when it
  can, sends the rest to the workers (``RayOptions.depth`` calls queued on each, so none
  waits between two), and commits every result as it comes back, through the same code as a
  local build. The ledger row of each call names the node that computed it.
* **Faults**: a worker that dies (node lost, process killed, out of memory) has its queued
  and running calls sent to the workers that remain; nothing is billed until it is
  committed, so a chunk is billed once whoever computed it. A worker that answers something
  that is not a completion of the call it was sent is retired and the call resent; what a
  model writes, however bad, is parsed as a local build parses it (failed call, zero yield).
  A call that fails on ``max_attempts`` workers stops the build. A killed driver loses at
  most the results not yet committed: the same command resumes (pending chunks are those
  without a stored result; calls already cached cost nothing).

Ray is imported only here, and only when ``--ray`` is used.
"""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import tempfile
import time
from collections import Counter, deque
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from .llm import Call, Completion, Done, MeteredLLM, PromptTooLongError, run_call

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
    def of(cls, value: "RayOptions | str | bool | None") -> "RayOptions | None":
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
            ray.init(num_cpus=opts.num_cpus or os.cpu_count() or 1, object_store_memory=opts.object_store_memory,
                     include_dashboard=False, log_to_driver=False, configure_logging=False)  # fmt: skip
        else:
            try:
                ray.init(address=opts.address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise DistributedError(f"cannot reach the Ray cluster at {opts.address!r}: {_reason(e)} "
                                       "(is `ray start` running there? see docs/distributed.md)") from e  # fmt: skip
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _node_name() -> str:
    try:
        import ray

        node_id = ray.get_runtime_context().get_node_id()[:8]
    except Exception:  # not inside Ray (a direct call in a test)
        node_id = "-"
    return f"{socket.gethostname()} ({node_id})"


@contextmanager
def _node_lock(name: str) -> Iterator[None]:
    """One worker at a time on a node assembles or hashes the model (two writing the same
    file would corrupt it)."""
    with open(os.path.join(tempfile.gettempdir(), f"edgerag-{name}.lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


# ---- workers -----------------------------------------------------------------------------------
class LLMWorker:
    """A GGUF loaded once on one node; computes the prepared calls it is sent."""

    def __init__(self, model: str | None, n_ctx: int, threads: int, n_gpu_layers: int | None, expected_sha256: str) -> None:
        from .llm import LocalLLM
        from .models import ModelError, resolve_model

        self.node = _node_name()
        with _node_lock("model"):
            path = resolve_model(model)
            self.llm = LocalLLM(path, n_ctx=n_ctx, n_threads=threads, n_gpu_layers=n_gpu_layers)
            sha = self.llm.sha256
        if sha != expected_sha256:
            raise ModelError(f"worker on {self.node} refused: its model {path} has sha256 {sha[:16]}…, "
                             f"the driver's has {expected_sha256[:16]}…; install the same model on every node")  # fmt: skip
        self.llm.llama  # load now, once: the first call should not pay for it
        self.threads = threads

    def info(self) -> WorkerInfo:
        return WorkerInfo(self.node, os.getpid(), self.threads, self.llm.sha256)

    def run(self, call: Call) -> "Computed":
        try:
            return Computed(call.key, run_call(self.llm, call))
        except PromptTooLongError as e:
            return Computed(call.key, None, str(e))


class EmbedWorker:
    """The sentence-transformers model loaded once on one node; embeds the texts it is sent."""

    def __init__(self, spec: str, device: str, batch_size: int, threads: int, expected_id: str) -> None:
        import torch

        from .embed import Embedder, EmbedderError

        torch.set_num_threads(threads)
        self.node = _node_name()
        self.embedder = Embedder(spec, device=device, batch_size=batch_size)
        if self.embedder.model_id != expected_id:
            raise EmbedderError(f"worker on {self.node} refused: its embedder is {self.embedder.model_id}, "
                                f"the index's is {expected_id}; install the same model on every node")  # fmt: skip
        self.embedder.dim  # load now, once
        self.threads = threads

    def info(self) -> WorkerInfo:
        return WorkerInfo(self.node, os.getpid(), self.threads, self.embedder.model_id)

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.embedder.encode(texts)


@dataclass
class Computed:
    """A worker's answer to one call: the completion, or None and why (too long)."""

    key: str
    completion: Completion | None
    error: str = ""


def valid_completion(call: Call, r: Any) -> bool:
    """Whether a worker's answer is a completion of ``call`` at all (what is inside the text
    is the parser's business). Anything else is garbage: the worker is retired."""
    if not isinstance(r, Computed) or r.key != call.key:
        return False
    if r.completion is None:
        return isinstance(r.error, str) and bool(r.error)
    c = r.completion
    counts = (c.prompt_tokens, c.evaluated_tokens, c.output_tokens)
    return (isinstance(c, Completion) and isinstance(c.text, str) and isinstance(c.finish_reason, str) and not c.cached
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts)
            and c.evaluated_tokens <= c.prompt_tokens and isinstance(c.seconds, float) and 0 <= c.seconds < 86_400
            and len(c.text) <= 256 * max(call.max_tokens, 1))  # fmt: skip


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
    def start(cls, ray, actor_class: type, args: tuple, opts: RayOptions, role: str) -> "Pool":
        """Start the workers and wait until each has loaded its model; a worker that fails to
        (another model on its node) is refused and the others go on."""
        t0 = time.perf_counter()
        total_cpus = int(ray.cluster_resources().get("CPU", 1))
        n = opts.workers or max(1, total_cpus // max(1, opts.threads))
        remote = ray.remote(num_cpus=opts.threads, max_restarts=0, max_task_retries=0)(actor_class)
        tag = f"edgerag-{role}-{os.getpid()}-{time.time_ns() % 10**9}"
        workers = [_Worker(remote.options(name=f"{tag}-{i}", scheduling_strategy="SPREAD").remote(*args), f"{tag}-{i}")
                   for i in range(n)]  # fmt: skip
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

    def close(self) -> None:
        for w in self.workers:
            if w.alive:
                try:
                    self.ray.kill(w.handle, no_restart=True)
                except Exception:  # already gone
                    pass
                w.alive = False

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

    def map(self, jobs: Iterable[tuple[Any, Any]], method: str, valid: Callable[[Any, Any], bool]) -> Iterator[tuple[Any, Any, Any, WorkerInfo]]:
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
                        raise DistributedError("every worker is gone (" + "; ".join(self.report.retired) +
                                               "); everything committed is kept: run the same command again to resume")  # fmt: skip
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
            raise DistributedError(f"a job failed on {attempts + 1} workers (last: {_reason(error) if error else 'garbage'}); "
                                   "everything committed is kept: run the same command again to resume")  # fmt: skip
        self.report.resent += 1
        again.appendleft((tag, payload, attempts + 1))


def _reason(e: BaseException | None) -> str:
    text = str(e or "").strip().splitlines()
    return " ".join(text[-3:])[:500] if text else type(e).__name__


# ---- LLM calls ---------------------------------------------------------------------------------
def llm_runner(pool: Pool) -> Callable[[MeteredLLM, Iterable[tuple[Any, Call]]], Iterator[Done]]:
    """A `llm.Runner` that answers from the driver's cache when it can and sends the rest to
    ``pool``'s workers; results come back as they finish (graph/skeleton.py commits each)."""

    def run(llm: MeteredLLM, jobs: Iterable[tuple[Any, Call]]) -> Iterator[Done]:
        cached: deque = deque()

        def misses():
            for tag, call in jobs:
                hit = llm.cached(call)
                if hit is not None:
                    cached.append(Done(tag, call, hit))
                    continue
                yield tag, call

        for tag, call, r, info in pool.map(misses(), "run", valid_completion):
            while cached:
                yield cached.popleft()
            yield Done(tag, call, r.completion, error=r.error, node=info.node)
        while cached:
            yield cached.popleft()

    return run


def model_spec(rag) -> str | None:
    """How a worker finds the driver's GGUF: a known model's name (the pip packages on its
    node), else the driver's path (which must exist on every node)."""
    from .models import KNOWN_MODELS

    spec = rag.settings.model or os.environ.get("EDGERAG_MODEL")
    return spec if spec is None or spec in KNOWN_MODELS else str(rag.llm.llm.path)


@contextmanager
def llm_pool(rag, opts: RayOptions) -> Iterator[Pool]:
    """Model workers for ``rag``'s GGUF on the cluster ``opts`` names (stopped on exit)."""
    s = rag.settings
    sha = rag.llm.llm.sha256
    with ray_session(opts) as ray:
        pool = Pool.start(ray, LLMWorker, (model_spec(rag), s.n_ctx, opts.threads, s.n_gpu_layers, sha), opts, "llm")
        try:
            yield pool
        finally:
            pool.close()


# ---- embedding ---------------------------------------------------------------------------------
class RemoteEmbedder:
    """Stands in for `Embedder` in `indexing.insert_documents`: ``encode`` is spread over the
    pool's workers in slices; everything else (id, dimension, the input-window check) is the
    local embedder's, so the index records the same model either way."""

    def __init__(self, local, pool: Pool) -> None:
        self.local = local
        self.pool = pool
        self.texts_embedded = 0

    def __getattr__(self, name: str):  # path, device, batch_size, model_id, dim, fits, …
        return getattr(self.local, name)

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.local.dim), dtype=np.float32)
        step = self.pool.opts.embed_slice
        out = np.zeros((len(texts), self.local.dim), dtype=np.float32)
        dim = self.local.dim
        slices = ((start, texts[start : start + step]) for start in range(0, len(texts), step))
        for start, _, vecs, _ in self.pool.map(slices, "encode", lambda p, r: _valid_vectors(p, r, dim)):
            out[start : start + len(vecs)] = vecs
        self.texts_embedded += len(texts)
        return out

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


def _valid_vectors(texts: list[str], r: Any, dim: int) -> bool:
    return (isinstance(r, np.ndarray) and r.shape == (len(texts), dim) and r.dtype == np.float32
            and bool(np.isfinite(r).all()) and bool(np.allclose(np.linalg.norm(r, axis=1), 1.0, atol=1e-3)))  # fmt: skip


@contextmanager
def embed_pool(embedder, opts: RayOptions) -> Iterator[RemoteEmbedder]:
    """Embedding workers for ``embedder``'s model, as a `RemoteEmbedder` (stopped on exit)."""
    args = (_embedder_spec(embedder), "cpu" if embedder.device == "cpu" else "auto", embedder.batch_size, opts.threads, embedder.model_id)
    with ray_session(opts) as ray:
        pool = Pool.start(ray, EmbedWorker, args, opts, "embed")
        try:
            yield RemoteEmbedder(embedder, pool)
        finally:
            pool.close()


def _embedder_spec(embedder) -> str:
    """The default embedder by name (each node's pip package), any other by its folder."""
    from .embed import resolve_embedder_path

    try:
        if resolve_embedder_path("default") == embedder.path:
            return "default"
    except Exception:  # no default package here
        pass
    return str(embedder.path)
