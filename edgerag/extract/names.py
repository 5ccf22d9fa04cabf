"""TERAG's extraction (Xiao, Tsang, Bai 2025, §3.1): named entities and document-level
concepts only, as plain lines, several passages per call.

Output tokens are the point: the model writes names, never relations or descriptions, and
never JSON. One call carries up to ``Settings.terag_batch`` numbered passages and the model
answers, per passage,

    [2]
    ENTITIES: Edith Varga, Zorblax vault, 1931
    CONCEPTS: astronomy, vaults

A model that answers one line a passage (``[2] Edith Varga, Zorblax vault | vaults``) is read
too; asked for that form, the 1.5B model wrote descriptions in place of names (issue #50,
benchmarks/terag_prompt.py), so the prompt keeps the labelled lines.

The parser splits the answer back per passage (by the ``[n]`` markers; without any, the k-th
ENTITIES line goes to the k-th passage), tolerates bullets, case, stray prose and missing
lines, and is strict where it matters: an entity the passage does not contain is dropped and
counted (small models copy names from the example), and so is a concept copied from the
example that the passage does not mention.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from .kg import mentions, normalize_name, squash

INSTRUCTION = """For each numbered passage, write its number in brackets, then two lines:
ENTITIES: the named entities in the passage (people, organisations, places, dates, events, works), comma-separated, copied exactly
CONCEPTS: two or three general topics of the passage, comma-separated
Write nothing else."""

EXAMPLE_PASSAGES = [
    "Marie Curie won the Nobel Prize in Physics in 1903 together with Pierre Curie.",
    "The Danube flows through Vienna and Budapest before reaching the Black Sea.",
]
EXAMPLE_OUTPUT = """[1]
ENTITIES: Marie Curie, Nobel Prize in Physics, 1903, Pierre Curie
CONCEPTS: physics, scientific awards
[2]
ENTITIES: Danube, Vienna, Budapest, Black Sea
CONCEPTS: rivers, European geography"""

QUERY_INSTRUCTION = """List the named entities in the question (people, organisations, places, dates, events, works), comma-separated, copied exactly. Write nothing else."""
QUERY_EXAMPLE = ("Who directed the film that won the Palme d'Or in 1994?", "Palme d'Or, 1994")

VERSION = "names-2"
"""Changes whenever the prompt or parser changes what an extraction holds."""
MAX_NAME_WORDS = 8
MAX_LINE_CHARS = 300
"""A longer output line is the model copying its passage, not listing names."""

_EXAMPLE_TEXT = squash(" ".join(EXAMPLE_PASSAGES) + " " + EXAMPLE_OUTPUT + " " + " ".join(QUERY_EXAMPLE))
_MARK = re.compile(r"^\W*(?:passage\s*)?\[?\s*(\d{1,3})\s*\]?\s*[.):\-]?\s*(.*)$", re.IGNORECASE)
_FIELD = re.compile(r"^\W*(entities|entity|named entities|concepts?|topics?)\s*[:\-–]\s*(.*)$", re.IGNORECASE)


def passage_block(passages: list[str]) -> str:
    return "\n".join(f"[{i}] {' '.join(p.split())}" for i, p in enumerate(passages, 1))


def messages(passages: list[str]) -> list[dict[str, str]]:
    """Instruction and worked example first (the same for every call, so llama.cpp reuses
    them), the numbered passages last."""
    return [
        {"role": "system", "content": INSTRUCTION},
        {"role": "user", "content": passage_block(EXAMPLE_PASSAGES)},
        {"role": "assistant", "content": EXAMPLE_OUTPUT},
        {"role": "user", "content": passage_block(passages)},
    ]


def query_messages(question: str) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": QUERY_INSTRUCTION},
        {"role": "user", "content": QUERY_EXAMPLE[0]},
        {"role": "assistant", "content": QUERY_EXAMPLE[1]},
        {"role": "user", "content": " ".join(question.split())},
    ]


@dataclass
class Names:
    """What one passage yielded."""

    entities: list[str] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    invented: int = 0
    """Names dropped: an entity not in the passage, or a concept copied from the example."""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class BatchParse:
    passages: list[Names]
    lines: int = 0
    unparsed: int = 0
    """Non-empty lines that were neither a passage marker nor an ENTITIES/CONCEPTS line."""


def halt_for(n: int):
    """Stop a batch answer as soon as it is done or going wrong: a line longer than
    MAX_LINE_CHARS (the 0.5B model copies whole passages into ENTITIES), a repeated line, a
    marker past the last passage, or a CONCEPTS line written for every passage (or the last
    passage's one-line answer)."""

    def halt(text: str) -> bool:
        lines = text.split("\n")
        if any(len(line) > MAX_LINE_CHARS for line in lines):
            return True
        done = [line.strip() for line in lines[:-1] if line.strip()]
        if len(done) != len(set(done)):
            return True
        if any((m := _MARK.match(line)) and int(m.group(1)) > n and not _FIELD.match(line) for line in done):
            return True
        if any((m := _MARK.match(line)) and int(m.group(1)) == n and "|" in m.group(2) for line in done):
            return True  # the last passage's one-line answer is written
        return sum(1 for line in done if re.match(r"^\W*(concepts?|topics?)\s*[:\-–]", line, re.IGNORECASE)) >= n

    halt.cache_key = f"names-halt:{n}:{MAX_LINE_CHARS}"
    return halt


def split_items(text: str) -> list[str]:
    """Comma/semicolon-separated names, cleaned; 'none' and overlong items dropped."""
    out = []
    for raw in re.split(r"[,;]", text):
        item = raw.strip().strip("\"'“”‘’`*[](){}").rstrip(".:").strip()
        if not item or item.lower() in ("none", "n/a", "na", "-", "no entities", "nothing"):
            continue
        if len(item.split()) > MAX_NAME_WORDS or len(item) > 80:
            continue
        out.append(item)
    return out


def parse_batch(output: str, passages: list[str]) -> BatchParse:
    """Split one call's answer back into per-passage names; never raises."""
    n = len(passages)
    fields: list[dict[str, list[str]]] = [{} for _ in range(n)]
    result = BatchParse(passages=[])
    current: int | None = 0 if n == 1 else None
    unmarked_entities = 0
    marked = False
    for raw in output.splitlines():
        line = raw.strip()
        if not line:
            continue
        result.lines += 1
        m = _MARK.match(line)
        opened = bool(m and 1 <= int(m.group(1)) <= n and not _FIELD.match(line))
        if opened:
            current, marked = int(m.group(1)) - 1, True
            line = m.group(2).strip()
            if not line:
                continue
        f = _FIELD.match(line)
        if not f and "|" in line:  # the one-line form, "[n] names | topics"; unmarked, the k-th line is the k-th passage's
            if not opened and not marked and n > 1:
                unmarked_entities += 1
                current = unmarked_entities - 1
            if current is not None and 0 <= current < n and (opened or not marked or n == 1):
                names, _, topics = line.partition("|")
                fields[current].setdefault("entities", []).extend(split_items(names))
                fields[current].setdefault("concepts", []).extend(split_items(topics))
                continue
        if not f:
            result.unparsed += 1
            continue
        kind = "entities" if f.group(1).lower().startswith(("entit", "named")) else "concepts"
        target = current
        if not marked and n > 1:  # no markers at all: the k-th ENTITIES line is the k-th passage's
            if kind == "entities":
                unmarked_entities += 1
            target = unmarked_entities - 1 if unmarked_entities else None
        if target is None or not 0 <= target < n:
            result.unparsed += 1
            continue
        fields[target].setdefault(kind, []).extend(split_items(f.group(2)))
    for passage, got in zip(passages, fields):
        result.passages.append(_validate(passage, got.get("entities", []), got.get("concepts", [])))
    return result


def parse_query(output: str, question: str) -> list[str]:
    """Entities of a question from the query-NER answer; names not in the question dropped."""
    text = output.strip()
    f = _FIELD.match(text.splitlines()[0] if text else "")
    items = split_items(f.group(2) if f else " , ".join(text.splitlines()))
    hay = squash(question)
    return list(dict.fromkeys(i for i in items if mentions(hay, normalize_name(i))))


def _validate(passage: str, entities: list[str], concepts: list[str]) -> Names:
    hay = squash(passage)
    out = Names()
    seen: set[tuple[str, str]] = set()
    for kind, items in (("entities", entities), ("concepts", concepts)):
        for item in items:
            key = normalize_name(item)
            if not key or (kind, key) in seen:
                continue
            in_passage = mentions(hay, key)
            if (kind == "entities" and not in_passage) or (kind == "concepts" and not in_passage and mentions(_EXAMPLE_TEXT, key)):
                out.invented += 1
                continue
            seen.add((kind, key))
            getattr(out, kind).append(item)
    return out
