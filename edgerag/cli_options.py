"""The CLI's option groups for settings (index, methods, local model), shared by the commands.

Every option whose ``dest`` is a field of `Settings` overrides that setting when the index is
opened (`setting_overrides`), so a new setting needs only its flag here.
"""

from __future__ import annotations

import argparse
import dataclasses

from .settings import Settings


def setting_overrides(args: argparse.Namespace) -> dict:
    """The settings the command line gave: every parsed option named as a `Settings` field."""
    return {f.name: getattr(args, f.name) for f in dataclasses.fields(Settings) if getattr(args, f.name, None) is not None}


def settings_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("index settings (fixed when an index is created)")
    g.add_argument("--chunk-tokens", type=int, help="ℓ: chunk length in tokens (default 1200)")
    g.add_argument("--overlap", type=int, dest="chunk_overlap", help="tokens shared by consecutive chunks (default 100)")
    g.add_argument("--tau", type=int, help="τ: sub-chunks of ⌈ℓ/2^τ⌉ tokens (default 3)")
    g.add_argument("--tokenizer", help="token unit: cl100k (default) or gguf:PATH")
    g.add_argument("--embedder", help="sentence-transformers model folder (default: bundled all-MiniLM-L6-v2)")
    g.add_argument("--device", help="auto (default), cpu or cuda")


def method_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("graph methods (KET-RAG)")
    g.add_argument("--beta", type=float, help="β: fraction of chunks extracted into the skeleton KG (default 0.8)")
    g.add_argument("--theta", type=float, help="θ: share of the budget from the KG in ket (default 0.4)")
    g.add_argument("--knn-k", type=int, dest="knn_k", help="K of the KNN chunk graph (default 2)")
    g.add_argument("--core", dest="core_selection", choices=["pagerank", "random", "concept"], help="core chunk selection for β (default pagerank)")
    g.add_argument("--unit", dest="text_unit", choices=["chunks", "subchunks"], help="what `text` retrieval returns (default chunks)")
    g = p.add_argument_group("graph methods (G2ConS)")
    g.add_argument("--kappa", type=float, help="κ: fraction of chunks, ranked by concept PageRank, in the core KG (default 0.8)")
    g.add_argument("--lambda-w", type=float, dest="lambda_w", help="λ_w: share of the budget from the core KG in g2cons (default 0.6)")
    g.add_argument("--theta-sem", type=float, dest="theta_sem", help="θ_sem: least cosine of linked concepts (default 0.65)")
    g.add_argument("--theta-co", type=int, dest="theta_co", help="θ_co: least chunks two linked concepts share (default 3)")
    g.add_argument("--top-k", type=int, dest="concept_top_k", help="k: concepts nearest the query (default 25)")
    g.add_argument("--hops", type=int, dest="concept_hops", help="N: BFS hops over the concept graph (default 2)")
    g = p.add_argument_group("entity bridges (bridge, bridge-ppr)")
    g.add_argument("--bridge-seeds", type=int, dest="bridge_seeds", help="s: nearest passages whose links lift others (default 2)")
    g.add_argument("--bridge-lambda", type=float, dest="bridge_lambda", help="λ_b: weight of the bridge bonus (default 0.1)")
    g.add_argument("--links", dest="link_kinds", help="link key kinds, comma-separated, of span,num,word and the LLM-extracted terag,kg (default span,num)")
    g.add_argument("--fusion", dest="bridge_fusion", choices=["none", "dense", "dense+bm25"], help="reciprocal-rank fusion of the bridge ranking (default dense+bm25)")
    g.add_argument("--rrf-k", type=int, dest="bridge_rrf_k", help="k of the fusion: a list adds w / (k + rank) (default 30)")
    g.add_argument("--dense-weight", type=float, dest="bridge_dense_weight", help="w_dense: weight of the dense list in the fusion (default 1.0)")
    g.add_argument("--bm25-weight", type=float, dest="bridge_bm25_weight", help="w_bm25: weight of the BM25 list in the fusion (default 0.5)")
    g.add_argument("--dedup", type=float, dest="bridge_dedup", help="τ_dup: drop a passage this similar (cosine) to one ranked above it; 1 keeps all (default 0.9)")
    g = p.add_argument_group("graph methods (LightRAG)")
    g.add_argument("--lightrag-top-k", type=int, dest="lightrag_top_k", help="entities (local) / relations (global) matched (default 20)")
    g = p.add_argument_group("graph methods (TERAG)")
    g.add_argument("--terag-batch", type=int, dest="terag_batch", help="passages per extraction call (default 5)")
    g.add_argument("--terag-damping", type=float, dest="terag_damping", help="PPR damping (default 0.5)")


def ray_args(p: argparse.ArgumentParser, what: str) -> None:
    """``--ray [ADDRESS]`` and its width (docs/distributed.md; needs ``edgerag[ray]``)."""
    g = p.add_argument_group("distributed (Ray; pip install 'edgerag[ray]')")
    g.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help=f"{what} on Ray workers; this process still writes the index. "
                        "No ADDRESS: a Ray instance on this machine; 'auto': the cluster this machine joined; HOST:PORT: that head")
    g.add_argument("--ray-workers", type=int, dest="ray_workers", help="model workers (default: the cluster's CPUs / --ray-threads)")
    g.add_argument("--ray-threads", type=int, dest="ray_threads", help="CPU threads per worker (default 1)")


def ray_options(args: argparse.Namespace):
    """`distributed.RayOptions` from ``--ray…``, or None without ``--ray``."""
    if getattr(args, "ray", None) is None:
        return None
    from .distributed import RayOptions

    opts = RayOptions(address=None if args.ray == "local" else args.ray)
    if args.ray_workers:
        opts.workers = args.ray_workers
    if args.ray_threads:
        opts.threads = args.ray_threads
    return opts


def llm_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("local model")
    g.add_argument("--model", help="GGUF file or known model name (default: EDGERAG_MODEL, else Qwen2.5-Coder-0.5B-Instruct)")
    g.add_argument("--n-ctx", type=int, dest="n_ctx", help="the model's context window in tokens (default 8192)")
