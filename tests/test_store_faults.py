"""The index under stress: readers while another process writes, two writers, a full disk,
a read-only directory. Real processes, real LMDB files and hnswlib caches."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from edgerag import EdgeRAG
from edgerag.store import Index

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION, SAMPLE
from .helpers import consistent

pytestmark = pytest.mark.slow


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "edgerag.cli.main", *args]


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "EDGERAG_PROGRESS": "lines", **extra}


@pytest.fixture
def more_docs(tmp_path) -> Path:
    """120 sample passages the session index does not hold, one file each."""
    out = tmp_path / "more"
    out.mkdir()
    for i, line in enumerate((SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[60:180]):
        (out / f"p{i:03d}.jsonl").write_text(line + "\n", encoding="utf-8")
    return out


def test_readers_see_whole_batches_while_another_process_writes_and_a_second_writer_is_refused(index_copy, more_docs, tmp_path):
    before = consistent(index_copy)
    writer = subprocess.Popen(
        # every piece embedded while indexing: the slowest way, so the writer holds the lock for seconds
        _cli("index", str(more_docs), "--index", str(index_copy), "--docs-per-batch", "2", "--embed-pieces-at-index"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    reader = EdgeRAG(index_copy)
    seen, second = [], None
    for line in writer.stderr:
        if not line.startswith("indexing"):
            continue
        if second is None:  # the writer holds the lock (taken before its first line) and has 60 batches to go
            second = subprocess.Popen(
                _cli("index", str(DATA / "planted"), "--index", str(index_copy)),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=_env(),
            )
        counts = consistent(index_copy)  # opens, checks one snapshot, closes
        assert (counts["docs"] - before["docs"]) % 2 == 0
        seen.append(counts["docs"])
        ctx = reader.retrieve(PLANTED_QUESTION, method="text", budget=400)  # the reader's cache tops up from LMDB
        assert PLANTED_ANSWER in ctx.units[0].text
        assert all(reader.index.get(f"{u.kind}s", u.id) is not None for u in ctx.units)
    assert writer.wait() == 0
    assert seen == sorted(seen) and len(set(seen)) >= 3  # readers watched the index grow
    _, err = second.communicate(timeout=120)
    assert second.returncode == 2, err
    assert "is being written by pid" in err and "queries still work" in err
    assert consistent(index_copy)["docs"] == before["docs"] + 120
    assert len(reader.index.vectors["chunks"].search(reader.embedder.encode(["pears"])[0], 400)) == before["chunks"] + 120


def _fsize_limit(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG from write() instead of a signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_is_a_clear_error_and_keeps_what_was_committed(index_copy, more_docs):
    before = consistent(index_copy)
    data = index_copy / "lmdb" / "data.mdb"
    limit = data.stat().st_size + 64 * 1024  # room for a batch or so, then the "disk" is full
    r = subprocess.run(
        _cli("index", str(more_docs), "--index", str(index_copy), "--docs-per-batch", "10"),
        capture_output=True,
        text=True,
        env=_env(),
        preexec_fn=_fsize_limit(limit),
    )
    assert r.returncode == 2, r.stderr[-2000:]
    assert "could not write" in r.stderr and "disk is probably full" in r.stderr and "Traceback" not in r.stderr
    assert "run the same command again" in r.stderr
    after = consistent(index_copy)  # opens; documents, chunks and vectors agree
    assert before["docs"] <= after["docs"] < before["docs"] + 120 and (after["docs"] - before["docs"]) % 10 == 0
    assert data.stat().st_size <= limit
    rag = EdgeRAG(index_copy)
    assert PLANTED_ANSWER in rag.retrieve(PLANTED_QUESTION, method="text", budget=300).units[0].text
    rag.close()
    # with space again, the same command finishes the job
    done = subprocess.run(_cli("index", str(more_docs), "--index", str(index_copy)), capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr
    assert consistent(index_copy)["docs"] == before["docs"] + 120


def _read_only(path: Path):
    """A runner for commands that see ``path`` read-only, or None if this machine cannot make
    one. Root ignores permission bits, so as root the commands run in a private mount
    namespace where ``path`` is bind-mounted read-only (EROFS, as on a read-only mount)."""
    if os.geteuid() != 0:
        for p in [path, *path.rglob("*")]:
            p.chmod(0o555 if p.is_dir() else 0o444)
        return lambda cmd: subprocess.run(cmd, capture_output=True, text=True, env=_env())
    if not shutil.which("unshare"):
        return None
    mount = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", mount, str(path), "true"], capture_output=True)
    if probe.returncode != 0:
        return None
    return lambda cmd: subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", mount, str(path), *cmd], capture_output=True, text=True, env=_env()
    )


def test_a_read_only_index_answers_queries_and_refuses_writes_by_name(index_copy, monkeypatch):
    run = _read_only(index_copy)
    before = {p: p.stat().st_mtime_ns for p in index_copy.rglob("*")}
    try:
        if run is not None:
            # text: the default bridge-ppr needs its link graph, which a read-only index cannot build
            q = run(_cli("query", PLANTED_QUESTION, "--index", str(index_copy), "--method", "text", "--budget", "300", "--json"))
            assert q.returncode == 0, q.stderr[-2000:]
            assert PLANTED_ANSWER in q.stdout
            w = run(_cli("index", str(DATA / "planted"), "--index", str(index_copy)))
            assert w.returncode == 2 and "is read-only" in w.stderr and "queries work" in w.stderr, w.stderr[-2000:]
        else:  # no way to make a read-only directory here: the same code path, told it is one
            import edgerag.store.index as store_index

            monkeypatch.setattr(store_index, "_writable", lambda path: False)
            rag = EdgeRAG(index_copy)
            assert rag.index.read_only and PLANTED_ANSWER in rag.retrieve(PLANTED_QUESTION, method="text", budget=300).units[0].text
            with pytest.raises(Exception, match="is read-only"):
                rag.insert([DATA / "planted"])
            rag.close()
        assert {p: p.stat().st_mtime_ns for p in index_copy.rglob("*")} == before  # not a byte changed
    finally:
        for p in [index_copy, *index_copy.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)


def test_an_index_from_a_newer_edgerag_is_refused_before_anything_is_written(index_copy):
    import json

    m = index_copy / "manifest.json"
    manifest = json.loads(m.read_text())
    manifest["format"] = 99
    m.write_text(json.dumps(manifest))
    before = {p: p.stat().st_mtime_ns for p in index_copy.rglob("*")}
    r = subprocess.run(_cli("index", str(DATA / "planted"), "--index", str(index_copy)), capture_output=True, text=True, env=_env())
    assert r.returncode == 2 and "index format 99, newer than this edgerag reads" in r.stderr
    assert {p: p.stat().st_mtime_ns for p in index_copy.rglob("*")} == before
    with pytest.raises(Exception, match="upgrade edgerag"):
        Index.open(index_copy, create=False)
