"""The same question gets the same read while other processes saturate the cores (issue #57): the
real 0.5B model answers at rest, then beside busy processes, one a core, and the question is read
with the same prompt and LLM cache key, so the cache serves the same answer. The calls made
beside them are seen as sharing the cores and leave the rest figure as it was (llm/speeds.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.model_check import discerns
from edgerag.answer.plan import READ_OVERHEAD_S, SHORT_OUTPUT
from edgerag.llm import speeds
from edgerag.llm.metered import MeteredLLM
from edgerag.llm.models import cache_dir

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION

OTHER_QUESTION = "Where did the keeper of the Pellmore Point lighthouse retire to?"


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A speeds file of this test's own (the machine's probe verdicts and model hashes are copied:
    no second crash probe), so nothing another run records moves its rest figure."""
    mine = tmp_path / "cache"
    for part in ("probes", "sha256"):
        if (cache_dir() / part).is_dir():
            shutil.copytree(cache_dir() / part, mine / part)
    monkeypatch.setenv("EDGERAG_CACHE", str(mine))
    monkeypatch.delenv("EDGERAG_ANSWER_SECONDS", raising=False)
    return mine


def _saturate() -> list[subprocess.Popen]:
    """Busy processes, one a core (at least two), at the server's own priority."""
    n = max(2, os.cpu_count() or 1)
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


@pytest.mark.model
@pytest.mark.slow
def test_a_question_asked_while_other_processes_saturate_the_cores_is_read_as_at_rest(index_copy: Path, own_cache, monkeypatch):
    keys: list[str] = []
    prepare = MeteredLLM.prepare

    def keyed(self, messages, **kw):  # the LLM cache key of every call made
        call = prepare(self, messages, **kw)
        keys.append(call.key)
        return call

    monkeypatch.setattr(MeteredLLM, "prepare", keyed)
    rag = EdgeRAG(index_copy, Settings(progress=False))
    at_rest = rag.answer_llm.speeds()  # the probe, at rest: this test runs under the CPU lock
    discerns(rag.answer_llm, "text")  # the model check's probe, once a process: not one question's call
    assert at_rest is not None
    # a time budget that lets this machine read about 60 % of the answer budget: the plan depends on the speeds
    seconds = READ_OVERHEAD_S + SHORT_OUTPUT / at_rest.generation + (80 + 0.6 * rag.settings.answer_budget) / at_rest.prompt
    context = rag.retrieve(PLANTED_QUESTION, method="text")

    def ask(question: str, ctx=None):
        ctx = ctx or rag.retrieve(question, method="text")
        plan = rag.plan_answer(question, ctx, mode="short", seconds=seconds)
        start = len(keys)
        answer = rag.answer(question, ctx, plan=plan)
        return plan, answer, keys[start:]

    plan, answer, rest_keys = ask(PLANTED_QUESTION, context)
    assert plan.time_cut > 0 and PLANTED_ANSWER in answer.text
    key = rag.answer_llm.llm.speed_key
    figure = speeds.load(key)
    children = _saturate()
    try:
        time.sleep(1.0)  # they run
        ask(OTHER_QUESTION)  # a fresh call beside them
        busy_plan, busy_answer, busy_keys = ask(PLANTED_QUESTION, context)
    finally:
        for child in children:
            child.kill()
            child.wait()
    after = speeds.load(key)
    assert after.shared > figure.shared  # the call beside them was seen sharing the cores
    assert (after.prompt, after.generation) == (figure.prompt, figure.generation)
    assert busy_plan.messages == plan.messages and busy_plan.time_cut == plan.time_cut
    assert busy_keys == rest_keys
    assert busy_answer.text == answer.text and busy_answer.tokens.get("input", 0) == 0  # the cache served it
