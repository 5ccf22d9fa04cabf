"""Comparisons of every kind, asked of a corpus nobody tuned on: EM, the share decided in code and
the seconds an answer, by kind and by phrasing, at every default (issue #49). Writes JSON and
prints Markdown tables (docs/benchmarks.md, "Comparisons in any phrasing").

    .venv/bin/python benchmarks/comparisons.py                  # every default, 120 questions
    .venv/bin/python benchmarks/comparisons.py --questions 40 --seed 2

The corpus is generated from a seed: invented people (birth and death written in one of
several styles, some of which code cannot read, such as "in the spring of 1908"), genera with
species counts, towns with coordinates, towers with heights in metres or feet, and what each
person is ("a Swedish painter"). Each question picks two of a kind and one phrasing of that kind;
the phrasings here are written apart from the tests' (tests/test_comparison_matrix.py), so a
phrasing only this script uses shows what the grammar does on wording it was not written for.
The gold answer is computed from the generated values. The questions go through `EdgeRAG.query`
with the index's defaults (retrieval, evidence reader, comparisons in code, time budget, the
answering model chosen by measurement), so a side code cannot read is read by the model.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.eval.metrics import exact_match

MONTHS = "January February March April May June July August September October November December".split()
FIRST = "Anna Tomas Ingrid Mikael Sofia Henrik Elin Oskar Karin Nils Maja Lars Greta Emil Ebba Axel".split()
LAST = "Berg Lindqvist Holm Sandell Ekdahl Norrby Wester Falk Strand Lund Hedin Rydberg Sjoberg Almqvist Borg Nyman".split()
NATIONS = ["Swedish", "Norwegian", "Danish", "Finnish"]
TRADES = ["painter", "sculptor", "composer", "poet"]
GENERA = "Quercia Fagolia Betulix Alnora Salicea Populina Ulmara Tiliana Acerra Pinella Larixa Abiesa".split()
TOWNS = "Varnby Kelstad Orvik Trosa Mellby Hallen Storvik Lundby Askim Brevik Odda Skarn".split()
TOWERS = "Halden Mora Sollen Vika Rinde Tamsa Ovre Granna".split()

# ---- how a value is written ----------------------------------------------------------------------


def _dmy(y: int, m: int, d: int) -> str:
    return f"{d} {MONTHS[m - 1]} {y}"


LIFE_STYLES = {
    "dash": lambda n, b, d: f"{n} ({_dmy(*b)} – {_dmy(*d)}) was a {{what}}.",
    "american": lambda n, b, d: f"{n} ({MONTHS[b[1] - 1]} {b[2]}, {b[0]} – {MONTHS[d[1] - 1]} {d[2]}, {d[0]}) was a {{what}}.",
    "years": lambda n, b, d: f"{n} ({b[0]}–{d[0]}) was a {{what}}.",
    "lost dash": lambda n, b, d: f"{n} ({_dmy(*b)}{_dmy(*d)}) was a {{what}}.",
    "b. d.": lambda n, b, d: f"{n} (b. {b[0]}, d. {d[0]}) was a {{what}}.",
    "sentences": lambda n, b, d: f"{n} was a {{what}}. {n.split()[0]} was born on {_dmy(*b)} in Uppsala and died on {_dmy(*d)}.",
    "season": lambda n, b, d: f"{n} was a {{what}}, born in the spring of {b[0]} and dead by the winter of {d[0]}.",
}
COUNT_STYLES = {
    "before noun": lambda n, v: f"{n} is a genus of trees with {v:,} species.",
    "comprises": lambda n, v: f"The genus {n} comprises some {v} species of shrubs and trees.",
    "sentence": lambda n, v: f"{n} is a genus of flowering plants. Botanists count {v:,} species in it.",
}
HEIGHT_STYLES = {
    "metres": lambda n, v: f"{n} Tower is a radio mast. It is {v} m tall.",
    "feet": lambda n, v: f"{n} Tower is a radio mast {round(v * 3.28084):,} feet high.",
}

# ---- how a question is asked ---------------------------------------------------------------------
PHRASINGS = {
    "date": [
        ("Which one of {a} and {b} is the older?", "birth", True, "which"),
        ("Who came first, {a} or {b}?", "birth", True, "which"),
        ("Who was the elder, {a} or {b}?", "birth", True, "which"),
        ("Whose birth came later: {a} or {b}?", "birth", False, "which"),
        ("Who passed away first, {a} or {b}?", "death", True, "which"),
        ("{a} or {b}: who died later?", "death", False, "which"),
        ("Was {a} born after {b}?", "birth", False, "wins"),
        ("Did {a} die earlier than {b}?", "death", True, "wins"),
        ("Did {a} and {b} die in the same decade?", "death", None, "decade"),
    ],
    "number": [
        ("Which genus, {a} or {b}, numbers fewer species?", False, "which"),
        ("Which genus contains more species: {a} or {b}?", True, "which"),
        ("{a} vs {b}, which genus is home to more species?", True, "which"),
        ("Does {a} have a greater number of species than {b}?", True, "wins"),
    ],
    "height": [
        ("Which mast is taller, {a} or {b}?", True, "which"),
        ("Does {a} stand taller than {b}?", True, "wins"),
        ("Of {a} and {b}, which is shorter?", False, "which"),
    ],
    "place": [
        ("Of the towns {a} and {b}, which sits further north?", "north", "which"),
        ("Is {a} located further south than {b}?", "south", "wins"),
        ("Which lies more to the east, {a} or {b}?", "east", "which"),
        ("Among {a} and {b}, which town is further west?", "west", "which"),
    ],
    "same": [
        ("Do {a} and {b} have the same nationality?", "nation"),
        ("Were {a} and {b} of one nationality?", "nation"),
        ("Were {a} and {b} both {trade}s?", "trade"),
        ("Are {a} and {b} both known as {trade}s?", "trade"),
    ],
}


def build(rng: random.Random) -> tuple[list[dict], dict]:
    """The corpus records and the values they were written from."""
    records, values = [], {"people": {}, "genera": {}, "towns": {}, "towers": {}}
    names = [f"{f} {last}" for f, last in zip(rng.sample(FIRST, len(FIRST)), rng.sample(LAST, len(LAST)))]
    for name in names:
        by = rng.randint(1820, 1960)
        b = (by, rng.randint(1, 12), rng.randint(1, 28))
        d = (by + rng.randint(25, 95), rng.randint(1, 12), rng.randint(1, 28))
        style = rng.choice(list(LIFE_STYLES))
        nation, trade = rng.choice(NATIONS), rng.choice(TRADES)
        text = LIFE_STYLES[style](name, b, d).format(what=f"{nation} {trade}")
        records.append({"id": name.replace(" ", "_"), "title": name, "text": text + " Works by them hang in several museums."})
        values["people"][name] = {"birth": b, "death": d, "nation": nation, "trade": trade, "style": style}
    for g in GENERA:
        v = rng.choice([rng.randint(2, 60), rng.randint(100, 2500)])
        style = rng.choice(list(COUNT_STYLES))
        records.append({"id": g, "title": g, "text": COUNT_STYLES[style](g, v)})
        values["genera"][g] = {"count": v, "style": style}
    for t in TOWNS:
        at = (round(rng.uniform(-40, 70), 3), round(rng.uniform(-20, 40), 3))
        written = [(int(abs(v)), int(abs(v) % 1 * 60), v >= 0) for v in at]  # degrees, minutes, north/east
        (la, lam, n), (lo, lom, e) = written
        dms = f"{la}°{lam:02d}′{'N' if n else 'S'} {lo}°{lom:02d}′{'E' if e else 'W'}"
        records.append({"id": t, "title": t, "text": f"{t} ({dms}) is a small town with a harbour and a church."})
        values["towns"][t] = {"at": tuple((d * 60 + m) * (1 if pos else -1) for d, m, pos in written)}  # in minutes, as written
    for t in TOWERS:
        v = rng.randint(60, 600)
        style = rng.choice(list(HEIGHT_STYLES))
        records.append({"id": f"{t}_tower", "title": f"{t} Tower", "text": HEIGHT_STYLES[style](t, v)})
        values["towers"][f"{t} Tower"] = {"height": v, "style": style}
    return records, values


def questions(rng: random.Random, values: dict, n: int) -> list[dict]:
    out = []
    kinds = list(PHRASINGS)
    while len(out) < n:
        kind = kinds[len(out) % len(kinds)]
        phr = rng.choice(PHRASINGS[kind])
        if kind in ("date", "same"):
            a, b = rng.sample(sorted(values["people"]), 2)
            va, vb = values["people"][a], values["people"][b]
        elif kind == "number":
            a, b = rng.sample(sorted(values["genera"]), 2)
            va, vb = values["genera"][a], values["genera"][b]
        elif kind == "height":
            a, b = rng.sample(sorted(values["towers"]), 2)
            va, vb = values["towers"][a], values["towers"][b]
        else:
            a, b = rng.sample(sorted(values["towns"]), 2)
            va, vb = values["towns"][a], values["towns"][b]
        gold = _gold(kind, phr, a, b, va, vb)
        if gold is None:
            continue
        q = phr[0].format(a=a, b=b, trade=va.get("trade", ""))
        out.append({"question": q, "gold": gold, "kind": kind, "phrasing": phr[0], "styles": [va.get("style"), vb.get("style")]})
    return out


def _gold(kind: str, phr: tuple, a: str, b: str, va: dict, vb: dict) -> str | None:
    """The answer the generated values give; None when they tie (the pair is not asked)."""
    if kind == "date":
        _, date, earlier, asks = phr
        x, y = va[date], vb[date]
        if asks == "decade":
            return "yes" if x[0] // 10 == y[0] // 10 else "no"
        if x[0] == y[0]:  # a year apart at least, so every style can tell
            return None
        first = (x < y) == earlier
    elif kind in ("number", "height"):
        _, larger, asks = phr
        key = "count" if kind == "number" else "height"
        if va[key] == vb[key]:
            return None
        first = (va[key] > vb[key]) == larger
    elif kind == "place":
        _, direction, asks = phr
        i = 0 if direction in ("north", "south") else 1
        if va["at"][i] == vb["at"][i]:
            return None
        first = (va["at"][i] > vb["at"][i]) == (direction in ("north", "east"))
    else:
        _, what = phr
        if what == "nation":
            return "yes" if va["nation"] == vb["nation"] else "no"
        return "yes" if va["trade"] == vb["trade"] else "no"
    if asks == "wins":
        return "yes" if first else "no"
    return a if first else b


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/results/comparisons.json")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    records, values = build(rng)
    asked = questions(rng, values, args.questions)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        corpus.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        rag = EdgeRAG(Path(tmp) / "index", Settings(progress=False))
        rag.insert([corpus])
        for q in asked:
            t0 = time.perf_counter()
            ctx = rag.retrieve(q["question"])
            plan = rag.plan_answer(q["question"], ctx)
            ans = rag.answer(q["question"], ctx, plan=plan)
            rows.append(
                {
                    **q,
                    "answer": ans.short,
                    "em": exact_match(ans.short, [q["gold"]]),
                    "in_code": plan.decision is not None or (plan.comparison is not None and "compared: no" not in ans.reason),
                    "no_model": ans.tokens.get("input", 0) + ans.tokens.get("cached_input", 0) == 0,
                    "seconds": time.perf_counter() - t0,
                    "reason": ans.reason,
                }
            )
            print(f"{'✓' if rows[-1]['em'] else '✗'} {q['question']} → {ans.short} (gold {q['gold']})", flush=True)
        model = rag.answer_llm.llm.path.name if "answer_llm" in rag.__dict__ else None
        speeds = rag.answer_llm.speeds() if "answer_llm" in rag.__dict__ else None
        rag.close()
    summary = {"questions": len(rows), **_figures(rows)}
    by_kind = {k: _figures([r for r in rows if r["kind"] == k]) for k in PHRASINGS}
    by_phrasing = {p: _figures([r for r in rows if r["phrasing"] == p]) for p in dict.fromkeys(r["phrasing"] for r in rows)}
    result = {
        "benchmark": "comparisons",
        "seed": args.seed,
        "model": model,
        "speeds": {"prompt": speeds.prompt, "generation": speeds.generation} if speeds else None,
        "summary": summary,
        "kinds": by_kind,
        "phrasings": by_phrasing,
        "rows": rows,
    }
    write_result(Path(args.out), result)
    print()
    print("| kind | questions | EM | decided in code | p50 s |\n|---|---:|---:|---:|---:|")
    for k, f in {**by_kind, "all": summary}.items():
        print(f"| {k} | {f['questions']} | {f['em']:.1f} | {f['in_code']:.0f} % | {f['p50']:.1f} |")
    print("\n| phrasing | questions | EM | decided in code |\n|---|---:|---:|---:|")
    for p, f in by_phrasing.items():
        print(f"| {p} | {f['questions']} | {f['em']:.0f} | {f['in_code']:.0f} % |")
    return 0


def _figures(rows: list[dict]) -> dict:
    if not rows:
        return {"questions": 0, "em": 0.0, "in_code": 0.0, "p50": 0.0}
    return {
        "questions": len(rows),
        "em": 100 * sum(r["em"] for r in rows) / len(rows),
        "in_code": 100 * sum(r["in_code"] for r in rows) / len(rows),
        "p50": statistics.median(r["seconds"] for r in rows),
    }


if __name__ == "__main__":
    sys.exit(main())
