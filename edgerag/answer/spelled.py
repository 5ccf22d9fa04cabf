"""A name as a person writes it in their own words (issue #62): "Coast Guard" for the page's
"HM Coastguard", "Corporate Tax" for "Corporation Tax". The documents' own spelling is read by
binding.py `names_in`; a question's name, typed by a person, is read here too, so a side the
question names (sides.py) is found where the page writes it its way.

* `loosely_named`: the name's words joined or split, or each in another form of itself, any case.
* `alike`: two words that are forms of one (the same root, or a long shared beginning).
"""

from __future__ import annotations

from ..text.normalize import normalize
from .binding import root


def loosely_named(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` as a person writes it in their own words, whatever the
    case: its words joined or split ("Coast Guard" for "HM Coastguard", "Coastguard" for
    "coast guard") or each word in another form of itself ("Corporate Tax" for "Corporation
    Tax": `alike`). For a question's name; `names_in` reads a name as the documents write it."""
    want = normalize(name).split()
    if not want:
        return False
    toks = normalize(text).split()
    joined = "".join(want)
    for i in range(len(toks)):
        acc = ""
        for tok in toks[i : i + len(want) + 1]:
            acc += tok
            if acc == joined:
                return True
            if not joined.startswith(acc):
                break
        window = toks[i : i + len(want)]
        if len(window) == len(want) and all(alike(a, b) for a, b in zip(want, window, strict=True)):
            return True
    return False


def alike(a: str, b: str) -> bool:
    """Whether two words are forms of one ("corporate", "corporation"; "claims", "claim"): the same
    root, or a shared beginning of six letters or more that leaves at most three of the shorter."""
    if a == b or root(a) == root(b):
        return True
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return common >= 6 and common >= min(len(a), len(b)) - 3
