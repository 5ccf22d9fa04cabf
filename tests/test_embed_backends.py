"""The embedder's backends (issues #32, #40) and the piece vectors left to first use, against
the real pip-shipped MiniLM, ONNX Runtime, LMDB and hnswlib."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from edgerag import EdgeRAG, Settings
from edgerag.answer.evidence import evidence_units
from edgerag.build import graph_steps
from edgerag.embed import pieces
from edgerag.embed.embedder import Embedder, EmbedderError, _load_model, pick_backend, resolve_embedder_path
from edgerag.embed.onnx import exported_path
from edgerag.llm.cpu import cpu_class, cpu_flags
from edgerag.llm.models import cache_dir
from edgerag.store import IndexUnusableError

from .conftest import DATA, PLANTED_QUESTION, SAMPLE, read_jsonl

TEXTS = [p["text"] for p in read_jsonl(SAMPLE / "corpus.jsonl")[:30]] + ["K-17", "The valve failed in March.", "word " * 400]


HERE = cpu_class(cpu_flags())
ELSEWHERE = "avx2" if HERE != "avx2" else "avx512-vnni"


@pytest.fixture(scope="module")
def both():
    return Embedder(backend="onnx-int8"), Embedder(backend="torch")


def test_float32_onnx_gives_torch_vectors(both):
    """The default on a CPU: the same vectors as torch, to float rounding (so the same on
    every CPU: an AVX2 and an AVX-512 host agree to 1e-7, docs/operations.md)."""
    _, torch = both
    fp32 = Embedder(backend="onnx")
    cos = (fp32.encode(TEXTS) * torch.encode(TEXTS)).sum(axis=1)
    assert cos.min() >= 0.99999, cos.min()
    assert fp32.model_id == torch.model_id + "+onnx" and fp32.dim == 384


def test_int8_is_the_same_model_within_int8_noise(both):
    int8, torch = both
    cos = (int8.encode(TEXTS) * torch.encode(TEXTS)).sum(axis=1)
    assert cos.min() >= 0.98 and cos.mean() >= 0.99, (cos.min(), cos.mean())
    assert int8.model_id == f"{torch.model_id}+onnx-int8:{HERE}" and int8.dim == torch.dim == 384
    assert int8.fits(TEXTS) == torch.fits(TEXTS) and not int8.fits(TEXTS)[-1]  # 400 words exceed the window


def test_an_int8_vector_depends_on_its_text_alone(both):
    int8, _ = both
    together = int8.encode(TEXTS)
    alone = np.stack([int8.encode_one(t) for t in TEXTS[::7]])
    assert np.array_equal(together[::7], alone)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_auto_picks_float32_onnx_on_a_cpu_and_torch_where_the_model_does_not_export(tmp_path):
    model = resolve_embedder_path()
    assert pick_backend("auto", "cpu", model)[0] == "onnx"
    assert pick_backend("auto", "cuda", model) == ("torch", "the cuda device runs torch")
    odd = tmp_path / "odd"
    odd.mkdir()
    for f in model.iterdir():
        (odd / f.name).symlink_to(f)
    (odd / "modules.json").unlink()
    mods = json.loads((model / "modules.json").read_text())
    (odd / "modules.json").write_text(
        json.dumps([*mods, {"idx": 3, "name": "3", "path": "3_Dense", "type": "sentence_transformers.models.Dense"}])
    )
    backend, why = pick_backend("auto", "cpu", odd)
    assert backend == "torch" and "Dense" in why
    with pytest.raises(EmbedderError, match="Dense"):
        pick_backend("onnx-int8", "cpu", odd)
    with pytest.raises(EmbedderError, match="embed_backend must be"):
        pick_backend("openvino", "cpu", model)


def test_a_damaged_export_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path))
    e = Embedder(backend="onnx-int8")
    target = exported_path(cache_dir(), e.weights_id)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not an onnx file")
    _load_model.cache_clear()
    try:
        v = e.encode_one("The valve failed in March.")
    finally:
        _load_model.cache_clear()
    assert target.stat().st_size > 10_000_000 and abs(float(np.linalg.norm(v)) - 1.0) < 1e-5


def test_an_index_is_queried_with_the_backend_that_embedded_it(tmp_path, small_corpus):
    path = tmp_path / "torch-index"
    EdgeRAG(path, Settings(embed_backend="torch", progress=False)).insert([small_corpus])
    reopened = EdgeRAG(path, progress=False)  # auto: the index's own backend
    assert reopened.settings.embed_backend == "torch" and reopened.embedder.backend == "torch"
    assert reopened.retrieve("Who directed the film?", method="text").units
    mixed = EdgeRAG(path, Settings(embed_backend="onnx-int8", progress=False))
    with pytest.raises(IndexUnusableError, match="embed-backend"):
        mixed.retrieve("Who directed the film?", method="text")


def _made_on(path, cpu: str | None) -> None:
    """Rewrite an int8 index's manifest as if another class of CPU had made it (None: as an
    index made before ids named the class)."""
    manifest = path / "manifest.json"
    data = json.loads(manifest.read_text())
    weights = data["embedder"]["id"].partition("+")[0]
    data["embedder"]["id"] = f"{weights}+onnx-int8" + (f":{cpu}" if cpu else "")
    manifest.write_text(json.dumps(data))


def test_int8_vectors_of_another_class_of_cpu_are_refused_by_name(tmp_path, small_corpus):
    path = tmp_path / "int8-index"
    EdgeRAG(path, Settings(embed_backend="onnx-int8", progress=False)).insert([small_corpus])
    here = EdgeRAG(path, progress=False)  # auto adopts the index's backend
    assert here.embedder.model_id.endswith(f"+onnx-int8:{HERE}") and here.retrieve("Who directed the film?", method="text").units

    _made_on(path, ELSEWHERE)
    moved = EdgeRAG(path, progress=False)
    assert moved.settings.embed_backend == "onnx-int8"
    with pytest.raises(IndexUnusableError, match=f"made on a {ELSEWHERE} CPU; this is a {HERE} CPU.*--embed-backend onnx"):
        moved.retrieve("Who directed the film?", method="text")
    with pytest.raises(IndexUnusableError, match=f"made on a {ELSEWHERE} CPU"):
        moved.insert([DATA / "planted"])
    assert EdgeRAG(path, progress=False).index.counts()["docs"] == 40  # nothing was written

    _made_on(path, None)  # an index from before: its class unknown, read as it always was
    assert EdgeRAG(path, progress=False).retrieve("Who directed the film?", method="text").units


def test_a_ray_worker_on_another_class_of_cpu_is_refused(both, monkeypatch):
    """Ray workers on mixed CPUs give one machine's index: a worker whose int8 vectors would
    differ is refused (called directly here, as Ray would on that node)."""
    from edgerag.cluster import indexing as distributed
    from edgerag.cluster.indexing import EmbedWorker

    monkeypatch.setattr(distributed, "_node_name", lambda: "node-b")  # asking Ray would start it
    int8, _ = both
    theirs = int8.model_id.replace(f":{HERE}", f":{ELSEWHERE}")
    with pytest.raises(EmbedderError, match=f"its CPU \\({HERE}\\) makes other onnx-int8 vectors than this index's \\({ELSEWHERE}\\)"):
        EmbedWorker("default", "cpu", 64, 1, theirs, backend="onnx-int8")


def test_pieces_left_to_first_use_get_the_vectors_indexing_would_have_given(tmp_path, small_corpus):
    lazy = EdgeRAG(tmp_path / "lazy", Settings(progress=False))
    eager = EdgeRAG(tmp_path / "eager", Settings(progress=False, embed_pieces_at_index=True))
    lazy_report = lazy.insert([small_corpus, DATA / "planted"])
    eager_report = eager.insert([small_corpus, DATA / "planted"])
    assert lazy_report.texts_embedded * 2 < eager_report.texts_embedded
    waiting = pieces.missing(lazy.index)
    assert waiting["sentences"] and pieces.missing(eager.index) == {"subchunks": [], "sentences": []}

    # a query's few pieces: embedded now, equal to the ones indexing stored, and kept (#41) so
    # that the next process does not embed them again
    some = waiting["sentences"][:25]
    assert np.array_equal(pieces.vectors_of(lazy.index, lazy.embedder, "sentences", some), eager.index.vectors["sentences"].get(some))
    assert pieces.missing(lazy.index)["sentences"] == waiting["sentences"][25:]
    assert np.array_equal(lazy.index.vectors["sentences"].get(some), eager.index.vectors["sentences"].get(some))
    again = EdgeRAG(lazy.path, progress=False)
    assert np.array_equal(pieces.vectors_of(again.index, again.embedder, "sentences", some), eager.index.vectors["sentences"].get(some))
    assert again.embedder.texts_embedded == 0
    ctx = lazy.retrieve(PLANTED_QUESTION, method="bridge-ppr", budget=1200)
    got = evidence_units(lazy.index, lazy.embedder, PLANTED_QUESTION, ctx.units, 300)
    want = evidence_units(
        eager.index, eager.embedder, PLANTED_QUESTION, eager.retrieve(PLANTED_QUESTION, method="bridge-ppr", budget=1200).units, 300
    )
    assert [u.text for u in got] == [u.text for u in want] and "tangerine-42" in " ".join(u.text for u in got)

    # a method that reads every piece embeds the rest first, once, as a build stage
    assert [name for name, _ in graph_steps(lazy, "keyword")] == ["pieces", "bipartite"]
    assert [name for name, _ in graph_steps(lazy, "bridge-ppr")] == ["links"]
    left = pieces.missing(lazy.index)
    done = lazy.build("keyword")
    assert done["pieces"]["embedded"] == sum(len(v) for v in left.values()) > 0
    assert pieces.missing(lazy.index) == {"subchunks": [], "sentences": []}
    for method in ("keyword", "concept", "text"):
        got = [u.id for u in lazy.retrieve(PLANTED_QUESTION, method=method, budget=800).units]
        assert got == [u.id for u in eager.retrieve(PLANTED_QUESTION, method=method, budget=800).units], method


def test_the_keyword_graph_refuses_a_partial_set_of_sentence_vectors(tmp_path, small_corpus):
    from edgerag.graph.bipartite import build_keyword_graph

    rag = EdgeRAG(tmp_path / "i", Settings(progress=False))
    rag.insert([small_corpus])
    with pytest.raises(RuntimeError, match="embed_missing"):
        build_keyword_graph(rag.index)


def test_subchunks_as_the_text_unit_are_embedded_on_first_use(index_copy):
    shutil.rmtree(index_copy / "vectors", ignore_errors=True)  # the hnswlib caches rebuild from LMDB
    rag = EdgeRAG(index_copy, Settings(text_unit="subchunks", progress=False))
    ctx = rag.retrieve(PLANTED_QUESTION, method="text", budget=200)
    assert ctx.units[0].kind == "subchunk" and "tangerine-42" in ctx.units[0].text
    assert pieces.missing(rag.index)["subchunks"] == []
