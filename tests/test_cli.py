"""The `edgerag` command line: index, query --json, stats, bad input named."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from edgerag.cli.main import main

from .conftest import DATA, PLANTED_ANSWER, PLANTED_QUESTION


def test_index_query_stats(tmp_path, capsys):
    ix = str(tmp_path / "ix")
    bad = tmp_path / "garbage.txt"
    bad.write_bytes(b"\xff\xfe\x00\x00binary")
    assert main(["index", str(DATA / "planted"), str(bad), "--index", ix, "-q"]) == 0
    out = capsys.readouterr().out
    assert "added 3 documents" in out
    assert f"skipped {bad}: binary file" in out

    assert main(["query", PLANTED_QUESTION, "--index", ix, "--budget", "200", "--json"]) == 0
    ctx = json.loads(capsys.readouterr().out)
    assert ctx["method"] == "bridge-ppr" and ctx["tokens"] <= 200  # the default retriever
    unit = ctx["units"][0]
    assert {"doc_id", "chunk_id", "score", "tokens", "text"} <= set(unit)
    assert PLANTED_ANSWER in unit["text"]

    assert main(["stats", "--index", ix, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["counts"]["docs"] == 3


def test_nothing_indexable_fails(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert main(["index", str(empty), "--index", str(tmp_path / "ix"), "-q"]) == 1
    captured = capsys.readouterr()
    assert f"skipped {empty}: empty file" in captured.out and "nothing indexable" in captured.err


@pytest.mark.slow
def test_errors_are_messages_not_tracebacks(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "edgerag.cli.main", "query", "hello", "--index", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert "edgerag: error: no edgerag index" in proc.stderr and "Traceback" not in proc.stderr


def test_every_settings_flag_reaches_the_settings(tmp_path):
    """A flag whose dest names a Settings field overrides it when the index opens; the rest
    (question, method, …) do not, and a bad value is refused by Settings' own check."""
    from edgerag.cli.commands import _open
    from edgerag.cli.main import build_parser
    from edgerag.cli.options import setting_overrides

    args = build_parser().parse_args(
        ["query", "q", "--index", str(tmp_path / "ix"), "--dedup", "0.95", "--beta", "0.3", "--rrf-k", "7", "--ppr-eps", "0"]
    )
    assert setting_overrides(args) == {
        "bridge_dedup": 0.95,
        "beta": 0.3,
        "bridge_rrf_k": 7,
        "bridge_ppr_eps": 0.0,
    }  # not the question, index, …
    rag = _open(args)
    assert (rag.settings.bridge_dedup, rag.settings.beta, rag.settings.bridge_rrf_k) == (0.95, 0.3, 7)
    assert rag.settings.bridge_fusion == "dense+bm25"  # not given: the default
    bad = build_parser().parse_args(["query", "q", "--index", str(tmp_path / "ix2"), "--dedup", "1.5"])
    with pytest.raises(ValueError, match="bridge_dedup"):
        _open(bad).settings.validate()
