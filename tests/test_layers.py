"""The reader's modules import one way (edgerag/answer/__init__.py): no circle, and the plan
knows nothing of the model call, the reply or its citations."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import edgerag.answer

PACKAGE = Path(edgerag.answer.__file__).parent


def _imports() -> nx.DiGraph:
    graph = nx.DiGraph()
    names = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    for name in names:
        graph.add_node(name)
        for node in ast.walk(ast.parse((PACKAGE / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    target = node.module.split(".")[0]
                elif node.level == 1:
                    target = None
                    for alias in node.names:
                        if alias.name in names:
                            graph.add_edge(name, alias.name)
                elif (node.module or "").startswith("edgerag.answer."):
                    target = node.module.split(".")[2]
                else:
                    target = None
                if target in names:
                    graph.add_edge(name, target)
    return graph


def test_the_reader_imports_one_way():
    graph = _imports()
    assert {"plan", "read", "reply", "citations", "hops", "compare", "comparison_question", "steps", "chain"} <= set(graph)
    assert graph.has_edge("read", "plan"), "read.py runs the plan: the import the walk must see"
    assert nx.is_directed_acyclic_graph(graph), nx.find_cycle(graph)
    assert not {"read", "reply", "citations"} & nx.descendants(graph, "plan")


# ---- the packages of edgerag (issue #43) --------------------------------------------------------
EDGERAG = PACKAGE.parent
LOW = ("types", "settings", "offline", "progress", "provenance", "store", "text", "llm", "embed")
"""Units every part of the pipeline builds on: none of them imports a unit above it."""


def _units() -> tuple[nx.DiGraph, dict[str, list[str]]]:
    """edgerag's packages and top-level modules ("units"), an edge for every import from one to
    another (imports inside functions too), and the modules each unit imports from outside."""
    graph, outside = nx.DiGraph(), {}
    names = {p.stem for p in EDGERAG.glob("*.py")} | {p.name for p in EDGERAG.iterdir() if (p / "__init__.py").is_file()}
    names.discard("__init__")
    for path in EDGERAG.rglob("*.py"):
        parts = path.relative_to(EDGERAG.parent).with_suffix("").parts
        package = list(parts[:-1])  # the package a relative import starts from
        unit = parts[1] if parts[1] != "__init__" else "__init__"  # edgerag/<unit>[/…]
        graph.add_node(unit)
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - node.level + 1]
                targets = [".".join(base + node.module.split("."))] if node.module else [".".join([*base, a.name]) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = [node.module or ""]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for t in targets:
                head = t.split(".")
                if head[0] == "edgerag" and len(head) > 1 and head[1] in names and head[1] != unit and unit != "__init__":
                    graph.add_edge(unit, head[1])
                elif head[0] != "edgerag":
                    outside.setdefault(unit, []).append(head[0])
    return graph, outside


def test_the_packages_import_one_way():
    graph, _ = _units()
    assert {"llm", "embed", "cluster", "cli", "answer", "store", "ingest"} <= set(graph)
    assert nx.is_directed_acyclic_graph(graph), nx.find_cycle(graph)
    for low in LOW:  # the foundations import nothing built on them
        above = set(graph) - set(LOW)
        assert not (nx.descendants(graph, low) & above), (low, nx.descendants(graph, low) & above)
    assert not set(graph.predecessors("cli")), "nothing in edgerag imports the command line"
    assert set(graph.predecessors("doctor")) <= {"cli"}, "doctor is read by the CLI (and the TUI) from above"


def test_only_the_cluster_package_imports_ray():
    _, outside = _units()
    assert [unit for unit, mods in outside.items() if "ray" in mods] == ["cluster"]


def test_the_top_level_holds_the_pipeline_alone():
    modules = sorted(p.stem for p in EDGERAG.glob("*.py") if p.stem != "__init__")
    assert len(modules) <= 14, modules
    for package in sorted(p.parent.name for p in EDGERAG.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse((EDGERAG / package / "__init__.py").read_text())) or ""
        for module in (EDGERAG / package).glob("*.py"):
            if module.stem != "__init__":
                assert f"{module.stem}.py" in doc, f"edgerag/{package}/__init__.py does not map {module.name}"
