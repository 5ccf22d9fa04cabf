"""Crash safety end to end: real `edgerag index` / `edgerag build` processes killed with
SIGKILL at random moments while embedding, building graphs and extracting with the real
model, restarted, and the result compared with an index built without interruption.

Kill points are chosen from the children's own progress lines (``EDGERAG_PROGRESS=lines``):
after a random step of the phase, plus a random delay, so the kill lands inside the work that
follows that step. After every kill the index must open and be self-consistent; at the end it
must equal the uninterrupted one, and the ledger must show every core chunk extracted exactly
once (a call killed in flight was never recorded; one killed after its commit is answered from
the cache on restart).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.llm.models import resolve_model

from .conftest import SAMPLE
from .helpers import consistent, same_arrays

N_DOCS = 72
BATCH = 1  # 72 batches: room for 12 kills while embedding (a batch takes a few hundredths of a second)
BETA = 0.06  # 5 core chunks of 72 (⌈0.06 · 72⌉): few real-model calls, each several seconds long


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "edgerag.cli.main", *args]


def _env() -> dict[str, str]:
    return {**os.environ, "EDGERAG_PROGRESS": "lines", "PYTHONUNBUFFERED": "1"}


def _phase(line: str) -> str:
    if line.startswith("indexing"):
        return "embedding"
    if line.startswith("building"):
        return "graph"
    if line.startswith("extracting"):
        return "extraction"
    return "startup"


def run_with_kills(cmd: list[str], rng: random.Random, want: int, trigger, max_delay: float, kills: list, check) -> None:
    """Run ``cmd`` until it succeeds, SIGKILLing it ``want`` times first: each attempt waits
    for the first or second progress line ``trigger`` accepts, then a random delay, then
    kills. ``check()`` runs after every kill (the index must open and be consistent)."""
    attempts, mine = 0, 0
    while True:
        attempts += 1
        assert attempts < want + 20, "the command never got far enough to be killed"
        armed = mine < want
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env())
        nth, last, killed = 0, "", False
        skip = rng.choice([0, 0, 1])
        for line in proc.stderr:
            line = line.strip()
            if not line or ":" not in line:
                continue
            last = line
            if armed and trigger(line):
                if nth >= skip:
                    time.sleep(rng.uniform(0, max_delay))
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
                nth += 1
        proc.stderr.close()
        rc = proc.wait()
        if killed and rc == -signal.SIGKILL:
            kills.append((cmd[3], _phase(last), last))
            mine += 1
            check()
            continue
        assert rc == 0, f"{' '.join(cmd[3:])} failed with {rc} after {last!r}"
        return


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kill") / "corpus.jsonl"
    lines = (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[:N_DOCS]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@pytest.mark.model
@pytest.mark.slow
def test_sigkill_at_20_random_points_loses_nothing(tmp_path, corpus):
    model = str(resolve_model(None))  # assembled here, never inside a child that may be killed
    # one random stream per phase: how many kills one phase got does not shift the next one's delays
    rng, graph_rng, extraction_rng = (random.Random(f"20261122-{phase}") for phase in ("index", "graph", "extraction"))
    killed, ref = tmp_path / "killed", tmp_path / "reference"
    kills: list[tuple[str, str, str]] = []

    def check() -> None:
        if (killed / "manifest.json").exists():
            consistent(killed)

    common = ["--index", str(killed)]
    run_with_kills(
        _cli("index", str(corpus), *common, "--docs-per-batch", str(BATCH)), rng, 12, lambda line: "chunks=" in line, 0.1, kills, check
    )
    # each builds only the graphs it reads; concept first embeds the pieces indexing left out (pieces.py)
    for method, want in (("knng", 2), ("concept", 3), ("bridge", 3)):
        # graphs build in well under a second (the KNN graph's cosine side is exact since #40, a few ms):
        # kill within 0.03 s of the first progress line
        run_with_kills(
            _cli("build", "--method", method, *common), graph_rng, want, lambda line: line.startswith("building graphs"), 0.03, kills, check
        )
    run_with_kills(
        _cli("build", "--method", "skeleton", "--beta", str(BETA), "--model", model, *common),
        extraction_rng,
        7,
        lambda line: line.startswith(("extracting", "building the kg")),
        # within 2 s of a progress line, inside the chunk that follows: a chunk takes about 5 s on
        # the fastest host here, and a kill 6 s after a line let it and the next one finish first
        # (the three chunks were done after one or two kills)
        2.0,
        kills,
        check,
    )

    by_phase = Counter(phase for _, phase, _ in kills)
    print(f"\n{len(kills)} SIGKILLs: " + ", ".join(f"{n} during {p}" for p, n in sorted(by_phase.items())))
    assert len(kills) >= 20
    assert by_phase["embedding"] >= 3 and by_phase["graph"] >= 3 and by_phase["extraction"] >= 3, by_phase

    rag = EdgeRAG(ref, Settings(progress=False, docs_per_batch=BATCH, beta=BETA, model=model))
    rag.insert([corpus])
    rag.build("knng")
    rag.build("concept")
    rag.build("bridge")
    rag.build("skeleton")
    rag.close()

    assert consistent(killed) == consistent(ref)
    a, b = EdgeRAG(killed, beta=BETA), EdgeRAG(ref, beta=BETA)
    assert [(d["id"], d["chunks"]) for d in a.documents()] == [(d["id"], d["chunks"]) for d in b.documents()]
    assert a.index.ids("chunks") == b.index.ids("chunks")
    assert a.index.get_many("chunks", a.index.ids("chunks")) == b.index.get_many("chunks", b.index.ids("chunks"))
    stages = sorted(a.index.ids("stages"))
    assert stages == sorted(b.index.ids("stages")) and any(s.startswith("kg:") for s in stages)
    for stage in stages:
        same_arrays(killed, ref, stage)
    core = a.index.ids("extractions")
    assert core == b.index.ids("extractions") and len(core) == 5

    def found(rag):
        return [(sorted(e["name"] for e in x["entities"]), len(x["relations"])) for x in rag.index.get_many("extractions", core)]

    assert found(a) == found(b)
    fresh = [r for r in a.ledger_rows() if r.stage == "extract" and not r.cached]
    assert len(fresh) == len(core), f"{len(fresh)} fresh extraction calls for {len(core)} core chunks: a chunk was extracted twice"
    # and the interrupted index answers like the other one
    q = "Who is the director of the film?"
    assert [u.id for u in a.retrieve(q, method="skeleton").units] == [u.id for u in b.retrieve(q, method="skeleton").units]


@pytest.mark.slow
def test_ctrl_c_stops_at_a_batch_boundary_and_says_how_to_resume(tmp_path, corpus):
    path = tmp_path / "index"
    cmd = _cli("index", str(corpus), "--index", str(path), "--docs-per-batch", str(BATCH))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    err = []
    for line in proc.stderr:
        err.append(line)
        if "chunks=" in line:
            proc.send_signal(signal.SIGINT)
            break
    out, rest = proc.communicate(timeout=120)
    err = "".join(err) + rest
    assert proc.returncode == 130, err
    assert "stopping after the step under way" in err and "Run the same command again to resume" in err
    assert "Traceback" not in err
    docs = consistent(path)["docs"]
    assert docs % BATCH == 0 and BATCH <= docs < N_DOCS  # whole batches only, the one under way finished
    done = subprocess.run(cmd, capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr
    assert f"added {N_DOCS - docs} documents ({docs} already indexed)" in done.stdout
    assert consistent(path)["docs"] == N_DOCS
