"""Peak memory of indexing one huge single-line text file (issue #10).

Writes a single-line file of varied English sentences (every sentence distinct, so nothing
is deduplicated away) and measures, each in a fresh process (peak RSS from getrusage):

* ``read``: streaming the whole file through the reader and the chunker (every part read,
  split into chunks, sub-chunks and sentences, then dropped) — the path that used to hold
  the whole file;
* ``index N MB``: `edgerag index` (real embedder, LMDB, hnswlib) of the first N MB of it,
  for growing N: memory that did not depend on the file size stays flat, and what grows is
  the hnswlib caches of the chunk and sub-chunk vectors (about 4.5 MiB per MB of text);
* with ``--full``, the whole file (about 2 h per 100 MB on 2 cores: embedding);
* with ``--probe``, where indexing memory goes: resident memory after each round of
  embedding alone, with and without the embedder's ``malloc_trim``, then after each
  indexing batch with a stub embedder (the store path alone) or the real one.

    .venv/bin/python benchmarks/big_file_memory.py [--mb 200] [--index-mb 1,4,16] [--full] [--no-read]
    .venv/bin/python benchmarks/big_file_memory.py --probe --mb 8 --index-mb 8 --variants stub
    .venv/bin/python benchmarks/big_file_memory.py --probe --no-embed --mb 200 --index-mb 200 --variants stub

The probe's series also counts the vectors held in the nearest-neighbour caches after each
batch, so growth can be set against hnswlib's 1.78 KB per vector.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import write_result

WORDS = {
    "who": ["the brewer", "a clerk", "the harbour master", "an engineer", "the widow", "a surveyor", "the abbot", "a printer"],
    "name": ["Anna Lind", "Tomas Varga", "Ines Okafor", "Pavel Aho", "Mirela Stan", "Jonas Berg", "Lucia Moreau", "Omar Haddad"],
    "verb": ["sold", "rebuilt", "mapped", "inherited", "insured", "flooded", "painted", "leased"],
    "what": ["the mill", "a granary", "the east pier", "two warehouses", "the chapel", "a tannery", "the lock gates", "a ropewalk"],
    "place": ["Tarsk", "Kettering", "Oldvik", "Marren", "Solbury", "Cadiz", "Brno", "Lagos"],
}


def sentence(rng: random.Random, i: int) -> str:
    w = {k: rng.choice(v) for k, v in WORDS.items()}
    return (
        f"In {1700 + rng.randrange(300)} {w['who']} {w['name']} of {w['place']} {w['verb']} {w['what']} "
        f"for {rng.randrange(10, 9999)} crowns (ledger {i}). "
    )


def make_file(path: Path, mb: float) -> Path:
    if path.exists() and path.stat().st_size >= mb * 10**6:
        return path
    rng = random.Random(0)
    target, written, i = int(mb * 10**6), 0, 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            s = "".join(sentence(rng, i + k) for k in range(2000))
            f.write(s)
            written += len(s)
            i += 2000
    return path


def prefix(src: Path, mb: float, dst: Path) -> Path:
    with open(src, "rb") as f, open(dst, "wb") as out:
        out.write(f.read(int(mb * 10**6)))
    return dst


# ---- the measured work, each run in a child process ------------------------------------------
def child_read(path: str) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from edgerag.ingest import iter_documents
    from edgerag.settings import Settings
    from edgerag.text.chunking import split_document
    from edgerag.text.tokens import get_tokenizer

    s = Settings()
    tok = get_tokenizer(s.tokenizer)
    out = {"parts": 0, "chunks": 0, "subchunks": 0, "sentences": 0}
    for doc in iter_documents([path]):
        split = split_document(doc, tok, s.chunk_tokens, s.chunk_overlap, s.subchunk_tokens)
        out["parts"] += 1
        for k in ("chunks", "subchunks", "sentences"):
            out[k] += len(getattr(split, k))
    return out


def child_index(path: str, index: str) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from edgerag import EdgeRAG

    rag = EdgeRAG(index, progress=False)
    r = rag.insert([path])
    return {
        "parts": r.docs_added,
        "chunks": r.chunks,
        "subchunks": r.subchunks,
        "sentences": r.sentences,
        "texts_embedded": r.texts_embedded,
        "skipped": r.skipped,
    }


def child_probe(path: str, index: str, stub: str, trim: str) -> dict:
    """Index in this process and record anonymous RSS after every committed batch, to see
    where growth comes from: ``stub`` swaps the embedder for hashed vectors (is it torch?),
    ``trim`` = 0 turns off the embedder's malloc_trim (is it heap fragmentation?)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import hashlib

    import numpy as np

    from edgerag import EdgeRAG, indexing
    from edgerag.embed import embedder as embed

    if trim != "1":
        embed._malloc_trim = lambda: None

    rag = EdgeRAG(index, progress=False)
    if stub == "1":
        dim = rag.embedder.dim

        def encode(texts, **_):
            out = np.zeros((len(texts), dim), dtype=np.float32)
            for i, t in enumerate(texts):
                seed = int.from_bytes(hashlib.sha1(t.encode()).digest()[:4], "little")
                out[i] = np.random.default_rng(seed).standard_normal(dim)
            return out / np.linalg.norm(out, axis=1, keepdims=True)

        rag.embedder.encode = encode
        rag.embedder.fits = lambda texts: [True] * len(texts)
    series, write = [], indexing._write_batch

    def traced(index_, docs, splits, vectors):
        write(index_, docs, splits, vectors)
        cached = sum(v._hnsw.get_current_count() for v in index_.vectors.values() if v._hnsw is not None)
        series.append(
            {
                "chunks": sum(len(s.chunks) for s in splits.values()),
                "anon_mib": _rss_now()["anon_rss_mib_at_end"],
                "cached_vectors": cached,
                "seconds": time.perf_counter() - t0,
            }
        )

    indexing._write_batch = traced
    t0 = time.perf_counter()
    r = rag.insert([path])
    done = 0
    for row in series:
        done += row["chunks"]
        row["chunks_so_far"] = done
    cached = sum(v._hnsw.get_current_count() for v in rag.index.vectors.values() if v._hnsw is not None)
    return {
        "parts": r.docs_added,
        "chunks": r.chunks,
        "subchunks": r.subchunks,
        "sentences": r.sentences,
        "stub_embedder": stub == "1",
        "malloc_trim": trim == "1",
        "series": series,
        "cached_vectors_at_end": cached,
    }


def child_embed(rounds: str, trim: str) -> dict:
    """Resident memory after each of ``rounds`` calls embedding 300 texts of 5–200 words, with
    edgerag's trim after each call (``trim`` = 1) or without it: embedding alone, no index."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from edgerag.embed import embedder as embed

    if trim != "1":
        embed._malloc_trim = lambda: None
    e = embed.Embedder("default")
    rng = random.Random(0)
    words = [w for v in WORDS.values() for w in v]
    series = [_rss_now()["anon_rss_mib_at_end"]]
    for _ in range(int(rounds)):
        e.encode([" ".join(rng.choice(words) for _ in range(rng.randrange(5, 200))) for _ in range(300)])
        series.append(_rss_now()["anon_rss_mib_at_end"])
    return {"rounds": int(rounds), "trim": trim == "1", "anon_mib_after_each": series}


def _rss_now() -> dict:
    """Resident memory at the end, split into the process's own (anonymous) pages and pages
    of mapped files (LMDB's data.mdb is memory-mapped: those are the OS page cache)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("RssAnon", "RssFile"):
            fields[f"{key[3:].lower()}_rss_mib_at_end"] = int(value.split()[0]) / 1024
    return fields


def measure(kind: str, *args: str) -> dict:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, __file__, "--child", kind, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{kind} {args} failed:\n{p.stderr[-3000:]}")
    result = json.loads(p.stdout.strip().splitlines()[-1])
    result["seconds"] = time.perf_counter() - t
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=200, help="size of the single-line file (default 200 MB)")
    ap.add_argument("--index-mb", default="1,4,16", help="prefixes to index fully, in MB (default 1,4,16)")
    ap.add_argument("--full", action="store_true", help="also index the whole file (about 2 h per 100 MB on 2 cores)")
    ap.add_argument("--no-read", action="store_true", help="skip the read + chunk pass over the whole file")
    ap.add_argument("--dir", help="where the file and indexes go (default: a temporary folder)")
    ap.add_argument("--out", default="benchmarks/results/big_file_memory.json")
    ap.add_argument(
        "--probe",
        action="store_true",
        help="instead: RSS after each round of embedding alone, with and without malloc_trim, then after every "
        "batch of indexing the first --index-mb MB with the --variants",
    )
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"with --probe: which of {', '.join(VARIANTS)}")
    ap.add_argument("--no-embed", action="store_true", help="with --probe: skip the rounds of embedding alone")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        kind, *rest = args.child
        result = {"read": child_read, "index": child_index, "probe": child_probe, "embed": child_embed}[kind](*rest)
        result["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result.update(_rss_now())
        print(json.dumps(result))
        return 0

    work = Path(args.dir or tempfile.mkdtemp(prefix="edgerag-bigfile-"))
    work.mkdir(parents=True, exist_ok=True)
    big = make_file(work / "one-line.txt", args.mb)
    size = big.stat().st_size
    with open(big, "rb") as f:
        assert b"\n" not in f.read(1 << 20)
    if args.probe:
        return probe(big, work, float(args.index_mb.split(",")[0]), args.out, args.variants.split(","), not args.no_embed)
    rows = [] if args.no_read else [("read + chunk", size, measure("read", str(big)))]
    sizes = [float(x) for x in args.index_mb.split(",") if x] + ([args.mb] if args.full else [])
    for mb in sizes:
        src = big if mb >= args.mb else prefix(big, mb, work / f"prefix-{mb:g}MB.txt")
        index = work / f"index-{mb:g}MB"
        if index.exists():
            subprocess.run(["rm", "-rf", str(index)], check=True)
        rows.append((f"index {mb:g} MB", src.stat().st_size, measure("index", str(src), str(index))))

    print(f"\nsingle-line file of {size / 1e6:.0f} MB ({work})")
    print(
        f"{'run':<16}{'file MB':>9}{'parts':>7}{'chunks':>9}{'sentences':>11}{'seconds':>9}{'peak RSS MiB':>14}"
        f"{'end: anon':>11}{'mapped':>8}"
    )
    for name, n, r in rows:
        print(
            f"{name:<16}{n / 1e6:>9.1f}{r['parts']:>7}{r['chunks']:>9}{r['sentences']:>11}{r['seconds']:>9.0f}{r['peak_rss_mib']:>14.0f}"
            f"{r.get('anon_rss_mib_at_end', 0):>11.0f}{r.get('file_rss_mib_at_end', 0):>8.0f}"
        )
    write_result(args.out, {"file_bytes": size, "runs": [{"run": name, "bytes": n, **r} for name, n, r in rows]})
    return 0


VARIANTS = {"stub": ("1", "0"), "stub-trim": ("1", "1"), "real": ("0", "0"), "real-trim": ("0", "1")}


def probe(big: Path, work: Path, mb: float, out: str, variants: list[str], embed_rounds: bool = True) -> int:
    src = prefix(big, mb, work / f"prefix-{mb:g}MB.txt")
    runs = {}
    for trim in ("0", "1") if embed_rounds else ():
        name = f"embedding only, {'with' if trim == '1' else 'without'} malloc_trim"
        runs[name] = measure("embed", "8", trim)
        print(f"{name:<36} anon MiB after each round: " + " ".join(f"{m:.0f}" for m in runs[name]["anon_mib_after_each"]), flush=True)
    for stub, trim in (VARIANTS[v] for v in variants):
        index = work / f"probe-{stub}{trim}"
        subprocess.run(["rm", "-rf", str(index)], check=True)
        name = f"{'stub' if stub == '1' else 'real'} embedder, {'with' if trim == '1' else 'without'} malloc_trim"
        runs[name] = measure("probe", str(src), str(index), stub, trim)
        s = runs[name]["series"]
        marks = [s[int(f * (len(s) - 1))] for f in (0, 0.25, 0.5, 0.75, 1.0)]
        print(
            f"{name:<28} peak {runs[name]['peak_rss_mib']:>6.0f} MiB; anon MiB after batches: "
            + "  ".join(f"{m['chunks_so_far']}ch:{m['anon_mib']:.0f}" for m in marks)
            + f"; {runs[name]['cached_vectors_at_end']:,} vectors in the nearest-neighbour caches at the end",
            flush=True,
        )
    write_result(out.replace(".json", "_probe.json"), {"file_mb": mb, "runs": runs})
    return 0


if __name__ == "__main__":
    sys.exit(main())
