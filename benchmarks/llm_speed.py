"""Prompt and generation speed of the local model on this machine, and llama.cpp prefix reuse.

    .venv/bin/python benchmarks/llm_speed.py [--model PATH] [--n-ctx 8192] [--prompt-tokens 1000]

Prompt speed = prompt tokens / time to the first streamed token (a fresh prompt, nothing
reused); generation speed = later tokens / the time they took. Then a second prompt sharing
the first one's instruction shows how many prompt tokens llama.cpp actually evaluated.
Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from common import write_result

from edgerag.llm import LocalLLM, gpu_offload_available
from edgerag.models import resolve_model

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model")
    ap.add_argument("--n-ctx", type=int, default=8192)
    ap.add_argument("--prompt-tokens", type=int, default=1000)
    ap.add_argument("--out", default="benchmarks/results/llm_speed.json")
    args = ap.parse_args()

    path = resolve_model(args.model)
    t = time.perf_counter()
    llm = LocalLLM(path, n_ctx=args.n_ctx)
    llm.llama  # noqa: B018 (load the model now, inside the timed span)
    load_s = time.perf_counter() - t

    story = [{"role": "user", "content": "Write a long, detailed story about a lighthouse keeper and a storm."}]
    llm.complete(*llm.format(story), max_tokens=8)  # warm-up
    ctx = passages(llm, args.prompt_tokens)
    q1 = [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": f"Passages:\n{ctx}\n\nQuestion: Who is mentioned first?"}]
    llm.llama.reset()
    c1, first1 = timed(llm, q1, 16)
    # generation rate: everything after the first token
    count = [{"role": "user", "content": "Count from 1 to 200 in words, one number per line, and nothing else."}]
    c_gen, t_first_gen = timed(llm, count, 128)
    gen_rate = (c_gen.output_tokens - 1) / max(c_gen.seconds - t_first_gen, 1e-9)
    ctx2 = passages(llm, args.prompt_tokens, skip=40)
    q2 = [
        {"role": "system", "content": INSTRUCTION},
        {"role": "user", "content": f"Passages:\n{ctx2}\n\nQuestion: Who is mentioned first?"},
    ]
    llm.complete(*llm.format(q1), max_tokens=1)  # leave q1 as the previous prompt
    c2, _ = timed(llm, q2, 16)

    rows = {
        "model": path.name,
        "gpu_offload": gpu_offload_available(),
        "threads": llm.n_threads,
        "load_seconds": load_s,
        "prompt_tokens": c1.prompt_tokens,
        "prompt_tokens_per_s": c1.prompt_tokens / first1,
        "generation_tokens": c_gen.output_tokens,
        "generation_tokens_per_s": gen_rate,
        "reuse_prompt_tokens": c2.prompt_tokens,
        "reuse_evaluated_tokens": c2.evaluated_tokens,
    }
    print(f"model              {rows['model']}  (threads {rows['threads']}, GPU offload {rows['gpu_offload']})")
    print(f"load               {load_s:.1f} s")
    print(f"prompt             {rows['prompt_tokens_per_s']:.0f} tokens/s  ({c1.prompt_tokens} tokens in {first1:.1f} s)")
    print(f"generation         {gen_rate:.1f} tokens/s  ({c_gen.output_tokens} tokens)")
    print(
        f"prefix reuse       {c2.evaluated_tokens} of {c2.prompt_tokens} prompt tokens evaluated "
        f"({100 * c2.evaluated_tokens / c2.prompt_tokens:.0f}%): the {c2.prompt_tokens - c2.evaluated_tokens} tokens "
        "of the shared instruction were reused"
    )
    write_result(args.out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
