"""Batch indexing on Ray (issue #24): a local Ray instance (2 CPUs), two workers each, the real
embedder and the real GGUF. The Ray index and KG must equal the local ones even though one
model worker is killed mid-build, and the ledger must bill every chunk once. Control-flow
cases (a worker that writes garbage, one that answers something that is not a completion,
one with another model) use stand-in workers.

Skipped when Ray is not installed (``pip install -e '.[ray]'``)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from edgerag import EdgeRAG, Settings  # noqa: E402
from edgerag.cluster.indexing import Computed, LLMWorker, llm_runner  # noqa: E402
from edgerag.cluster.ray_pool import DistributedError, Pool, RayOptions, WorkerInfo  # noqa: E402
from edgerag.graph.kg import extract_chunks  # noqa: E402
from edgerag.graph.names_graph import extract_names  # noqa: E402
from edgerag.llm.local import Completion  # noqa: E402
from edgerag.llm.metered import MeteredLLM  # noqa: E402
from edgerag.llm.models import resolve_model  # noqa: E402
from edgerag.progress import observe  # noqa: E402

from .conftest import DATA, SAMPLE  # noqa: E402
from .helpers import (  # noqa: E402
    NamesLLM,
    ScriptedLLM,
    consistent,
    same_arrays,
)

N_DOCS = 6


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local_ray():
    """A Ray instance on this machine for the module, small and without a dashboard."""
    ray.init(num_cpus=2, object_store_memory=200 * 2**20, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ray") / "corpus.jsonl"
    out.write_text("\n".join((SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[:N_DOCS]) + "\n", encoding="utf-8")
    return out


def _llm_workers() -> list[str]:
    return sorted(n for n in ray.util.list_named_actors() if n.startswith("edgerag-llm"))


@pytest.mark.model
def test_ray_build_equals_local_build_with_a_worker_killed(local_ray, corpus, tmp_path):
    model = str(resolve_model(None))
    ref, dist = tmp_path / "local", tmp_path / "ray"
    a = EdgeRAG(ref, Settings(progress=False, model=model))
    a.insert([corpus])
    b = EdgeRAG(dist, Settings(progress=False, model=model))
    b.insert([corpus], ray=RayOptions(workers=2))
    assert not [n for n in ray.util.list_named_actors() if n.startswith("edgerag-")], "embedding workers left running"

    # same documents, chunks and pieces; vectors equal within float tolerance
    assert consistent(ref) == consistent(dist)
    assert [(d["id"], d["chunks"]) for d in a.documents()] == [(d["id"], d["chunks"]) for d in b.documents()]
    for table in ("chunks", "subchunks", "sentences"):
        ids = a.index.ids(table)
        assert ids == b.index.ids(table) and a.index.get_many(table, ids) == b.index.get_many(table, ids)
        with_vectors = sorted(a.index.vectors[table].ids())  # indexing embeds pieces only where their text is a chunk's
        assert with_vectors == sorted(b.index.vectors[table].ids()) and (table != "chunks" or len(with_vectors) == len(ids))
        va, vb = a.index.vectors[table].get(with_vectors), b.index.vectors[table].get(with_vectors)
        assert np.allclose(va, vb, atol=1e-5), f"{table} vectors differ"

    a.build("kg")
    killed: list[str] = []

    def kill_one_worker(p):
        if p.desc.startswith("extracting") and p.n >= 1 and not killed:
            name = _llm_workers()[0]
            ray.kill(ray.get_actor(name), no_restart=True)
            killed.append(name)

    with observe(kill_one_worker):
        out = b.build("kg", ray=RayOptions(workers=2))
    assert killed and out["ray"]["retired"] and out["ray"]["resent"] >= 1, out["ray"]
    assert not _llm_workers(), "model workers left running"

    # same KG: extractions, stage fingerprints and arrays
    chunks = a.index.ids("chunks")
    assert a.index.ids("extractions") == b.index.ids("extractions") == chunks

    def found(rag):
        return [
            (
                sorted(e["name"] for e in x["entities"]),
                sorted((r["source"], r["description"], r["target"]) for r in x["relations"]),
                x["extractor"],
            )
            for x in rag.index.get_many("extractions", chunks)
        ]

    assert found(a) == found(b)
    assert sorted(a.stages()) == sorted(b.stages())
    for name, rec in a.stages().items():
        other = b.stages()[name]

        def what(r):  # fingerprints and counts; not when or how fast it was built
            return {k: v for k, v in r.items() if k not in ("seconds", "built") and not isinstance(v, float)}

        assert what(rec) == what(other), (name, {k: (v, other.get(k)) for k, v in rec.items() if v != other.get(k)})
        same_arrays(ref, dist, name)

    # billed once: one fresh extraction call per chunk, each naming the worker node that did it
    fresh = [r for r in b.ledger_rows() if r.stage == "extract" and not r.cached]
    assert len(fresh) == len(chunks), f"{len(fresh)} fresh extraction calls for {len(chunks)} chunks"
    assert all(r.node for r in fresh)
    assert sum(out["ray"]["by_node"].values()) == len(chunks)
    a.close()
    b.close()


@pytest.mark.model
def test_a_rerun_after_a_stopped_ray_build_resumes(local_ray, corpus, tmp_path):
    """A driver stopped mid-build (here at the second chunk) keeps what it committed; the same
    call again extracts only the rest, and nothing is billed twice."""
    from edgerag.progress import Cancelled

    path = tmp_path / "ix"
    rag = EdgeRAG(path, Settings(progress=False))
    rag.insert([corpus])

    def stop(p):
        if p.desc.startswith("extracting") and p.n >= 2:
            raise Cancelled("test")

    with observe(stop), pytest.raises(Cancelled):
        rag.build("kg", ray=RayOptions(workers=2))
    assert not _llm_workers()
    done = len(rag.index.ids("extractions"))
    assert done == 2
    out = rag.build("kg", ray=RayOptions(workers=2))
    assert out["extraction"]["already"] == 2 and out["extraction"]["extracted"] == N_DOCS - 2
    fresh = [r for r in rag.ledger_rows() if r.stage == "extract" and not r.cached]
    assert len(fresh) == N_DOCS
    rag.close()


# ---- stand-in workers: control flow only --------------------------------------------------------
class FakeWorker:
    """A worker without a model: ``garbage`` writes nonsense as its completion, ``malformed``
    answers something that is not a completion at all, ``good`` writes a valid line."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def info(self) -> WorkerInfo:
        return WorkerInfo(f"fake-{self.mode}", os.getpid(), 1, "scripted")

    def run(self, call):
        if self.mode == "malformed":
            return {"text": "E | Edith Varga | PERSON"}
        text = (
            'Sure!! ||| {"entities": [}\x00 E |'
            if self.mode == "garbage"
            else "E | " + call.prompt.split("Passage: ")[-1].split()[0] + " | OTHER"
        )
        return Computed(call.key, Completion(text, 10, 10, 5, 0.01, "stop"))


def _fake_pool(*modes: str) -> Pool:
    pools = [Pool.start(ray, FakeWorker, (m,), RayOptions(workers=1), "fake") for m in modes]
    for p in pools[1:]:
        pools[0].workers += p.workers
    return pools[0]


def _chunks(index_copy, n):
    rag = EdgeRAG(index_copy)
    return rag, rag.index.ids("chunks")[:n]


def test_garbage_from_a_worker_is_a_misbehaving_model(local_ray, index_copy):
    rag, cids = _chunks(index_copy, 3)
    llm = MeteredLLM(ScriptedLLM([]), rag.index.tables)
    pool = _fake_pool("garbage")
    try:
        report = extract_chunks(rag.index, llm, cids, "kg", progress=False, runner=llm_runner(pool))
    finally:
        pool.close()
    assert report.extracted == 3 and len(report.zero_yield) == 3
    totals = rag.ledger()["by_stage"]["extract"]
    assert totals["calls"] == 3 and totals["failed_calls"] == 3
    assert {r.node for r in rag.ledger_rows()} == {"fake-garbage"}


def test_a_worker_answering_non_completions_is_retired_and_its_calls_resent(local_ray, index_copy):
    rag, cids = _chunks(index_copy, 4)
    llm = MeteredLLM(ScriptedLLM([]), rag.index.tables)
    pool = _fake_pool("malformed", "good")
    try:
        report = extract_chunks(rag.index, llm, cids, "kg", progress=False, runner=llm_runner(pool))
    finally:
        pool.close()
    assert report.extracted == 4
    assert len(pool.report.retired) == 1 and "fake-malformed" in pool.report.retired[0] and pool.report.resent >= 1
    rows = rag.ledger_rows()
    assert len(rows) == 4 and Counter(r.node for r in rows) == {"fake-good": 4}  # each chunk billed once
    assert sorted(rag.index.ids("extractions")) == sorted(cids)


def test_every_worker_gone_stops_with_the_committed_work_kept(local_ray, index_copy):
    rag, cids = _chunks(index_copy, 3)
    llm = MeteredLLM(ScriptedLLM([]), rag.index.tables)
    pool = _fake_pool("malformed")
    try:
        with pytest.raises(DistributedError, match="every worker is gone"):
            extract_chunks(rag.index, llm, cids, "kg", progress=False, runner=llm_runner(pool))
    finally:
        pool.close()
    assert rag.index.ids("extractions") == [] and rag.ledger_rows() == []


class NamesWorker:
    """TERAG's stand-in model on a worker: names the planted passages (and leaves the orchard
    out of a batch), as tests/helpers.NamesLLM does in one process."""

    def info(self) -> WorkerInfo:
        return WorkerInfo("fake-names", os.getpid(), 1, "scripted")

    def run(self, call):
        return Computed(call.key, NamesLLM().complete(call.prompt, call.stop, call.max_tokens))


def test_terag_naming_on_ray_commits_what_a_local_build_does(local_ray, tmp_path):
    names = {}
    for where in ("local", "ray"):
        rag = EdgeRAG(tmp_path / where, progress=False)
        rag.insert([DATA / "planted"])
        llm = MeteredLLM(NamesLLM(), rag.index.tables)
        cids = rag.index.ids("chunks")
        pool = Pool.start(ray, NamesWorker, (), RayOptions(workers=2), "names") if where == "ray" else None
        try:
            report = extract_names(rag.index, llm, cids, batch=3, progress=False, runner=llm_runner(pool) if pool else None)
        finally:
            if pool:
                pool.close()
        assert report.calls == 2 and report.retried == 1 and report.extracted == 3 and not report.zero_yield, where
        names[where] = {c: {k: v for k, v in r.items() if k != "seconds"} for c, r in zip(cids, rag.index.get_many("names", cids))}
        rows = rag.ledger_rows()
        assert len(rows) == 2 and all(r.stage == "extract" and r.method == "terag" for r in rows)  # each call billed once
        assert {r.node for r in rows} == ({"fake-names"} if pool else {""})
        rag.close()
    assert names["local"] == names["ray"]


def test_a_worker_with_another_model_is_refused(local_ray, tmp_path):
    impostor = tmp_path / "other.gguf"
    impostor.write_bytes(b"GGUF" + os.urandom(64))
    from edgerag.llm.models import model_sha256

    with pytest.raises(DistributedError, match=r"refused: its model .* has sha256"):
        Pool.start(ray, LLMWorker, (str(impostor), 2048, 1, 0, model_sha256(resolve_model(None))), RayOptions(workers=1), "llm")
    assert not _llm_workers()


def test_ray_without_the_extra_is_a_clear_error(monkeypatch, tmp_path):
    import builtins

    from edgerag.cluster.ray_pool import RayUnavailableError, import_ray

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(RayUnavailableError, match=r"pip install 'edgerag\[ray\]'"):
        import_ray()
