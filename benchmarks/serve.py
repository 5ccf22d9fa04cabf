"""What the server costs over answering in-process, and how many answers a minute it serves
(issue #48).

    .venv/bin/python benchmarks/serve.py                # about 6 minutes on 2 cores with the 0.5B model
    .venv/bin/python benchmarks/serve.py --questions 4  # quicker

The bundled sample corpus (2WikiMultihopQA, 182 passages, 20 questions) is indexed once; each
run below answers on a fresh copy of that index, so no answer comes from the LLM cache.

**Overhead.** The same questions, one at a time, answered (1) in this process by
`EdgeRAG.retrieve` + `plan_answer` + `answer` with a streaming callback, and (2) by
``edgerag serve`` through the official ``openai`` client, streamed. Reported per question and
as medians: seconds to the first token in-process; to the first streamed byte (the role chunk),
the plan line and the first answer token through the server; and the difference of the first
tokens, the server's overhead. The two runs take turns per question, so a drift of the host's
speed touches both alike.

**Throughput.** The same ``--load`` questions asked by 1, 4 and 8 clients at once (each client
takes the next question not yet asked), each level on a fresh copy of the index and a fresh
server: answers per minute, p50 and p95 seconds a client waited for its answer. One model
serves them in turn, so answers a minute stay about the same while a client's wait grows with
the clients ahead of it.

Nothing else may run meanwhile (a test run beside llama.cpp slows it 5-7×). Writes
``benchmarks/results/serve.json`` and prints the tables with the host's CPU class and the
answering model's measured speeds.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import openai
from common import write_result

from edgerag import EdgeRAG
from edgerag.eval.datasets import load_dataset
from edgerag.llm.cpu import cpu_class, cpu_flags

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "edgerag" / "data" / "sample"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, index: Path, work: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "edgerag.cli", "serve", "--index", f"bench={index}", "--port", str(self.port)]
        argv += ["--uploads", str(work / "uploads"), "--queue", "16"]
        self.log = work / f"serve-{self.port}.log"
        self.proc = subprocess.Popen(argv, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 300:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited:\n{self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=2).status_code == 200:
                    self.ready_s = time.monotonic() - t0
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise SystemExit("the server was not ready in 300 s")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def copy_of(index: Path, work: Path, name: str) -> Path:
    dst = work / name
    shutil.copytree(index, dst)
    return dst


def in_process(index: Path, question: str) -> dict:
    rag = EdgeRAG(index)
    t0 = time.monotonic()
    first: list[float] = []
    ctx = rag.retrieve(question)
    plan = rag.plan_answer(question, ctx)
    ans = rag.answer(question, ctx, plan=plan, on_text=lambda piece: first or first.append(time.monotonic()))
    end = time.monotonic()
    rag.close()
    return {"first_token_s": (first[0] if first else end) - t0, "total_s": end - t0, "short": ans.short, "tokens": ans.tokens}


def served(url: str, question: str) -> dict:
    client = openai.OpenAI(base_url=url + "/v1", api_key="none", max_retries=0, timeout=600)
    t0 = time.monotonic()
    marks: dict[str, float] = {}
    text, usage = "", None
    for chunk in client.chat.completions.create(
        model="edgerag:bench", stream=True, stream_options={"include_usage": True}, messages=[{"role": "user", "content": question}]
    ):
        now = time.monotonic() - t0
        marks.setdefault("first_byte_s", now)
        if chunk.usage is not None:
            usage = chunk.usage.model_dump()
        for ch in chunk.choices:
            if (ch.delta.model_extra or {}).get("reasoning_content") and "plan_s" not in marks:
                marks["plan_s"] = now
            if ch.delta.content:
                marks.setdefault("first_token_s", now)
                text += ch.delta.content
    marks["total_s"] = time.monotonic() - t0
    return {**marks, "text": text, "usage": usage}


def overhead(index: Path, work: Path, questions: list[str]) -> dict:
    local_idx, served_idx = copy_of(index, work, "overhead-local"), copy_of(index, work, "overhead-served")
    EdgeRAG(local_idx).answer_llm.llm.llama  # noqa: B018 - load the model before timing
    server = Server(served_idx, work)
    rows = []
    try:
        for q in questions:
            a = in_process(local_idx, q)
            b = served(server.url, q)
            rows.append(
                {"question": q, "in_process": a, "served": b, "overhead_ms": round(1000 * (b["first_token_s"] - a["first_token_s"]))}
            )
            print(f"  {a['first_token_s']:5.2f} s in-process, {b['first_token_s']:5.2f} s served: {q[:70]}", flush=True)
    finally:
        server.stop()
    med = statistics.median
    return {
        "rows": rows,
        "server_ready_s": round(server.ready_s, 1),
        "median": {
            "in_process_first_token_s": round(med(r["in_process"]["first_token_s"] for r in rows), 2),
            "in_process_total_s": round(med(r["in_process"]["total_s"] for r in rows), 2),
            "served_first_byte_s": round(med(r["served"]["first_byte_s"] for r in rows), 3),
            "served_plan_s": round(med(r["served"].get("plan_s", r["served"]["total_s"]) for r in rows), 2),
            "served_first_token_s": round(med(r["served"]["first_token_s"] for r in rows), 2),
            "served_total_s": round(med(r["served"]["total_s"] for r in rows), 2),
            "overhead_ms": med(r["overhead_ms"] for r in rows),
        },
    }


def throughput(index: Path, work: Path, questions: list[str], clients: int) -> dict:
    server = Server(copy_of(index, work, f"load-{clients}"), work)
    waits: list[float] = []
    errors: list[str] = []
    pending = list(questions)
    lock = threading.Lock()

    def client() -> None:
        while True:
            with lock:
                if not pending:
                    return
                q = pending.pop(0)
            t0 = time.monotonic()
            try:
                r = httpx.post(
                    server.url + "/v1/chat/completions",
                    json={"model": "edgerag:bench", "messages": [{"role": "user", "content": q}]},
                    timeout=900,
                )
                r.raise_for_status()
                waits.append(time.monotonic() - t0)
            except httpx.HTTPError as e:
                errors.append(str(e))

    t0 = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    health = httpx.get(server.url + "/health", timeout=10).json()
    server.stop()
    waits.sort()
    return {
        "clients": clients,
        "answers": len(waits),
        "errors": errors,
        "wall_s": round(wall, 1),
        "answers_per_min": round(60 * len(waits) / wall, 1),
        "p50_s": round(waits[len(waits) // 2], 1) if waits else None,
        "p95_s": round(waits[min(len(waits) - 1, int(0.95 * len(waits)))], 1) if waits else None,
        "seconds_per_call": health["queue"]["seconds_per_call"],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--questions", type=int, default=6, help="questions of the overhead run (default 6)")
    p.add_argument("--load", type=int, default=8, help="questions of each throughput level (default 8)")
    p.add_argument("--levels", default="1,4,8", help="clients at once (default 1,4,8)")
    p.add_argument("--out", default="benchmarks/results/serve.json")
    args = p.parse_args()
    data = load_dataset(SAMPLE)
    questions = [q.question for q in data.questions]
    with tempfile.TemporaryDirectory(prefix="edgerag-serve-bench-") as tmp:
        work = Path(tmp)
        base = work / "base"
        rag = EdgeRAG(base)
        rag.insert([data.corpus])
        speeds = rag.answer_llm.speeds()
        model = rag.answer_llm.llm.path.name
        rag.close()
        print(f"host: {cpu_class(cpu_flags())}; answering model {model}: {speeds.summary() if speeds else 'speeds unknown'}")
        print("overhead (one question at a time):")
        over = overhead(base, work, questions[: args.questions])
        levels = []
        for n in [int(x) for x in args.levels.split(",")]:
            print(f"throughput, {n} client(s) ...", flush=True)
            levels.append(throughput(base, work, questions[args.questions : args.questions + args.load], n))
    m = over["median"]
    print(f"\n| medians over {len(over['rows'])} questions | seconds |")
    print("|---|---:|")
    print(f"| in-process: first token | {m['in_process_first_token_s']} |")
    print(f"| server: first streamed byte | {m['served_first_byte_s']} |")
    print(f"| server: plan line | {m['served_plan_s']} |")
    print(f"| server: first answer token | {m['served_first_token_s']} |")
    print(f"| server's overhead to the first token | {m['overhead_ms']} ms |")
    print("\n| clients | answers | answers / min | p50 s | p95 s | errors |")
    print("|---:|---:|---:|---:|---:|---:|")
    for lv in levels:
        print(f"| {lv['clients']} | {lv['answers']} | {lv['answers_per_min']} | {lv['p50_s']} | {lv['p95_s']} | {len(lv['errors'])} |")
    write_result(
        args.out,
        {
            "benchmark": "serve",
            "cpu_class": cpu_class(cpu_flags()),
            "answer_model": model,
            "speeds": {"prompt": speeds.prompt, "generation": speeds.generation} if speeds else None,
            "overhead": over,
            "throughput": levels,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
