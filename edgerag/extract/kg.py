"""Entity/relation extraction for the skeleton KG (KET-RAG Alg. 1; LightRAG-style profiles).

Small local models break long JSON, so the model writes one item a line:

    E | entity name | TYPE
    R | source entity | relation | target entity

Only names, types and relation phrases: output tokens are what a local model is slowest at
(~24/s for the 0.5B default on 2 cores against ~120/s for prompt tokens), so an entity's
description is not written by the model but taken, LLM-free, from the passage sentences that
mention it (graph/kg.py). Older 4- and 5-field lines (with descriptions and a strength)
are still understood.

The fixed instruction and its worked example come first and the passage last, so llama.cpp
reuses the evaluated instruction across chunks. The parser is tolerant (bullets, numbering,
missing tags, odd separators, stray prose) and strict where it matters: a name that does not
occur in the passage is dropped and counted (small models copy names from the example), and
relation endpoints must be names of the passage.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

ENTITY_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "EVENT", "WORK", "DATE", "OTHER")

INSTRUCTION = f"""List the named entities of the passage and the relations between them.
Write one item per line and nothing else:
E | entity name | type
R | source entity | relation | target entity
Types: {", ".join(ENTITY_TYPES)}. Copy each name exactly as it is written in the passage.
Write each item once, then stop.

Example passage: The Eiffel Tower, designed by Gustave Eiffel, opened in Paris in 1889.
Example output:
E | Eiffel Tower | WORK
E | Gustave Eiffel | PERSON
E | Paris | LOCATION
E | 1889 | DATE
R | Gustave Eiffel | designed | Eiffel Tower
R | Eiffel Tower | is located in | Paris
R | Eiffel Tower | opened in | 1889"""

GRAMMAR = (
    r"""
root     ::= item+
item     ::= (entity | relation) "\n"
entity   ::= "E | " name " | " type
relation ::= "R | " name " | " text " | " name
name     ::= [^|\n]{1,80}
text     ::= [^|\n]{1,120}
type     ::= """
    + " | ".join(f'"{t}"' for t in ENTITY_TYPES)
    + r"""
"""
)
"""GBNF for the same format (``Settings.extract_grammar``): llama.cpp then cannot emit
anything else, at some cost in speed."""

MAX_ITEMS = 30
VERSION = "kg-lines-2"
"""Changes whenever the prompt or parser changes what an extraction holds: stored extractions
of another version are redone (through the LLM cache, so unchanged calls cost nothing)."""


def halt_on_repeat(text: str) -> bool:
    """Stop generation at the first repeated line or past MAX_ITEMS lines: a 0.5B model left
    alone repeats its last relation until the output cap."""
    lines = [ln.strip() for ln in text.split("\n")[:-1] if ln.strip()]
    return len(lines) > MAX_ITEMS or len(lines) != len(set(lines))


halt_on_repeat.cache_key = f"halt_on_repeat:{MAX_ITEMS}"


@dataclass
class Entity:
    name: str
    type: str
    description: str


@dataclass
class Relation:
    source: str
    target: str
    description: str
    strength: float


@dataclass
class Extraction:
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    lines: int = 0
    unparsed: int = 0
    """Non-empty lines that were not an item."""
    invented: int = 0
    """Items dropped because a name is not in the passage."""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Extraction:
        return cls(
            entities=[Entity(**e) for e in d["entities"]],
            relations=[Relation(**r) for r in d["relations"]],
            lines=d["lines"],
            unparsed=d["unparsed"],
            invented=d["invented"],
        )


def messages(passage: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": f"Passage: {' '.join(passage.split())}"}]


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_SPLIT = re.compile(r"\s*[|\t]\s*")


def squash(text: str) -> str:
    return " ".join(text.lower().split())


def mentions(squashed_text: str, key: str) -> bool:
    """Whether the normalised name ``key`` occurs in ``squashed_text`` as whole words ("sea"
    is not in "research")."""
    return bool(key) and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", squashed_text) is not None


def normalize_name(name: str) -> str:
    """The merge key of an entity: lower case, inner whitespace squeezed, quotes and trailing
    punctuation dropped."""
    return squash(name.strip().strip("\"'“”‘’`*.,;: "))


def parse(output: str, passage: str) -> Extraction:
    """Items of ``output`` whose names occur in ``passage``; never raises."""
    ex = Extraction()
    haystack = squash(passage)
    known: dict[str, str] = {}

    def in_passage(name: str) -> bool:
        return mentions(haystack, normalize_name(name))

    pending: list[list[str]] = []
    for raw in output.splitlines():
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        ex.lines += 1
        fields = [f.strip() for f in _SPLIT.split(line)]
        tag = fields[0].upper().rstrip(":") if fields else ""
        if tag in ("R", "RELATION", "RELATIONSHIP"):
            fields, kind = fields[1:], "R"
        else:
            if tag in ("E", "ENTITY") or (len(fields) > 2 and len(tag) <= 2 and tag.isalpha()):
                fields = fields[1:]  # the E tag, or a stray one-letter tag ("C |") small models write
            if len(fields) >= 2 and fields[1].upper() in ENTITY_TYPES:
                kind = "E"
            elif len(fields) >= 3:
                kind = "R"
            else:
                ex.unparsed += 1
                continue
        if kind == "E" and len(fields) >= 2 and fields[0]:
            name = fields[0].strip("\"'“”*").rstrip(".,;:")
            if not in_passage(name):
                ex.invented += 1
                continue
            etype = fields[1].upper() if fields[1].upper() in ENTITY_TYPES else "OTHER"
            desc = " ".join(fields[2:]).strip() if len(fields) > 2 else ""
            key = normalize_name(name)
            if key not in known:
                known[key] = name
                ex.entities.append(Entity(name=name, type=etype, description=desc))
        elif kind == "R" and len(fields) >= 3 and fields[0] and fields[1]:
            pending.append(fields)
        else:
            ex.unparsed += 1
    for fields in pending:  # relations after entities: endpoints may be named later in the output
        if len(fields) == 3 or (len(fields) >= 4 and not re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", fields[-1])):
            fields = [fields[0], fields[2], fields[1], *fields[3:]]  # source | relation | target
        src, tgt = (f.strip("\"'“”*").rstrip(".,;:") for f in fields[:2])
        if not (in_passage(src) and in_passage(tgt)) or normalize_name(src) == normalize_name(tgt):
            ex.invented += 1
            continue
        for name in (src, tgt):
            if normalize_name(name) not in known:
                known[normalize_name(name)] = name
                ex.entities.append(Entity(name=name, type="OTHER", description=""))
        strength = 5.0
        desc_fields = fields[2:]
        if len(desc_fields) >= 2:
            m = re.search(r"\d+(?:\.\d+)?", desc_fields[-1])
            if m:
                strength = min(10.0, max(1.0, float(m.group())))
                desc_fields = desc_fields[:-1]
        ex.relations.append(
            Relation(
                source=known[normalize_name(src)],
                target=known[normalize_name(tgt)],
                description=" ".join(desc_fields).strip(),
                strength=strength,
            )
        )
    return ex
