"""`edgerag serve` as its users meet it (issue #48): the real server process on a free loopback
port, the real 0.5B model answering in it, spoken to by the official `openai` client and plain
HTTP (httpx) for the Ollama and edgerag routes. Load loops are bounded and stop by themselves;
nothing is sent anywhere but 127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import openai
import pytest

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION

pytestmark = pytest.mark.slow

KEY = "k3y-for-the-tests-0123456789"
START_S = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``edgerag serve`` in a process of its own, up once ``/health`` says ok."""

    def __init__(self, index: Path, uploads: Path, *extra: str, name: str = "tests") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = uploads.parent / f"serve-{self.port}.log"
        argv = [sys.executable, "-m", "edgerag.cli", "serve", "--index", f"{name}={index}", "--port", str(self.port)]
        argv += ["--uploads", str(uploads), "--docs-per-batch", "16", *extra]
        self.proc = subprocess.Popen(argv, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.model = f"edgerag:{name}"

    def wait_ready(self, headers: dict | None = None) -> ServerProcess:
        end = time.monotonic() + START_S
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                r = httpx.get(self.url + "/health", timeout=2)
                if r.status_code == 200 and r.json()["status"] == "ok":
                    return self
                assert r.json()["status"] in ("loading", "ok"), r.text
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"the server was not ready in {START_S} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def served_dir(built_index, tmp_path_factory) -> Path:
    dst = tmp_path_factory.mktemp("served") / "index"
    shutil.copytree(built_index, dst)
    return dst


@pytest.fixture(scope="module")
def server(served_dir):
    s = ServerProcess(served_dir, served_dir.parent / "uploads").wait_ready()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def keyed(built_index, tmp_path_factory):
    """A server with a key, a line of 1, and small limits (10 KiB bodies, 50 KiB uploads)."""
    root = tmp_path_factory.mktemp("keyed")
    shutil.copytree(built_index, root / "index")
    (root / "key").write_text(KEY + "\n")
    s = ServerProcess(
        root / "index",
        root / "uploads",
        "--api-key-file",
        str(root / "key"),
        "--queue",
        "1",
        "--max-body-mb",
        str(10 / 1024),
        "--max-upload-mb",
        str(50 / 1024),
    ).wait_ready()
    yield s
    s.stop()


def client(s: ServerProcess, key: str = "none", retries: int = 0) -> openai.OpenAI:
    return openai.OpenAI(base_url=s.url + "/v1", api_key=key, max_retries=retries, timeout=300)


def ledger(s: ServerProcess, headers: dict | None = None) -> dict:
    return httpx.get(f"{s.url}/edgerag/indexes/tests/ledger", headers=headers or {}, timeout=30).json()["all"]


def corpus_file(path: Path, n: int, tag: str) -> Path:
    """``n`` made-up passages, each a few sentences, as a corpus.jsonl."""
    lines = []
    for i in range(n):
        text = (
            f"The {tag} relay station number {i} stands on the ridge above the village of {tag.title()}ford-{i}. "
            f"It was built in {1900 + i % 97} by the surveyor Mara {tag.title()}-{i}, who mapped the valley. "
            f"Its signal lamp burns {i % 7 + 2} hours each night, and its keeper is paid in salt."
        )
        lines.append(json.dumps({"id": f"{tag}-{i}", "title": f"{tag.title()} relay {i}", "text": text}))
    path.write_text("\n".join(lines) + "\n")
    return path


def wait_job(s: ServerProcess, job_id: str, timeout: float = 600, headers: dict | None = None) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        job = httpx.get(f"{s.url}/edgerag/jobs/{job_id}", headers=headers or {}, timeout=30).json()
        if job["state"] in ("done", "failed"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s: {job}")


# ---- the OpenAI dialect, with the official client ---------------------------------------------
def test_models_name_the_index_and_its_method(server):
    models = client(server).models.list().data
    assert [m.id for m in models] == ["edgerag:tests"]
    assert models[0].model_extra["edgerag"]["method"] == "bridge-ppr"
    assert models[0].model_extra["edgerag"]["documents"] > 40


def test_an_answer_with_checked_citations_and_the_models_own_token_counts(server):
    before = ledger(server)
    r = client(server).chat.completions.create(model=server.model, messages=[{"role": "user", "content": PLANTED_QUESTION}])
    after = ledger(server)
    text = r.choices[0].message.content
    assert PLANTED_ANSWER in text
    cites = r.model_extra["citations"]
    assert cites and any("Zorblax" in c["title"] for c in cites)
    for c in cites:  # every citation is a passage the model read, and says how it was checked
        assert c["how"] in ("cited", "matched", "unverified") and c["chunk_id"] and c["text"]
    assert "References:" in text and f"[{cites[0]['n']}]" in text.split("References:")[1]
    # usage is the ledger's own record of this answer's calls: real tokens, not an estimate
    fresh = after["input"] - before["input"] + after["cached_input"] - before["cached_input"]
    assert r.usage.prompt_tokens == fresh > 100
    assert r.usage.completion_tokens == after["output"] - before["output"] + after["cached_output"] - before["cached_output"] > 0
    assert r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens
    assert r.model_extra["edgerag"]["plan"].startswith("the model reads")


def test_a_streamed_answer_says_its_plan_before_the_first_token_and_ends_with_usage(server):
    stream = client(server).chat.completions.create(
        model=server.model,
        stream=True,
        stream_options={"include_usage": True},
        messages=[{"role": "user", "content": PLANTED_QUESTION}],
    )
    kinds, content, usage, citations = [], "", None, None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for ch in chunk.choices:
            if (ch.delta.model_extra or {}).get("reasoning_content"):
                kinds.append("plan")
            if ch.delta.content:
                kinds.append("text")
                content += ch.delta.content
            if ch.finish_reason == "stop":
                citations = chunk.model_extra["citations"]
    assert kinds[0] == "plan" and "text" in kinds
    assert PLANTED_ANSWER in content and "References:" in content
    assert citations and usage is not None and usage.prompt_tokens > 100 and usage.completion_tokens > 0
    again = client(server).chat.completions.create(model=server.model, messages=[{"role": "user", "content": PLANTED_QUESTION}])
    assert again.choices[0].message.content == content  # the same reply, streamed or not
    assert again.usage.prompt_tokens_details.cached_tokens == again.usage.prompt_tokens  # the LLM cache served it


def test_a_follow_up_is_rewritten_into_a_standalone_question(server):
    convo = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Who sealed the Zorblax vault?"},
        {"role": "assistant", "content": "Edith Varga\n\nReferences:\n[1] The Zorblax vault — zorblax.md"},
    ]
    r = client(server).chat.completions.create(
        model=server.model, messages=[*convo, {"role": "user", "content": "In which year did she seal it?"}]
    )
    info = r.model_extra["edgerag"]
    assert info["rewritten_from"] == "In which year did she seal it?"
    assert "Varga" in info["question"] or "Zorblax" in info["question"], info
    assert info["rewrite_tokens"]["input"] + info["rewrite_tokens"]["cached_input"] > 50
    assert r.usage.prompt_tokens >= info["rewrite_tokens"]["input"] + info["rewrite_tokens"]["cached_input"]
    # a question that refers to nothing before it is asked as it is, at no cost
    r = client(server).chat.completions.create(model=server.model, messages=[*convo, {"role": "user", "content": PLANTED_QUESTION}])
    assert r.model_extra["edgerag"]["rewritten_from"] is None and r.model_extra["edgerag"]["rewrite_tokens"] is None


def test_fields_edgerag_does_not_use_are_accepted_or_refused_by_name(server):
    c = client(server)
    ok = c.chat.completions.create(
        model=server.model,
        messages=[{"role": "user", "content": PLANTED_QUESTION}],
        temperature=0.7,
        top_p=0.9,
        max_tokens=5,
        seed=1,
        user="someone",
    )
    assert PLANTED_ANSWER in ok.choices[0].message.content
    refused = {
        "tool_choice": {"tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}], "tool_choice": "required"},
        "n": {"n": 2},
        "response_format": {"response_format": {"type": "json_object"}},
    }
    for param, extra in refused.items():
        with pytest.raises(openai.BadRequestError) as e:
            c.chat.completions.create(model=server.model, messages=[{"role": "user", "content": "hi?"}], **extra)
        assert e.value.body["param"] == param and param in e.value.body["message"]
    image = [{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]
    with pytest.raises(openai.BadRequestError, match="image_url"):
        c.chat.completions.create(model=server.model, messages=[{"role": "user", "content": image}])
    with pytest.raises(openai.NotFoundError, match="edgerag:tests"):
        c.chat.completions.create(model="edgerag:nope", messages=[{"role": "user", "content": "hi?"}])
    # bad JSON and a body that is no chat: a 4xx with a message, never a traceback
    for body in (b"{not json", b"[]", b'{"messages": []}'):
        r = httpx.post(server.url + "/v1/chat/completions", content=body, headers={"content-type": "application/json"}, timeout=30)
        assert r.status_code == 400 and r.json()["error"]["message"] and "Traceback" not in r.text
    # a client's "continue" turn (the last message the assistant's) is answered, not refused
    cont = c.chat.completions.create(
        model=server.model,
        messages=[{"role": "user", "content": PLANTED_QUESTION}, {"role": "assistant", "content": "tanger"}],
    )
    assert cont.choices[0].finish_reason == "stop"


# ---- the Ollama dialect, plain HTTP -------------------------------------------------------------
def test_the_ollama_routes_answer_an_ollama_client(server):
    tags = httpx.get(server.url + "/api/tags", timeout=30).json()["models"]
    assert [m["name"] for m in tags] == ["edgerag:tests"] and tags[0]["size"] > 0
    assert httpx.get(server.url + "/api/version", timeout=30).json()["version"]
    body = {"model": "edgerag:tests", "messages": [{"role": "user", "content": PLANTED_QUESTION}]}
    with httpx.stream("POST", server.url + "/api/chat", json=body, timeout=300) as r:
        assert r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert lines[0]["message"].get("thinking")  # the plan, first
    assert all(not x["done"] for x in lines[:-1]) and lines[-1]["done"]
    text = "".join(x["message"]["content"] for x in lines)
    assert PLANTED_ANSWER in text and lines[-1]["citations"]
    assert lines[-1]["prompt_eval_count"] > 100 and lines[-1]["eval_count"] > 0 and lines[-1]["total_duration"] > 0
    whole = httpx.post(server.url + "/api/chat", json={**body, "stream": False}, timeout=300).json()
    assert whole["done"] and whole["message"]["content"] == text and whole["eval_count"] == lines[-1]["eval_count"]
    bad = httpx.post(server.url + "/api/chat", content=b"{oops", timeout=30)
    assert bad.status_code == 400 and isinstance(bad.json()["error"], str)


# ---- edgerag's own routes -----------------------------------------------------------------------
def test_retrieval_does_not_wait_behind_the_model(server):
    body = {
        "model": server.model,
        "stream": True,
        "edgerag": {"mode": "long"},
        "messages": [{"role": "user", "content": "Describe the Zorblax vault, who sealed it and its history, in detail."}],
    }
    overlapped = []
    with httpx.stream("POST", server.url + "/v1/chat/completions", json=body, timeout=300) as r:
        for line in r.iter_lines():
            if '"content": "' in line and '"content": ""' not in line and not overlapped:
                t0 = time.monotonic()
                got = httpx.post(server.url + "/edgerag/retrieve", json={"query": "Who keeps the lighthouse?", "budget": 500}, timeout=60)
                busy = httpx.get(server.url + "/health", timeout=30).json()["queue"]["running"]
                overlapped.append((got, busy, time.monotonic() - t0))
    got, busy, seconds = overlapped[0]
    assert got.status_code == 200 and got.json()["units"] and got.json()["tokens"] <= 500
    assert busy is not None, "the answer had finished: the retrieval did not run beside it"


def test_eight_questions_at_once_are_all_answered(server):
    qs = [
        PLANTED_QUESTION,
        "Who sealed the Zorblax vault?",
        "When was the lighthouse at Pellmore Point automated?",
        "Where does the Zorblax vault lie?",
        "What year was the Zorblax vault sealed?",
        "Who knew how to open the Zorblax vault?",
        "Which observatory is on Kettering Hill?",
        "What was automated in 1987?",
    ]
    before = httpx.get(server.url + "/health", timeout=30).json()["queue"]["served"]
    results: dict[int, object] = {}

    def ask(i: int) -> None:
        try:
            r = client(server).chat.completions.create(model=server.model, messages=[{"role": "user", "content": qs[i]}])
            results[i] = r
        except Exception as e:  # recorded, then asserted below
            results[i] = e

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert sorted(results) == list(range(8))
    failed = {i: r for i, r in results.items() if isinstance(r, Exception)}
    assert not failed, failed
    assert all(r.choices[0].message.content.strip() and r.usage.prompt_tokens >= 0 for r in results.values())
    assert httpx.get(server.url + "/health", timeout=30).json()["queue"]["served"] == before + 8


def test_a_client_that_disconnects_frees_the_model_at_the_next_token(server):
    before = ledger(server)["calls"]
    body = {
        "model": server.model,
        "stream": True,
        "edgerag": {"mode": "long"},
        "messages": [{"role": "user", "content": "Write a long account of the lighthouse at Pellmore Point and its keepers."}],
    }
    with httpx.stream("POST", server.url + "/v1/chat/completions", json=body, timeout=300) as r:
        for line in r.iter_lines():
            if '"content": "' in line and '"content": ""' not in line:
                break  # the first token: hang up
    end = time.monotonic() + 20
    while time.monotonic() < end and httpx.get(server.url + "/health", timeout=30).json()["queue"]["running"] is not None:
        time.sleep(0.1)
    assert httpx.get(server.url + "/health", timeout=30).json()["queue"]["running"] is None
    assert ledger(server)["calls"] == before, "the interrupted answer was completed and recorded"


def test_a_question_is_answered_while_a_200_document_upload_indexes(server, tmp_path):
    docs0 = len(httpx.get(server.url + "/edgerag/indexes/tests/documents", timeout=60).json()["documents"])
    f = corpus_file(tmp_path / "relays.jsonl", 200, "relay")
    job = httpx.post(server.url + "/edgerag/indexes/tests/documents", files={"files": ("relays.jsonl", f.read_bytes())}, timeout=60)
    assert job.status_code == 202
    job_id = job.json()["id"]
    end = time.monotonic() + 300
    while time.monotonic() < end:
        state = httpx.get(f"{server.url}/edgerag/jobs/{job_id}", timeout=30).json()
        if state["state"] == "running" and state["progress"] and not state["progress"]["done"]:
            break
        assert state["state"] in ("queued", "running"), state
        time.sleep(0.1)
    r = client(server).chat.completions.create(model=server.model, messages=[{"role": "user", "content": PLANTED_QUESTION}])
    assert PLANTED_ANSWER in r.choices[0].message.content
    done = wait_job(server, job_id)
    assert done["state"] == "done" and done["result"]["docs_added"] == 200, done
    docs = httpx.get(server.url + "/edgerag/indexes/tests/documents", timeout=60).json()["documents"]
    assert len(docs) == docs0 + 200
    found = httpx.post(server.url + "/edgerag/retrieve", json={"query": "relay station number 117 surveyor", "method": "text"}, timeout=60)
    assert any("number 117 " in u["text"] for u in found.json()["units"][:5])


def test_an_upload_name_never_leaves_the_upload_folder(server, served_dir):
    uploads = served_dir.parent / "uploads"
    r = httpx.post(
        server.url + "/edgerag/indexes/tests/documents?wait=true",
        files={"files": ("../../escape.txt", b"The Quillfeather bridge was built in 1874 by Tomas Rell.")},
        timeout=300,
    )
    assert r.status_code == 200 and r.json()["state"] == "done", r.text
    stored = Path(r.json()["files"][0])
    assert stored.name == "escape.txt"
    assert not (uploads.parent / "escape.txt").exists() and not (uploads.parent.parent / "escape.txt").exists()
    assert list(uploads.rglob("escape.txt")) and all(uploads in p.parents for p in uploads.rglob("escape.txt"))
    for bad in ("..", "../", "payload.exe"):
        r = httpx.post(server.url + "/edgerag/indexes/tests/documents", files={"files": (bad, b"x")}, timeout=60)
        assert r.status_code == 400 and r.json()["error"]["message"], (bad, r.text)
    # and the document is gone again when deleted
    doc = next(
        d for d in httpx.get(server.url + "/edgerag/indexes/tests/documents", timeout=60).json()["documents"] if "escape" in d["source"]
    )
    gone = httpx.delete(f"{server.url}/edgerag/indexes/tests/documents/{doc['id']}?wait=true", timeout=300).json()
    assert gone["state"] == "done" and gone["result"]["deleted"] == [doc["id"]]


def test_the_command_line_works_beside_the_server(server, served_dir):
    out = subprocess.run(
        [sys.executable, "-m", "edgerag.cli", "query", "Who sealed the Zorblax vault?", "--index", str(served_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["units"]


def test_the_openapi_page_lists_every_route_and_needs_no_cdn(server):
    spec = httpx.get(server.url + "/openapi.json", timeout=30).json()
    for path in ("/v1/chat/completions", "/v1/models", "/api/chat", "/api/tags", "/edgerag/retrieve", "/edgerag/jobs/{job_id}", "/health"):
        assert path in spec["paths"], path
    page = httpx.get(server.url + "/docs", timeout=30)
    assert page.status_code == 200 and "cdn.jsdelivr" not in page.text and "unpkg" not in page.text


# ---- a server with a key, a short line and small limits ------------------------------------------
def test_a_key_covers_every_route_but_health(keyed):
    with pytest.raises(openai.AuthenticationError):
        client(keyed, key="wrong-key-wrong-key").models.list()
    for path in ("/api/tags", "/api/version", "/edgerag/jobs", "/edgerag/indexes", "/openapi.json", "/docs"):
        r = httpx.get(keyed.url + path, timeout=30)
        assert r.status_code == 401, path
    assert httpx.post(keyed.url + "/api/chat", json={"model": "edgerag:tests", "messages": []}, timeout=30).status_code == 401
    assert httpx.get(keyed.url + "/health", timeout=30).status_code == 200
    assert [m.id for m in client(keyed, key=KEY).models.list().data] == ["edgerag:tests"]
    assert httpx.get(keyed.url + "/api/tags", headers={"Authorization": f"Bearer {KEY}"}, timeout=30).status_code == 200


def test_oversized_bodies_get_413(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    big = {"model": "edgerag:tests", "messages": [{"role": "user", "content": "x" * 20_000}]}
    r = httpx.post(keyed.url + "/v1/chat/completions", json=big, headers=auth, timeout=30)
    assert r.status_code == 413 and "at most" in r.json()["error"]["message"]

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b" " * 1024

    r = httpx.post(keyed.url + "/v1/chat/completions", content=chunks(), headers={**auth, "content-type": "application/json"}, timeout=30)
    assert r.status_code == 413
    r = httpx.post(
        keyed.url + "/edgerag/indexes/tests/documents", files={"files": ("big.txt", b"word " * 20_000)}, headers=auth, timeout=30
    )
    assert r.status_code == 413


def test_a_full_line_gets_503_with_retry_after_and_no_request_is_lost(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    questions = [f"Who was the keeper of the lighthouse in the year {1950 + i}?" for i in range(6)]
    results: dict[int, httpx.Response] = {}

    def ask(i: int) -> None:
        body = {"model": "edgerag:tests", "messages": [{"role": "user", "content": questions[i]}]}
        results[i] = httpx.post(keyed.url + "/v1/chat/completions", json=body, headers=auth, timeout=600)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
        time.sleep(0.05)
    for t in threads:
        t.join(600)
    codes = sorted(r.status_code for r in results.values())
    assert len(results) == 6 and set(codes) <= {200, 503}, codes
    assert codes.count(503) >= 1 and codes.count(200) >= 2, codes
    for r in results.values():
        if r.status_code == 503:
            assert int(r.headers["retry-after"]) >= 1 and "waiting" in r.json()["error"]["message"]
        else:
            assert r.json()["choices"][0]["message"]["content"].strip()


# ---- starting, stopping, crashing ---------------------------------------------------------------
def test_no_key_on_an_address_beyond_this_machine_refuses_to_start(served_dir, tmp_path):
    port = free_port()
    t0 = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "edgerag.cli", "serve", "--index", str(served_dir), "--host", "0.0.0.0", "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "--api-key-file" in out.stderr and "Traceback" not in out.stderr
    (tmp_path / "short").write_text("abc\n")
    out = subprocess.run(
        [sys.executable, "-m", "edgerag.cli", "serve", "--index", str(served_dir), "--api-key-file", str(tmp_path / "short")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "at least 16" in out.stderr
    assert time.monotonic() - t0 < 100
    with socket.socket() as s:  # nothing was left listening
        assert s.connect_ex(("127.0.0.1", port)) != 0


def _children_of_job(folder: Path) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"edgerag.serve.write_job" in cmd and str(folder).encode() in cmd:
                pids.append(int(proc.name))
    return pids


def test_a_server_killed_during_an_upload_resumes_it_and_loses_nothing(built_index, tmp_path):
    shutil.copytree(built_index, tmp_path / "index")
    uploads = tmp_path / "uploads"
    s = ServerProcess(tmp_path / "index", uploads).wait_ready()
    try:
        docs0 = len(httpx.get(s.url + "/edgerag/indexes/tests/documents", timeout=60).json()["documents"])
        f = corpus_file(tmp_path / "beacons.jsonl", 200, "beacon")
        job_id = httpx.post(
            s.url + "/edgerag/indexes/tests/documents", files={"files": ("beacons.jsonl", f.read_bytes())}, timeout=60
        ).json()["id"]
        end = time.monotonic() + 300
        while time.monotonic() < end:
            state = httpx.get(f"{s.url}/edgerag/jobs/{job_id}", timeout=30).json()
            if state["progress"] and 0 < state["progress"]["n"] and not state["progress"]["done"]:
                break
            assert state["state"] in ("queued", "running"), state
            time.sleep(0.05)
        else:
            raise AssertionError("the upload showed no progress")
        os.kill(s.proc.pid, signal.SIGKILL)
        s.proc.wait()
    finally:
        s.stop()
    end = time.monotonic() + 30  # the child notices its server is gone and stops
    while _children_of_job(uploads / job_id) and time.monotonic() < end:
        time.sleep(0.2)
    assert not _children_of_job(uploads / job_id)
    assert json.loads((uploads / job_id / "job.json").read_text())["state"] == "running"

    s = ServerProcess(tmp_path / "index", uploads).wait_ready()
    try:
        done = wait_job(s, job_id)
        assert done["state"] == "done" and done["attempts"] == 2 and done["note"].startswith("resumed"), done
        assert done["result"]["docs_added"] + done["result"]["docs_present"] == 200
        docs = httpx.get(s.url + "/edgerag/indexes/tests/documents", timeout=60).json()["documents"]
        assert len(docs) == docs0 + 200 and len({d["id"] for d in docs}) == len(docs)
    finally:
        s.stop()
