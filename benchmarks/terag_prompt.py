"""TERAG's names prompt, per model and format: output tokens against the KG extractor's on the
same passages, passages retried alone and left unnamed (#50).

TERAG (§3.1, §4) spends 3-11 % of a KG extractor's output tokens. This takes passages whose
KG extraction by ``--model`` is already stored in ``--index`` (`papers_by_model.py` builds
them), names them in a scratch copy of that index with the names prompt in each ``--formats``
(``lines``: "[n]" then ENTITIES and CONCEPTS lines, edgerag's prompt; ``oneline``: "[n] names |
topics", tried in #50 and not kept) and prints, per format: output tokens a passage and their
ratio to the KG extractor's, passages a batch left empty (asked again alone), passages with
no name at all, names kept and dropped, and seconds.

    .venv/bin/python benchmarks/terag_prompt.py \
        --index .edgerag/bench/2wikimultihopqa-dev-by-qwen2.5-coder-1.5b-instruct-q4_k_m \
        --model qwen2.5-coder-1.5b-instruct-q4_k_m [--passages 60] [--formats lines,oneline]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG
from edgerag.extract import names as nm
from edgerag.graph.kg import extractor_model
from edgerag.graph.names_graph import extract_names, names_call

ONELINE = (
    "names-oneline",
    """For each numbered passage write one line: its number in brackets, the named entities in the passage (people, organisations, places, dates, events, works) copied exactly and comma-separated, then | and one or two general topics of the passage.
Write nothing else.""",
    """[1] Marie Curie, Nobel Prize in Physics, 1903, Pierre Curie | physics
[2] Danube, Vienna, Budapest, Black Sea | rivers""",
)
FORMATS = {"lines": (nm.VERSION, nm.INSTRUCTION, nm.EXAMPLE_OUTPUT), "oneline": ONELINE}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--passages", type=int, default=60)
    ap.add_argument("--batch", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=60, help="output cap a passage (terag_max_tokens)")
    ap.add_argument("--formats", default="lines,oneline")
    ap.add_argument("--out", default="benchmarks/results/terag_prompt.json")
    args = ap.parse_args()

    rows = {}
    for fmt in args.formats.split(","):
        nm.VERSION, nm.INSTRUCTION, nm.EXAMPLE_OUTPUT = FORMATS[fmt]
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "ix"
            shutil.copytree(args.index, copy)
            rag = EdgeRAG(str(copy), progress=sys.stderr.isatty(), extract_model=args.model)
            ids = sorted(rag.index.ids("chunks"))
            kg = [
                (cid, rec)
                for cid, rec in zip(ids, rag.index.get_many("extractions", ids))
                if rec and extractor_model(rec.get("extractor", "")) == args.model
            ][: args.passages]
            sample = [cid for cid, _ in kg]
            report = extract_names(rag.index, rag.extract_llm, sample, batch=args.batch, max_tokens=args.max_tokens, progress=False)
            first = [c["text"] for c in rag.index.get_many("chunks", sample[: args.batch])]
            seen = rag.extract_llm.cached(names_call(rag.extract_llm, first, args.max_tokens))
            recs = rag.index.get_many("names", sample)
            out_tokens = sum(r["output_tokens"] for r in recs if r)
            kg_tokens = sum(rec["output_tokens"] for _, rec in kg)
            rows[fmt] = {
                "passages": len(sample),
                "output_per_passage": out_tokens / len(sample),
                "kg_output_per_passage": kg_tokens / len(sample),
                "ratio_to_kg": out_tokens / kg_tokens if kg_tokens else None,
                "retried_alone": report.retried,
                "unnamed": len(report.zero_yield),
                "entities_per_passage": report.entities / len(sample),
                "concepts_per_passage": report.concepts / len(sample),
                "dropped": report.invented,
                "seconds": report.seconds,
                "first_batch": {"output": seen.text, "finish": seen.finish_reason} if seen else None,
                "report": asdict(report),
            }
            rag.close()
        r = rows[fmt]
        print(
            f"{fmt:<8} {r['output_per_passage']:.1f} output tokens/passage = {100 * (r['ratio_to_kg'] or 0):.0f} % of the KG "
            f"extractor's {r['kg_output_per_passage']:.1f}; retried alone {r['retried_alone']}, unnamed {r['unnamed']}; "
            f"{r['entities_per_passage']:.1f} entities + {r['concepts_per_passage']:.1f} concepts a passage, "
            f"{r['dropped']} dropped; {r['seconds']:.0f} s"
        )
    write_result(args.out, {"benchmark": "terag_prompt", "index": args.index, "model": args.model, "batch": args.batch, "formats": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
