"""A chat request, in either dialect, as the question edgerag answers (`ChatRequest`).

The last user message is the question. Earlier turns matter only to a follow-up: "and where was
he born?" refers to something said before, so it is rewritten into a standalone question before
retrieval (`standalone`): one short call to the answering model, made only when the question
has a word that refers back (he, she, it, they, this, that, there, …) and there are earlier
turns. It reads the last three exchanges (the references edgerag appended cut off), about 150
to 400 prompt tokens and 10 to 30 out; it is metered as the stage ``rewrite`` and cached like
any call. A question without such a word costs nothing.

What a client may send that edgerag does not use (docs/serve.md says which is which):

* accepted and ignored: sampling (temperature, top_p, top_k, seed, penalties, stop), output caps
  (max_tokens: edgerag sizes its own answer), user, metadata, store, a system prompt (the reader
  has its own instruction), keep_alive and Ollama's options;
* refused with 400 and the field named: n > 1, logprobs, a response format other than text, and
  images or audio in a message.

Tools are accepted, not obeyed: Open WebUI sends its built-in tool definitions with every chat
request. A request whose ``tools`` (or older ``functions``) leave the choice to the model
(no ``tool_choice``, ``auto`` or ``none``) is answered from the index, and the reply says so
(``edgerag.tools_ignored``: how many were sent); one that demands a call (``required``, a named
function, ``function_call`` naming one) is refused with 400, since edgerag calls no tools.

A client's own housekeeping requests (Open WebUI's "### Task:" prompts for a chat's title, tags
and follow-up suggestions) are not questions about the documents: they are passed to the model
as they are, without retrieval (`ChatRequest.client_task`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..llm.metered import MeteredLLM

REFERENCES = "\n\nReferences:\n"
"""Where edgerag's appended references begin in an answer's text (cut from earlier turns)."""

REFERS_BACK = re.compile(
    r"\b(he|she|it|they|him|her|them|his|hers|its|their|theirs|this|that|these|those|there|then|the same|former|latter)\b"
    r"|^\s*(and|but|also|what about|how about|and what|what else)\b",
    re.IGNORECASE,
)
CLIENT_TASK = re.compile(r"^\s*###\s*Task:", re.IGNORECASE)
"""Open WebUI's prompts for titles, tags, follow-ups and queries of its own."""

REWRITE_TURNS = 3
REWRITE_MAX_TOKENS = 64
REWRITE_INSTRUCTION = (
    "Rewrite the last question so that it can be understood without the conversation: replace every "
    "pronoun or reference (he, she, it, they, there, that …) with the name it refers to. Keep everything "
    "else as it is. Reply with the rewritten question only.\n\n"
    "Example:\nQ: Who directed the film Casablanca?\nA: Michael Curtiz\nLast question: and where was he born?\n"
    "Rewritten: Where was Michael Curtiz born?"
)


class RequestError(ValueError):
    """A request edgerag cannot serve: 400 (or ``status``) with this message, naming ``param``."""

    def __init__(self, message: str, param: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.param = param
        self.status = status


@dataclass
class Turn:
    role: str
    text: str


@dataclass
class ChatRequest:
    model: str | None
    question: str
    """The last user message."""
    history: list[Turn] = field(default_factory=list)
    """User and assistant turns before it (system prompts left out)."""
    continued: str = ""
    """An assistant message after the question: the client asks to continue it."""
    stream: bool = False
    include_usage: bool = False
    method: str | None = None
    budget: int | None = None
    mode: str | None = None
    client_task: bool = False
    messages: list[dict[str, str]] = field(default_factory=list)
    """The conversation as plain text messages (what a client task passes to the model)."""
    tools_ignored: int = 0
    """Tool definitions the client sent, left unused (the choice was the model's)."""


def _text(content: Any, where: str) -> str:
    """A message's text: a string, or a list of text parts; images and audio are refused."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for part in content:
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text":
                out.append(str(part.get("text", "")))
            elif kind in ("image_url", "input_image", "image", "input_audio", "file"):
                raise RequestError(f"{where} holds a {kind} part: edgerag answers from indexed text only; send the text", where)
            else:
                raise RequestError(f"{where} holds a part of type {kind!r}; send text parts ({{'type': 'text', 'text': …}})", where)
        return "\n".join(out)
    raise RequestError(f"{where} must be a string or a list of text parts", where)


def _messages(raw: Any) -> tuple[str, list[Turn], str, list[dict[str, str]]]:
    if not isinstance(raw, list) or not raw:
        raise RequestError("messages must be a non-empty list of {role, content}", "messages")
    turns: list[Turn] = []
    plain: list[dict[str, str]] = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict) or "role" not in m:
            raise RequestError(f"messages[{i}] must be an object with a role and content", f"messages[{i}]")
        if m.get("images"):
            raise RequestError(f"messages[{i}] holds images: edgerag answers from indexed text only", f"messages[{i}].images")
        role = str(m["role"])
        text = _text(m.get("content"), f"messages[{i}].content")
        plain.append({"role": role if role in ("system", "user", "assistant") else "user", "content": text})
        if role in ("user", "assistant"):
            turns.append(Turn(role, text))
    continued = ""
    if turns and turns[-1].role == "assistant":  # "continue" in a chat client
        continued = turns.pop().text
    if not turns or turns[-1].role != "user" or not turns[-1].text.strip():
        raise RequestError("the conversation has no question: its last user message is missing or empty", "messages")
    return turns[-1].text.strip(), turns[:-1], continued, plain


def _edgerag_options(body: dict) -> dict[str, Any]:
    opts = body.get("edgerag") or {}
    if not isinstance(opts, dict):
        raise RequestError("edgerag must be an object: {method, budget, mode}", "edgerag")
    unknown = set(opts) - {"method", "budget", "mode"}
    if unknown:
        raise RequestError(f"edgerag.{sorted(unknown)[0]} is not an option; the options are method, budget and mode", "edgerag")
    if "budget" in opts and (not isinstance(opts["budget"], int) or isinstance(opts["budget"], bool) or opts["budget"] < 1):
        raise RequestError("edgerag.budget must be a positive number of tokens", "edgerag.budget")
    if "method" in opts:
        from .. import methods as registry

        if opts["method"] not in registry.names():
            raise RequestError(f"edgerag.method {opts['method']!r} is not a method; they are: {', '.join(registry.names())}", "edgerag")
    if "mode" in opts:
        from ..answer import MODES

        if opts["mode"] not in MODES:
            raise RequestError(f"edgerag.mode must be one of {', '.join(MODES)}", "edgerag.mode")
    return opts


LEFT_TO_THE_MODEL = (None, "auto", "none")


def _tools(body: dict) -> int:
    """How many tool definitions the request holds, when it leaves their use to the model;
    a request that demands a call is refused."""
    tools = body.get("tools") or []
    functions = body.get("functions") or []
    if not isinstance(tools, list) or not isinstance(functions, list):
        raise RequestError("tools must be a list of tool definitions", "tools" if not isinstance(tools, list) else "functions")
    for name in ("tool_choice", "function_call"):
        choice = body.get(name)
        if choice in LEFT_TO_THE_MODEL:
            continue
        demanded = choice.get("function", {}).get("name") or choice.get("name") if isinstance(choice, dict) else choice
        raise RequestError(
            f'{name} {demanded!r}: edgerag answers from its index and calls no tools; send tool_choice "auto" or none at all',
            name,
        )
    return len(tools) + len(functions)


def _request(body: Any, model: Any, stream: bool, include_usage: bool) -> ChatRequest:
    question, history, continued, plain = _messages(body.get("messages"))
    opts = _edgerag_options(body)
    return ChatRequest(
        model=str(model) if model else None,
        question=question,
        history=history,
        continued=continued,
        stream=stream,
        include_usage=include_usage,
        method=opts.get("method"),
        budget=opts.get("budget"),
        mode=opts.get("mode"),
        client_task=bool(CLIENT_TASK.match(question)),
        messages=plain,
        tools_ignored=_tools(body),
    )


def from_openai(body: Any) -> ChatRequest:
    """``POST /v1/chat/completions``'s body."""
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    if body.get("n", 1) not in (1, None):
        raise RequestError("n: edgerag gives one answer a request (n = 1)", "n")
    if body.get("logprobs"):
        raise RequestError("logprobs: edgerag does not return token probabilities", "logprobs")
    fmt = body.get("response_format")
    if fmt and (not isinstance(fmt, dict) or fmt.get("type") not in (None, "text")):
        raise RequestError("response_format: edgerag answers in text with citations; JSON output is not offered", "response_format")
    stream = bool(body.get("stream", False))
    opts = body.get("stream_options") or {}
    return _request(body, body.get("model"), stream, bool(stream and isinstance(opts, dict) and opts.get("include_usage")))


def from_ollama(body: Any) -> ChatRequest:
    """``POST /api/chat``'s body (Ollama streams unless told ``"stream": false``)."""
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    if body.get("format"):
        raise RequestError("format: edgerag answers in text with citations; JSON output is not offered", "format")
    return _request(body, body.get("model"), bool(body.get("stream", True)), True)


def from_ollama_generate(body: Any) -> ChatRequest:
    """``POST /api/generate``'s body: its ``prompt`` is the question (a ``system`` prompt is kept
    for a client task and not read otherwise, as in a chat)."""
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    prompt = body.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise RequestError("prompt: the question is missing", "prompt")
    if body.get("images"):
        raise RequestError("images: edgerag answers from indexed text only", "images")
    if body.get("format"):
        raise RequestError("format: edgerag answers in text with citations; JSON output is not offered", "format")
    messages = ([{"role": "system", "content": str(body["system"])}] if body.get("system") else []) + [{"role": "user", "content": prompt}]
    return _request({**body, "messages": messages}, body.get("model"), bool(body.get("stream", True)), True)


# ---- follow-ups ------------------------------------------------------------------------------
@dataclass
class Rewrite:
    question: str
    """The question retrieval and the reader get."""
    original: str
    tokens: dict[str, int] = field(default_factory=dict)
    note: str = ""
    """Why the original was kept, when a rewrite was tried and refused; or how code rewrote it
    (an elliptical follow-up, `elliptical`)."""

    @property
    def changed(self) -> bool:
        return self.question != self.original


def refers_back(question: str, history: list[Turn]) -> bool:
    """Whether ``question`` needs its conversation to be understood."""
    return bool(history) and any(t.role == "user" for t in history) and bool(REFERS_BACK.search(question))


def strip_references(text: str) -> str:
    """An answer's text without the references edgerag appended to it."""
    return text.split(REFERENCES, 1)[0].strip()


def rewrite_messages(question: str, history: list[Turn]) -> list[dict[str, str]]:
    lines = []
    for t in history[-2 * REWRITE_TURNS :]:
        text = " ".join(strip_references(t.text).split())
        lines.append(f"{'Q' if t.role == 'user' else 'A'}: {text[:600]}")
    convo = "\n".join(lines)
    return [
        {"role": "system", "content": REWRITE_INSTRUCTION},
        {"role": "user", "content": f"{convo}\nLast question: {question}\nRewritten:"},
    ]


_ELLIPSIS = re.compile(
    r"^\s*(?i:and|what about|how about|and what about)\s+(?:(?P<prep>(?i:at|in|for|of|on|from|by|with))\s+)?(?:(?i:the)\s+)?"
    r"(?P<name>[A-Z][\w'’-]*(?:\s+(?:of\s+|the\s+|and\s+)?[A-Z][\w'’-]*){0,4})\s*\??\s*$"
)


def elliptical(question: str, history: list[Turn]) -> str | None:
    """An elliptical follow-up asked again in full, in code: "And at Kendal?" after "How many
    staff did the Institute have at Whitby at the end of 2024?" is that question with Kendal for
    Whitby (the name after the same preposition, else its last name that is not its first word);
    None when the follow-up is no such ellipsis or the earlier question has no name to swap."""
    m = _ELLIPSIS.match(question)
    earlier = next((t.text for t in reversed(history) if t.role == "user"), "")
    if m is None or not earlier:
        return None
    name, prep = m["name"].strip(), m["prep"]
    spans = [r for r in _NAME.finditer(earlier) if r.start() > 0]
    if prep:
        spans = [r for r in spans if re.search(rf"\b{prep}\s+(?:the\s+)?$", earlier[: r.start()], re.I)] or spans
    if not spans:
        return None
    old = spans[-1]
    return f"{earlier[: old.start()]}{name}{earlier[old.end() :]}"


_NAME = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:of\s+|and\s+)?[A-Z][\w'’-]*)*")


def standalone(llm: MeteredLLM, question: str, history: list[Turn], method: str) -> Rewrite:
    """The question as it can be asked alone: rewritten by the model when it refers back, else as
    it is. A rewrite that is empty, runs on, or is no question is refused, and the original kept."""
    if not refers_back(question, history):
        return Rewrite(question, question)
    swapped = elliptical(question, history)
    if swapped is not None:  # "And at Kendal?" after "How many staff … at Whitby …?": no model call
        return Rewrite(swapped, question, note="the earlier question with its name swapped")
    c = llm.chat(rewrite_messages(question, history), stage="rewrite", method=method, max_tokens=REWRITE_MAX_TOKENS)
    tokens = c.account()
    text = c.text.strip().splitlines()[0].strip() if c.text.strip() else ""
    text = re.sub(r"^(rewritten( question)?|question)\s*:\s*", "", text, flags=re.IGNORECASE).strip().strip('"').strip()
    words, asked = len(text.split()), len(question.split())
    earlier = {" ".join(t.text.lower().split()) for t in history if t.role == "user"}
    if not text or words > 3 * asked + 12 or text.lower() == question.lower() or " ".join(text.lower().split()) in earlier:
        why = (
            "the model gave no rewrite"
            if not text or text.lower() == question.lower()
            else "the model repeated an earlier question"
            if " ".join(text.lower().split()) in earlier
            else "the model's rewrite ran on"
        )
        return Rewrite(question, question, tokens, note=f"{why}; asked as written")
    return Rewrite(text, question, tokens)
