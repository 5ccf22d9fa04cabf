"""Batch indexing on a Ray cluster: edgerag's per-chunk work as a parallel map, this process
as the single writer (``edgerag index/build … --ray [ADDRESS]``, ``pip install 'edgerag[ray]'``).

The shape is the one a local build already has. A local build asks the model for one chunk,
then commits that chunk in one LMDB transaction (graph/kg.py `commit_extraction`: the
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

The Ray plumbing (sessions, the pool and its failover) is ray_pool.py; Ray is imported only
there, and only when ``--ray`` is used.
"""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..llm.local import Completion, PromptTooLongError
from ..llm.metered import Call, Done, MeteredLLM, run_call
from .ray_pool import Pool, RayOptions, WorkerInfo, ray_session


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

    def __init__(
        self, model: str | None, n_ctx: int, threads: int, n_gpu_layers: int | None, expected_sha256: str, repack: str = "auto"
    ) -> None:
        from ..llm.local import LocalLLM
        from ..llm.models import ModelError, resolve_model

        self.node = _node_name()
        with _node_lock("model"):
            path = resolve_model(model)
            # llm_repack=auto decides on this node's CPU, and the probe proves it here
            self.llm = LocalLLM(path, n_ctx=n_ctx, n_threads=threads, n_gpu_layers=n_gpu_layers, repack=repack)
            sha = self.llm.sha256
        if sha != expected_sha256:
            raise ModelError(
                f"worker on {self.node} refused: its model {path} has sha256 {sha[:16]}…, "
                f"the driver's has {expected_sha256[:16]}…; install the same model on every node"
            )
        self.llm.llama  # noqa: B018 (load now, once: the first call should not pay for it)
        self.threads = threads

    def info(self) -> WorkerInfo:
        return WorkerInfo(self.node, os.getpid(), self.threads, self.llm.sha256)

    def run(self, call: Call) -> Computed:
        try:
            return Computed(call.key, run_call(self.llm, call))
        except PromptTooLongError as e:
            return Computed(call.key, None, str(e))


class EmbedWorker:
    """The sentence-transformers model loaded once on one node; embeds the texts it is sent."""

    def __init__(self, spec: str, device: str, batch_size: int, threads: int, expected_id: str, backend: str = "torch") -> None:
        import torch

        from ..embed.embedder import Embedder, EmbedderError

        torch.set_num_threads(threads)
        self.node = _node_name()
        self.embedder = Embedder(spec, device=device, batch_size=batch_size, backend=backend, threads=threads)
        if self.embedder.model_id != expected_id:
            mine, theirs = self.embedder.model_id.partition("+onnx-int8:")[2], expected_id.partition("+onnx-int8:")[2]
            raise EmbedderError(
                f"worker on {self.node} refused: its CPU ({mine}) makes other onnx-int8 vectors than this index's ({theirs}); "
                "index with --embed-backend onnx (the default), whose vectors are the same on every CPU"
                if mine and theirs
                else f"worker on {self.node} refused: its embedder is {self.embedder.model_id}, "
                f"the index's is {expected_id}; install the same model on every node"
            )
        self.embedder.dim  # noqa: B018 (load now, once)
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
    return (
        isinstance(c, Completion)
        and isinstance(c.text, str)
        and isinstance(c.finish_reason, str)
        and not c.cached
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts)
        and c.evaluated_tokens <= c.prompt_tokens
        and isinstance(c.seconds, float)
        and 0 <= c.seconds < 86_400
        and len(c.text) <= 256 * max(call.max_tokens, 1)
    )


# ---- LLM calls ---------------------------------------------------------------------------------
def llm_runner(pool: Pool) -> Callable[[MeteredLLM, Iterable[tuple[Any, Call]]], Iterator[Done]]:
    """A `llm.Runner` that answers from the driver's cache when it can and sends the rest to
    ``pool``'s workers; results come back as they finish (graph/kg.py commits each)."""

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
    from ..llm.models import KNOWN_MODELS, extract_model_choice

    spec = (
        extract_model_choice(rag.settings.extract_model, rag.settings.model).spec or rag.settings.model or os.environ.get("EDGERAG_MODEL")
    )
    return spec if spec is None or spec in KNOWN_MODELS else str(rag.extract_llm.llm.path)


@contextmanager
def llm_pool(rag, opts: RayOptions) -> Iterator[Pool]:
    """Model workers for ``rag``'s extracting GGUF (``extract_model``) on the cluster ``opts`` names (stopped on exit)."""
    s = rag.settings
    sha = rag.extract_llm.llm.sha256
    with ray_session(opts) as ray:
        pool = Pool.start(ray, LLMWorker, (model_spec(rag), s.n_ctx, opts.threads, s.n_gpu_layers, sha, s.llm_repack), opts, "llm")
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
    return (
        isinstance(r, np.ndarray)
        and r.shape == (len(texts), dim)
        and r.dtype == np.float32
        and bool(np.isfinite(r).all())
        and bool(np.allclose(np.linalg.norm(r, axis=1), 1.0, atol=1e-3))
    )


@contextmanager
def embed_pool(embedder, opts: RayOptions) -> Iterator[RemoteEmbedder]:
    """Embedding workers for ``embedder``'s model, as a `RemoteEmbedder` (stopped on exit)."""
    args = (
        _embedder_spec(embedder),
        "cpu" if embedder.device == "cpu" else "auto",
        embedder.batch_size,
        opts.threads,
        embedder.model_id,
        embedder.backend,
    )
    with ray_session(opts) as ray:
        pool = Pool.start(ray, EmbedWorker, args, opts, "embed")
        try:
            yield RemoteEmbedder(embedder, pool)
        finally:
            pool.close()


def _embedder_spec(embedder) -> str:
    """The default embedder by name (each node's pip package), any other by its folder."""
    from ..embed.embedder import resolve_embedder_path

    try:
        if resolve_embedder_path("default") == embedder.path:
            return "default"
    except Exception:  # no default package here
        pass
    return str(embedder.path)
