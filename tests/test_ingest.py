"""Readers: good files become documents; bad ones are named and skipped."""

from __future__ import annotations

import json

from edgerag.ingest import Skipped, iter_documents, ocr
from edgerag.types import Document


def _split(items):
    docs = [i for i in items if isinstance(i, Document)]
    skipped = {s.source: s.reason for s in items if isinstance(s, Skipped)}
    return docs, skipped


def test_bad_files_are_skipped_by_name(tmp_path):
    (tmp_path / "good.txt").write_text("A fine document about pears.")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "blank.md").write_text("   \n\n  ")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02PK\x03\x04" * 20)
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n")  # cut off after the signature
    (tmp_path / "drawing.bmp").write_bytes(b"BM" + bytes(60))
    docs, skipped = _split(list(iter_documents([tmp_path, tmp_path / "missing.txt"])))
    assert [d.title for d in docs] == ["good"]
    assert "empty file" in skipped[str(tmp_path / "empty.txt")]
    assert "empty file" in skipped[str(tmp_path / "blank.md")]
    assert "binary" in skipped[str(tmp_path / "binary.txt")]
    assert "not valid UTF-8" in skipped[str(tmp_path / "latin1.txt")]
    # with an OCR engine a damaged image is named as damaged; without one, the extra that reads images
    assert ("not an image Pillow can open" if ocr.engine_name() else "edgerag[ocr]") in skipped[str(tmp_path / "image.png")]
    assert "unsupported file type" in skipped[str(tmp_path / "drawing.bmp")]
    assert "no such file" in skipped[str(tmp_path / "missing.txt")]


def test_too_large_file_is_refused(tmp_path):
    f = tmp_path / "big.txt"
    f.write_text("word " * 1000)
    _, skipped = _split(list(iter_documents([f], max_bytes=1000)))
    assert "too large" in skipped[str(f)]


def test_jsonl_records_keep_given_ids_and_report_bad_lines(tmp_path):
    f = tmp_path / "corpus.jsonl"
    f.write_text(
        "\n".join(
            [
                json.dumps({"id": "p1", "title": "Pear", "text": "Pears are fruit."}),
                "{not json",
                json.dumps({"id": "p2", "title": "No text"}),
                json.dumps({"title": "", "text": "An untitled passage."}),
            ]
        )
    )
    docs, skipped = _split(list(iter_documents([f])))
    assert docs[0].id == "p1" and docs[0].text == "Pear\n\nPears are fruit." and docs[0].title == "Pear"
    assert len(docs) == 2 and len(docs[1].id) == 16  # content hash for a record without id
    assert "not valid JSON" in skipped[f"{f}:2"]
    assert "no 'text'" in skipped[f"{f}:3"]


def test_document_ids_are_stable_content_hashes(tmp_path):
    (tmp_path / "a.txt").write_text("Same words.")
    (tmp_path / "b.md").write_text("Same words.")
    (tmp_path / "c.txt").write_text("Other words.")
    docs, _ = _split(list(iter_documents([tmp_path])))
    ids = {d.source.rsplit("/", 1)[-1]: d.id for d in docs}
    assert ids["a.txt"] == ids["b.md"] != ids["c.txt"]
    again, _ = _split(list(iter_documents([tmp_path / "a.txt"])))
    assert again[0].id == ids["a.txt"]
