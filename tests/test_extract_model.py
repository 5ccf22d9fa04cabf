"""Which model builds the graphs (``extract_model``, issue #50): the choice, a stage naming the
model that built it, another model's build replacing it (and going back costing nothing),
the ledger's model column, `build --plan` pricing every installed model, and an eval result
naming the model that answered apart from the one that built."""

from __future__ import annotations

import json

import jsonschema
import pytest

from edgerag import EdgeRAG
from edgerag.cli.display import format_ledger
from edgerag.cli.main import main
from edgerag.eval.datasets import load_dataset
from edgerag.eval.runner import evaluate_many
from edgerag.llm.metered import MeteredLLM
from edgerag.llm.models import ANSWER_MODEL, DEFAULT_MODEL, extract_model_choice, installed, resolve_model

from .conftest import REPO
from .helpers import KeyedLLM

SCHEMA = json.loads((REPO / "edgerag" / "eval" / "result.schema.json").read_text())


class ModelA(KeyedLLM):
    path = type("P", (), {"name": "model-a.gguf"})()
    sha256 = "a" * 64


class ModelB(KeyedLLM):
    path = type("P", (), {"name": "model-b.gguf"})()
    sha256 = "b" * 64


def test_extract_model_auto_is_the_index_model_unless_set(monkeypatch):
    monkeypatch.delenv("EDGERAG_EXTRACT_MODEL", raising=False)
    assert extract_model_choice("auto", None).spec is None
    assert extract_model_choice("auto", "/m/big.gguf").spec is None  # auto follows `model`
    assert extract_model_choice(ANSWER_MODEL, None).spec == ANSWER_MODEL
    monkeypatch.setenv("EDGERAG_EXTRACT_MODEL", "/m/x.gguf")
    choice = extract_model_choice("auto", None)
    assert choice.spec == "/m/x.gguf" and "EDGERAG_EXTRACT_MODEL" in choice.reason
    assert extract_model_choice(DEFAULT_MODEL, None).spec == DEFAULT_MODEL  # a setting beats the variable


def test_another_models_build_replaces_the_graph_and_the_ledger_keeps_both(planted_data, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0)
    rag.insert([planted_data / "corpus.jsonl"])
    rag.__dict__["llm"] = MeteredLLM(ModelA(), rag.index.tables)
    assert rag.build("ket")["kg"]["models"] == {"a" * 16: 3}

    rag.__dict__["llm"] = MeteredLLM(ModelB(), rag.index.tables)
    plan = rag.plan("ket")
    assert plan.to_extract == 3 and plan.replaces == {"a" * 16: 3}
    assert "3 of them hold aaaaaaaaaaaaaaaa's extraction: this build replaces it" in plan.summary()
    assert plan.summary().startswith("[model-b.gguf] ")
    built = rag.build("ket")
    assert built["extraction"]["extracted"] == 3 and built["kg"]["models"] == {"b" * 16: 3}
    assert rag.stages()["kg:pagerank:1"]["models"] == {"b" * 16: 3}

    totals = rag.ledger()
    assert {m: int(b["calls"]) for m, b in totals["by_model"].items()} == {"model-a.gguf": 3, "model-b.gguf": 3}
    assert set(totals["stage_models"]["extract"]) == {"model-a.gguf", "model-b.gguf"}
    table = format_ledger(totals).splitlines()
    assert "model" in table[0] and sum("stage extract" in line for line in table) == 2  # one row per model
    assert any(line.startswith("stage extract") and "model-a" in line for line in table)

    rag.__dict__["llm"] = MeteredLLM(ModelA(), rag.index.tables)  # back to A: its calls are cached
    back = rag.build("ket")
    assert back["kg"]["models"] == {"a" * 16: 3}
    assert rag.ledger()["by_model"]["model-a.gguf"]["cached_calls"] == 3
    cap = rag.settings.extract_max_tokens
    rag.configure(extract_max_tokens=cap - 50)  # the same model at another cap: named as itself
    again = rag.plan("ket")
    assert again.replaces == {"model-a.gguf": 3}
    assert "3 of them were extracted by this model at other settings" in again.summary()
    rag.configure(extract_max_tokens=cap)

    doc = evaluate_many(rag, load_dataset(planted_data), ["ket"])
    assert doc["models"]["stages"] == {"kg:pagerank:1": {"a" * 16: 3}} and doc["models"]["answer"] is None
    jsonschema.validate({**doc, "model": None}, SCHEMA)  # a scripted model has no real sha256


@pytest.mark.model
def test_an_eval_result_names_the_model_that_answered_apart_from_the_one_that_built(planted_data, tmp_path, monkeypatch):
    """The index's model (here the 0.5B under another file name) builds and the answering
    model answers: the result names each, and the ledger splits their tokens by model."""
    monkeypatch.setenv("EDGERAG_ANSWER_MODEL", DEFAULT_MODEL)
    indexer = tmp_path / "indexer.gguf"
    indexer.symlink_to(resolve_model(None))
    rag = EdgeRAG(tmp_path / "ix", progress=False, model=str(indexer), beta=1.0, answer_seconds=None)
    rag.insert([planted_data / "corpus.jsonl"])
    doc = evaluate_many(rag, load_dataset(planted_data), ["ket"], answer=True, build=True)
    jsonschema.validate(doc, SCHEMA)
    answerer = resolve_model(DEFAULT_MODEL).name
    assert doc["model"]["file"] == answerer and doc["models"]["answer"]["file"] == answerer
    assert doc["models"]["stages"] == {"kg:pagerank:1": {DEFAULT_MODEL: 3}}  # the same weights: named by sha256
    by_stage = rag.ledger()["stage_models"]
    assert set(by_stage["extract"]) == {"indexer.gguf"} and set(by_stage["answer"]) == {answerer}


@pytest.mark.model
def test_build_plan_prices_every_installed_model(index_copy, capsys):
    assert main(["build", "--method", "ket", "--beta", "1", "--plan", "--index", str(index_copy), "-q"]) == 0
    out = capsys.readouterr().out
    plans = out.split("\n\n")
    assert plans[0].startswith(f"[{DEFAULT_MODEL}] ket: β=1 (pagerank)") and "still to extract" in plans[0]
    assert ("estimate:" in plans[0]) and ("tokens/s" in plans[0])
    if installed(ANSWER_MODEL):
        assert len(plans) == 2 and plans[1].startswith(f"[{ANSWER_MODEL}] ket")
    else:
        assert len(plans) == 1


@pytest.mark.model
@pytest.mark.skipif(not installed(ANSWER_MODEL), reason="the 1.5B model (the model-1_5b extra) is not installed")
def test_the_larger_model_builds_when_asked_and_the_index_says_so(planted_data, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0, extract_model=ANSWER_MODEL)
    rag.insert([planted_data / "corpus.jsonl"])
    built = rag.build("ket")
    assert built["extraction"]["extracted"] == 3 and built["kg"]["models"] == {ANSWER_MODEL: 3}
    assert set(rag.ledger()["stage_models"]["extract"]) == {resolve_model(ANSWER_MODEL).name}
    assert rag.llm is not rag.extract_llm and "llama" not in rag.llm.llm.__dict__  # the index's model never loaded
    rag.settings = rag.settings.replace(extract_model="auto")
    plan = rag.plan("ket")
    assert plan.model == DEFAULT_MODEL and plan.to_extract == 3 and plan.replaces == {ANSWER_MODEL: 3}
