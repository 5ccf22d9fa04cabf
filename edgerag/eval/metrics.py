"""Answer and retrieval metrics, SQuAD-normalised (text/normalize.py) as the multi-hop QA benchmarks score them.

* Coverage (KET-RAG §6.1): the gold answer (or an alias) appears in the retrieved context,
  both normalised.
* Recall@k: the fraction of a question's supporting passages among the first k distinct
  documents of the context.
* EM / F1: SQuAD's exact match and token F1 of a generated answer, max over the answers.
"""

from __future__ import annotations

from collections import Counter

from ..text.normalize import normalize  # here too: `from edgerag.eval.metrics import normalize` works


def coverage(answers: list[str], context_text: str) -> bool:
    ctx = f" {normalize(context_text)} "
    return any(a and f" {a} " in ctx for a in (normalize(x) for x in answers))


def recall_at_k(supporting: list[str], ranked_doc_ids: list[str], k: int) -> float | None:
    if not supporting:
        return None
    gold = set(supporting)
    return len(gold & set(ranked_doc_ids[:k])) / len(gold)


def exact_match(prediction: str, answers: list[str]) -> float:
    p = normalize(prediction)
    return float(any(p == normalize(a) for a in answers))


def f1(prediction: str, answers: list[str]) -> float:
    pred = normalize(prediction).split()
    best = 0.0
    for a in answers:
        gold = normalize(a).split()
        common = sum((Counter(pred) & Counter(gold)).values())
        if common == 0:
            continue
        p, r = common / len(pred), common / len(gold)
        best = max(best, 2 * p * r / (p + r))
    return best


def truthfulness(right: list[float], abstained: list[bool]) -> float:
    """CRAG's truthfulness score (Meta's Comprehensive RAG Benchmark, KDD Cup 2024): +1 a right
    answer, 0 "I don't know" (here "The documents do not say."), −1 a wrong one, averaged; a
    wrong answer costs a user more than none. ``right`` holds each question's exact match."""
    if not right:
        return 0.0
    return sum(0.0 if a else (1.0 if r else -1.0) for r, a in zip(right, abstained)) / len(right)
