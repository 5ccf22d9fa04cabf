"""A real Open WebUI against the real ``edgerag serve``, driven in headless Chromium (issue #57's
"script outside make test").

    python3 -m venv /work/owui-venv                      # Open WebUI in a venv of its own
    /work/owui-venv/bin/pip install torch==2.13.0        # first: the CPU build (unpinned, pip pulls CUDA)
    /work/owui-venv/bin/pip install open-webui
    .venv/bin/pip install playwright                     # drives Debian's chromium, no browser download
    .venv/bin/python benchmarks/openwebui_live.py --owui-venv /work/owui-venv   # about 2 minutes on 2 cores

It indexes the bundled sample (as ``edgerag demo`` does), starts ``edgerag serve`` on a free
loopback port, then Open WebUI (``open-webui serve``) on another, with its defaults but for what
makes it start here: no login, no downloads, only edgerag's OpenAI connection. In Chromium it
opens a chat with ``edgerag:sample``, asks "Where was the place of burial of Charles Mathew's
father?" (Cork), and as soon as that answer has ended asks "When did he die?" (1908), while Open
WebUI's title, tags and follow-up calls still run. It checks what a person sees: the answer,
the source chips, the read plan in the "Thought for" block, the token counts (under the
message's info button, when Open WebUI shows them), and in edgerag's access log that the second
question waited for no housekeeping call. Screenshots go to ``--shots``; the result to
``benchmarks/results/openwebui_live.json``. Everything it starts is stopped at the end.

Not collected by pytest (it needs Open WebUI and a browser); run it under the CPU lock, alone.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from common import write_result

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "edgerag" / "data" / "sample"
Q1, A1 = "Where was the place of burial of Charles Mathew's father?", "Cork"
Q2, A2 = "When did he die?", "1908"
LOG_LINE = re.compile(r"^edgerag: (\S+) (\S+) (\d{3}) ([\d.]+) s model=(\S+) tokens=(\S+)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proc:
    """A child process in its own process group, its output read line by line with the time
    each line came (seconds since ``t0``), also written to ``log``."""

    def __init__(self, argv: list[str], log: Path, t0: float, env: dict | None = None, cwd: Path | None = None) -> None:
        self.t0, self.lines, self.log = t0, [], log
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True, text=True, bufsize=1
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        with open(self.log, "w") as out:
            for raw in self.proc.stdout:
                self.lines.append((time.monotonic() - self.t0, raw.rstrip("\n")))
                out.write(raw)
                out.flush()

    def wait_http(self, url: str, what: str, limit_s: float) -> float:
        start = time.monotonic()
        while time.monotonic() - start < limit_s:
            if self.proc.poll() is not None:
                tail = "\n".join(line for _, line in self.lines[-30:])
                raise SystemExit(f"{what} exited ({self.proc.returncode}):\n{tail}")
            try:
                if httpx.get(url, timeout=3).status_code == 200:
                    return time.monotonic() - start
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        raise SystemExit(f"{what} was not ready in {limit_s:.0f} s (log: {self.log})")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.reader.join(5)


def build_index(path: Path) -> None:
    from edgerag import EdgeRAG
    from edgerag.eval.datasets import load_dataset

    rag = EdgeRAG(path)
    print(rag.insert([load_dataset(SAMPLE).corpus]).summary(), flush=True)
    rag.close()


def access_log(serve: Proc) -> list[dict]:
    """The access log's lines, each with when it began and ended (seconds since the script's t0)."""
    rows = []
    for at, text in serve.lines:
        m = LOG_LINE.match(text)
        if m:
            method, path, status, secs, model, tokens = m.groups()
            rows.append(
                {
                    "method": method,
                    "path": path,
                    "status": int(status),
                    "seconds": float(secs),
                    "model": model,
                    "tokens": tokens,
                    "start": round(at - float(secs), 2),
                    "end": round(at, 2),
                }
            )
    return rows


def versions(owui_venv: Path) -> dict:
    owui = subprocess.run(
        [str(owui_venv / "bin" / "python"), "-c", "import importlib.metadata as m; print(m.version('open-webui'))"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "edgerag"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    return {"open_webui": owui, "edgerag_commit": commit + ("+dirty" if dirty else "")}


# --- the browser ---------------------------------------------------------------------------------


def dismiss_popups(page) -> None:
    """The "what's new" dialog a fresh Open WebUI opens (toasts close by themselves)."""
    btn = page.get_by_role("button", name="Okay, Let's Go!", exact=True)
    try:
        if btn.count() and btn.first.is_visible():
            btn.first.click(timeout=5000)
            page.wait_for_timeout(500)
    except Exception as e:  # a dialog that went away by itself
        print(f"(dialog: {type(e).__name__})", flush=True)
    page.keyboard.press("Escape")


def assistant_messages(page):
    return page.locator("#response-content-container")


def ask(page, question: str, shots: Path, tag: str, limit_s: float) -> dict:
    """Type ``question``, send it, and wait (at most ``limit_s``) until the answer has ended:
    Open WebUI shows a message's action buttons only then. Open WebUI sends a prompt typed
    while its own tasks run (its Stop button still shown) at once; one typed while an answer
    streams waits in its queue."""
    before = assistant_messages(page).count()
    box = page.locator("#chat-input")
    box.click()
    page.keyboard.type(question)
    sent = time.monotonic()
    page.keyboard.press("Enter")
    first_text = None
    last, stable_since = "", time.monotonic()
    while time.monotonic() - sent < limit_s:
        msgs = assistant_messages(page)
        if msgs.count() > before:
            text = msgs.last.inner_text()
            if text.strip() and first_text is None:
                first_text = time.monotonic() - sent
            if text != last:
                last, stable_since = text, time.monotonic()
            # the message is done (its Copy button shows) though Open WebUI's Stop button stays
            # while its title, tags and follow-up calls run: a person can ask again from here
            done = page.locator("div[id^='message-']:has(#response-content-container)").last.locator("button[aria-label='Copy']")
            if text.strip() and done.count() and time.monotonic() - stable_since > 1:
                break
        page.wait_for_timeout(500)
    done = time.monotonic() - sent
    page.screenshot(path=str(shots / f"{tag}-answer.png"), full_page=True)
    return {"question": question, "sent_at": sent, "first_text_s": first_text, "ended_s": round(done, 1), "text": last}


def message_block(page):
    """The last assistant message's whole block (content, thinking, sources, action buttons)."""
    return page.locator("div[id^='message-']:has(#response-content-container)").last


def sources_of(page, shots: Path, tag: str) -> list[str]:
    """The sources button ("2 Sources") and, once it is opened, each source's name."""
    block = message_block(page)
    toggle = block.locator("button[aria-label*='source' i]").first
    if not block.locator("button[aria-label*='source' i]").count():
        return []
    chips = [toggle.inner_text().strip()]
    toggle.click()
    page.wait_for_timeout(700)
    names = block.locator("button[id^='source-']")
    chips += [names.nth(i).inner_text().strip().replace("\n", " ") for i in range(names.count())]
    page.screenshot(path=str(shots / f"{tag}-sources.png"), full_page=True)
    page.keyboard.press("Escape")  # a source opened as a dialog (Open WebUI 0.12) covers what is clicked next
    page.wait_for_timeout(500)
    return chips


def thinking_of(block, page) -> str:
    """The "Thought for …" block, opened."""
    toggle = block.get_by_text(re.compile(r"Thought for|Thinking", re.I))
    if not toggle.count():
        return ""
    head = toggle.first.inner_text()
    toggle.first.click()
    page.wait_for_timeout(700)
    return head + "\n" + block.inner_text()


def usage_of(page, shots: Path, tag: str) -> str:
    """Open WebUI shows a message's usage under its Info button (a tooltip), only when the reply
    carried one (Open WebUI asks for it when the model's Usage capability is on)."""
    block = message_block(page)
    info = block.locator("button[aria-label='Info']")
    if not info.count():
        return ""
    hidden = block.locator("span[id^='usage-']")
    text = hidden.first.text_content() if hidden.count() else ""
    info.first.hover()
    page.wait_for_timeout(800)
    page.screenshot(path=str(shots / f"{tag}-usage.png"), full_page=True)
    return text or ""


def drive(owui_url: str, model: str, shots: Path, chromium: str, limit_s: float) -> dict:
    from playwright.sync_api import sync_playwright

    seen: dict = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        seen["chromium"] = browser.version
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(f"{owui_url}/?model={model}", wait_until="domcontentloaded")
            page.locator("#chat-input").wait_for(timeout=120_000)
            page.wait_for_timeout(2000)
            dismiss_popups(page)
            page.screenshot(path=str(shots / "0-start.png"))
            one = ask(page, Q1, shots, "1", limit_s)
            # the follow-up at once, while Open WebUI's title, tags and follow-up calls run
            two = ask(page, Q2, shots, "2", limit_s)
            two["sources"] = sources_of(page, shots, "2")
            two["usage"] = usage_of(page, shots, "2")
            two["block"] = thinking_of(message_block(page), page)
            blocks = page.locator("div[id^='message-']:has(#response-content-container)")
            first = blocks.nth(blocks.count() - 2)
            first.scroll_into_view_if_needed()
            toggle = first.locator("button[aria-label*='source' i]")
            one["sources"] = [toggle.first.inner_text().strip()] if toggle.count() else []
            info = first.locator("span[id^='usage-']")
            one["usage"] = (info.first.text_content() or "") if info.count() else ""
            one["block"] = thinking_of(first, page)
            page.wait_for_timeout(3000)  # the follow-up suggestions, if any
            page.screenshot(path=str(shots / "3-both.png"), full_page=True)
            seen["turns"] = [one, two]
            first.locator("button[aria-label*='source' i]").first.click() if toggle.count() else None
            chip = first.locator("button[id^='source-']")
            if chip.count():
                chip.first.click()
                page.wait_for_timeout(1500)
                page.screenshot(path=str(shots / "4-sources.png"), full_page=True)
                links = page.locator("a[href*='/passage/']")
                seen["passage_links"] = [links.nth(i).get_attribute("href") for i in range(links.count())]
                page.keyboard.press("Escape")
            if seen.get("passage_links"):
                page.goto(seen["passage_links"][0])
                page.wait_for_timeout(1000)
                page.screenshot(path=str(shots / "5-passage.png"), full_page=True)
                seen["passage_page"] = page.locator("body").inner_text()[:600]
        except Exception as e:  # what it saw so far still counts, and the screenshot shows where it stopped
            seen["error"] = f"{type(e).__name__}: {e}"
        finally:
            page.screenshot(path=str(shots / "9-last.png"), full_page=True)
            browser.close()
    return seen


# --- the run -------------------------------------------------------------------------------------


def owui_env(owui_venv: Path, data: Path, port: int, edgerag_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "OLLAMA_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(
        {
            "PATH": f"{owui_venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}",
            "DATA_DIR": str(data),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEBUI_AUTH": "false",
            "WEBUI_SECRET_KEY": "edgerag-openwebui-live-check",
            "ENABLE_OLLAMA_API": "false",
            "ENABLE_OPENAI_API": "true",
            "OPENAI_API_BASE_URL": edgerag_url + "/v1",
            "OPENAI_API_BASE_URLS": edgerag_url + "/v1",
            "OPENAI_API_KEY": "none",
            "OPENAI_API_KEYS": "none",
            # start without the network: no model download, no update check, no telemetry
            "OFFLINE_MODE": "true",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "RAG_EMBEDDING_MODEL_AUTO_UPDATE": "false",
            "RAG_RERANKING_MODEL_AUTO_UPDATE": "false",
            "WHISPER_MODEL_AUTO_UPDATE": "false",
            "ENABLE_VERSION_UPDATE_CHECK": "false",
            "SCARF_NO_ANALYTICS": "true",
            "DO_NOT_TRACK": "true",
            "ANONYMIZED_TELEMETRY": "false",
        }
    )
    return env


def checks(seen: dict, log: list[dict], turns_at: list[float]) -> dict:
    one, two = seen["turns"]
    chats = sorted((r for r in log if r["path"] == "/v1/chat/completions"), key=lambda r: r["start"])
    # a question is the longest chat request that began within 5 s of its sending (Open WebUI sends
    # a new chat's title call beside the first question); the rest are Open WebUI's tasks
    q_rows = []
    for at in turns_at:
        near = [r for r in chats if at - 0.5 <= r["start"] <= at + 5 and r not in q_rows]
        q_rows.append(max(near, key=lambda r: r["end"]) if near else None)
    tasks = [r for r in chats if r not in q_rows]
    q2 = q_rows[1]
    overlapping = [t for t in tasks if q2 and t["start"] < q2["start"] < t["end"]] if q2 else []
    after_q1 = [t for t in tasks if q_rows[0] and t["start"] >= q_rows[0]["start"]]
    return {
        "answer_1_has_cork": A1.lower() in one["text"].lower(),
        "answer_2_has_1908": A2 in two["text"],
        "source_chips_1": one["sources"],
        "source_chips_2": two["sources"],
        "plan_in_thinking_1": "reads" in one.get("block", "") or "evidence" in one.get("block", ""),
        "plan_in_thinking_2": "reads" in two.get("block", "") or "evidence" in two.get("block", ""),
        "usage_1": one["usage"],
        "usage_2": two["usage"],
        "errors_in_log": [r for r in log if r["status"] >= 400],
        "question_rows": q_rows,
        "task_rows": tasks,
        "tasks_after_question_1": len(after_q1),
        "tasks_running_when_question_2_came": overlapping,
        "question_2_server_s": q2["seconds"] if q2 else None,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--owui-venv", type=Path, default=Path("/work/owui-venv"), help="the venv Open WebUI is installed in")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--shots", type=Path, default=Path(tempfile.gettempdir()) / "edgerag-openwebui-shots")
    p.add_argument("--limit", type=float, default=300, help="seconds an answer may take (default 300)")
    p.add_argument("--out", default="benchmarks/results/openwebui_live.json")
    args = p.parse_args()
    t0 = time.monotonic()
    # a `timeout` around the script still stops what it started (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"stopped by SIGTERM after {time.monotonic() - t0:.0f} s"))
    args.shots.mkdir(parents=True, exist_ok=True)
    procs: list[Proc] = []
    with tempfile.TemporaryDirectory(prefix="edgerag-owui-") as tmp:
        work = Path(tmp)
        try:
            build_index(work / "sample")
            eport, oport = free_port(), free_port()
            edgerag_url, owui_url = f"http://127.0.0.1:{eport}", f"http://127.0.0.1:{oport}"
            argv = [sys.executable, "-m", "edgerag.cli", "serve", "--index", f"sample={work / 'sample'}", "--port", str(eport)]
            serve = Proc(argv + ["--uploads", str(work / "uploads")], work / "serve.log", t0)
            procs.append(serve)
            serve_ready = serve.wait_http(edgerag_url + "/health", "edgerag serve", 300)
            models = httpx.get(edgerag_url + "/v1/models", timeout=10).json()["data"]
            print(f"edgerag serve ready in {serve_ready:.1f} s at {edgerag_url}: {[m.get('edgerag') for m in models]}", flush=True)
            (work / "owui").mkdir()
            env = owui_env(args.owui_venv, work / "owui", oport, edgerag_url)
            argv = [str(args.owui_venv / "bin" / "open-webui"), "serve", "--host", "127.0.0.1", "--port", str(oport)]
            owui = Proc(argv, work / "owui.log", t0, env=env, cwd=work / "owui")
            procs.append(owui)
            owui_ready = owui.wait_http(owui_url + "/health", "open-webui", 400)
            print(f"Open WebUI ready in {owui_ready:.1f} s at {owui_url}", flush=True)
            seen = drive(owui_url, "edgerag:sample", args.shots, args.chromium, args.limit)
            time.sleep(3)  # the last task calls' lines
            health = httpx.get(edgerag_url + "/health", timeout=10).json()
        finally:
            for proc in reversed(procs):
                proc.stop()
        log = access_log(serve)
        seen.setdefault("turns", [])
        turns_at = [t["sent_at"] - t0 for t in seen["turns"]]
        for t in seen["turns"]:
            t["sent_at"] = round(t["sent_at"] - t0, 2)
        result = {
            "benchmark": "openwebui_live",
            "versions": {**versions(args.owui_venv), "chromium": seen.get("chromium")},
            "ready_s": {"edgerag": round(serve_ready, 1), "open_webui": round(owui_ready, 1)},
            "edgerag_models": models,
            "seen": seen,
            "checks": checks(seen, log, turns_at) if len(seen["turns"]) == 2 else {"error": seen.get("error")},
            "health_queue": health.get("queue"),
            "access_log": log,
            "open_webui_log_tail": [line for _, line in owui.lines[-40:]],
            "shots": str(args.shots),
        }
    c = result["checks"]
    print(f"\nversions: {result['versions']}")
    if "error" in seen:
        print(f"the browser run stopped: {seen['error']}")
        write_result(args.out, result)
        return 1
    for i, t in enumerate(seen["turns"], 1):
        print(
            f"Q{i}: {t['question']}  ({t['ended_s']} s in the browser)\n  {t['text'][:400]!r}\n  chips: {t['sources']}\n  usage: {t['usage']!r}"
        )
    print(
        f"Cork: {c['answer_1_has_cork']}, 1908: {c['answer_2_has_1908']}, plan shown: {c['plan_in_thinking_1']}/{c['plan_in_thinking_2']}"
    )
    print(f"errors in edgerag's log: {c['errors_in_log']}")
    print(
        f"question 2 took {c['question_2_server_s']} s at the server; tasks running when it came: {c['tasks_running_when_question_2_came']}"
    )
    print("access log:")
    for r in log:
        print(f"  {r['start']:7.2f}-{r['end']:7.2f}  {r['method']} {r['path']} {r['status']} {r['seconds']} s tokens={r['tokens']}")
    print(f"queue: {result['health_queue']}")
    write_result(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
