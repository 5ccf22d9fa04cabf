"""A llama.cpp crash becomes a message (issue #29): the repack guard's decision from CPU
flags, the probe's child killed by a signal, verdicts remembered, and `edgerag doctor`."""

from __future__ import annotations

import json
import shlex

import pytest

from edgerag.llm.cpu import repack_decision
from edgerag.llm.models import DEFAULT_MODEL, KNOWN_MODELS
from edgerag.llm.probe import ModelCrashError, probe, proven_repack, remembered, verdict_key

SAPPHIRE_RAPIDS = frozenset("sse3 avx avx2 fma f16c avx512f avx512bw avx512vl avx512_vnni avx512_bf16 amx_tile amx_int8 amx_bf16".split())
ZEN4 = frozenset("sse3 avx avx2 fma f16c avx512f avx512bw avx512vl avx512_vnni avx512_bf16".split())
HASWELL = frozenset("sse3 avx avx2 fma f16c".split())
ARM = frozenset("fp asimd asimddp i8mm".split())


@pytest.mark.parametrize(
    ("setting", "flags", "repack"),
    [
        ("auto", SAPPHIRE_RAPIDS, False),  # the AMX kernels crash on Q4_K: no extra buffer types
        ("auto", ZEN4, True),
        ("auto", HASWELL, True),
        ("auto", ARM, True),
        ("auto", frozenset({"amx_tile"}), False),
        ("on", SAPPHIRE_RAPIDS, True),  # the user's word wins
        ("off", HASWELL, False),
    ],
)
def test_the_repack_guard_decides_from_the_cpu_flags(setting, flags, repack):
    decision = repack_decision(setting, flags)
    assert decision.repack is repack
    if setting == "auto" and not repack:
        assert "amx" in decision.reason


def test_an_unknown_repack_setting_is_refused():
    with pytest.raises(ValueError, match="llm_repack"):
        repack_decision("sometimes", HASWELL)


@pytest.fixture
def fake_model(tmp_path, monkeypatch):
    """Any file stands for a model here: the probe's child is replaced by a shell command."""
    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EDGERAG_PROBE", raising=False)
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF" + b"\0" * 64)
    return path


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


SEGFAULT = sh("echo 'ggml_backend_amx_mul_mat' >&2; kill -SEGV $$")
OK = '{"ok": true, "prompt_tokens": 48, "prompt_tokens_per_s": 200.0, "generation_tokens": 8, "generation_tokens_per_s": 30.0}'


def test_a_child_killed_by_sigsegv_is_a_result_not_a_crash(fake_model):
    result = probe(fake_model, repack=True, command=SEGFAULT)
    assert not result.ok
    assert result.signal == "SIGSEGV"
    assert "ggml_backend_amx_mul_mat" in result.error  # what the child said last
    assert "SIGSEGV" in result.summary()


def test_every_crashing_choice_ends_in_a_clear_error(fake_model, tmp_path):
    count = tmp_path / "tries"
    crash = sh(f"echo x >> {shlex.quote(str(count))}; kill -SEGV $$")
    with pytest.raises(ModelCrashError) as caught:
        proven_repack(fake_model, "auto", command=crash)
    message = str(caught.value)
    assert "crashed llama.cpp" in message and "SIGSEGV" in message
    assert "model.gguf" in message and "edgerag doctor" in message
    assert count.read_text().count("x") == 2  # auto tried both repack choices
    # an explicit setting is tried alone, and the message names the other one to set
    count.unlink()
    with pytest.raises(ModelCrashError, match="llm_repack=off"):
        proven_repack(fake_model, "on", command=crash)
    assert count.read_text().count("x") == 1


def test_auto_falls_back_to_the_choice_that_runs_and_remembers_it(fake_model, tmp_path, capsys):
    first = tmp_path / "first-done"
    crash_once = sh(f"if [ -e {first} ]; then echo '{OK}'; else touch {first}; kill -SEGV $$; fi")
    decided = repack_decision("auto").repack
    assert proven_repack(fake_model, "auto", command=crash_once) is (not decided)
    assert "crashed llama.cpp" in capsys.readouterr().err  # the user is told once, on stderr
    # the verdict is remembered: a child that would crash is never started again
    assert proven_repack(fake_model, "auto", command=SEGFAULT) is (not decided)
    from edgerag.llm.models import model_sha256

    saved = remembered(verdict_key(model_sha256(fake_model), not decided, 0))
    assert saved is not None and saved.ok and saved.prompt_tokens_per_s == 200.0


def test_a_crash_is_not_remembered(fake_model, tmp_path):
    with pytest.raises(ModelCrashError):
        proven_repack(fake_model, "off", command=SEGFAULT)
    assert proven_repack(fake_model, "off", command=sh(f"echo '{OK}'")) is False


def test_a_child_that_fails_without_a_signal_names_its_error(fake_model):
    result = probe(fake_model, repack=True, command=sh('echo \'{"ok": false, "error": "ValueError: bad magic"}\'; exit 1'))
    assert not result.ok and result.signal is None and result.error == "ValueError: bad magic"


def test_an_ordinary_load_error_is_left_to_the_parent(fake_model):
    """A corrupt file fails in the child without a signal: no crash message, the parent's
    own load names the problem (test_llm: 'truncated or corrupt')."""
    failing = sh('echo \'{"ok": false, "error": "ValueError: Failed to load model"}\'; exit 1')
    assert proven_repack(fake_model, "on", command=failing) is True


def test_probe_off_trusts_the_model(fake_model, monkeypatch):
    monkeypatch.setenv("EDGERAG_PROBE", "off")
    assert proven_repack(fake_model, "off", command=SEGFAULT) is False


@pytest.mark.slow
def test_doctor_json_on_the_real_model(built_index, tmp_path, monkeypatch):
    """`edgerag doctor --json`: the fields docs/operations.md lists, from the real GGUF."""
    import subprocess
    import sys

    monkeypatch.setenv("EDGERAG_CACHE", str(tmp_path / "cache"))
    out = subprocess.run(
        [sys.executable, "-m", "edgerag.cli.main", "doctor", "--json", "--index", str(built_index)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    known = KNOWN_MODELS[DEFAULT_MODEL]
    assert r["model"]["sha256"] == known.sha256 and r["model"]["verified"]
    assert r["packages"]["llama-cpp-python"] and r["packages"]["torch"].startswith("2.13.0")
    assert r["cpu"]["cores"] >= 1 and isinstance(r["cpu"]["llama_features"], list)
    assert r["cpu"]["repack"]["repack"] is repack_decision("auto").repack
    assert "CPU" in r["llama_cpp"]["system_info"] and isinstance(r["llama_cpp"]["gpu_offload"], bool)
    assert r["embedder"]["fingerprint"] and r["embedder"]["path"].endswith("model")
    assert r["answer_model"]["setting"] == "auto" and r["answer_model"]["reason"]
    probe_ = r["probe"]
    assert probe_["ok"] and probe_["prompt_tokens"] == 512 and probe_["rest"]  # the rest figure's measurement (llm/speeds.py)
    assert probe_["prompt_tokens_per_s"] > 1 and probe_["generation_tokens_per_s"] > 0.5
    assert r["index"]["format"] == r["index"]["format_read"] and r["index"]["embedder"]["dim"] == 384
    assert r["memory"]["total"] > r["memory"]["available"] > 0 and r["disk"]["free"] > 0
    from edgerag.ingest import ocr

    assert r["ocr"]["engine"] == ocr.engine_name()  # the test extra installs one
