"""Answers on an edge CPU: EM, F1, Coverage, latency and prompt tokens of the reader, per
retriever, λ, answer mode and reader, on the three dev splits. Writes JSON and prints a
Markdown table (docs/benchmarks.md, "Answers on an edge CPU").

    .venv/bin/python benchmarks/answers.py      # every default: bridge-ppr, λ 12,000, auto, evidence (500 tokens), 15 s
    .venv/bin/python benchmarks/answers.py --threads 1 --limit 20   # a slower host, stood in for by one llama.cpp thread
    .venv/bin/python benchmarks/answers.py --methods text,bridge,bridge-ppr --budgets 1000,2000,4000 \
        --readers evidence,passages --answer-budget 1000 --limit 100

For each question: retrieve with the method at λ, let the model read at most
``--answer-budget`` tokens of that context (evidence sentences or passages, answer/plan.py) and
answer in the given mode. Reported per row:

* EM, F1 — SQuAD-normalised, max over the gold answers;
* Coverage λ — the gold answer is in the retrieved context; ``read`` — in what the model read;
* EM | read — EM over the questions whose answer the model had in front of it: the reader's
  own share of the work (the issue's target is ≥ 50 %);
* closed EM — right answers / questions among the closed ones (a comparison "…, A or B?" or
  yes/no, `candidates.closed_choices`); the JSON splits every figure by closed and open;
* choosable — ``choose`` only (JSON): the gold answer is one of the candidate strings offered;
* latency p50/p95 — seconds from the question to the finished answer (retrieval, prompt,
  generation), fresh calls only; a rerun answered from the LLM cache reuses the seconds of the
  run that computed it (kept in the JSON), so reruns are free and still report real latency;
* prompt tokens — mean, in the model's own tokens;
* calls / q — model calls per question (cached ones too); in code — the share answered with no
  model call (a comparison decided in code, answer/compare.py); hopped — the share whose
  question was rewritten through a known relation in code (answer/hops.py); steps / q — reads
  per question (a chain question answered hop by hop counts each step, answer/chain.py; any
  other counts 1); hop by hop — the share answered so (``--no-chain``: every question read
  whole, the ablation);
* embedded / q (JSON) — texts the embedder encoded for the question: the question, its steps,
  and the sentences of the passages read that no earlier question embedded (pieces.py keeps
  them per process);
* prompt / gen tok/s — the answering model's speeds on this machine after the run (speeds.py:
  the median of its recent calls), the figures the time budget was planned with; with
  ``--answer-seconds`` (default: the setting's 15 s; ``none`` for no budget) and ``--threads``
  (llama.cpp's threads: fewer stand in for a slower host) in the row's key;
* per question type (second table): EM and read per type, from the split's own labels
  (MuSiQue's 2/3/4-hop ids, 2Wiki's comparison / bridge-comparison → comparison and
  compositional / inference → bridge; HotpotQA, whose files carry no type: a question
  `comparison_kind` finds a comparison in → comparison, else bridge);
* per comparison kind (third table): date, number, place, category, yes/no (answer/compare.py
  `parse_comparison`; ``other``: a closed question it does not parse), with the share decided
  in code;
* per post-rule of the reply (fourth table; answer/read.py `Answer.rules`: option, ran on,
  said of, echo, year, place, name): the replies it changed, and how many it turned from wrong
  to right and from right to wrong (issue #49: a rule that breaks more than it mends goes).

Run it on an idle machine: a llama.cpp call next to another job is 5–7× slower.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.answer.candidates import closed_choices
from edgerag.answer.comparison_question import parse_comparison
from edgerag.eval.datasets import load_dataset
from edgerag.eval.metrics import coverage, exact_match, f1, normalize, truthfulness
from edgerag.eval.runner import ensure_indexed

SPLITS = ("musique", "2wikimultihopqa", "hotpotqa")


def question_types(path: Path) -> dict[str, str]:
    """Each question's type (the module doc), by id, from the split's questions.jsonl."""
    out = {}
    with open(path / "questions.jsonl") as f:
        for line in f:
            q = json.loads(line)
            label = (q.get("meta") or {}).get("type")
            if q["id"][1:4] == "hop":  # MuSiQue: 2hop__…, 3hop1__…, 4hop3__…
                out[q["id"]] = f"{q['id'][0]}-hop"
            elif label:
                out[q["id"]] = "comparison" if "comparison" in label else "bridge"
            else:
                out[q["id"]] = "comparison" if comparison_kind(q["question"]) != "-" else "bridge"
    return out


KINDS = {"date": "date", "quantity": "number", "place": "place", "same": "yes/no", "both": "category", "common": "category"}


def comparison_kind(question: str) -> str:
    """The comparison a question asks (answer/compare.py `parse_comparison`): date, number,
    place, category (both X / in common) or yes/no (the same X); ``other`` for a closed
    question it does not parse ("…, A or B?" or yes/no), ``-`` for no comparison."""
    q = parse_comparison(question)
    if q is not None:
        return KINDS[q.kind]
    choices = closed_choices(question)
    return "-" if not choices else "yes/no" if choices == ["yes", "no"] else "other"


def kind_of(question: str) -> str:
    """``closed`` (a comparison "…, A or B?" or yes/no: `candidates.closed_choices`) or ``open``."""
    return "closed" if closed_choices(question) else "open"


def runs_by_key(path: Path) -> dict[tuple, dict]:
    """A result file's runs by what they measured: split, method, λ, mode, reader, answer budget,
    hops, chain, time budget, threads, whole-read budget (older files: ``whole_hops``) and the
    LLM-made cores' β and κ where given."""
    previous = json.loads(path.read_text()) if path.exists() else {}
    return {
        (
            r["split"],
            r["method"],
            r["budget"],
            r["mode"],
            r.get("reader", "passages"),
            r.get("answer_budget", r["budget"]),
            r.get("hops", True),
            r.get("chain", False),
            r.get("answer_seconds"),
            r.get("threads"),
            r.get("whole_budget", r.get("whole_hops", 1) * r.get("answer_budget", r["budget"])),
            r.get("beta"),
            r.get("kappa"),
        ): r
        for r in previous.get("runs", [])
    }


def run(rag: EdgeRAG, dataset, method: str, budget: int, mode: str, before: dict[str, dict]) -> list[dict]:
    rows = []
    types = question_types(dataset.path)
    for q in dataset.questions:
        t0 = time.perf_counter()
        calls = rag.answer_llm.spent["calls"]  # the model itself loads on its first call, not here
        embedded = rag.embedder.texts_embedded
        ctx = rag.retrieve(q.question, method=method, budget=budget)
        plan = rag.plan_answer(q.question, ctx, mode=mode)
        ans = rag.answer(q.question, ctx, plan=plan)
        seconds = time.perf_counter() - t0
        if ans.cached:  # the LLM cache answered: the latency is the one measured when it was computed
            seconds = before.get(q.id, {}).get("seconds")
        read = " ".join(u.text for u in ans.context.units)  # a chain's: what every step read
        row = {
            "id": q.id,
            "question": q.question,
            "gold": q.answers[0],
            "kind": kind_of(q.question),
            "type": types.get(q.id, "bridge"),
            "comparison": comparison_kind(q.question),
            "compared": plan.decision is not None or (plan.comparison is not None and "compared: no" not in ans.reason),
            "model_calls": rag.answer_llm.spent["calls"] - calls,
            "hopped": plan.hop is not None,
            "chained": bool(ans.steps),
            "steps": len(ans.steps) or 1,
            "trace": [f"{st['question']} → {st['answer']}" for st in ans.steps],
            "answer": ans.short,
            "abstained": ans.abstained,
            "em": exact_match(ans.short, q.answers),
            "f1": f1(ans.short, q.answers),
            "in_context": coverage(q.answers, read),
            "in_retrieved": coverage(q.answers, " ".join(u.text for u in ctx.units)),
            "prompt_tokens": ans.tokens.get("input", 0) + ans.tokens.get("cached_input", 0) if ans.steps else plan.prompt_tokens,
            "units": len(plan.units),
            "seconds": seconds,
            "cached": ans.cached,
            "embedded": rag.embedder.texts_embedded - embedded,
            "rules": [
                {**r, "right_before": exact_match(r["before"], q.answers), "right_after": exact_match(r["after"], q.answers)}
                for r in ans.rules
            ],
        }
        if plan.choices is not None:
            gold = {normalize(a) for a in q.answers}
            row["choosable"] = any(normalize(c) in gold for c in plan.choices)
            row["choices"] = len(plan.choices)
        rows.append(row)
    return rows


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    inside = [r for r in rows if r["in_context"]]
    secs = sorted(r["seconds"] for r in rows if r["seconds"] is not None)
    out = {
        "questions": n,
        "em": 100 * sum(r["em"] for r in rows) / n,
        "f1": 100 * sum(r["f1"] for r in rows) / n,
        "coverage": 100 * len(inside) / n,
        "retrieved_coverage": 100 * sum(r.get("in_retrieved", r["in_context"]) for r in rows) / n,
        "em_in_context": 100 * sum(r["em"] for r in inside) / max(len(inside), 1),
        "prompt_tokens": statistics.mean(r["prompt_tokens"] for r in rows),
        "latency_p50": statistics.median(secs) if secs else None,
        "latency_p95": secs[min(len(secs) - 1, int(0.95 * len(secs)))] if secs else None,
        "timed": len(secs),
        "abstained": sum(r.get("abstained", False) for r in rows),
        "truthfulness": 100 * truthfulness([r["em"] for r in rows], [r.get("abstained", False) for r in rows]),
    }
    for kind in ("closed", "open"):
        of = [r for r in rows if r.get("kind") == kind]
        inside = [r for r in of if r["in_context"]]
        out[kind] = {
            "questions": len(of),
            "em": sum(r["em"] for r in of),
            "in_context": len(inside),
            "em_in_context": sum(r["em"] for r in inside),
        }
    if rows and "model_calls" in rows[0]:
        out["model_calls"] = statistics.mean(r["model_calls"] for r in rows)
        out["in_code"] = 100 * sum(r["model_calls"] == 0 for r in rows) / n
        out["hopped"] = 100 * sum(r["hopped"] for r in rows) / n
        out["steps"] = statistics.mean(r.get("steps", 1) for r in rows)
        out["chained"] = 100 * sum(r.get("chained", False) for r in rows) / n
        out["embedded"] = statistics.mean(r.get("embedded", 0) for r in rows)
        out["types"] = {
            t: {
                "questions": len(of),
                "em": 100 * sum(r["em"] for r in of) / len(of),
                "read": 100 * sum(r["in_context"] for r in of) / len(of),
            }
            for t in sorted({r["type"] for r in rows})
            for of in [[r for r in rows if r["type"] == t]]
        }
        out["comparisons"] = {
            k: {
                "questions": len(of),
                "em": 100 * sum(r["em"] for r in of) / len(of),
                "decided_in_code": 100 * sum(r.get("compared", False) for r in of) / len(of),
            }
            for k in sorted({r.get("comparison", "-") for r in rows} - {"-"})
            for of in [[r for r in rows if r.get("comparison") == k]]
        }
    out["rules"] = rule_counts(rows)
    if rows and "choosable" in rows[0]:
        out["choosable"] = 100 * sum(r["choosable"] for r in rows) / n
    return out


def rule_counts(rows: list[dict]) -> dict[str, dict[str, int]]:
    """Per post-rule of the reply (answer/read.py `Answer.rules`: option, ran on, said of, echo,
    year, place, name): the replies it changed, how many it turned right (mended) and how many
    it turned wrong (broke), by exact match against the gold answers."""
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        for r in row.get("rules", []):
            c = out.setdefault(r["rule"], {"changed": 0, "mended": 0, "broke": 0})
            c["changed"] += 1
            c["mended"] += int(r["right_after"] and not r["right_before"])
            c["broke"] += int(r["right_before"] and not r["right_after"])
    return out


def copy_llm_cache(source, target) -> None:
    """The LLM-call cache of ``source`` into ``target``: it is keyed by model, prompt and
    sampling, so an equal prompt gets the answer it got there, and only new prompts run."""
    with source.tables.read() as r, target.tables.write() as w:
        for k, v in source.tables.items(r, "llm_cache"):
            target.tables.put(w, "llm_cache", k, v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--splits", default=",".join(SPLITS))
    ap.add_argument("--methods", default="bridge-ppr")
    ap.add_argument("--budgets", default=str(Settings().budget), help="λ (default: the setting's, what a user gets)")
    ap.add_argument("--modes", default="auto")
    ap.add_argument("--readers", default="evidence", help="evidence, passages or both (answer/plan.py)")
    ap.add_argument("--limit", type=int, default=100, help="first N questions of each dev split")
    ap.add_argument("--answer-budget", type=int, default=Settings().answer_budget, help="tokens the model reads (at most λ)")
    ap.add_argument("--model", help="GGUF path or known name of the answering model (default: answer_model auto, see docs/settings.md)")
    ap.add_argument(
        "--answer-seconds",
        default=str(Settings().answer_seconds),
        help="the answer's time budget in seconds, or none (default: the setting's)",
    )
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: every core); fewer stand in for a slower host")
    ap.add_argument("--no-hops", action="store_true", help="no comparisons or relation hops in code (answer_hops off): the ablation")
    ap.add_argument("--no-chain", action="store_true", help="read every question whole (answer_chain off): the ablation")
    ap.add_argument("--no-check", action="store_true", help="keep the model's short answer unchecked (answer_check off): the ablation")
    ap.add_argument(
        "--whole-budget",
        type=int,
        default=None,
        help="tokens a question read whole in one read may read, time permitting (default: the "
        "setting answer_whole_budget's auto, by the answering model's size)",
    )
    ap.add_argument("--extract-model", help="the model whose graph ket/g2cons/terag/lightrag-* read (default: extract_model auto)")
    ap.add_argument("--beta", type=float, help="β of KET-RAG's core for ket/skeleton/lightrag-* (default: the setting's)")
    ap.add_argument("--kappa", type=float, help="κ of G2ConS's concept core for g2cons (default: the setting's)")
    ap.add_argument("--index-suffix", default="", help="answer from .edgerag/bench/<split>-dev<SUFFIX> (another backend's index)")
    ap.add_argument(
        "--cache-from",
        metavar="SUFFIX",
        help="first copy the LLM cache of .edgerag/bench/<split>-dev<SUFFIX>: a prompt asked there is not computed again",
    )
    ap.add_argument(
        "--seconds-from",
        metavar="RESULT.json",
        help="an answer the LLM cache serves takes the seconds measured when it was computed in the same run "
        "(split, settings, model) of this file too, not only of --out's (a cache copied from another run)",
    )
    ap.add_argument("--out", default="benchmarks/results/answers.json")
    args = ap.parse_args()
    seconds = None if args.answer_seconds.lower() in ("none", "off") else float(args.answer_seconds)
    out = Path(args.out)
    kept = runs_by_key(out)
    elsewhere = runs_by_key(Path(args.seconds_from)) if args.seconds_from else {}
    runs = []
    for split in args.splits.split(","):
        dataset = load_dataset(f"{args.data}/{split}/dev", limit=args.limit)
        rag = EdgeRAG(
            f".edgerag/bench/{split}-dev{args.index_suffix}",
            Settings(
                progress=sys.stderr.isatty(),
                answer_model=args.model or "auto",
                answer_seconds=seconds,
                llm_threads=args.threads,
                answer_whole_budget=args.whole_budget,
                extract_model=args.extract_model or "auto",
                **{k: v for k, v in (("beta", args.beta), ("kappa", args.kappa)) if v is not None},
            ),
        )
        ensure_indexed(rag, dataset)
        if args.cache_from is not None:
            copy_llm_cache(EdgeRAG(f".edgerag/bench/{split}-dev{args.cache_from}").index, rag.index)
        for method in args.methods.split(","):
            for budget in (int(b) for b in args.budgets.split(",")):
                for mode, reader in ((m, r) for m in args.modes.split(",") for r in args.readers.split(",")):
                    rag.configure(
                        answer_budget=min(budget, args.answer_budget),
                        answer_reader=reader,
                        answer_hops=not args.no_hops,
                        answer_chain=not args.no_chain,
                        answer_check=not args.no_check,
                    )
                    key = (
                        split,
                        method,
                        budget,
                        mode,
                        reader,
                        min(budget, args.answer_budget),
                        not args.no_hops,
                        not args.no_chain,
                        seconds,
                        args.threads,
                        rag.whole_budget,
                        args.beta,
                        args.kappa,
                        not args.no_check,
                    )
                    # a rerun reuses the seconds measured when an answer was computed: under this key, or
                    # (the same call, read whole) under the key without the chain
                    whole = key[:7] + (False,) + key[8:]
                    model = rag.answer_llm.llm.path.name
                    before = {
                        r["id"]: r
                        for runs_of in (elsewhere, kept)
                        for k in (whole, key)
                        if runs_of.get(k, {}).get("model", model) == model
                        for r in runs_of.get(k, {}).get("rows", [])
                        if r.get("seconds") is not None
                    }
                    t0 = time.perf_counter()
                    rows = run(rag, dataset, method, budget, mode, before)
                    s = summarise(rows)
                    speeds = rag.answer_llm.speeds()
                    s["speeds"] = {"prompt": speeds.prompt, "generation": speeds.generation, "calls": speeds.calls} if speeds else None
                    print(
                        f"{split:<16}{method:<12}{budget:>6} {mode:<7}{reader:<9} EM {s['em']:5.1f}  F1 {s['f1']:5.1f}  "
                        f"cov {s['coverage']:5.1f}  EM|ctx {s['em_in_context']:5.1f}  "
                        f"p50 {s['latency_p50'] or 0:5.1f}s p95 {s['latency_p95'] or 0:5.1f}s  "
                        f"({speeds.summary() if speeds else 'speeds not measured'}; {time.perf_counter() - t0:.0f}s)",
                        flush=True,
                    )
                    kept[key] = {
                        "split": split,
                        "method": method,
                        "budget": budget,
                        "mode": mode,
                        "reader": reader,
                        "hops": not args.no_hops,
                        "chain": not args.no_chain,
                        "check": not args.no_check,
                        "answer_budget": min(budget, args.answer_budget),
                        "answer_seconds": seconds,
                        "whole_budget": rag.whole_budget,
                        "threads": args.threads,
                        **{k: v for k, v in (("beta", args.beta), ("kappa", args.kappa)) if v is not None},
                        **({"extract_model": rag.extract_llm.llm.path.name} if args.extract_model else {}),
                        "model": rag.answer_llm.llm.path.name,
                        "summary": s,
                        "rows": rows,
                    }
                    runs.append(kept[key])
                    # written after every run, so a long run stopped halfway keeps what it measured
                    merged = [r for k, r in kept.items() if r not in runs] + runs
                    write_result(out, {"benchmark": "answers", "limit": args.limit, "runs": merged})
        rag.close()
    print()
    print(table(runs))
    return 0


def table(runs: list[dict]) -> str:
    lines = [
        "| split | method | λ | reader (tokens) | EM | F1 | abstained | CRAG | Coverage λ | read | EM \\| read | closed EM | p50 s | p95 s "
        "| prompt tokens | calls / q | in code | hopped | steps / q | hop by hop | prompt / gen tok/s |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    types, kinds = [], []
    for r in runs:
        s = r["summary"]
        p50 = f"{s['latency_p50']:.1f}" if s["latency_p50"] is not None else "–"
        p95 = f"{s['latency_p95']:.1f}" if s["latency_p95"] is not None else "–"
        closed = s.get("closed", {})
        cl = f"{closed['em']:.0f}/{closed['questions']}" if closed.get("questions") else "–"
        reader = f"{r.get('reader', 'passages')} ({r.get('answer_budget', r['budget']):,})" + ("" if r.get("hops", True) else ", no hops")
        reader += "" if r.get("chain", False) else ", whole"
        reader += "" if r.get("check", False) else ", unchecked"
        reader += f", {r['answer_seconds']:g} s" if r.get("answer_seconds") else ""
        reader += f", {r['threads']} thread{'s' if r['threads'] > 1 else ''}" if r.get("threads") else ""
        crag = f"{s.get('abstained', 0)} | {s['truthfulness']:.0f}" if "truthfulness" in s else "– | –"
        lines.append(
            f"| {r['split']} | {r['method']} | {r['budget']:,} | {reader} | {s['em']:.1f} | {s['f1']:.1f} | {crag} | "
            f"{s.get('retrieved_coverage', s['coverage']):.0f} | {s['coverage']:.0f} | {s['em_in_context']:.0f} | {cl} | {p50} | {p95} | "
            f"{s['prompt_tokens']:.0f} | "
            + (f"{s['model_calls']:.2f} | {s['in_code']:.0f} % | {s['hopped']:.0f} % |" if "model_calls" in s else "– | – | – |")
            + (f" {s['steps']:.2f} | {s['chained']:.0f} % |" if "steps" in s else " – | – |")
            + (f" {s['speeds']['prompt']:.0f} / {s['speeds']['generation']:.1f} |" if s.get("speeds") else " – |")
        )
        for t, v in s.get("types", {}).items():
            types.append(f"| {r['split']} | {r['method']} | {r['budget']:,} | {t} | {v['questions']} | {v['em']:.1f} | {v['read']:.0f} |")
        for k, v in s.get("comparisons", {}).items():
            kinds.append(f"| {r['split']} | {r['method']} | {k} | {v['questions']} | {v['em']:.1f} | {v['decided_in_code']:.0f} % |")
    if types:
        lines += ["", "| split | method | λ | question type | questions | EM | read |", "|---|---|---:|---|---:|---:|---:|", *types]
    if kinds:
        lines += ["", "| split | method | comparison kind | questions | EM | decided in code |", "|---|---|---|---:|---:|---:|", *kinds]
    rules = [
        f"| {r['split']} | {name} | {c['changed']} | {c['mended']} | {c['broke']} |"
        for r in runs
        for name, c in sorted(r["summary"].get("rules", {}).items())
    ]
    if rules:
        lines += ["", "| split | post-rule | replies changed | wrong → right | right → wrong |", "|---|---|---:|---:|---:|", *rules]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
