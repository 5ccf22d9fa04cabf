"""A rule's listed requirements or exceptions decided for the user's situation, item by item
(issue #62): "To be eligible, an individual must: • have at least 2 years' continuous service •
have been dismissed, laid off or made redundant" read for "I have 3 years of continuous service
and decided on early retirement. Do I qualify for redundancy pay?" is a "no", whatever the
model's first "yes".

For a rule's yes or no with the user's situation given, `rule_list` reads the list the rule's
sentence leads (conditions.py `rule_sentence`) and its polarity from the lead:

* **requirements**: "The donor must:", "To be eligible, an individual must:", "You can claim if
  you:", "You cannot get it unless you:": the rule holds only if the items do (all of them; one
  of them where the lead says "one of" / "any of" / "either");
* **exceptions**: "You do not have to take CBT if you:", "You cannot claim if you:", "You can
  … unless you:", "… does not apply if": any item that holds turns the rule.

Each item is settled in code where it can be (`settle_in_code`: a date or number the situation
states against the item's "before 1 February 2001", "at least 2 years", "more than 12
passengers", "up to 50cc", the situation's sentence sharing a word of the item's beside it),
else asked of the model as a small closed question (Yes / No / Unknown, `ChoiceTrie`) that
reads the lead, the item and the situation alone (offered in lower case, the 1.5B said
"unknown" to every item of six tried, "I am an employee" against "be an employee" too); its
"Yes" counts only where the user's words say at least half of the item's telling words
(`grounded`), its "No" as said. Then (`decide`):

* a requirement the situation fails → the rule does not hold, said with the lead: "No: To be
  eligible, an individual must have been dismissed, laid off or … [n]";
* an exception the situation meets → the rule does not hold;
* every requirement met, or one of a "one of" list → the rule holds; none of a condition's
  list met → it does not;
* otherwise nothing is decided (the model's answer stays, with its condition, conditions.py).

The answer is the rule's holding read through the question's own polarity: "Do I need to take
CBT?" asks that the rule hold, "Is it true that a CBT is not needed?" that it not hold.

Where no list decides, a sentence read that says two of the question's telling words and states
a bound ("A passenger ship is a ship … that carries more than 12 passengers") is one requirement,
settled in code only (`failed_bound`): a situation that fails it ("a 10-seat foot passenger
ferry") says no. A rule's question with no situation of its own is decided only so, against its
own words ("Can I travel first class on a journey scheduled to take three hours?" against "… only
for a single journey scheduled to last more than four hours": no); numbers spelled out are read
as digits (item_bounds.py `in_digits`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..llm.local import Completion
from ..text.keywords import keywords
from ..text.sentences import split_sentences
from ..types import Unit
from .binding import Standing, heads, lemma, subject_words
from .conditions import list_after, rule_sentence
from .item_bounds import settle_in_code
from .question import Question

MAX_ASKED = 5
"""Items asked of the model at most for one question (each one short constrained call)."""
MAX_LIST = 8
"""Items of a list read at most (a longer list is not decided: all met could not be said)."""
_NEG = re.compile(r"\b(?:not|cannot|can't|can’t|won't|won’t|don't|don’t|doesn't|doesn’t|isn't|isn’t|aren't|aren’t|never)\b|n[’']t\b", re.I)
_UNLESS = re.compile(r"\b(?:unless|except)\b", re.I)
_CASE = re.compile(r"\b(?:if|when|where|whether)\b", re.I)
_ANY = re.compile(r"\b(?:one|any|either)\s+of\b", re.I)
_Q_NEG = re.compile(r"\b(?:without|exempt)\b|" + _NEG.pattern, re.I)
SYSTEM = (
    "You check one item of a rule from official guidance against what a person says about themselves. "
    "Answer yes if their situation shows the item is true of them, no if it shows it is not, unknown if it does not say."
)


@dataclass(frozen=True)
class RuleList:
    """A rule's sentence that leads a list, read for what its items do."""

    standing: Standing
    items: tuple[str, ...]
    requirements: bool
    """True: the rule holds only if the items do; False: an item that holds turns the rule."""
    any_of: bool = False
    """Requirements of which one is enough ("one of the following")."""
    listed: bool = True
    """False: the rule's own sentence, leading no list, as its one requirement (code only)."""


@dataclass(frozen=True)
class Met:
    """What the items decided: the answer, and the item it turned on."""

    answer: str
    """``yes`` or ``no``: the rule's holding read through the question's polarity."""
    item: str
    """The item that decided ("" where all requirements were met)."""
    why: str
    """How it was decided, for ``Answer.reason``."""
    rule: RuleList
    calls: list[Completion] = field(default_factory=list)

    def text(self, n: int) -> str:
        """The answer's text, citing passage ``n``: "No: To be eligible, an individual must have
        been dismissed … [n]", the rule's lead said with the item that decided."""
        cite = f" [{n}]" if n else ""
        word = "Yes" if self.answer == "yes" else "No"
        lead = self.rule.standing.sentence.strip().rstrip(" :")
        if not self.rule.listed:
            return f"{word}: {lead}{cite}"
        if not self.item:  # each requirement met, or none of the conditions
            said = "none of these applies to you" if self.rule.any_of and self.rule.requirements else "you meet each of these"
            return f"{word}: {said}: {lead}: {'; '.join(self.rule.items)}{cite}"
        if self.rule.any_of and self.rule.requirements:
            return f"{word}: {self.item}{cite}"
        return f"{word}: {lead} {self.item}{cite}"


_IF_LEAD = re.compile(r"\b(?:only\s+)?if\b(?P<rest>[^:,]{0,60}):\s*$", re.I)
_UNLESS_LEAD = re.compile(r"\b(?:unless|except)\b[^:]{0,60}:\s*$", re.I)
_MUST_LEAD = re.compile(
    r"(?<!may )(?<!might )(?<!could )\b(?:must|need\s+to|needs\s+to|have\s+to|has\s+to)(?:\s+(?:also|both|either|all))?\s*:\s*$", re.I
)
_ALL = re.compile(r"\b(?:all|both)\b", re.I)


def list_polarity(lead: str) -> tuple[bool, bool] | None:
    """(requirements, any_of) of a list's lead sentence (the module doc), read from the words
    that open the list: a condition ("… if you:", "… if all of the following apply:": one item
    is enough unless it says "all" or "both"), "… unless you:", or a duty ("The donor must:",
    every item). None where the list is no rule's items ("The 3 types of pool are the:", "The
    agency must give you a statement that tells you:")."""
    lead = lead.strip()
    cond = _UNLESS_LEAD.search(lead) or _IF_LEAD.search(lead)
    if cond is not None and lead[: cond.start()].strip():  # a rule before its condition, not "If any agency offers you services it:"
        neg = bool(_NEG.search(lead[: cond.start()]))
        unless = cond.group().lower().startswith(("unless", "except"))
        any_of = not _ALL.search(cond.group()) or bool(_ANY.search(cond.group()))
        return (neg == unless), any_of
    duty = _MUST_LEAD.search(lead)
    if duty is not None and not _NEG.search(lead):
        return True, bool(_ANY.search(lead) or re.search(r"\beither\b", duty.group(), re.I))
    return None


def rule_list(q: Question, units: list[Unit]) -> RuleList | None:
    """The list the rule's sentence leads, with its polarity, else the list lead that says most
    of the question (`list_lead`); else None."""
    standing = rule_sentence(q, units)
    if standing is None:
        return None
    listed = _listed(standing)
    if listed is not None:
        return listed
    lead = list_lead(q, units)
    if lead is not None:
        return lead
    return None


def failed_bound(q: Question, units: list[Unit], situation: tuple[str, ...] | None = None) -> RuleList | None:
    """A sentence that says two of the question proper's telling words and states a bound the
    situation fails, outside any "if" or "when" (a case's bound is no requirement) ("A passenger ship is a vessel that carries more than 12 passengers" for "a
    10-seat passenger ferry … Does my boat qualify as a passenger ship?"), as the rule's one
    requirement; the one that says most of the question; None where none. ``situation``: the
    words the bound is settled against, else the user's situation (an unsituated question's own
    case: "Can I travel first class on a journey scheduled to take three hours?")."""
    want = _asked_words(q, units)
    best: tuple[int, RuleList] | None = None
    for u in units:
        for s in split_sentences(u.text):
            s = s.strip()
            if s.endswith(":") or _NEG.search(s) or _UNLESS.search(s) or _CASE.search(s):
                continue  # a case's bound ("File 2 returns if you traded for more than 12 months") is no requirement of what is asked
            score = len(want & {lemma(w) for w in keywords(s)})
            if score >= 2 and (best is None or score > best[0]) and settle_in_code(s, situation or q.situation) is False:
                best = (score, RuleList(Standing(u, s), (s,), True, listed=False))
    return best[1] if best is not None else None


def _listed(standing: Standing) -> RuleList | None:
    lead = standing.sentence.strip()
    if not lead.endswith(":"):
        return None
    items = _in_style(list_after(lead, standing.unit.text, most=MAX_LIST + 1))
    polarity = list_polarity(lead)
    if not items or len(items) > MAX_LIST or polarity is None:
        return None
    return RuleList(standing, tuple(items), *polarity)


_ACRONYM = re.compile(r"\b((?:[A-Z][a-z]+|[a-z]+)(?:\s+[a-z]+){1,4})\s+\(([A-Z]{2,6})\)")


def _asked_words(q: Question, units: list[Unit]) -> set[str]:
    """The question proper's telling words, with the acronym a passage defines for a phrase it
    says ("compulsory basic training" → "cbt")."""
    core = q.core or q.asked
    want = {lemma(w) for w in subject_words(core)}
    for u in units:
        for m in _ACRONYM.finditer(u.text):
            phrase = m[1].lower().split()
            if " ".join(phrase[-3:]) in core.lower() or " ".join(phrase) in core.lower():
                want.add(m[2].lower())
    return want


def list_lead(q: Question, units: list[Unit]) -> RuleList | None:
    """The rule list (a lead of known polarity, its items) that says most of the question proper:
    two of its telling words in the lead or its passage's headings, its items' words counting
    half, and up to three of the situation's words its items say ("passed", "moped"): the list
    the user's case is in; None where no list does."""
    want = _asked_words(q, units)
    case = {lemma(w) for w in subject_words(" ".join(q.situation))} - want
    best: tuple[float, RuleList] | None = None
    for u in units:
        head = {lemma(w) for w in keywords(heads(u))}
        for s in split_sentences(u.text):
            if not s.rstrip().endswith(":"):
                continue
            rule = _listed(Standing(u, s))
            if rule is None:
                continue
            own = {lemma(w) for w in keywords(s)}
            said = {lemma(w) for i in rule.items for w in keywords(i)}
            if len(want & (own | head)) < 2:
                continue
            score = len(want & (own | head)) + 0.5 * len((want & said) - own - head) + min(3, len(case & said))
            if best is None or score > best[0]:
                best = (score, rule)
    return best[1] if best is not None else None


def _in_style(items: list[str]) -> list[str]:
    """The list's items up to the first line that is not one: where the items open in lower case
    ("want to ride a moped …"), a line that opens in upper case is the page going on ("Book your
    course …", a heading)."""
    items = [i for i in items if i]
    if not items or not items[0][:1].islower():
        return items
    end = next((k for k, i in enumerate(items) if not i[:1].islower()), len(items))
    return items[:end]


def item_messages(q: Question, rule: RuleList, item: str) -> list[dict[str, str]]:
    """The small closed question one item is asked as."""
    lines = [  # the rule and the situation first, the item last: llama.cpp reuses the evaluated start from item to item
        f"Rule: {rule.standing.sentence.strip()}",
        "Situation: " + " ".join(q.situation),
        f"Item: {item}",
        "Does the situation show that this item is true of the person? Answer Yes, No or Unknown.",
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def _holds(llm, q: Question, rule: RuleList, item: str, method: str, calls: list[Completion]) -> tuple[str, str]:
    """("yes" / "no" / "unknown", how) of one item for the situation."""
    said = settle_in_code(item, q.situation)
    if said is not None:
        return ("yes" if said else "no"), "code"
    if llm is None or len(calls) >= MAX_ASKED or not rule.listed:
        return "unknown", ""
    c = llm.chat(
        item_messages(q, rule, item),
        stage="answer",
        method=method,
        max_tokens=4,
        sources=[rule.standing.unit.chunk_id],
        choices=["Yes", "No", "Unknown"],  # capitalised: the 1.5B answers "unknown" to every item offered lower case
    )
    calls.append(c)
    said = c.text.strip().lower()
    if said.startswith("yes") and not grounded(item, q.situation):  # a "yes" the user's words do not bear out
        return "unknown", "model"
    return ("yes" if said.startswith("yes") else "no" if said.startswith("no") else "unknown"), "model"


def grounded(item: str, situation: tuple[str, ...]) -> bool:
    """Whether the user's words say at least half of an item's telling words (the module doc):
    the 1.5B says "Yes" to items the situation only touches ("already getting payments from
    Student Finance England" for "I was a student who took out a loan")."""
    want = {lemma(w) for w in subject_words(item)}
    said = {lemma(w) for w in subject_words(" ".join(situation))}
    return bool(want) and 2 * len(want & said) >= len(want)


def asks_negated(q: Question) -> bool:
    """Whether the question asks that the rule not hold ("Is it true that a CBT is not needed?",
    "Can I ride without CBT?")."""
    return bool(_Q_NEG.search(q.core or q.asked))


_DUTY = re.compile(r"\b(?:have\s+to|has\s+to|need\s+to|needs\s+to|needed|required|necessary|must|obliged)\b", re.I)


def asks_other_side(q: Question, rule: RuleList) -> bool:
    """Whether the question asks the other side of a lead that lifts a duty: "You do not have to
    take CBT if you:" says what the user need not do; "Can I ride my moped?" asks what they may,
    which holds where the duty is lifted."""
    lead = rule.standing.sentence
    if re.search(r"\binstead\b", lead, re.I):  # "Use writing down allowances instead if:": the list says when the thing asked is not
        return True
    return not rule.requirements and bool(_NEG.search(lead) and _DUTY.search(lead)) and not _DUTY.search(q.core or q.asked)


def decide(llm, q: Question, units: list[Unit], *, method: str = "", pages: list[Unit] | None = None) -> Met | None:
    """The items of the rule ``q`` asks about decided for its situation (the module doc); None
    where they decide nothing (``llm`` None: code only). ``pages``: the retrieved passages whole
    (their lists one item a line, where the evidence read joins them), those of the documents
    ``units`` were read from; the list is looked for there."""
    if not q.rule:
        return None
    read = {u.doc_id for u in units}
    whole = [u for u in pages or [] if u.doc_id in read]
    if not q.situated:  # the question's own case ("a journey scheduled to take three hours"): a bound it fails, in code only
        bound = failed_bound(q, whole or units, (q.core,))
        return (
            Met("yes" if asks_negated(q) else "no", bound.items[0], "a bound the question's case fails, read by code", bound)
            if bound
            else None
        )
    calls: list[Completion] = []
    rule = rule_list(q, whole or units)
    met = _by_items(llm, q, rule, method, calls) if rule is not None else None
    if met is None or not met.answer:  # no list decided: a bound the situation fails
        bound = failed_bound(q, whole or units)
        if bound is not None:
            return Met("yes" if asks_negated(q) else "no", bound.items[0], "a bound the situation fails, read by code", bound, calls)
    return met


def _by_items(llm, q: Question, rule: RuleList, method: str, calls: list[Completion]) -> Met | None:
    flip = asks_negated(q) or asks_other_side(q, rule)

    def met(holds: bool, item: str, how: str) -> Met:
        answer = "yes" if holds != flip else "no"
        return Met(answer, item, f"the rule's listed {'requirement' if rule.requirements else 'exception'} read by {how}", rule, calls)

    seen = []
    for item in rule.items:
        said, how = _holds(llm, q, rule, item, method, calls)
        seen.append(said)
        if rule.requirements and not rule.any_of and said == "no":
            return met(False, item, how)
        if rule.requirements and rule.any_of and said == "yes":
            return met(True, item, how)
        if not rule.requirements and said == "yes":
            return met(False, item, how)
    if rule.requirements and rule.any_of and seen and all(s == "no" for s in seen):
        return met(False, rule.items[0] if len(rule.items) == 1 else "", "none of the rule's listed conditions read as met")
    if rule.requirements and len(rule.items) > 1 and seen and all(s == "yes" for s in seen) and not rule.any_of:
        return met(True, "", "each of the rule's listed requirements read as met")
    if calls:  # nothing decided: the calls are still spent (metered)
        return Met("", "", "", rule, calls)
    return None
