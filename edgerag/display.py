"""What the CLI prints: contexts with how each unit got there, answers with citations, and
the token ledger as a table. Plain functions of the library's dataclasses, so the TUI can
show the same things."""

from __future__ import annotations

import textwrap


def stream_answer(rag, question, ctx, short: bool):
    print("\nanswer: ", end="", flush=True)
    ans = rag.answer(question, ctx, short=short, on_text=lambda piece: print(piece, end="", flush=True))
    print()
    return ans


def print_answer_footer(ans) -> None:
    if ans.citations:
        print("citations:")
        for c in ans.citations:
            note = {"cited": "", "matched": "  (contains the answer; not cited by the model)",
                    "unverified": "  (cited by the model, but the answer is not in it)"}[c.how]  # fmt: skip
            print(f"  [{c.n}] {c.doc_id} / {c.chunk_id}" + (f"  {c.title}" if c.title else "") + note)
    else:
        print("citations: none (the model cited no passage)")
    if ans.dropped_units:
        print(f"note: {ans.dropped_units} lowest-ranked units did not fit the model's window and were left out")
    t = ans.tokens
    how = "answered from the LLM cache: 0 fresh tokens" if ans.cached else f"{t['evaluated']} evaluated, the rest reused from the previous prompt"
    print(f"token account: {t['input'] + t['cached_input']} input / {t['output'] + t['cached_output']} output tokens ({how}); {ans.seconds:.1f}s")


def print_context(ctx, width: int = 100, max_units: int | None = None) -> None:
    print(f"{len(ctx.units)} units, {ctx.tokens}/{ctx.budget} tokens ({ctx.method})")
    if "keywords" in ctx.notes:
        kw = ctx.notes["keywords"]
        note = "  (the model gave none: the question stands for both)" if kw["fallback"] else ""
        print(f"keywords: low {', '.join(kw['low'])} | high {', '.join(kw['high'])}{note}")
    for i, u in enumerate(ctx.units[:max_units], 1):
        head = f"[{i}] {u.score:.3f}  {u.doc_id} / {u.chunk_id}  ({u.tokens} tokens)"
        print(head + (f"  {u.title}" if u.title else ""))
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


def format_ledger(totals: dict) -> str:
    """The token account as a table: per stage, per method, and overall."""
    cols = ("calls", "cached_calls", "input", "evaluated", "output", "cached_input", "cached_output", "seconds")
    names = {"cached_calls": "cached", "cached_input": "cached in", "cached_output": "cached out", "evaluated": "evaluated"}
    head = f"{'tokens':<18}" + "".join(f"{names.get(c, c):>11}" for c in cols)
    lines = [head, "-" * len(head)]

    def row(label, b):
        return f"{label:<18}" + "".join(f"{b[c]:>11.1f}" if c == "seconds" else f"{int(b[c]):>11,}" for c in cols)

    for stage, b in sorted(totals["by_stage"].items()):
        lines.append(row(f"stage {stage}", b))
    for method, b in sorted(totals["by_method"].items()):
        lines.append(row(f"method {method}", b))
    lines.append(row("all", totals["all"]))
    if not totals["all"]["calls"]:
        lines.append("(no LLM calls yet)")
    return "\n".join(lines)
