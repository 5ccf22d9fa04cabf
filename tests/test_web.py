"""The web page of `edgerag serve` (issue #58): every page from the real server process on a free
loopback port (the real 0.5B model answering), the key's login and session cookie, writes
refused from other sites, the evidence graph's bounds, and no outside address in any template
or asset. The browser drives it in tests/test_web_browser.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx
import pytest

from edgerag.answer import Answer
from edgerag.answer.citations import Citation
from edgerag.types import Context, Unit

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION

WEB = Path(__file__).resolve().parents[1] / "edgerag" / "serve" / "web"
KEY = "web-k3y-for-the-tests-0123456789"
OUTSIDE = re.compile(r"(?:https?:)?//(?!127\.0\.0\.1|localhost|\[::1\])[A-Za-z0-9.-]+\.[A-Za-z]{2,}", re.IGNORECASE)


# ---- offline and light: nothing named outside ----------------------------------------------------
def test_no_template_or_asset_names_an_outside_address():
    files = sorted(p for p in (WEB / "templates").iterdir()) + sorted(p for p in (WEB / "assets").iterdir())
    assert any(p.suffix == ".html" for p in files) and any(p.suffix == ".js" for p in files) and any(p.suffix == ".css" for p in files)
    for p in files:
        text = p.read_text(encoding="utf-8")
        found = OUTSIDE.findall(text)
        assert not found, f"{p.name} names outside addresses: {found}"
        assert "@import" not in text and "fonts.googleapis" not in text, p.name
    # the check itself: it sees an outside URL, a protocol-relative one, and lets loopback through
    assert OUTSIDE.search('<script src="https://cdn.example.com/x.js">') and OUTSIDE.search("url(//fonts.example.org/a.woff)")
    assert not OUTSIDE.search("http://127.0.0.1:8080/ http://localhost:8080/ http://[::1]:8080/")


# ---- access: the session cookie and the CSRF token -----------------------------------------------
def test_a_session_is_signed_with_the_key_and_expires():
    from edgerag.serve.web.access import csrf_token, new_session, same_origin, session_nonce

    value = new_session(KEY, now=1000.0)
    nonce = session_nonce(KEY, value, now=1001.0)
    assert nonce and session_nonce(KEY, value, now=1000.0 + 8 * 24 * 3600) is None  # a week later: gone
    assert session_nonce("another-key-0123456789", value, now=1001.0) is None  # a new key ends every session
    expires, n, sig = value.split(".")
    assert session_nonce(KEY, f"{int(expires) + 999}.{n}.{sig}", now=1001.0) is None  # its expiry cannot be moved
    assert csrf_token(KEY, nonce) != csrf_token(KEY, session_nonce(KEY, new_session(KEY, now=1000.0), now=1001.0))
    assert csrf_token(None, nonce) == ""
    assert same_origin("http://127.0.0.1:8080", "127.0.0.1:8080") and not same_origin("http://evil.example", "127.0.0.1:8080")
    assert not same_origin("null", "127.0.0.1:8080") and not same_origin("http://127.0.0.1:9090", "127.0.0.1:8080")


def test_a_login_sends_the_browser_only_to_a_page_of_this_server():
    pytest.importorskip("fastapi")
    from edgerag.serve.web.routes import _next

    assert _next("/documents?index=a") == "/documents?index=a"
    for bad in ("https://evil.example/", "//evil.example/", "/\\evil.example", "", None, "javascript:alert(1)"):
        assert _next(bad) == "/", bad


# ---- the evidence graph --------------------------------------------------------------------------
def _unit(i: int, text: str, title: str, **meta) -> Unit:
    return Unit("chunk", f"c{i}", text, 30, 1.0 / i, f"d{i}", f"c{i}", title=title, meta=meta)


def test_the_evidence_links_the_questions_names_passages_and_bridging_entities():
    from edgerag.serve.web.evidence import MAX_NODES, evidence_of, layout

    units = [
        _unit(1, "Aschenbrodel is an operetta composed by Johann Strauss II in 1899.", "Aschenbrodel"),
        _unit(
            2,
            "Johann Strauss II was born in St. Ulrich near Vienna.",
            "Johann Strauss II",
            bridge={"seed": "c1", "keys": ["johann strauss ii"]},
        ),
        _unit(3, "Vienna is the capital of Austria.", "Vienna"),
    ]
    units += [_unit(i, f"Filler passage {i} about Topic{i} and Thing{i} and Place{i}.", f"Filler {i}") for i in range(4, 20)]
    ans = Answer(
        question="Where was the composer of Aschenbrodel born?",
        text="St. Ulrich near Vienna [2]",
        short="St. Ulrich near Vienna",
        citations=[Citation(2, "d2", "c2", "Johann Strauss II", "cited")],
        context=Context("q", "bridge", 1000, units),
        dropped_units=0,
        steps=[
            {
                "phrase": "the composer of Aschenbrodel",
                "question": "Who composed Aschenbrodel?",
                "answer": "Johann Strauss II",
                "how": "read",
            },
            {"phrase": "", "question": "Where was Johann Strauss II born?", "answer": "St. Ulrich near Vienna", "how": "read"},
        ],
    )
    cites = [{"n": 2, "chunk_id": "c2", "url": "/passage/x/c2?mark=St.%20Ulrich"}]
    ev = evidence_of(ans.question, ans, cites)
    kinds = {n.id: n.kind for n in ev.nodes}
    assert kinds["q"] == "question" and kinds["n:aschenbrodel"] == "name" and kinds["a"] == "answer"
    assert kinds["e:johann strauss ii"] == "entity"  # the name that bridged passage 1 to passage 2
    assert ("p:c1", "e:johann strauss ii", "links") in ev.edges and ("p:c2", "e:johann strauss ii", "links") in ev.edges
    assert ("n:aschenbrodel", "p:c1", "mentions") in ev.edges
    assert ("p:c1", "p:c2", "bridge") in ev.edges  # the bridge retriever's own record
    assert ("p:c2", "a", "holds") in ev.edges and ("p:c2", "h:1", "holds") in ev.edges and ("q", "h:1", "hop") in ev.edges
    assert ev.node("p:c2").cited and ev.node("p:c2").url.startswith("/passage/") and ev.node("p:c2").label.startswith("[2]")
    assert len(ev.nodes) <= MAX_NODES and sum(n.kind == "passage" for n in ev.nodes) == 8  # bounded: cited first, then read
    drawing = layout(ev)
    xs = {n["kind"]: n["x"] for n in drawing.nodes}
    assert xs["question"] < xs["name"] < xs["passage"] < xs["entity"] < xs["answer"]  # left to right
    assert all(0 < n["x"] < drawing.width and 0 < n["y"] < drawing.height for n in drawing.nodes)
    assert len(drawing.edges) == len(ev.edges)


def test_an_abstained_answer_draws_no_answer_node():
    from edgerag.serve.web.evidence import evidence_of, layout

    units = [_unit(1, "The orchard grows apples.", "Orchard")]
    ans = Answer("Who owns the moon?", "The documents do not say.", "", [], Context("q", "text", 100, units), 0)
    ev = evidence_of(ans.question, ans, [])
    assert [n.kind for n in ev.nodes] == ["question", "passage"]
    assert layout(ev).nodes


# ---- the ledger view -----------------------------------------------------------------------------
def test_the_ledger_view_scales_bars_to_the_largest_row():
    from edgerag.serve.web.tokens import ledger_view

    def b(i, o, ci=0, co=0, calls=1):
        return {"calls": calls, "cached_calls": 0, "failed_calls": 0, "input": i, "evaluated": i, "output": o,
                "cached_input": ci, "cached_output": co, "seconds": 1.0}  # fmt: skip

    totals = {"all": b(1300, 130, 100), "by_stage": {"answer": b(300, 30, 100), "extract": b(1000, 100)}, "by_method": {}, "by_model": {}}
    view = ledger_view(totals)
    stage = view.groups[0]
    assert [r.name for r in stage.rows] == ["extract", "answer"]
    assert stage.rows[0].bars["input"] + stage.rows[0].bars["output"] == pytest.approx(100)
    assert stage.rows[1].bars["cached"] == pytest.approx(100 * 100 / 1100)
    assert ledger_view({}).all is None


# ---- the pages, from the real server -------------------------------------------------------------
@pytest.fixture(scope="module")
def web_server(built_index, tmp_path_factory):
    from .test_serve import ServerProcess

    root = tmp_path_factory.mktemp("web")
    shutil.copytree(built_index, root / "index")
    s = ServerProcess(root / "index", root / "uploads").wait_ready()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def web_keyed(built_index, tmp_path_factory):
    from .test_serve import ServerProcess

    root = tmp_path_factory.mktemp("webkey")
    shutil.copytree(built_index, root / "index")
    (root / "key").write_text(KEY + "\n")
    s = ServerProcess(root / "index", root / "uploads", "--api-key-file", str(root / "key")).wait_ready()
    yield s
    s.stop()


def ask(url: str, question: str, history=(), **kw) -> tuple[list[dict], dict]:
    lines, done = [], None
    with httpx.stream(
        "POST", url + "/web/ask", json={"index": "tests", "question": question, "history": list(history)}, timeout=600, **kw
    ) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        for line in r.iter_lines():
            if line.strip():
                ev = json.loads(line)
                lines.append(ev)
                done = ev.get("done", done)
    return lines, done


@pytest.mark.slow
def test_every_page_answers_and_an_answer_streams_with_its_citations(web_server):
    url = web_server.url
    home = httpx.get(url + "/", timeout=30)
    assert home.status_code == 200 and 'id="ask-form"' in home.text and "/assets/web.js" in home.text
    for asset in ("/assets/web.js", "/assets/web.css"):
        assert httpx.get(url + asset, timeout=30).status_code == 200
    lines, done = ask(url, PLANTED_QUESTION)
    kinds = [next(iter(ev)) for ev in lines]
    assert kinds[0] == "plan" and "text" in kinds and kinds[-1] == "done"  # the plan before the first word
    assert kinds.index("plan") < kinds.index("text")
    assert PLANTED_ANSWER in "".join(ev["text"] for ev in lines if "text" in ev) and PLANTED_ANSWER in done["short"]
    assert not done["abstained"] and done["usage"]["prompt"] > 100 and done["seconds"] > 0
    cite = next(c for c in done["citations"] if "Zorblax" in c["title"])
    page = httpx.get(url + cite["url"], timeout=30)
    assert page.status_code == 200 and "<mark>" in page.text and PLANTED_ANSWER in page.text.split("<mark>")[1].split("</mark>")[0]
    why = httpx.get(url + done["why"], timeout=30)
    assert why.status_code == 200 and "<svg" in why.text and 'class="n-passage cited"' in why.text and 'class="n-answer"' in why.text
    assert httpx.get(url + "/why?index=tests", timeout=30).status_code == 200
    # a follow-up reads the conversation it sends
    history = [{"role": "user", "text": "Who sealed the Zorblax vault?"}, {"role": "assistant", "text": "Edith Varga [1]"}]
    _, again = ask(url, "In which year did she seal it?", history)
    assert again["asked"] != again["question"] and ("Varga" in again["asked"] or "Zorblax" in again["asked"]), again
    docs = httpx.get(url + "/documents", timeout=30)
    assert docs.status_code == 200 and "The Zorblax vault" in docs.text and 'id="upload-form"' in docs.text
    tokens = httpx.get(url + "/tokens", timeout=30)
    assert tokens.status_code == 200 and "By stage" in tokens.text and "answer" in tokens.text and 'class="bar"' in tokens.text
    assert httpx.get(url + "/nope-page", timeout=30).status_code == 404
    assert httpx.get(url + "/?index=missing", timeout=30).status_code == 404
    assert httpx.get(url + "/passage/tests/no-such-chunk", timeout=30).status_code == 404


@pytest.mark.slow
def test_the_next_builds_cost_is_planned_on_the_tokens_tab(web_server):
    page = httpx.get(web_server.url + "/tokens?index=tests&plan=ket", timeout=300)
    assert page.status_code == 200 and "still to extract" in page.text and "input tokens" in page.text
    assert httpx.get(web_server.url + "/tokens?plan=text", timeout=30).status_code == 400


@pytest.mark.slow
def test_without_a_key_writes_from_another_site_and_other_host_names_are_refused(web_server):
    url = web_server.url
    evil = {"Origin": "http://evil.example"}
    r = httpx.post(url + "/web/ask", json={"question": "x"}, headers=evil, timeout=30)
    assert r.status_code == 403
    files = {"files": ("a.txt", b"some text", "text/plain")}
    assert httpx.post(url + "/edgerag/indexes/tests/documents", files=files, headers=evil, timeout=30).status_code == 403
    assert httpx.delete(url + "/edgerag/indexes/tests/documents/zorblax", headers=evil, timeout=30).status_code == 403
    # a page that rebinds its own name to 127.0.0.1 reaches nothing
    assert httpx.get(url + "/documents", headers={"Host": "evil.example"}, timeout=30).status_code == 403
    assert httpx.get(url + "/", headers={"Host": f"localhost:{web_server.port}"}, timeout=30).status_code == 200


@pytest.mark.slow
def test_with_a_key_the_page_asks_for_it_once_and_keeps_a_strict_session(web_keyed):
    url = web_keyed.url
    for path in ("/", "/documents?index=tests", "/tokens", "/why", "/passage/tests/anything"):
        r = httpx.get(url + path, timeout=30)
        assert r.status_code == 303 and r.headers["location"].startswith("/login?next="), path
    for path in ("/edgerag/indexes/tests/documents", "/edgerag/indexes/tests/ledger", "/web/ask"):
        assert httpx.get(url + path, timeout=30).status_code in (401, 405), path  # nothing of the index without the key
    login = httpx.get(url + "/login?next=/documents", timeout=30)
    assert login.status_code == 200 and 'type="password"' in login.text and "Zorblax" not in login.text
    assert httpx.get(url + "/assets/web.css", timeout=30).status_code == 200
    wrong = httpx.post(url + "/login", data={"key": "not-the-key-0123456789", "next": "/"}, timeout=30)
    assert wrong.status_code == 401 and "set-cookie" not in wrong.headers
    ok = httpx.post(url + "/login", data={"key": KEY, "next": "/documents"}, timeout=30)
    assert ok.status_code == 303 and ok.headers["location"] == "/documents"
    cookie = ok.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and KEY not in cookie
    with httpx.Client(base_url=url, timeout=600, cookies=ok.cookies) as c:
        docs = c.get("/documents")
        assert docs.status_code == 200 and "The Zorblax vault" in docs.text
        csrf = re.search(r'name="csrf-token" content="([0-9a-f]+)"', docs.text).group(1)
        assert c.get("/edgerag/indexes/tests/ledger").status_code == 200  # the session opens the API the page calls
        body = {"index": "tests", "question": PLANTED_QUESTION}
        assert c.post("/web/ask", json=body).status_code == 403  # no CSRF token: refused
        assert c.post("/web/ask", json=body, headers={"X-CSRF-Token": "0" * 64}).status_code == 403
        r = c.post("/web/ask", json=body, headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"})
        assert r.status_code == 403  # another site, even with the token
        r = c.post("/web/ask", json=body, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200 and PLANTED_ANSWER in r.text
        out = c.post("/logout", headers={"Origin": url})
        assert out.status_code == 303 and "Max-Age=0" in out.headers["set-cookie"]
    assert (
        httpx.get(url + "/edgerag/indexes", headers={"Authorization": f"Bearer {KEY}"}, timeout=30).status_code == 200
    )  # scripts as before


# ---- the page's answer, its abstention and its links (control flow, a scripted reader) -----------
class _Plan:
    def summary(self) -> str:
        return "the model reads 1 of 1 units"


class _Rag:
    """The reader's side of EdgeRAG, scripted: the documents hold ``answer`` or nothing."""

    def __init__(self, answer: Answer) -> None:
        self.settings = type("S", (), {"method": "text"})()
        self.answer_llm = None
        self._answer = answer

    def retrieve(self, question, method=None, budget=None):
        return self._answer.context

    def plan_answer(self, question, ctx, mode=None):
        return _Plan()

    def answer(self, question, ctx, plan=None, on_text=None):
        on_text(self._answer.text)
        return self._answer


def _served(answer: Answer):
    from edgerag.serve.indexes import Served

    return Served("lab", Path("."), _Rag(answer))


def test_an_answer_the_documents_do_not_hold_is_shown_as_such_with_the_closest_passages():
    pytest.importorskip("fastapi")
    from edgerag.serve.web.ask import answer_page

    unit = _unit(1, "The orchard grows apples.", "Orchard")
    ans = Answer("Who owns the moon?", "The documents do not say.", "", [], Context("q", "text", 100, [unit]), 0, abstained=True)
    ans.closest = [Citation(1, "d1", "c1", "Orchard", "closest", "orchard.txt", sentence="The orchard grows apples.")]
    events = []
    asked = answer_page(_served(ans), "Who owns the moon?", [], events.append)
    assert [e.kind for e in events] == ["plan", "text"]
    out = asked.to_json()
    assert out["abstained"] and out["citations"] == [] and out["why"] == f"/why/{asked.id}"
    assert out["closest"] == [
        {
            "n": 1,
            "title": "Orchard",
            "where": "orchard.txt",
            "sentence": "The orchard grows apples.",
            "url": "/passage/lab/c1?mark=The+orchard+grows+apples.",
        }
    ]


def test_an_answers_citations_link_their_passage_with_the_answer_to_mark():
    pytest.importorskip("fastapi")
    from edgerag.serve.web.ask import answer_page

    unit = _unit(1, "The code is tangerine-42.", "Vault")
    unit.chunk_id = unit.id = "doc:0"
    ans = Answer(
        "What is the code?",
        "tangerine-42 [1]",
        "tangerine-42",
        [Citation(1, "d1", "doc:0", "Vault", "cited")],
        Context("q", "text", 100, [unit]),
        0,
    )
    asked = answer_page(_served(ans), "What is the code?", [], lambda e: None)
    assert not asked.abstained and asked.citations[0]["url"] == "/passage/lab/doc%3A0?mark=tangerine-42"
    assert asked.evidence.node("a").label == "tangerine-42" and asked.usage == {"prompt": 0, "completion": 0, "evaluated": 0}
