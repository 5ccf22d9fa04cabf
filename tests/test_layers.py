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
    assert {"plan", "read", "reply", "citations", "hops", "compare", "steps", "chain"} <= set(graph)
    assert graph.has_edge("read", "plan"), "read.py runs the plan: the import the walk must see"
    assert nx.is_directed_acyclic_graph(graph), nx.find_cycle(graph)
    assert not {"read", "reply", "citations"} & nx.descendants(graph, "plan")
