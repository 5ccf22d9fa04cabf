"""The same read whatever the load (issue #57): the rest figure of llm/speeds.py, which a call
that shared the cores never lowers (llm/sharing.py tells), and what reads it: the read plan
(answer/plan.py through the real API, with the real LMDB index and embedder) and ``answer_model
auto`` (answer/budget.py, llm/models.py). A stand-in model reports the seconds a loaded machine
gives; tests/test_busy_machine.py runs the real model beside processes that saturate the cores."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.llm import sharing, speeds
from edgerag.llm.local import Completion
from edgerag.llm.metered import MeteredLLM
from edgerag.llm.speeds import Speeds

from .conftest import PLANTED_QUESTION
from .helpers import ScriptedLLM

CORES = os.cpu_count() or 1
BUSY = float(CORES)
"""Cores other processes kept busy: all of them (a build beside the call)."""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("EDGERAG_PROBE", "off")  # stand-in and header-only models are never probed
    return tmp_path / "cache"


def _key(name: str = "model") -> str:
    return speeds.machine_key(name, threads=CORES, gpu_layers=0)


# ---- sharing.py ------------------------------------------------------------------------------
def test_other_processes_work_is_the_cores_busy_time_beyond_this_process():
    start = sharing.Watch(wall=0.0, own=0.0, busy=100.0, cores=2)
    end = sharing.Watch(wall=10.0, own=19.0, busy=119.5, cores=2)  # this process used both cores alone
    assert sharing.others_cores(start, end) == pytest.approx(0.05)
    assert sharing.shared(0.05, threads=2, cores=2) is False
    loaded = sharing.Watch(wall=10.0, own=12.0, busy=120.0, cores=2)  # another process took 8 core-seconds
    assert sharing.others_cores(start, loaded) == pytest.approx(0.8) and sharing.shared(0.8, threads=2, cores=2) is True
    assert sharing.shared(0.8, threads=2, cores=16) is False  # 14 cores llama.cpp leaves free
    assert sharing.others_cores(start, sharing.Watch(0.1, 0.1, 100.2, 2)) is None  # too short to tell
    assert sharing.others_cores(sharing.Watch(0.0, 0.0, None, 2), end) is None and sharing.shared(None, 2) is None


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="sharing is read from /proc/stat (Linux)")
def test_processes_that_keep_the_cores_busy_are_seen():
    children = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(CORES)]
    try:
        time.sleep(0.5)  # they are running
        start = sharing.watch()
        time.sleep(1.5)
        others = sharing.others_cores(start, sharing.watch())
    finally:
        for child in children:
            child.kill()
            child.wait()
    assert others is not None and others > CORES / 2
    assert sharing.shared(others, threads=CORES) is True


# ---- speeds.py -------------------------------------------------------------------------------
def test_the_rest_figure_starts_from_the_probe_and_only_calls_alone_on_the_cores_raise_it(cache):
    key = _key()
    assert speeds.load(key) is None and speeds.record(key, 500, 10, 5.0) is None  # nothing before a probe
    assert speeds.from_probe(key, 100.0, 20.0, others=0.0, threads=CORES)
    assert speeds.load(key) == Speeds(100.0, 20.0)
    for _ in range(20):  # a busy hour: 19 prompt tokens/s while other work kept the cores busy
        speeds.record(key, 950, 10, 950 / 19 + 10 / 20, others=BUSY, threads=CORES)
    for _ in range(5):  # slow calls whose sharing was not seen (no /proc/stat): far under the figure
        speeds.record(key, 950, 10, 950 / 30 + 10 / 20, others=None, threads=CORES)
    after = speeds.load(key)
    assert (after.prompt, after.generation, after.calls, after.shared) == (100.0, 20.0, 0, 25)
    for _ in range(2):  # calls alone on the cores, faster: two are not enough to move it
        speeds.record(key, 1200, 10, 1200 / 120 + 10 / 20, others=0.0, threads=CORES)
    assert speeds.load(key).prompt == 100.0
    speeds.record(key, 1200, 10, 1200 / 120 + 10 / 20, others=0.0, threads=CORES)
    assert speeds.load(key).prompt == pytest.approx(120.0) and speeds.load(key).calls == 3
    for _ in range(15):  # clean calls a little slower than the probe never lower it below the probe
        speeds.record(key, 950, 10, 950 / 90 + 10 / 20, others=0.0, threads=CORES)
    assert speeds.load(key).prompt == 100.0
    assert speeds.machine_key("model", threads=1, gpu_layers=0) != key


def test_a_call_that_mostly_writes_is_no_prompt_speed_sample(cache):
    key = _key()
    speeds.from_probe(key, 100.0, 20.0, others=0.0, threads=CORES)
    # a KG extraction call: 300 tokens read, 200 written (3 s reading, 10 s writing), at rest
    for _ in range(5):
        speeds.record(key, 300, 200, 300 / 100 + 200 / 25, others=0.0, threads=CORES)
    data = json.loads((cache / "speeds" / f"{key}.json").read_text())
    assert "prompt" not in data["clean"] and len(data["clean"]["generation"]) == 5
    now = speeds.load(key)
    assert now.prompt == 100.0 and now.generation == pytest.approx(25.0)  # a faster clean measurement raises it


def test_a_probe_beside_other_work_is_provisional_and_doctor_measures_afresh(cache):
    key = _key()
    assert not speeds.from_probe(key, 19.0, 0.3, others=BUSY, threads=CORES)  # the only figure: kept, marked
    assert speeds.load(key).provisional and "edgerag doctor" in speeds.load(key).summary()
    assert speeds.from_probe(key, 97.0, 20.0, others=0.0, threads=CORES)  # a probe at rest replaces it
    assert speeds.load(key) == Speeds(97.0, 20.0)
    assert not speeds.from_probe(key, 19.0, 0.3, others=BUSY, threads=CORES, reset=True)  # doctor during a build
    assert speeds.load(key) == Speeds(97.0, 20.0)
    for _ in range(3):
        speeds.record(key, 1000, 10, 1000 / 150 + 10 / 20, others=0.0, threads=CORES)
    assert speeds.load(key).prompt == pytest.approx(150.0)
    assert speeds.from_probe(key, 90.0, 19.0, others=0.0, threads=CORES, reset=True)  # doctor at rest: measured afresh
    assert speeds.load(key) == Speeds(90.0, 19.0)


def test_a_speeds_file_written_before_the_rest_figure_still_loads(cache):
    key = _key()
    path = cache / "speeds" / f"{key}.json"
    path.parent.mkdir(parents=True)
    # the 1.5B model after a KG build: probe 97, call medians 32 (extraction calls) and 6
    path.write_text(json.dumps({"probe": {"prompt": 97.0, "generation": 21.0}, "prompt": [30.0, 32.0, 35.0], "generation": [6.0] * 3}))
    assert speeds.load(key) == Speeds(97.0, 21.0)  # its call samples may come from a busy hour: the probe's
    assert speeds.record(key, 1000, 10, 1000 / 97 + 10 / 21, others=0.0, threads=CORES) == Speeds(97.0, 21.0, calls=1)
    data = json.loads(path.read_text())
    assert data["prompt"][:3] == [30.0, 32.0, 35.0] and data["probe"]["prompt"] == 97.0  # still readable as it was


# ---- the plan and the model that answers -------------------------------------------------------
class MachineLLM(ScriptedLLM):
    """A stand-in model with this machine's speeds file, as `LocalLLM` has: its calls report the
    seconds and the cores other processes used that the real model's calls would (``timing``)."""

    def __init__(self, key: str):
        super().__init__([])
        self.speed_key = key
        self.timing = (1.0, 0.0)

    def speeds(self):
        return speeds.load(self.speed_key)

    def record_speed(self, c: Completion) -> None:
        speeds.record(self.speed_key, c.evaluated_tokens, c.output_tokens, c.seconds, others=c.others_cores, threads=CORES)

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        seconds, others = self.timing
        n = len(prompt.split())
        return Completion("x " * 10, n, n, 10, seconds, "stop", others_cores=others)


class FixedLLM(ScriptedLLM):
    def __init__(self, measured: Speeds):
        super().__init__([])
        self.measured = measured

    def speeds(self):
        return self.measured


def _busy_hour(llm: MeteredLLM, stand_in: MachineLLM) -> None:
    """Sixty fresh calls of a busy hour: answers beside a build (19 prompt tokens/s, every core
    busy), extraction calls at rest (mostly writing) and slow calls whose sharing was not seen."""
    for i in range(60):
        words = 600 + i
        if i % 3 == 0:
            stand_in.timing = (words / 19 + 10 / 4, BUSY)
        elif i % 3 == 1:
            stand_in.timing = (words / 100 + 300 / 20, 0.0)  # an extraction call: 300 tokens written
        else:
            stand_in.timing = (words / 25 + 10 / 5, None)
        out = 300 if i % 3 == 1 else 10
        call = llm.prepare([{"role": "user", "content": "w " * words}], max_tokens=out)
        c = llm.run(call)
        assert c.others_cores == stand_in.timing[1]


def test_a_busy_hour_leaves_the_read_plan_and_the_cache_key_as_at_rest(built_index, cache, monkeypatch):
    monkeypatch.delenv("EDGERAG_ANSWER_SECONDS", raising=False)
    key = _key("stand-in")
    speeds.from_probe(key, 100.0, 20.0, others=0.0, threads=CORES)
    rag = EdgeRAG(built_index, Settings(progress=False, answer_seconds=6.0))
    stand_in = MachineLLM(key)
    rag.__dict__["answer_llm"] = llm = MeteredLLM(stand_in, rag.index.tables)
    context = rag.retrieve(PLANTED_QUESTION)

    def read(metered: MeteredLLM):
        rag.__dict__["answer_llm"] = metered
        plan = rag.plan_answer(PLANTED_QUESTION, context, mode="short")
        return plan, metered.prepare(plan.messages, max_tokens=rag.settings.answer_max_tokens).key

    at_rest, rest_key = read(llm)
    assert at_rest.time_cut > 0 and at_rest.units  # the time budget shapes this read: speeds matter
    _busy_hour(llm, stand_in)
    assert speeds.load(key).shared >= 20
    busy, busy_key = read(llm)
    assert busy_key == rest_key and busy.messages == at_rest.messages
    assert [u.chunk_id for u in busy.units] == [u.chunk_id for u in at_rest.units]
    assert (busy.budget, busy.time_cut, busy.prompt_tokens) == (at_rest.budget, at_rest.time_cut, at_rest.prompt_tokens)
    # what the medians of the last calls (the speeds before #57) would have read instead
    data = json.loads((cache / "speeds" / f"{key}.json").read_text())
    medians = Speeds(statistics.median(data["prompt"][-15:]), 20.0)
    before, before_key = read(MeteredLLM(FixedLLM(medians), rag.index.tables))
    assert before.time_cut > at_rest.time_cut and before_key != rest_key
    rag.close()


def test_answer_model_auto_keeps_its_choice_after_a_busy_hour(cache, tmp_path, monkeypatch):
    from functools import partial

    import edgerag.answer.budget as budget
    import edgerag.llm.models as models
    from edgerag.answer.budget import typical_answer_seconds
    from edgerag.llm.local import LocalLLM
    from edgerag.llm.models import ANSWER_MODEL, answer_model_choice

    for name in ("EDGERAG_ANSWER_MODEL", "EDGERAG_MODEL", "EDGERAG_ANSWER_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    files = {}
    for spec, body in ((None, b"small"), (ANSWER_MODEL, b"large")):  # GGUF headers: never loaded, their speeds are fed
        files[spec] = tmp_path / f"{body.decode()}.gguf"
        files[spec].write_bytes(b"GGUF" + body)
    monkeypatch.setattr(budget, "resolve_model", lambda spec=None: files[spec])
    monkeypatch.setattr(models, "installed", lambda name: True)
    s = Settings()
    large = LocalLLM(files[ANSWER_MODEL], n_ctx=s.n_ctx, n_threads=s.llm_threads, n_gpu_layers=0)
    speeds.from_probe(large.speed_key, 97.0, 20.0, others=0.0, threads=large.n_threads)  # the 1.5B at rest

    def choose():
        return answer_model_choice(
            s.answer_model, None, gpu=False, seconds=s.answer_seconds, typical_seconds=partial(typical_answer_seconds, s)
        )

    at_rest = choose()
    assert at_rest.spec == ANSWER_MODEL
    for _ in range(30):  # a busy hour of answers beside a build, then a KG build's extraction calls
        speeds.record(large.speed_key, 900, 10, 900 / 19 + 10 / 3, others=BUSY, threads=large.n_threads)
    for _ in range(30):
        speeds.record(large.speed_key, 350, 250, 350 / 97 + 250 / 20, others=0.0, threads=large.n_threads)
    speeds.from_probe(large.speed_key, 19.0, 0.3, others=BUSY, threads=large.n_threads, reset=True)  # `edgerag doctor` beside the build
    assert choose() == at_rest
    data = json.loads((cache / "speeds" / f"{large.speed_key}.json").read_text())
    before = Speeds(statistics.median(data["prompt"][-15:]), 20.0)  # the pre-#57 figure: median of the last calls
    evidence = int(budget.LEAST_SHARE * s.answer_budget)
    took = budget.CHAIN_READS * (before.seconds(evidence + budget.TYPICAL_PROMPT_EXTRA, budget.SHORT_OUTPUT) + budget.READ_OVERHEAD_S)
    assert took > s.answer_seconds  # it would have switched to the small model
