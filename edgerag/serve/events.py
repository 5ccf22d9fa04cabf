"""The model's thread and the server's event loop, joined: a route submits work to the model
queue (`submit`, which raises `QueueFull` before any byte is sent), then either awaits its
`Reply` (`wait_reply`) or iterates its events as they come (`events`).

A client that goes away cancels its ticket: one that waits is skipped, one that runs stops at its
next token (model_queue.py). A streamed response notices by being closed; a plain one polls the
connection while it waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from starlette.requests import Request

from .answering import Emit, Event, Reply, answer_chat, answer_task, task_in_code
from .chat import ChatRequest
from .indexes import Served
from .model_queue import ModelQueue, Ticket

KEEPALIVE_S = 10.0
"""A stream with nothing to say for this long gets a keep-alive (SSE comment), so proxies and
clients with read timeouts keep waiting."""


class ClientGone(Exception):
    """The client closed the connection before its answer was ready."""


@dataclass
class Submitted:
    ticket: Ticket
    inbox: asyncio.Queue
    queue: ModelQueue


def submit(queue: ModelQueue, work: Callable[[Emit], Reply], label: str, in_code: Callable[[Emit], Reply] | None = None) -> Submitted:
    """Queue ``work(emit)`` for the model's thread; its events land in this loop's inbox.
    ``in_code``: the work is a client's task, and this its answer without the model, given
    when it would hold a question up (model_queue.py serves questions first)."""
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue = asyncio.Queue()

    def emit(ev: Event) -> None:
        loop.call_soon_threadsafe(inbox.put_nowait, ev)

    fallback = (lambda _t: in_code(emit)) if in_code is not None else None
    ticket = queue.submit(lambda _t: work(emit), label, task=in_code is not None, fallback=fallback)
    return Submitted(ticket, inbox, queue)


def submit_chat(queue: ModelQueue, served: Served, req: ChatRequest) -> Submitted:
    """A chat request queued: a question, or a client's task served after every question
    (answered in code rather than hold one up)."""
    if req.client_task:
        return submit(
            queue, lambda emit: answer_task(served, req, emit), f"task {served.name}", lambda emit: task_in_code(served, req, emit)
        )
    return submit(queue, lambda emit: answer_chat(served, req, emit), f"chat {served.name}")


async def events(sub: Submitted) -> AsyncIterator[Event | Reply | None]:
    """The work's events as they come, then its `Reply` (or its exception, raised); None is a
    keep-alive tick. Closing the iterator early (the client went away) cancels the ticket."""
    done = False
    try:
        ahead = sub.queue.ahead(sub.ticket)
        if ahead:  # what really is served first: questions before it, never a task it stops
            wait = sub.queue.wait_seconds(sub.ticket)
            yield Event("plan", f"waiting for the model: {ahead} request(s) ahead, about {wait} s\n", {"ahead": ahead, "wait_s": wait})
        result = asyncio.wrap_future(sub.ticket.future)
        while True:
            get = asyncio.ensure_future(sub.inbox.get())
            finished, _ = await asyncio.wait({get, result}, timeout=KEEPALIVE_S, return_when=asyncio.FIRST_COMPLETED)
            if get.done():
                yield get.result()
                continue
            get.cancel()
            if result.done():
                while not sub.inbox.empty():
                    yield sub.inbox.get_nowait()
                done = True
                yield result.result()
                return
            yield None
    finally:
        if not done:
            sub.ticket.cancel()


async def wait_reply(request: Request, sub: Submitted, poll_s: float = 0.5) -> Reply:
    """The work's `Reply`, watching the connection meanwhile: `ClientGone` (and the ticket
    cancelled) when the client leaves first."""
    result = asyncio.wrap_future(sub.ticket.future)
    while True:
        finished, _ = await asyncio.wait({result}, timeout=poll_s)
        if finished:
            return result.result()
        if await request.is_disconnected():
            sub.ticket.cancel()
            raise ClientGone()


def continuation(text: str, continued: str) -> str:
    """What a "continue" turn gets: the rest of ``text`` after the part the client already has,
    or the whole text when the client's part is not its beginning."""
    if continued and text.startswith(continued):
        return text[len(continued) :]
    return text
