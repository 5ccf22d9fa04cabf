"""An upload's indexing yields the cores to the server's model (issue #57): while the model line
runs a call (serve/model_queue.py's hook), serve/jobs.py keeps a flag file, and the job's child
(serve/write_job.py) waits at its next step until it is gone."""

from __future__ import annotations

import json
import threading
import time

import pytest

from edgerag import EdgeRAG, Settings
from edgerag.serve.jobs import Jobs
from edgerag.serve.model_queue import ModelQueue
from edgerag.serve.write_job import MODEL_BUSY, PAUSED, yield_to_model


def _served(queue: ModelQueue, n: int) -> None:
    """Wait until the line has finished ``n`` calls (the result reaches the caller a moment before)."""
    end = time.monotonic() + 10
    while queue.status()["served"] < n and time.monotonic() < end:
        time.sleep(0.01)


def test_the_model_line_raises_the_flag_while_a_call_runs(tmp_path):
    jobs = Jobs(tmp_path / "uploads", {}, {})
    queue = ModelQueue(4)
    queue.on_busy = jobs.model_busy
    flag = tmp_path / "uploads" / MODEL_BUSY
    try:
        seen = queue.submit(lambda ticket: flag.exists(), "a question").future.result(timeout=10)
        _served(queue, 1)
        assert seen and not flag.exists()
        failing = queue.submit(lambda ticket: 1 / 0, "a failing call")
        with pytest.raises(ZeroDivisionError):
            failing.future.result(timeout=10)
        _served(queue, 2)
        assert not flag.exists()  # lowered whatever the call did
    finally:
        queue.close()
        jobs.close()


def test_a_flag_left_by_a_killed_server_is_lowered_at_start(tmp_path):
    (tmp_path / "uploads").mkdir()
    (tmp_path / "uploads" / MODEL_BUSY).touch()
    jobs = Jobs(tmp_path / "uploads", {}, {})
    assert not (tmp_path / "uploads" / MODEL_BUSY).exists()
    jobs.close()


def test_a_job_waits_while_the_flag_is_up(tmp_path):
    flag = tmp_path / MODEL_BUSY
    assert yield_to_model(flag) == 0.0  # not busy: no wait
    flag.touch()
    said = []
    threading.Timer(0.3, flag.unlink).start()
    assert yield_to_model(flag, said.append) > 0 and said == [True, False]


def _progress(folder):
    try:
        return json.loads((folder / "progress.json").read_text())
    except (OSError, ValueError):
        return None


@pytest.mark.slow
def test_an_upload_does_not_index_while_the_model_answers(index_copy, tmp_path):
    before = EdgeRAG(index_copy, Settings(progress=False))
    docs = before.index.counts()["docs"]
    before.close()
    jobs = Jobs(tmp_path / "uploads", {"main": index_copy}, {"progress": False})
    try:
        jobs.model_busy(True)  # an answer is under way
        job, files = jobs.new_upload("main")
        (files / "quarry.txt").write_text("The Halloway quarry closed in 1931 after the river flooded its lower pit.\n")
        job.files, job.names = [str(files / "quarry.txt")], ["quarry.txt"]
        jobs.add(job)
        folder = jobs.folder(job.id)
        end = time.monotonic() + 120
        while (p := _progress(folder)) is None or p.get("paused") != PAUSED:
            assert time.monotonic() < end, "the job never said it paused"
            time.sleep(0.2)
        assert jobs.get(job.id)["state"] == "running" and jobs.get(job.id)["result"] is None
        jobs.model_busy(False)  # the answer is done
        done = jobs.wait(job.id, 180)
        assert done["state"] == "done", done
        assert done["result"]["docs_added"] == 1 and "paused" not in done["progress"]
    finally:
        jobs.close()
    after = EdgeRAG(index_copy, Settings(progress=False))
    assert after.index.counts()["docs"] == docs + 1
    after.close()
