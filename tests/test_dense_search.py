"""Dense search (issue #40): exact up to ``exact_search_max`` vectors, hnswlib past it, over a
real LMDB vector set. Exact search returns what a brute-force product returns, ties in label
order, and drops vectors deleted by another process, as hnswlib does."""

from __future__ import annotations

import numpy as np

from edgerag.store.tables import Tables
from edgerag.store.vectors import VectorSet

DIM = 32


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _set(tmp_path, vectors: np.ndarray) -> tuple[Tables, VectorSet]:
    tables = Tables(str(tmp_path / "lmdb"), map_size=1 << 26)
    vs = VectorSet(tables, tmp_path / "vectors", "chunks", DIM)
    with tables.write() as txn:
        vs.put(txn, [f"c{i}" for i in range(len(vectors))], vectors)
    return tables, vs


def test_exact_search_is_the_brute_force_top_k(tmp_path):
    rng = np.random.default_rng(7)
    vectors = _unit(rng.normal(size=(3000, DIM)))
    tables, vs = _set(tmp_path, vectors)
    queries = _unit(rng.normal(size=(40, DIM)))
    ids, sims = vs.knn_many(queries, 10)
    truth = np.argsort(-(queries @ vectors.T), axis=1, kind="stable")[:, :10]
    assert ids == [[f"c{j}" for j in row] for row in truth]
    assert np.allclose(sims, np.take_along_axis(queries @ vectors.T, truth, axis=1), atol=1e-6)
    one = vs.search(queries[0], 5)
    assert [u for u, _ in one] == ids[0][:5]
    tables.close()


def test_the_outlier_among_look_alikes_is_found_first(tmp_path):
    """9,999 near-copies and one vector unlike them: the query nearest the outlier gets it
    first, however the approximate graph was built."""
    rng = np.random.default_rng(3)
    base = rng.normal(size=DIM)
    crowd = _unit(base + 0.05 * rng.normal(size=(9999, DIM)))
    outlier = _unit(rng.normal(size=(1, DIM)))
    vectors = np.concatenate([crowd[:5123], outlier, crowd[5123:]])
    tables, vs = _set(tmp_path, vectors)
    query = _unit(outlier + 0.3 * _unit(base[None, :]))[0]
    assert vs.search(query, 10)[0][0] == "c5123"
    tables.close()


def test_ties_keep_insertion_order_and_another_process_delete_is_dropped(tmp_path):
    rng = np.random.default_rng(1)
    same = _unit(rng.normal(size=(1, DIM)))
    vectors = np.concatenate([_unit(rng.normal(size=(50, DIM))), np.repeat(same, 4, axis=0)])
    tables, vs = _set(tmp_path, vectors)
    assert [u for u, _ in vs.search(same[0], 4)] == ["c50", "c51", "c52", "c53"]
    other = VectorSet(tables, tmp_path / "vectors", "chunks", DIM)  # another reader's view
    with tables.write() as txn:
        labels = other.delete(txn, ["c51"])
    assert labels == [51]
    assert [u for u, _ in vs.search(same[0], 4)][:3] == ["c50", "c52", "c53"]
    assert "c51" not in [u for u, _ in vs.search(same[0], 10)]
    vs.forget(labels)
    assert len(vs._rows[0]) == len(vs) == 53
    with tables.write() as txn:  # a vector added after this process read the set is found
        vs.put(txn, ["late"], same)
    assert "late" in [u for u, _ in vs.search(same[0], 4)]
    tables.close()


def test_past_the_limit_hnswlib_answers(tmp_path):
    rng = np.random.default_rng(5)
    vectors = _unit(rng.normal(size=(500, DIM)))
    tables, vs = _set(tmp_path, vectors)
    queries = _unit(rng.normal(size=(20, DIM)))
    approx, _ = vs.knn_many(queries, 10, exact_max=100)
    assert vs._hnsw is not None and vs._hnsw.get_current_count() == 500 and vs._rows is None
    exact, _ = vs.knn_many(queries, 10)
    recall = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact)])
    assert recall >= 0.9
    tables.close()
