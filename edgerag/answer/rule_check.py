"""The model asked about the rule's own sentence (issue #62, item 4's model check): a yes or no
about a rule ("Can I …?") that the check's polarity step turned from "yes" to "no" (a "not",
"only" or "except" in the sentence read that speaks most of it, polarity.py) is read once more,
by one short call constrained to "yes" or "no" (llm `ChoiceTrie`) that reads only the rule's
sentence (conditions.py `rule_sentence`, with its list items where it leads a list), the user's
situation and the question proper:

    Rule: To claim you must: have paid Income Tax; …
    Situation: I am on PAYE and pay income tax.
    Question: Are they eligible to claim?

and says whether it holds for that user; its answer is the answer (``answer_rule_check``). The
polarity step reads words; the model reads the rule for the user's case: "You cannot get a
loan if you already have a master's degree, unless you left your course for illness" is a
"not" that says yes to "Am I eligible after dropping out due to illness?".

Measured (benchmarks/results/check_steps_conditionalqa_rule_check_1_5b.json, the 1.5B, the
first 55 ConditionalQA yes/no questions): read again after *every* rule's yes or no, the model
says "no" to rules that hold (+6 / -10 over the first 35: not kept); read again only after the
polarity step's "no", right 32 → 35, wrong 19 → 16, abstained 4 → 4 (8 calls of about 1 s). Only a
question that gives the user's situation is read again (the office set's rule questions have
none: they read as before).

A polarity "no" said outright (polarity.py `outright`: no "if", "unless", "when" … of its own,
no list it leads) is not read again: no situation can turn "Your agency cannot refuse to pay
you because your hirer's unhappy with your work", and the 1.5B read that one back to "yes"
(ConditionalQA dev-245); one call fewer where it applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..llm.local import Completion
from ..llm.metered import MeteredLLM
from .binding import Standing
from .conditions import rule_items
from .question import Question

MAX_RULE_WORDS = 120
"""Words of the rule (its sentence and list items) the call reads at most: one short call."""
SYSTEM = (
    "You decide whether a rule from official guidance applies to a person. Read the rule and the person's situation, "
    "then answer the question with yes or no only."
)


@dataclass(frozen=True)
class RuleReading:
    """What the model said of the rule for the user's situation."""

    answer: str
    """``yes`` or ``no``."""
    rule: str
    """The rule as the call read it (its sentence, and its list items)."""
    standing: Standing
    """The rule's sentence and its passage."""


def rule_text(standing: Standing) -> str:
    """The rule the call reads: its sentence, and its list's items where it leads one."""
    items = rule_items(standing)
    text = standing.sentence.strip()
    if items:
        text += " " + "; ".join(items) + "."
    words = text.split()
    return " ".join(words[:MAX_RULE_WORDS])


def rule_messages(q: Question, rule: str, heading: str = "") -> list[dict[str, str]]:
    """The call's prompt (the module doc)."""
    lines = [f"Rule{f' ({heading})' if heading else ''}: {rule}"]
    if q.situation:
        lines.append("Situation: " + " ".join(q.situation))
    lines.append(f"Question: {q.asked}")
    lines.append("Does the rule make the answer yes or no for this person? Answer yes or no.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def read_rule(llm: MeteredLLM, q: Question, standing: Standing, *, method: str) -> tuple[RuleReading, Completion]:
    """The model's yes or no for ``q`` from the rule's sentence alone (the module doc), and the call."""
    rule = rule_text(standing)
    heading = standing.unit.title or ""
    c = llm.chat(
        rule_messages(q, rule, heading),
        stage="answer",
        method=method,
        max_tokens=4,
        sources=[standing.unit.chunk_id],
        choices=["yes", "no"],
    )
    said = c.text.strip().lower()
    return RuleReading("no" if said.startswith("no") else "yes", rule, standing), c
