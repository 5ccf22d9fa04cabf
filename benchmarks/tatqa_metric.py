"""TAT-QA's exact match and F1 with the scale, and the reading of an answer's number and scale.

The metric is our own port of TAT-QA's official evaluation (repository NExTplusplus/TAT-QA,
``tatqa_eval.py``, ``tatqa_metric.py`` and ``tatqa_utils.py``; Zhu et al., ACL 2021): every
answer is turned into one string, numbers as ``'%.4f'`` of their value times the scale
(``thousand``, ``million``, ``billion``, ``percent`` = 0.01), the spans of a multi-span answer
joined; EM compares the normalised strings, F1 their token bags (DROP's F1), and arithmetic and
count answers get F1 = EM. Two departures, both said where they are: the items of a list are
sorted after they are turned into strings, not before, and case aside, so a list is order-free
however its numbers are written ("1,568.6" and "1568.6" sort alike) and whatever its items'
capitals ("exceptional items; Net capital expenditure" against "Exceptional items", "Net capital
expenditure": EM compares the strings in lower case, and the order should not hang on it); and
the DROP bag alignment is left out, since the official code always aligns one joined string with one.

The official script takes a prediction as (answer, scale). A reply in words has no scale field,
so `read_prediction` reads it as a person would: the number and the word or sign that follows
it ("1.2 million", "$1.2m", "17.7 %", "(1,204)", "in thousands") when the gold answer is a
number, or the text as written (split into its items for a multi-span answer, every way a
person could split it, the best scored) when it is not; a number said with its own scale word
is also read as printed ("8.6 million" with scale million), the better reading scored, since
the official script scales a gold span that says its scale twice and a span predicted as it is
printed the same way. Two upstream slips are mended, so that a
number reads as printed: a negative in parentheses with a thousands comma, "(20,597)", and a
percentage after a parenthesis, "(66)%".
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

# ---- the official rules, ported -------------------------------------------------------------


def scale_to_num(scale: str) -> float:
    scale = scale.lower()
    for word, num in (("hundred", 100), ("thousand", 1000), ("million", 1e6), ("billion", 1e9), ("percent", 0.01)):
        if word in scale:
            return num
    return 1


_EXCLUDE_IN_NUM = "'\"\\$€£¥%(),[]"


def _clean_num(text: str) -> str:
    return "".join(ch for ch in str(text) if ch not in _EXCLUDE_IN_NUM)


def _one_num(text: str) -> int | float | None:
    groups = re.findall(r"([+-]?\d+(\.\d+)?)|([+-]?\.\d+)", _clean_num(text))
    if not groups or not groups[0][0]:
        return None
    num = groups[0][0]
    return float(num) if "." in num else int(num)


def is_number(text: str) -> bool:
    """TAT-QA's test: the first word (currency, parentheses, commas and % taken off) is a
    number, and a second word, if any, is a scale."""
    words = " ".join(_clean_num(w) for w in text.split()).split()
    if not words:
        return False
    try:
        num = float(words[0])
    except ValueError:
        return False
    if num != num:  # NaN
        return False
    return len(words) < 2 or scale_to_num(words[1]) != 1


def to_number(text: str) -> float | None:
    """The value TAT-QA reads from ``text``: its first number, times a scale word after it,
    negative in parentheses, a hundredth with %."""
    num = _one_num(text)
    if num is None:
        return None
    scale = next((scale_to_num(m.group(0)) for m in re.finditer(r"[\d.]+\s?[a-zA-Z]+", text)), 1)
    negative = -1 if re.search(r"\([\d.,\s]+\)", text.strip()) else 1  # upstream: [\d.\s], so "(20,597)" read positive
    percent = 0.01 if re.search(r"[\d.\s]+\)?%", text.strip()) else 1  # upstream: no ")", so "(66)%" read as -66
    return round(num * scale * negative * percent, 4)


def normalize_answer(text: str) -> str:
    """TAT-QA's normaliser: word by word, lower case, punctuation off (not from a number),
    numbers as their value, no articles."""
    parts = []
    for token in text.split(" "):
        token = token.lower()
        if not is_number(token):
            token = "".join(ch for ch in token if ch not in string.punctuation)
        if is_number(token):
            token = str(to_number(token))
        token = " ".join(re.sub(r"\b(a|an|the)\b", " ", token).split())
        if token.strip():
            parts.append(token)
    return " ".join(parts).strip()


def answer_string(answers: list[str], scale: str) -> str:
    """The one string TAT-QA scores for ``answers`` with ``scale`` (``get_answer_str``), its
    items sorted after conversion, case aside (order-free lists)."""
    items = []
    for ans in answers:
        text = str(ans)
        num = to_number(text) if is_number(text) else None
        if num is None:
            items.append(f"{text} {scale}" if scale else text)
        elif "%" in text:
            items.append(f"{num:.4f}")
        else:
            items.append(f"{round(num, 2) * scale_to_num(scale):.4f}")
    return " ".join(sorted(items, key=lambda i: (i.lower(), i)))


def _f1(predicted: set[str], gold: set[str]) -> float:
    same = len(gold & predicted)
    precision = same / len(predicted) if predicted else 1.0
    recall = same / len(gold) if gold else 1.0
    return 0.0 if precision == 0.0 and recall == 0.0 else 2 * precision * recall / (precision + recall)


def em_f1(prediction: str, gold: str) -> tuple[float, float]:
    """EM and (DROP) F1 of one prediction string against one gold string (``get_metrics``)."""
    p, g = normalize_answer(prediction), normalize_answer(gold)
    return float(p == g), round(_f1(set(p.split()), set(g.split())), 2)


def tatqa_score(pred: list[str], pred_scale: str, gold: list[str], gold_scale: str, answer_type: str) -> tuple[float, float]:
    """EM and F1 with the scale of a prediction (its items and scale) against TAT-QA's gold,
    as ``TaTQAEmAndF1.__call__`` scores them."""
    if not pred or not gold:
        return 0.0, 0.0
    gold_str = answer_string(gold, gold_scale)
    candidates = [answer_string(pred, pred_scale)]
    # a lone bare number with no scale may be a percentage written as a fraction (add_percent_pred)
    if len(pred) == 1 and not pred_scale and "%" not in pred[0] and is_number(pred[0]):
        num = to_number(pred[0])
        if num is not None:
            candidates.append(f"{num:.4f}")
    em, f1 = max(em_f1(c, gold_str) for c in candidates)
    return em, em if answer_type in ("arithmetic", "count") else f1


# ---- reading a reply as a person reads it ---------------------------------------------------

_SCALE_WORDS = [
    (r"%|percent\b|per\s*cent\b|pct\b|percentage points?\b", "percent"),
    (r"billions?\b|bn\b|b\b", "billion"),
    (r"millions?\b|mn\b|mm\b|m\b", "million"),
    (r"thousands?\b|k\b|'000s?|’000s?", "thousand"),
]
_NUMBER = re.compile(
    r"(?P<open>\()?\s*(?P<sign>[-+])?\s*(?P<cur>[$€£¥]|us\$|usd|eur|gbp|rmb|a\$)?\s*(?P<sign2>[-+])?\s*"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![\d,]\d)(?P<close>\s*\))?"
    r"(?:\s*(?:[$€£¥])?\s*(?P<scale>" + "|".join(p for p, _ in _SCALE_WORDS) + r"))?",
    re.IGNORECASE,
)
_GLOBAL_SCALE = re.compile(
    r"\bin\s+(?:[$€£]\s*)?(thousands|millions|billions)\b|\(\s*(?:[$€£]\s*)?(thousands|millions|billions)\s*\)", re.I
)
_WORD_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_CITATION = re.compile(r"\s*\[\d+(?:[,\s]+\d+)*\]")
"""A citation mark: [1], [1, 2]."""
_PURE_NUMBER_PARENS = re.compile(r"^\(\s*[$€£]?\s*\d[\d,]*(?:\.\d+)?\s*%?\s*\)$")


@dataclass(frozen=True)
class Reading:
    """A reply read for TAT-QA's metric: its items and the scale they are said in."""

    items: list[str]
    scale: str
    others: tuple[list[str], ...] = ()
    """Other ways to read a list's items (`split_items`); the best reading is scored."""
    printed: list[str] | None = None
    """The numbers as printed, each with its own scale word ("8.6 million"): scored too where
    every gold item says its scale and the gold has one, which the official script applies a
    second time to such a span ("$8.6 million", scale million), as it would to this reading."""


def scale_of(word: str | None) -> str:
    if not word:
        return ""
    return next((name for pattern, name in _SCALE_WORDS if re.fullmatch(pattern, word.strip(), re.I)), "")


def _drop_explanations(text: str) -> str:
    """Parenthesised asides that are not a number in parentheses (a computation, a citation,
    a row's name) and citation marks taken off, innermost first: "−8.4 % ((1,054 − 1,151) / 1,151; Services)" → "−8.4 %"."""
    text = _CITATION.sub(" ", text)
    while True:
        changed = re.sub(r"\([^()]*\)", lambda m: m.group(0) if _PURE_NUMBER_PARENS.match(m.group(0)) else " ", text)
        if changed == text:
            return text
        text = changed


def _plain(text: str) -> str:
    text = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-").replace("\u00a0", " ")
    return re.sub(r"(?<=\d)\s*per\s*cent\b", "%", text, flags=re.I)


def numbers_in(text: str, years: bool = True) -> list[tuple[str, str]]:
    """Every number of ``text`` as (TAT-QA-readable number string, its scale), in order; a
    number in words up to twenty counts ("three"). ``years=False``: a bare year (1900–2099,
    no currency, no scale) is no answer where another number is ("In 2019 it was 5.2")."""
    text = _drop_explanations(_plain(text))
    text = re.sub(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b", lambda m: _WORD_NUMBERS[m.group(1).lower()], text, flags=re.I)
    found = []
    for m in _NUMBER.finditer(text):
        num = m.group("num").replace(",", "")
        negative = bool((m.group("open") and m.group("close")) or "-" in ((m.group("sign") or "") + (m.group("sign2") or "")))
        scale = scale_of(m.group("scale"))
        year = bool(re.fullmatch(r"(19|20)\d\d", m.group("num"))) and not scale and not m.group("cur")
        found.append((("-" if negative else "") + num, scale, year))
    if not years and any(not y for *_, y in found):
        found = [f for f in found if not f[2]]
    return [(n, s) for n, s, _ in found]


_SEPARATORS = (r"\n|;|\s*[•·]\s+", r",\s+(?:and\s+)?", r"\s+and\s+|\s+&\s+")
"""Where a list's items part, from the surest to the least sure: lines, semicolons and bullets;
commas followed by a space (a number's thousands comma is not); "and"."""


def split_items(text: str) -> list[list[str]]:
    """The ways a list answer's items can be read, each splitting at more of `_SEPARATORS`
    ("Wages and salaries; Social security" is two items, "cash, receivables and inventory" three)."""
    text = _CITATION.sub(" ", text)
    readings = []
    for n in range(1, len(_SEPARATORS) + 1):
        parts = re.split("|".join(_SEPARATORS[:n]), text)
        items = [i for i in (re.sub(r"^\s*(?:[-*]|\d+[.)])\s+", "", p).strip(" .:") for p in parts) if i]
        if items and items not in readings:
            readings.append(items)
    return readings


def read_prediction(reply: str, gold: list[str], answer_type: str) -> Reading:
    """``reply`` as TAT-QA's metric takes a prediction: where every gold item is a number, the
    reply's numbers (the first one, or all of them for a multi-span answer) with the scale said
    after the first ("in millions" anywhere in the reply when none is), else its text (its items
    for a multi-span answer) with no scale."""
    reply = reply.strip()
    if not reply:
        return Reading([], "")
    if gold and all(is_number(g) for g in gold):
        numbers = numbers_in(reply, years=all(re.fullmatch(r"(19|20)\d\d", g.strip()) for g in gold))
        if not numbers:
            return Reading([reply], "")
        chosen = numbers if answer_type == "multi-span" else numbers[:1]
        scale = next((s for _, s in chosen if s), "")
        if not scale:
            m = _GLOBAL_SCALE.search(reply)
            scale = scale_of((m.group(1) or m.group(2)).rstrip("s")) if m else ""
        # as printed, each number with its own scale word: the official script scales a gold
        # span that says its scale ("$8.6 million", scale million) twice, and so a prediction too
        printed = [f"{n} {s}" if s else n for n, s in chosen]
        return Reading([n for n, _ in chosen], scale, printed=printed if any(s for _, s in chosen) else None)
    if answer_type == "multi-span":
        first, *others = split_items(reply)
        return Reading(first, "", tuple(others))
    return Reading([_CITATION.sub(" ", reply).strip(" .")], "")


def score_reading(reading: Reading, gold: list[str], gold_scale: str, answer_type: str) -> tuple[float, float]:
    """EM and F1 with the scale of the best way to read a reply (`tatqa_score`)."""
    says_scale = gold_scale and all(is_number(g) and len(g.split()) > 1 for g in gold)  # "$8.6 million"
    readings = (reading.items, *reading.others, *([reading.printed] if reading.printed and says_scale else []))
    return max(tatqa_score(items, reading.scale, gold, gold_scale, answer_type) for items in readings)
