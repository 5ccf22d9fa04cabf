"""Prompt and generation speed of the local model on this machine, and llama.cpp prefix reuse.

    .venv/bin/python benchmarks/llm_speed.py [--model PATH] [--n-ctx 8192] [--prompt-tokens 1000] [--repack on,off] [--rounds 3]

Prompt speed = prompt tokens / time to the first streamed token (a fresh prompt, nothing
reused); generation speed = later tokens / the time they took. Then a second prompt sharing
the first one's instruction shows how many prompt tokens llama.cpp actually evaluated.
With ``--repack on,off`` each choice of llama.cpp's weight repacking (``llm_repack``, cpu.py)
is measured in turn, ``--rounds`` times alternating, in one process: the comparison issue #29
asks for, on whatever CPU runs it. Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from common import write_result

from edgerag.llm.cpu import cpu_model, llama_features
from edgerag.llm.local import LocalLLM, close_models, gpu_offload_available
from edgerag.llm.models import resolve_model

SAMPLE = Path(__file__).resolve().parent.parent / "edgerag" / "data" / "sample"
INSTRUCTION = "You answer questions using only the numbered passages the user gives."


def passages(llm: LocalLLM, n_tokens: int, skip: int = 0) -> str:
    text, out = "", []
    for p in [json.loads(line) for line in open(SAMPLE / "corpus.jsonl")][skip:]:
        out.append(f"[{len(out) + 1}] {p['title']}: {p['text']}")
        text = "\n".join(out)
        if llm.count(text) >= n_tokens:
            break
    return text


def timed(llm: LocalLLM, messages, max_tokens: int):
    prompt, stop = llm.format(messages)
    t0 = time.perf_counter()
    first = []
    c = llm.complete(prompt, stop, max_tokens, on_text=lambda piece: first or first.append(time.perf_counter()))
    t_first = (first[0] if first else time.perf_counter()) - t0
    return c, t_first


def measure(path: Path, n_ctx: int, prompt_tokens: int, repack: str, n_threads: int | None = None) -> dict:
    t = time.perf_counter()
    llm = LocalLLM(path, n_ctx=n_ctx, n_threads=n_threads, repack=repack)
    llm.llama  # noqa: B018 (load the model now, inside the timed span)
    load_s = time.perf_counter() - t

    story = [{"role": "user", "content": "Write a long, detailed story about a lighthouse keeper and a storm."}]
    llm.complete(*llm.format(story), max_tokens=8)  # warm-up
    ctx = passages(llm, prompt_tokens)
    q1 = [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": f"Passages:\n{ctx}\n\nQuestion: Who is mentioned first?"}]
    llm.llama.reset()
    c1, first1 = timed(llm, q1, 16)
    # generation rate: everything after the first token
    count = [{"role": "user", "content": "Count from 1 to 200 in words, one number per line, and nothing else."}]
    c_gen, t_first_gen = timed(llm, count, 128)
    gen_rate = (c_gen.output_tokens - 1) / max(c_gen.seconds - t_first_gen, 1e-9)
    ctx2 = passages(llm, prompt_tokens, skip=40)
    q2 = [
        {"role": "system", "content": INSTRUCTION},
        {"role": "user", "content": f"Passages:\n{ctx2}\n\nQuestion: Who is mentioned first?"},
    ]
    llm.complete(*llm.format(q1), max_tokens=1)  # leave q1 as the previous prompt
    c2, _ = timed(llm, q2, 16)
    close_models()  # the next choice loads afresh
    return {
        "repack": repack,
        "threads": llm.n_threads,
        "load_seconds": load_s,
        "prompt_tokens": c1.prompt_tokens,
        "prompt_tokens_per_s": c1.prompt_tokens / first1,
        "generation_tokens": c_gen.output_tokens,
        "generation_tokens_per_s": gen_rate,
        "reuse_prompt_tokens": c2.prompt_tokens,
        "reuse_evaluated_tokens": c2.evaluated_tokens,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model")
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--prompt-tokens", type=int, default=1000)
    ap.add_argument("--repack", default="auto", help="llm_repack choices to measure, comma-separated (auto, on, off)")
    ap.add_argument("--rounds", type=int, default=1, help="times each choice is measured, alternating")
    ap.add_argument("--out", default="benchmarks/results/llm_speed.json")
    args = ap.parse_args()

    path = resolve_model(args.model)
    choices = [c.strip() for c in args.repack.split(",")]
    runs = [measure(path, args.n_ctx, args.prompt_tokens, c) for _ in range(args.rounds) for c in choices]
    print(f"model {path.name}, {cpu_model()} ({' '.join(llama_features())}), GPU offload {gpu_offload_available()}")
    print(f"{'llm_repack':<11}{'load s':>8}{'prompt tok/s':>14}{'gen tok/s':>11}   prefix reuse (evaluated of prompt)")
    rows = {}
    for c in choices:
        mine = [r for r in runs if r["repack"] == c]
        med = {k: statistics.median(r[k] for r in mine) for k in ("load_seconds", "prompt_tokens_per_s", "generation_tokens_per_s")}
        rows[c] = {**mine[-1], **med, "rounds": [{k: r[k] for k in med} for r in mine]}
        r = rows[c]
        print(
            f"{c:<11}{r['load_seconds']:>8.1f}{r['prompt_tokens_per_s']:>14.0f}{r['generation_tokens_per_s']:>11.1f}   "
            f"{r['reuse_evaluated_tokens']} of {r['reuse_prompt_tokens']}"
        )
    if len(choices) > 1:
        a, b = choices[0], choices[1]
        print(
            f"{a} / {b}: prompt ×{rows[a]['prompt_tokens_per_s'] / rows[b]['prompt_tokens_per_s']:.2f}, "
            f"generation ×{rows[a]['generation_tokens_per_s'] / rows[b]['generation_tokens_per_s']:.2f} (medians of {args.rounds})"
        )
    first = rows[choices[0]]
    write_result(args.out, {"model": path.name, "gpu_offload": gpu_offload_available(), **first, "choices": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
