"""Ray scaling on this machine (issue #24): 1 worker × 2 threads against 2 workers × 1 thread,
for KG extraction (chunks/s) and embedding (texts/s), and the driver's commit rate alone
(results/s it writes when workers are infinitely fast: the ceiling of the design).

    flock /tmp/edgerag-cpu.lock .venv/bin/python benchmarks/ray_scaling.py [--chunks 8] [--texts 2000]

Extraction: ``--chunks`` passages of the bundled sample through `extract_chunks` with the Ray
runner into a fresh index (empty LLM cache) per layout, model workers started beforehand and
timed apart. Embedding: the same ``--texts`` sentences through `RemoteEmbedder.encode`. Commit
rate: `commit_extraction` of a canned completion per chunk (prepare + cache lookup + one LMDB
transaction, as the driver does per result), and `indexing._write_batch` of precomputed
vectors for embedding. Prints a table and writes benchmarks/results/ray_scaling.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from common import write_result

from edgerag import EdgeRAG, Settings
from edgerag.cluster.indexing import embed_pool, llm_pool, llm_runner
from edgerag.cluster.ray_pool import RayOptions
from edgerag.graph.kg import commit_extraction, extract_chunks, extraction_call, extractor_fingerprint
from edgerag.llm.local import Completion

SAMPLE = Path(__file__).resolve().parent.parent / "edgerag" / "data" / "sample"
LAYOUTS = [(1, 2), (2, 1)]  # (workers, threads each)


def corpus(dirpath: Path, n: int) -> Path:
    out = dirpath / "corpus.jsonl"
    out.write_text("\n".join((SAMPLE / "corpus.jsonl").read_text().splitlines()[:n]) + "\n")
    return out


def extraction(tmp: Path, n_chunks: int) -> list[dict]:
    rows = []
    src = tmp / "base"
    rag = EdgeRAG(src, Settings(progress=False))
    rag.insert([corpus(tmp, n_chunks)])
    rag.close()
    for workers, threads in LAYOUTS:
        path = tmp / f"x{workers}x{threads}"
        shutil.copytree(src, path)
        rag = EdgeRAG(path, Settings(progress=False))
        cids = rag.index.ids("chunks")
        opts = RayOptions(workers=workers, threads=threads, num_cpus=2)
        t0 = time.perf_counter()
        with llm_pool(rag, opts) as pool:
            start = time.perf_counter() - t0
            t1 = time.perf_counter()
            rep = extract_chunks(rag.index, rag.llm, cids, "kg", progress=False, runner=llm_runner(pool))
            secs = time.perf_counter() - t1
        rows.append(
            {
                "what": "extraction",
                "workers": workers,
                "threads": threads,
                "items": rep.extracted,
                "seconds": round(secs, 2),
                "per_s": round(rep.extracted / secs, 3),
                "startup_s": round(start, 1),
            }
        )
        print(rows[-1], flush=True)
        rag.close()
    return rows


def embedding(n_texts: int) -> list[dict]:
    from edgerag.embed.embedder import Embedder

    texts = []
    for line in (SAMPLE / "corpus.jsonl").read_text().splitlines():
        texts += [s.strip() + "." for s in json.loads(line)["text"].split(". ") if s.strip()]
    texts = (texts * (1 + n_texts // max(1, len(texts))))[:n_texts]
    local = Embedder()
    rows = []
    for workers, threads in LAYOUTS:
        opts = RayOptions(workers=workers, threads=threads, num_cpus=2, embed_slice=64)
        t0 = time.perf_counter()
        with embed_pool(local, opts) as remote:
            start = time.perf_counter() - t0
            remote.encode(texts[:64])  # warm-up
            t1 = time.perf_counter()
            remote.encode(texts)
            secs = time.perf_counter() - t1
        rows.append(
            {
                "what": "embedding",
                "workers": workers,
                "threads": threads,
                "items": len(texts),
                "seconds": round(secs, 2),
                "per_s": round(len(texts) / secs, 1),
                "startup_s": round(start, 1),
            }
        )
        print(rows[-1], flush=True)
    return rows


def commit_rate(tmp: Path, n: int) -> list[dict]:
    """The driver alone: what it can write per second when every result is already back."""
    import numpy as np

    from edgerag.indexing import _write_batch
    from edgerag.text.chunking import split_document
    from edgerag.types import Document

    path = tmp / "commit"
    rag = EdgeRAG(path, Settings(progress=False))
    rag.insert([corpus(tmp, 200)])
    cids = rag.index.ids("chunks")
    texts = {c: r["text"] for c, r in zip(cids, rag.index.get_many("chunks", cids))}
    llm = rag.llm
    made_by = extractor_fingerprint(llm, False, 200)
    reply = "E | X | OTHER\nR | X | is | Y\n" * 6
    done = 0
    t0 = time.perf_counter()
    while done < n:
        for cid in cids:
            if done >= n:
                break
            call = extraction_call(llm, texts[cid] + f" {done}", grammar=False, max_tokens=200)
            llm.cached(call)
            commit_extraction(
                rag.index, llm, cid, texts[cid], call, Completion(reply, 500, 100, 80, 4.0, "stop"), made_by=made_by, method="bench"
            )
            done += 1
    ex_rate = done / (time.perf_counter() - t0)
    # embedding results: one batch write of precomputed vectors per 64 documents
    docs = [Document(id=f"b{i}", title="", text=" ".join(texts[cids[i % len(cids)]].split()), source="bench") for i in range(640)]
    s = rag.settings
    splits = {d.id: split_document(d, rag.tokenizer, s.chunk_tokens, s.chunk_overlap, s.subchunk_tokens) for d in docs}
    dim = rag.embedder.dim
    n_texts = 0
    t0 = time.perf_counter()
    for start in range(0, len(docs), 64):
        part = {d.id: d for d in docs[start : start + 64]}
        sp = {k: splits[k] for k in part}
        vecs = {
            kind: {x.id: np.ones(dim, dtype=np.float32) / np.sqrt(dim) for s_ in sp.values() for x in getattr(s_, kind)}
            for kind in ("chunks", "subchunks", "sentences")
        }
        n_texts += sum(len(v) for v in vecs.values())
        _write_batch(rag.index, part, sp, vecs)
    emb_rate = n_texts / (time.perf_counter() - t0)
    rag.close()
    return [
        {"what": "driver commits, extraction", "per_s": round(ex_rate, 1), "items": done},
        {"what": "driver commits, embedding (vectors written)", "per_s": round(emb_rate, 1), "items": n_texts},
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--texts", type=int, default=2000)
    ap.add_argument("--commits", type=int, default=2000)
    ap.add_argument("--out", default="benchmarks/results/ray_scaling.json")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ray_scaling-"))
    try:
        commits = commit_rate(tmp, args.commits)
        for r in commits:
            print(r, flush=True)
        emb = embedding(args.texts)
        ext = extraction(tmp, args.chunks)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = ext + emb
    print("\n| work | workers × threads | items | seconds | per second | worker start s |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['what']} | {r['workers']} × {r['threads']} | {r['items']} | {r['seconds']} | {r['per_s']} | {r['startup_s']} |")
    for r in commits:
        print(f"| {r['what']} | driver alone | {r['items']} | | {r['per_s']} | |")
    write_result(args.out, {"layouts": rows, "driver": commits, "args": vars(args)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
