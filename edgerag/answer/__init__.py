"""Context + question → an answer with citations, from the local model: the reader.

One module per step of the path:

    question + context
      question.py    the question read once, typed (`read_question` → `Question`): the user's
                     situation apart from the question proper ("I work in Leeds. Can I …?"), its
                     kind, options, years, its names and the user's own; made by the plan and
                     handed to the read, the reply's rules and the check
        form.py      the form asked beyond the first word: alternatives ("… one payment or
                     instalments?", "…, or can I …?") asked as a choice, never yes/no; "… and if
                     so how?" as the how; "Is there anything else …?" as "What else …?"
      plan.py        `plan_answer` → `ReadPlan`: what the model reads, decided before the call
        prompt.py    the prompt a read sends: each mode's instruction first, then the numbered
                     passages and the question as the prompt says it, fitted to the window
        in_code.py   what code decides before a read (``answer_hops``): a fact, arithmetic over a
                     report's table, its cells, a table's column or row (text/tables.py,
                     text/lookup.py), a listed number, else a comparison
        arithmetic.py  a change, percentage change, average, sum, ratio or proportion computed
                     from bound cells, rounded, with its unit, scale and formula; which year a
                     row is largest, how many years it passes a bound
          computed.py    a number computed from cells (`Computed`: answer, formula, cells) and
                     rounded as a report prints it
          margins.py     a margin no table prints ("the EBITDA margin") computed as its profit's
                     share of revenue
          per_asked.py   the amount per unit a question asks, and whether a table prints it
          per_unit.py    an amount per unit of another no row prints ("the average loan per
                     borrower", "tonnes per hectare"): two columns, or two rows, at their scales
          against_plan.py  how far a row came in above or below its plan, budget or target
                     ("By how much did profit before tax beat the plan in 2024?"): actual − plan
          count_rows.py  how many of a table's rows pass a bound in the column a question names
                     ("How many obligations had a total that exceeded $500,000 thousand?"), or
                     which ("Which loan products have more than 5% of the portfolio at risk?")
          operation.py   the operation a question asks, from its grammar (typed `Operation`); a
                     split fiscal year ("2018/2019") as the year it ends in; a clause setting a
                     thing aside asks none; "the proportion of A over B" a fraction
            periods.py   the periods a question and a column name: a year, or a quarter,
                     half or month of one with the year said beside it ("between Q3 and Q4
                     2020", "the fourth quarter of 2018 and 2019"); a date is no month
          operands.py    the cells an operation's operands bind: one row's years (a change in one
                     year from the year before), two rows or columns named apart (split at the
                     "and" the table's row labels split at), a table of years by row, rows named
                     by their labels for a sum or an average
            nil_years.py  a year's cell left empty ("—") as nothing, for a sum or an average
            part_rows.py the rows two parts name: the one row that says all of a part, a
                     part named in two sections the one in the other part's, a whole naming
                     a column its total row
            every_row.py  a sum or an average over every row of a column, where the question
                     says "all" ("for all non-employee directors", "of all 5 NEOs"), or over
                     its N largest ("the top 3 prepaid expenses in 2018")
            period_cells.py  one row's cells in the quarters, halves or months named, where
                     the columns are such parts ("Q1 … Q4, Full year"); an average "quarterly"
                     over every quarter, never the full year; a half with no column its
                     two quarters ("the first half of 2020": Q1 + Q2)
          table_cells.py a report table read back from its row lines; a question's row (its
                     label's words, word for word first, or its short name: "PSP") and column
                     (the year, the header's words) bound
            total_rows.py  a total printed under a table's rows with no label, each value the
                     sum of the rows above it: read back as the table's "Total" row
            period_rows.py  a table whose rows are quarters or halves ("Q2 2020", "2Q20",
                     "H1 2020"), or years ("FY2023"), also read turned, its periods as
                     columns, so the column readers bind them
            table_topic.py  a table's lead-in ("The provision for income taxes consists of
                     …"): its words are every row's, so a row named only by them yields to one
                     the question also names by words that tell it apart
            table_scale.py  the scale of a table that says none, from its prose: a page's note,
                     the lead-in ("measured in thousands of …"), a sentence stating an amount
            table_words.py  one word is another's: stems, first five letters, a user's verb
                     and the report's noun ("lend", "Loans")
          printed_change.py  a change the table prints in a column the question names ("the
                     variance in percent"), read as printed; a percentage in a change column
                     of no year, where the row's cells give it so rounded ("+3.6%" for 3.64%)
          stated_result.py  a change computed from the cells said as the report's prose
                     states it ("27%" for 26.7%), signed as computed, the computation beside
          outflow_rows.py  a row of outflows printed negative ("Early debt extinguishment
                     costs: (3,604); (725)"): its change is computed on the costs' sizes,
                     and a cell read of one ("Tax paid: (5.6)") is said as its size, unless
                     another year's cell of the row is positive (a reversal: "(215); 388")
          text_operands.py  a value the text states for each year asked ("US$6 million … as at
                     June 2018"), an operand like a cell where no table row binds (a sentence's
                     "respectively", else its bracketed and own years: year_amounts.py)
        cell_lookup.py the cell or cells a question names by row and year or column, read in
                     code ("… in 2019 and 2018, respectively": every cell, in order); left to
                     the model where a sentence beside the table says the question's words
                     more fully than the cell's row and column (``said_closer``); a total row
                     only where the question says total or its row explains every word; a row
                     in every year shown, earliest first; "the net loss" of a "Net income
                     (loss)" row said as its size (outflow_rows.py `side_asked`)
          dated_columns.py the columns of two dates of one year a question names, or of one
                     year named apart ("the target and the actual … for FY2024")
          named_tables.py  the tables that say the thing asked ("net sales", not "Volumes"),
                     and a section the question names that the bound rows are not in
        respective_value.py  the amount a sentence states for the one year asked, among its
                     years "respectively" ("… of $41.8 million and $39.4 million as of March
                     31, 2019 and 2018, respectively" → 2018's) or in brackets after its own
                     year's ("… EUR 71.3 million (2018: EUR 66.0 million)"; year_amounts.py)
        year_amounts.py  the amounts a report's sentence gives its years, a reader a pattern
                     ("…, respectively", "(2018: £41.5 million)", the sentence's own year, "A in
                     Y1 and B in Y2", "A and B in Y1 and Y2"): typed `YearAmount`s, which
                     text_operands.py, respective_value.py and list_value.py judge by their own
                     guards
        table_years.py the years a table's columns are headed by ("Which years does the table
                     provide information for …?", "In which years was X calculated?")
        table_parts.py the rows a table's section or sum holds, asked as a list ("What items
                     does revenue consist of?"; a sum's parts only where they add up to it)
        rows_moved.py  the rows that moved as asked between two years ("Which divisions sold
                     less in 2023 than in 2022?", "Which units grew EBITDA by more than 10%?")
        note_title.py  what a report's numbered note is about, by its heading ("What is the
                     content of Note 5?" → "PROPERTY AND EQUIPMENT, NET")
        facts.py     one relation, one answer: "Who was the father of X?" is the relation's hop;
                     a birth or death date from the person's own passage
        listed.py    a number listed for the question's subject ("68 at Durham, 26 at Hexham")
        attendance.py  whether a person was at a meeting, by the minutes' "Present:" and
                     "Apologies:" lists
        compare.py     a comparison decided in code (dates, numbers with units, places,
                       categories, yes/no): each side looked up, read in code or by the model
                       as a step, then compared: the answer cites both sides
          comparison_question.py  what a comparison asks, from its grammar: the kind of
                       value, which end wins, and whether the answer is an option or yes/no
            options.py   where a question names its two options, in any phrasing ("…, A or
                       B?", "…, A and B?", "Between A and B, …", "A vs. B: …", "Is A older than B?")
          side_values.py  each side's passages and its value read in code (a quantity with its
                       unit, a coordinate, a category), and the one-hop step a missing side is read by
        hops.py        a bridge question hopped in code: the one-hop question the model is asked
        steps.py       a chain question's first step, found by its grammar (any wording)
          anchors.py   the name a step hangs on (a title, a quoted name, an acronym, a run)
        relations.py   (for all three) a thing's passage by title, the person it names ("directed by …")
        evidence.py    the question's evidence sentences, read instead of whole passages
                       (a rule's question may read the rule's section whole first:
                       ``answer_section``)
        candidates.py  the answers a chosen or closed question may take
      read.py        `answer_question` → `Answer`: runs the plan, the model call
      reply.py       the model's reply → the short answer (cleaned; the option it names when
                     the question offers options, and then no other rule; else narrowed when it
                     ran on, re-chosen when it repeats the question's own name, cut to the span
                     asked, a person's name in full, a bare count with its noun and bound; no
                     sentence-start word re-chosen, a question asking several not echoed)
      qualified.py   a short answer with the qualifier the passage writes after it ("… at your
                     local council", "every year and whenever …" for "When …?"), an amount with
                     the bound before it ("within 30 days", "up to $584 million")
      restated.py    a long reply's short answer: what follows its restatement of the question
                     ("To notify the workers, you need to …", "The decrease in X was due to …"),
                     or the first item below a lead-in
      quoted.py      a long reply's claim in the documents' own words (``answer_check``): the
                     sentence read sharing most of its content words, past its restatement of
                     the question, cut to the clauses that hold them, cited; a claim no
                     sentence read holds → "The documents do not say." (a summary, a
                     description or a reason is left the model's own)
      clause.py      a question asking for a description ("What does X represent?", "What led
                     to …?"): the reply is not cut to a name, and runs on to the end of the
                     sentence that holds it word for word, as the documents say it, without the
                     question said back (restated.py); a bare number ("39%") or a row's cells
                     read back to it, or to "What was the reason for …?", is no answer
      year_cell.py   a number the model read from a table's row in another year's column, moved
                     to the year asked ("10,269" of 2019 → the row's 2018 cell, "6,644"); a year
                     chosen by size, the one the row or sentence read says (the check's ``which year``)
      scaled.py      a bare number (or list of them) the model read from a table, said with the
                     table's scale ("4,779" from a table in thousands → "4,779 thousand"); no
                     scale for a note number ("Which note …?", a "Notes" column)
      several.py     a question asking for several things, and the reply's items kept whole, each
                     held by a passage read ("What are the …", "… respectively"), named as their
                     rows are labelled (a piece of one row's label by the whole label), less the
                     thing whose parts are asked; the parts of a sum
                     the rows above it; one row's label widened to the rows beside it
      check.py       `check_answer`, the check (``answer_check``): a short answer kept only where a
                     sentence read holds it for what was asked, else read again among answers of
                     the right kind, or "The documents do not say." (``Answer.abstained``), in steps:
        fragment.py  a fragment, no answer: one or two words for a description ("Bonds" for
                     "What is included in …?"), a phrase cut mid-way ("… Plan In"), a reply that
                     ran on narrowed to its opening common word ("Sale" of "Sale of …"); a
                     chain's final answer too, against the question first asked
        derived.py   a model's number for arithmetic code could not compute (a change, an
                     average, a share …): kept only where the prose or the table's own "% Change"
                     / "Total" cell states it, of the row, column and years asked, never an
                     operand copied, another row's or year's result or a number made up; a
                     model's choice by size ("Which segment had the largest …?") too
        kinds.py     the kind of answer a question asks for (person, role, place, date, number,
                     a thing by name: "What are the types of …" …), and a count no bare year
        binding.py   the sentences an answer stands on; whether they are about the question's
                     subject
      list_value.py  a list's value bound to its item ("25 at York" for York), a sentence's
                     value to the one year asked ("$6.5 million … during 2019 and $7.7 million …":
                     year_amounts.py's pairs in turn or blocks, where the words between them are
                     the question's)
        thing_asked.py  the thing a figure is asked of, by its head noun ("the net interest
                     *margin*"), named somewhere read, else no figure answers it
        asked.py     whether they say what was asked: the year (or range) asked, the event a
                     date is asked of, the role a person is asked by, a figure's qualifier, a
                     figure's row that names what was asked (``unnamed_row``)
        sides.py     a "yes" kept only where each side the question names holds
        spelled.py   a name as a person writes it ("Coast Guard" for "HM Coastguard")
        polarity.py  a "yes" whose sentence says "not", "only" or "except" of it is a "no" (not
                     one in a condition, in a clause set against the answer's, or leading a
                     list); a duty lifted in so many words ("… but they don't have to")
        model_check.py  the model asked, yes or no, whether the sentence a prose short answer
                     stands on (its heading, the two sentences before) gives that answer to the
                     question proper (``answer_model_check``): "no" → not in the documents
        cases.py     a value given case by case (a fee by the bill's band, a loan by the course's
                     start date, sick pay by years of service) moved to the case the user's own
                     sum, date or length of time is in; in none → not in the documents
        category_case.py  a value given per category ("… for Plan 2", "… for Postgraduate
                     loans") moved to the one category the user's words name
      conditions.py  a yes or no about a rule ("Can I …?") with the rule's condition: "Yes, if …",
                     "No, unless …", quoted from the rule's own sentence or the list it leads;
                     a plain yes or no where the user's situation already settles it
      rule_check.py  a rule's yes or no read again, constrained to yes / no, from the rule's own
                     sentence and the user's situation alone (``answer_rule_check``); never an
                     outright no (polarity.py `outright`)
      conditions_met.py  a rule's listed requirements ("The donor must:") or exceptions ("You do
                     not have to … if you:") decided for the user's situation item by item: a
                     requirement failed or an exception met says no (``answer_rule_items``)
        item_bounds.py  an item settled in code: a date, number or age the situation states
                     against the item's "before 1 February 2001", "at least 2 years", "18 or over"
      citations.py   the passage numbers it cites, verified against the passages
      budget.py      how long a typical answer by a model takes here: the answering model's choice;
                     what a read made costs a chain
      chain.py       `answer_chain`: a chain question hop by hop, each step retrieved and read
                     (by read.py) and put in its place, then the question left; every step cited;
                     `answer_comparison`: a comparison's missing sides read as steps, then decided
      walk.py        `answer_planned`: the plan walked top to bottom (what `EdgeRAG.answer` calls):
                     its chain, else its comparison's missing sides, else the question read whole;
                     each step retrieved at the λ a read needs and read in its share of the time

Imports point one way, no circle (tests/test_layers.py): plan.py knows nothing of the model
call, the reply or its citations; read.py puts the steps together; chain.py runs read.py once
a step, with the retrieval walk.py gives it; walk.py gets the index's parts in a `Reader` (api.py
passes its own retrieval, plan and name lookup), so api.py only composes. The text normaliser that
short answers are matched with is text/normalize.py, which eval/metrics.py scores with too.

Reading happens in two steps, so nothing is dropped silently:

1. `plan_answer` decides what the model reads: the context's best units up to the answer
   budget (``answer_budget``, tokens; retrieval keeps λ for ``--json`` and eval, the model reads
   what it can use), then cut again, if need be, to the model's window in its own tokens. The
   plan says how many units were left out and why, the prompt's length, and the expected
   seconds to the first word (prompt tokens ÷ the prefill speed the ledger has measured), so
   the CLI and the TUI can say so *before* the call.
2. `answer_question` runs the plan.

Modes (``answer_mode``):

* ``choose`` — the answer is one of the candidate strings of the passages (candidates.py:
  names, dates, numbers, yes/no), enforced token by token (llm.ChoiceTrie). A 0.5B model picks
  far better than it composes (docs/benchmarks.md, "Answers").
* ``short`` — a free short phrase with a passage number, e.g. "Springfield [4]".
* ``long`` — a free answer citing passages as [n].
* ``auto`` (default) — ``short`` for questions that ask for a name, place, date, number or
  yes/no (`asks_for_fact`), ``long`` for the rest ("Summarise …", "Why …", "How does …").
  On the first 30 dev questions of each split (benchmarks/answers.py, bridge-ppr, 1,000
  tokens) free short answers beat chosen ones (EM 10.0 / 33.3 against 6.7 / 26.7 on MuSiQue /
  2Wiki), so ``choose`` stays an option, not the default.

Two kinds of question get help in code before the model reads (``answer_hops``):

* a comparison ("Which film has the director who died earlier, A or B?", "Which band has
  more members, A or B?", "Which city is further south, A or B?", "Are A and B both X?") is
  decided in code when each side's value is found (compare.py): a date, a number with its unit,
  coordinates, a category. When code finds both, the plan says so and no model is called; when
  it finds one, the model reads the other side's one-hop question as a step ("How many members
  does A have?"), and code decides. The answer cites both sides' passages and says why;
* a bridge through a named relation ("Where was the director of film X born?") is hopped
  (hops.py): the model is asked "Where was Max Mack born?" and reads the passages the hop
  landed on (Max Mack's first, then the film's), not the rest of the context: other passages'
  sentences that match the rewritten question ("buried", "born") only mislead it.

A chain question ("Who was in charge of the country where the composer of Aschenbrodel was a
citizen?") is answered hop by hop (``answer_chain``, on by default): the plan names its first
step (steps.py), and chain.py asks each step as a one-hop question, retrieves and reads it, and
puts its answer in the phrase's place, up to four reads; a step through a known relation is
made in code when ``answer_hops`` is on. Comparisons and yes/no questions are read whole.

Readers (``answer_reader``), for ``short`` and ``choose``; ``long`` answers always read passages:

* ``evidence`` (default) — the model reads the question's evidence sentences (evidence.py:
  first hop by similarity, second hop through the keys that link them, under their passages'
  titles), up to the answer budget, with `EVIDENCE_INSTRUCTION`. A closed question (a
  comparison "…, A or B?", or yes/no) may only be answered by its options
  (`candidates.closed_choices`, enforced token by token).
* ``passages`` — the model reads the context's best passages up to the answer budget.

Citations are verified: in short answers (any mode, or any answer of at most 8 words) a cited
passage that contains the answer is ``cited``; passages that contain it without being cited are
``matched``; a cited passage that does not contain it is ``unverified`` (small models copy the
passage number of the prompt's example). A chosen answer cites no number: the passages that
hold it are its ``matched`` citations.

The prompt keeps its fixed instruction first and the variable text (passages, question) last,
so llama.cpp reuses the evaluated instruction from call to call.
"""

from .plan import MODES, READERS, ReadPlan, plan_answer
from .read import Answer, answer_question

__all__ = ["MODES", "READERS", "Answer", "ReadPlan", "answer_question", "plan_answer"]
