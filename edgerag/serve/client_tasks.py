"""A chat client's own housekeeping, told from a question, and answered in code when a question
waits (`kind_of`, `in_code`).

Open WebUI asks the chat's model, after an answer, for the chat's title, its tags and follow-up
suggestions, and (when turned on) completions of what the user types and search queries. Each
of its prompts (backend/open_webui/config.py, ``DEFAULT_*_GENERATION_PROMPT_TEMPLATE``) begins
``### Task:`` and ends by naming the JSON it wants, ``{ "title": … }``, ``{ "tags": … }``,
``{ "follow_ups": … }``, ``{ "text": … }``, ``{ "queries": … }``, with the conversation between
``<chat_history>`` tags as ``USER: …`` / ``ASSISTANT: …`` lines. So a task is recognised by what
the client sends: a last user message that begins ``### Task:`` (chat.py ``CLIENT_TASK``); its
kind is the first key of the JSON its prompt asks for.

A task the model cannot serve at once (a question runs or waits: model_queue.py) is answered
here instead: the title from the first question's own words, no tags, no follow-ups, no
completion, no queries: empty, but well-formed, so the client carries on.
"""

from __future__ import annotations

import json
import re

OUTPUT_KEY = re.compile(r"\{\s*\"([A-Za-z_]+)\"\s*:")
HISTORY = re.compile(r"<chat_history>(.*?)</chat_history>", re.DOTALL | re.IGNORECASE)
TURN = re.compile(r"^(USER|ASSISTANT):\s?", re.MULTILINE)
LISTS = {"tags", "follow_ups", "queries"}
TITLE_WORDS = 6
LEADING = {
    "what", "who", "whom", "whose", "which", "where", "when", "why", "how", "is", "are", "was", "were", "do", "does", "did",
    "can", "could", "tell", "me", "please", "the", "a", "an", "about", "s",
}  # fmt: skip


def kind_of(prompt: str) -> str:
    """The JSON key a task's prompt asks for (``title``, ``tags``, ``follow_ups``, ``text``,
    ``queries``, …): the first one named after its ``### Output`` heading, or in the whole
    prompt when it has none; ``""`` when it names none."""
    output = prompt.split("### Output", 1)[-1] if "### Output" in prompt else prompt
    keys = OUTPUT_KEY.findall(output)
    return keys[0] if keys else ""


def turns(prompt: str) -> list[tuple[str, str]]:
    """The conversation the prompt quotes, as (``user`` / ``assistant``, text)."""
    m = HISTORY.search(prompt)
    if not m:
        return []
    parts = TURN.split(m.group(1))
    return [(role.lower(), text.strip()) for role, text in zip(parts[1::2], parts[2::2])]


def title_from(question: str) -> str:
    """A title made of the question's own words: its opening question words dropped, at most
    six words, the first capitalised (``What is the access code of the Zorblax vault?`` →
    ``Access code of the Zorblax vault``)."""
    words = re.findall(r"[\w'’-]+", question)
    while len(words) > 1 and words[0].lower() in LEADING:
        words.pop(0)
    words = words[:TITLE_WORDS]
    if not words:
        return "Question"
    return " ".join([words[0][:1].upper() + words[0][1:], *words[1:]])


def in_code(prompt: str) -> str:
    """The task's answer without the model: the JSON its prompt asks for, empty but for a title."""
    key = kind_of(prompt)
    if key == "title":
        users = [text for role, text in turns(prompt) if role == "user"]
        return json.dumps({"title": title_from(users[0] if users else "")}, ensure_ascii=False)
    if key in LISTS:
        return json.dumps({key: []})
    if key:
        return json.dumps({key: ""})
    return ""
