"""Shared fixtures: real LMDB, real hnswlib and the real pip-shipped MiniLM embedder.

Corpora live inside the repo: a slice of the bundled 2WikiMultihopQA sample plus a few
planted-fact documents in tests/data.
"""

from __future__ import annotations

import faulthandler
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from edgerag import EdgeRAG, Settings

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "edgerag" / "data" / "sample"
DATA = Path(__file__).resolve().parent / "data"

# Tests answer with the 0.5B model, whatever this machine would choose (answer_model auto picks
# the 1.5B model where the model-1_5b extra is installed and measured fast enough here): the
# same model on every machine, and the one CI installs. Subprocesses (the CLI) inherit it.
os.environ.setdefault("EDGERAG_ANSWER_MODEL", "qwen2.5-coder-0.5b-instruct-q4_k_m")
# and with no time budget: the model reads the same evidence on a slow host as on a fast one (the
# budget's own tests set speeds and seconds, tests/test_time_budget.py).
os.environ.setdefault("EDGERAG_ANSWER_SECONDS", "none")

PLANTED_QUESTION = "What is the access code of the Zorblax vault?"
PLANTED_ANSWER = "tangerine-42"


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory) -> Path:
    """The first 40 passages of the bundled sample as a corpus.jsonl."""
    out = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    lines = (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[:40]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def built_index(tmp_path_factory, small_corpus) -> Path:
    """An index of the small corpus and the planted-fact documents, built once per session."""
    path = tmp_path_factory.mktemp("idx") / "index"
    rag = EdgeRAG(path, Settings(progress=False))
    report = rag.insert([small_corpus, DATA / "planted"])
    assert report.docs_added == 40 + len(list((DATA / "planted").iterdir()))
    rag.close()
    return path


@pytest.fixture
def index_copy(built_index, tmp_path) -> Path:
    """A private copy of the session index, for tests that change it."""
    dst = tmp_path / "index"
    shutil.copytree(built_index, dst)
    return dst


@pytest.fixture
def no_ocr(monkeypatch):
    """The reader as a user without ``edgerag[ocr]`` has it (``EDGERAG_OCR=off``): scanned pages are named, not read."""
    from edgerag.ingest import ocr

    monkeypatch.setenv("EDGERAG_OCR", "off")
    ocr.engine_name.cache_clear()
    yield
    ocr.engine_name.cache_clear()


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ---- markers that tell the truth -----------------------------------------------------------------
# `model`: the test runs the real GGUF in this process; `slow`: it starts other processes (the CLI,
# killed writers, a Ray instance) or takes over ~15 s on 2 cores. `make test-fast` (-m "not model and not slow") skips both. A test
# that does either without its marker fails, so the fast selection stays honest.
@pytest.fixture(autouse=True)
def _markers_tell_the_truth(request, monkeypatch):
    import subprocess

    import edgerag.llm.local as llm_module

    used: set[str] = set()
    load, popen_init = llm_module._load, subprocess.Popen.__init__

    def loading(*args, **kwargs):
        used.add("model")
        return load(*args, **kwargs)

    def starting(self, args, *rest, **kwargs):
        # Another Python (an edgerag run, a worker) is slow; a quick `git rev-parse` is not.
        argv = [args] if isinstance(args, (str, bytes)) else list(args)
        # The probe that proves a model on this machine (probe.py) runs once per machine and
        # build, inside whichever `model` test loads the GGUF first: part of loading the model.
        probing = "edgerag.llm.probe" in map(str, argv)
        if argv and not probing and ("python" in str(argv[0]) or str(argv[0]) == sys.executable):
            used.add("slow")
        return popen_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(llm_module, "_load", loading)
    monkeypatch.setattr(subprocess.Popen, "__init__", starting)
    yield
    missing = sorted(m for m in used if request.node.get_closest_marker(m) is None)
    if missing:
        what = {"model": "runs the real GGUF", "slow": "starts another process"}
        pytest.fail("; ".join(f"this test {what[m]}: mark it @pytest.mark.{m}" for m in missing), pytrace=False)


TEST_LIMIT_S = float(os.environ.get("EDGERAG_TEST_LIMIT_S", "900"))
"""The longest one test may run before the run is stopped (tests/test_kill.py, the longest, takes
about 140 s on 2 cores). A test that hangs in C code (a lock, a regex holding the interpreter)
cannot be failed and passed over, so the watchdog is C's own thread (`faulthandler`): the run
ends then, with every thread's stack written to `HANG_FILE` under the test's name, which `make
test` prints (our code's frames) when the run fails, instead of running on to CI's time limit."""
HANG_FILE = REPO / ".pytest-hang.txt"


@pytest.fixture(autouse=True)
def _watchdog(request):
    with open(HANG_FILE, "w", encoding="utf-8") as f:
        f.write(f"{request.node.nodeid} ran over {TEST_LIMIT_S:.0f} s: stopped; its threads' stacks, most recent call first:\n")
        f.flush()
        faulthandler.dump_traceback_later(TEST_LIMIT_S, exit=True, file=f)
        yield
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def planted_data(tmp_path) -> Path:
    """The planted documents as a benchmark folder, with three questions."""
    data = tmp_path / "planted-data" / "small"
    data.mkdir(parents=True)
    docs = [{"id": f.stem, "title": f.stem, "text": f.read_text(encoding="utf-8")} for f in sorted((DATA / "planted").iterdir())]
    qs = [
        {"id": "q1", "question": PLANTED_QUESTION, "answers": [PLANTED_ANSWER], "supporting_ids": ["zorblax"]},
        {
            "id": "q2",
            "question": "Where did the keeper of the Pellmore Point lighthouse retire to?",
            "answers": ["Lisbon"],
            "supporting_ids": ["lighthouse"],
        },
        {
            "id": "q3",
            "question": "When was the oldest tree of the Brannock orchard planted?",
            "answers": ["1802"],
            "supporting_ids": ["orchard"],
        },
    ]
    (data / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    (data / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in qs) + "\n")
    return data
