"""How edgerag grows with the corpus (issue #32): index and query corpora of 10,000, 30,000 and
100,000 passages of real text on one machine. Writes JSON and prints a Markdown table.

    .venv/bin/python benchmarks/scale.py --sizes 10000            # one size (resumable)
    .venv/bin/python benchmarks/scale.py --sizes 10000,30000,100000 --out benchmarks/results/scale.json

The corpora: every distinct passage of ``--data`` (the dev, small and paper corpora of the
three datasets, about 10,000), in a fixed order; beyond those, passages made by recombining
real sentences of them (3–6 sentences of different passages, a fixed seed), titled after the
first. A larger corpus is a superset of a smaller one.

Each size is indexed once into ``--work``/index-N (a size already indexed is reused, so a long
run can be stopped and started again), then each phase runs in a fresh Python so that its
peak memory is its own:

* **index** — seconds, texts embedded and passages/s, the index's size on disk, peak RSS (with
  the defaults: onnx-int8, chunk vectors only; sub-chunks and sentences wait for first use);
* **pieces** — embedding every sub-chunk and sentence left out (pieces.py), what the first
  `keyword` (KET-RAG, G2ConS, KG) query or `edgerag build` of such a method pays once: seconds,
  texts, peak RSS;
* **links** — the link graph behind `bridge` and `bridge-ppr`, built once per index: the seconds
  its build took (kept in its stage record), the peak RSS of a process that builds or loads it;
* **query** — `text`, `bridge-ppr` and `keyword` at λ 2,000 over 200 dev questions (the
  first of each split in turn): p50 / p95 milliseconds after 5 warm-up queries, peak RSS
  (`keyword` in a process of its own after the pieces phase: ``rss_keyword``); and
  `bridge-ppr@eps=0`, its walk iterated over the whole graph as before the local push
  (``bridge_ppr_eps``), in the same process.

With two sizes or more, the growth exponent of each cost (the slope of log cost on log size)
is printed beside it: 1.0 grows like n, below 1.1 is no worse than n log n at these sizes.
Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import write_result

METHODS = ("text", "bridge-ppr", "bridge-ppr@eps=0", "keyword")  # table columns
QUESTIONS = 200
WARMUP = 5
SPLITS = ("musique", "hotpotqa", "2wikimultihopqa")


def peak_rss() -> int:
    """This process's peak resident memory in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def real_passages(data: Path) -> list[dict]:
    """Every distinct passage of the corpora under ``data``, in a fixed order."""
    seen: set[str] = set()
    out = []
    for path in sorted(data.glob("*/*/corpus.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            key = " ".join(r["text"].split())
            if key and key not in seen:
                seen.add(key)
                out.append({"id": r["id"], "title": r.get("title", ""), "text": r["text"]})
    return out


def corpus(data: Path, n: int, path: Path) -> Path:
    """The corpus of ``n`` passages (the module doc), written once to ``path``."""
    if path.exists():
        return path
    from edgerag.text.sentences import split_sentences

    real = real_passages(data)
    rows = real[:n]
    rng = random.Random(32)
    sentences = [(p["title"], s) for p in real for s in split_sentences(p["text"]) if len(s.split()) >= 5]
    for k in range(len(rows), n):
        picked = rng.sample(sentences, rng.randint(3, 6))
        rows.append({"id": f"mix-{k}", "title": f"{picked[0][0]} (mix {k})", "text": " ".join(s for _, s in picked)})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def questions(data: Path) -> list[str]:
    per = [[json.loads(x)["question"] for x in (data / s / "dev" / "questions.jsonl").read_text().splitlines()] for s in SPLITS]
    out = [q for group in zip(*per, strict=False) for q in group]
    return out[:QUESTIONS]


def phase_index(index: Path, corpus_path: Path) -> dict:
    from edgerag import EdgeRAG, Settings

    t0 = time.perf_counter()
    rag = EdgeRAG(index, Settings(progress=sys.stderr.isatty()))
    report = rag.insert([corpus_path])
    seconds = time.perf_counter() - t0
    counts = rag.index.counts()
    rag.close()
    size = sum(f.stat().st_size for f in index.rglob("*") if f.is_file())
    return {
        "seconds": seconds,
        "docs_added": report.docs_added,
        "counts": counts,
        "texts": report.texts_embedded,
        "texts_per_s": report.texts_embedded / seconds,
        "passages_per_s": report.docs_added / seconds,
        "bytes": size,
        "rss": peak_rss(),
    }


def phase_pieces(index: Path) -> dict:
    from edgerag import EdgeRAG
    from edgerag.embed.pieces import embed_missing

    rag = EdgeRAG(index)
    t0 = time.perf_counter()
    done = embed_missing(rag.index, rag.embedder, progress=sys.stderr.isatty())
    seconds = time.perf_counter() - t0
    rag.close()
    return {"seconds": seconds, "texts": done["embedded"], "rss": peak_rss()}


def phase_links(index: Path) -> dict:
    from edgerag import EdgeRAG
    from edgerag.graph.links import build_links

    rag = EdgeRAG(index)
    rec = build_links(rag.index, rag.settings)  # built once per index; its record keeps the seconds it took
    rag.close()
    return {"seconds": rec["seconds"], "rss": peak_rss()}


def phase_query(index: Path, data: Path, methods: list[str]) -> dict:
    from edgerag import EdgeRAG

    rag = EdgeRAG(index)
    qs = questions(data)
    out = {}
    base = rag.settings
    for label in methods:
        method, _, eps = label.partition("@eps=")  # bridge-ppr@eps=0: the walk over the whole graph
        rag.settings = base.replace(bridge_ppr_eps=float(eps)) if eps else base
        for q in qs[:WARMUP]:
            rag.retrieve(q, method=method, budget=2000)
        ms = []
        for q in qs:
            t = time.perf_counter()
            rag.retrieve(q, method=method, budget=2000)
            ms.append(1000 * (time.perf_counter() - t))
        ms.sort()
        out[label] = {"p50_ms": statistics.median(ms), "p95_ms": ms[int(0.95 * (len(ms) - 1))]}
    rag.close()
    out["rss"] = peak_rss()
    return out


def child(phase: str, *args: str) -> dict:
    """Run one phase in a fresh Python; its last stdout line is its JSON result."""
    out = subprocess.run([sys.executable, __file__, "--phase", phase, *args], stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def exponent(sizes: list[int], costs: list[float]) -> float | None:
    """Least-squares slope of log cost on log size."""
    pts = [(math.log(n), math.log(c)) for n, c in zip(sizes, costs, strict=True) if c and c > 0]
    if len(pts) < 2:
        return None
    mx, my = statistics.mean(x for x, _ in pts), statistics.mean(y for _, y in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def table(rows: list[dict]) -> str:
    head = (
        "| passages | texts embedded | index s | passages/s | pieces s | disk MB | index RSS MB | links s | "
        + " | ".join(f"{m} p50 / p95 ms" for m in METHODS)
        + " | query RSS MB |"
    )
    lines = [head, "|" + "---:|" * (9 + len(METHODS))]
    rows = [r for r in rows if "query" in r]
    for r in rows:
        ix, q = r["index"], r["query"]
        lines.append(
            f"| {r['passages']:,} | {ix['texts']:,} | {ix['seconds']:.0f} | {ix['docs_added'] / ix['seconds']:.1f} | "
            f"{format(r['pieces']['seconds'], '.0f') if 'pieces' in r else '—'} | {ix['bytes'] / 2**20:.0f} | "
            f"{ix['rss'] / 2**20:.0f} | {r['links']['seconds']:.1f} | "
            + " | ".join(f"{q[m]['p50_ms']:.0f} / {q[m]['p95_ms']:.0f}" if m in q else "—" for m in METHODS)
            + f" | {q['rss'] / 2**20:.0f} |"
        )
    if len(rows) >= 2:

        def fit(cost) -> float | None:  # over the rows that have the cost
            pts = [(r["passages"], cost(r)) for r in rows if cost(r) is not None]
            return exponent([n for n, _ in pts], [c for _, c in pts])

        fits = {
            "index seconds": fit(lambda r: r["index"]["seconds"] * r["passages"] / r["index"]["docs_added"]),  # a resumed run added fewer
            "pieces seconds": fit(lambda r: r.get("pieces", {}).get("seconds")),
            "links seconds": fit(lambda r: r["links"]["seconds"]),
            **{f"{m} p50": fit(lambda r, m=m: r["query"].get(m, {}).get("p50_ms")) for m in METHODS},
            "query RSS": fit(lambda r: r["query"]["rss"]),
        }
        lines += ["", "growth exponents: " + ", ".join(f"{k} {v:.2f}" for k, v in fits.items() if v is not None)]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--sizes", default="10000,30000,100000")
    ap.add_argument("--work", default=".edgerag/scale")
    ap.add_argument("--out", default="benchmarks/results/scale.json")
    ap.add_argument("--phase", choices=["index", "pieces", "links", "query"], help=argparse.SUPPRESS)
    ap.add_argument("--index", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", help=argparse.SUPPRESS)
    ap.add_argument("--methods", default=",".join(METHODS), help=argparse.SUPPRESS)
    ap.add_argument("--no-pieces", action="store_true", help="stop before the pieces phase (and keyword): a later run adds them")
    ap.add_argument("--index-only", action="store_true", help="index the sizes and stop: a later run measures them (run in steps)")
    ap.add_argument(
        "--remeasure",
        default="",
        help="phases to measure again on the kept indexes after a code change, e.g. query,query_pieces "
        "(links and pieces are built once per index: re-index to time them again)",
    )
    args = ap.parse_args()
    data = Path(args.data)
    if args.phase:
        index = Path(args.index)
        result = {
            "index": lambda: phase_index(index, Path(args.corpus)),
            "pieces": lambda: phase_pieces(index),
            "links": lambda: phase_links(index),
            "query": lambda: phase_query(index, data, args.methods.split(",")),
        }[args.phase]()
        print(json.dumps(result))
        return 0
    out = Path(args.out)
    kept = {r["passages"]: r for r in (json.loads(out.read_text())["rows"] if out.exists() else [])}
    work = Path(args.work)
    for n in (int(s) for s in args.sizes.split(",")):
        corpus_path = corpus(data, n, work / f"corpus-{n}.jsonl")
        index = work / f"index-{n}"
        row = kept.setdefault(n, {"passages": n})
        if row.get("index") is None or not (index / "manifest.json").exists():  # a stopped run resumes: what was committed stays
            for name in ("links", "query", "pieces", "query_pieces"):  # measured on the index this one replaces
                row.pop(name, None)
            row["index"] = child("index", "--index", str(index), "--corpus", str(corpus_path), "--data", str(data))
            write_result(out, {"benchmark": "scale", "rows": sorted(kept.values(), key=lambda r: r["passages"])})
        if args.index_only:
            continue
        # every phase is saved as it ends, the ones that need no sub-chunk or sentence vector first
        # (a stopped run picks up at the first phase missing)
        for name in filter(None, args.remeasure.split(",")):
            row.pop(name, None)
        on = ("--index", str(index), "--data", str(data))
        steps = [
            ("links", ("links", *on)),
            ("query", ("query", *on, "--methods", "text,bridge-ppr,bridge-ppr@eps=0")),
            ("pieces", ("pieces", *on)),
            ("query_pieces", ("query", *on, "--methods", "keyword")),
        ]
        for name, args_of in steps[:2] if args.no_pieces else steps:
            if name not in row:
                row[name] = child(*args_of)
                write_result(out, {"benchmark": "scale", "rows": sorted(kept.values(), key=lambda r: r["passages"])})
        if "query_pieces" in row and "keyword" not in row["query"]:
            row["query"]["keyword"] = row["query_pieces"]["keyword"]
            row["query"]["rss_keyword"] = row["query_pieces"]["rss"]
        print(f"{n:,} passages: {json.dumps(row)}", flush=True)
        write_result(out, {"benchmark": "scale", "rows": sorted(kept.values(), key=lambda r: r["passages"])})
    print(table(sorted(kept.values(), key=lambda r: r["passages"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
