"""Step 2 of reading: `answer_question` runs a `ReadPlan` (plan.py) into an `Answer`: the model
call, or the comparison decided in code; the reply made a short answer (reply.py); its passage
numbers verified (citations.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..llm.metered import MeteredLLM
from ..types import Context, Unit
from .check import NOT_IN_DOCUMENTS, Check, check_answer, closest_sentences, unnamed, unsaid_alternative
from .citations import Citation, citation, parse_citations, verified_citations
from .clause import NUMBER_FOR_A_DESCRIPTION, asks_clause, number_for_description, whole_clause
from .conditions import rule_condition, rule_sentence, with_condition
from .conditions_met import decide
from .fragment import CUT_TO_ITS_HEAD, fragment, opening_word
from .kinds import fits
from .model_check import sentence_checker
from .outflow_rows import size_of_outgoing
from .plan import ReadPlan, plan_answer
from .polarity import outright
from .qualified import qualified
from .question import Question
from .quoted import Quote, held_to_documents, quotable
from .reply import (
    DO_NOT_KNOW,
    ECHOED,
    ECHOED_SEVERAL,
    RAN_ON,
    SHORT_WORDS,
    clean_answer,
    copied_example,
    counted,
    echoes,
    merged,
    named_option,
    narrow,
    rechoose,
    said_of,
    span_asked,
    words_before_aside,
)
from .restated import content, past_restatement
from .rule_check import read_rule
from .scaled import with_scale
from .several import LISTED, ROWS_LISTED, SEPARATOR, asks_several, items_read, not_the_asked, parts_of_sum, row_siblings
from .year_cell import in_column_named, in_year_asked


@dataclass
class Answer:
    question: str
    text: str
    """The answer as the model wrote it."""
    short: str
    """The answer with citation marks and trailing punctuation removed (what EM/F1 score)."""
    citations: list[Citation]
    context: Context
    """The units the model saw (the retrieved context cut to the answer budget and window)."""
    dropped_units: int
    """Units of the retrieved context the model did not read (said before the call)."""
    tokens: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cached: bool = False
    mode: str = "long"
    reason: str = ""
    """How the short answer was reached when it is not simply the model's reply: a comparison
    decided in code (compare.py), a reply that ran on, narrowed to one of its own candidates,
    or the chain of steps it was reached by (chain.py)."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    """A chain question answered hop by hop (chain.py): each step's phrase, question, answer and
    how it was found, the question finally read last."""
    full: str = ""
    """The short answer before it was cut to the span the question asks for (reply.py
    `shortest`: "Tampere, Finland" for "Which city …?"); empty when nothing was cut."""
    rules: list[dict[str, str]] = field(default_factory=list)
    """Each rule that changed the model's reply into the short answer, in order: ``rule``
    (``option``, ``ran on``, ``said of``, ``echo``, ``year``, ``place``, ``name``, and the
    check's ``kind``, ``subject``, ``said``, ``stands``, ``about``, ``asked``, ``model``), ``before`` and ``after``;
    benchmarks/answers.py counts the ones that turned a right answer wrong."""
    abstained: bool = False
    """The documents do not say (check.py): ``text`` is `NOT_IN_DOCUMENTS`, ``short`` is empty,
    nothing is cited as the answer's source; ``reason`` says why and ``closest`` what came closest."""
    closest: list[Citation] = field(default_factory=list)
    """The sentences read closest to the question (``how`` = ``closest``) when the answer was
    dropped, or the sentence a kept answer stands on (``how`` = ``stands on``)."""
    condition: str = ""
    """A yes or no about a rule: the rule's condition the answer holds under (conditions.py;
    ``text`` says "Yes, if …" / "No, unless …"), "" where the rule's sentence states none."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["context"] = self.context.to_dict()
        return d


def answer_question(
    llm: MeteredLLM,
    question: str,
    context: Context,
    *,
    mode: str = "auto",
    short: bool = False,
    budget: int | None = None,
    max_tokens: int = 256,
    on_text: Callable[[str], None] | None = None,
    plan: ReadPlan | None = None,
    check: bool = True,
    rule_check: bool = False,
    rule_items: bool = False,
    model_check: bool = False,
) -> Answer:
    """Answer ``question`` from ``context`` (``short=True`` is ``mode="short"``, kept for
    callers of the old signature); pass the ``plan`` that `plan_answer` made to reuse it.
    ``check`` (``Settings.answer_check``) puts a short answer through check.py: kept where the
    evidence read holds it for what was asked, else read again or dropped ("The documents do
    not say."). ``rule_check`` (``Settings.answer_rule_check``) asks the model once more, yes or
    no, of a rule's "yes" the check's polarity step made "no", from the rule's sentence and the
    user's situation alone (rule_check.py), where the user gave a situation. ``rule_items``
    (``Settings.answer_rule_items``) decides a rule's listed requirements or exceptions for the
    user's situation, item by item (conditions_met.py). ``model_check``
    (``Settings.answer_model_check``) asks the model, yes or no, whether the sentence a short
    answer read from prose stands on answers the question proper (model_check.py): "no" drops it."""
    t0 = time.perf_counter()
    if plan is None:
        plan = plan_answer(llm, question, context, mode="short" if short else mode, budget=budget, max_tokens=max_tokens)
    limit = max_tokens if plan.mode == "long" else min(max_tokens, 48)
    units = plan.units
    used = Context(query=context.query, method=context.method, budget=context.budget, units=units, notes=context.notes)
    if plan.decision is not None:
        return decided(plan, used, t0, on_text)
    typed = plan.asked  # the question read once (question.py): the hop's where hops were made in code
    missing = unnamed(typed, units) if check and plan.mode == "long" else None
    if missing is not None:  # "What does error code E-45 mean?" where nothing read names E-45: no model call
        return not_said(plan, used, t0, missing, on_text)
    held = check and (plan.mode != "long" or quotable(typed))  # shown once checked: never a guess, then its retraction
    c = llm.chat(
        plan.messages,
        stage="answer",
        method=context.method,
        max_tokens=limit,
        on_text=None if held else on_text,
        validate=lambda t: bool(t.strip()),
        sources=[u.chunk_id for u in units],
        choices=plan.choices,
    )
    text = c.text.strip()
    short_text = clean_answer(text)
    if plan.mode != "long" and copied_example(short_text, plan):
        text, short_text = DO_NOT_KNOW, ""
    reason, rules = "", []

    def rule(name: str, after: str) -> None:
        if after != short_text:
            rules.append({"rule": name, "before": short_text, "after": after})

    asked = typed.read_as  # the question proper, in the form asked: the situation's words are no answer's
    offered = list(typed.options) if typed.options is not None else None
    free = plan.mode == "short" and plan.choices is None
    if offered and plan.mode != "long":  # a choice: the option the reply names, and no rule replaces it
        named = named_option(short_text, offered)
        if named is not None:
            rule("option", named)
            short_text = named
        free = False
    listed = parts_of_sum(not_the_asked(items_read(text, units), asked), asked, units) if free and asks_several(asked) else []
    listed = listed if fits(SEPARATOR.join(listed), typed.kind) else []  # "What types …?" → "5,139; 1,424": the check reads it
    if len(listed) >= 2:  # "What are the …?": every item read, in the documents' words (several.py), not narrowed to one
        rule("list", SEPARATOR.join(listed))
        short_text, reason, free = SEPARATOR.join(listed), LISTED, False
    if free and number_for_description(short_text, asked):  # "39%" for "What was the reason for …?" (clause.py)
        rule("a number for a description", "")
        text, short_text, reason, free = DO_NOT_KNOW, "", NUMBER_FOR_A_DESCRIPTION, False
    if free and asks_clause(asked):  # a description: the documents' whole clause, never cut to a name (clause.py)
        said = past_restatement(whole_clause(short_text, units), asked)  # as the documents say it, not the question said back
        rule("clause", said)
        short_text, free = said, False
    if free and words_before_aside(short_text) > SHORT_WORDS:
        narrowed = narrow(llm, plan, short_text, context.method, limit)
        if narrowed is not None and opening_word(narrowed.text.strip(), short_text, [u.text for u in units]):
            c = merged(c, narrowed)  # "Sale" of "Sale of commercial investment property …": a head word, no name (fragment.py)
            rule("ran on", "")
            text, short_text, reason, free = DO_NOT_KNOW, "", CUT_TO_ITS_HEAD, False
        elif narrowed is not None:
            c = merged(c, narrowed)
            rule("ran on", narrowed.text.strip())
            short_text, reason = narrowed.text.strip(), RAN_ON
    if free:
        said = said_of(short_text, asked)
        rule("said of", said)
        short_text = said
    if free and echoes(short_text, asked) and asks_several(asked):  # several things asked: no one name answers, nor the question's words
        rule("echo", "")
        text, short_text, reason, free = DO_NOT_KNOW, "", ECHOED_SEVERAL, False
    if free and echoes(short_text, asked):
        again = rechoose(llm, plan, context.method, limit)
        if again is not None:
            c = merged(c, again)
            rule("echo", again.text.strip())
            short_text, reason = again.text.strip(), ECHOED
    full = ""
    if free:
        trimmed, why = span_asked(short_text, asked, [u.text for u in units], [u.title for u in units])
        if trimmed != short_text:
            rule(why, trimmed)
            full, short_text = short_text, trimmed
    if free:
        numbered = counted(short_text, asked, [u.text for u in units])
        rule("counted", numbered)
        short_text = numbered
        whole = qualified(short_text, asked, [u.text for u in units])  # "… at your local council" (qualified.py)
        rule("qualified", whole)
        short_text = whole
    moved = (in_year_asked(short_text, asked, units) or in_column_named(short_text, asked, units)) if free else None
    if moved is not None:  # the row the model read, in the column of the year or the column asked (year_cell.py)
        rule("column", moved.answer)
        text, short_text, reason = moved.answer, moved.answer, moved.why
    beside = row_siblings(short_text, asked, units) if free and len(listed) < 2 and asks_several(asked) else []
    checked, closest = None, []
    an_option = bool(offered) and short_text in offered and short_text.lower() not in ("yes", "no")
    if check and an_option and (unsaid := unsaid_alternative(short_text, typed, units)) is not None:
        checked, an_option = unsaid, False  # the user's own phrase, said by no sentence read (check.py)
        rule(unsaid.step, "")
        short_text, reason = "", unsaid.why
        closest = [stood(s, units, "closest") for s in unsaid.closest]
    if (
        check and plan.mode != "long" and not an_option and len(listed) < 2 and checked is None
    ):  # a list's items are each held by a passage read  # an option the question offers is its answer (issue #49)
        sources = [u.chunk_id for u in units]

        def reread(options: list[str]):
            return llm.chat(plan.messages, stage="answer", method=context.method, max_tokens=limit, sources=sources, choices=options)

        confirm = sentence_checker(llm, typed.core, method=context.method) if model_check and moved is None else None
        checked = check_answer(short_text, text, typed, units, reread=reread, confirm=confirm, case_page=case_page_of(context, typed))
        if checked.reread is not None:
            c = merged(c, checked.reread)
        if checked.confirmed is not None:
            c = merged(c, checked.confirmed)
        if confirm is not None and confirm.probed is not None:  # the model check's probe, made by this answer
            c = merged(c, confirm.probed)
        if checked.step:
            rule(checked.step, checked.short)
            reason = "; ".join(x for x in (reason, checked.why) if x)
        if beside and not checked.abstained and checked.short == short_text:  # one table row's label, held, for a question
            rule("rows", SEPARATOR.join(beside))  # asking several: the rows beside it too (several.py)
            checked.short, reason = SEPARATOR.join(beside), "; ".join(x for x in (reason, ROWS_LISTED) if x)
        short_text = checked.short
        closest = [stood(s, units, "closest" if checked.abstained else "stands on") for s in checked.closest]
    if checked is None and beside:  # unchecked: the one label widened as it stands
        rule("rows", SEPARATOR.join(beside))
        short_text, reason = SEPARATOR.join(beside), ROWS_LISTED
    condition = met = None
    if checked is not None and not checked.abstained and typed.rule and short_text.lower() in ("yes", "no"):
        second = (  # the code's 'not' read again by the model, where the sentence's no has a case the situation may decide
            rule_check and typed.situated and checked.step == "polarity" and not outright(checked.negated)
        )
        standing = rule_sentence(typed, units) if second else None
        if standing is not None:  # the rule's sentence read for the user's situation, yes or no
            reading, again = read_rule(llm, typed, standing, method=context.method)
            c = merged(c, again)
            if reading.answer != short_text.lower():
                rule("rule", reading.answer)
                text = short_text = reading.answer
        met = decide(llm, typed, units, method=context.method, pages=context.units) if rule_items else None  # the rule's list, item by item
        for call in met.calls if met is not None else []:
            c = merged(c, call)
        if met is not None and met.answer:
            rule("items", met.answer)
            short_text, reason = met.answer, "; ".join(x for x in (reason, met.why) if x)
        condition = rule_condition(typed, units) if met is None or not met.answer else None  # "Can I …?": and the case it holds in
    if checked is not None and checked.abstained:
        text, citations = NOT_IN_DOCUMENTS, []
    elif met is not None and met.answer:
        n = next((i for i, u in enumerate(units, 1) if u.chunk_id == met.rule.standing.unit.chunk_id), 0)
        text, citations = met.text(n), [citation(n, met.rule.standing.unit, "cited")] if n else []
        closest = [stood(met.rule.standing, units, "stands on")]
    elif condition is not None:
        n = next((i for i, u in enumerate(units, 1) if u.chunk_id == condition.standing.unit.chunk_id), 0)
        text = with_condition(short_text, condition, n, typed)
        citations = [citation(n, condition.standing.unit, "cited")] if n else []
        closest = [stood(condition.standing, units, "stands on")]
        rules.append({"rule": "condition", "before": short_text, "after": text})
    else:
        if checked is not None and checked.step:  # the check changed the answer: the text says the new one
            text = short_text
        checkable = plan.mode != "long" or len(short_text.split()) <= SHORT_WORDS
        citations = verified_citations(parse_citations(text, units), units, short_text if checkable else None)
        if plan.mode != "long":  # "4,779" read from a table in thousands is 4,779 thousand (scaled.py), once its citations are verified
            sized = size_of_outgoing(short_text, question, [(u.chunk_id, u.text) for u in units])  # "-27,442" paid: 27,442
            rule("size", sized)
            short_text = sized
            scaled = with_scale(short_text, units, question)
            rule("scale", scaled)
            short_text = scaled
        else:  # a long reply's short answer is what follows its restatement of the question (restated.py)
            kept, why = content(short_text, text, typed)
            rule(why, kept)
            short_text = kept
            if check and quotable(typed):  # … said in the documents' own words, the sentence cited (quoted.py)
                held_to = held_to_documents(short_text, text, typed, units, case_page=case_page_of(context, typed))
                if isinstance(held_to, Check):
                    rule(held_to.step, "")
                    checked, text, short_text, citations = held_to, NOT_IN_DOCUMENTS, "", []
                    reason = "; ".join(x for x in (reason, held_to.why) if x)
                    closest = [stood(s, units, "closest") for s in held_to.closest]
                else:
                    rule("quoted", held_to.said)
                    short_text = held_to.said
                    said_as = f"in the documents' own words: {held_to.standing.unit.title or held_to.standing.unit.doc_id}"
                    reason = "; ".join(x for x in (reason, said_as) if x)  # the CLI and chat footers show the short answer so
                    citations = quoted_citations(held_to, text, units)
                    closest = [stood(held_to.standing, units, "stands on")]
            cut = fragment(short_text, typed.core) if check and short_text and not (checked is not None and checked.abstained) else ""
            if cut:  # "Or EPS, is calculated by …": the restatement cut mid-phrase (fragment.py)
                rule("fragment", "")
                checked = Check("", abstained=True, step="fragment", why=cut, closest=closest_sentences(typed.core, units))
                text, short_text, citations = NOT_IN_DOCUMENTS, "", []
                reason = "; ".join(x for x in (reason, cut) if x)
                closest = [stood(s, units, "closest") for s in checked.closest]
    if held and on_text is not None:
        on_text(text)
    return Answer(
        question=question,
        text=text,
        short=short_text,
        citations=citations,
        context=used,
        dropped_units=plan.left_out,
        tokens=c.account(),
        seconds=time.perf_counter() - t0,
        cached=c.cached,
        mode=plan.mode,
        reason=reason,
        full=full,
        rules=rules,
        abstained=checked is not None and checked.abstained,
        closest=closest,
        condition=condition.clause if condition is not None else "",
    )


def case_page_of(context: Context, typed: Question) -> str:
    """The page the whole question, the user's situation with it, retrieves first: their case's
    (check.py, the ``page`` step); "" for a question with no situation."""
    return context.units[0].doc_id if context.units and typed.situated else ""


def quoted_citations(held: Quote, text: str, units: list[Unit]) -> list[Citation]:
    """A long answer's citations once its claim is quoted (quoted.py): the quoted sentence's
    passage first (``cited`` where the model cited it, else ``matched``), then the other passages
    the model cited, which no longer hold the short answer (``unverified``)."""
    cited = parse_citations(text, units)
    n = next((i for i, u in enumerate(units, 1) if u.chunk_id == held.standing.unit.chunk_id), 0)
    first = (
        [replace(citation(n, units[n - 1], "cited" if n in cited else "matched", held.said), sentence=held.standing.sentence)] if n else []
    )
    return first + [citation(m, units[m - 1], "unverified") for m in cited if m != n]


def stood(s, units: list[Unit], how: str) -> Citation:
    """A sentence read (check.py `Standing`) as a citation of its passage, ``how`` it is named."""
    n = next((i for i, u in enumerate(units, 1) if u.chunk_id == s.unit.chunk_id), 0)
    return replace(citation(n, s.unit, how, s.sentence), sentence=s.sentence)


def not_said(plan: ReadPlan, used: Context, t0: float, checked: Check, on_text: Callable[[str], None] | None = None) -> Answer:
    """The documents do not say, decided before any model call (check.py `unnamed`)."""
    closest = [stood(s, used.units, "closest") for s in checked.closest]
    rules = [{"rule": checked.step, "before": "", "after": ""}]
    return _without_model(plan, used, t0, NOT_IN_DOCUMENTS, "", [], checked.why, on_text, rules=rules, abstained=True, closest=closest)


def decided(plan: ReadPlan, used: Context, t0: float, on_text: Callable[[str], None] | None = None) -> Answer:
    """The answer of a comparison decided in code: every passage it read is cited."""
    d = plan.decision
    cited = [citation(n, u, "cited") for n, u in enumerate(plan.units, 1)]
    short, reason = d.answer, d.reason
    if d.kind == "table":  # a table's row read in code: in the year asked (year_cell.py), "9.4" is 9.4 million (scaled.py)
        moved = in_year_asked(short, plan.asked.read_as, plan.units)
        if moved is not None:
            short, reason = moved.answer, f"{reason}; {moved.why}"
        short = with_scale(short, plan.units, plan.question)
    return _without_model(plan, used, t0, d.text if d.text and d.text != d.answer else short, short, cited, reason, on_text)


def _without_model(plan, used, t0, text, short, citations, reason, on_text, **more) -> Answer:
    """An answer no model call wrote (decided in code, or not said), streamed whole."""
    if on_text is not None:
        on_text(text)
    return Answer(
        question=plan.question,
        text=text,
        short=short,
        citations=citations,
        context=used,
        dropped_units=plan.left_out,
        tokens={"input": 0, "output": 0, "evaluated": 0, "cached_input": 0, "cached_output": 0},
        seconds=time.perf_counter() - t0,
        mode=plan.mode,
        reason=reason,
        **more,
    )
