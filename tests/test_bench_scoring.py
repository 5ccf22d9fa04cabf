"""The open-set benchmarks' scoring on hand-written cases (no model, no benchmark data: every case
is written here): TAT-QA's EM / F1 with the scale and the reading of a reply's number and scale (benchmarks/tatqa_metric.py), the
CRAG classification (tatqa.py / conditionalqa.py `score_row`), ConditionalQA's yes / no and span
rules and its own EM / F1 (benchmarks/cqa_metric.py), and the fixed TAT-QA sample."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))  # the benchmark scripts import their neighbours

import conditionalqa  # noqa: E402
import tatqa  # noqa: E402
from cqa_metric import cqa_em_f1, is_right, states_condition  # noqa: E402
from tatqa_metric import read_prediction, score_reading  # noqa: E402


def tat(reply: str, gold: list[str], scale: str, answer_type: str) -> tuple[float, float]:
    return score_reading(read_prediction(reply, gold, answer_type), gold, scale, answer_type)


@pytest.mark.parametrize(
    ("reply", "gold", "scale", "answer_type", "em"),
    [
        ("17.7%", ["17.7"], "percent", "arithmetic", 1.0),
        ("17.7 per cent", ["17.7"], "percent", "arithmetic", 1.0),
        ("17.7", ["17.7"], "percent", "arithmetic", 0.0),  # no % said: the scale is missing
        ("0.177", ["17.7"], "percent", "arithmetic", 1.0),  # a fraction, as TAT-QA's add_percent_pred reads it
        ("$0.5 million", ["$0.5 million"], "", "span", 1.0),
        ("$500,000", ["$0.5 million"], "", "span", 1.0),  # the same value, another scale
        ("$0.5 thousand", ["$0.5 million"], "", "span", 0.0),  # scale mismatch
        ("5.2", ["5.2"], "million", "span", 0.0),  # the number without its scale
        ("$5.2m", ["5.2"], "million", "span", 1.0),
        ("$8.6 million", ["$8.6 million"], "million", "span", 1.0),  # a gold span saying its scale, printed as it is
        ("$8.6", ["$8.6 million"], "million", "span", 0.0),  # ... and not without it
        ("$8.6 thousand", ["$8.6 million"], "million", "span", 0.0),  # nor in another scale
        ("$182,228 thousand", ["182,228"], "million", "span", 0.0),  # a gold saying no scale: no double scaling
        ("In 2019, revenue was $5.2 million", ["5.2"], "million", "span", 1.0),  # a year is no answer beside a value
        ("2019", ["2019"], "", "span", 1.0),
        ("-8.4 % ((1,054 − 1,151) / 1,151; Services revenue, 2019 and 2018)", ["-8.4"], "percent", "arithmetic", 1.0),
        ("−1,204 thousand", ["-1204"], "thousand", "arithmetic", 1.0),  # a minus sign
        ("(1,204) thousand", ["-1204"], "thousand", "arithmetic", 1.0),  # parentheses negative
        ("1,204 thousand", ["-1204"], "thousand", "arithmetic", 0.0),  # the sign lost
        ("three", ["3"], "", "count", 1.0),
        ("690.5 and 1,568.6", ["1,568.6", "690.5"], "", "multi-span", 1.0),  # order-free
        ("Receivables, and cash", ["cash", "Receivables"], "", "multi-span", 1.0),
        ("Wages and salaries; Social security", ["Social security", "Wages and salaries"], "", "multi-span", 1.0),  # "and" inside an item
        ("cash, receivables and inventory", ["inventory", "cash", "receivables"], "", "multi-span", 1.0),
        ("exceptional items; Net capital expenditure", ["Exceptional items", "Net capital expenditure"], "", "multi-span", 1.0),
        ("-20,597 thousand", ["$(20,597)"], "thousand", "span", 1.0),  # the gold's parentheses, with a comma, read negative
        ("-66%", ["(66)%"], "percent", "span", 1.0),
        ("The modified retrospective method.", ["the modified retrospective method"], "", "span", 1.0),
        ("Property and equipment (net) [1]", ["Property and equipment (net)"], "", "span", 1.0),  # a text's parentheses stay
        ("3 (equipment, furniture and leasehold)", ["3"], "", "count", 1.0),  # a number's aside goes
    ],
)
def test_tatqa_em_with_scale(reply, gold, scale, answer_type, em):
    assert tat(reply, gold, scale, answer_type)[0] == em


def test_tatqa_f1_partial_for_spans_and_em_for_arithmetic():
    em, f1 = tat("Cash", ["cash", "Receivables"], "", "multi-span")
    assert em == 0.0 and f1 == pytest.approx(0.67)
    em, f1 = tat("17.8%", ["17.7"], "percent", "arithmetic")
    assert em == 0.0 and f1 == 0.0  # arithmetic: F1 is EM


TAT_Q = {"id": "t1", "answers": ["17.7"], "scale": "percent", "answer_type": "arithmetic", "answer_from": "table-text"}


@pytest.mark.parametrize(
    ("short", "text", "flag", "verdict"),
    [
        ("17.7%", "17.7% [1]", "", "right"),
        ("18.2%", "18.2% [1]", "", "wrong"),
        ("", "The documents do not say.", "flag", "abstained"),
        ("not stated", "The percentage is not stated in the documents.", "", "abstained"),  # said in words
    ],
)
def test_crag_classification(short, text, flag, verdict):
    row = {"id": "t1", "short": short, "text": text, "abstained": flag, "seconds": 1.0, "cached": False}
    scored = tatqa.score_row(row, TAT_Q)
    assert scored["verdict"] == verdict
    assert scored["em"] == (1.0 if verdict == "right" else 0.0)


def cqa_q(kind: str, answers: list[str], conditions=None) -> dict:
    return {"id": "c1", "question": "?", "kind": kind, "answers": answers, "conditions": conditions or [[] for _ in answers]}


def test_cqa_yes_no_first_word():
    assert is_right(cqa_q("yesno", ["yes"]), "Yes, if you paid National Insurance for 25 weeks.")
    assert not is_right(cqa_q("yesno", ["yes"]), "No, you cannot claim.")
    assert not is_right(cqa_q("yesno", ["yes"]), "You can claim it.")  # no yes / no said
    both = cqa_q("yesno", ["yes", "no"])
    assert is_right(both, "No.") and is_right(both, "yes")  # either accepted


def test_cqa_span_containment_either_way():
    q = cqa_q("span", ["£1,500 a year", "within 3 months"])
    assert is_right(q, "£1,500 a year")
    assert is_right(q, "You can get £1,500 a year")  # the reply holds a gold answer
    assert is_right(q, "£1,500")  # held in a gold answer, half its words or more
    assert not is_right(q, "year")  # too little of it
    assert not is_right(q, "£2,000 a year")


def test_cqa_a_list_is_right_when_each_item_is():
    q = cqa_q("span", ["tax relief on income, gains and profits", "gift aid repayments on donations", "business rates relief"])
    assert is_right(q, "tax relief on income, gains and profits; Gift Aid repayments on donations")
    assert not is_right(q, "tax relief; income; gains; profits; business rates relief; membership fees")  # items cut, one not gold
    assert not is_right(q, "business rates relief; council tax relief")


def test_cqa_rows_unanswerable_and_over_abstention():
    none = cqa_q("none", ["__none__"])
    row = {"id": "c1", "short": "", "text": "The documents do not say.", "abstained": "flag", "seconds": 2.0, "cached": False}
    assert conditionalqa.score_row(row, none)["verdict"] == "right"
    answered = {**row, "short": "£100", "text": "£100 [1]", "abstained": ""}
    assert conditionalqa.score_row(answered, none)["verdict"] == "wrong"
    span = cqa_q("span", ["£100"], [["<p>If you are over 18.</p>"]])
    over = conditionalqa.score_row(row, span)
    assert over["verdict"] == "abstained" and over["answerable"] and over["gold_conditional"]
    summary = conditionalqa.summarise([over, conditionalqa.score_row(answered, span), conditionalqa.score_row(row, none)])
    assert summary["over_abstention_pct"] == pytest.approx(50.0)
    assert summary["answerable"]["all"]["right"] == 1 and summary["unanswerable"]["all"]["right"] == 1


def test_cqa_official_em_f1_and_conditions():
    assert cqa_em_f1(["yes"], ["yes"]) == (1.0, 1.0)
    em, f1 = cqa_em_f1(["yes"], ["yes", "no"])  # one of two answers
    assert em == pytest.approx(0.5) and f1 == pytest.approx(0.5)
    assert cqa_em_f1([], []) == (1.0, 1.0) and cqa_em_f1(["x"], []) == (0.0, 0.0)
    em, _ = cqa_em_f1(["a", "b"], ["a"])  # an extra answer is discounted
    assert em < 1.0
    assert states_condition("Yes, unless you are in prison.") and not states_condition("Yes.")


def test_tatqa_sample_is_stratified_whole_excerpts():
    questions = []
    for c in range(40):
        for k, (t, f) in enumerate([("span", "text"), ("arithmetic", "table"), ("arithmetic", "table"), ("multi-span", "table-text")]):
            questions.append({"id": f"q{c}-{k}", "context": f"ctx-{c}", "answer_type": t if c % 5 else "count", "answer_from": f})
    sample = tatqa.stratified_sample(questions, size=40, seed=1)
    assert sample == tatqa.stratified_sample(questions, size=40, seed=1)  # fixed
    contexts = {q["context"] for q in sample}
    assert len(sample) == 4 * len(contexts) == 40  # whole excerpts
    assert sum(q["answer_type"] == "count" for q in sample) == 8  # the set's share (1 in 5 excerpts)


def test_unanswerable_questions_are_well_formed():
    rows = [json.loads(line) for line in (REPO / "benchmarks" / "conditionalqa" / "unanswerable.jsonl").read_text().splitlines()]
    assert len(rows) >= 22 and len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["kind"] == "none" and r["answers"] == ["__none__"] and r["written_by"] == "edgerag"
        assert r["text"] == f"{r['scenario']} {r['question']}" and r["sources"][0].endswith(".html")
