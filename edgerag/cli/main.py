"""``edgerag …``: the command line for batch scripts (the TUI and Python use the same API)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from contextlib import nullcontext
from importlib import resources
from pathlib import Path

from .. import offline  # noqa: F401
from ..answer import MODES, READERS
from .display import format_ledger, print_answer_footer, print_context, stream_answer
from .options import llm_args, method_args, ray_args, ray_options, setting, setting_overrides, settings_args

DEFAULT_INDEX = os.environ.get("EDGERAG_INDEX", ".edgerag/index")


def _open(args, **extra):
    from ..api import EdgeRAG

    overrides = setting_overrides(args)
    overrides.update({k: v for k, v in extra.items() if v is not None})
    if getattr(args, "quiet", False):
        overrides["progress"] = False
    return EdgeRAG(args.index, **overrides)


def cmd_index(args) -> int:
    rag = _open(args, docs_per_batch=args.docs_per_batch)
    report = rag.insert(args.paths, ray=ray_options(args))
    print(report.summary())
    if report.docs_added == 0 and report.docs_present == 0:
        print("edgerag: nothing indexable was found", file=sys.stderr)
        return 1
    return 0


def cmd_delete(args) -> int:
    r = _open(args).delete(args.doc_ids)
    if r.deleted:
        print(
            f"deleted {len(r.deleted)} document(s): {r.chunks} chunks, {r.subchunks} sub-chunks, {r.sentences} sentences, "
            f"{r.vectors} vectors, {r.extractions} KG extractions, {r.names} TERAG name sets, {r.llm_calls} cached LLM calls "
            f"({r.seconds:.1f}s)"
        )
        if r.stages_rebuilt:
            print("rebuilt over what remains, without the LLM: " + ", ".join(r.stages_rebuilt))
    for d in r.missing:
        print(f"edgerag: no document or indexed file {d!r} in {args.index} (`edgerag docs` lists them)", file=sys.stderr)
    return 0 if not r.missing else 1


def cmd_docs(args) -> int:
    from ..api import EdgeRAG

    rows = EdgeRAG(args.index).documents()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    from ..provenance import page_label

    for r in rows:
        pages = f"{page_label(r['pages'])} of {r['file_pages']}" if r.get("pages") else "-"
        print(f"{r['id']}\t{r['chunks']} chunk(s)\t{pages}\t{r['title'] or '-'}\t{r['source']}")
        if r.get("ocr_pages"):
            print(f"\tread by OCR: pp. {', '.join(map(str, r['ocr_pages']))}")
        for why, left_out in (r.get("skipped_pages") or {}).items():
            print(f"\tnot indexed: {page_label(left_out) if len(left_out) == 1 else 'pp. ' + ', '.join(map(str, left_out))} ({why})")
    print(f"{len(rows)} document(s)", file=sys.stderr)
    return 0


def cmd_query(args) -> int:
    rag = _open(args)
    ctx = rag.retrieve(args.question, method=args.method, budget=args.budget)
    if not args.answer:
        if args.json:
            print(json.dumps(ctx.to_dict(), indent=2, ensure_ascii=False))
        else:
            print_context(ctx)
        return 0
    mode = "short" if args.short else None
    plan = rag.plan_answer(args.question, ctx, mode=mode)
    if args.json:
        ans = rag.answer(args.question, ctx, plan=plan)
        print(json.dumps(ans.to_dict(), indent=2, ensure_ascii=False))
        return 0
    print_context(ctx, max_units=args.show)
    ans = stream_answer(rag, args.question, ctx, plan)
    print_answer_footer(ans)
    return 0


def cmd_build(args) -> int:
    rag = _open(args)
    if args.plan:
        print(rag.plan(args.method).summary())
        return 0
    rag.index.lock()  # before the plan, which may build the KNN graph: a second build is refused at once
    try:
        print(rag.plan(args.method).summary())
        result = rag.build(args.method, limit=args.limit, ray=ray_options(args))
    finally:
        rag.index.unlock()
    if result.get("ray"):
        r = result["ray"]
        print(
            f"ray: {len(r['workers'])} workers; results per node: "
            + ", ".join(f"{n} {k}" for k, n in r["by_node"].items())
            + (f"; {r['resent']} calls resent" if r["resent"] else "")
            + "".join(f"\nWARNING: worker {x}" for x in r["refused"] + r["retired"])
        )
    ex = result.get("extraction")
    if ex:
        found = f"{ex['entities']} entities, " + (
            f"{ex['concepts']} concepts in {ex['calls']} calls ({ex['retried']} passages retried alone)"
            if "concepts" in ex
            else f"{ex['relations']} relations"
        )
        print(
            f"extracted {ex['extracted']} chunks ({ex['already']} done before) in {ex['seconds']:.0f}s: "
            f"{found}; {ex['invented']} items dropped (names not in the passage), {ex['unparsed_lines']} unparsed lines"
        )
        if ex.get("too_long"):
            print(f"WARNING: {len(ex['too_long'])} chunks do not fit the model's window (raise --n-ctx): {', '.join(ex['too_long'][:5])}")
        if ex["zero_yield"]:
            print(f"WARNING: {len(ex['zero_yield'])} chunks yielded nothing usable, e.g. {', '.join(ex['zero_yield'][:5])}")
    for graph in ("kg", "terag"):
        if result.get(graph):
            print(f"{graph}: {result[graph]}")
    print(format_ledger(rag.ledger()))
    return 0


def cmd_eval(args) -> int:
    from ..eval.datasets import load_dataset
    from ..eval.report import markdown
    from ..eval.runner import evaluate_many, write_result

    methods = [m.strip() for m in (args.methods or args.method).split(",") if m.strip()]
    sweeps: dict[str, list] = {}
    for spec in args.sweep or []:
        key, values = _sweep(spec)
        if key in sweeps:
            raise ValueError(f"--sweep {key} is given twice; list every value in one: {key}=V1,V2,…")
        sweeps[key] = values
    dataset = load_dataset(args.data, limit=args.limit)
    if args.index is None:
        digest = hashlib.sha1(str(Path(args.data).resolve()).encode()).hexdigest()[:8]
        args.index = f".edgerag/eval/{dataset.name.replace('/', '-')}-{digest}"
    rag = _open(args, budget=args.budget)
    doc = evaluate_many(rag, dataset, methods, sweeps=sweeps, answer=args.answer, build=args.build)
    print(markdown([doc]))
    if args.out:
        write_result(doc, args.out)
        print(f"wrote {args.out} (render it with `edgerag report {args.out}`)")
    return 0


def _sweep(spec: str) -> tuple[str, list]:
    """``beta=0,0.2,1`` → ("beta", [0.0, 0.2, 1.0]), typed as the setting is."""
    from ..methods import KNOBS
    from ..settings import Settings

    key, sep, values = spec.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or key not in KNOBS or not values.strip():
        raise ValueError(f"--sweep {spec!r}: write NAME=V1,V2,… with NAME one of {', '.join(KNOBS)}")
    kind = type(getattr(Settings(), key))
    try:
        return key, [kind(v) for v in values.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--sweep {spec!r}: the values of {key} must be {kind.__name__}s") from None


def cmd_report(args) -> int:
    from ..eval.report import write_report

    written = write_report(args.results, args.out, readme=args.readme, metric=args.metric, block=args.block)
    for kind, path in written.items():
        print(f"{kind:<9} {path}")
    return 0


def cmd_stats(args) -> int:
    from ..api import EdgeRAG

    stats = EdgeRAG(args.index).stats()
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    print(f"index     {stats['index']} (format {stats['format']})")
    print(f"embedder  {stats['embedder']['id']} (dim {stats['embedder']['dim']})")
    print("settings  " + ", ".join(f"{k}={v}" for k, v in stats["settings"].items()))
    for name, n in stats["counts"].items():
        print(f"{name:<10}{n}")
    print("built     " + (", ".join(stats["stages"]) or "no graph stage yet (built on first query, or by `edgerag build`)"))
    print()
    print(format_ledger(stats["tokens"]))
    return 0


def cmd_models(args) -> int:
    from ..llm.models import list_models, models_dir

    rows = list_models()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"models directory: {models_dir()}  (EDGERAG_MODELS to change; any GGUF path works with --model)")
    for r in rows:
        print(f"{'*' if r['default'] else ' '} {r['name']:<38} {r['size'] / 2**20:>7.0f} MiB  {r['status']}")
        print(f"  {'':<38} {r['path']}")
    return 0


def cmd_doctor(args) -> int:
    from ..doctor import format_report, report

    r = report(index=args.index, model=args.model, repack=args.llm_repack or "auto", probe=not args.no_probe)
    print(json.dumps(r, indent=2) if args.json else format_report(r))
    probe = r.get("probe") or {}
    return 0 if probe.get("ok", args.no_probe) and "error" not in r["model"] else 1


def cmd_demo(args) -> int:
    """Index the bundled sample corpus and answer its first question."""
    from ..eval.datasets import load_dataset

    sample = Path(str(resources.files("edgerag") / "data" / "sample"))
    dataset = load_dataset(sample)
    rag = _open(args)
    print(f"indexing the bundled sample ({sample}) into {args.index} …")
    print(rag.insert([dataset.corpus]).summary())
    q = dataset.questions[0]
    question = args.question or q.question
    print(f"\nquestion: {question}")
    ctx = rag.retrieve(question, method=args.method, budget=args.budget)
    print_context(ctx, max_units=5)
    if not args.question:
        from ..eval.metrics import coverage

        print(f"\ngold answer: {q.answers[0]!r} — {'found' if coverage(q.answers, ctx.text()) else 'not found'} in the retrieved context")
    if args.no_answer:
        return 0
    print(
        f"\nloading the answering model ({rag.answer_choice.spec or rag.settings.model or 'default'}: {rag.answer_choice.reason}) …",
        flush=True,
    )
    ans = stream_answer(rag, question, ctx, rag.plan_answer(question, ctx))
    print_answer_footer(ans)
    return 0


def cmd_tui(args) -> int:
    from tui.app import run

    rag = _open(args)  # the same settings flags as every command; errors surface here, before the screen
    run(args.index, root=args.root, settings=rag.settings)
    return 0


def cmd_export(args) -> int:
    print(_open(args).export_graph(args.graph, args.out, args.format).summary())
    return 0


def cmd_methods(args) -> int:
    from .. import methods as registry

    rows = [registry.get(n) for n in registry.names()]
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": m.name,
                        "reads": m.reads,
                        "ranks": m.ranks,
                        "index_llm_calls": m.index_llm_calls,
                        "query_llm": m.query_llm,
                        "settings": list(m.settings),
                        "paper": m.paper,
                    }
                    for m in rows
                ],
                indent=2,
            )
        )
        return 0
    width = max(len(m.name) for m in rows)
    for m in rows:
        llm = m.index_llm_calls + (", a model call per query" if m.query_llm else "")
        print(f"{m.name:<{width}}  {m.paper}; LLM at index time: {llm}\n{'':<{width}}  {m.ranks}")
    return 0


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
