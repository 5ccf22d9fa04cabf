"""The ``edgerag`` commands: each ``cmd_*`` takes the parsed arguments and returns an exit code
(main.py parses the command line and turns errors into messages)."""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import resources
from pathlib import Path

from .display import format_ledger, print_answer_footer, print_context, short_model, stream_answer
from .options import ray_options, setting_overrides


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
    if args.plan:  # every installed model's price, the extract_model's first
        print("\n\n".join(p.summary() for p in rag.plans(args.method)))
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
    built = [
        name + (f" (by {', '.join(short_model(m) for m in rec['models'])})" if rec.get("models") else "")
        for name, rec in stats["stages"].items()
    ]
    print("built     " + (", ".join(built) or "no graph stage yet (built on first query, or by `edgerag build`)"))
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


def cmd_serve(args) -> int:
    """``edgerag serve``: everything is checked before anything loads (a bad key file, a
    non-loopback address without a key, a missing extra are told at once)."""
    from ..serve.config import MiB, ServeConfig, check_bind, index_names, read_api_key

    key = read_api_key(args.api_key_file) if args.api_key_file else None
    check_bind(args.host, key)
    if not 0 <= args.port < 65536:
        raise ValueError(f"--port {args.port}: give a port between 1 and 65535")
    if args.queue < 0 or args.max_body_mb <= 0 or args.max_upload_mb <= 0:
        raise ValueError("--queue must be 0 or more, --max-body-mb and --max-upload-mb above 0")
    try:
        import fastapi  # noqa: F401
        import multipart  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        print(
            f"edgerag: error: `edgerag serve` needs the server extra ({e.name} is not installed): pip install 'edgerag[server]' "
            "(in this checkout: .venv/bin/pip install -e '.[server]')",
            file=sys.stderr,
        )
        return 2
    from ..serve.app import run
    from .main import DEFAULT_INDEX

    config = ServeConfig(
        indexes=index_names(args.index or [DEFAULT_INDEX]),
        host=args.host,
        port=args.port,
        api_key=key,
        queue=args.queue,
        max_body_bytes=int(args.max_body_mb * MiB),
        max_upload_bytes=int(args.max_upload_mb * MiB),
        uploads=Path(args.uploads),
        settings={**setting_overrides(args), "progress": False},
        access_log=not getattr(args, "quiet", False),
    )
    run(config)
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
                        "measured": m.measured,
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
        if m.measured:
            print(f"{'':<{width}}  measured: {m.measured}")
    return 0
