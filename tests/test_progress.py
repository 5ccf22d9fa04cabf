"""Progress observers (what the TUI's bars read) and cancelling long work between commits."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.llm.metered import MeteredLLM
from edgerag.progress import Cancelled, observe

from .conftest import DATA, PLANTED_QUESTION
from .helpers import NamesLLM


def test_cancelled_insert_keeps_whole_batches_and_the_next_insert_adds_the_rest(tmp_path):
    steps = []

    def cancel_after_first(step):
        steps.append((step.desc, step.n, step.done))
        if step.n >= 1 and not step.done:
            raise Cancelled

    rag = EdgeRAG(tmp_path / "ix", progress=False, docs_per_batch=1)
    with observe(cancel_after_first), pytest.raises(Cancelled):
        rag.insert([DATA / "planted"])
    assert steps[0] == ("indexing", 0, False) and steps[-1] == ("indexing", 1, True)
    rag.close()

    fresh = EdgeRAG(tmp_path / "ix", progress=False)  # another process: vectors were saved
    assert len(fresh.documents()) == 1 and len(fresh.index.vectors["chunks"]) == 1
    report = fresh.insert([DATA / "planted"])
    assert report.docs_added == 2 and report.docs_present == 1
    assert fresh.retrieve(PLANTED_QUESTION, method="text", budget=200).units[0].title == "The Zorblax vault"


def test_cancelled_build_keeps_the_finished_step_releases_the_lock_and_resumes(tmp_path):
    rag = EdgeRAG(tmp_path / "ix", progress=False, terag_batch=1)
    rag.insert([DATA / "planted"])
    fake = NamesLLM()
    rag.__dict__["llm"] = MeteredLLM(fake, rag.index.tables)
    seen = []

    def cancel(step):
        seen.append((step.desc, step.n, step.total))
        if step.desc.startswith("extracting") and step.n == 1 and not step.done:
            raise Cancelled

    with observe(cancel), pytest.raises(Cancelled):
        rag.build("terag")
    assert ("extracting names (terag)", 1, 3) in seen and fake.batches == [1]
    assert rag.plan("terag").to_extract == 2
    again = rag.build("terag")  # the lock was released: a second build runs, and resumes
    assert again["extraction"]["extracted"] == 2 and again["extraction"]["already"] == 1
    assert fake.batches == [1, 1, 1]


def test_without_an_observer_bars_are_tqdm_and_silent_off_a_terminal(tmp_path, capsys):
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([DATA / "planted"])
    assert capsys.readouterr().err == ""
