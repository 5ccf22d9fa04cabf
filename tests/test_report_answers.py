"""A report table's cell as the answer says it (issue #63): with the scale the page notes for its
tables ("(Tabular amounts in millions, unless otherwise disclosed)"), a currency code's scale
("NZ$ MILLION"), a row of percentages with its "%", a row read in code (text/lookup.py) said
with its table's scale; and a number the model read in the wrong year's column moved to the
year asked (answer/year_cell.py); a description said without the question said back
(answer/restated.py); a list asked by its plural noun, without the table's total row
(answer/several.py). Tables written here, read by the real row reader."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import looked_up
from edgerag.answer.restated import past_restatement
from edgerag.answer.several import asks_several, items_read
from edgerag.answer.table_cells import grids
from edgerag.answer.year_cell import in_year_asked
from edgerag.text.printed import scale_word
from edgerag.text.rows import grid_lines

from .helpers import passage

INVENTORIES = [
    ["", "2019", "2018"],
    ["Parts and raw materials", "$134,816", "$76,647"],
    ["Work in process", "10,269", "6,644"],
    ["Finished goods", "84,934", "14,696"],
    ["Total", "$230,019", "$97,987"],
]


def _units(text: str):
    return [passage("p", "Report", text)]


def test_the_pages_note_of_its_tables_scale_scales_a_table_that_says_none():
    rows = "\n".join(grid_lines(INVENTORIES, "Inventories"))
    for note in ("(in thousands, except per share amounts)", "ACME CORP NOTES (Tabular amounts in thousands, unless otherwise disclosed)"):
        grid = grids([("p", f"{note}\n\nNOTE 10. INVENTORIES\n{rows}")])[0]
        assert grid.value(1, "2018").scale == "thousand"
    two = grids([("p", f"(in thousands)\n(in millions)\n{rows}")])[0]
    assert two.value(1, "2018").scale == ""  # two scales noted: neither is the table's
    plain = grids([("p", f"Inventories rose in the year (see note 4).\n{rows}")])[0]
    assert plain.value(1, "2018").scale == ""


def test_a_currency_codes_scale_is_read():
    assert [scale_word(s) for s in ("NZ$ MILLION", "US$m", "A$bn", "$ million", "2019")] == ["million", "million", "billion", "million", ""]


def test_thousands_are_read_whatever_the_apostrophe():
    """Reports typeset "$'000" with a curly apostrophe as often as a straight one."""
    assert [scale_word(s) for s in ("$'000", "$’000", "£‘000", "'000s")] == ["thousand"] * 4
    rows = "\n".join(
        grid_lines(
            [["", "2019", "2018"], ["", "$’000", "$’000"], ["Accrued revenue", "27,817", "5,824"], ["Unearned revenue", "27,069", "6,010"]],
            "Revenue",
        )
    )
    assert grids([("p", rows)])[0].value(0, "2019 · $’000").scale == "thousand"


def test_a_cell_of_a_row_of_percentages_is_said_with_its_percent_sign():
    rows = grid_lines([["NZ$ MILLION", "F19", "F18"], ["Sales", "6,712", "6,433"], ["ROFE (%)", "9.6", "9.3"]], "Food")
    units = _units("\n".join(rows))
    assert looked_up("What was the ROFE in F19?", units).answer == "9.6%"
    assert looked_up("What were the sales in F18?", units).answer == "6,433 million"


def test_a_number_read_in_the_wrong_years_column_is_moved_to_the_year_asked():
    units = _units("(in thousands)\n" + "\n".join(grid_lines(INVENTORIES, "Inventories")))
    moved = in_year_asked("10,269", "What were the inventories of work in progress in 2018?", units)
    assert moved is not None and moved.answer == "6,644" and "Work in process" in moved.why
    assert in_year_asked("6,644", "What were the inventories of work in progress in 2018?", units) is None  # the year's own cell
    assert in_year_asked("10,269", "What was the change in work in process from 2018 to 2019?", units) is None  # two years, a computation
    assert in_year_asked("10,269", "What was the increase in work in process in 2019?", units) is None  # a computation
    assert in_year_asked("999", "What were the inventories of work in progress in 2018?", units) is None  # no cell holds it
    assert in_year_asked("10,269", "What were the inventories of work in progress?", units) is None  # no year asked
    twice = _units("\n".join(grid_lines([*INVENTORIES, ["Consigned goods", "10,269", "1,000"]], "Inventories")))
    assert in_year_asked("10,269", "What were the inventories of work in progress in 2018?", twice) is None  # two rows hold it


def test_a_description_is_said_without_the_question_said_back():
    why = "Why did amortization of purchased intangible assets decrease?"
    said = "The decrease in amortization of purchased intangible assets was due largely to the divestiture of SPVSS"
    assert past_restatement(said, why) == "due largely to the divestiture of SPVSS"
    how = "How were the company's inventories valued?"
    assert past_restatement("The company's inventories were valued at the lower of cost or net realizable value", how) == (
        "at the lower of cost or net realizable value"
    )
    assert past_restatement("Tax fees include fees billed for services", "What is included in Tax fees?") == "fees billed for services"
    kept = "increase in Internet revenue from the movement of customers"  # one word of the question: no restatement
    assert past_restatement(kept, "What led to the increase in cable revenue?") == kept
    assert past_restatement("Inventories are stated", "How are inventories stated?") == "Inventories are stated"  # nothing left
    year = past_restatement("Revenue increased in 2019, due to higher volumes of sales", "Why did revenue increase in 2019?")
    assert year == "due to higher volumes of sales"  # a year's comma still ends the restatement
    money = "Why did subscription revenue increase by $76.3 million between 2018 and 2017?"  # the point of $76.3 ends no clause
    said = "Subscription revenue increased by $76.3 million between 2018 and 2017 because new business contributed"
    assert past_restatement(said, money) == "because new business contributed"


def test_a_list_is_asked_by_its_plural_noun_and_keeps_no_total_row():
    assert asks_several("What financial items does operating expenses consist of?")
    assert asks_several("Where are the operating segments for non-current assets in the table?")
    assert not asks_several("What was sales in 2019?") and not asks_several("What type of lease does the company have?")
    rows = grid_lines(
        [["", "2019"], ["Share Incentive Plan", "1.2"], ["Sharesave scheme", "0.4"], ["Total share-based payment charge", "1.6"]]
    )
    units = _units("\n".join(rows))
    reply = "Share Incentive Plan; Sharesave scheme; Total share-based payment charge"
    assert items_read(reply, units) == ["Share Incentive Plan", "Sharesave scheme"]
    assert items_read("Sharesave scheme; Total share-based payment charge", units) == [
        "Sharesave scheme",
        "Total share-based payment charge",
    ]


def test_a_year_chosen_by_size_is_the_year_the_row_read_says():
    """ "In which year was X larger?" left to the model (its row's label is not the question's
    words): the row it read decides, through the check, as arithmetic.py decides over a table."""
    from edgerag.answer.check import check_answer

    row = grid_lines([["Deferred income", "2017/2018", "2018/2019"], ["Current", "182", "159"]], "Deferred income")
    units = _units("\n".join(row))
    larger = "In which year was the current deferred income larger?"
    checked = check_answer("2018/2019", "2018/2019", larger, units)
    assert (checked.short, checked.step, checked.abstained) == ("2017/2018", "which year", False)
    assert check_answer("2017/2018", "2017/2018", larger, units).step == ""  # already the row's
    smaller = check_answer("2017/2018", "2017/2018", "In which year was the current deferred income smaller?", units)
    assert smaller.short == "2018/2019"
    assert check_answer("2018/2019", "2018/2019", "In which year was the current deferred income reported?", units).step == ""
    two = _units(
        "\n".join(
            grid_lines([["Item", "2016", "2015"], ["Starbucks revenue", "78,903", "142,283"], ["Costs", "943,200", "672,667"]], "Revenue")
        )
    )
    assert check_answer("2015", "2015", "Which year has the least amount of costs?", two).step == ""  # the model read another row
    rates = _units("The statutory rate (21.0% in fiscal 2019, 24.5% in fiscal 2018 and 35.0% in fiscal 2017) applies to income.")
    said = check_answer("2019", "2019", "In which year was the statutory rate largest?", rates)
    assert (said.short, said.step) == ("2017", "which year")  # a sentence's values by year, compared


def test_a_row_of_percentages_alone_is_read_and_its_years_over_a_bound_found():
    rates = grid_lines(
        [
            ["", "January 3, 2020", "December 28, 2018", "December 29, 2017"],
            ["Expected volatility", "22.02%", "25.37%", "27.19%"],
            ["Risk free rate of return", "2.39%", "2.35%", "1.53%"],
        ],
        "Assumptions",
    )
    units = _units("\n".join(rates))
    assert looked_up("What was the Expected volatility in 2018 and 2017 respectively?", units).answer == "25.37%; 27.19%"
    text = [("p", "\n".join(rates))]
    assert compute("In which year was Risk free rate of return more than 2.0%?", text).answer == "2018; 2020"
    assert compute("In which years was Risk free rate of return below 2.0%?", text).answer == "2017"
    assert compute("In which year was Risk free rate of return more than 3%?", text) is None  # none passes: not decided


def test_a_total_in_the_question_does_not_outweigh_the_rows_own_words():
    debt = grid_lines(
        [
            ["", "2019", "2018"],
            ["Total debt", "5,275.3", "4,941.7"],
            ["Less current portion", "602.2", "1.5"],
            ["Long-term debt", "4,673.1", "4,940.2"],
        ]
    )
    text = [("p", "\n".join(debt))]
    assert compute("What is the percentage change in total long-term debt in 2019 compared to 2018?", text).answer == "-5.41%"
    assert compute("What is the percentage change in total debt in 2019 compared to 2018?", text).answer == "6.75%"


def test_a_list_item_the_page_prints_on_its_own_line_is_kept_whole():
    page = (
        "If your sports club is eligible, you can become a community amateur sports club (CASC). You'll get:\n\n"
        "tax relief on income, gains and profits from some activities\n\nGift Aid repayments on donations\n\nbusiness rates relief\n"
    )
    units = _units(page)
    reply = "Tax relief on income, gains and profits from some activities, Gift Aid repayments on donations and business rates relief"
    assert items_read(reply, units) == [
        "tax relief on income, gains and profits from some activities",
        "Gift Aid repayments on donations",
        "business rates relief",
    ]


def test_a_change_the_table_prints_in_its_own_column_is_read_as_printed():
    rows = grid_lines(
        [
            ["(In millions, except for percentages)", "Fiscal Year 2018", "Fiscal Year 2017", "Variance in Dollars", "Variance in Percent"],
            ["Net revenues", "$2,554", "$2,355", "$199", "8%"],
            ["Percentage of total net revenues", "53%", "59%", "", ""],
            ["Operating income", "$473", "$187", "$286", "153%"],
        ]
    )
    text = [("p", "\n".join(rows))]
    asked = "What was the variance in percent for Net revenues from fiscal 2017 to fiscal 2018?"
    assert compute(asked, text).answer == "8%"  # the report's own column, as it rounds it
    assert compute("What was the variance in percent for Operating income from fiscal 2017 to fiscal 2018?", text).answer == "153%"
    # not named by the column's own word: the column's percentage still, where the row's cells give it so rounded
    # (8.45% → "8%"; printed_change.py `printed_percent`), from the row the question names (not "Percentage of …")
    assert compute("What was the percentage change in Net revenues from fiscal 2017 to fiscal 2018?", text).answer == "8%"
    assert (
        compute("What was the change in Net revenues from fiscal 2017 to fiscal 2018?", text).answer == "199 million"
    )  # amounts: computed
    assert (
        compute("What was the variance in percent for Net revenues from fiscal 2016 to fiscal 2018?", text) is None
    )  # years not the table's


def test_a_row_that_is_the_result_asked_is_read_for_the_year_asked():
    rows = grid_lines(
        [
            ["(in thousands, except for revenue growth)", "2019", "2018"],
            ["Revenue", "$576,523", "$537,891"],
            ["Revenue growth", "7.2%", "11.6%"],
        ]
    )
    text = [("p", "Total revenue growth declined to 7% in 2019.\n" + "\n".join(rows))]
    assert compute("What was revenue growth rate in 2019?", text).answer == "7.2%"
    assert compute("What was the percentage change in revenue from 2018 to 2019?", text).answer == "7.18%"  # computed as before


def test_a_column_headed_by_the_bound_asked_is_read():
    rows = grid_lines(
        [
            ["(in thousands)", "Total", "Less than 1 year", "1-3 years", "After 5 years"],
            ["Long-term debt obligations", "1,708,916", "65,087", "115,141", "861,443"],
            ["Total contractual obligations", "$4,788,478", "$1,128,447", "$1,185,318", "$1,279,102"],
        ]
    )
    units = _units("\n".join(rows))
    asked = "What is the total contractual obligations that has payments due in less than 1 year?"
    assert looked_up(asked, units).answer == "$1,128,447 thousand"
    assert looked_up("What are the obligations of more than $1m?", units) is None  # a bound no column is headed by


def test_which_year_reads_a_row_whose_own_words_are_arithmetics():
    rows = grid_lines(
        [
            ["", "2019", "2018", "2017"],
            ["Weighted average grant-date fair value per common stock", "$29.10", "$28.48", "$30.49"],
            ["Options granted", "1,200", "1,350", "990"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("In which year was the Weighted average grant-date fair value per common stock the smallest?", text).answer == "2018"
    assert compute("In which year was the average change in fair value the smallest?", text) is None  # a computation's words, not the row's


def test_the_years_a_table_covers_are_read_from_its_header():
    from edgerag.answer.table_years import table_years

    rows = grid_lines(
        [
            ["", "Year Ended December 31, 2019", "2018", "2017"],
            ["Accounts receivable", "120", "110", "95"],
            ["Inventories", "80", "70", "60"],
        ]
    )
    other = grid_lines([["", "F19", "F18"], ["Stores", "180", "170"], ["Staff", "12", "11"]], "Store network")
    one = _units("\n".join(rows))
    assert table_years("Which years does the table provide information for accounts receivable?", one).answer == "2019; 2018; 2017"
    assert table_years("What fiscal years are included in the table?", one).answer == "2019; 2018; 2017"
    both = [*one, passage("q", "Report", "\n".join(other))]
    assert (
        table_years("Which years does the table provide information for stores?", both).answer == "F19; F18"
    )  # the table of the row named
    assert table_years("Which years does the table show?", both) is None  # two tables, two answers
    assert table_years("What was accounts receivable in 2019?", one) is None  # not a question about the table's years
    assert table_years("In which years was Inventories calculated?", one).answer == "2019; 2018; 2017"  # a row's years, whole
    assert table_years("For which years are inventories provided in this note?", one).answer == "2019; 2018; 2017"
    assert table_years("In which years were inventories above 65?", one) is None  # a condition: computed, not the header
    assert table_years("In which year was Inventories calculated?", one) is None  # one year asked: not every year


def test_a_change_computed_is_said_as_the_reports_prose_states_it():
    """ "CTS sales increased 27%": the 26.7% computed from the cells is said as the report rounds
    it, the computation beside; prose about another thing, or another kind of number, is not."""
    from edgerag.answer.arithmetic import computed

    table = "\n".join(
        grid_lines([["$ millions", "Fiscal 2019", "Fiscal 2018"], ["Sales", "849.8", "670.7"], ["Costs", "100.1", "90.2"]], "CTS")
    )
    said = passage("c", "CTS results", "CTS sales increased 27% in fiscal 2019, driven by volume.\n" + table)
    pct = computed("What is the percentage increase in CTS sales in 2019?", [said])
    assert pct.answer == "27%" and "as the report states it" in pct.text and "26.7%" in pct.text
    assert computed("What was the change in CTS sales in 2019?", [said]).answer == "179.1 million"  # no amount stated
    other = passage("o", "CTS results", "Headcount increased 27% in fiscal 2019.\n" + table)
    assert computed("What is the percentage increase in CTS sales in 2019?", [other]).answer == "26.7%"
    rose = passage("r", "CTS results", "CTS costs rose by $9.9 million in fiscal 2019.\n" + table)
    assert computed("What was the change in CTS costs from 2018 to 2019?", [rose]).answer == "$9.9 million"
    fell = passage("f", "CTS results", "CTS sales decreased 27% in fiscal 2019.\n" + table)  # the other way: not the +26.7% computed
    assert computed("What is the percentage increase in CTS sales in 2019?", [fell]).answer == "26.7%"


def test_the_rows_of_a_section_or_a_sum_asked_as_a_list_are_decided_in_code(tmp_path):
    """ "What financial items does revenue consist of?" over a statement whose "Revenues:" heading
    has two rows: those rows, in the table's words; "… components factored in when calculating net
    cash inflow …": the rows above that row, where they add up to it."""
    from edgerag.answer.table_parts import table_parts
    from edgerag.ingest import iter_documents
    from edgerag.types import Document, Unit

    def row(*cells, tag="td"):
        return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"

    page = tmp_path / "statement.html"
    page.write_text(
        "<html><body><table>"
        + row("", "2019", "2018", tag="th")
        + row("Revenues:", "", "")
        + row("Subscription solutions", "642,241", "464,996")
        + row("Merchant solutions", "935,932", "608,233")
        + row("Total revenues", "1,578,173", "1,073,229")
        + row("Operating expenses:", "", "")
        + row("Sales and marketing", "(473,217)", "(350,069)")
        + row("Research and development", "(355,015)", "(230,674)")
        + row("Total operating expenses", "(828,232)", "(580,743)")
        + "</table><table>"
        + row("", "2019 £m", "2018 £m", tag="th")
        + row("Cash flow from operations", "410.2", "388.0")
        + row("Tax paid", "(61.5)", "(58.3)")
        + row("Net cash inflow from operating activities", "348.7", "329.7")
        + row("Interest received", "2.1", "1.9")
        + row("Free cash flow", "350.8", "331.6")
        + "</table></body></html>"
    )
    text = "\n".join(d.text for d in iter_documents([page]) if isinstance(d, Document))
    units = [Unit("chunk", "1", text, 0, 0.0, "statement.html", "c1")]
    assert table_parts("What financial items does revenue consist of?", units).answer == "Subscription solutions; Merchant solutions"
    assert table_parts("What are the sources of revenues in the statement?", units).answer == "Subscription solutions; Merchant solutions"
    asked = "What are the components factored in when calculating the net cash inflow from operating activities?"
    assert table_parts(asked, units).answer == "Cash flow from operations; Tax paid"
    assert (
        table_parts("What are the components factored in when calculating free cash flow?", units) is None
    )  # its rows above add up to nothing
    assert table_parts("What was the revenue in 2019?", units) is None  # one value asked
    assert table_parts("What were the operating expenses made up of?", units).answer == "Sales and marketing; Research and development"
    assert table_parts("How many items does revenue consist of?", units) is None  # a count asked


def test_what_a_numbered_note_is_about_is_its_heading(tmp_path):
    from edgerag.answer.note_title import note_title
    from edgerag.ingest import iter_documents
    from edgerag.types import Document, Unit

    def units_of(html: str) -> list[Unit]:
        page = tmp_path / "note.html"
        page.write_text(f"<html><body>{html}</body></html>")
        text = "\n".join(d.text for d in iter_documents([page]) if isinstance(d, Document))
        return [Unit("chunk", "1", text, 0, 0.0, "note.html", "c1")]

    one = units_of(
        "<h2>5. PROPERTY AND EQUIPMENT, NET</h2><p>Property and equipment consisted of the following.</p>"
        "<table><tr><th></th><th>2019</th></tr><tr><td>Land</td><td>1,200</td></tr></table>"
    )
    assert note_title("What is the content of Note 5?", one).answer == "PROPERTY AND EQUIPMENT, NET"
    assert note_title("What is the topic of this note?", one).answer == "PROPERTY AND EQUIPMENT, NET"
    assert note_title("What is the content of Note 6?", one) is None  # no heading numbers it
    assert note_title("What was the land in 2019?", one) is None
    continued = units_of("<h3>Note 12 Borrowings (continued)</h3><p>The loans are secured.</p>")
    assert note_title("What is Note 12 about?", continued).answer == "Borrowings"
    two = units_of("<h2>4. Prepaid expenses</h2><p>Rent.</p><h2>5. Accrued liabilities</h2><p>Wages.</p>")
    assert note_title("What is the topic of this note?", two) is None  # two notes read: which one is not said
    assert note_title("What is the content of Note 4 about?", two).answer == "Prepaid expenses"


def test_a_change_between_two_years_named_is_the_cells_difference_not_the_prose_rounding():
    """ "What was the change in X between 2018 and 2019?" asks the table's difference (69,916
    thousand), not the prose's "$69.9 million"; asked in the prose's words, or where the statement
    is the difference itself, the statement stands."""
    from edgerag.answer.arithmetic import computed

    table = "\n".join(
        grid_lines([["(in thousands)", "2019", "2018"], ["Subscription revenue", "542,968", "473,052"], ["Other", "10", "9"]], "Revenue")
    )
    said = passage("s", "Revenue", "Subscription revenue increased by $69.9 million in 2019 when compared to 2018.\n" + table)
    assert computed("What was the change in Subscription revenue between 2018 and 2019?", [said]).answer == "69,916 thousand"
    assert computed("What is the increase in subscription revenue from 2018 to 2019?", [said]).answer == "69,916 thousand"
    assert computed("How much did subscription revenue increase by from 2018 to 2019?", [said]).answer == "$69.9 million"
    assert computed("What was the increase in subscription revenue in 2019?", [said]).answer == "$69.9 million"


def test_a_share_price_column_and_a_bare_millions_header_scale_as_they_say():
    """A column of one share's values ("Weighted-Average Grant Date Fair Value") beside a count of
    shares under "(in millions)" is no amount in millions; a first column headed "(millions)" alone
    scales its table."""
    rsus = grid_lines(
        [
            ["(in millions)", "Number of Shares", "Weighted-Average Grant Date Fair Value"],
            ["Nonvested shares of RSUs at December 31, 2018", "8.6", "$16.59"],
            ["Granted", "5.4", "21.64"],
            ["Nonvested shares of RSUs at December 31, 2019", "8.9", "20.84"],
        ]
    )
    text = [("p", "\n".join(rsus))]
    asked = "What is the change in Weighted-Average Grant Date Fair Value of Nonvested shares of RSUs from 2018 to 2019?"
    assert compute(asked, text).answer == "4.25"
    assert (
        compute("What is the change in the Number of Shares of Nonvested shares of RSUs from 2018 to 2019?", text).answer == "0.3 million"
    )
    subscribers = grid_lines(
        [["(millions)", "2019", "2018"], ["Wireless", "9.96", "9.61"], ["High-speed Internet", "3.56", "3.41"]], "Subscribers"
    )
    asked = "What is the difference in the number of subscribers between Wireless and High-speed Internet in 2018?"
    assert compute(asked, [("p", "\n".join(subscribers))]).answer == "6.2 million"


def test_a_row_told_apart_by_its_number_is_the_one_asked():
    """ "28 nanometers" among "14 nanometers and under", "40 nanometers": the words tie the rows,
    the number the question says picks one."""
    rows = grid_lines(
        [
            ["Process Technologies", "2019 · %", "2018 · %"],
            ["14 nanometers and under", "0.0", "2.6"],
            ["28 nanometers", "11.3", "12.6"],
            ["40 nanometers", "23.1", "25.3"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("What is the increase / (decrease) in 28 nanometers from 2018 to 2019?", text).answer == "-1.3%"
    assert compute("What is the increase / (decrease) in 32 nanometers from 2018 to 2019?", text) is None  # no such row


def test_a_label_lead_of_the_tables_arithmetic_is_no_word_to_ask():
    """ "Less: surcharge revenue" is the row asked as "surcharge revenue"; a question that says the
    lead still names it."""
    rows = grid_lines(
        [
            ["($ in millions)", "Fiscal Year 2019", "2018"],
            ["Net sales", "2,380.2", "2,157.7"],
            ["Less: surcharge revenue", "438.1", "365.4"],
            ["Net sales excluding surcharge revenue", "1,942.1", "1,792.3"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("What was the change in the amount of surcharge revenue from 2018 to 2019?", text).answer == "72.7 million"
    assert compute("What was the change in Less: surcharge revenue from 2018 to 2019?", text).answer == "72.7 million"


def test_a_column_named_by_its_number_beside_its_scale_is_the_one_asked():
    """ "Level 1 · RMB'Million" is the column "the level 1 FVPL" names (its scale is no word to
    ask), and "level 2" names Level 2's, not Level 1's."""
    rows = grid_lines(
        [
            ["", "Level 1 · RMB'Million", "Level 2 · RMB'Million", "Total · RMB'Million"],
            ["As at 31 December 2019 › FVPL", "14,766", "5,091", "19,857"],
            ["As at 31 December 2019 › OFA", "", "375", "375"],
            ["As at 31 December 2018 › FVPL", "10,875", "5,009", "15,884"],
            ["As at 31 December 2018 › OFA", "", "2,032", "2,032"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("How much did the level 1 FVPL change by from 2018 year end to 2019 year end?", text).answer == "3,891 million"
    assert compute("How much did the level 2 FVPL change by from 2018 year end to 2019 year end?", text).answer == "82 million"
    assert compute("How much did the level 2 OFA change by from 2018 year end to 2019 year end?", text).answer == "-1,657 million"


def test_a_years_own_column_before_a_change_column_headed_by_the_year():
    """ "Change Amount · 2017" beside "2017": the year's own column is its operand."""
    rows = grid_lines(
        [
            ["", "For the Year Ended December 31, 2018", "For the Year Ended December 31, 2017", "Change Amount 2017"],
            ["Goodwill impairment", "9,174", "8,418", "756"],
            ["Restructuring charges", "9,170", "1,512", "7,658"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("What is the percentage change in goodwill impairment between 2017 and 2018?", text).answer == "8.98%"
    assert compute("What is the change in goodwill impairment between 2017 and 2018?", text).answer == "756"


def test_a_ratio_of_one_rows_two_years_is_the_first_said_over_the_second():
    rows = grid_lines([["", "2019", "2018"], ["Integration incentives", "208,855", "132,500"], ["Travel", "10", "12"]], "Expenses")
    text = [("p", "\n".join(rows))]
    assert compute("What is the ratio of integration incentives expense in 2019 to 2018?", text).answer == "1.58"
    assert compute("What is the ratio of integration incentives expense in 2018 to 2019?", text).answer == "0.63"
    assert compute("What is the ratio of integration incentives to travel in 2019?", text).answer == "20,885.5"  # two rows named apart
    assert compute("What is the ratio of board fees in 2019 to 2018?", text) is None  # no such row


def test_two_parts_of_one_row_are_two_columns_and_a_span_of_years_is_its_column():
    """ "… due more than 5 years as a percentage of total …" over one Total row: its More than 5
    years cell over its Total cell; "… in the 2023-2024 period" reads the column headed "2023 - 2024"."""
    rows = grid_lines(
        [
            ["", "Total", "Less than 1 year", "1 - 3 years", "More than 5 years"],
            ["Operating lease obligations", "1,000", "200", "300", "500"],
            ["Total contractual obligations", "14,461.6", "3,000", "4,476.3", "6,985.3"],
        ]
    )
    text = [("p", "\n".join(rows))]
    asked = "What was the total contractual obligations due more than 5 years as a percentage of total contractual obligations?"
    assert compute(asked, text).answer == "48.3%"
    spans = grid_lines(
        [
            ["", "2020", "2021 - 2022", "2023 - 2024", "Total"],
            ["Purchase obligations", "19,000", "1,000", "438", "20,438"],
            ["Total", "30,000", "25,000", "20,121", "75,121"],
        ]
    )
    asked = "What is the value of the company's 2023-2024 purchase obligations as a percentage of its total payment due in the 2023-2024 period?"
    assert compute(asked, [("p", "\n".join(spans))]).answer == "2.18%"


def test_a_part_adding_another_row_as_well_is_no_one_rows_cell():
    """ "the proportion of goodwill, trademarks, and other intangible assets, as well as investment
    in unconsolidated subsidiaries over total liabilities": two rows over one, not one."""
    rows = grid_lines(
        [
            ["", "2019", "2018"],
            ["Goodwill, trademarks and other intangible assets", "1,187.0", "406.2"],
            ["Investment in unconsolidated subsidiaries", "185.4", "165.8"],
            ["Total liabilities", "1,637.1", "722.5"],
        ]
    )
    text = [("p", "\n".join(rows))]
    asked = "What is the proportion of the goodwill, trademarks, and other intangible assets, as well as investment in unconsolidated subsidiaries over total liabilities in 2018?"
    assert compute(asked, text) is None
    assert (
        compute("What is the proportion of goodwill, trademarks and other intangible assets over total liabilities in 2018?", text).answer
        == "0.56"
    )


def test_a_year_that_names_a_plan_over_a_table_of_no_years_leaves_the_columns_to_words():
    """ "Barry Litwin's target amount under the 2019 plan": no column is a year's, so the parts'
    shared words ("target") name the column."""
    rows = grid_lines([["", "Target ($)", "Cap (%)"], ["Barry Litwin", "1,113,750", "200"], ["Robert Dooley", "615,000", "150"]])
    text = [("p", "\n".join(rows))]
    asked = "What percentage of Barry Litwin's target amount under the 2019 plan is Robert Dooley's target amount?"
    assert compute(asked, text).answer == "55.22%"
    dated = grid_lines([["", "2018"], ["Barry Litwin", "1,000"], ["Robert Dooley", "500"]])
    assert compute(asked, [("p", "\n".join(dated))]) is None  # a table of years without 2019's


def test_a_dash_in_a_year_named_is_nothing_in_a_sum_or_average():
    """ "PSAs granted: 36,982; —; 371,672": the average of 2017-2019 counts 2018 as 0; a row of
    percentages, or a percentage change from nothing, is not so read."""
    rows = grid_lines(
        [
            ["", "2019", "2018", "2017"],
            ["PSAs granted", "36,982", "—", "371,672"],
            ["RSUs granted", "120,000", "110,000", "90,000"],
            ["Vesting rate", "10%", "—", "12%"],
        ],
        "Awards",
    )
    text = [("p", "\n".join(rows))]
    assert compute("What was the average PSAs granted for 2017-2019?", text).answer == "136,218"
    assert compute("What was the change in PSAs granted from 2018 to 2019?", text) is None  # from nothing: the model's
    assert compute("What was the percentage change in PSAs granted from 2018 to 2019?", text) is None
    assert compute("What was the average vesting rate for 2017-2019?", text) is None


def test_two_rows_joined_with_and_in_one_year_are_summed_or_averaged():
    rows = grid_lines(
        [
            ["(millions)", "2019", "2018"],
            ["Television", "2.77", "2.77"],
            ["Local residential telephone services", "2.70", "2.96"],
            ["Research and development", "1.00", "0.90"],
        ]
    )
    text = [("p", "\n".join(rows))]
    asked = "What is the total number of subscribers for Television and Local residential telephone services in 2019?"
    assert compute(asked, text).answer == "5.47 million"
    assert compute("What is the average of television and local residential telephone services in 2018?", text).answer == "2.87 million"
    assert compute("What is the total research and development in 2019?", text) is None  # one row's own "and": no sum


def test_a_sum_over_a_run_of_years_reads_the_columns_that_span_it():
    rows = grid_lines(
        [
            ["(in thousands)", "2020", "2021 - 2022", "2023 - 2024", "Total"],
            ["Operating lease obligations", "19,373", "36,373", "19,683", "77,095"],
            ["Purchase obligations", "24,800", "8,129", "438", "33,367"],
        ]
    )
    text = [("p", "\n".join(rows))]
    assert compute("What is the company's total operating lease obligations between 2020 to 2022?", text).answer == "55,746 thousand"
    assert compute("What is the company's total operating lease obligations between 2020 to 2023?", text) is None  # half a span


def test_a_part_named_only_by_its_numbers_is_the_column_of_those_numbers():
    rows = grid_lines(
        [
            ["(in thousands)", "Total", "Less than 1 year", "Payments Due by Fiscal Year · 1-3 years", "3-5 years"],
            ["Long-term debt obligations", "300,000", "115,141", "65,087", "119,772"],
            ["Operating lease obligations", "30,000", "10,000", "12,000", "8,000"],
        ]
    )
    text = [("p", "\n".join(rows))]
    asked = "What is the difference in long-term debt obligations between 'less than 1 year' and '1-3 years'?"
    assert compute(asked, text).answer == "50,054 thousand"
    assert (
        compute("What is the difference in long-term debt obligations between '1-3 years' and '3-5 years'?", text).answer
        == "54,685 thousand"
    )


def test_a_total_row_is_no_item_of_a_sum_a_count_a_ranking_or_a_share():
    """A code review's inputs (tenth round): rows that total the others ("Consolidated", "Group",
    a "Net revenue" that sums the rows above) were summed, ranked and shared as items; a "% margin"
    column was read as a share; a "% of revenue" column stood for revenue in a change; a count of
    segments ran over a table of other things; a section's items ran on past its total."""
    from edgerag.answer.in_code import decide_from_read
    from edgerag.answer.note_title import note_title

    def decided(question: str, rows: list[list[str]]):
        d = decide_from_read(question, _units("\n".join(grid_lines(rows))))
        return d.answer if d is not None else None

    seg = [["Segment", "Revenue ($m)", "Operating income ($m)"], ["Americas", "500", "50"], ["EMEA", "300", "30"]]
    seg += [["APAC", "200", "20"], ["Consolidated", "1,000", "100"]]
    assert decided("Which are the top 2 segments by revenue?", seg) == "Americas; EMEA"
    sales = [["Revenue ($m)", "2019"], ["Products", "700"], ["Services", "300"], ["Net revenue", "1,000"]]
    assert decided("What is the total revenue in 2019?", sales) == "1,000 million"
    shares = [["", "2022 €m", "% of revenue", "2021 €m", "% of revenue"], ["Iberia", "389.5", "51.1%", "300.0", "48.0%"]]
    shares += [["France", "372.5", "48.9%", "325.0", "52.0%"], ["Group", "762.0", "100%", "625.0", "100%"]]
    assert decided("What was Iberia's share of Group revenue in 2021?", shares) == "48.0%"
    assert decided("What was the percentage change in Iberia revenue from 2021 to 2022?", shares) == "29.83%"
    margins = [["", "2022 €m", "% margin", "2021 €m", "% margin"], ["Iberia", "38.9", "10.0%", "30.0", "9.0%"]]
    margins += [["France", "37.2", "10.2%", "32.5", "10.0%"], ["Total", "76.1", "10.1%", "62.5", "9.5%"]]
    assert decided("What proportion of total operating profit did Iberia account for in 2021?", margins) != "9.0%"
    kpi = [["(in millions, except per share)", "2019", "2018"], ["Revenue", "1,200", "1,100"], ["Employees", "5,400", "5,100"]]
    kpi += [["Stores", "320", "300"]]
    assert decided("How many segments had revenue above 100 in 2019?", kpi) is None
    assert decided("How many employees did the company have in 2019?", kpi) == "5,400"  # people, not millions
    bank = [["(in millions)", "2019", "2018"], ["Operating income:", "", ""], ["Net interest income", "500", "450"]]
    bank += [["Fee and commission income", "200", "180"], ["Total operating income", "700", "630"], ["Cost of sales", "(90)", "(80)"]]
    assert decided("What items does operating income consist of?", bank) == "Net interest income; Fee and commission income"
    assert note_title("What is this note about?", _units("Revenue by segment\n12 Months Ended\nRevenue: 5")) is None


def test_review_a_half_years_figure_and_a_small_sum_are_no_years_or_parts():
    """A first half's figure beside a prior year's bracket is no year's; rows of a few cents add up
    to a total only within their own rounding, in every column."""
    from edgerag.answer.check import check_answer
    from edgerag.answer.in_code import decide_from_read

    interim = _units("Interim report. Revenue for the first half was EUR 210 million (2018: EUR 190 million).")
    assert check_answer("EUR 210 million", "EUR 210 million", "What was the revenue in 2019?", interim).abstained
    eps = [["", "2019", "2018"], ["Basic EPS", "0.40", "0.35"], ["Diluted EPS", "0.39", "0.34"], ["Dividend per share", "0.20", "0.18"]]
    assert decide_from_read("What are the components of dividend per share?", _units("\n".join(grid_lines(eps)))) is None


def test_a_change_column_read_for_a_value_asked_moves_to_the_year_asked():
    """ "What did the insurer earn from its investments in 2023?": the model read the row's "Change
    in %" (27.7), the answer is its 2023 cell; asked the change itself, the reply stays."""
    rows = [
        ["€ thousand", "2023", "2022", "Change in %"],
        ["Net investment result", "112,870", "88,410", "27.7"],
        ["Other result", "-38,240", "-41,960", ""],
    ]
    units = [passage("k", "Key figures", "\n".join(grid_lines(rows)))]
    moved = in_year_asked("27.7%", "What did the insurer earn from its investments in 2023?", units)
    assert moved is not None and moved.answer == "112,870"
    assert in_year_asked("27.7", "By what percentage did the net investment result change in 2023?", units) is None
