"""Every KG method over one index: `skeleton`, `kg`, `ket`, `ket-u`, `hybrid`, `g2cons`, and the
`build --plan` command. Extraction is scripted here (keyed on the passage) to keep the
suite fast; the real model drives the same path in test_extract.py."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.cli.main import main
from edgerag.graph.core_chunks import core_chunks
from edgerag.llm.metered import MeteredLLM
from edgerag.retrieve.kg_search import KGNotBuiltError

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION
from .helpers import KeyedLLM


@pytest.fixture
def planted_rag(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, beta=1.0)
    rag.insert([DATA / "planted"])
    rag.__dict__["llm"] = MeteredLLM(KeyedLLM(), rag.index.tables)  # the scripted extractor
    return rag


def test_every_kg_method_reads_its_own_kg(planted_rag):
    rag = planted_rag
    for method in ("ket", "ket-u", "kg"):
        result = rag.build(method)
        assert result["kg"]["entities"] >= 7 and result["kg"]["relations"] >= 3, (method, result["kg"])
    # ket (pagerank core) and ket-u (random core) are separate stages over the same extractions
    assert rag.ledger()["by_stage"]["extract"]["calls"] == 3
    assert {"kg:pagerank:1", "kg:random:1", "knn:k2"} <= set(rag.stats()["stages"])
    for method in ("skeleton", "kg", "ket", "ket-u", "hybrid"):
        ctx = rag.retrieve(PLANTED_QUESTION, method=method, budget=400)
        assert 0 < ctx.tokens <= 400, method
        assert any(PLANTED_ANSWER in u.text for u in ctx.units), method
        assert len({u.id for u in ctx.units}) == len(ctx.units), method
    seeds = rag.retrieve(PLANTED_QUESTION, method="skeleton", budget=400).units
    assert seeds[0].kind == "entity" and "zorblax" in seeds[0].text.lower()
    assert any(u.kind == "relation" and "sealed" in u.text for u in seeds)
    hybrid = rag.retrieve(PLANTED_QUESTION, method="hybrid", budget=400)
    assert {u.source for u in hybrid.units} == {"hybrid:kg", "text"}
    ket = rag.retrieve(PLANTED_QUESTION, method="ket", budget=400)
    kg_tokens = sum(u.tokens for u in ket.units if u.source == "ket:kg")
    assert 0 < kg_tokens <= int(0.4 * 400)  # θ·λ from the KG


def test_entity_descriptions_come_from_the_passage(planted_rag):
    rag = planted_rag
    rag.build("kg")
    from edgerag.store.stages import load_arrays

    g = load_arrays(rag.index.tables, "kg:pagerank:1")
    texts = {str(n): str(t) for n, t in zip(g["entity_names"], g["entity_texts"])}
    assert "sealed in 1931 by the astronomer Edith Varga" in texts["Edith Varga"].replace("\n", " ")


@pytest.mark.model
def test_build_plan_cli_spends_nothing(tmp_path, capsys):
    ix = str(tmp_path / "ix")
    assert main(["index", str(DATA / "planted"), "--index", ix, "-q"]) == 0
    capsys.readouterr()
    assert main(["build", "--method", "ket", "--beta", "0.5", "--index", ix, "--plan"]) == 0
    out = capsys.readouterr().out
    assert "2 of 3 chunks are core; 2 still to extract" in out and "input tokens" in out
    assert EdgeRAG(ix).ledger()["all"]["calls"] == 0
    assert main(["query", "x", "--method", "ket", "--beta", "0.5", "--index", ix]) == 2
    assert "edgerag build --method ket --beta 0.5" in capsys.readouterr().err


def test_a_changed_extractor_is_planned_and_redone(planted_rag):
    rag = planted_rag
    rag.build("kg")
    assert rag.plan("kg").to_extract == 0
    rag.settings = rag.settings.replace(extract_max_tokens=150)  # another extractor: old results are stale
    assert rag.plan("kg").to_extract == 3
    assert rag.build("kg")["extraction"]["extracted"] == 3


@pytest.mark.slow
def test_subchunk_units_from_the_cli(built_index, capsys):
    import json

    assert (
        main(
            ["query", PLANTED_QUESTION, "--index", str(built_index), "--method", "text", "--unit", "subchunks", "--budget", "200", "--json"]
        )
        == 0
    )
    ctx = json.loads(capsys.readouterr().out)
    assert ctx["units"][0]["kind"] == "subchunk" and PLANTED_ANSWER in ctx["units"][0]["text"]


def test_g2cons_ensembles_the_concept_path_and_the_core_kg(planted_rag):
    rag = planted_rag
    rag.settings = rag.settings.replace(kappa=0.5, lambda_w=0.6, theta_co=1)
    with pytest.raises(KGNotBuiltError, match=r"--kappa 0\.5"):
        rag.retrieve(PLANTED_QUESTION, method="g2cons")
    plan = rag.plan("g2cons")
    assert plan.selection == "concept" and plan.core_chunks == 2 and "κ=0.5" in plan.summary()
    result = rag.build("g2cons")
    assert result["concepts"]["chunks"] == 3 and result["kg"]["core_chunks"] == 2
    assert (
        rag.index.get_many("extractions", core_chunks(rag.index, 0.5, "concept", rag.settings))
        and rag.ledger()["by_stage"]["extract"]["calls"] == 2
    )  # only the κ core was extracted
    budget = 600
    ctx = rag.retrieve(PLANTED_QUESTION, method="g2cons", budget=budget)
    assert 0 < ctx.tokens <= budget and len({u.id for u in ctx.units}) == len(ctx.units)
    assert any(PLANTED_ANSWER in u.text for u in ctx.units)
    concept = [u for u in ctx.units if u.source == "g2cons:concept"]
    kg = [u for u in ctx.units if u.source == "g2cons:kg"]
    assert concept and kg
    assert sum(u.tokens for u in concept) <= budget - int(0.6 * budget) and sum(u.tokens for u in kg) <= int(0.6 * budget)
    held = {u.chunk_id for u in concept}
    assert not [u for u in kg if u.kind == "subchunk" and u.chunk_id in held]  # no text twice
    both = [i for i, u in enumerate(ctx.units) if u.meta.get("both_paths")]
    assert both and both == list(range(len(both)))  # chunks both paths found come first
    assert PLANTED_ANSWER in ctx.units[0].text
