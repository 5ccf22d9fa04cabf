"""Writing an index while it answers: uploads and deletions as jobs, one at a time, each in a
child process (`Jobs`).

The one-writer rule stays whole: jobs run one after another (an upload during an upload waits
in line), and each takes the index's writer lock as ``edgerag index`` does, so a terminal's
``edgerag index`` and the server never write at once (a job that finds the lock taken waits and
tries again). The server keeps answering meanwhile: LMDB lets it read while a child writes, and
it sees the new documents at its next query (store/vectors.py tops up from LMDB).

A job lives in ``UPLOADS/<id>/``: ``job.json`` (what it is and its state, written by the server),
``files/`` (the uploaded files, which stay the documents' source), and ``progress.json`` and
``result.json`` (written by the child, write_job.py). A job the server did not see finish (the
server was killed, or stopped) is queued again when it starts: indexing resumes where its
committed batches ended, a deletion is made again.

An upload's indexing does not share the cores with an answer (issue #57): llama.cpp runs a
thread a core and waits for the slowest, so an embedding batch beside it slows an answer several
times over. While the model runs a call (model_queue.py calls `Jobs.model_busy`), the file
`MODEL_BUSY` exists in the jobs' folder, and the child pauses at its next batch boundary until it
is gone (write_job.py `yield_to_model`); the child also runs at a lower CPU priority, so a batch
under way when an answer starts takes what the answer leaves.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..ingest import SUPPORTED_SUFFIXES
from .write_job import LOCKED_EXIT, MODEL_BUSY

log = logging.getLogger("edgerag.serve")

LOCK_RETRY_S = 5.0
UNFINISHED = ("queued", "running", "waiting")


@dataclass
class Job:
    id: str
    kind: str
    """``upload`` or ``delete``."""
    index: str
    path: str
    """The index's directory."""
    state: str = "queued"
    """queued → running (waiting while another process writes the index) → done or failed."""
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    files: list[str] = field(default_factory=list)
    """Uploads: the stored files, inside the job's ``files/``."""
    names: list[str] = field(default_factory=list)
    """Uploads: the file names the client sent."""
    doc_ids: list[str] = field(default_factory=list)
    """Deletions: documents or indexed file paths."""
    settings: dict[str, Any] = field(default_factory=dict)
    attempts: int = 0
    note: str = ""
    error: str = ""


def safe_name(name: str) -> str:
    """An uploaded file's name reduced to a plain file name: no folders, no '..', no control
    characters. `ValueError` when nothing usable is left or its format is not one edgerag reads."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = re.sub(r"[\x00-\x1f\x7f]", "", base).strip().lstrip(".")
    base = re.sub(r"[^\w.\- ()+,@]", "_", base)[:200]
    if not base or base in (".", ".."):
        raise ValueError(f"the file name {name!r} names no file")
    if Path(base).suffix.lower() not in SUPPORTED_SUFFIXES:
        raise ValueError(f"{base!r}: edgerag reads {', '.join(SUPPORTED_SUFFIXES)} files")
    return base


class Jobs:
    """The server's writing jobs: queued, run one at a time in child processes, kept on disk."""

    def __init__(self, root: Path, index_paths: dict[str, Path], settings: dict[str, Any]) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.index_paths = index_paths
        self.settings = settings
        self._jobs: dict[str, Job] = {}
        self._queue: list[str] = []
        self._cond = threading.Condition()
        self._child: subprocess.Popen | None = None
        self._closed = False
        self.model_busy(False)  # a flag a killed server left behind
        self.resumed = self._load()
        self._thread = threading.Thread(target=self._work, name="edgerag-writer", daemon=True)
        self._thread.start()

    # ---- on disk ---------------------------------------------------------------------------
    def folder(self, job_id: str) -> Path:
        return self.root / job_id

    def _save(self, job: Job) -> None:
        path = self.folder(job.id) / "job.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(job), indent=2, ensure_ascii=False))
        os.replace(tmp, path)

    def _load(self) -> list[str]:
        """Jobs on disk; those that did not finish are queued again (for indexes still served)."""
        resumed = []
        found = []
        for path in self.root.glob("*/job.json"):
            try:
                job = Job(**json.loads(path.read_text()))
            except (OSError, ValueError, TypeError) as e:
                log.warning("%s is unreadable (%s): job skipped", path, e)
                continue
            found.append(job)
        for job in sorted(found, key=lambda j: j.created):
            self._jobs[job.id] = job
            if job.state in UNFINISHED and job.index in self.index_paths:
                job.state, job.note = "queued", "resumed: the server stopped before it finished"
                self._save(job)
                self._queue.append(job.id)
                resumed.append(job.id)
        return resumed

    # ---- asking ----------------------------------------------------------------------------
    def new_upload(self, index: str) -> tuple[Job, Path]:
        """A job for ``index`` and the folder its files go in (`add_upload` queues it)."""
        job = Job(id=uuid.uuid4().hex[:16], kind="upload", index=index, path=str(self.index_paths[index]), settings=self.settings)
        files = self.folder(job.id) / "files"
        files.mkdir(parents=True)
        return job, files

    def add(self, job: Job) -> Job:
        with self._cond:
            self.folder(job.id).mkdir(parents=True, exist_ok=True)
            self._save(job)
            self._jobs[job.id] = job
            self._queue.append(job.id)
            self._cond.notify()
        return job

    def new_delete(self, index: str, doc_ids: list[str]) -> Job:
        job = Job(id=uuid.uuid4().hex[:16], kind="delete", index=index, path=str(self.index_paths[index]), doc_ids=doc_ids)
        job.settings = self.settings
        return self.add(job)

    def get(self, job_id: str) -> dict[str, Any]:
        """The job as a client reads it: its record, its progress and its result. KeyError if unknown."""
        if not re.fullmatch(r"[0-9a-f]{16}", job_id) or job_id not in self._jobs:
            raise KeyError(job_id)
        job = self._jobs[job_id]
        out = asdict(job)
        out.pop("settings", None)
        out["files"] = [Path(f).name for f in job.files]
        for name in ("progress", "result"):
            try:
                out[name] = json.loads((self.folder(job_id) / f"{name}.json").read_text())
            except (OSError, ValueError):
                out[name] = None
        with self._cond:
            out["ahead"] = self._queue.index(job_id) + (self._child is not None) if job_id in self._queue else 0
        return out

    def list(self, index: str | None = None) -> list[dict[str, Any]]:
        return [self.get(j.id) for j in sorted(self._jobs.values(), key=lambda j: j.created) if index in (None, j.index)]

    def wait(self, job_id: str, timeout: float) -> dict[str, Any]:
        """The job once it has finished, or as it is after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._jobs[job_id].state not in ("done", "failed") and time.monotonic() < end:
                self._cond.wait(min(1.0, max(0.0, end - time.monotonic())))
        return self.get(job_id)

    def model_busy(self, busy: bool) -> None:
        """The server's model runs a call (True) or is done (False): the running child pauses
        between batches while it runs (model_queue.py's ``on_busy``)."""
        flag = self.root / MODEL_BUSY
        try:
            if busy:
                flag.touch()
            else:
                flag.unlink(missing_ok=True)
        except OSError:  # a full or read-only disk: the child goes on at its lower priority
            pass

    def busy(self) -> bool:
        with self._cond:
            return self._child is not None or bool(self._queue)

    def close(self) -> None:
        """Stop: the running child is ended (its job resumes at the next start)."""
        with self._cond:
            self._closed = True
            child = self._child
            self._cond.notify_all()
        if child is not None:
            child.terminate()
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
        self.model_busy(False)

    # ---- running ---------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                job = self._jobs[self._queue[0]]
            self._run(job)
            with self._cond:
                if job.state in ("done", "failed"):
                    self._queue.remove(job.id)
                self._cond.notify_all()

    def _run(self, job: Job) -> None:
        job.state, job.started, job.attempts = "running", job.started or time.time(), job.attempts + 1
        self._save(job)
        folder = self.folder(job.id)
        (folder / "result.json").unlink(missing_ok=True)
        err_path = folder / "child.log"
        with open(err_path, "wb") as err:
            child = subprocess.Popen(
                [sys.executable, "-m", "edgerag.serve.write_job", str(folder)],
                stdin=subprocess.DEVNULL,
                stdout=err,
                stderr=err,
                env={**os.environ, "EDGERAG_PROGRESS": ""},
            )
            with self._cond:
                self._child = child
            code = child.wait()
            with self._cond:
                self._child = None
        if self._closed:  # stopped with the server: resumes at its next start
            return
        try:
            result = json.loads((folder / "result.json").read_text())
        except (OSError, ValueError):
            result = None
        if code == LOCKED_EXIT:
            job.state, job.note = "waiting", (result or {}).get("error", "another process is writing the index")
            self._save(job)
            time.sleep(LOCK_RETRY_S)
            return
        if code == 0 and result is not None and not result.get("error"):
            job.state, job.error = "done", ""
        else:
            tail = err_path.read_text(errors="replace")[-800:] if err_path.exists() else ""
            job.state = "failed"
            job.error = (result or {}).get("error") or f"the indexing process ended with status {code}: {tail.strip()[-400:]}"
        job.finished = time.time()
        self._save(job)
