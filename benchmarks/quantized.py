"""Requantised variants of the bundled model: their speed on this CPU against Q4_K_M (issue #41, item 4).

    .venv/bin/python benchmarks/quantized.py [--variants q4_0,q8_0,iq4_nl] [--threads 2,1] [--rounds 2]

Each variant is made from the verified Q4_K_M file with llama.cpp's ``llama_model_quantize``
(``allow_requantize``: the K-quant weights are dequantised and quantised again, so a variant is
never better than its source, only possibly faster) into ``.edgerag/models/`` (ignored by git,
made once, reused). Speeds come from `llm_speed.measure`: prompt tokens/s on a fresh 1,000-token
prompt, generation tokens/s on a counted list, in one process, every variant ``--rounds`` times
alternating with Q4_K_M so that the host's drift falls on all of them alike. Exact match is
measured separately, per variant, by ``benchmarks/answers.py --model <variant path>``: the
printed paths are the ones to give it. Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import llama_cpp
from common import write_result
from llm_speed import measure

from edgerag.llm.cpu import cpu_model, llama_features
from edgerag.llm.models import DEFAULT_MODEL, resolve_model, sha256_file

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / ".edgerag" / "models"
FTYPES = {
    "q4_0": llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0,
    "q8_0": llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0,
    "iq4_nl": llama_cpp.LLAMA_FTYPE_MOSTLY_IQ4_NL,
    "q4_k_s": llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_K_S,
}


def requantize(source: Path, variant: str) -> Path:
    """``source`` quantised again as ``variant`` (made once; a half-written file never keeps the final name)."""
    out = OUT_DIR / source.name.replace("q4_k_m", variant)
    if out.exists():
        return out
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = FTYPES[variant]
    params.allow_requantize = True
    params.nthread = 2
    tmp = out.with_suffix(".part")
    t = time.perf_counter()
    rc = llama_cpp.llama_model_quantize(str(source).encode(), str(tmp).encode(), params)
    if rc != 0:
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"llama_model_quantize failed for {variant} (code {rc})")
    tmp.rename(out)
    print(f"made {out} in {time.perf_counter() - t:.0f} s")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=DEFAULT_MODEL, help="source GGUF (a known name or a path); default the bundled 0.5B")
    ap.add_argument("--variants", default="q4_0,q8_0,iq4_nl")
    ap.add_argument("--threads", default="2,1", help="llama.cpp threads to measure at, comma-separated (1 stands in for a slower host)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--prompt-tokens", type=int, default=1000)
    ap.add_argument("--out", default="benchmarks/results/quantized.json")
    args = ap.parse_args()

    source = resolve_model(args.model)
    files = {"q4_k_m": source} | {v: requantize(source, v) for v in args.variants.split(",")}
    threads = [int(t) for t in args.threads.split(",")]
    runs: dict[tuple[str, int], list[dict]] = {}
    for _ in range(args.rounds):
        for n in threads:
            for name, path in files.items():
                runs.setdefault((name, n), []).append(measure(path, 8192, args.prompt_tokens, "auto", n_threads=n))

    print(f"{cpu_model()} ({' '.join(llama_features())}); medians of {args.rounds} rounds")
    print(f"{'variant':<8}{'threads':>8}{'MB':>7}{'prompt tok/s':>14}{'gen tok/s':>11}{'prompt ×':>10}{'gen ×':>8}")
    rows = []
    for n in threads:
        base = None
        for name, path in files.items():
            mine = runs[(name, n)]
            row = {
                "variant": name,
                "path": str(path),
                "threads": n,
                "mb": path.stat().st_size / 1e6,
                "prompt_tokens_per_s": statistics.median(r["prompt_tokens_per_s"] for r in mine),
                "generation_tokens_per_s": statistics.median(r["generation_tokens_per_s"] for r in mine),
                "rounds": mine,
            }
            base = base or row
            row["prompt_ratio"] = row["prompt_tokens_per_s"] / base["prompt_tokens_per_s"]
            row["generation_ratio"] = row["generation_tokens_per_s"] / base["generation_tokens_per_s"]
            rows.append(row)
            print(
                f"{name:<8}{n:>8}{row['mb']:>7.0f}{row['prompt_tokens_per_s']:>14.0f}{row['generation_tokens_per_s']:>11.1f}"
                f"{row['prompt_ratio']:>10.2f}{row['generation_ratio']:>8.2f}"
            )
    shas = {name: sha256_file(path) for name, path in files.items()}
    for name, path in files.items():
        print(f"{name:<8} {shas[name][:16]}…  {path}")
    write_result(args.out, {"source": str(source), "sha256": shas, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
