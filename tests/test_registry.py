"""The method registry is the one place methods are described: every consumer (build, eval's
costs and sweeps, the CLI, the TUI, the docs) reads it, and a toy method registered in a test
reaches all of them. Settings are documented once, in `Settings`, and the CLI help and the
generated docs say the same."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from edgerag import EdgeRAG
from edgerag import methods as registry
from edgerag.build import graph_steps
from edgerag.cli import docs_gen
from edgerag.cli.main import build_parser
from edgerag.cli.options import default_text, field_docs
from edgerag.context import make_context
from edgerag.eval.cost import stages_of
from edgerag.eval.runner import runs_for
from edgerag.retrieve.text import text_units
from edgerag.settings import Settings

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION


def _choices(parser: argparse.ArgumentParser, command: str, flag: str) -> list[str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return list(next(a for a in sub._actions if flag in a.option_strings).choices)


def test_every_consumer_agrees_with_the_registry(index_copy):
    parser = build_parser()
    for command in ("query", "build", "eval", "demo"):
        assert _choices(parser, command, "--method") == registry.names(), command
    assert EdgeRAG.methods() == registry.names()  # the TUI's method lists read this
    rag = EdgeRAG(index_copy)
    for m in (registry.get(n) for n in registry.names()):
        assert [name for name, _ in graph_steps(rag, m.name)] == list(m.graph_stages(rag.settings.core_selection)), m.name
        stages = stages_of(rag, m.name)
        assert len(stages) == len(set(m.graphs) | {m.core_graph(rag.settings.core_selection)} - {None}) + m.llm_built, m.name
        assert all(s in Settings.__dataclass_fields__ for s in m.settings), m.name
        assert m.paper, m.name
    # sweeps reach exactly the methods whose record reads the setting
    assert {m for m, _ in runs_for(registry.names(), {"beta": [0.2, 0.5]}) if _} == set(registry.readers("beta"))
    assert registry.readers("kappa") == {"g2cons"} and registry.readers("theta") == {"ket", "ket-u"}
    with pytest.raises(ValueError, match="unknown method 'nope'; available: bridge"):
        registry.get("nope")


def test_a_toy_method_is_one_record_and_one_function(index_copy):
    def first_two(index, embedder, query, budget, settings):
        units = text_units(index, embedder.encode_one(query), budget, settings)[:2]
        return make_context(query, "first-two", budget, units)

    registry.register(
        registry.Method(
            "first-two",
            first_two,
            reads="chunk vectors and the KNN graph",
            ranks="the two nearest chunks",
            graphs=("knn",),
            settings=("hnsw_ef",),
            paper="a test",
        )
    )
    try:
        rag = EdgeRAG(index_copy)
        ctx = rag.retrieve(PLANTED_QUESTION, method="first-two", budget=1000)
        assert len(ctx.units) == 2 and PLANTED_ANSWER in ctx.units[0].text
        assert ctx.units[0].provenance  # the registry wraps every retriever with provenance
        assert "first-two" in _choices(build_parser(), "query", "--method")
        assert [name for name, _ in graph_steps(rag, "first-two")] == ["knn"]
        assert "knn" in rag.build("first-two")  # build reads the record: the KNN graph and nothing else
        assert any("knn:k" in s for s in stages_of(rag, "first-two"))
        assert "`first-two`" in docs_gen.methods_markdown() and "`first-two`" in docs_gen.readme_methods_table()
        with pytest.raises(ValueError, match="registered already"):
            registry.register(registry.get("first-two"))
    finally:
        registry.unregister("first-two")
    assert "first-two" not in registry.names()


def test_cli_help_and_the_settings_doc_come_from_settings():
    docs = field_docs()
    fields = [f.name for f in dataclasses.fields(Settings)]
    assert set(docs) == set(fields), "every setting has its doc under it in settings.py"
    flags = docs_gen.cli_flags()
    parser = build_parser()
    query = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["query"]
    helps = {a.dest: a.help for a in query._actions}
    for name in ("budget", "beta", "answer_budget", "bridge_dedup", "method"):
        assert f"(default {default_text(name)})" in helps[name], name
    assert flags["chunk_overlap"] == "--overlap" and flags["core_selection"] == "--core"
    page = docs_gen.settings_markdown()
    for name in fields:
        assert f"| `{name}` |" in page, name


def test_the_generated_docs_are_current():
    assert docs_gen.stale() == [], "run `python -m edgerag.cli.docs_gen` (make docs) and commit the result"
