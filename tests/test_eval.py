"""Metrics by hand, and `edgerag eval` end to end on a slice of the bundled sample."""

from __future__ import annotations

import json

import jsonschema
import pytest

from edgerag.cli.main import main
from edgerag.eval.metrics import coverage, exact_match, f1, normalize, recall_at_k
from edgerag.store import Index

from .conftest import REPO, SAMPLE, read_jsonl


def test_squad_normalisation():
    assert normalize("The  Eiffel-Tower, in Paris!") == "eiffeltower in paris"
    assert normalize("An apple a day") == "apple day"


def test_coverage_needs_whole_words():
    assert coverage(["Cork"], "He was buried in Cork, Ireland.")
    assert not coverage(["Cork"], "He collected corkscrews.")
    assert coverage(["nope", "The Hague"], "a court in the hague")
    assert not coverage([""], "anything")


def test_recall_and_answer_scores():
    assert recall_at_k(["a", "b"], ["x", "a", "y", "z", "w", "b"], 5) == 0.5
    assert recall_at_k([], ["a"], 5) is None
    assert exact_match("the Cork", ["Cork"]) == 1.0 and exact_match("Cork city", ["Cork"]) == 0.0
    assert abs(f1("Cork city", ["Cork"]) - 2 / 3) < 1e-9


@pytest.mark.slow
def test_eval_command_writes_scores(tmp_path, capsys):
    # A 5-question slice with exactly the passages those questions come with.
    questions = read_jsonl(SAMPLE / "questions.jsonl")[:5]
    wanted = {pid for q in questions for pid in q["context_ids"]}
    passages = [p for p in read_jsonl(SAMPLE / "corpus.jsonl") if p["id"] in wanted]
    data = tmp_path / "data"
    data.mkdir()
    (data / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in questions))
    (data / "corpus.jsonl").write_text("\n".join(json.dumps(p) for p in passages))
    out = tmp_path / "result.json"
    code = main(
        ["eval", "--data", str(data), "--method", "text", "--index", str(tmp_path / "ix"), "--budget", "2000", "--out", str(out), "-q"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Coverage %" in printed and "R@5 %" in printed
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, json.loads((REPO / "edgerag" / "eval" / "result.schema.json").read_text()))
    assert doc["schema"] == "edgerag.eval/1" and doc["dataset"]["questions"] == 5 and len(doc["runs"]) == 1
    result = doc["runs"][0]
    for key in ("method", "questions", "coverage", "recall_at_5", "recall_at_k", "em", "f1", "query_tokens", "seconds"):
        assert key in result
    assert result["method"] == "text" and result["questions"] == 5 and result["budget"] == 2000
    assert 0.0 <= result["coverage"] <= 1.0 and 0.0 < result["recall_at_5"] <= 1.0
    assert result["em"] is None and result["query_tokens"]["input"] == result["query_tokens"]["output"] == 0
    assert doc["model"] is None  # nothing loaded the model
    # With 2,000 tokens over ~10 passages a question, the gold passages are mostly in: dense
    # retrieval must find at least half of them.
    assert result["recall_at_5"] >= 0.5
    assert result["recall_at_k"]["2"] <= result["recall_at_k"]["5"] <= result["recall_at_k"]["10"]
    assert doc["ingest_seconds"] > 0
    # a second run reuses the index: nothing is indexed again
    main(["eval", "--data", str(data), "--index", str(tmp_path / "ix"), "--out", str(out), "-q"])
    assert json.loads(out.read_text())["ingest_seconds"] is None
    # ... and needs no writer lock: it runs while a long build holds the index
    writer = Index.open(tmp_path / "ix", create=False)
    writer.lock()
    try:
        assert main(["eval", "--data", str(data), "--index", str(tmp_path / "ix"), "--out", str(out), "-q"]) == 0
        assert json.loads(out.read_text())["dataset"]["questions"] == 5
    finally:
        writer.close()
