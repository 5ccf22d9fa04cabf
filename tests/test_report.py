"""`edgerag eval --methods/--sweep` and `edgerag report`: the result file against its
documented schema, index cost charged per method, and the Markdown and PNG plots.

The sweep runs the real tiny model over the three planted documents (three extractions);
the refusal without `--build` and the cost arithmetic use the scripted extractor."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from edgerag import EdgeRAG
from edgerag.cli.main import main
from edgerag.eval.cost import index_cost
from edgerag.eval.datasets import load_dataset
from edgerag.eval.report import BEGIN, END, ResultFileError, load_results, markdown, pareto, sweeps
from edgerag.eval.runner import NotBuiltError, evaluate_many, runs_for
from edgerag.graph.core_chunks import core_chunks
from edgerag.llm.metered import MeteredLLM
from edgerag.store import Index

from .conftest import REPO
from .helpers import KeyedLLM

SCHEMA = json.loads((REPO / "edgerag" / "eval" / "result.schema.json").read_text())


def test_runs_cover_each_method_once_per_setting_it_reads():
    runs = runs_for(["text", "ket", "g2cons"], {"beta": [0.0, 0.5], "kappa": [0.5], "budget": [100, 200]})
    assert ("text", {"budget": 100}) in runs and ("text", {"budget": 200}) in runs
    assert sum(m == "ket" for m, _ in runs) == 4 and all("kappa" not in c for m, c in runs if m == "ket")
    assert ("g2cons", {"kappa": 0.5, "budget": 200}) in runs and all("beta" not in c for m, c in runs if m == "g2cons")
    with pytest.raises(ValueError, match="cannot sweep 'chunk_tokens'"):
        runs_for(["ket"], {"chunk_tokens": [1]})
    with pytest.raises(ValueError, match="unknown method 'nope'"):
        runs_for(["nope"])


def test_pareto_keeps_only_undominated_points():
    pts = [(0, 80.0), (0, 85.0), (100, 84.0), (200, 90.0), (300, 90.0), (50, 86.0)]
    assert sorted(pareto(pts)) == [1, 3, 5]  # (0,85) (50,86) (200,90); (300,90) costs more for the same
    assert pareto([]) == []


def test_eval_refuses_missing_extraction_before_asking_anything(planted_data, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([planted_data / "corpus.jsonl"])
    rag.__dict__["llm"] = MeteredLLM(KeyedLLM(), rag.index.tables)
    with pytest.raises(NotBuiltError, match=r"ket \(β=1\): 3 of 3 chunks to extract") as e:
        evaluate_many(rag, load_dataset(planted_data), ["text", "ket"], sweeps={"beta": [1.0]})
    assert "--build" in str(e.value)
    assert rag.ledger()["all"]["calls"] == 0  # nothing was spent


def test_index_cost_charges_each_method_its_own_core(planted_data, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, theta_co=1)
    rag.insert([planted_data / "corpus.jsonl"])
    rag.__dict__["llm"] = MeteredLLM(KeyedLLM(), rag.index.tables)
    doc = evaluate_many(
        rag, load_dataset(planted_data), ["text", "keyword", "ket", "g2cons"], sweeps={"beta": [1.0, 0.5, 0.0], "kappa": [0.5]}, build=True
    )
    assert doc["model"] == {"file": "scripted.gguf", "sha256": "scripted"}
    jsonschema.validate({**doc, "model": None}, SCHEMA)  # a scripted model has no real sha256
    runs = {r["label"]: r for r in doc["runs"]}
    assert list(runs) == ["text", "keyword", "ket (β=1)", "ket (β=0.5)", "ket (β=0)", "g2cons (κ=0.5)"]
    for label in ("text", "keyword", "ket (β=0)"):
        assert runs[label]["index_tokens"] == {"input": 0, "output": 0}
    # β = 0.5 was built after β = 1 and spent nothing new, yet is charged its own two chunks
    half = core_chunks(rag.index, 0.5, "pagerank", rag.settings)
    recs = rag.index.get_many("extractions", half)
    assert len(half) == 2 and runs["ket (β=0.5)"]["index"]["llm_chunks"] == 2
    assert runs["ket (β=0.5)"]["index_tokens"]["output"] == sum(r["output_tokens"] for r in recs) > 0
    assert 0 < runs["ket (β=0.5)"]["index_tokens"]["output"] < runs["ket (β=1)"]["index_tokens"]["output"]
    assert runs["ket (β=1)"]["index_tokens"]["input"] == rag.ledger()["by_stage"]["extract"]["input"]
    assert runs["ket (β=1)"]["settings"] == {"budget": 12_000, "beta": 1.0, "theta": 0.4}
    assert runs["g2cons (κ=0.5)"]["settings"] == {"budget": 12_000, "kappa": 0.5, "lambda_w": 0.6}
    assert runs["g2cons (κ=0.5)"]["index"]["llm_chunks"] == 2
    assert "bipartite" in runs["keyword"]["index"]["stages"] and runs["keyword"]["index"]["missing"] == []
    assert index_cost(rag, "text").stages == []
    # the sweep is seen as one: ket across β
    assert [v for v, _ in sweeps([doc])["beta"]["ket"]] == [0.0, 0.5, 1.0]


@pytest.mark.model
def test_real_model_sweep_end_to_end_through_the_cli(planted_data, tmp_path, capsys):
    """The acceptance path: eval several methods and a β sweep with the real model, validate
    the file against its schema, render the report into a README block."""
    out, ix = tmp_path / "result.json", tmp_path / "ix"
    args = [
        "eval",
        "--data",
        str(planted_data),
        "--methods",
        "text,keyword,ket",
        "--sweep",
        "beta=0,0.5,1",
        "--index",
        str(ix),
        "--out",
        str(out),
        "-q",
    ]
    assert main(args) == 2  # no --build: refused, naming the builds
    assert "ket (β=0.5): 2 of 2 chunks to extract" in capsys.readouterr().err
    assert main([*args, "--build"]) == 0
    printed = capsys.readouterr().out
    assert "| ket (β=0.5) |" in printed and "Coverage %" in printed
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, SCHEMA)
    runs = {r["label"]: r for r in doc["runs"]}
    assert doc["model"]["file"].endswith(".gguf") and re.fullmatch(r"[0-9a-f]{64}", doc["model"]["sha256"])
    assert doc["dataset"] == {"name": "planted-data/small", "path": str(planted_data), "questions": 3, "chunks": 3}
    assert doc["ingest_seconds"] is None  # the refused call had already indexed the corpus
    full = runs["ket (β=1)"]
    assert full["index"]["llm_chunks"] == 3 and full["index"]["llm_seconds_estimated"] == 0
    assert full["index"]["llm_seconds"] > 0 and full["index_seconds"] >= full["index"]["llm_seconds"]
    assert full["index_tokens"]["output"] > runs["ket (β=0.5)"]["index_tokens"]["output"] > 0
    assert runs["ket (β=0)"]["index_tokens"]["output"] == 0
    assert runs["text"]["coverage"] == 1.0 and runs["text"]["recall_at_k"]["2"] == 1.0  # 3 tiny passages, λ = 12k
    assert all(r["query_tokens"]["input"] == 0 for r in doc["runs"])  # none of these calls the model to retrieve
    assert all(len(r["per_question"]) == 3 and r["latency_ms"]["p95"] >= r["latency_ms"]["median"] for r in doc["runs"])

    # everything built: a second eval needs neither the writer lock nor the model loaded
    writer = Index.open(ix, create=False)
    writer.lock()
    try:
        rag = EdgeRAG(ix, progress=False)
        again = evaluate_many(rag, load_dataset(planted_data), ["ket"], sweeps={"beta": [0.5]})
        assert again["runs"][0]["index_tokens"] == runs["ket (β=0.5)"]["index_tokens"]
        assert "llama" not in rag.llm.llm.__dict__ and again["model"] == doc["model"]
    finally:
        writer.close()

    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n## Results\n{BEGIN}\nold table\n{END}\n\n## After\nkept\n")
    assert main(["report", str(out), "--out", str(tmp_path / "rep"), "--readme", str(readme)]) == 0
    for png in ("frontier.png", "sweep.png"):
        raw = (tmp_path / "rep" / png).read_bytes()
        assert raw[:8] == b"\x89PNG\r\n\x1a\n" and len(raw) > 20_000
    body = readme.read_text()
    assert "old table" not in body and "| ket (β=0.5) |" in body and body.endswith("## After\nkept\n")
    assert "](rep/frontier.png)" in body and "](rep/sweep.png)" in body
    # the block is replaced again, not appended
    assert main(["report", str(out), "--out", str(tmp_path / "rep"), "--readme", str(readme)]) == 0
    assert readme.read_text().count("| ket (β=0.5) |") == 1


def test_a_sweep_restores_the_settings_even_when_it_fails(planted_data, tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=0.3)
    rag.insert([planted_data / "corpus.jsonl"])
    rag.__dict__["llm"] = MeteredLLM(KeyedLLM(), rag.index.tables)
    before = rag.settings
    with pytest.raises(NotBuiltError):
        evaluate_many(rag, load_dataset(planted_data), ["ket"], sweeps={"beta": [1.0], "theta": [0.2]})
    assert rag.settings == before
    doc = evaluate_many(rag, load_dataset(planted_data), ["text", "ket"], sweeps={"beta": [0.0, 1.0], "budget": [50, 5000]}, build=True)
    assert rag.settings == before and rag.settings.beta == 0.3
    labels = [r["label"] for r in doc["runs"]]
    assert labels == ["text (λ=50)", "text (λ=5000)", "ket (β=0, λ=50)", "ket (β=0, λ=5000)", "ket (β=1, λ=50)", "ket (β=1, λ=5000)"]
    assert all(r["budget"] == r["settings"]["budget"] for r in doc["runs"])
    assert all(r["per_question"][0]["context_tokens"] <= 50 for r in doc["runs"] if r["budget"] == 50)
    lines = sweeps([doc])
    # β at each of two budgets: two ket lines, told apart by their labels; λ: text and two ket lines
    assert sorted(lines["beta"]) == ["ket (λ=50)", "ket (λ=5000)"]
    assert sorted(lines["budget"]) == ["ket (β=0)", "ket (β=1)", "text"]
    with pytest.raises(ResultFileError, match="no run in these files has F1"):
        from edgerag.eval.report import plot_frontier

        plot_frontier([doc], tmp_path / "f.png", metric="f1")
    with pytest.raises(ValueError, match="none of text reads kappa"):
        runs_for(["text"], {"kappa": [0.5]})


def test_report_refuses_what_is_not_a_result(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"method": "text", "coverage": 0.5}))  # the old single-result format
    assert main(["report", str(bad), "--out", str(tmp_path / "r")]) == 2
    assert "not an `edgerag eval --out` result" in capsys.readouterr().err
    (tmp_path / "junk.json").write_bytes(b"\xff\x00")
    with pytest.raises(ResultFileError, match="not JSON"):
        load_results([tmp_path / "junk.json"])
    with pytest.raises(ResultFileError, match="no such file"):
        load_results([tmp_path / "missing.json"])
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps({"schema": "edgerag.eval/1", "dataset": {}, "runs": [{"label": "x"}]}))
    with pytest.raises(ResultFileError, match="incomplete result file"):
        load_results([cut])
    readme = tmp_path / "README.md"
    readme.write_text("no markers")
    from edgerag.eval.report import replace_block

    with pytest.raises(ResultFileError, match="needs exactly one"):
        replace_block(readme, "x")
    readme.write_text("<!-- sweep:begin -->\n<!-- sweep:end -->\n" + f"{BEGIN}\nkeep\n{END}\n")
    replace_block(readme, "swept\n", block="sweep")  # another named block; the results block is untouched
    assert readme.read_text() == f"<!-- sweep:begin -->\nswept\n<!-- sweep:end -->\n{BEGIN}\nkeep\n{END}\n"
    crlf = tmp_path / "CRLF.md"
    crlf.write_bytes(f"a\r\n{BEGIN}\r\nold\r\n{END}\r\nb\r\n".encode())
    replace_block(crlf, "| new |\n")
    assert crlf.read_bytes() == f"a\r\n{BEGIN}\r\n| new |\r\n{END}\r\nb\r\n".encode()


def test_docs_name_every_field_of_the_schema():
    doc = (REPO / "docs" / "result-schema.md").read_text()

    def names(node):
        if isinstance(node, dict):
            for k, v in node.get("properties", {}).items():
                yield k
                yield from names(v)
            for v in node.get("$defs", {}).values():
                yield from names(v)
            for key in ("items", "additionalProperties"):
                if isinstance(node.get(key), dict):
                    yield from names(node[key])
            for v in node.get("oneOf", []):
                yield from names(v)
            for pattern in node.get("patternProperties", {}):
                yield pattern.strip("^$").replace("[0-9]+", "2")  # recall_at_2 stands for recall_at_k

    missing = sorted({n for n in names(SCHEMA) if f"`{n}`" not in doc})
    assert not missing, f"docs/result-schema.md does not document {missing}"


def test_markdown_shows_em_f1_only_when_answered():
    run = {
        "label": "text",
        "method": "text",
        "budget": 100,
        "questions": 2,
        "coverage": 0.5,
        "recall_at_k": {"5": 1.0},
        "em": None,
        "f1": None,
        "index_tokens": {"input": 0, "output": 0},
        "index_seconds": 0.0,
        "index": {},
        "query_tokens": {"input": 0, "output": 0, "cached_input": 0, "cached_output": 0},
        "latency_ms": {"median": 1, "p95": 2},
        "settings": {"budget": 100},
    }
    doc = {
        "dataset": {"name": "a/b", "questions": 2, "chunks": 4},
        "model": None,
        "machine": {"cpus": 2, "gpu": False},
        "created": "2026-11-22T00:00:00",
        "ingest_seconds": None,
        "runs": [run],
    }
    assert "EM %" not in markdown([doc])
    answered = {**doc, "runs": [{**run, "em": 0.5, "f1": 0.75, "query_tokens": {**run["query_tokens"], "input": 200, "output": 20}}]}
    md = markdown([answered])
    assert "| R@5 % | EM % | F1 % |" in md
    assert "| text | 50.0 | 100.0 | 50.0 | 75.0 | 0 | 0 | 0.0 | 100 / 10 | 1 | 2 |" in md
