"""What several test modules share: stand-in models for control-flow tests, and index checks.

A scripted model stands in for the GGUF only where parsers, bookkeeping or control flow are
under test; every feature is also tested against the real model somewhere (tests marked
``model``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from edgerag.llm.local import Completion
from edgerag.store import Index
from edgerag.store.stages import load_arrays, stage_record
from edgerag.types import Unit


# ---- stand-in models -------------------------------------------------------------------------
class ScriptedLLM:
    """Stands in for LocalLLM where only the control flow is under test."""

    path = type("P", (), {"name": "scripted.gguf"})()
    sha256 = "scripted"
    n_ctx = 4096

    def __init__(self, replies):
        self.replies = list(replies)

    def format(self, messages):
        return " | ".join(m["content"] for m in messages), []

    def tokenize(self, text):
        return text.split()

    def count(self, text):
        return len(text.split())

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        text = self.replies.pop(0)
        if on_text is not None:  # streamed whole, as a real model streams its pieces
            on_text(text)
        return Completion(text, len(prompt.split()), len(prompt.split()), len(text.split()), 0.01, "stop")


REPLIES = {
    "Zorblax": "E | Edith Varga | PERSON\nE | Zorblax vault | WORK\nE | Kettering Hill | LOCATION\n"
    "R | Edith Varga | sealed | Zorblax vault\nR | Zorblax vault | lies under | Kettering Hill",
    "Pellmore": "E | Arthur Quell | PERSON\nE | Pellmore Point | LOCATION\nR | Arthur Quell | kept the lighthouse at | Pellmore Point",
    "Brannock": "E | Brannock orchard | LOCATION\nE | 1802 | DATE",
}


class KeyedLLM(ScriptedLLM):
    """Replies by what the passage mentions, whatever order the core comes in."""

    def __init__(self):
        super().__init__([])

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        text = next((r for key, r in REPLIES.items() if key in prompt.split("Passage:")[-1]), "")
        return Completion(text, len(prompt.split()), len(prompt.split()), len(text.split()), 0.01, "stop")


class NamesLLM(ScriptedLLM):
    """Names every planted passage by what it mentions; a batch answer leaves the orchard out."""

    NAMES = {
        "Zorblax": "ENTITIES: Edith Varga, Zorblax vault, Kettering Hill\nCONCEPTS: vaults, astronomy",
        "Pellmore": "ENTITIES: Arthur Quell, Pellmore Point, Lisbon, North Sea\nCONCEPTS: lighthouses",
        "Brannock": "ENTITIES: Brannock orchard, 1802\nCONCEPTS: orchards",
    }

    def __init__(self):
        super().__init__([])
        self.batches: list[int] = []

    def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None):
        block = prompt.split(" | ")[-1]
        passages = re.split(r"(?m)^\[\d+\] ", block)[1:] if block.startswith("[") else [block]
        self.batches.append(len(passages))
        out = []
        for i, p in enumerate(passages, 1):
            key = next((k for k in self.NAMES if k in p), None)
            if key and not (key == "Brannock" and len(passages) > 1):
                out.append(f"[{i}]\n{self.NAMES[key]}")
        text = "\n".join(out)
        return Completion(text, len(prompt.split()), len(prompt.split()), len(text.split()), 0.01, "stop")


# ---- index checks ----------------------------------------------------------------------------
def consistent(path: Path) -> dict[str, int]:
    """Open the index and check, in one read snapshot, that documents, chunks and vectors agree."""
    index = Index.open(path, create=False)
    try:
        t = index.tables
        with t.read() as txn:
            docs = dict(t.items(txn, "docs"))
            chunks = dict(t.items(txn, "chunks"))
            for doc_id, d in docs.items():
                for c in d["chunks"]:
                    assert c in chunks, f"document {doc_id} lists chunk {c}, which is not stored"
            assert {c["doc_id"] for c in chunks.values()} <= set(docs), "a chunk without its document"
            assert t.count(txn, "vec.chunks") == len(chunks), "chunks: vectors and records differ"
            for name in ("subchunks", "sentences"):  # pieces may wait for first use (pieces.py), never outlive their record
                with txn.cursor(db=t.db[f"vec.{name}"]) as cur:
                    assert all(t.has(txn, name, bytes(k).decode()) for k in cur.iternext(values=False)), (
                        f"{name}: a vector without its record"
                    )
            for cid, ex in t.items(txn, "extractions"):
                assert cid in chunks and ex["entities"] is not None
        return index.counts()
    finally:
        index.close()


def same_arrays(a: Path, b: Path, stage: str) -> None:
    ia, ib = Index.open(a, create=False), Index.open(b, create=False)
    try:
        xa, xb = load_arrays(ia.tables, stage), load_arrays(ib.tables, stage)
        stored = stage_record(ia.tables, stage)["arrays"]  # (readers may add derived arrays in memory)
        assert stored == stage_record(ib.tables, stage)["arrays"]
        for k in stored:
            va, vb = xa[k], xb[k]
            if sp.issparse(va):
                assert va.shape == vb.shape and (va != vb).nnz == 0, f"{stage}/{k} differs"
            elif va.dtype.kind == "f":
                assert va.shape == vb.shape and np.allclose(va, vb, atol=1e-5), f"{stage}/{k} differs"
            else:
                assert np.array_equal(va, vb), f"{stage}/{k} differs"
    finally:
        ia.close()
        ib.close()


def passage(id: str, title: str, text: str) -> Unit:
    """A retrieved passage as the reader's code steps see it (answer/compare.py, answer/hops.py)."""
    return Unit(kind="chunk", id=id, text=text, tokens=len(text.split()), score=0.0, doc_id=id, chunk_id=id, title=title)


def section(id: str, title: str, text: str, file: str = "guide.html") -> Unit:
    """A page's section as the reader reads it: evidence under its heading, from its page's file."""
    return Unit(
        kind="evidence",
        id=id,
        text=f"{title}: {text}",
        tokens=len(text.split()),
        score=0.0,
        doc_id=file,
        chunk_id=id,
        title=title,
        provenance={"file": f"/docs/{file}", "section": title},
    )
