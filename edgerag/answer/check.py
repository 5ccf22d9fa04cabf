"""Step 3 of reading, the check: a short answer is kept only where the evidence read holds it
for what was asked, else it is read again among the right answers or dropped, and the answer
says "The documents do not say." (issue #56, items 3, 4 and 7).

A small model answers every question, held or not, and each wrong answer still carries a
checked citation: the passage holds the words, just not for this question. So each short
answer the model wrote goes through these typed steps, in order; the first that fails decides:

The question comes typed (question.py): every step reads its question proper (``core``) and
its ``names``, never the user's situation: a user's town, employer or month is theirs, and the
documents will not name it (issue #62).

1. ``said``: the model said it does not know, or wrote nothing → not in the documents.
   ``derived`` (derived.py): a number the question asks computed, or a choice by size ("Which
   segment had the largest …?"), that code did not make: not in the documents unless a sentence says it.
   ``form``: a yes/no question answered neither yes nor no (a passage number and a heading) is
   read again between its options; none → not in the documents. A question offering
   alternatives ("Will I need a new card, or can I update it online?", form.py) answered yes or
   no is answered by the alternative the reply names, else read again between them.
2. ``kind`` (kinds.py): a reply of the wrong kind made of the question's own words ("What
   position did Ana Ruiz take?" → "Ana Ruiz", "Is there a time limit …?" → "Yes, there is a time
   limit"), or its own subject ("Which firm audits the Institute's accounts?" → the Institute), is
   read again, held to the answers of the right kind the evidence holds (closed choices); a reply
   of the wrong kind that says something else ("a legally enforceable right …" for "When …?") is
   not in the documents (read again, all 7 such replies measured were made wrong: TAT-QA 5, ConditionalQA 2).
3. ``stands`` (binding.py `stands_on`): a sentence read holds the answer; none → not in the
   documents (the model made it up, or took it from the question; a sentence restated in other
   words was tried as standing: 3 wrong let through on TAT-QA for 1 kept on ConditionalQA). An
   alternative the question offers ("… one sum or instalments?") is the user's own phrase: it
   too must stand on a sentence read (`unsaid_alternative`), however it was chosen.
4. ``about`` (binding.py `about`), for a question asked of its subject itself ("In what year did
   X marry?", not "the city where X died": `bridge_question`): that sentence is bound to the
   question's subject (it names it, or is in its passage); none → not in the documents, the
   sentences that hold the answer named as the closest read. A bridge question read whole is
   not held to it: its answer stands where the chain of passages leads (measured on the dev
   splits, benchmarks/check_gold.py). A one-word name asked after "the" ("the LPA", binding.py
   `house_name`) is said by the sentence's page, where another page read says it (a septic tank
   permit's "within 13 weeks" is no planning authority's time).
5. ``asked`` (asked.py `says_what_was_asked`), for the same questions: the sentence says what was asked, not only something
   of the same subject: a year the question names is in it or its passage; a date answers only
   where the sentence says the event asked ("joined", "founded"), a life in parentheses, or a
   thing's year as what it is; a count speaks of what "how many" counts (listed.py
   `counted`: not the staff list for "How many doctoral students …?"); a year's range ("the 2026-27
   price list") is read as a range or both its years; a person asked by a role ("Who is the
   Director of X?") stands where the role is named, not on a CV's "Head of Catchment Science, X",
   and in a list of people in their own item ("A (Chair), B, C (Director)": C, not B);
   a figure's word qualifying what the sentence speaks of ("the power of the *violet* laser" over
   a blue and a red one) is read somewhere (asked.py `unread_qualifier`), and a figure off a table's
   row is of a row or column the question names (`unnamed_row`); a figure's thing, by its head
   noun ("the net interest *margin*"), is named somewhere read (thing_asked.py); none → not in
   the documents.
   ``model`` (model_check.py, ``answer_model_check``), for the same questions: the model asked, in
   one short call constrained to yes or no, whether the sentence the answer stands on (under its
   passage's heading, after the two before it) answers the question proper; each in turn until
   one does; none → not in the documents. Not asked of a table's row line (bound in code), nor of
   a question pinning its thing by a clause ("a film starring …": binding.py `through_a_clause`).
6. ``page``, for a question that describes the user's situation: the sentence is on the page
   retrieval ranks first for the whole question, situation and all (``case_page``): guidance
   gives each process its page, and a time, a body or a sum read from another page is another
   process's ("within 13 weeks" of a septic-tank permit for an asylum decision; a solicitor's
   bill's £335 for an exam review). On ConditionalQA the 7 short answers read from another page
   were all wrong, the 48 right ones all on the first; a yes or no is not held to it (4 right of 6).
7. ``case`` (cases.py `in_case`): a value the guidance gives case by case (a table's rows by a
   band of money or dates, "£11,222 if your course started between …", a ladder of years of
   service), where the user's own words state a sum, a date or a length of time: the value of the
   case it falls in, else not in the documents; a value given per category ("9% … for Plan 2",
   "6% … for Postgraduate loans"), where the user's words name one category: its value
   (category_case.py `in_category`).
8. ``subject`` (list_value.py `bound_value`, `year_value`): in a list of numbers for several subjects
   or years, the number of the question's subject or year replaces another item's. ``which year`` (year_cell.py `year_of_size`): a
   year chosen by size ("In which year was X larger?") is the one the row or sentence read says.

A long answer (a summary, an explanation) is held to one step here, before the model writes it
(``unnamed``): each name the question gives is named by something read. Once written, a long
answer to what to do or what happens ("How can I challenge the bill?") is said in the
documents' own words: the sentence read its claim restates, cited, else not in the documents
(quoted.py, read.py).

A chain question's reads (chain.py) are not checked: a step's answer feeds the next hop, and a
checked first step that dropped "K-17 valve" ended a chain the real model answers right. A "yes" is checked side by side instead (``sides``, sides.py): kept where each side the question
names holds, else "no" or not in the documents; then against its sentence (``polarity``,
polarity.py): a "yes" whose sentence says "not", "only" or "except" of what was asked is a "no". A comparison, a table's column or a
lifespan decided in code is held by construction. An abstained answer cites nothing as its source:
the sentences it read closest to the question are its ``closest``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..llm.local import Completion
from ..text.keywords import keywords
from ..text.linkkeys import capitalised_runs
from ..text.rows import parse_row, row_spans
from ..text.sentences import split_sentences
from ..types import Unit
from .asked import another_part, other_period, role_bound, says_what_was_asked, unnamed_row, unplanned, unread_qualifier
from .binding import (
    Standing,
    about,
    before,
    bridge_question,
    heads,
    lemma,
    names_in,
    question_names,
    stands_on,
    subject_words,
    through_a_clause,
)
from .candidates import candidates
from .cases import in_case
from .category_case import in_category
from .derived import underived, unranked
from .form import affirmed
from .fragment import fragment
from .kinds import ROLE_WORDS, fits, fits_measure, of_kind
from .list_value import bound_value, year_value
from .listed import counted, says_counted
from .model_check import MODEL_CHECKS, checkable, confirmed_by, said_no
from .polarity import says_no
from .question import Question, as_question
from .sides import each_side
from .thing_asked import row_named, unread_thing
from .year_cell import year_of_size

NOT_IN_DOCUMENTS = "The documents do not say."
SAYS_UNKNOWN = re.compile(
    r"^\s*(?:i (?:do not|don't|cannot|can't) (?:know|tell|find|say)|unknown|not (?:mentioned|stated|given|known|specified|found)|"
    r"(?:the )?(?:passages?|documents?|text|context) (?:do(?:es)? not|don't|doesn't) (?:say|state|mention|contain|specify)|"
    r"no (?:information|answer|mention)|none|n/?a)\b",
    re.I,
)
"""A reply that says the model found no answer ("I do not know", "The passages do not say")."""
_ROLE_MODIFIERS = (
    "senior|junior|deputy|assistant|associate|chief|head|vice|acting|interim|principal|lead|research|managing|executive|general|"
    "technical|financial|operations|project|programme|program|lab|laboratory|safety|quality|data|protection|health|it|hr"
)
_ROLE_WORD = "|".join(sorted(ROLE_WORDS, key=len, reverse=True))
_ROLE_PHRASE = re.compile(
    rf"(?:(?:(?i:{_ROLE_MODIFIERS})|[A-Z][a-z]+)\s+){{0,3}}\b(?i:{_ROLE_WORD})s?\b"
    rf"(?:\s+(?:of|for)\s+(?:the\s+)?[A-Z][\w&-]*(?:\s+(?:and\s+|&\s+)?[A-Z][\w&-]*)*)?"
)


@dataclass
class Check:
    """What the check made of a short answer (the module doc)."""

    short: str
    """The answer kept ("" when abstained)."""
    abstained: bool = False
    step: str = ""
    """The step that changed or dropped the answer (``said``, ``fragment``, ``form``, ``kind``, ``stands``, ``about``, ``asked``, ``model``, ``page``, ``case``, ``subject``, ``sides``, ``polarity``), "" when kept as is."""
    why: str = ""
    """One line for a person: why the answer was changed or dropped."""
    closest: list[Standing] = field(default_factory=list)
    """The sentences read that came closest (those holding the answer, else those sharing most words with the question)."""
    reread: Completion | None = None
    """The completion of a read again among right-kind answers (its tokens join the answer's)."""
    negated: str = ""
    """The sentence the polarity step read as a no ("" where it made none)."""
    confirmed: Completion | None = None
    """The model check's yes or no (model_check.py; its tokens join the answer's), None when not asked."""


def role_phrases(texts: list[str]) -> list[str]:
    """The role phrases of ``texts`` ("Head of Finance", "deputy director", "senior research fellow")."""
    out: dict[str, None] = {}
    for t in texts:
        for m in _ROLE_PHRASE.finditer(t):
            phrase = m.group().strip()
            if any(w.lower().strip(".,") in ROLE_WORDS for w in phrase.split()):
                out.setdefault(phrase, None)
    return list(out)


def right_kind(kind: str, units: list[Unit], asked: str, names: list[str] | None = None) -> list[str]:
    """The answers of ``kind`` the passages read hold, for a read again (closed choices)."""
    texts = [u.text for u in units]
    if kind == "role":
        found = role_phrases(texts)
    else:
        found = [c for c in candidates(texts, asked) if c.lower() not in ("yes", "no")]
    asked_key = asked.lower()
    return [c for c in of_kind(found, kind) if c.lower() not in asked_key and not is_the_subject(c, asked, kind, names)]


def is_the_subject(short: str, asked: str, kind: str, names: list[str] | None = None) -> bool:
    """Whether a name answered is the question's own subject ("Which firm audits the Institute's
    accounts?" → "Brackenridge Institute for Freshwater Science"): a name the question names,
    and no other name beside it, where the question offers no choice between names."""
    if kind not in ("person", "org", "place") or re.search(r"\bor\b", asked):
        return False  # "Which ends later, A or B?" answers with a name it asks of
    runs = capitalised_runs(short)
    names = question_names(asked) if names is None else names
    return len(runs) == 1 and any(names_in(n, runs[0], surname=False) for n in names)


def closest_sentences(question: str, units: list[Unit], k: int = 2) -> list[Standing]:
    """The ``k`` sentences of ``units`` sharing most content words with ``question``."""
    want = {lemma(w) for w in subject_words(question)}
    scored = []
    for rank, u in enumerate(units):
        for s in split_sentences(u.text):
            score = len(want & {lemma(w) for w in keywords(s)})
            if score:
                scored.append((-score, rank, Standing(u, s)))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [s for _, _, s in scored[:k]]


def dropped(
    step: str, why: str, question: str, units: list[Unit], closest: list[Standing] | None = None, reread=None, confirmed=None
) -> Check:
    """An abstention: nothing kept, the closest sentences read named."""
    return Check(
        "", abstained=True, step=step, why=why, closest=closest or closest_sentences(question, units), reread=reread, confirmed=confirmed
    )


def unnamed(asked: str | Question, units: list[Unit]) -> Check | None:
    """A long answer's check, before the model writes it: a name the question gives ("error
    code E-45", "Tarn Otter") that nothing read names is asked of something the documents do not
    hold; None when every name is read (a long answer's sentences are its own, not checked). The
    names are the question proper's, not the user's own (question.py): a user's town is theirs."""
    q = as_question(asked)
    missing = [n for n in q.names if not any(names_in(n, u.text) or names_in(n, u.title) for u in units)]
    if not missing:
        return None
    return dropped("about", f"nothing read names {' or '.join(missing)}", q.core, units)


def check_answer(
    short: str,
    reply: str,
    asked: str | Question,
    units: list[Unit],
    reread: Callable[[list[str]], Completion | None] | None = None,
    confirm: Callable[[Standing, str], Completion | None] | None = None,
    case_page: str = "",
) -> Check:
    """The check of ``short`` (the model's ``reply`` made a short answer) to the question ``asked``
    (typed once, question.py: the check holds the reading to its question proper, ``core``, and
    its ``names``, never to the user's situation) over the ``units`` read (the module doc).
    ``reread(options)`` asks the model again with its output held to ``options`` (its
    completion; None: not asked). ``confirm(standing, short)`` asks the model whether the sentence a
    prose answer stands on answers the question proper, yes or no (model_check.py, the ``model``
    step; None: not asked). ``case_page`` is the document retrieval ranked first for the whole
    question, the user's situation with it (the ``page`` step; "": not held to one)."""
    q = as_question(asked)
    core, names = q.core, list(q.names)
    if not short.strip() or SAYS_UNKNOWN.match(short) or SAYS_UNKNOWN.match(reply):
        return dropped("said", "the model found no answer in what it read", core, units)
    if cut := fragment(short, core):  # fragment.py: "Bonds" for "What is included in …?", "Share Incentive Plan In"
        return dropped("fragment", cut, core, units)
    if q.alternatives is not None and q.kind != "yes-no" and (named := affirmed(short, q.alternatives)) is not None:
        return _alternative(short, named, q, core, units, reread)
    if not_computed := underived(short, core, units) or unranked(short, core, units):  # derived.py: sums and choices by size
        return dropped("derived", not_computed, core, units)
    kind = q.kind
    step = why = ""
    completion = None
    if kind == "yes-no" and short.lower().rstrip(".!") not in ("yes", "no"):  # a yes/no answered with a heading, a passage number
        options = list(q.options or ("yes", "no"))
        completion = reread(options) if reread is not None else None
        again = completion.text.strip() if completion is not None else ""
        if again.lower() not in {o.lower() for o in options} | {"yes", "no"}:
            return dropped("form", f"the question asks yes or no; '{short}' is neither", core, units, reread=completion)
        step, why, short = "form", f"the question asks yes or no; '{short}' is neither: read again between them", again
    elif kind != "yes-no" and (not fits(short, kind) or not fits_measure(short, core) or is_the_subject(short, core, kind, names)):
        if {lemma(w) for w in keywords(short)} - {lemma(w) for w in keywords(core)} - {"yes", "no"}:  # it read something else: no guess
            return dropped("kind", f"the question asks for a {kind}; '{short}' is none", core, units)
        options = [o for o in right_kind(kind, units, core, names) if fits_measure(o, core)]
        completion = reread(options) if options and reread is not None else None
        again = completion.text.strip() if completion is not None else ""
        if not fits(again, kind) or not fits_measure(again, core):
            return dropped(
                "kind", f"the question asks for a {kind}; '{short}' is none, and what was read holds none", core, units, reread=completion
            )
        step, why, short = "kind", f"the question asks for a {kind}; '{short}' is none: read again among {len(options)} of that kind", again
    if kind == "yes-no" or short.lower() in ("yes", "no"):
        held = each_side(core, units, names) if short.lower() == "yes" else None
        if held is not None and held[0] == "":
            return dropped("sides", held[1], core, units)
        if held is not None and held[0] != "yes":
            step, why, short = "sides", held[1], held[0]
        no = says_no(core, units, names, rule=q.rule) if short.lower() == "yes" else None
        if no is not None:
            step, why, short = "polarity", no[1], "no"
        return Check(short, step=step, why=why, reread=completion, negated=no[0] if no is not None else "")
    standing = stands_on(short, units)
    if not standing:
        return dropped("stands", f"no sentence read holds '{short}'", core, units)
    bound, confirmed = standing, None
    if not bridge_question(core):  # asked of its subject itself (a bridge read whole may stand anywhere it links to)
        bound = [s for s in standing if about(s, core, units, names)]
        if not bound and q.situated and not names:  # a question naming nothing: the situation says which case it asks of
            bound = [s for s in standing if about(s, q.text, units, [])]
        if not bound:
            return dropped("about", f"the sentences that hold '{short}' are not about what was asked", core, units, standing[:2])
        figure = any(c.isdigit() for c in short)  # a figure asked of a kind of thing (asked.py `unread_qualifier`)
        reported = any(row_spans(u.text) for u in units)  # a report's figures: guidance prose says a price its own way
        if (
            figure and reported and (thing := unread_thing(core, units)) and not any(row_named(core, s.sentence) for s in bound)
        ):  # thing_asked.py: "the net interest margin" where nothing says "margin"
            return dropped(
                "asked", f"nothing read names the {thing} asked; '{short}' is a figure of something else", core, units, bound[:2]
            )
        count = counted(core) if kind == "number" else None  # "How many doctoral students …?" is not the staff list
        said = [
            s
            for s in bound
            if says_what_was_asked(s, core, kind, units, short)
            and (not count or says_counted(count, f"{heads(s.unit)} {before(s.sentence, s.unit.text)} {s.sentence}", short))
            and not (figure and unread_qualifier(core, s.sentence, units))  # "the violet laser": a blue and a red one read
            and not (figure and unnamed_row(core, s.sentence, short, heads(s.unit)))  # another thing's row: "Interest and other income"
            and not (figure and other_period(core, s.sentence, short))  # another quarter's or half's column: "H1 2024" for Q2
            and not (figure and unplanned(core, s.sentence, short))  # an actual for "What did the company target?"
            and not (figure and another_part(core, names, s.sentence, short, units, heads(s.unit)))  # the group's EBITDA for a terminal's
            and (kind != "person" or role_bound(core, short, s))  # "Who is the Director?": not a CV's "Head of …"
        ]
        if not said:
            return dropped("asked", f"the sentences that hold '{short}' do not say what was asked", core, units, bound[:2])
        bound = said
        one_sentence = confirm is not None and not through_a_clause(core)  # a thing pinned by a clause is read across sentences
        asked_of = [s for s in bound if checkable(s)][:MODEL_CHECKS] if one_sentence else []
        confirmed = confirmed_by(confirm, asked_of, short)  # model_check.py: each in turn until the model says yes
        if said_no(confirmed):  # the model reads each as answering something else
            why = f"the model reads the sentence that holds '{short}' as not answering what was asked"
            return dropped("model", why, core, units, asked_of[:1], completion, confirmed)
    if case_page and q.situated:  # the user's case is the page their words find first, not another's (the ``page`` step)
        own = [s for s in bound if s.unit.doc_id == case_page]
        if not own:
            return dropped("page", another_case(short), core, units, bound[:1], completion, confirmed)
        bound = own
    case = in_case(short, bound, q)  # cases.py: a value given case by case, in the case the user's words put them
    if case is not None and not case.value:
        return dropped("case", case.why, core, units, bound[:1], completion, confirmed)
    if case is not None:
        return Check(case.value, step="case", why=case.why, closest=bound[:1], reread=completion, confirmed=confirmed)
    named = in_category(short, bound, q)  # category_case.py: a value per category, the one the user's words name
    if named is not None:
        why = f"'{short}' is another category's; the user's words name {named.category}: {named.value}"
        return Check(named.value, step="case", why=why, closest=bound[:1], reread=completion, confirmed=confirmed)
    row = parse_row(bound[0].sentence)  # a row is bound in code; a year chosen by size is the one its values say (year_cell.py)
    value = bound_value(short, bound[0].sentence, core, units, bound[0].unit) if kind == "number" and not row else None
    value = value or (year_value(short, bound[0].sentence, core) if kind == "number" and not row else None)  # a year's own amount
    sized = year_of_size(short, bound[0].sentence, core, bound[0].unit.text) if kind == "year" else None
    if value is not None:
        step, why, short = "subject", f"'{short}' belongs to another item or year of the list; the asked one's is {value}", value
    elif sized is not None:
        step, why, short = "which year", sized.why, sized.answer
    return Check(short, step=step, why=why, closest=bound[:1], reread=completion, confirmed=confirmed)


def another_case(short: str) -> str:
    return f"the user's case is read from the page their words find first; '{short}' is another page's"


def off_case_page(standing: Standing, short: str, q: Question, case_page: str, units: list[Unit]) -> Check | None:
    """The ``page`` step for a long answer's one sentence (quoted.py): not in the documents where
    the question describes the user's situation and the sentence is not on ``case_page``."""
    if not case_page or not q.situated or standing.unit.doc_id == case_page:
        return None
    return dropped("page", another_case(short), q.core, units, [standing])


def _alternative(short: str, named: str, q: Question, core: str, units: list[Unit], reread) -> Check:
    """A yes or no to a question of alternatives (form.py `affirmed`): the alternative the reply
    names, else the one the model chooses when read again between them; neither → not in the
    documents."""
    why = f"the question asks which of {' or '.join(q.alternatives.options)}; '{short}' says yes or no"
    if named:
        return unsaid_alternative(named, q, units) or Check(named, step="form", why=f"{why}: it names one")
    options = list(q.alternatives.options)
    completion = reread(options) if reread is not None else None
    again = completion.text.strip() if completion is not None else ""
    chosen = next((o for o in options if o.lower() == again.lower()), None)
    if chosen is None:
        return dropped("form", f"{why}, and names neither", core, units, reread=completion)
    unsaid = unsaid_alternative(chosen, q, units)
    if unsaid is not None:
        unsaid.reread = completion
        return unsaid
    return Check(chosen, step="form", why=f"{why}: read again between them", reread=completion)


def says_phrase(phrase: str, units: list[Unit]) -> bool:
    """Whether one sentence of ``units`` says ``phrase`` word for word, or every content word of
    it ("update my address online" in "You can update your address online")."""
    if stands_on(phrase, units):
        return True
    want = {lemma(w) for w in keywords(phrase)}
    return bool(want) and any(want <= {lemma(w) for w in keywords(s)} for u in units for s in split_sentences(u.text))


def unsaid_alternative(chosen: str, q: Question, units: list[Unit]) -> Check | None:
    """The ``stands`` step for a question of alternatives ("Will I be paid as one sum or in
    instalments?", "Will I need a new BRP, or can I update the address online?"; form.py): the
    alternative chosen is the user's own phrase, so it is kept only where a sentence read says
    it (word for word, or every content word of it: `says_phrase`); none → not in the documents
    (None: it stands). The model picks one of two phrases it was handed whether or not the page
    says either: of ConditionalQA's six such questions, the four it answered with a phrase no
    sentence read says were all wrong."""
    if q.alternatives is None or says_phrase(chosen, units):
        return None
    return dropped(
        "stands", f"the question asks which of {' or '.join(q.alternatives.options)}; no sentence read says '{chosen}'", q.core, units
    )
