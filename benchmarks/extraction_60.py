"""Our KG extractor vs LightRAG 1.5.7 on the same 60 passages and the same 0.5B model.

LightRAG, driven by Qwen2.5-Coder-0.5B-Instruct through llama-cpp's OpenAI-compatible server
on the first 60 passages of 2wikimultihopqa/small, built 15 entities and 6 relations in about
20 minutes, spending 4,243 prompt and 190 completion tokens and 20 s per passage (measured
by a peer here; issue #4). This runs edgerag's extractor (extract/kg.py) on the same passages
with the same model and counts valid entities and relations (every name occurs in its
passage: the parser drops the others), zero-yield passages, tokens and seconds per passage.

    .venv/bin/python benchmarks/extraction_60.py [--passages 60] [--grammar]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from common import write_result

from edgerag.extract import kg as kgx
from edgerag.llm.local import LocalLLM
from edgerag.llm.models import resolve_model

LIGHTRAG = {"entities": 15, "relations": 6, "prompt_per_passage": 4243, "completion_per_passage": 190, "seconds_per_passage": 20.0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/2wikimultihopqa/small/corpus.jsonl")
    ap.add_argument("--passages", type=int, default=60)
    ap.add_argument("--model")
    ap.add_argument("--grammar", action="store_true")
    ap.add_argument("--out", default="benchmarks/results/extraction_60.json")
    args = ap.parse_args()

    rows = [json.loads(line) for line in open(args.data, encoding="utf-8")][: args.passages]
    llm = LocalLLM(resolve_model(args.model), n_ctx=4096)
    grammar = None
    if args.grammar:
        from llama_cpp import LlamaGrammar

        grammar = LlamaGrammar.from_string(kgx.GRAMMAR, verbose=False)
    tot = {
        "entities": 0,
        "relations": 0,
        "invented": 0,
        "unparsed": 0,
        "zero_yield": 0,
        "prompt": 0,
        "evaluated": 0,
        "output": 0,
        "seconds": 0.0,
        "halted": 0,
    }
    distinct = set()
    t0 = time.perf_counter()
    for i, r in enumerate(rows):
        text = f"{r['title']}\n\n{r['text']}" if r.get("title") else r["text"]  # as the jsonl reader builds it
        prompt, stop = llm.format(kgx.messages(text))
        c = llm.complete(prompt, stop, 200, grammar=grammar, halt=kgx.halt_on_repeat)
        ex = kgx.parse(c.text, text)
        tot["entities"] += len(ex.entities)
        tot["relations"] += len(ex.relations)
        tot["invented"] += ex.invented
        tot["unparsed"] += ex.unparsed
        tot["zero_yield"] += not ex.entities
        tot["prompt"] += c.prompt_tokens
        tot["evaluated"] += c.evaluated_tokens
        tot["output"] += c.output_tokens
        tot["seconds"] += c.seconds
        tot["halted"] += c.finish_reason == "halted"
        distinct.update(kgx.normalize_name(e.name) for e in ex.entities)
        print(f"\r{i + 1}/{len(rows)} passages, {tot['entities']} entities", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = len(rows)
    wall = time.perf_counter() - t0
    ours = {
        "entities": tot["entities"],
        "distinct_entities": len(distinct),
        "relations": tot["relations"],
        "prompt_per_passage": tot["prompt"] / n,
        "evaluated_per_passage": tot["evaluated"] / n,
        "completion_per_passage": tot["output"] / n,
        "seconds_per_passage": tot["seconds"] / n,
    }
    print(f"{'':<28}{'edgerag':>12}{'LightRAG':>12}{'ratio':>10}")
    print(f"{'valid entities':<28}{ours['entities']:>12}{LIGHTRAG['entities']:>12}{ours['entities'] / LIGHTRAG['entities']:>9.1f}×")
    print(f"{'  distinct (merged)':<28}{ours['distinct_entities']:>12}{'':>12}{ours['distinct_entities'] / LIGHTRAG['entities']:>9.1f}×")
    print(f"{'valid relations':<28}{ours['relations']:>12}{LIGHTRAG['relations']:>12}{ours['relations'] / LIGHTRAG['relations']:>9.1f}×")
    print(
        f"{'prompt tokens / passage':<28}{ours['prompt_per_passage']:>12.0f}{LIGHTRAG['prompt_per_passage']:>12}{ours['prompt_per_passage'] / LIGHTRAG['prompt_per_passage']:>10.3f}"
    )
    print(
        f"{'  evaluated (prefix reuse)':<28}{ours['evaluated_per_passage']:>12.0f}{'':>12}{ours['evaluated_per_passage'] / LIGHTRAG['prompt_per_passage']:>10.3f}"
    )
    print(
        f"{'completion tokens / passage':<28}{ours['completion_per_passage']:>12.0f}{LIGHTRAG['completion_per_passage']:>12}{ours['completion_per_passage'] / LIGHTRAG['completion_per_passage']:>10.3f}"
    )
    print(
        f"{'seconds / passage':<28}{ours['seconds_per_passage']:>12.1f}{LIGHTRAG['seconds_per_passage']:>12.1f}{ours['seconds_per_passage'] / LIGHTRAG['seconds_per_passage']:>10.3f}"
    )
    print(
        f"zero-yield passages: {tot['zero_yield']} of {n}; dropped items (names not in the passage): {tot['invented']}; "
        f"unparsed lines: {tot['unparsed']}; stopped at a repeated line: {tot['halted']}; wall {wall:.0f}s"
    )
    out = {
        "benchmark": "extraction_60",
        "passages": n,
        "grammar": args.grammar,
        "model": llm.path.name,
        "edgerag": {**ours, **{k: tot[k] for k in ("zero_yield", "invented", "unparsed", "halted")}, "wall_seconds": wall},
        "lightrag_1_5_7": LIGHTRAG,
    }
    write_result(args.out, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
