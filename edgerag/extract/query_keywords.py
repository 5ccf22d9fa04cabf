"""LightRAG's query keywords (Guo et al. 2024, §3.2): low-level (specific entities) and
high-level (broad themes) keywords of a question, from the local model.

LightRAG asks for JSON; a 0.5B model breaks JSON often, so the model writes two plain lines:

    LOW: Gustave Eiffel, Eiffel Tower
    HIGH: architecture, engineering history

The parser also reads LightRAG's JSON keys (``low_level_keywords``/``high_level_keywords``),
bullets, and odd capitalisation. When it finds neither level, retrieval falls back to the
question itself (its embedding) for both — a model that fails never fails the query.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

VERSION = "qkw-1"

INSTRUCTION = """Give the keywords of the question on two lines and nothing else:
LOW: the specific names, people, places, things and dates it mentions, comma separated
HIGH: the broad themes or kinds of relation it asks about, comma separated

Example question: Which university did the inventor of the telephone attend?
LOW: telephone, inventor
HIGH: education, invention history"""

_LINE = re.compile(r"^\s*[-*•]?\s*\**\s*(low|high)(?:[\s_-]*level)?(?:[\s_-]*keywords?)?\s*\**\s*[:=]\s*(.*)$", re.I)


@dataclass
class QueryKeywords:
    low: list[str] = field(default_factory=list)
    high: list[str] = field(default_factory=list)
    fallback: bool = False
    """True when the model gave neither level and both are the question itself."""


def messages(question: str) -> list[dict]:
    return [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": f"Question: {question}"}]


def _split(text: str) -> list[str]:
    items = [x.strip().strip("\"'[]`.").strip() for x in re.split(r"[,;]", text)]
    return list(dict.fromkeys(x for x in items if x and len(x) <= 80 and x.lower() not in ("none", "n/a", "-")))


def parse(output: str, question: str) -> QueryKeywords:
    """The two levels from the model's ``output``; the question itself when there are none."""
    got: dict[str, list[str]] = {"low": [], "high": []}
    text = output.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text[: text.rfind("}") + 1])
            for level in got:
                value = data.get(f"{level}_level_keywords", [])
                got[level] = _split(", ".join(map(str, value))) if isinstance(value, list) else _split(str(value))
        except (ValueError, AttributeError, RecursionError):
            pass
    if not any(got.values()):
        for line in text.splitlines():
            m = _LINE.match(line)
            if m and not got[m.group(1).lower()]:
                got[m.group(1).lower()] = _split(m.group(2))
    if not any(got.values()):
        return QueryKeywords([question], [question], fallback=True)
    return QueryKeywords(got["low"] or got["high"], got["high"] or got["low"])
