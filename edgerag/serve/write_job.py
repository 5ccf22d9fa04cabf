"""The child process that runs one job of jobs.py: ``python -m edgerag.serve.write_job JOB_DIR``.

It reads ``job.json``, indexes the job's files (or deletes its documents) under the index's
writer lock, writes its progress to ``progress.json`` at every committed step and its outcome
to ``result.json``, and exits 0 (done), `LOCKED_EXIT` (another process writes the index) or 1.
It ends itself when the server that started it is gone, so no orphan writes on: what it had
committed stays, and the server resumes the job when it starts again.

It yields the cores to the server's model (issue #57): while the file `MODEL_BUSY` exists in the
jobs' folder (the model runs a call: jobs.py), it waits before loading the embedder and at every
committed step (`yield_to_model`), its ``progress.json`` saying so; and it runs at `NICE`.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .. import offline  # noqa: F401
from ..progress import Progress, observe
from ..store import IndexLockedError

LOCKED_EXIT = 75
"""The exit status that says another process holds the index's writer lock (jobs.py waits, then tries again)."""
PARENT_POLL_S = 0.5
MODEL_BUSY = "model-busy"
"""The file, in the jobs' folder, that exists while the server's model runs a call (jobs.py `Jobs.model_busy`)."""
YIELD_POLL_S = 0.1
PAUSED = "paused while the model answers"
"""``progress.json``'s ``paused`` while the job yields."""
NICE = 10
"""The child's CPU priority increment: a batch under way when an answer starts takes what the answer leaves."""


def _write(path: Path, obj) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(obj, ensure_ascii=False, default=str))
    os.replace(tmp, path)


def _watch_parent() -> None:
    parent = os.getppid()
    while True:
        time.sleep(PARENT_POLL_S)
        if os.getppid() != parent:
            os._exit(1)  # the server is gone: stop between LMDB commits' pages, LMDB keeps the last commit


def yield_to_model(flag: Path, paused: Callable[[bool], None] | None = None) -> float:
    """Wait while ``flag`` exists (the server's model runs a call); ``paused(True)`` before
    waiting and ``paused(False)`` after. Returns the seconds waited."""
    if not flag.exists():
        return 0.0
    t0 = time.monotonic()
    if paused is not None:
        paused(True)
    while flag.exists():
        time.sleep(YIELD_POLL_S)
    if paused is not None:
        paused(False)
    return time.monotonic() - t0


def main(folder: Path) -> int:
    threading.Thread(target=_watch_parent, daemon=True).start()
    if hasattr(os, "nice"):
        os.nice(NICE)
    job = json.loads((folder / "job.json").read_text())
    flag = folder.parent / MODEL_BUSY

    def paused(state: dict) -> Callable[[bool], None]:
        return lambda now: _write(folder / "progress.json", state | ({"paused": PAUSED} if now else {}) | {"at": time.time()})

    yield_to_model(flag, paused({"desc": "starting", "n": 0, "total": None, "unit": "", "done": False}))
    from ..api import EdgeRAG

    def progress(p: Progress) -> None:
        state = {"desc": p.desc, "n": p.n, "total": p.total, "unit": p.unit, "done": p.done, "at": time.time()}
        _write(folder / "progress.json", state)
        if not p.done:  # between committed steps: the model's answer first
            yield_to_model(flag, paused(state))

    try:
        rag = EdgeRAG(job["path"], **(job.get("settings") or {}))
        with observe(progress):
            if job["kind"] == "upload":
                report = rag.insert(job["files"])
                result = {
                    "docs_added": report.docs_added,
                    "docs_present": report.docs_present,
                    "chunks": report.chunks,
                    "files_unchanged": report.files_unchanged,
                    "files_replaced": report.files_replaced,
                    "skipped": [{"source": Path(s).name, "reason": r} for s, r in report.skipped],
                    "seconds": round(report.seconds, 2),
                    "summary": report.summary(),
                }
            else:
                r = rag.delete(job["doc_ids"])
                result = {"deleted": r.deleted, "missing": r.missing, "chunks": r.chunks, "stages_rebuilt": r.stages_rebuilt}
        rag.close()
    except IndexLockedError as e:
        _write(folder / "result.json", {"error": str(e)})
        return LOCKED_EXIT
    except Exception as e:  # the server reads the reason from result.json
        _write(folder / "result.json", {"error": f"{type(e).__name__}: {e}" if not isinstance(e, ValueError) else str(e)})
        return 1
    _write(folder / "result.json", result)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
