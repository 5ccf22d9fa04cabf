"""A result file of benchmarks/answers.py rechecked with the code as it is now, without the
model: each comparison's decision in code made again on the run's index, and each recorded
reply put through the post-rules again (reply.py `span_asked`). Prints the answers that change
and each split's EM with them. For a fix to the grammar or a rule after a long run, when a full
rerun would not come from the LLM cache (the speeds drifted, so every read's evidence changes).

    .venv/bin/python benchmarks/recheck.py benchmarks/results/answers_100_49.json
"""

from __future__ import annotations

import json
import sys

from edgerag import EdgeRAG, Settings
from edgerag.answer.compare import Decision, decide
from edgerag.answer.reply import span_asked
from edgerag.eval.metrics import exact_match

CUT_RULES = ("year", "place")
"""The post-rules of `span_asked` that read only the question, rechecked on the reply they were given."""


def main(path: str) -> int:
    result = json.load(open(path, encoding="utf-8"))
    for run in result["runs"]:
        rag = EdgeRAG(f".edgerag/bench/{run['split']}-dev", Settings(progress=False))
        em, in_code, comparisons = sum(r["em"] for r in run["rows"]), 0, 0
        for row in run["rows"]:
            now = None
            if row.get("comparison", "-") != "-":
                comparisons += 1
                decision = decide(row["question"], rag.retrieve(row["question"]).units, lookup=rag.passages_named)
                if isinstance(decision, Decision):
                    now = decision.answer
                in_code += isinstance(decision, Decision) or row.get("compared", False)
            for r in row.get("rules", []):
                if r["rule"] in CUT_RULES:
                    now = span_asked(r["before"], row["question"], [], [])[0]
            if now is not None and now != row["answer"]:
                right = exact_match(now, [row["gold"]])
                em += right - row["em"]
                print(f"{run['split']}: {row['question']}\n    run: {row['answer']} ({row['em']:.0f})  now: {now} ({right:.0f})")
        n = len(run["rows"])
        print(
            f"{run['split']}: EM {run['summary']['em']:.1f} in the run, {100 * em / n:.1f} with the code now; comparisons decided in code {in_code} of {comparisons}"
        )
        rag.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
