"""The CLI's option groups for settings (index, methods, local model), shared by the commands.

Every option whose ``dest`` is a field of `Settings` overrides that setting when the index is
opened (`setting_overrides`), so a new setting needs only its flag here.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import re

from ..settings import Settings


def setting_overrides(args: argparse.Namespace) -> dict:
    """The settings the command line gave: every parsed option named as a `Settings` field."""
    return {f.name: getattr(args, f.name) for f in dataclasses.fields(Settings) if getattr(args, f.name, None) is not None}


def first_sentence(text: str) -> str:
    """The first sentence of a field's doc, code marks dropped: what the CLI's help shows
    ("Alg. 3", "Eq. 2" do not end a sentence)."""
    text = re.sub(r"`+([^`]+)`+", r"\1", text)
    m = re.search(r"\.\s+(?=[A-Z(])", text)
    return text[: m.start() + 1] if m else text


def default_text(name: str) -> str:
    """A setting's default as the CLI's help writes it ("" when the doc explains None)."""
    value = getattr(Settings(), name)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def setting(g, flag: str, name: str | None = None, **kwargs) -> None:
    """``flag`` for the `Settings` field ``name`` (default: the flag's words joined by "_"):
    its type, help and default come from Settings itself (`field_docs`, below)."""
    name = name or flag.lstrip("-").replace("-", "_")
    value = getattr(Settings(), name)
    if isinstance(value, bool):  # a setting that is on by default gets a --no-… flag
        kwargs.setdefault("action", "store_false" if value else "store_true")
        kwargs.setdefault("default", None)
    elif isinstance(value, (int, float)) and "choices" not in kwargs:
        kwargs.setdefault("type", type(value))
    default = default_text(name)
    doc = first_sentence(field_docs()[name]).replace("%", "%%")
    if kwargs.get("action") == "store_false":  # the flag turns the setting off: say so
        doc = f"turn off: {doc[0].lower()}{doc[1:]}"
    g.add_argument(flag, dest=name, help=f"{doc} (default {default})" if default else doc, **kwargs)


def settings_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("index settings (fixed when an index is created)")
    setting(g, "--chunk-tokens")
    setting(g, "--overlap", "chunk_overlap")
    setting(g, "--tau")
    setting(g, "--chunk-breaks")
    setting(g, "--tokenizer")
    setting(g, "--embedder")
    setting(g, "--device", choices=["auto", "cpu", "cuda"])
    setting(g, "--embed-backend", choices=["auto", "torch", "onnx", "onnx-int8"])


def method_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("graph methods (KET-RAG)")
    setting(g, "--beta")
    setting(g, "--theta")
    setting(g, "--knn-k")
    setting(g, "--core", "core_selection", choices=["pagerank", "random", "concept"])
    setting(g, "--unit", "text_unit", choices=["chunks", "subchunks"])
    setting(g, "--exact-search-max")
    g = p.add_argument_group("graph methods (G2ConS)")
    setting(g, "--kappa")
    setting(g, "--lambda-w")
    setting(g, "--theta-sem")
    setting(g, "--theta-co")
    setting(g, "--top-k", "concept_top_k")
    setting(g, "--hops", "concept_hops")
    g = p.add_argument_group("entity bridges (bridge, bridge-ppr)")
    setting(g, "--bridge-seeds")
    setting(g, "--bridge-lambda")
    setting(g, "--links", "link_kinds")
    setting(g, "--fusion", "bridge_fusion", choices=["none", "dense", "dense+bm25"])
    setting(g, "--rrf-k", "bridge_rrf_k")
    setting(g, "--dense-weight", "bridge_dense_weight")
    setting(g, "--bm25-weight", "bridge_bm25_weight")
    setting(g, "--dedup", "bridge_dedup")
    setting(g, "--ppr-eps", "bridge_ppr_eps")
    g = p.add_argument_group("graph methods (LightRAG)")
    setting(g, "--lightrag-top-k")
    g = p.add_argument_group("graph methods (TERAG)")
    setting(g, "--terag-batch")
    setting(g, "--terag-damping")


def ray_args(p: argparse.ArgumentParser, what: str) -> None:
    """``--ray [ADDRESS]`` and its width (docs/distributed.md; needs ``edgerag[ray]``)."""
    g = p.add_argument_group("distributed (Ray; pip install 'edgerag[ray]')")
    g.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help=f"{what} on Ray workers; this process still writes the index. "
        "No ADDRESS: a Ray instance on this machine; 'auto': the cluster this machine joined; HOST:PORT: that head",
    )
    g.add_argument("--ray-workers", type=int, dest="ray_workers", help="model workers (default: the cluster's CPUs / --ray-threads)")
    g.add_argument("--ray-threads", type=int, dest="ray_threads", help="CPU threads per worker (default 1)")


def ray_options(args: argparse.Namespace):
    """`distributed.RayOptions` from ``--ray…``, or None without ``--ray``."""
    if getattr(args, "ray", None) is None:
        return None
    from ..cluster.ray_pool import RayOptions

    opts = RayOptions(address=None if args.ray == "local" else args.ray)
    if args.ray_workers:
        opts.workers = args.ray_workers
    if args.ray_threads:
        opts.threads = args.ray_threads
    return opts


def llm_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("local model")
    setting(g, "--model")
    setting(g, "--answer-model")
    setting(g, "--extract-model")
    setting(g, "--n-ctx")
    setting(g, "--llm-repack", choices=["auto", "on", "off"])


@functools.cache
def field_docs() -> dict[str, str]:
    """Each `Settings` field's documentation: the string written under it in settings.py
    (read from the source, so the CLI's help, docs/settings.md and the code say the same).
    Parsed once a process: the CLI asks once per option, and parsing each time made
    ``edgerag --help`` take 5 s (issue #41)."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(Settings)).body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                docs[node.target.id] = " ".join(after.value.value.split())
    return docs
