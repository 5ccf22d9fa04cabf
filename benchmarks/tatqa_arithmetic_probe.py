"""A model-free probe of the arithmetic decided in code (answer/arithmetic.py) on TAT-QA report
excerpts: each excerpt's page read by the real HTML reader, its arithmetic questions computed in
code, and each computed number compared with the gold answer (the same number at the gold's
decimals, and the same scale). No model, no index: seconds on a CPU.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/tatqa_arithmetic_probe.py --pages 10 [--offset 0] [--show]

Prints, per operation the grammar found, how many questions code decided and how many of those
equal the gold; and the questions asked that code left to the model.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.operation import operation
from edgerag.ingest import iter_documents
from edgerag.types import Document

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "tatqa" / "test"
_SCALES = {"thousand": "thousand", "million": "million", "billion": "billion", "%": "percent"}


def _gold_number(text: str) -> float | None:
    m = re.search(r"-?\d[\d,]*(?:\.\d+)?", text.replace("(", "-"))
    return float(m.group().replace(",", "")) if m else None


def right(answer: str, gold: str, gold_scale: str) -> bool:
    ours, theirs = _gold_number(answer), _gold_number(gold)
    if ours is None or theirs is None:
        return False
    decimals = len(gold.split(".")[1]) if "." in gold else 0
    scale = next((v for k, v in _SCALES.items() if k in answer), "")
    return round(ours, decimals) == round(theirs, decimals) and scale == gold_scale


def same_values(answer: str, gold: list[str], gold_scale: str) -> bool:
    """The answer's numbers are the gold's (as sets), and its scale the gold's."""
    ours = sorted(round(float(m.replace(",", "")), 4) for m in re.findall(r"-?\d[\d,]*(?:\.\d+)?", answer))
    theirs = []
    for g in gold:
        n = _gold_number(g)
        if n is None:
            return False
        theirs.append(round(abs(n) if g.strip().startswith("(") else n, 4))
    scale = next((v for k, v in _SCALES.items() if k in answer), "")
    said = next((v for k, v in _SCALES.items() if any(k in g for g in gold)), "")
    return sorted(abs(x) for x in ours) == sorted(abs(x) for x in theirs) and scale in (gold_scale, said)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    questions = [json.loads(line) for line in (args.data / "questions.jsonl").open()]
    contexts = sorted({q["context"] for q in questions})[args.offset : args.offset + args.pages]
    asked: Counter = Counter()
    decided: Counter = Counter()
    good: Counter = Counter()
    wrong: dict[str, list[str]] = defaultdict(list)
    other: Counter = Counter()
    looked: Counter = Counter()
    for ctx in contexts:
        page = args.data / "pages" / f"{ctx.rsplit('-', 1)[1]}.html"
        text = "\n".join(d.text for d in iter_documents([page]) if isinstance(d, Document))
        for q in questions:
            if q["context"] != ctx:
                continue
            if q["answer_type"] in ("span", "multi-span"):  # a cell or cells read in code
                lk = look_up(q["question"], [("page", text)])
                if lk is not None and compute(q["question"], [("page", text)]) is None:
                    ok = same_values(lk.answer, q["answers"], q["scale"])
                    looked[q["answer_type"]] += 1
                    looked[q["answer_type"] + " right"] += ok
                    if args.show:
                        print(
                            f"  {'RIGHT' if ok else 'WRONG'} [lookup {q['answer_type']}] {q['question']} | {lk.answer} | gold {q['answers']} {q['scale']}"
                        )
            if q["answer_type"] != "arithmetic":  # code must leave these alone, or answer them right
                c = compute(q["question"], [("page", text)])
                if c is not None:
                    ok = right(c.answer, q["answers"][0], q["scale"]) and len(q["answers"]) == 1
                    other["decided"] += 1
                    other["right"] += ok
                    if args.show:
                        print(
                            f"  {'RIGHT' if ok else 'WRONG'} [{q['answer_type']}] {q['question']} | {c.shown} | gold {q['answers']} {q['scale']}"
                        )
                continue
            op = operation(q["question"])
            name = op.op if op else "(none)"
            asked[name] += 1
            c = compute(q["question"], [("page", text)])
            if c is None:
                if args.show:
                    print(f"  left  [{name}] {q['question']} | gold {q['answers'][0]} {q['scale']} | {q['derivation']}")
                continue
            decided[name] += 1
            ok = right(c.answer, q["answers"][0], q["scale"])
            good[name] += ok
            if not ok:
                wrong[name].append(f"{q['question']} | ours {c.shown} | gold {q['answers'][0]} {q['scale']} | {q['derivation']}")
            if args.show:
                print(f"  {'RIGHT' if ok else 'WRONG'} [{name}] {q['question']} | {c.shown} | gold {q['answers'][0]} {q['scale']}")
    print(f"{len(contexts)} excerpts, {sum(asked.values())} arithmetic questions")
    print(f"{'operation':16} {'asked':>5} {'decided':>7} {'right':>5}")
    for name in sorted(asked, key=lambda n: -asked[n]):
        print(f"{name:16} {asked[name]:5} {decided[name]:7} {good[name]:5}")
    print(f"{'all':16} {sum(asked.values()):5} {sum(decided.values()):7} {sum(good.values()):5}")
    print(f"other questions (span, multi-span, count) computed in code: {other['decided']}, right {other['right']}")
    for kind in ("span", "multi-span"):
        print(f"{kind} questions whose cells code read: {looked[kind]}, right {looked[kind + ' right']}")
    if args.show:
        for name, items in wrong.items():
            for w in items:
                print(f"WRONG [{name}] {w}")


if __name__ == "__main__":
    main()
