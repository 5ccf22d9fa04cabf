"""Which answers changed between two runs of benchmarks/answers.py, and whether retrieval is why.

For each split in both files, the questions right in one run and wrong in the other, with
whether the gold answer was in the reader's context in each (``in_context``) and the two
replies. A flip whose answer was in both contexts is the reader's, not retrieval's.

    .venv/bin/python benchmarks/answer_flips.py benchmarks/results/answers_chain.json benchmarks/results/answers_int8.json

A file may hold several runs of a split (answers_chain.json holds a run without chains first):
``--match`` picks runs by their settings (default: chain on), the last such run of each split.
"""

from __future__ import annotations

import argparse
import json
import sys


def runs_by_split(path: str, match: dict) -> dict[str, dict]:
    out = {}
    for run in json.loads(open(path, encoding="utf-8").read())["runs"]:
        if all(run.get(k) == v for k, v in match.items()):
            out[run["split"]] = run
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--match", default='{"chain": true}', help="JSON of run settings both runs must have")
    args = ap.parse_args()
    match = json.loads(args.match)
    before, after = runs_by_split(args.before, match), runs_by_split(args.after, match)
    for split in [s for s in before if s in after]:
        b = {r["id"]: r for r in before[split]["rows"]}
        a = {r["id"]: r for r in after[split]["rows"]}
        common = [q for q in b if q in a]
        flips = [q for q in common if bool(float(b[q]["em"])) != bool(float(a[q]["em"]))]
        lost = sum(1 for q in flips if float(b[q]["em"]))
        both = sum(1 for q in flips if b[q]["in_context"] and a[q]["in_context"])
        print(
            f"{split}: {len(common)} questions, EM {sum(float(b[q]['em']) for q in common):.0f} → {sum(float(a[q]['em']) for q in common):.0f}; "
            f"answer in context {sum(bool(b[q]['in_context']) for q in common)} → {sum(bool(a[q]['in_context']) for q in common)}; "
            f"{len(flips)} flips ({lost} lost, {len(flips) - lost} gained), {both} with the answer in both contexts"
        )
        for q in flips:
            gold = b[q]["gold"][0] if isinstance(b[q]["gold"], list) else b[q]["gold"]
            print(
                f"    {'lost  ' if float(b[q]['em']) else 'gained'} in context {bool(b[q]['in_context'])}/{bool(a[q]['in_context'])}  "
                f"gold {gold[:26]!r:<28} before {str(b[q]['answer'])[:34]!r:<38} after {str(a[q]['answer'])[:34]!r}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
