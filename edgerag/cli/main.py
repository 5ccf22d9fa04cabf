"""``edgerag …``: the command line for batch scripts (the TUI and Python use the same API)."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import nullcontext

from .. import offline  # noqa: F401
from ..answer import MODES, READERS
from .commands import (
    cmd_build,
    cmd_delete,
    cmd_demo,
    cmd_docs,
    cmd_doctor,
    cmd_eval,
    cmd_export,
    cmd_index,
    cmd_methods,
    cmd_models,
    cmd_query,
    cmd_report,
    cmd_serve,
    cmd_stats,
    cmd_tui,
)
from .options import llm_args, method_args, ray_args, setting, settings_args

DEFAULT_INDEX = os.environ.get("EDGERAG_INDEX", ".edgerag/index")


def build_parser() -> argparse.ArgumentParser:
    from .. import methods as registry

    p = argparse.ArgumentParser(prog="edgerag", description="Offline Graph-RAG with a local GGUF model.")
    sub = p.add_subparsers(dest="command", required=True)

    def with_index(sp, default=DEFAULT_INDEX):
        sp.add_argument("--index", default=default, help=f"index directory (default {default}; env EDGERAG_INDEX)")
        sp.add_argument("-q", "--quiet", action="store_true", help="no progress bars")

    sp = sub.add_parser(
        "index",
        help="add files/folders (.txt, .md, corpus .jsonl, .pdf, .docx, .html, .epub) to an index; "
        "edited files replace their old version, unchanged ones are skipped",
    )
    sp.add_argument("paths", nargs="+")
    with_index(sp)
    setting(sp, "--docs-per-batch")
    setting(sp, "--embed-pieces-at-index")
    settings_args(sp)
    ray_args(sp, "embed")
    sp.set_defaults(func=cmd_index)

    sp = sub.add_parser("delete", help="remove documents and every trace of them, by id (see `edgerag docs`) or by file path")
    sp.add_argument("doc_ids", nargs="+", metavar="DOC_ID_OR_PATH")
    with_index(sp)
    sp.set_defaults(func=cmd_delete)

    sp = sub.add_parser("docs", help="list the documents of an index: id, chunks, pages (PDF), title, source")
    with_index(sp)
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_docs)

    methods = registry.names()
    sp = sub.add_parser("query", help="retrieve context for a question")
    sp.add_argument("question")
    with_index(sp)
    setting(sp, "--method", choices=methods)
    setting(sp, "--budget")
    sp.add_argument("--json", action="store_true", help="print the context (or, with --answer, the answer) as JSON")
    sp.add_argument("--answer", action="store_true", help="answer with the local model, citing the passages used")
    setting(sp, "--answer-mode", choices=list(MODES))
    setting(sp, "--answer-budget")
    setting(sp, "--answer-whole-budget", type=int)
    setting(sp, "--answer-seconds")
    setting(sp, "--answer-reader", choices=list(READERS))
    setting(sp, "--no-hops", "answer_hops")
    setting(sp, "--no-chain", "answer_chain")
    setting(sp, "--no-check", "answer_check")
    setting(sp, "--no-rule-check", "answer_rule_check")
    setting(sp, "--no-rule-items", "answer_rule_items")
    setting(sp, "--no-model-check", "answer_model_check")
    setting(sp, "--answer-section")
    sp.add_argument("--short", action="store_true", help="same as --answer-mode short")
    sp.add_argument("--show", type=int, default=5, help="context units to print before the answer (default 5)")
    method_args(sp)
    llm_args(sp)
    sp.set_defaults(func=cmd_query)

    sp = sub.add_parser("build", help="build the stages a method needs (LLM extraction for KG methods)")
    sp.add_argument("--method", required=True, choices=methods)
    with_index(sp)
    sp.add_argument("--plan", action="store_true", help="only print the cost estimate")
    sp.add_argument("--limit", type=int, help="extract at most N chunks now (build again to resume)")
    setting(sp, "--grammar", "extract_grammar")
    settings_args(sp)
    ray_args(sp, "run the KG extraction calls")
    method_args(sp)
    llm_args(sp)
    sp.set_defaults(func=cmd_build)

    sp = sub.add_parser("eval", help="evaluate methods on a benchmark folder (corpus.jsonl + questions.jsonl)")
    sp.add_argument("--data", required=True)
    sp.add_argument("--method", default="text", choices=methods, help="one method (default text)")
    sp.add_argument("--methods", help="several, comma-separated, over one index: e.g. text,keyword,ket,g2cons,terag")
    sp.add_argument(
        "--sweep",
        action="append",
        metavar="NAME=V1,V2",
        help="run each method that reads NAME once per value: beta, kappa, theta, lambda_w or budget (repeatable)",
    )
    sp.add_argument("--build", action="store_true", help="run the LLM extraction runs need first (else they are refused with its cost)")
    with_index(sp, default=None)
    setting(sp, "--budget")
    sp.add_argument("--limit", type=int, help="first N questions only")
    sp.add_argument("--out", help="write the result file (JSON, docs/result-schema.md) here")
    sp.add_argument("--answer", action="store_true", help="also answer each question (short mode) and score EM/F1")
    setting(sp, "--no-hops", "answer_hops")
    setting(sp, "--no-chain", "answer_chain")
    setting(sp, "--no-check", "answer_check")
    setting(sp, "--no-rule-check", "answer_rule_check")
    setting(sp, "--no-rule-items", "answer_rule_items")
    setting(sp, "--no-model-check", "answer_model_check")
    setting(sp, "--answer-section")
    settings_args(sp)
    method_args(sp)
    llm_args(sp)
    sp.set_defaults(func=cmd_eval)

    sp = sub.add_parser("report", help="render `eval --out` result files: Markdown table, Pareto and sweep plots (PNG)")
    sp.add_argument("results", nargs="+", metavar="RESULT.json")
    sp.add_argument("--out", default="report", help="folder for report.md, frontier.png, sweep.png (default ./report)")
    sp.add_argument("--readme", help="also replace this Markdown file's <!-- results:begin/end --> block")
    sp.add_argument("--block", default="results", help="with --readme: the block's name, <!-- NAME:begin --> … (default results)")
    sp.add_argument("--metric", default="coverage", choices=["coverage", "recall_at_5", "f1"], help="quality axis of the plots")
    sp.set_defaults(func=cmd_report)

    sp = sub.add_parser("stats", help="what an index holds")
    with_index(sp)
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_stats)

    sp = sub.add_parser("demo", help="index the bundled sample corpus and answer a sample question")
    with_index(sp, default=".edgerag/demo")
    sp.add_argument("--question")
    sp.add_argument("--method", choices=methods, help="retriever (default bridge-ppr)")
    sp.add_argument("--budget", type=int, default=2000)
    sp.add_argument("--no-answer", action="store_true", help="stop after retrieval (no LLM)")
    llm_args(sp)
    sp.set_defaults(func=cmd_demo)

    from ..export import FORMATS, GRAPHS

    sp = sub.add_parser("export", help="write a built graph as GraphML or JSON, for Gephi, Cytoscape or networkx")
    sp.add_argument(
        "--graph",
        required=True,
        choices=GRAPHS,
        help="kg: entities and relations; links: passages and link keys; "
        "concepts: G2ConS concepts; terag: TERAG names and passages; knn: the KNN chunk graph",
    )
    sp.add_argument("--format", choices=FORMATS, help="graphml or json (node-link); default: the --out file's suffix")
    sp.add_argument("--out", required=True, help="the file to write")
    with_index(sp)
    method_args(sp)
    sp.set_defaults(func=cmd_export)

    sp = sub.add_parser("methods", help="list the retrieval methods: what each reads, its LLM cost, its paper")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_methods)

    sp = sub.add_parser("models", help="list known GGUF models: installed, verified, where")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_models)

    sp = sub.add_parser(
        "doctor",
        help="what this machine is to edgerag: versions, CPU, llama.cpp, models verified, a probe's speed; paste it into bug reports",
    )
    sp.add_argument("--index", help="also report this index's format and size")
    sp.add_argument("--json", action="store_true", help="one JSON object (fields: docs/operations.md)")
    sp.add_argument("--no-probe", action="store_true", help="skip the test generation (no model load)")
    llm_args(sp)
    sp.set_defaults(func=cmd_doctor)

    sp = sub.add_parser(
        "serve",
        help="serve indexes over HTTP to chat clients and scripts: OpenAI- and Ollama-compatible chat with citations, "
        "retrieval, uploads (pip install 'edgerag[server]'; docs/serve.md)",
    )
    sp.add_argument(
        "--index",
        action="append",
        metavar="[NAME=]PATH",
        help=f"an index to serve, as the model edgerag:NAME (NAME: the folder's name); repeat for several (default {DEFAULT_INDEX})",
    )
    sp.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only; any other needs a key)"
    )
    sp.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    sp.add_argument("--api-key-file", metavar="PATH", help="a file holding the API key clients must send (Authorization: Bearer KEY)")
    sp.add_argument("--queue", type=int, default=8, help="questions that may wait for the model; more get 503 with Retry-After (default 8)")
    sp.add_argument("--max-body-mb", type=float, default=4, help="largest JSON request body, MiB (default 4)")
    sp.add_argument("--max-upload-mb", type=float, default=256, help="largest upload, all its files together, MiB (default 256)")
    sp.add_argument("--uploads", default=".edgerag/uploads", help="folder for uploaded files and their jobs (default .edgerag/uploads)")
    sp.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no access log (by default: one line a request: method, path, status, seconds, model, tokens)",
    )
    setting(sp, "--method", choices=methods)
    setting(sp, "--budget")
    setting(sp, "--answer-budget")
    setting(sp, "--answer-seconds")
    setting(sp, "--docs-per-batch")
    settings_args(sp)
    method_args(sp)
    llm_args(sp)
    sp.set_defaults(func=cmd_serve)

    sp = sub.add_parser("tui", help="start the terminal UI (index, query, ledger, graph peek)")
    sp.add_argument("--index", default=DEFAULT_INDEX)
    sp.add_argument("--root", default=".", help="folder the file picker starts in (default: the current one)")
    settings_args(sp)
    method_args(sp)
    llm_args(sp)
    sp.set_defaults(func=cmd_tui)
    return p


def main(argv: list[str] | None = None) -> int:
    from ..cluster.ray_pool import DistributedError, RayUnavailableError
    from ..embed.embedder import EmbedderError
    from ..llm.models import ModelError
    from ..progress import Cancelled, stop_on_interrupt
    from ..store import IndexUnusableError

    args = build_parser().parse_args(argv)
    # long work in committed steps: Ctrl-C ends the step first
    steps = args.command in ("index", "build") or (args.command == "eval" and args.build)
    try:
        with stop_on_interrupt() if steps else nullcontext():
            return args.func(args)
    except (IndexUnusableError, EmbedderError, ModelError, ValueError, FileNotFoundError, RayUnavailableError, DistributedError) as e:
        print(f"edgerag: error: {e}", file=sys.stderr)
        return 2
    except Cancelled:
        print("edgerag: stopped at a step boundary; everything finished is kept. Run the same command again to resume.", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(
            "edgerag: interrupted" + ("; committed steps are kept, run the same command again to resume" if steps else ""), file=sys.stderr
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
