"""The web page's first load and an answer's first streamed byte (issue #58).

    .venv/bin/python benchmarks/web_page.py               # about 2 minutes on 2 cores with the 0.5B model
    .venv/bin/python benchmarks/web_page.py --questions 5

The bundled sample corpus (2WikiMultihopQA) is indexed into a fresh index, so no answer comes
from the LLM cache, and served by ``edgerag serve``. **First load**: ``/`` opened three times in
Debian's chromium (Playwright, ``/usr/bin/chromium`` or EDGERAG_CHROMIUM), each in a fresh
browser context (a cold cache): the server's first byte and the load event, from the browser's
navigation timing, and the bytes of every file the page fetched. **An answer**: questions sent to
``POST /web/ask`` one at a time: seconds to the first streamed byte (the read plan's line), to the
answer's first word, and to its end. Nothing else may run meanwhile. Writes
``benchmarks/results/web_page.json`` with the host's CPU class and the model's measured speeds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from common import write_result
from playwright.sync_api import sync_playwright
from serve import SAMPLE, Server

from edgerag import EdgeRAG
from edgerag.eval.datasets import load_dataset
from edgerag.llm.cpu import cpu_class, cpu_flags

CHROMIUM = os.environ.get("EDGERAG_CHROMIUM", "/usr/bin/chromium")


def first_loads(url: str, n: int = 3) -> list[dict]:
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(n):
            context = browser.new_context()
            page = context.new_page()
            sizes: list[int] = []
            page.on("response", lambda r, sizes=sizes: sizes.append(len(r.body())) if r.ok else None)
            page.goto(url + "/", wait_until="load")
            nav = json.loads(page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])"))
            out.append(
                {
                    "first_byte_ms": round(nav["responseStart"] - nav["requestStart"], 1),
                    "load_ms": round(nav["loadEventEnd"] - nav["startTime"], 1),
                    "files": len(sizes),
                    "bytes": sum(sizes),
                }
            )
            context.close()
        browser.close()
    return out


def ask(url: str, question: str) -> dict:
    t = time.monotonic()
    first_byte = first_word = done = None
    buffered = ""
    with httpx.stream("POST", url + "/web/ask", json={"question": question}, timeout=600) as r:
        r.raise_for_status()
        for chunk in r.iter_raw():
            now = time.monotonic() - t
            first_byte = first_byte if first_byte is not None else now
            buffered += chunk.decode("utf-8", errors="replace")
            *lines, buffered = buffered.split("\n")
            for line in filter(str.strip, lines):
                ev = json.loads(line)
                if "text" in ev and first_word is None:
                    first_word = now
                done = ev.get("done", done)
    return {
        "question": question,
        "first_byte_s": round(first_byte, 2),
        "first_word_s": round(first_word, 2) if first_word is not None else None,
        "end_s": round(time.monotonic() - t, 2),
        "prompt_tokens": done["usage"]["prompt"],
        "output_tokens": done["usage"]["completion"],
        "short": done["short"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--questions", type=int, default=3)
    p.add_argument("--out", default="benchmarks/results/web_page.json")
    args = p.parse_args()
    data = load_dataset(SAMPLE)
    with tempfile.TemporaryDirectory(prefix="edgerag-web-bench-") as tmp:
        work = Path(tmp)
        rag = EdgeRAG(work / "index")
        rag.insert([data.corpus])
        speeds = rag.answer_llm.speeds()
        model = rag.answer_llm.llm.path.name
        rag.close()
        server = Server(work / "index", work)
        try:
            loads = first_loads(server.url)
            answers = [ask(server.url, q.question) for q in data.questions[: args.questions]]
        finally:
            server.proc.terminate()
            server.proc.wait(30)
    host = cpu_class(cpu_flags())
    print(f"host: {host}; answering model {model}: {speeds.summary() if speeds else 'speeds unknown'}")
    print("first load (cold cache):", ", ".join(f"{x['load_ms']} ms ({x['bytes']:,} bytes in {x['files']} files)" for x in loads))
    print("\n| question | first byte s | first word s | end s | prompt tokens |")
    print("|---|---:|---:|---:|---:|")
    for a in answers:
        print(f"| {a['question'][:50]} | {a['first_byte_s']} | {a['first_word_s']} | {a['end_s']} | {a['prompt_tokens']} |")
    write_result(
        args.out,
        {
            "host": host,
            "model": model,
            "speeds": speeds.summary() if speeds else None,
            "server_ready_s": round(server.ready_s, 1),
            "first_load": loads,
            "first_load_median_ms": statistics.median(x["load_ms"] for x in loads),
            "answers": answers,
        },
    )


if __name__ == "__main__":
    main()
