"""The web page in a real browser (issue #58): Playwright drives Debian's chromium against the
real server process on a free loopback port, as a new user would: ask a question and open a
citation's passage, upload two files and see both indexed, delete one, read the ledger, log in
with the key. Each page is photographed at a laptop's and a phone's width (``EDGERAG_SHOTS=DIR``
keeps the pictures). Playwright cannot download its own browser here: it launches
``/usr/bin/chromium`` (or ``EDGERAG_CHROMIUM``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import PLANTED_ANSWER, PLANTED_QUESTION

CHROMIUM = os.environ.get("EDGERAG_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(
        f"no chromium at {CHROMIUM}: the web page's browser tests need one (Debian: `sudo apt-get install -y chromium`, "
        "or set EDGERAG_CHROMIUM to a Chromium binary)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright: pip install -e '.[test]'")

pytestmark = pytest.mark.slow

KEY = "browser-k3y-for-the-tests-0123456789"
SIZES = {"laptop": {"width": 1366, "height": 860}, "phone": {"width": 390, "height": 844}}
WAIT_MS = 600_000
sync_api.expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(built_index, tmp_path_factory):
    from .test_serve import ServerProcess

    root = tmp_path_factory.mktemp("browse")
    shutil.copytree(built_index, root / "index")
    s = ServerProcess(root / "index", root / "uploads").wait_ready()
    yield s
    s.stop()


def shoot(page, name: str) -> None:
    """The page at both widths, kept in EDGERAG_SHOTS when it is set."""
    folder = os.environ.get("EDGERAG_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(Path(folder) / f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["laptop"])


def new_page(browser, errors: list[str]):
    page = browser.new_page(viewport=SIZES["laptop"])
    page.set_default_timeout(WAIT_MS)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: errors.append(f"outside request: {r.url}") if not r.url.startswith("http://127.0.0.1") else None)
    return page


def test_ask_a_question_read_its_answer_and_open_a_citation(browser, site):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(site.url + "/")
    page.fill("#question", PLANTED_QUESTION)
    page.click("#ask-button")
    turn = page.locator(".turn").last
    sync_api.expect(turn.locator(".plan")).to_contain_text("the model reads")  # the plan while it works
    sync_api.expect(turn.locator(".meta")).to_contain_text("output tokens")  # the answer is complete
    assert PLANTED_ANSWER in turn.locator(".a").inner_text()
    assert " s" in turn.locator(".meta").inner_text() and "prompt" in turn.locator(".meta").inner_text()
    shoot(page, "ask")
    cite = turn.locator("a.cite", has_text="Zorblax").first
    cite.click()
    page.wait_for_url("**/passage/**")
    sync_api.expect(page.locator("mark")).to_contain_text(PLANTED_ANSWER)
    shoot(page, "passage")
    page.go_back()
    assert page.locator(".turn").count() >= 1  # the conversation is kept while the tab lives
    page.locator(".turn .meta a", has_text="why").last.click()
    sync_api.expect(page.locator("#why-graph .n-passage.cited").first).to_be_visible()
    shoot(page, "why")
    assert not errors, errors


def test_upload_two_files_see_both_indexed_then_delete_one(browser, site, tmp_path):
    errors: list[str] = []
    one = tmp_path / "heron.txt"
    one.write_text("The heron lighthouse of Quillmouth was painted green by Osric Dallow in 1888.\n")
    two = tmp_path / "mill.md"
    two.write_text("# The Brantwick mill\n\nThe Brantwick mill grinds barley for the village of Ostley every autumn.\n")
    broken = tmp_path / "broken.pdf"
    broken.write_text("this is no PDF at all")
    page = new_page(browser, errors)
    page.goto(site.url + "/documents?index=tests")
    page.set_input_files("#files", [str(one), str(two), str(broken)])
    page.click("#upload-form button[type=submit]")
    sync_api.expect(page.locator("#uploads li")).to_have_count(3)
    shoot(page, "uploading")
    page.wait_for_selector("table.docs >> text=heron", timeout=WAIT_MS)  # the page reloads once both are done
    sync_api.expect(page.locator("table.docs")).to_contain_text("The Brantwick mill")
    sync_api.expect(page.locator("ul.jobs li.done")).to_have_count(3)
    sync_api.expect(page.locator("ul.jobs .skipped")).to_contain_text("broken.pdf: not a PDF")  # what was skipped, and why
    shoot(page, "documents")
    page.once("dialog", lambda d: d.accept())
    page.locator("tr", has_text="heron").locator("button[data-delete]").click()
    sync_api.expect(page.locator("table.docs")).not_to_contain_text("heron")
    sync_api.expect(page.locator("table.docs")).to_contain_text("The Brantwick mill")
    assert not errors, errors


def test_the_ledger_shows_stages_as_bars_and_a_table(browser, site):
    import httpx

    httpx.post(site.url + "/web/ask", json={"question": PLANTED_QUESTION}, timeout=600).raise_for_status()  # a call in the ledger
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(site.url + "/tokens?index=tests")
    sync_api.expect(page.locator("h2", has_text="By stage")).to_be_visible()
    assert page.locator(".bar-row").count() >= 3
    sync_api.expect(page.locator("table.ledger").first).to_contain_text("answer")
    shoot(page, "tokens")
    assert not errors, errors


def test_a_key_is_asked_once_then_the_page_works(browser, built_index, tmp_path):
    from .test_serve import ServerProcess

    shutil.copytree(built_index, tmp_path / "index")
    (tmp_path / "key").write_text(KEY + "\n")
    s = ServerProcess(tmp_path / "index", tmp_path / "uploads", "--api-key-file", str(tmp_path / "key")).wait_ready()
    try:
        errors: list[str] = []
        context = browser.new_context(viewport=SIZES["laptop"])
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(s.url + "/documents")
        page.wait_for_url("**/login?next=*")
        shoot(page, "login")
        page.fill("#key", "not-the-key-0123456789")
        page.click("button[type=submit]")
        sync_api.expect(page.locator("[role=alert]")).to_contain_text("not this server's key")
        page.fill("#key", KEY)
        page.click("button[type=submit]")
        page.wait_for_url("**/documents")
        sync_api.expect(page.locator("table.docs")).to_contain_text("The Zorblax vault")
        cookie = next(c for c in context.cookies() if c["name"] == "edgerag_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        page.goto(s.url + "/tokens")  # once: no second login
        sync_api.expect(page.locator("h1")).to_contain_text("Tokens")
        page.click("form.logout button")
        page.wait_for_url("**/login")
        context.close()
        assert not errors, errors
    finally:
        s.stop()
