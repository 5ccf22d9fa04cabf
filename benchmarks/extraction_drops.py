"""Why the KG extractor drops names: each dropped name of a built core, read from the model's
own output (the index's LLM cache), sorted by cause (#50).

The parser keeps an entity or relation only when its names occur in the passage as whole
words (extract/kg.py); the rest are counted as dropped. This reads the cached completions of
every chunk ``--model`` extracted in ``--index``, finds the dropped names again and sorts them:
a type or "yes" in a name's place, copied from the prompt's example, the passage's name with
its punctuation or accents changed,
a shortened or lengthened form of a passage name (a word more or less), or something else.

    .venv/bin/python benchmarks/extraction_drops.py \
        --index .edgerag/bench/2wikimultihopqa-dev-by-qwen2.5-coder-1.5b-instruct-q4_k_m \
        --model qwen2.5-coder-1.5b-instruct-q4_k_m
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import Counter

from common import write_result

from edgerag import EdgeRAG
from edgerag.extract import kg as kgx
from edgerag.graph.kg import extraction_call, extractor_model

EXAMPLE = kgx.squash(kgx.INSTRUCTION)


def plain(text: str) -> str:
    """Lower case, accents and punctuation gone, spaces squeezed."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def cause(name: str, passage: str) -> str:
    key = kgx.normalize_name(name)
    if name.strip().upper() in {*kgx.ENTITY_TYPES, "E", "R", "YES", "NO", "NONE", "UNKNOWN"}:
        return "a type, tag or yes/no in a name's place (an attribute written as a relation)"
    if kgx.mentions(EXAMPLE, key):
        return "copied from the example"
    if key and f" {plain(name)} " in f" {plain(passage)} ":
        return "punctuation or accents changed"
    words = plain(name).split()
    hay = f" {plain(passage)} "
    if len(words) > 1 and any(f" {' '.join(words[:i] + words[i + 1 :])} " in hay for i in range(len(words))):
        return "a word added"
    if words and all(f" {w} " in hay for w in words):
        return "words of the passage, not in that order"
    return "not in the passage"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", default="benchmarks/results/extraction_drops.json")
    ap.add_argument("--show", type=int, default=4, help="examples printed per cause")
    args = ap.parse_args()

    rag = EdgeRAG(args.index, progress=False, extract_model=args.model)
    llm = rag.extract_llm
    s = rag.settings
    ids = sorted(rag.index.ids("chunks"))
    done = [
        (cid, rec)
        for cid, rec in zip(ids, rag.index.get_many("extractions", ids))
        if rec and extractor_model(rec.get("extractor", "")) == args.model
    ]
    causes: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    lines = 0
    finish: Counter[str] = Counter()  # stop (done), halted (a repeated line stopped it), length (cut at the cap)
    for cid, _rec in done:
        text = rag.index.get("chunks", cid)["text"]
        call = extraction_call(llm, text, grammar=s.extract_grammar, max_tokens=s.extract_max_tokens)
        c = llm.cached(call)
        if c is None:
            continue
        out = c.text
        lines += len([x for x in out.splitlines() if x.strip()])
        finish[c.finish_reason] += 1
        for line in out.splitlines():
            fields = [f.strip() for f in line.split("|")]
            tag = fields[0].strip("-*• ").upper() if fields else ""
            names = fields[1:2] if tag == "E" else [fields[1], fields[-1]] if tag == "R" and len(fields) >= 4 else []
            for name in names:
                if not kgx.mentions(kgx.squash(text), kgx.normalize_name(name)):
                    why = cause(name, text)
                    causes[why] += 1
                    examples.setdefault(why, []).append(f"{name!r} ({cid})")
    print(f"{len(done)} chunks by {args.model}; {lines} output lines; {sum(causes.values())} names dropped; ended: {dict(finish)}")
    for why, n in causes.most_common():
        print(f"{n:>5}  {why}: " + "; ".join(examples[why][: args.show]))
    write_result(
        args.out,
        {
            "benchmark": "extraction_drops",
            "index": args.index,
            "model": args.model,
            "chunks": len(done),
            "lines": lines,
            "finish": dict(finish),
            "causes": dict(causes),
            "examples": {k: v[:20] for k, v in examples.items()},
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
