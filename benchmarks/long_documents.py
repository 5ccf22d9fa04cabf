"""Long documents: the dev splits' passages packed into real files, indexed, and the same
questions asked as of the passage index (issue #30; docs/benchmarks.md, "Long documents").

    .venv/bin/python benchmarks/long_documents.py                       # PDF, DOCX, EPUB; Coverage; answers on PDF
    .venv/bin/python benchmarks/long_documents.py --splits musique --formats pdf --answers 30 --no-chunk-breaks
    .venv/bin/python benchmarks/long_documents.py --formats pdf --per-page 6 --chunk-tokens 600   # prose pages, smaller ℓ

Each split's passages (``../shared/data/<split>/dev/corpus.jsonl``), in corpus order, are
packed ``--per-doc`` to a document: a **PDF** with ``--per-page`` passages a page (the title
a line above its text), a **DOCX** with each title a heading over its paragraph, an **EPUB**
with each title a chapter heading. The files are indexed like a user's (`edgerag index`),
beside an index of the passages themselves, and every question is asked of both:

* Coverage at λ (the gold answer is in the retrieved context), per method;
* with ``--answers N``: EM / F1 of the default pipeline (``bridge-ppr`` at λ 2,000, the
  evidence reader at 500 tokens, the default model) on the first N questions, on the passage
  index and on the PDFs, and the share of correct PDF answers whose citation names a page
  that holds the answer (``cited page``).

Indexes and files live under ``.edgerag/long/`` and are reused (delete it to start over);
answers are cached in each index's LLM cache. Run it on an idle machine. Prints a table and
writes JSON.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import statistics
import sys
import time
from pathlib import Path

from common import write_result

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from edgerag import EdgeRAG  # noqa: E402
from edgerag.eval.datasets import load_dataset  # noqa: E402
from edgerag.eval.metrics import coverage, exact_match, f1  # noqa: E402

DATA = REPO.parent / "shared" / "data"
SPLITS = ("musique", "2wikimultihopqa", "hotpotqa")
WORK = REPO / ".edgerag" / "long"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
"""Embedded in the PDFs when present (Debian's fonts-dejavu-core): the standard Helvetica holds
Latin-1 only, and a passage's "Łódź" would come back as "ÿódÿ", no fault of the reader."""


def passages(split: str) -> list[dict]:
    with open(DATA / split / "dev" / "corpus.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pack(split: str, fmt: str, per_doc: int, per_page: int) -> tuple[Path, dict[tuple[str, str], str]]:
    """Write the split's passages as ``fmt`` files; returns the folder and, per (file name,
    location), the text there (a PDF page: ``p. 7``; a DOCX or EPUB section: its title)."""
    from tests.docmaker import make_docx, make_epub, make_pdf

    rows = passages(split)
    folder = WORK / split / f"{fmt}-{per_doc}x{per_page}" / "files"
    folder.mkdir(parents=True, exist_ok=True)
    where: dict[tuple[str, str], str] = {}
    for d, i in enumerate(range(0, len(rows), per_doc)):
        group = rows[i : i + per_doc]
        name = f"{split}-{d:03d}.{fmt}"
        path = folder / name
        if fmt == "pdf":
            pages = [group[k : k + per_page] for k in range(0, len(group), per_page)]
            texts = ["\n".join(f"{p['title']}\n{p['text']}" for p in page) for page in pages]
            for n, text in enumerate(texts, 1):
                where[(name, f"p. {n}")] = text
            if not path.exists():
                make_pdf(path, texts, width=110, font=FONT if FONT.exists() else None)
        elif fmt == "docx":
            for p in group:
                where[(name, p["title"])] = where.get((name, p["title"]), "") + " " + p["text"]
            if not path.exists():
                make_docx(path, [x for p in group for x in (("h", 1, p["title"]), ("p", p["text"]))])
        else:
            for p in group:
                where[(name, p["title"])] = where.get((name, p["title"]), "") + " " + p["text"]
            if not path.exists():
                chapters = [(p["title"], f"<h1>{html.escape(p['title'])}</h1><p>{html.escape(p['text'])}</p>") for p in group]
                make_epub(path, f"{split} {d}", chapters)
    return folder, where


def open_index(path: Path, files: list[Path], chunk_breaks: bool, chunk_tokens: int | None = None) -> tuple[EdgeRAG, float]:
    rag = EdgeRAG(path, progress=False, chunk_breaks=chunk_breaks, **({"chunk_tokens": chunk_tokens} if chunk_tokens else {}))
    t = time.perf_counter()
    report = rag.insert(files)
    seconds = time.perf_counter() - t if report.docs_added else 0.0
    if report.skipped:
        print(f"  skipped while indexing {path.name}: {report.skipped[:3]}", file=sys.stderr)
    return rag, seconds


def coverage_grid(rag: EdgeRAG, questions, methods: list[str], budgets: list[int]) -> dict[str, dict[int, float]]:
    out: dict[str, dict[int, float]] = {}
    for m in methods:
        out[m] = {}
        for b in budgets:
            hits = [coverage(q.answers, rag.retrieve(q.question, method=m, budget=b).text()) for q in questions]
            out[m][b] = round(100 * sum(hits) / len(hits), 1)
    return out


_PAGE = re.compile(r"^(?P<file>.+?) (?:p\. (?P<page>\d+)|§ (?P<section>.+))$")


def cited_right(ans, where: dict[tuple[str, str], str], answers: list[str]) -> bool | None:
    """Does a citation of the answer (cited or matched) name a location whose text holds the
    gold answer? None when no citation names a location."""
    labels = [c.where for c in ans.citations if c.how in ("cited", "matched") and c.where]
    if not labels:
        return None
    for label in labels:
        m = _PAGE.match(label)
        if not m:
            continue
        key = (m["file"], f"p. {m['page']}" if m["page"] else m["section"].split(" › ")[-1])
        if coverage(answers, where.get(key, "")):
            return True
    return False


def answer_rows(rag: EdgeRAG, questions, where=None) -> list[dict]:
    rows = []
    for q in questions:
        t0 = time.perf_counter()
        ctx = rag.retrieve(q.question, budget=2000)
        ans = rag.answer(q.question, ctx)
        row = {
            "id": q.id,
            "answer": ans.short,
            "em": exact_match(ans.short, q.answers),
            "f1": f1(ans.short, q.answers),
            "seconds": time.perf_counter() - t0,
            "cached": ans.cached,
            "where": [c.where for c in ans.citations if c.how in ("cited", "matched")],
        }
        if where is not None:
            row["cited_right"] = cited_right(ans, where, q.answers)
        rows.append(row)
    return rows


def summary(rows: list[dict]) -> dict:
    n = len(rows)
    out = {"n": n, "em": round(100 * sum(r["em"] for r in rows) / n, 1), "f1": round(100 * statistics.mean(r["f1"] for r in rows), 1)}
    right = [r for r in rows if r["em"] and "cited_right" in r]
    if right:
        out["correct"] = len(right)
        out["cited_page"] = round(100 * sum(bool(r["cited_right"]) for r in right) / len(right), 1)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--splits", default=",".join(SPLITS))
    ap.add_argument("--formats", default="pdf,docx,epub")
    ap.add_argument("--methods", default="text,bridge,bridge-ppr")
    ap.add_argument("--budgets", default="2000,4000")
    ap.add_argument("--per-doc", type=int, default=40)
    ap.add_argument("--per-page", type=int, default=1)
    ap.add_argument("--answers", type=int, default=0, help="answer the first N questions (passage index and PDFs)")
    ap.add_argument("--no-chunk-breaks", action="store_true", help="index the files with chunk_breaks off (the ablation)")
    ap.add_argument("--chunk-tokens", type=int, default=None, help="ℓ of the files' indexes (default: the setting's)")
    ap.add_argument("--out", default="benchmarks/results/long_documents.json")
    args = ap.parse_args()
    methods, budgets = args.methods.split(","), [int(b) for b in args.budgets.split(",")]
    breaks = not args.no_chunk_breaks
    result: dict = {
        "per_doc": args.per_doc,
        "per_page": args.per_page,
        "chunk_breaks": breaks,
        "chunk_tokens": args.chunk_tokens,
        "splits": {},
    }
    table = []
    for split in args.splits.split(","):
        ds = load_dataset(DATA / split / "dev")
        res: dict = {}
        rag, secs = open_index(WORK / split / "passages", [ds.corpus], True)
        res["passages"] = {
            "index_seconds": secs,
            "chunks": rag.stats()["counts"]["chunks"],
            "coverage": coverage_grid(rag, ds.questions, methods, budgets),
        }
        if args.answers:
            rows = answer_rows(rag, ds.questions[: args.answers])
            res["passages"]["answers"] = {**summary(rows), "rows": rows}
        rag.close()
        for fmt in args.formats.split(","):
            folder, where = pack(split, fmt, args.per_doc, args.per_page)
            files = sorted(folder.iterdir())
            name = ("index" if breaks else "index-nobreaks") + (f"-l{args.chunk_tokens}" if args.chunk_tokens else "")
            ix = WORK / split / f"{fmt}-{args.per_doc}x{args.per_page}" / name
            rag, secs = open_index(ix, files, breaks, args.chunk_tokens)
            res[fmt] = {
                "files": len(files),
                "index_seconds": secs,
                "chunks": rag.stats()["counts"]["chunks"],
                "coverage": coverage_grid(rag, ds.questions, methods, budgets),
            }
            if args.answers and fmt == "pdf":
                rows = answer_rows(rag, ds.questions[: args.answers], where)
                res[fmt]["answers"] = {**summary(rows), "rows": rows}
            rag.close()
        result["splits"][split] = res
        for kind, r in res.items():
            a = r.get("answers") or {}
            cells = [f"{r['coverage'][m][b]:.1f}" for m in methods for b in budgets]
            table.append(
                f"| {split} | {kind} | {r['chunks']} | "
                + " | ".join(cells)
                + f" | {a.get('em', '')} | {a.get('f1', '')} | {a.get('cited_page', '')} |"
            )
        print("\n".join(table[-len(res) :]), flush=True)
    head = "| split | index | chunks | " + " | ".join(f"{m} @{b}" for m in methods for b in budgets) + " | EM | F1 | cited page % |"
    print("\n" + head + "\n|" + "---|" * (head.count("|") - 1) + "\n" + "\n".join(table))
    write_result(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
