"""What the CLI prints: contexts with how each unit got there, answers with citations, and
the token ledger as a table. Plain functions of the library's dataclasses, so the TUI can
show the same things."""

from __future__ import annotations

import textwrap


def stream_answer(rag, question, ctx, plan):
    """Say what the model will read (and what it will not) before the call, then stream."""
    print(f"\n{plan.summary()}")
    print("answer: ", end="", flush=True)
    ans = rag.answer(question, ctx, plan=plan, on_text=lambda piece: print(piece, end="", flush=True))
    print()
    return ans


def print_answer_footer(ans) -> None:
    print("\n".join(answer_footer(ans)))


def answer_footer(ans) -> list[str]:
    """Citations, what was left out, and the answer's token account, as lines."""
    lines = []
    if getattr(ans, "steps", None):  # a chain question answered hop by hop (answer/chain.py)
        lines.append("hop by hop:")
        for st in ans.steps:
            how = " (in code)" if st["how"] == "in code" else ""
            lines.append(f"  {st['phrase']} → {st['answer']}{how}" if st["phrase"] else f"  then asked: {st['question']} → {st['answer']}")
    elif ans.reason:  # decided in code, or narrowed from a reply that ran on
        lines.append(f"short answer: {ans.short}  ({ans.reason})" if ans.short != ans.text else f"decided in code: {ans.reason}")
    if getattr(ans, "full", ""):  # cut to the span the question asks for (answer/reply.py)
        lines.append(f"short answer: {ans.short}  (cut from: {ans.full})")
    if getattr(ans, "abstained", False):  # answer/check.py: no sentence read holds an answer
        lines.append(f"not in the documents: {ans.reason}" if ans.reason else "not in the documents")
        if ans.closest:
            lines.append("closest read (not a source):")
            for c in ans.closest:
                where = f" ({c.where})" if c.where else ""
                lines.append(f"  [{c.n}] {c.title}{where}: {c.sentence}")
    elif ans.citations:
        lines.append("citations:")
        for c in ans.citations:
            note = {
                "cited": "",
                "matched": "  (contains the answer; not cited by the model)",
                "unverified": "  (cited by the model, but the answer is not in it)",
            }[c.how]
            where = f"  ({c.where})" if getattr(c, "where", "") else ""
            lines.append(f"  [{c.n}] {c.doc_id} / {c.chunk_id}" + (f"  {c.title}" if c.title else "") + where + note)
    else:
        lines.append("citations: none (the model cited no passage)")
    t = ans.tokens
    if not any(t.values()):  # decided in code (answer/compare.py)
        lines.append(f"token account: no model call; {ans.seconds:.1f}s")
        return lines
    how = (
        "answered from the LLM cache: 0 fresh tokens"
        if ans.cached
        else f"{t['evaluated']} evaluated, the rest reused from the previous prompt"
    )
    lines.append(
        f"token account: {t['input'] + t['cached_input']} input / {t['output'] + t['cached_output']} output tokens ({how}); {ans.seconds:.1f}s"
    )
    return lines


def keywords_line(ctx) -> str | None:
    """LightRAG's query keywords, when the retriever recorded them."""
    if "keywords" not in ctx.notes:
        return None
    kw = ctx.notes["keywords"]
    note = "  (the model gave none: the question stands for both)" if kw["fallback"] else ""
    return f"keywords: low {', '.join(kw['low'])} | high {', '.join(kw['high'])}{note}"


def print_context(ctx, width: int = 100, max_units: int | None = None) -> None:
    print(f"{len(ctx.units)} units, {ctx.tokens}/{ctx.budget} tokens ({ctx.method})")
    if keywords_line(ctx):
        print(keywords_line(ctx))
    for i, u in enumerate(ctx.units[:max_units], 1):
        head = f"[{i}] {u.score:.3f}  {u.doc_id} / {u.chunk_id}  ({u.tokens} tokens)"
        print(head + (f"  {u.title}" if u.title else "") + (f"  ({u.provenance['label']})" if u.provenance.get("label") else ""))
        why = explain(u.meta)
        if why:
            print(f"    ← {why}")
        body = " ".join(u.text.split())
        print(textwrap.indent(textwrap.shorten(body, width * 2, placeholder=" …"), "    "))
    if max_units is not None and len(ctx.units) > max_units:
        print(f"… and {len(ctx.units) - max_units} more units")


def explain(meta: dict) -> str:
    """One line on how a unit got into the context, from what its retriever recorded."""
    if "bridge" in meta:
        b = meta["bridge"]
        return f"bridged from {b['seed']} through {', '.join(repr(k) for k in b['keys'])} (+{b['bonus']:.3f})"
    if meta.get("path") in ("direct", "expanded", "pooled"):
        return f"concept {meta['concept']!r} ({meta['path']})" if meta.get("concept") else f"{meta['path']} concepts (BFS)"
    if "seeds" in meta:
        return f"PPR from {', '.join(meta['seeds']['exact'] + meta['seeds']['semantic']) or 'no seed'}"
    return ""


def short_model(name: str) -> str:
    """A model's file name as a ledger column shows it: ``qwen2.5-coder-1.5b-q4_k_m``."""
    return name.removesuffix(".gguf").replace("-instruct", "")


def ledger_rows(totals: dict) -> list[tuple[str, str, dict]]:
    """(what, model, sums) per stage and per method, one row per model that worked in it
    (tokens are only comparable within one model), then all."""
    rows = []
    for kind in ("stage", "method"):
        split = totals.get(f"{kind}_models") or {k: {"": b} for k, b in totals[f"by_{kind}"].items()}
        for what, by_model in sorted(split.items()):
            rows += [(f"{kind} {what}", short_model(model), b) for model, b in sorted(by_model.items())]
    models = list(totals.get("by_model", {}))
    return rows + [("all", short_model(models[0]) if len(models) == 1 else "", totals["all"])]


def format_ledger(totals: dict) -> str:
    """The token account as a table: per stage, per method (each split by model), and overall."""
    cols = ("calls", "cached_calls", "input", "evaluated", "output", "cached_input", "cached_output", "seconds")
    names = {"cached_calls": "cached", "cached_input": "cached in", "cached_output": "cached out", "evaluated": "evaluated"}
    head = f"{'tokens':<18}{'model':<28}" + "".join(f"{names.get(c, c):>11}" for c in cols)
    lines = [head, "-" * len(head)]
    for label, model, b in ledger_rows(totals):
        lines.append(f"{label:<18}{model[:27]:<28}" + "".join(f"{b[c]:>11.1f}" if c == "seconds" else f"{int(b[c]):>11,}" for c in cols))
    if not totals["all"]["calls"]:
        lines.append("(no LLM calls yet)")
    return "\n".join(lines)


def index_sizes(stats: dict) -> list[tuple[str, int]]:
    """The index's size as (what, how many) rows: stored pieces, then the nodes and edges of
    each built graph (a KG's entities and relations, keywords, concepts, TERAG names, links)."""
    rows = [(k, v) for k, v in stats["counts"].items()]
    for name, rec in sorted(stats["stages"].items()):
        kind = name.split(":")[0]
        if kind == "kg":
            rows += [(f"{name} entities", rec["entities"]), (f"{name} relations", rec["relations"])]
        elif kind == "knn":
            rows.append((f"{name} edges", rec["edges"]))
        elif kind == "bipartite":
            rows += [("keywords", rec["keywords"]), ("keyword–text links", rec["links"])]
        elif kind == "concepts":
            rows += [("concepts", rec["concepts"]), ("concept edges", rec["edges"])]
        elif kind == "terag":
            rows += [("terag names", rec["concepts"]), ("terag edges", rec["concept_edges"] + rec["passage_edges"])]
        elif kind == "links":
            rows += [("link keys", rec["live_keys"]), ("passage–key links", rec["links"])]
    return rows


def token_bars(totals: dict, width: int = 30) -> list[tuple[str, int, str]]:
    """Where tokens went: (stage or method, fresh input + output tokens, a bar of ``width``
    cells scaled to the largest), largest first. Calls answered from the cache cost nothing
    and are left out."""
    rows = [(f"stage {k}", int(b["input"] + b["output"])) for k, b in totals["by_stage"].items()]
    rows += [(f"method {k}", int(b["input"] + b["output"])) for k, b in totals["by_method"].items()]
    rows.sort(key=lambda r: -r[1])
    top = max((n for _, n in rows), default=0) or 1
    return [(label, n, "█" * max(1 if n else 0, round(width * n / top))) for label, n in rows]


def unit_source(u, width: int = 32) -> str:
    """A unit's source in a narrow column: the file and page or section when the reader
    recorded one (``report.pdf p. 12–13``), else the title and chunk number."""
    prov = u.provenance or {}
    if prov.get("pages") or prov.get("section"):
        text = prov["label"]
    else:
        text = f"{u.title} ({u.chunk_id.rsplit(':', 1)[-1]})" if u.title else u.chunk_id
    return text if len(text) <= width else text[: width - 1] + "…"
