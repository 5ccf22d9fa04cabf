"""Open WebUI against the real `edgerag serve` process (issue #57): the request bodies it sends
(tests/data/openwebui: its tools, its task prompts, stream_options) replayed in both dialects,
questions served before its housekeeping, the passage pages behind its source chips, Ollama's
/api/ps and /api/generate, and the access log. The real 0.5B model answers; nothing is sent
anywhere but 127.0.0.1."""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from edgerag import EdgeRAG, Settings

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION
from .docmaker import make_pdf
from .test_serve import KEY, ServerProcess

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "data" / "openwebui"
PDF_FACT = "The Quorrin ledger was signed by the clerk Abel Thrane in the winter of 1721."


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def sse(r: httpx.Response) -> list[dict]:
    return [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: {")]


@pytest.fixture(scope="module")
def index_dir(built_index, tmp_path_factory) -> Path:
    """The session's index and a two-page PDF whose fact is on page 2."""
    root = tmp_path_factory.mktemp("owui")
    shutil.copytree(built_index, root / "index")
    pdf = make_pdf(root / "ledger.pdf", ["The archive of the Quorrin family, first page.", PDF_FACT])
    rag = EdgeRAG(root / "index", Settings(progress=False))
    rag.insert([pdf])
    rag.close()
    return root / "index"


@pytest.fixture(scope="module")
def server(index_dir):
    s = ServerProcess(index_dir, index_dir.parent / "uploads").wait_ready()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def keyed(index_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("owui-keyed")
    shutil.copytree(index_dir, root / "index")
    (root / "key").write_text(KEY + "\n")
    s = ServerProcess(root / "index", root / "uploads", "--api-key-file", str(root / "key")).wait_ready()
    yield s
    s.stop()


# ---- Open WebUI's own requests, replayed ----------------------------------------------------------
def test_open_webuis_chat_with_its_tools_is_answered_from_the_index_with_source_chips(server):
    body = fixture("chat_openai")
    with httpx.stream("POST", server.url + "/v1/chat/completions", json=body, timeout=300) as r:
        assert r.status_code == 200, r.read()
        chunks = sse(r)
    content = "".join(ch["delta"].get("content") or "" for c in chunks for ch in c["choices"])
    assert PLANTED_ANSWER in content
    final = next(c for c in chunks if c["choices"] and c["choices"][0]["finish_reason"] == "stop")
    assert final["edgerag"]["tools_ignored"] == len(body["tools"])
    assert any(c.get("usage") for c in chunks), "stream_options.include_usage: the usage chunk"
    annotated = [a for c in chunks for ch in c["choices"] for a in ch["delta"].get("annotations") or []]
    assert annotated and all(a["type"] == "url_citation" for a in annotated)
    for a in annotated:  # each spans its reference line in the message's content
        span = a["url_citation"]
        assert content[span["start_index"] : span["end_index"]].startswith("[") and span["title"]
        assert span["url"].startswith(server.url + "/passage/tests/")
    # the chip's page: the passage, the answer marked, its document, the original file behind it
    zorblax = next(a["url_citation"] for a in annotated if "orblax" in a["url_citation"]["title"])
    page = httpx.get(zorblax["url"], timeout=30)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert f"<mark>{PLANTED_ANSWER}</mark>" in page.text and "zorblax.md" in page.text
    assert "http://" not in page.text and "https://" not in page.text and "<script" not in page.text
    href = re.search(r'<a href="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    original = httpx.get(server.url + href, timeout=30)
    assert original.status_code == 200 and PLANTED_ANSWER in original.text


def test_open_webuis_ollama_chat_with_its_tools_is_answered_too(server):
    body = fixture("chat_ollama")
    with httpx.stream("POST", server.url + "/api/chat", json=body, timeout=300) as r:
        assert r.status_code == 200
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert PLANTED_ANSWER in "".join(x["message"]["content"] for x in lines)
    done = lines[-1]
    assert done["done"] and done["edgerag"]["tools_ignored"] == len(body["tools"])
    assert done["citations"] and all(c["url"].startswith(server.url + "/passage/tests/") for c in done["citations"])


@pytest.mark.parametrize("task", ["task_title", "task_tags", "task_follow_ups"])
def test_open_webuis_task_prompts_go_to_the_model_when_it_is_free(server, task):
    body = fixture(task)
    r = httpx.post(server.url + "/v1/chat/completions", json=body, timeout=300).json()
    assert r["edgerag"]["client_task"] == task.removeprefix("task_") and "answered_in_code" not in r["edgerag"]
    assert r["choices"][0]["message"]["content"].strip() and r["citations"] == []
    o = httpx.post(server.url + "/api/chat", json={**body, "stream": False}, timeout=300).json()
    assert o["done"] and o["edgerag"]["client_task"] == task.removeprefix("task_")


def test_a_question_behind_three_task_requests_is_served_first(server):
    tag = str(time.time_ns())  # prompts the LLM cache has not seen
    tasks = []
    for name in ("task_title", "task_tags", "task_follow_ups"):
        body = fixture(name)
        body["messages"][-1]["content"] = body["messages"][-1]["content"].replace("Zorblax vault?", f"Zorblax vault ({tag})?")
        tasks.append(body)
    replies: dict[int, dict] = {}

    def send(i: int) -> None:
        replies[i] = httpx.post(server.url + "/v1/chat/completions", json=tasks[i], timeout=300).json()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
        time.sleep(0.05)
    end = time.monotonic() + 60
    while time.monotonic() < end:  # the model is on a task, the others wait
        q = httpx.get(server.url + "/health", timeout=30).json()["queue"]
        if (q["running"] or "").startswith("task"):
            break
        time.sleep(0.02)
    before = httpx.get(server.url + "/health", timeout=30).json()["queue"]
    busy = max(before["waiting_tasks"], 1)  # those waiting, and the one running (unless it finished first)
    body = {"model": server.model, "stream": True, "messages": [{"role": "user", "content": PLANTED_QUESTION}]}
    with httpx.stream("POST", server.url + "/v1/chat/completions", json=body, timeout=300) as r:
        chunks = sse(r)
    for t in threads:
        t.join(300)
    plans = [ch["delta"].get("reasoning_content") or "" for c in chunks for ch in c["choices"]]
    assert not any(p.startswith("waiting for the model") for p in plans), plans  # no task was ahead of it
    assert PLANTED_ANSWER in "".join(ch["delta"].get("content") or "" for c in chunks for ch in c["choices"])
    after = httpx.get(server.url + "/health", timeout=30).json()["queue"]
    assert after["tasks_in_code"] - before["tasks_in_code"] >= busy, (before, after)
    in_code = [r for r in replies.values() if r["edgerag"].get("answered_in_code")]
    assert len(replies) == 3 and len(in_code) >= busy
    for r in in_code:  # well-formed, empty but for the title, made of the question's words
        answer = json.loads(r["choices"][0]["message"]["content"])
        assert answer in ({"tags": []}, {"follow_ups": []}) or answer["title"].startswith("Access code of the Zorblax vault")


# ---- Ollama's other routes ------------------------------------------------------------------------
def test_api_generate_gives_the_same_answer_for_a_prompt_and_api_ps_lists_the_models(server):
    whole = httpx.post(server.url + "/api/generate", json={"model": server.model, "prompt": PLANTED_QUESTION, "stream": False}, timeout=300)
    assert whole.status_code == 200 and PLANTED_ANSWER in whole.json()["response"] and whole.json()["done"]
    assert whole.json()["eval_count"] > 0 and whole.json()["citations"]
    with httpx.stream("POST", server.url + "/api/generate", json={"model": server.model, "prompt": PLANTED_QUESTION}, timeout=300) as r:
        lines = [json.loads(line) for line in r.iter_lines() if line.strip()]
    assert lines[0].get("thinking") and lines[-1]["done"] and not any(x["done"] for x in lines[:-1])
    assert "".join(x["response"] for x in lines) == whole.json()["response"]
    load = httpx.post(server.url + "/api/generate", json={"model": server.model}, timeout=30).json()
    assert load["done"] and load["done_reason"] == "load"
    ps = httpx.get(server.url + "/api/ps", timeout=30).json()["models"]
    assert [m["name"] for m in ps] == ["edgerag:tests"] and ps[0]["expires_at"] and ps[0]["size"] > 0


def test_errors_on_ollamas_routes_come_in_ollamas_shape(server, keyed):
    for r in (
        httpx.post(server.url + "/api/chat", content=b"{oops", timeout=30),
        httpx.post(server.url + "/api/generate", json={"model": "edgerag:nope", "prompt": "hi?"}, timeout=30),
        httpx.get(server.url + "/api/nothing-here", timeout=30),
        httpx.get(keyed.url + "/api/tags", timeout=30),
        httpx.get(keyed.url + "/api/ps", timeout=30),
    ):
        assert r.status_code in (400, 401, 404) and isinstance(r.json()["error"], str) and r.json()["error"], r.text
    assert httpx.get(keyed.url + "/api/tags", timeout=30).status_code == 401
    assert isinstance(httpx.get(keyed.url + "/v1/models", timeout=30).json()["error"], dict)  # OpenAI's own shape there


# ---- passage pages --------------------------------------------------------------------------------
def test_a_pdf_passage_names_its_page_and_links_the_file_at_that_page(server):
    units = httpx.post(server.url + "/edgerag/retrieve", json={"query": "Who signed the Quorrin ledger?", "method": "text"}, timeout=60)
    unit = next(u for u in units.json()["units"] if "Abel Thrane" in u["text"])
    page = httpx.get(f"{server.url}/passage/tests/{unit['chunk_id']}", params={"mark": "Abel Thrane"}, timeout=30)
    assert page.status_code == 200 and "<mark>Abel Thrane</mark>" in page.text and "ledger.pdf p. 2" in page.text
    href = re.search(r'<a href="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    assert href.endswith("#page=2")
    pdf = httpx.get(server.url + href.split("#")[0], timeout=30)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert httpx.get(f"{server.url}/passage/tests/no-such-chunk:9", timeout=30).status_code == 404
    hostile = httpx.get(f"{server.url}/passage/tests/{unit['chunk_id']}", params={"mark": "<script>alert(1)</script>"}, timeout=30)
    assert "<script>" not in hostile.text


def test_with_a_key_a_signed_link_opens_its_passage_and_nothing_else(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    body = {"model": keyed.model, "messages": [{"role": "user", "content": PLANTED_QUESTION}]}
    r = httpx.post(keyed.url + "/v1/chat/completions", json=body, headers=auth, timeout=300).json()
    notes = r["choices"][0]["message"]["annotations"]
    url = next(a["url_citation"]["url"] for a in notes if "orblax" in a["url_citation"]["title"])
    assert "sig=" in url
    page = httpx.get(url, timeout=30)  # a browser: no key
    assert page.status_code == 200 and PLANTED_ANSWER in page.text
    href = re.search(r'<a href="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    assert httpx.get(keyed.url + href, timeout=30).status_code == 200  # the file behind it, by the same signature
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    other = parts.path.rsplit("%3A", 1)[0] + "%3A999"
    refused = [
        httpx.get(keyed.url + parts.path, timeout=30),  # no signature
        httpx.get(keyed.url + parts.path, params={**query, "mark": "something else"}, timeout=30),  # another mark
        httpx.get(keyed.url + other, params=query, timeout=30),  # another passage
        httpx.get(keyed.url + "/edgerag/indexes", params=query, timeout=30),  # any other route
        httpx.get(keyed.url + "/v1/models", params=query, timeout=30),
    ]
    # without a signature a browser is sent to the web page's login (serve/web/access.py), never the passage
    assert refused[0].status_code == 303 and "/login" in refused[0].headers["location"] and PLANTED_ANSWER not in refused[0].text
    assert [x.status_code for x in refused[1:]] == [401] * (len(refused) - 1)
    assert httpx.get(keyed.url + parts.path, headers=auth, timeout=30).status_code == 200  # the key opens it too


# ---- the access log -----------------------------------------------------------------------------
def test_every_request_gets_a_line_in_the_log_and_quiet_turns_it_off(server, keyed, index_dir):
    httpx.post(
        server.url + "/v1/chat/completions",
        json={"model": server.model, "messages": [{"role": "user", "content": PLANTED_QUESTION}]},
        timeout=300,
    )
    httpx.get(keyed.url + "/api/tags", timeout=30)
    time.sleep(0.5)
    log = server.log.read_text()
    assert re.search(r"^edgerag: POST /v1/chat/completions 200 \d+\.\d\d s model=edgerag:tests tokens=\d+\+\d+$", log, re.M), log[-2000:]
    assert re.search(r"^edgerag: GET /health 200 \d+\.\d\d s model=- tokens=-$", log, re.M)
    assert re.search(r"^edgerag: GET /api/tags 401 \d+\.\d\d s model=- tokens=-$", keyed.log.read_text(), re.M)
    assert "sig=" not in log and "mark=" not in log  # paths only: a link's signature stays out
    quiet = ServerProcess(index_dir, index_dir.parent / "uploads-quiet", "--quiet")
    try:
        quiet.wait_ready()
        httpx.get(quiet.url + "/api/version", timeout=30)
        time.sleep(0.5)
        assert "edgerag: GET" not in quiet.log.read_text()
    finally:
        quiet.stop()
