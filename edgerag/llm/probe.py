"""Loading a GGUF into llama.cpp so that a crash is a message, not a dead process.

llama.cpp runs native code: a kernel that does not suit the CPU kills the whole process with
a signal, and Python never sees an exception (on Sapphire Rapids Xeons, SIGSEGV in
``ggml_backend_amx_mul_mat``: see cpu.py). So before a process loads a model for the first
time on a machine, `proven_repack` runs one short generation **in a child process** with the
same model, GPU layers and repack choice. If the child dies by a signal, the parent says what
happened, what it tried and what to set, and raises `ModelCrashError`; with
``llm_repack=auto`` it first tries the other repack choice and, if that one runs, uses it.

A verdict that the model ran is remembered per (llama.cpp build, model sha256, CPU flags,
repack, GPU or not) under ``~/.cache/edgerag/probes``, so a user pays the probe (about 2–4 s
with the default model on 2 cores) once per machine and build, not once per query. A crash
is not remembered: the next run probes again, and fails with the same message. A child that
fails with an ordinary error (a truncated file) is no crash: the load in the parent raises
its own clear `ModelError`.
``EDGERAG_PROBE=off`` skips the probe (the process trusts the model, as before).

`load_llama` is the one place a ``llama_cpp.Llama`` is made (the probe's child and `llm/local.py`).

    python -m edgerag.llm.probe MODEL.gguf [--repack on|off] [--gpu-layers N]   # one probe, JSON out
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import sharing
from .cpu import cpu_flags, cpu_model, llama_features, repack_decision
from .models import ModelError, cache_dir, model_sha256

PROBE_TIMEOUT_S = 600
"""A child that has not answered by then is taken as failed (an 8B model's cold load on a
slow disk and 2 cores takes about a minute)."""

PROBE_TEXT = (
    "The lighthouse stood at the end of a long stone pier. Every evening the keeper climbed the "
    "spiral stair, trimmed the wick and wound the clockwork that turned the great lens. Ships "
    "passing in the night counted the flashes to know which coast they were on. "
)


class ModelCrashError(ModelError):
    """llama.cpp killed the probe's child process: the model cannot run here as configured."""


@dataclass
class ProbeResult:
    ok: bool
    repack: bool
    n_gpu_layers: int
    seconds: float = 0.0
    load_seconds: float = 0.0
    prompt_tokens: int = 0
    prompt_tokens_per_s: float = 0.0
    generation_tokens: int = 0
    generation_tokens_per_s: float = 0.0
    others_cores: float | None = None
    """Cores other processes kept busy while it was timed (sharing.py; None: not known): its
    speeds are this machine's at rest only where they did not share the cores."""
    text: str = ""
    signal: str | None = None
    """The signal that killed the child (``SIGSEGV``, ``SIGILL``, ``SIGKILL`` …), if one did."""
    exit_code: int | None = None
    error: str = ""
    """What went wrong, with the last lines the child wrote to stderr."""
    cached: bool = False
    key: str = ""
    checked_at: float = field(default_factory=time.time)

    @property
    def crashed(self) -> bool:
        """Killed by a signal or hung: what would take the parent down. A child that failed
        with an error (a corrupt file, say) did not crash: the parent's own load says why."""
        return not self.ok and (self.signal is not None or self.exit_code is None)

    def summary(self) -> str:
        how = "weights repacked" if self.repack else "weights not repacked"
        if self.ok:
            busy = (
                f", other work kept {self.others_cores:.1f} cores busy"
                if self.others_cores and self.others_cores >= sharing.SPARE_CORES
                else ""
            )
            return (
                f"runs ({how}): prompt {self.prompt_tokens_per_s:.0f} tokens/s, generation {self.generation_tokens_per_s:.1f} tokens/s"
                + busy
                + (" (remembered)" if self.cached else "")
            )
        return f"{self.signal or f'exit {self.exit_code}'} ({how})" + (f": {self.error}" if self.error else "")


# ---- loading -----------------------------------------------------------------------------------
_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def _extra_bufts(enabled: bool):
    """``Llama`` takes no ``use_extra_bufts`` argument: for the load, its default model params
    come with the flag set as asked (a process-wide patch, so one load at a time)."""
    import llama_cpp.llama_cpp as native

    with _PARAMS_LOCK:
        original = native.llama_model_default_params

        def params():
            p = original()
            if hasattr(p, "use_extra_bufts"):
                p.use_extra_bufts = enabled
            return p

        native.llama_model_default_params = params
        try:
            yield
        finally:
            native.llama_model_default_params = original


def load_llama(path: str, n_ctx: int, n_threads: int, n_gpu_layers: int, repack: bool):
    """A ``llama_cpp.Llama`` for ``path`` (no probe: see `proven_repack`)."""
    from llama_cpp import Llama

    with _extra_bufts(repack):
        return Llama(
            model_path=path, n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads, n_gpu_layers=n_gpu_layers, seed=0, verbose=False
        )


# ---- what a verdict is about -------------------------------------------------------------------
def llama_build() -> dict:
    """The llama-cpp-python version and its shared library (path, size, mtime): a rebuild is a
    new build, and gets a new probe."""
    import llama_cpp
    import llama_cpp.llama_cpp as native

    lib = Path(getattr(native._lib, "_name", "") or "")
    st = lib.stat() if lib.is_file() else None
    return {
        "version": llama_cpp.__version__,
        "library": str(lib),
        "size": st.st_size if st else None,
        "mtime_ns": st.st_mtime_ns if st else None,
    }


def system_info() -> str:
    """llama.cpp's own account of the CPU features and backends it was built with."""
    import llama_cpp

    return llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()


def probes_off() -> bool:
    """``EDGERAG_PROBE=off``: no probe child is started (the process trusts the model)."""
    return os.environ.get("EDGERAG_PROBE", "").lower() in ("off", "0", "no")


def verdict_key(model_sha: str, repack: bool, n_gpu_layers: int) -> str:
    blob = json.dumps(
        {"build": llama_build(), "model": model_sha, "cpu": sorted(cpu_flags()), "repack": repack, "gpu": n_gpu_layers != 0},
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _verdict_path(key: str) -> Path:
    return cache_dir() / "probes" / f"{key}.json"


def remembered(key: str) -> ProbeResult | None:
    try:
        saved = json.loads(_verdict_path(key).read_text())
        result = ProbeResult(**saved)
    except (OSError, ValueError, TypeError):
        return None
    result.cached = True
    return result if result.ok else None


def remember(result: ProbeResult) -> None:
    path = _verdict_path(result.key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(result) | {"cached": False}, indent=1))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: probe again next time


# ---- the probe ---------------------------------------------------------------------------------
def probe(
    path: str | os.PathLike,
    repack: bool,
    n_gpu_layers: int = 0,
    n_threads: int | None = None,
    prompt_tokens: int = 48,
    max_tokens: int = 8,
    command: list[str] | None = None,
    timeout: float = PROBE_TIMEOUT_S,
) -> ProbeResult:
    """Load ``path`` and generate a few tokens in a child process; a child killed by a signal
    (or failing, or hanging) gives ``ok=False`` with the reason. ``command`` replaces the child
    (tests)."""
    cmd = command or [
        sys.executable,
        "-m",
        "edgerag.llm.probe",
        str(path),
        "--repack",
        "on" if repack else "off",
        "--gpu-layers",
        str(n_gpu_layers),
        "--threads",
        str(n_threads or os.cpu_count() or 1),
        "--prompt-tokens",
        str(prompt_tokens),
        "--max-tokens",
        str(max_tokens),
    ]
    t0 = time.perf_counter()
    base = ProbeResult(ok=False, repack=repack, n_gpu_layers=n_gpu_layers)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        base.error = f"no answer in {timeout:.0f} s"
        base.seconds = time.perf_counter() - t0
        return base
    base.seconds = time.perf_counter() - t0
    base.exit_code = proc.returncode
    tail = " | ".join(line.strip() for line in proc.stderr.strip().splitlines()[-3:] if line.strip())
    if proc.returncode < 0:
        try:
            base.signal = signal.Signals(-proc.returncode).name
        except ValueError:
            base.signal = f"signal {-proc.returncode}"
        base.error = tail
        return base
    try:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        base.error = tail or f"the probe wrote no result (exit {proc.returncode})"
        return base
    if proc.returncode != 0 or not out.get("ok"):
        base.error = out.get("error") or tail or f"exit {proc.returncode}"
        return base
    return ProbeResult(**{**asdict(base), **{k: v for k, v in out.items() if k in ProbeResult.__dataclass_fields__}, "ok": True})


def proven_repack(
    path: str | os.PathLike, setting: str = "auto", n_gpu_layers: int = 0, n_threads: int | None = None, command: list[str] | None = None
) -> bool:
    """The repack choice (``use_extra_bufts``) this process may load ``path`` with, proven by a
    probe on this machine (or a remembered one). Raises `ModelCrashError` with what was tried
    and what to set when every allowed choice crashes."""
    decision = repack_decision(setting)
    if probes_off():
        return decision.repack
    sha = model_sha256(Path(path))
    choices = [decision.repack] + ([not decision.repack] if setting == "auto" else [])
    failed: list[ProbeResult] = []
    for repack in choices:
        key = verdict_key(sha, repack, n_gpu_layers)
        result = remembered(key)
        if result is None:
            result = probe(path, repack, n_gpu_layers, n_threads, command=command)
            result.key = key
            if result.ok:
                remember(result)
        if not result.ok and not result.crashed:
            return repack  # an ordinary load error: the load in this process raises it clearly
        if result.ok:
            if failed:
                print(
                    f"edgerag: {Path(path).name} crashed llama.cpp with {failed[0].summary()}; "
                    f"it runs with weights {'repacked' if repack else 'not repacked'}, which is used from now on "
                    f"(set llm_repack={'on' if repack else 'off'} to skip the failing choice)",
                    file=sys.stderr,
                )
            return repack
        failed.append(result)
    raise ModelCrashError(crash_message(Path(path), setting, decision.reason, failed))


def crash_message(path: Path, setting: str, reason: str, failed: list[ProbeResult]) -> str:
    flags = ", ".join(llama_features()) or "unknown"
    tried = "; ".join(r.summary() for r in failed)
    other = "on" if not failed[-1].repack else "off"
    advice = (
        f"try llm_repack={other} (--llm-repack {other}), "
        if setting != "auto"
        else "neither repack choice runs: llama-cpp-python may be built for another CPU; "
    )
    return (
        f"the model {path.name} crashed llama.cpp in a test generation on this machine (a child process died; "
        f"nothing was lost). CPU: {cpu_model()} ({flags}); llm_repack={setting}: {reason}. Tried: {tried}. "
        f"What to do: {advice}rebuild llama-cpp-python on this machine "
        "(pip install --force-reinstall --no-cache-dir llama-cpp-python), or run on a GPU build (models/README.md); "
        "`edgerag doctor` prints a report to attach to a bug report"
    )


# ---- the child ---------------------------------------------------------------------------------
def _run_child(args: argparse.Namespace) -> dict:
    import faulthandler

    faulthandler.enable()  # a crash in llama.cpp writes the Python stack to stderr
    t0 = time.perf_counter()
    window = max(512, args.prompt_tokens + args.max_tokens + 8)
    llama = load_llama(args.model, n_ctx=window, n_threads=args.threads, n_gpu_layers=args.gpu_layers, repack=args.repack == "on")
    load_s = time.perf_counter() - t0
    words = llama.tokenize(PROBE_TEXT.encode(), add_bos=True)
    # the first call pays for paging the mmap'd weights in and setting llama.cpp up: timed, it read
    # a freshly installed 1.5B model at 65-78 prompt tokens/s where its calls ran 72-92 (median 87),
    # and answer_model auto chose the smaller model for good; after this warm-up it reads 87-94
    for _ in llama.create_completion(words[:8], max_tokens=1, temperature=0.0, top_k=1, stream=True):
        pass
    llama.reset()
    tokens = (words * (args.prompt_tokens // len(words) + 1))[: args.prompt_tokens]
    t0, w0 = time.perf_counter(), sharing.watch()
    first, text = None, ""
    for chunk in llama.create_completion(tokens, max_tokens=args.max_tokens, temperature=0.0, top_k=1, stream=True):
        first = first or time.perf_counter()
        text += chunk["choices"][0]["text"]
    end, others = time.perf_counter(), sharing.others_cores(w0, sharing.watch())
    first = first or end
    n_out = max(0, llama.n_tokens - len(tokens))
    return {
        "ok": True,
        "load_seconds": load_s,
        "prompt_tokens": len(tokens),
        "prompt_tokens_per_s": len(tokens) / max(first - t0, 1e-9),
        "generation_tokens": n_out,
        "generation_tokens_per_s": (n_out - 1) / max(end - first, 1e-9) if n_out > 1 else 0.0,
        "others_cores": others,
        "text": text,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="One probe generation; prints a JSON line (edgerag runs this in a child process).")
    ap.add_argument("model")
    ap.add_argument("--repack", choices=["on", "off"], default="on")
    ap.add_argument("--gpu-layers", type=int, default=0)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--prompt-tokens", type=int, default=48)
    ap.add_argument("--max-tokens", type=int, default=8)
    args = ap.parse_args(argv)
    try:
        out = _run_child(args)
    except Exception as e:  # a load or decode error, not a crash: report it as the result
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    print(json.dumps(out))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
