"""What the open-set benchmarks share (tatqa.py, conditionalqa.py, and llamaindex_rag.py's answers
that they score): the command line, a question asked as `edgerag query --answer` asks it, the
answer record both systems write, the rows kept across slices, CRAG tallies and the tables.

An answer record (one per question, the same for edgerag and for plain RAG) holds ``id``,
``asked`` (the text sent), ``short`` (the answer scored), ``text`` (the reply, cut),
``abstained`` (``flag``: Answer.abstained; ``words``: the reply says so, office.py `ABSTAINS`;
"": it answered), ``seconds`` (None when served from the LLM cache and not measured before) and
``cached``. The scripts add their scores to it.

Nothing here imports edgerag at module level, so llamaindex_rag.py can use it from its own venv.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from office import said_not_in_documents

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
RESULTS = REPO / "benchmarks" / "results"
VERDICTS = ("right", "abstained", "wrong")


def add_arguments(ap: argparse.ArgumentParser, name: str) -> None:
    """The options every open-set benchmark takes (office.py's, and plain RAG's answers)."""
    ap.add_argument("--model", default="0.5b", help="the answering model: 0.5b, 1.5b, auto (answer_model's default) or a GGUF path")
    ap.add_argument("--limit", type=int, help="ask at most this many questions (after --skip)")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N questions (run the set in slices)")
    ap.add_argument("--work", default=f".edgerag/bench/{name}", help="the work folder: the indexes are built (and kept) under it")
    ap.add_argument("--out", help=f"result JSON (default benchmarks/results/{name}_<model>.json); rows already there are kept")
    ap.add_argument("--rescore", action="store_true", help="score --out's rows again as the scoring is now; ask nothing")
    ap.add_argument(
        "--answers-from", help="score another system's answer records (llamaindex_rag.py's JSON) and print them beside --out's; ask nothing"
    )


def model_tag(model: str) -> str:
    return Path(model).stem.lower().replace(".", "_") if "/" in model else model.lower().replace(".", "_")


def default_out(name: str, model: str) -> Path:
    return RESULTS / f"{name}_{model_tag(model)}.json"


def answer_model(name: str) -> str:
    """``answer_model`` for ``--model``, as office.py reads it."""
    from office import answer_model as office_answer_model

    return office_answer_model(name)


def open_index(folder: Path, docs: list[Path], spec: str):
    """An `EdgeRAG` on ``folder`` with ``docs`` inserted as a user inserts them (unchanged files
    are not read again, so a rerun reuses the index)."""
    import sys

    from edgerag import EdgeRAG, Settings

    rag = EdgeRAG(folder, Settings(progress=sys.stderr.isatty(), answer_model=spec))
    report = rag.insert(docs)
    if report.skipped:
        raise SystemExit(f"documents not indexed: {report.skipped}")
    return rag


def ask(rag, text: str) -> dict:
    """``text`` asked at every default as `edgerag query --answer` asks it (retrieve, plan,
    answer): the answer record (module doc). The model is loaded before the clock starts."""
    from office import abstained

    rag.answer_llm.llm.llama  # noqa: B018 (load the GGUF outside the timed answer)
    t0 = time.perf_counter()
    ctx = rag.retrieve(text)
    plan = rag.plan_answer(text, ctx)
    ans = rag.answer(text, ctx, plan=plan)
    seconds = time.perf_counter() - t0
    return {
        "asked": text,
        "short": ans.short,
        "text": ans.text[:600],
        "abstained": abstained(ans),
        "seconds": seconds,
        "cached": ans.cached,
        "reason": ans.reason,
        "cited": [c.where or c.title for c in ans.citations if c.how != "unverified"],
        "decided": plan.decision.kind if plan.decision is not None else "",
        "rules": [r["rule"] for r in ans.rules],
    }


def keep_seconds(row: dict, before: dict | None) -> dict:
    """A row served by the LLM cache keeps the seconds measured when it was computed (or None)."""
    if row.get("cached"):
        row["seconds"] = (before or {}).get("seconds")
    return row


def abstention(row: dict) -> str:
    """The row's abstention read again (``flag`` stays; words are read as office.py reads them now)."""
    if row.get("abstained") == "flag":
        return "flag"
    return "words" if said_not_in_documents(row.get("short", ""), row.get("text", "")) else ""


def load(path: Path | str | None) -> dict:
    path = Path(path) if path else None
    return json.loads(path.read_text()) if path and path.exists() else {}


def ordered(rows: Iterable[dict], questions: list[dict]) -> list[dict]:
    order = {q["id"]: i for i, q in enumerate(questions)}
    return sorted((r for r in rows if r["id"] in order), key=lambda r: order[r["id"]])


def run(questions: list[dict], ask_one: Callable[[dict], dict], kept: dict[str, dict], label: Callable[[dict], str]) -> None:
    """Ask ``questions`` in order (``ask_one`` returns the scored row), keeping each row in
    ``kept`` by id and printing a line per question."""
    for n, q in enumerate(questions, 1):
        row = keep_seconds(ask_one(q), kept.get(q["id"]))
        kept[q["id"]] = row
        secs = f"{row['seconds']:.1f}s" if row["seconds"] is not None else "cached"
        print(
            f"[{n}/{len(questions)}] {row['verdict']:<9} {label(q):<22} {q['question'][:60]!r} → {row['short'][:60]!r} ({secs})", flush=True
        )


def seconds(rows: list[dict]) -> dict:
    secs = sorted(r["seconds"] for r in rows if r.get("seconds") is not None)
    return {
        "p50": statistics.median(secs) if secs else None,
        "p95": secs[min(len(secs) - 1, int(0.95 * len(secs)))] if secs else None,
        "mean": statistics.fmean(secs) if secs else None,
        "timed": len(secs),
    }


def tally(rows: list[dict], means: tuple[str, ...] = ()) -> dict:
    """Right / abstained / wrong (counts and per cent of n), CRAG score (+1 / 0 / −1), and the
    mean of each field in ``means`` (in per cent)."""
    n = len(rows)
    t = {"n": n, **{v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}}
    for v in VERDICTS:
        t[f"{v}_pct"] = 100 * t[v] / n if n else 0.0
    t["crag"] = 100 * (t["right"] - t["wrong"]) / n if n else 0.0
    for m in means:
        t[m] = 100 * statistics.fmean(r[m] for r in rows) if n else 0.0
    t["seconds_p50"] = seconds(rows)["p50"]
    return t


def group(rows: list[dict], key: str, order: Iterable[str], means: tuple[str, ...] = ()) -> dict[str, dict]:
    return {k: tally([r for r in rows if r[key] == k], means) for k in order if any(r[key] == k for r in rows)}


def markdown(head: list[str], lines: list[list]) -> str:
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    out += ["| " + " | ".join(str(c) for c in line) + " |" for line in lines]
    return "\n".join(out)


def verdict_cells(t: dict) -> list:
    secs = f"{t['seconds_p50']:.1f}" if t.get("seconds_p50") is not None else "–"
    return [
        t["n"],
        f"{t['right']} ({t['right_pct']:.0f} %)",
        t["abstained"],
        f"{t['wrong']} ({t['wrong_pct']:.0f} %)",
        f"{t['crag']:.0f}",
        secs,
    ]


VERDICT_HEAD = ["n", "right", "abstained", "wrong", "CRAG %", "s / answer (p50)"]


def host() -> str:
    from edgerag.llm.cpu import cpu_class, cpu_flags, cpu_model, llama_features, usable_cores

    return f"{cpu_model()}, {usable_cores()} cores, cpu class {cpu_class(cpu_flags())} ({', '.join(llama_features()) or 'no AVX2'})"


def speeds(rag) -> dict | None:
    s = rag.answer_llm.speeds()
    return {"prompt": s.prompt, "generation": s.generation, "calls": s.calls} if s else None


def side_by_side(ours: dict[str, dict], theirs: dict[str, dict], names: tuple[str, str] = ("edgerag", "plain RAG")) -> str:
    """Two systems' tallies by group on the same questions: right / abstained / wrong each."""
    head = ["group", "n", f"{names[0]}: right / abstained / wrong", f"{names[1]}: right / abstained / wrong"]
    lines = []
    for k in ours:
        a, b = ours[k], theirs.get(k)
        cell = lambda t: f"{t['right']} / {t['abstained']} / {t['wrong']}" if t else "–"  # noqa: E731
        lines.append([k, a["n"], cell(a), cell(b)])
    return markdown(head, lines)
