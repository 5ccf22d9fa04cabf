"""ConditionalQA answers scored: right by the kind asked, ConditionalQA's own EM / F1 on the
answers, and whether a reply states a condition.

Right (CRAG's truthfulness, issue #62; the answer only, conditions reported apart):
- ``yesno``: the reply's first word is "yes" or "no" and is one of the gold answers (a question
  with both "yes" and "no" gold, under different conditions, accepts either);
- ``span``: the reply matches a gold answer as the office benchmark matches (benchmarks/office.py
  `match`: equal after normalising, or holding it within a few words), or the reply is held in a
  gold answer and covers at least half of its words ("£1,500" for "£1,500 a year"); a list
  (items joined by "; ", as edgerag lists them) is right when each of its items is;
- ``none``: no gold answer; right only when the reply says the documents do not say.

ConditionalQA's EM / F1 (answers only) is our port of ``compute_metrics`` in its
``evaluate.py`` (repository haitian-sun/ConditionalQA; Sun, Cohen, Salakhutdinov, ACL 2022):
the predicted answers are matched to the gold ones in the best order, SQuAD's EM / F1 per pair,
averaged over the gold answers and discounted by exp(1 − predicted / gold) for extra predictions;
a question with no gold answer scores 1 only when nothing is predicted. A reply is one predicted
answer (its first word for a yes / no question), none when it abstains.
"""

from __future__ import annotations

import collections
import itertools
import math
import re
import string

from office import canon, match

NONE = "__none__"
CONDITION = re.compile(
    r"\b(if|unless|provided\s+(that|you)|as\s+long\s+as|only\s+(if|when|after|before)|except|depending\s+on|depends\s+on|subject\s+to)\b",
    re.I,
)
"""A reply that states a condition in words."""


def gold_answers(q: dict) -> list[str]:
    """The question's gold answers, none for an unanswerable one."""
    return [a for a in q["answers"] if a != NONE]


def first_word(reply: str) -> str:
    words = canon(reply).split()
    return words[0] if words else ""


def is_right(q: dict, reply: str) -> bool:
    """Whether an answered ``reply`` is right for ``q`` (the module doc)."""
    gold = gold_answers(q)
    if not gold or not reply.strip():
        return False
    if q["kind"] == "yesno":
        return first_word(reply) in {canon(a) for a in gold}
    items = [i for i in re.split(r"\s*;\s*", reply) if i.strip()]
    if len(items) > 1:  # a list: right when each item is one of the gold answers
        return all(_one_right(i, gold) for i in items)
    return _one_right(reply, gold)


def _one_right(reply: str, gold: list[str]) -> bool:
    if match(reply, gold):
        return True
    p = canon(reply)
    return any(f" {p} " in f" {canon(a)} " and 2 * len(p.split()) >= len(canon(a).split()) for a in gold)


def verdict(q: dict, reply: str, abstention: str) -> str:
    """right | abstained | wrong (an unanswerable question: right when abstained)."""
    if not gold_answers(q):
        return "right" if abstention else "wrong"
    if abstention:
        return "abstained"
    return "right" if is_right(q, reply) else "wrong"


def states_condition(reply: str) -> bool:
    return bool(CONDITION.search(reply))


def gold_conditional(q: dict) -> bool:
    return any(c for c in q.get("conditions", []))


# ---- ConditionalQA's EM / F1 on answers (our port of evaluate.py) ---------------------------


def _normalize(s: str) -> str:
    s = "".join(ch for ch in s.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", s).split())


def _f1(gold: str, pred: str) -> float:
    g, p = _normalize(gold).split(), _normalize(pred).split()
    if not g or not p:
        return float(g == p)
    same = sum((collections.Counter(g) & collections.Counter(p)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def predicted_answers(q: dict, reply: str, abstention: str) -> list[str]:
    """The answers a reply predicts: none when it abstains, its first word for a yes / no
    question that opens with one, else the reply."""
    if abstention or not reply.strip():
        return []
    if q["kind"] == "yesno" and first_word(reply) in ("yes", "no"):
        return [first_word(reply)]
    return [reply]


def cqa_em_f1(predicted: list[str], gold: list[str]) -> tuple[float, float]:
    """ConditionalQA's EM and F1 without conditions (``compute_metrics``)."""
    if not gold:
        return (float(not predicted),) * 2
    padded = list(predicted) + [""] * (len(gold) - len(predicted))
    best_em = best_f1 = 0.0
    for order in itertools.permutations(padded):
        pairs = list(zip(order, gold))
        best_em = max(best_em, sum(float(_normalize(p) == _normalize(g)) for p, g in pairs) / len(gold))
        best_f1 = max(best_f1, sum(_f1(g, p) for p, g in pairs) / len(gold))
    gamma = math.exp(1.0 - len(padded) / len(gold))
    return best_em * gamma, best_f1 * gamma
