"""`edgerag doctor`: what this machine is to edgerag, in one report to read first on a new box
and to paste into a bug report.

Python and the packages that matter; the CPU, its features llama.cpp has kernels for, and
the repack choice made for it (cpu.py); llama.cpp's own system info and whether it can
offload to a GPU; the default model and embedder, found and sha256-verified; the probe's
verdict and speeds (a fresh generation in a child process, probe.py); free disk and memory;
and an index's format when one is named. ``--json`` writes the same as one object (its
fields are listed in docs/operations.md). About 5–10 s with the default model on 2 cores,
most of it the probe.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import time
from importlib import metadata
from pathlib import Path

PACKAGES = (
    "edgerag",
    "llama-cpp-python",
    "torch",
    "sentence-transformers",
    "transformers",
    "hnswlib",
    "lmdb",
    "numpy",
    "scipy",
    "networkx",
    "pypdfium2",
    "textual",
    "ray",
)


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _memory() -> dict:
    """Total and available memory in bytes (/proc/meminfo; None elsewhere)."""
    out = {"total": None, "available": None}
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("MemTotal", "MemAvailable"):
                    out["total" if key == "MemTotal" else "available"] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return out


def _section(fn, *args) -> dict:
    """One section of the report; a failure is reported in it, never raised."""
    try:
        return fn(*args)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def _cpu(repack_setting: str) -> dict:
    from .llm.cpu import cpu_flags, cpu_model, llama_features, repack_decision, usable_cores

    decision = repack_decision(repack_setting)
    return {
        "model": cpu_model(),
        "machine": platform.machine(),
        "cores": usable_cores(),
        "llama_features": llama_features(),
        "amx": bool({"amx_tile", "amx_int8"} & cpu_flags()),
        "repack": {"setting": decision.setting, "repack": decision.repack, "reason": decision.reason},
    }


def _llama() -> dict:
    from .llm.local import gpu_offload_available
    from .llm.probe import llama_build, system_info

    return {**llama_build(), "system_info": system_info(), "gpu_offload": gpu_offload_available()}


def _model(spec: str | None) -> dict:
    from .llm.models import KNOWN_MODELS, model_sha256, resolve_model

    t = time.perf_counter()
    path = resolve_model(spec)  # assembles the default from its pip parts; checks a known file's sha256
    return {
        "spec": spec or os.environ.get("EDGERAG_MODEL") or "default",
        "path": str(path),
        "size": path.stat().st_size,
        "sha256": model_sha256(path),
        "verified": any(path.name == m.filename for m in KNOWN_MODELS.values()),
        "seconds": round(time.perf_counter() - t, 2),
    }


def _embedder(spec: str) -> dict:
    from .embed.embedder import Embedder, fingerprint, measure_backends, pick_backend, pick_device, resolve_embedder_path
    from .llm.cpu import cpu_class, cpu_flags

    path = resolve_embedder_path(spec)
    import torch

    device = pick_device("auto")
    backend, why = pick_backend("auto", device, path)
    speeds = None
    if backend == "onnx":  # what int8 would gain here, measured (remembered per CPU)
        speeds = measure_backends(path, Embedder(spec, device="cpu", backend="onnx").weights_id)
    return {
        "spec": spec,
        "path": str(path),
        "fingerprint": fingerprint(path),
        "backend": backend,
        "backend_reason": why,
        "texts_per_s": speeds,
        "cpu_class": cpu_class(cpu_flags()),
        "torch_threads": torch.get_num_threads(),
        "cuda": torch.cuda.is_available(),
    }


def _answer_model(model: str | None, n_gpu_layers: int | None, measure: bool = False) -> dict:
    """Which model answers, chosen by the speeds at rest measured here (both models', where
    installed). With ``measure``, the answering model other than ``model`` is measured again
    first (the default model's probe is `_probe`'s): ``edgerag doctor`` resets the rest figure."""
    from functools import partial

    from .answer.budget import model_speeds, typical_answer_seconds
    from .llm.models import ANSWER_MODEL, answer_model_choice, installed
    from .settings import Settings

    s = Settings(model=model, n_gpu_layers=n_gpu_layers)
    others = [ANSWER_MODEL] if model is None and installed(ANSWER_MODEL) else []
    remeasured = {}
    if measure:
        from .llm.local import LocalLLM
        from .llm.models import resolve_model

        for spec in others:
            local = LocalLLM(resolve_model(spec), n_ctx=s.n_ctx, n_threads=s.llm_threads, n_gpu_layers=s.n_gpu_layers, repack=s.llm_repack)
            result, taken = local.measure_speeds(reset=True, max_tokens=32)
            remeasured[spec] = _rest_note(result.ok, taken, result.others_cores)
    choice = answer_model_choice(
        s.answer_model, model, gpu=bool(n_gpu_layers), seconds=s.answer_seconds, typical_seconds=partial(typical_answer_seconds, s)
    )
    speeds = {}
    for spec in [model] + others:
        measured = model_speeds(s, spec)
        said = measured.summary() if measured is not None else None
        speeds[spec or "default"] = f"{said}; {remeasured[spec]}" if said and spec in remeasured else said
    return {
        "setting": s.answer_model,
        "model": choice.spec or "the model above",
        "reason": choice.reason,
        "seconds": s.answer_seconds,
        "speeds": speeds,
    }


def _rest_note(ok: bool, taken: bool, others: float | None) -> str:
    """What a measurement did to the rest figure (llm/speeds.py), for the report."""
    if not ok:
        return "not measured again (the probe failed)"
    if taken:
        return "measured again now, at rest"
    return f"not measured again: other work kept {others or 0:.1f} cores busy meanwhile (run `edgerag doctor` when the machine is idle)"


def _extract_model(model: str | None) -> dict:
    """Which model builds the LLM-made graphs (``extract_model``), and why."""
    from .llm.models import extract_model_choice
    from .settings import Settings

    s = Settings(model=model)
    choice = extract_model_choice(s.extract_model, model)
    return {"setting": s.extract_model, "model": choice.spec or "the model above", "reason": choice.reason}


def _probe(path: str, repack_setting: str, n_gpu_layers: int | None) -> dict:
    from .llm.cpu import repack_decision
    from .llm.local import SPEED_PROBE_PROMPT, LocalLLM, gpu_offload_available
    from .llm.probe import probe
    from .llm.speeds import from_probe

    layers = (-1 if gpu_offload_available() else 0) if n_gpu_layers is None else n_gpu_layers
    repack = repack_decision(repack_setting).repack
    local = LocalLLM(path, n_gpu_layers=layers)
    result = probe(path, repack, layers, local.n_threads, prompt_tokens=SPEED_PROBE_PROMPT, max_tokens=32)
    taken = result.ok and from_probe(
        local.speed_key,
        result.prompt_tokens_per_s,
        result.generation_tokens_per_s,
        others=result.others_cores,
        threads=local.n_threads,
        reset=True,
    )  # the rest figure, measured afresh (llm/speeds.py): the answer plan's figures
    out = {
        "ok": result.ok,
        "repack": repack,
        "n_gpu_layers": layers,
        "seconds": round(result.seconds, 2),
        "load_seconds": round(result.load_seconds, 2),
        "prompt_tokens": result.prompt_tokens,
        "prompt_tokens_per_s": round(result.prompt_tokens_per_s, 1),
        "generation_tokens": result.generation_tokens,
        "generation_tokens_per_s": round(result.generation_tokens_per_s, 1),
        "others_cores": None if result.others_cores is None else round(result.others_cores, 2),
        "rest": _rest_note(result.ok, taken, result.others_cores),
        "signal": result.signal,
        "error": result.error,
    }
    if not result.ok and repack_setting == "auto":  # what a user would try next
        other = probe(path, not repack, layers, prompt_tokens=256, max_tokens=32)
        out["other_repack"] = {"repack": not repack, "ok": other.ok, "signal": other.signal, "error": other.error}
    return out


def _ocr() -> dict:
    """The engine that reads scanned pages and images here (ingest/ocr.py), or none."""
    from .ingest import ocr

    engine = ocr.engine_name()
    return {"engine": engine, "setting": os.environ.get("EDGERAG_OCR", "auto"), "install": None if engine else ocr.INSTALL}


def _index(path: str) -> dict:
    p = Path(path)
    manifest = json.loads((p / "manifest.json").read_text()) if (p / "manifest.json").is_file() else None
    if manifest is None:
        return {"path": str(p), "error": f"no edgerag index at {p} (no manifest.json)"}
    from .store.index import FORMAT_VERSION

    size = sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
    return {
        "path": str(p),
        "format": manifest.get("format"),
        "format_read": FORMAT_VERSION,
        "embedder": manifest.get("embedder"),
        "settings": manifest.get("settings"),
        "bytes": size,
    }


def report(index: str | None = None, model: str | None = None, repack: str = "auto", n_gpu_layers: int | None = None, probe=True) -> dict:
    """Everything `edgerag doctor` shows, as one JSON-ready dict."""
    from .settings import Settings

    t0 = time.perf_counter()
    out: dict = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": {name: _version(name) for name in PACKAGES},
        "cpu": _section(_cpu, repack),
        "llama_cpp": _section(_llama),
        "model": _section(_model, model),
    }
    if probe and "path" in out["model"]:  # first: it measures the rest figure the answer model is chosen by
        out["probe"] = _section(_probe, out["model"]["path"], repack, n_gpu_layers)
    out["answer_model"] = _section(_answer_model, model, n_gpu_layers, probe)
    out["extract_model"] = _section(_extract_model, model)
    out["embedder"] = _section(_embedder, Settings().embedder)
    out["ocr"] = _section(_ocr)
    where = Path(index) if index else Path.cwd()
    disk = shutil.disk_usage(where if where.exists() else Path.cwd())
    out["disk"] = {"path": str(where), "free": disk.free, "total": disk.total}
    out["memory"] = _memory()
    if index:
        out["index"] = _section(_index, index)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def _gib(n: int | None) -> str:
    return "?" if n is None else f"{n / 2**30:.1f} GiB"


def format_report(r: dict) -> str:
    """The report as a person reads it."""
    lines = [f"edgerag {r['packages'].get('edgerag') or '?'} · Python {r['python']} · {r['platform']}"]
    lines.append("packages   " + ", ".join(f"{k} {v}" for k, v in r["packages"].items() if v and k != "edgerag"))
    missing = [k for k, v in r["packages"].items() if not v and k != "ray"]
    if missing:
        lines.append(f"missing    {', '.join(missing)}")
    cpu = r["cpu"]
    if "error" in cpu:
        lines.append(f"cpu        ERROR {cpu['error']}")
    else:
        lines.append(f"cpu        {cpu['model']} ({cpu['machine']}, {cpu['cores']} cores usable)")
        lines.append(f"features   {' '.join(cpu['llama_features']) or 'none that llama.cpp names'}")
        rp = cpu["repack"]
        lines.append(f"repack     llm_repack={rp['setting']} → {'on' if rp['repack'] else 'off'}: {rp['reason']}")
    ll = r["llama_cpp"]
    if "error" in ll:
        lines.append(f"llama.cpp  ERROR {ll['error']}")
    else:
        lines.append(f"llama.cpp  llama-cpp-python {ll['version']}, GPU offload {'yes' if ll['gpu_offload'] else 'no'} ({ll['library']})")
        lines.append(f"           {ll['system_info']}")
    m = r["model"]
    if "error" in m:
        lines.append(f"model      ERROR {m['error']}")
    else:
        check = "sha256 verified against the official file" if m["verified"] else "sha256 (not a known file: not verified)"
        lines.append(f"model      {m['path']} ({m['size'] / 2**20:.0f} MiB), {check}: {m['sha256'][:16]}…")
    a = r.get("answer_model", {})
    if "error" in a:
        lines.append(f"answers    ERROR {a['error']}")
    elif a:
        lines.append(f"answers    answer_model={a['setting']} → {a['model']}: {a['reason']}")
        for name, said in (a.get("speeds") or {}).items():
            lines.append(f"           {name}: {said or 'not measured'} (answer_seconds {a.get('seconds')})")
    x = r.get("extract_model", {})
    if "error" in x:
        lines.append(f"graphs     ERROR {x['error']}")
    elif x:
        lines.append(f"graphs     extract_model={x['setting']} → {x['model']}: {x['reason']} (`edgerag build --plan` prices each model)")
    e = r["embedder"]
    if "error" in e:
        lines.append(f"embedder   ERROR {e['error']}")
    else:
        gpu = "CUDA available" if e["cuda"] else "no CUDA (CPU)"
        lines.append(f"embedder   {e['path']} (weights {e['fingerprint']}), torch threads {e['torch_threads']}, {gpu}")
        lines.append(f"           new indexes embed with {e['backend']} ({e['backend_reason']})")
        if e.get("texts_per_s"):
            s = e["texts_per_s"]
            lines.append(
                f"           measured here: onnx {s['onnx']:.0f} texts/s, onnx-int8 {s['onnx-int8']:.0f} "
                f"({s['onnx-int8'] / s['onnx']:.2f}×; its vectors are tied to this {e['cpu_class']} CPU class)"
            )
    o = r.get("ocr", {})
    if "error" in o:
        lines.append(f"ocr        ERROR {o['error']}")
    elif o:
        lines.append(
            f"ocr        {o['engine'] or 'none: scanned pages are named, not read (' + o['install'] + ')'} (EDGERAG_OCR={o['setting']})"
        )
    p = r.get("probe")
    if p is not None:
        if "error" in p and "ok" not in p:
            lines.append(f"probe      ERROR {p['error']}")
        elif p["ok"]:
            lines.append(
                f"probe      runs (repack {'on' if p['repack'] else 'off'}, GPU layers {p['n_gpu_layers']}): "
                f"prompt {p['prompt_tokens_per_s']:.0f} tokens/s ({p['prompt_tokens']} tokens), "
                f"generation {p['generation_tokens_per_s']:.1f} tokens/s ({p['generation_tokens']} tokens), load {p['load_seconds']:.1f} s"
            )
            if p.get("rest"):
                lines.append(f"           rest figure: {p['rest']}")
        else:
            lines.append(f"probe      CRASHED: {p['signal'] or 'failed'} (repack {'on' if p['repack'] else 'off'}) {p['error']}")
            other = p.get("other_repack")
            if other:
                verdict = "runs: set --llm-repack " + ("on" if other["repack"] else "off") if other["ok"] else (other["signal"] or "fails")
                lines.append(f"           with repack {'on' if other['repack'] else 'off'}: {verdict}")
    lines.append(f"disk       {_gib(r['disk']['free'])} free of {_gib(r['disk']['total'])} at {r['disk']['path']}")
    lines.append(f"memory     {_gib(r['memory']['available'])} available of {_gib(r['memory']['total'])}")
    ix = r.get("index")
    if ix is not None:
        if "error" in ix:
            lines.append(f"index      {ix['error']}")
        else:
            state = "readable" if isinstance(ix["format"], int) and ix["format"] <= ix["format_read"] else "NEWER than this edgerag"
            emb = ix.get("embedder") or {}
            lines.append(
                f"index      {ix['path']}: format {ix['format']} ({state}; this edgerag reads ≤ {ix['format_read']}), "
                f"embedder {emb.get('id', '?')} ({emb.get('dim', '?')} dims), {_gib(ix['bytes'])} on disk"
            )
    lines.append(f"({r['seconds']} s)")
    return "\n".join(lines)
