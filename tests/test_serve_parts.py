"""The server's parts without a server (issue #48): what a chat request may hold, upload names,
the model's line. The real process is tested in test_serve.py."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edgerag.llm.local import Interrupted, interruptible
from edgerag.serve.chat import RequestError, from_ollama, from_openai, refers_back, strip_references
from edgerag.serve.config import check_bind, index_names, is_loopback, read_api_key
from edgerag.serve.jobs import safe_name
from edgerag.serve.model_queue import ModelQueue, QueueFull


def test_the_last_user_message_is_the_question_and_earlier_turns_its_history():
    req = from_openai(
        {
            "model": "edgerag:x",
            "messages": [
                {"role": "system", "content": "be nice"},
                {"role": "user", "content": "Who founded it?"},
                {"role": "assistant", "content": "Anna Berg [1]\n\nReferences:\n[1] Doc"},
                {"role": "user", "content": [{"type": "text", "text": "Where was she born?"}]},
            ],
            "temperature": 0.2,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
    )
    assert req.question == "Where was she born?" and [t.role for t in req.history] == ["user", "assistant"]
    assert req.stream and req.include_usage and not req.client_task
    assert strip_references(req.history[1].text) == "Anna Berg [1]"
    assert from_ollama({"messages": [{"role": "user", "content": "Hi?"}]}).stream  # Ollama streams by default


def test_a_continue_turn_keeps_the_question_and_what_the_client_has():
    req = from_openai({"messages": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "The ans"}]})
    assert req.question == "Q?" and req.continued == "The ans" and req.history == []


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "assistant", "content": "hi"}]}, "messages"),
        ({"messages": [{"role": "user", "content": "  "}]}, "messages"),
        ({"messages": [{"role": "user", "content": "q"}], "tools": [{"type": "function"}], "tool_choice": "required"}, "tool_choice"),
        (
            {
                "messages": [{"role": "user", "content": "q"}],
                "tools": [{"type": "function", "function": {"name": "search_web"}}],
                "tool_choice": {"type": "function", "function": {"name": "search_web"}},
            },
            "tool_choice",
        ),
        ({"messages": [{"role": "user", "content": "q"}], "functions": [{"name": "f"}], "function_call": {"name": "f"}}, "function_call"),
        ({"messages": [{"role": "user", "content": "q"}], "n": 3}, "n"),
        ({"messages": [{"role": "user", "content": "q"}], "logprobs": True}, "logprobs"),
        ({"messages": [{"role": "user", "content": "q"}], "response_format": {"type": "json_schema"}}, "response_format"),
        ({"messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}]}, "messages[0].content"),
        ({"messages": [{"role": "user", "content": "q"}], "edgerag": {"method": "nope"}}, "edgerag"),
        ({"messages": [{"role": "user", "content": "q"}], "edgerag": {"budget": 0}}, "edgerag.budget"),
    ],
)
def test_what_edgerag_cannot_serve_is_refused_by_name(body, param):
    with pytest.raises(RequestError) as e:
        from_openai(body)
    assert e.value.param == param and str(e.value)


@pytest.mark.parametrize("choice", [None, "auto", "none"])
def test_tools_left_to_the_model_are_accepted_and_counted_in_both_dialects(choice):
    tools = [{"type": "function", "function": {"name": f"tool_{i}", "parameters": {"type": "object"}}} for i in range(36)]
    body = {"messages": [{"role": "user", "content": "q?"}], "tools": tools, **({"tool_choice": choice} if choice else {})}
    assert from_openai(body).tools_ignored == 36
    assert from_ollama({"messages": body["messages"], "tools": tools}).tools_ignored == 36
    assert from_openai({"messages": body["messages"]}).tools_ignored == 0
    with pytest.raises(RequestError) as e:
        from_ollama({**body, "tool_choice": "required"})
    assert e.value.param == "tool_choice" and "calls no tools" in str(e.value)


def test_ollama_images_and_formats_are_refused():
    with pytest.raises(RequestError, match="images"):
        from_ollama({"messages": [{"role": "user", "content": "what?", "images": ["AAAA"]}]})
    with pytest.raises(RequestError, match="format"):
        from_ollama({"messages": [{"role": "user", "content": "what?"}], "format": "json"})


def test_only_a_question_that_refers_back_is_rewritten():
    from edgerag.serve.chat import Turn

    history = [Turn("user", "Who directed Alone?"), Turn("assistant", "Max Mack")]
    assert refers_back("and where was he born?", history)
    assert refers_back("What about its budget?", history)
    assert not refers_back("Where was Max Mack born?", history)
    assert not refers_back("where was he born?", [])  # nothing to refer to


def test_an_elliptical_follow_up_is_asked_again_in_full_without_the_model():
    from edgerag.serve.chat import Turn, elliptical, standalone

    from .helpers import ScriptedLLM

    history = [Turn("user", "How many beds did the clinic have at Ashford in 2025?"), Turn("assistant", "40")]
    assert elliptical("And at Burley?", history) == "How many beds did the clinic have at Burley in 2025?"
    assert elliptical("What about Colne?", history) == "How many beds did the clinic have at Colne in 2025?"
    assert elliptical("And what does it cost?", history) is None  # no name: the model rewrites it
    rw = standalone(ScriptedLLM([]), "And at Burley?", history, "bridge-ppr")  # a model call would fail: none scripted
    assert rw.question == "How many beds did the clinic have at Burley in 2025?" and rw.changed


def test_a_rewrite_that_repeats_an_earlier_question_is_refused(index_copy):
    from edgerag import EdgeRAG, Settings
    from edgerag.llm.metered import MeteredLLM
    from edgerag.serve.chat import Turn, standalone

    from .helpers import ScriptedLLM

    rag = EdgeRAG(index_copy, Settings(progress=False))
    index = rag.index
    history = [Turn("user", "Who is the clinic's safety officer?"), Turn("assistant", "Dr Ann Lee")]
    llm = MeteredLLM(ScriptedLLM(["Who is the clinic's safety officer?"]), index.tables)
    rw = standalone(llm, "Within how many hours must incidents be reported to her?", history, "bridge-ppr")
    assert not rw.changed and "repeated an earlier question" in rw.note
    rag.close()


def test_open_webui_housekeeping_is_not_a_question_about_the_documents():
    req = from_openai({"messages": [{"role": "user", "content": "### Task:\nGenerate a concise title for the chat."}]})
    assert req.client_task


@given(st.text(max_size=80))
def test_an_upload_name_is_a_plain_file_name_or_refused(name):
    for suffix in ("", ".txt", ".pdf"):
        try:
            safe = safe_name(name + suffix)
        except ValueError as e:
            assert str(e)
            continue
        assert "/" not in safe and "\\" not in safe and "\x00" not in safe
        assert safe not in (".", "..") and not safe.startswith(".")
        assert Path("/uploads", safe).resolve().parent == Path("/uploads")


def test_index_names_and_keys(tmp_path):
    assert index_names(["docs/my-index", "law=/srv/law"]) == {"my-index": Path("docs/my-index"), "law": Path("/srv/law")}
    with pytest.raises(ValueError, match="two indexes"):
        index_names(["a/x", "b/x"])
    (tmp_path / "k").write_text("\n  0123456789abcdef0123  \n")
    assert read_api_key(tmp_path / "k") == "0123456789abcdef0123"
    (tmp_path / "short").write_text("abc")
    with pytest.raises(ValueError, match="at least 16"):
        read_api_key(tmp_path / "short")
    with pytest.raises(ValueError, match="api-key-file"):
        read_api_key(tmp_path / "missing")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("::")
    check_bind("127.0.0.1", None)
    check_bind("0.0.0.0", "0123456789abcdef")
    with pytest.raises(ValueError, match="api-key-file"):
        check_bind("0.0.0.0", None)


def test_the_model_line_runs_in_order_and_refuses_past_its_size():
    q = ModelQueue(max_waiting=2)
    gate, order = threading.Event(), []

    def work(name):
        def fn(_t):
            gate.wait(10)
            order.append(name)
            return name

        return fn

    tickets = [q.submit(work("a"), "a")]
    time.sleep(0.1)  # a runs (held at the gate)
    tickets += [q.submit(work("b"), "b"), q.submit(work("c"), "c")]
    with pytest.raises(QueueFull) as e:
        q.submit(work("d"), "d")
    assert e.value.retry_after >= 1 and q.ahead(tickets[2]) == 2
    tickets[1].cancel()  # its client left while it waited: skipped
    gate.set()
    assert tickets[0].future.result(10) == "a" and tickets[2].future.result(10) == "c"
    assert order == ["a", "c"] and tickets[1].future.cancelled()
    q.close()


def test_a_running_call_stops_when_its_client_leaves():
    """The model's thread runs each ticket inside `interruptible`: a check the model's loop reads."""
    q = ModelQueue(max_waiting=1)
    seen = []

    def fn(ticket):
        from edgerag.llm import local

        for i in range(200):  # stands in for a model's token loop, which reads the same check
            check = local._interrupt.get()
            if check is not None and check():
                seen.append(i)
                raise Interrupted("stopped")
            time.sleep(0.01)
        return "finished"

    t = q.submit(fn, "long")
    time.sleep(0.2)
    t.cancel()
    with pytest.raises(Interrupted):
        t.future.result(10)
    assert seen and seen[0] < 100
    q.close()
    with interruptible(lambda: True):  # and outside the line, the same check applies
        from edgerag.llm import local

        assert local._interrupt.get()()


def _model_loop(ticks: int = 300):
    """Stands in for a model call: a token loop that reads the line's stop check."""

    def fn(_ticket):
        from edgerag.llm import local

        for _ in range(ticks):
            check = local._interrupt.get()
            if check is not None and check():
                raise Interrupted("stopped")
            time.sleep(0.01)
        return "model"

    return fn


def test_a_question_is_served_before_tasks_and_a_task_never_holds_one_up():
    q = ModelQueue(max_waiting=8)
    gate, order = threading.Event(), []

    def held(name):
        def fn(_t):
            gate.wait(10)
            order.append(name)
            return name

        return fn

    # a task without an answer in code (the warm-up, say) runs; three tasks wait behind it
    q.submit(held("first"), "first", task=True)
    time.sleep(0.1)
    tasks = [q.submit(held(f"t{i}"), f"t{i}", task=True, fallback=lambda _t, i=i: f"code{i}") for i in range(3)]
    assert q.ahead(tasks[2]) == 3 and q.status()["waiting_tasks"] == 3
    question = q.submit(held("question"), "question")
    # the three tasks are answered in code at once; the question waits for the running call only
    assert [t.future.result(1) for t in tasks] == ["code0", "code1", "code2"]
    assert q.ahead(question) == 1 and q.status()["tasks_in_code"] == 3
    # a task that comes while a question waits or runs is answered in code too, never queued
    late = q.submit(held("late"), "late", task=True, fallback=lambda _t: "code-late")
    assert late.future.result(1) == "code-late"
    gate.set()
    assert question.future.result(10) == "question"
    assert order == ["first", "question"]
    q.close()


def test_a_running_task_is_stopped_for_a_question_and_answered_in_code():
    q = ModelQueue(max_waiting=8)
    task = q.submit(_model_loop(), "title", task=True, fallback=lambda _t: '{"title": "in code"}')
    time.sleep(0.2)  # the task runs
    question = q.submit(lambda _t: "answer", "question")
    assert q.ahead(question) == 0, "a task being stopped is not ahead of the question"
    assert task.future.result(10) == '{"title": "in code"}'
    assert question.future.result(10) == "answer"
    assert q.status()["tasks_in_code"] == 1
    # with nothing waiting, a task is the model's, in full
    alone = q.submit(_model_loop(5), "tags", task=True, fallback=lambda _t: "code")
    assert alone.future.result(10) == "model"
    q.close()


def test_the_wait_a_stream_announces_counts_only_what_is_ahead():
    q = ModelQueue(max_waiting=8)
    gate = threading.Event()
    q._seconds["question"].extend([10.0, 10.0])
    q._seconds["task"].extend([20.0])
    running = q.submit(lambda _t: gate.wait(10), "q0")
    time.sleep(0.1)
    waiting = [q.submit(lambda _t: gate.wait(10), f"q{i}") for i in (1, 2)]
    assert q.ahead(waiting[1]) == 2
    assert 15 <= q.wait_seconds(waiting[1]) <= 20  # the running one's rest plus one question
    assert q.wait_seconds(running) == 0
    gate.set()
    for t in [running, *waiting]:
        t.future.result(10)
    q.close()


def test_open_webui_tasks_are_told_by_the_json_their_prompt_asks_for():
    from edgerag.serve import client_tasks

    fixtures = Path(__file__).parent / "data" / "openwebui"
    for name, key in (("task_title", "title"), ("task_tags", "tags"), ("task_follow_ups", "follow_ups")):
        body = json.loads((fixtures / f"{name}.json").read_text(encoding="utf-8"))
        prompt = body["messages"][-1]["content"]
        req = from_openai(body)
        assert req.client_task and client_tasks.kind_of(prompt) == key, name
        answer = json.loads(client_tasks.in_code(prompt))
        assert list(answer) == [key]
    title = json.loads((fixtures / "task_title.json").read_text(encoding="utf-8"))["messages"][-1]["content"]
    assert json.loads(client_tasks.in_code(title))["title"] == "Access code of the Zorblax vault"
    assert json.loads(client_tasks.in_code('### Task:\nContinue the text. Respond only in JSON: `{ "text": "<c>" }`')) == {"text": ""}
    assert client_tasks.title_from("Who sealed the Zorblax vault?") == "Sealed the Zorblax vault"


def test_a_passage_link_is_signed_for_exactly_its_passage_and_mark():
    from edgerag.serve.passage_page import parse, passage_url, sign, signed

    key = "0123456789abcdef0123"
    url = passage_url("http://127.0.0.1:8080/", "docs", "report:3", "Cork", key)
    path, _, query = url.removeprefix("http://127.0.0.1:8080").partition("?")
    assert path == "/passage/docs/report%3A3" and "mark=Cork" in query and f"sig={sign(key, 'docs', 'report:3', 'Cork')}" in query
    decoded = "/passage/docs/report:3"  # the server routes on the decoded path
    assert parse(decoded) == ("docs", "report:3", False) and parse(decoded + "/file") == ("docs", "report:3", True)
    assert signed(key, decoded, query) and signed(key, decoded + "/file", query)
    assert not signed(key, decoded, query.replace("Cork", "Dublin"))  # another mark
    assert not signed(key, "/passage/docs/report:4", query)  # another passage
    assert not signed(key, "/edgerag/indexes", query) and not signed("another-key-0123456789", decoded, query)
    assert not signed(key, decoded, "mark=Cork")  # no signature
    assert "sig=" not in passage_url("http://h", "docs", "report:3", "Cork", None)  # no key, no signature


def test_a_passage_page_escapes_everything_and_marks_the_answer():
    from edgerag.serve.passage_page import annotations, marked

    assert marked("Born in <Cork>, cork & Cork.", "cork") == "Born in &lt;<mark>Cork</mark>&gt;, <mark>cork</mark> &amp; <mark>Cork</mark>."
    assert marked("a <b>", "") == "a &lt;b&gt;"
    text = "He was born in Cork [1].\n\nReferences:\n[1] Max Mack — corpus.jsonl:52"
    cites = [
        {"n": 1, "how": "cited", "chunk_id": "c:1", "title": "Max Mack", "where": "corpus.jsonl:52", "url": "http://h/passage/x/c%3A1"},
        {"n": 2, "how": "unverified", "chunk_id": "c:2", "title": "Other", "where": "", "url": "http://h/passage/x/c%3A2"},
    ]
    (a,) = annotations(cites, text)
    span = a["url_citation"]
    assert a["type"] == "url_citation" and span["url"].endswith("c%3A1") and span["title"] == "Max Mack — corpus.jsonl:52"
    assert text[span["start_index"] : span["end_index"]] == "[1] Max Mack — corpus.jsonl:52"


def test_the_access_log_line_says_method_path_status_seconds_model_and_tokens():
    from edgerag.serve.access_log import line

    assert line("POST", "/v1/chat/completions", 200, 4.213, "edgerag:docs", (812, 45)) == (
        "edgerag: POST /v1/chat/completions 200 4.21 s model=edgerag:docs tokens=812+45"
    )
    assert line("GET", "/api/ps", 401, 0.0) == "edgerag: GET /api/ps 401 0.00 s model=- tokens=-"
    forged = line("GET", "/x\nedgerag: POST /v1/chat/completions 200", 404, 0.0)
    assert "\n" not in forged and forged.startswith("edgerag: GET /x\\x0aedgerag:\\x20POST")
