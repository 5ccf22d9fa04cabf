"""Link keys: what two passages can share that makes one a bridge to the other, LLM-free.

Three kinds, each a normalised string:

* ``span`` — a run of capitalised words ("Kettering Hill", "University of Texas"): the
  proper-noun-like spans that multi-hop questions hop through. Connectors (of, the, de, von,
  …) may sit inside a run. A sentence's first word is capitalised by grammar, not by name,
  so it is dropped from a run when it is a stop word ("The", "In", "He") — a sentence that
  starts with a name keeps it.
* ``num`` — numbers and years ("1931", "42").
* ``word`` — plain keywords (stop words removed); only the rare ones carry links, which the
  document-frequency cap in graph/links.py decides.

Keys are lower-cased, inner whitespace squeezed, possessive 's dropped.
"""

from __future__ import annotations

import re

from .keywords import keywords, stop_words
from .sentences import sentence_spans

KINDS = ("span", "num", "word")
CONNECTORS = frozenset(
    {"of", "the", "de", "del", "della", "di", "da", "do", "dos", "du", "des", "la", "le", "van", "von", "der", "den", "y", "and", "&"}
)
_TOKEN = re.compile(r"[^\W_]+(?:['’\-.][^\W_]+)*\.?|&|[^\w\s]")  # words, and punctuation that ends a run
_NUMBER = re.compile(r"^\d{2,}$")


def capitalised_runs(text: str) -> list[str]:
    """Runs of capitalised words of ``text`` as written, sentence by sentence (see the module
    doc): connectors may sit inside a run; a sentence's first word starts one only when it is
    not a stop word. The reader's candidate answers (answer/candidates.py) are these runs too."""
    out: list[str] = []
    stops = stop_words()
    for s, e in sentence_spans(text):
        sentence = text[s:e]
        run: list[tuple[int, int]] = []  # (start, end) of the run's words in ``sentence``
        pending: list[tuple[int, int]] = []  # connectors waiting for a capitalised word after them
        for i, m in enumerate(_TOKEN.finditer(sentence)):
            word = m.group().rstrip(".")
            at = (m.start(), m.start() + len(word))
            if word[:1].isupper() and not (i == 0 and word.lower() in stops):
                run.extend(pending)
                pending = []
                run.append(at)
            elif run and word.lower() in CONNECTORS:
                pending.append(at)
            else:
                if run:
                    out.append(sentence[run[0][0] : run[-1][1]])
                run, pending = [], []
        if run:
            out.append(sentence[run[0][0] : run[-1][1]])
    return [x for x in out if len(x) > 1]


def spans(text: str) -> list[str]:
    """Capitalised runs of ``text``, normalised as link keys."""
    return [normalize(x) for x in capitalised_runs(text)]


def normalize(key: str) -> str:
    k = " ".join(key.lower().replace("’", "'").split())
    return k[:-2] if k.endswith("'s") else k


def link_keys(text: str) -> list[tuple[str, str]]:
    """Distinct (kind, key) pairs of ``text``."""
    keys: dict[tuple[str, str], None] = {}
    for sp in spans(text):
        keys[("span", sp)] = None
    for tok in re.findall(r"\b\d[\d,]*\b", text):
        n = tok.replace(",", "")
        if _NUMBER.match(n):
            keys[("num", n)] = None
    for w in keywords(text):
        if not w.isdigit():
            keys[("word", w)] = None
    return list(keys)
