"""Result files of `edgerag eval` rendered for people: a Markdown table and PNG plots.

* ``frontier.png`` — quality against indexing output tokens, one panel per result file, the
  Pareto frontier marked (the methods no other method beats on both axes). This is the
  G2ConS paper's Figure 3 with the LLM's output tokens in place of USD: on a local model the
  output tokens are what the indexing hours are made of.
* ``sweep.png`` — quality against each swept setting (β, κ, θ, λ_w, λ), one line per
  method, plain dense retrieval (`text`) drawn as the bar a graph method has to clear.

`write_report` writes both with ``report.md`` beside them, and can put the Markdown between
the ``<!-- results:begin -->`` / ``<!-- results:end -->`` markers of a README (or those of
another named block).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..methods import KNOBS
from .runner import SCHEMA, setting_label

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def markers(block: str = "results") -> tuple[str, str]:
    """The comment lines around a README block: ``<!-- NAME:begin -->`` … ``<!-- NAME:end -->``."""
    if not block or not all(c.isalnum() or c in "-_" for c in block):
        raise ResultFileError(f"a block name is letters, digits, - and _; got {block!r}")
    return f"<!-- {block}:begin -->", f"<!-- {block}:end -->"


class ResultFileError(ValueError):
    pass


def load_results(paths: list[str | Path]) -> list[dict[str, Any]]:
    """Result documents from ``paths``, with a clear error for a file that is not one."""
    docs = []
    for p in paths:
        try:
            doc = json.loads(Path(p).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ResultFileError(f"{p}: no such file") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ResultFileError(f"{p}: not JSON ({e})") from None
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
            raise ResultFileError(f"{p}: not an `edgerag eval --out` result (schema {found!r}, expected {SCHEMA!r})")
        _check_fields(p, doc)
        docs.append(doc)
    if not docs:
        raise ResultFileError("no result files given")
    return docs


_FILE_KEYS = ("dataset", "machine", "created", "model", "ingest_seconds", "runs")
_RUN_KEYS = (
    "label",
    "method",
    "budget",
    "questions",
    "settings",
    "coverage",
    "recall_at_k",
    "em",
    "f1",
    "index_tokens",
    "index_seconds",
    "index",
    "query_tokens",
    "latency_ms",
)


def _check_fields(path, doc: dict[str, Any]) -> None:
    """The fields the report reads, so a truncated or hand-edited file is named, not a traceback
    (result.schema.json is the full contract; the tests hold `eval` to it)."""
    gone = [k for k in _FILE_KEYS if k not in doc]
    if not gone and isinstance(doc["runs"], list):
        gone = [f"runs[{i}].{k}" for i, r in enumerate(doc["runs"]) for k in _RUN_KEYS if not isinstance(r, dict) or k not in r]
    if gone or not isinstance(doc.get("runs"), list):
        raise ResultFileError(f"{path}: an incomplete result file (missing {', '.join(gone[:5]) or 'runs'})")


def pareto(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the points on the frontier: no other point has at most their cost and more
    quality (cost first, quality second). Ties keep the cheaper point."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1]))
    best, out = float("-inf"), []
    for i in order:
        if points[i][1] > best:
            out.append(i)
            best = points[i][1]
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _secs(x: float) -> str:
    return f"{x:,.1f}" if x < 10 else f"{x:,.0f}"


def _num(x: float) -> str:
    return f"{x:,.0f}"


def _models(doc: dict[str, Any]) -> str:
    """Which model answered, read queries and built each stage (older files name one model)."""
    models = doc.get("models")
    if models is None:
        return doc["model"]["file"] if doc.get("model") else "no LLM in this run's queries"
    parts = [f"{job} by {models[job]['file']}" for job in ("answer", "query") if models.get(job)]
    parts += [f"{stage} built by {', '.join(by)}" for stage, by in sorted(models["stages"].items())]
    return "; ".join(parts) or "no LLM in this run"


def markdown(docs: list[dict[str, Any]], images: list[str] = ()) -> str:
    """One table per result file, then the plots."""
    out = []
    for doc in docs:
        ds = doc["dataset"]
        model = _models(doc)
        budgets = sorted({r["budget"] for r in doc["runs"]})
        out.append(
            f"**{ds['name']}**: {ds['questions']} questions, {ds['chunks']:,} chunks, "
            f"λ = {', '.join(f'{b:,}' for b in budgets)} tokens; models: {model}; "
            f"{doc['machine']['cpus']} CPU cores{', GPU' if doc['machine'].get('gpu') else ', no GPU'}; {doc['created'][:10]}."
        )
        out.append("")
        ks = sorted({k for r in doc["runs"] for k, v in r["recall_at_k"].items() if v is not None}, key=int)
        answered = any(r["em"] is not None for r in doc["runs"])
        head = ["method", "Coverage %"] + [f"R@{k} %" for k in ks] + (["EM %", "F1 %"] if answered else [])
        head += ["index LLM in", "index LLM out", "index s", "query LLM in/out per q", "p50 ms", "p95 ms"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
        for r in doc["runs"]:
            q, n = r["query_tokens"], max(r["questions"], 1)
            row = [r["label"], _pct(r["coverage"])] + [_pct(r["recall_at_k"].get(k)) for k in ks]
            if answered:
                row += [_pct(r["em"]), _pct(r["f1"])]
            lat = r["latency_ms"]
            row += [
                _num(r["index_tokens"]["input"]),
                _num(r["index_tokens"]["output"]),
                _secs(r["index_seconds"]),
                f"{(q['input'] + q['cached_input']) / n:,.0f} / {(q['output'] + q['cached_output']) / n:,.0f}",
                f"{lat.get('median', 0):,.0f}",
                f"{lat.get('p95', 0):,.0f}",
            ]
            out.append("| " + " | ".join(row) + " |")
        estimated = sum(r["index"].get("llm_seconds_estimated", 0) for r in doc["runs"])
        out.append("")
        out.append(
            "Index tokens and seconds are those of the stages each method reads, whoever built them "
            "(a method is priced as if built alone); the shared chunking and embedding is not in them"
            + (f" (it took {doc['ingest_seconds']:,.0f} s here)" if doc.get("ingest_seconds") else "")
            + "."
            + (f" {estimated:,} chunk extractions' seconds are estimated from the ledger's speed." if estimated else "")
        )
        out.append("")
    for img in images:
        out.append(f"![{Path(img).stem}]({img})")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _quality(run: dict[str, Any], metric: str) -> float | None:
    v = run["recall_at_k"].get("5") if metric == "recall_at_5" else run.get(metric)
    return None if v is None else 100 * v


def plot_frontier(docs: list[dict[str, Any]], path: str | Path, metric: str = "coverage") -> Path:
    """Quality against indexing output tokens, one panel per result file, frontier marked.

    A method run at several settings (a sweep) is one coloured line, each point labelled with
    the setting; a method run once is a labelled point."""
    name = {"coverage": "Coverage", "recall_at_5": "Recall@5", "f1": "F1"}[metric]
    docs = [d for d in docs if any(_quality(r, metric) is not None for r in d["runs"])]
    if not docs:
        hint = (
            " (run eval with --answer)"
            if metric == "f1"
            else " (the dataset names no supporting passages)"
            if metric == "recall_at_5"
            else ""
        )
        raise ResultFileError(f"no run in these files has {name}{hint}")
    plt, ticker = _pyplot(), _ticker()
    fig, axes = plt.subplots(1, len(docs), figsize=(7.2 * len(docs), 5.2), squeeze=False)
    colours = plt.get_cmap("tab10").colors
    for ax, doc in zip(axes[0], docs):
        runs = [r for r in doc["runs"] if _quality(r, metric) is not None]
        pts = [(r["index_tokens"]["output"], _quality(r, metric)) for r in runs]
        families = defaultdict(list)
        for r, p in zip(runs, pts):
            families[r["method"]].append((p, r))
        singles: dict[tuple[float, float], list[str]] = defaultdict(list)  # one label per spot
        for n, (method, members) in enumerate(families.items()):
            colour = colours[n % len(colours)]
            members.sort(key=lambda m: m[0])
            xs, ys = [p[0] for p, _ in members], [p[1] for p, _ in members]
            if len(members) > 1:
                ax.plot(xs, ys, marker="o", ms=5, lw=1.2, color=colour, label=method, zorder=2)
                varied = [k for k in KNOBS if len({str(r["settings"].get(k)) for _, r in members}) > 1]
                for (x, y), r in members:
                    tag = ", ".join(setting_label(k, r["settings"][k]) for k in varied) or r["label"]
                    ax.annotate(tag, (x, y), textcoords="offset points", xytext=(4, -11), fontsize=7, color=colour)
            else:
                ax.scatter(xs, ys, s=36, color=colour, zorder=2)
                singles[(xs[0], round(ys[0], 1))].append(members[0][1]["label"])
        for (x, y), labels in singles.items():
            ax.annotate(", ".join(labels), (x, y), textcoords="offset points", xytext=(6, 3), fontsize=8)
        front = pareto(pts)
        fx, fy = [pts[i][0] for i in front], [pts[i][1] for i in front]
        ax.step(fx + [max(x for x, _ in pts) * 2 + 1], fy + fy[-1:], where="post", color="#d1495b", lw=1, ls="--", zorder=1)
        ax.scatter(fx, fy, s=140, facecolors="none", edgecolors="#d1495b", lw=1.6, zorder=3, label="Pareto frontier")
        top = max([x for x, _ in pts] + [1000])
        ax.set_xscale("symlog", linthresh=1000, linscale=0.6)
        ax.set_xlim(left=-300, right=top * 4)
        ax.xaxis.set_major_locator(ticker.FixedLocator([0] + [10**e for e in range(3, len(str(int(top))) + 1)]))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: "0" if v == 0 else f"{v / 1000:g}k"))
        ys = [y for _, y in pts]
        ax.set_ylim(max(0.0, min(ys) - 8), min(101.0, max(ys) + 6))
        ax.set_xlabel("indexing LLM output tokens (log scale past 1k; 0 = no LLM)")
        ax.set_ylabel(f"{name} % (λ = {', '.join(f'{b:,}' for b in sorted({r['budget'] for r in runs}))} tokens)")
        ax.set_title(f"{doc['dataset']['name']}: {name} vs indexing cost ({doc['dataset']['questions']} questions)", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def sweeps(docs: list[dict[str, Any]]) -> dict[str, dict[str, list[tuple[float, dict]]]]:
    """knob → line label → [(value, run)] for every method run at ≥ 2 values of a knob with
    its other settings equal."""
    out: dict[str, dict[str, list]] = defaultdict(dict)
    for doc in docs:
        for knob in KNOBS:
            groups = defaultdict(list)
            for r in doc["runs"]:
                if knob in r["settings"]:
                    rest = tuple(sorted((k, v) for k, v in r["settings"].items() if k != knob))
                    groups[(r["method"], rest)].append((r["settings"][knob], r))
            lines = {key: line for key, line in groups.items() if len({v for v, _ in line}) >= 2}
            rests = defaultdict(list)
            for method, rest in lines:
                rests[method].append(dict(rest))
            for (method, rest), line in lines.items():
                label = method
                # the same method swept at several other settings: name the ones that differ
                differ = [k for k, v in rest if len({str(r.get(k)) for r in rests[method]}) > 1]
                if differ:
                    label += " (" + ", ".join(setting_label(k, dict(rest)[k]) for k in differ) + ")"
                if len(docs) > 1:
                    label += f" · {doc['dataset']['name']}"
                while label in out[knob]:  # two files of one dataset
                    label += "′"
                out[knob][label] = sorted(line, key=lambda t: t[0])
    return dict(out)


def plot_sweeps(docs: list[dict[str, Any]], path: str | Path, metric: str = "coverage") -> Path | None:
    """Quality against each swept knob, with `text` (when in the same file) as a dashed bar.
    Returns None when no result file holds a sweep."""
    lines = sweeps(docs)
    if not lines:
        return None
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(lines), figsize=(6.0 * len(lines), 4.6), squeeze=False)
    name = {"coverage": "Coverage", "recall_at_5": "Recall@5", "f1": "F1"}[metric]
    for ax, (knob, by_label) in zip(axes[0], lines.items()):
        sym = KNOBS[knob]
        for label, pts in by_label.items():
            pts = [(v, r) for v, r in pts if _quality(r, metric) is not None]
            xs = [v for v, _ in pts]
            ys = [_quality(r, metric) for _, r in pts]
            (line,) = ax.plot(xs, ys, marker="o", label=label)
            for x, y, (_, r) in zip(xs, ys, pts):
                out = r["index_tokens"]["output"]
                ax.annotate(
                    f"{out / 1000:,.0f}k out" if out >= 1000 else f"{out} out",
                    (x, y),
                    textcoords="offset points",
                    xytext=(0, -13),
                    ha="center",
                    fontsize=7,
                    color=line.get_color(),
                )
        budgets = {r["budget"] for pts in by_label.values() for _, r in pts}
        texts = [r for doc in docs for r in doc["runs"] if r["method"] == "text" and _quality(r, metric) is not None]
        if knob != "budget" and len(budgets) == 1:  # the bar at the budget the lines ran at
            ref = next((r for r in texts if r["budget"] in budgets), None)
            if ref is not None:
                ax.axhline(_quality(ref, metric), ls="--", color="#555555", lw=1)
                ax.annotate(
                    f"text (dense, no LLM) at λ = {ref['budget']:,}",
                    (ax.get_xlim()[0], _quality(ref, metric)),
                    textcoords="offset points",
                    xytext=(4, 3),
                    fontsize=8,
                    color="#555555",
                )
        ax.margins(x=0.06, y=0.12)
        ax.set_xlabel(f"{sym} ({knob})" + (" in tokens" if knob == "budget" else ""))
        ax.set_ylabel(f"{name} %")
        ax.set_title(f"{name} vs {sym}; labels: indexing LLM output tokens", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return _save(fig, path)


def write_report(
    paths: list[str | Path], out_dir: str | Path, readme: str | Path | None = None, metric: str = "coverage", block: str = "results"
) -> dict[str, Path]:
    """``report.md``, ``frontier.png`` and (when a file holds a sweep) ``sweep.png`` in
    ``out_dir``; with ``readme``, the Markdown also replaces that file's ``block``."""
    docs = load_results(paths)
    if readme is not None:
        _split_block(Path(readme), block)  # a README without its markers fails before anything is written
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {"frontier": plot_frontier(docs, out_dir / "frontier.png", metric)}
    sweep = plot_sweeps(docs, out_dir / "sweep.png", metric)
    if sweep is not None:
        written["sweep"] = sweep
    images = [p.name for p in written.values()]
    md = out_dir / "report.md"
    md.write_text(markdown(docs, images), encoding="utf-8")
    written["markdown"] = md
    if readme is not None:
        rel = [os.path.relpath(p, Path(readme).resolve().parent) for p in (p.resolve() for p in written.values() if p.suffix == ".png")]
        replace_block(readme, markdown(docs, rel), block)
        written["readme"] = Path(readme)
    return written


def with_block(path: str | Path, text: str, block: str = "results") -> str:
    """The content of ``path`` with ``text`` between its ``block`` markers (which it must
    have, once each), in the file's own line endings."""
    head, tail, nl = _split_block(Path(path), block)
    begin, end = markers(block)
    return f"{head}{begin}{nl}{text.replace(chr(10), nl)}{end}{tail}"


def replace_block(path: str | Path, text: str, block: str = "results") -> None:
    """Put ``text`` between the ``block`` markers of ``path`` (which must have both, once)."""
    body = with_block(path, text, block)
    with open(path, "w", encoding="utf-8", newline="") as f:  # keep the file's line endings
        f.write(body)


def _split_block(path: Path, block: str) -> tuple[str, str, str]:
    """(text before the begin marker, text after the end marker, the file's newline)."""
    begin, end = markers(block)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            body = f.read()
    except FileNotFoundError:
        raise ResultFileError(f"{path}: no such file") from None
    if body.count(begin) != 1 or body.count(end) != 1 or body.index(begin) > body.index(end):
        raise ResultFileError(f"{path} needs exactly one {begin} … {end} block")
    head, rest = body.split(begin)
    return head, rest.split(end)[1], "\r\n" if "\r\n" in body else "\n"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no screen on these machines
    import matplotlib.pyplot as plt

    return plt


def _ticker():
    import matplotlib.ticker

    return matplotlib.ticker


def _save(fig, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    _pyplot().close(fig)
    return path
