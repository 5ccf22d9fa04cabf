"""A report table whose cells or headers leave a bracket unclosed is still read back row by row
(text/rows.py `balanced_cell`): a stray ")" in a label, or a long header cut short inside "(…",
used to make every row line unreadable, so the rows were lost to code and the model guessed. A
scale noted in one column's header only ("(dollars in millions)") scales the whole table
(answer/table_cells.py `prose_scale`). A table stacked in year blocks reads as one wide table;
a change over a row of costs printed negative is on their sizes (outflow_rows.py); a sentence
saying the question more fully than a cell leaves it to the model. Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.table_cells import grids
from edgerag.text.rows import balanced_cell, grid_lines, rows_in, stacked_blocks


def test_a_stray_bracket_is_left_out_and_matched_ones_kept():
    assert balanced_cell("Sales per square metre ($)$)") == "Sales per square metre ($)$"
    assert balanced_cell("(2,879)") == "(2,879)"
    assert balanced_cell("Revenue (a") == "Revenue a"
    assert balanced_cell("(17") == "-17"


def test_a_row_with_a_stray_bracket_is_read_back_and_computed():
    grid = [
        ["", "F19", "F18"],
        ["Sales", "6,712", "6,433"],
        ["Sales per square metre ($)$)", "16,626", "15,621"],
    ]
    lines = grid_lines(grid, caption="(NZ$ MILLION)")
    assert len(rows_in("\n".join(lines))) == 2
    c = compute("What is the average sales per square metre for both F18 and F19?", [("t", "\n".join(lines))])
    assert c is not None and c.value == 16123.5


def test_a_header_cut_inside_a_bracket_keeps_its_rows_and_its_scale():
    grid = [
        ["", "", "", "(dollars in millions)  Increase/ (Decrease)", "Increase/ (Decrease)"],
        ["Years Ended December 31,", "2019", "2018", "(dollars in millions)", "2019 vs. 2018"],
        ["Interest income", "$ 121", "$ 94", "$ 27", "28.7%"],
        ["Other, net", "(44)", "(73)", "29", "39.7"],
    ]
    text = "\n".join(grid_lines(grid, header_rows=2))
    assert len(rows_in(text)) == 2
    c = compute("What is the change in Interest income from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "27 million"


def test_a_column_that_scales_itself_does_not_scale_the_others():
    grid = [
        ["", "2019", "2018", "Change $m"],
        ["Revenue", "121", "94", "27"],
        ["Costs", "50", "40", "10"],
    ]
    text = "\n".join(grid_lines(grid))
    c = compute("What is the change in Revenue from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "27"


def test_a_table_stacked_in_year_blocks_reads_as_one_wide_table():
    """Each year's segments printed under the column headers again: one row per label, its
    columns headed by the block's year ("Year Ended December 31, 2018 · Blizzard")."""
    grid = [
        ["", "", "Year Ended December 31, 2019", "", ""],
        ["", "Activision", "Blizzard", "King", "Total"],
        ["Segment net revenues", "$2,219", "$1,719", "$2,031", "$5,969"],
        ["Segment operating income", "$850", "$464", "$740", "$2,054"],
        ["", "", "Year Ended December 31, 2018", "", ""],
        ["", "Activision", "Blizzard", "King", "Total"],
        ["Segment net revenues", "$2,458", "$2,291", "$2,086", "$6,835"],
        ["Segment operating income", "$1,011", "$685", "$750", "$2,446"],
    ]
    lines = grid_lines(grid, header_rows=2, before="(amounts in millions):")
    assert len(lines) == 2
    text = "\n".join(lines)
    assert "Year Ended December 31, 2018 · Blizzard: $685" in lines[1]
    looked = look_up("What was the segment operating income of Blizzard in 2018?", [("t", text)])
    assert looked is not None and looked.answer == "$685 million"
    c = compute("What is the percentage change in total segment net revenues between 2018 and 2019?", [("t", text)])
    assert c is not None and c.answer == "-12.67%"


def test_a_table_without_repeated_headers_is_one_block():
    grid = [["", "2019", "2018"], ["Revenue", "1", "2"], ["Costs", "3", "4"]]
    assert stacked_blocks(grid, 1) == [(grid, 1)]


COSTS = "\n".join(
    grid_lines(
        [
            ["(dollars in millions)", "2019", "2018"],
            ["Interest income", "121", "94"],
            ["Early debt extinguishment costs", "(3,604)", "(725)"],
            ["Income tax expense (benefit)", "(3.7)", "(24.1)"],
            ["Net loss", "(20)", "(50)"],
        ]
    )
)


def test_a_change_in_costs_printed_negative_is_a_change_in_their_size():
    c = compute("What is the change in Early debt extinguishment costs from 2018 to 2019?", [("t", COSTS)])
    assert c is not None and c.answer == "2,879 million"


def test_a_row_that_can_go_either_way_keeps_its_signs():
    c = compute("What is the change in Income tax expense (benefit) from 2018 to 2019?", [("t", COSTS)])
    assert c is not None and abs(c.value - 20.4) < 1e-9
    loss = compute("What is the change in Net loss from 2018 to 2019?", [("t", COSTS)])
    assert loss is not None and loss.value == 30


PROSE = (
    "The accumulated benefit obligation for the United States defined benefit pension plans was $198.2 million and "
    "$172.8 million at December 31, 2019 and 2018, respectively.\n\n"
    + "\n".join(
        grid_lines(
            [
                ["(in millions)", "2019 United States", "2019 Foreign"],
                ["Accumulated benefit obligation", "53.2", "39.9"],
                ["Projected benefit obligation", "55.3", "44.0"],
            ]
        )
    )
)


def test_a_sentence_that_says_the_question_more_fully_than_the_cell_is_left_to_the_model():
    q = "What was the accumulated benefit obligation for the United States defined benefit pension plans in 2019?"
    assert look_up(q, [("t", PROSE)]) is None
    looked = look_up("What was the accumulated benefit obligation for the United States in 2019?", [("t", PROSE)])
    assert looked is not None and looked.answer == "53.2 million"


def test_a_change_printed_in_basis_points_is_read_as_printed():
    grid = [
        ["(NZ$ MILLION)", "F19", "F18", "F18 CHANGE", "CHANGE NORMALISED"],
        ["Sales", "6,712", "6,433", "4.3%", "2.4%"],
        ["ROFE (%)", "9.6", "9.5", "15 bps", "5 bps"],
    ]
    text = "\n".join(grid_lines(grid))
    c = compute("On a normalised basis, how much did ROFE increase between F18 and F19?", [("t", text)])
    assert c is not None and c.answer == "5 bps"
    looked = look_up("How much is the ROFE in F19?", [("t", text)])
    assert looked is not None and looked.answer == "9.6%"


AWARDS = "\n".join(
    grid_lines(
        [
            ["Stock-Based Compensation", "2019", "2018"],
            ["Stock options", "$2,756", "$2,926"],
            ["Total stock-based compensation expense", "$3,711", "$4,055"],
            ["Other purchase obligations and commitments", "205.6", "190.1"],
        ]
    )
)


def test_a_total_of_things_named_apart_is_not_one_row_unless_the_row_names_them_all():
    q = "What is the total stock-based compensation expense and unrecognized stock-based compensation expense in 2019?"
    assert look_up(q, [("t", AWARDS)]) is None  # "unrecognized …" is stated in the text, bound to no row
    looked = look_up("What was the total Other purchase obligations and commitments in 2019?", [("t", AWARDS)])
    assert looked is not None and looked.answer == "205.6"


def test_what_a_thing_reflects_is_a_description():
    from edgerag.answer.clause import asks_clause

    assert asks_clause("What do intersegment revenues reflect?")


def test_a_bare_number_is_no_answer_to_a_reason_or_a_description():
    from edgerag.answer.clause import number_for_description

    q = "What was the reason for the year-on-year change for revenues from FinTech and Business Services?"
    assert number_for_description("39%", q) and number_for_description("$1.2 million", "What does X represent?")
    assert not number_for_description("greater revenues from commercial payment", q)
    assert not number_for_description("39%", "What was the growth rate of revenues in 2019?")
    row = "2018 · NT$: 52,794; Years ended December 31, · 2019 · NT$: 61,990"  # a table's cells read back
    assert number_for_description(row, "What constitutes Audit fee?")
    assert not number_for_description("Audit fees: fees for the annual audit and the review of 10-Q filings", "What constitutes Audit fee?")


def test_the_result_of_something_is_a_description():
    from edgerag.answer.clause import asks_clause

    assert asks_clause("What was the result of the agreement signed on 28 June 2019?")
    assert not asks_clause("What was the revenue in 2019?")


def test_a_column_a_year_with_one_scale_said_takes_it_for_every_year():
    grid = [
        ["", "As at 31 March 2019", "2018 (S$ million)"],
        ["Share capital", "4,127", "4,127"],
        ["Total equity", "29,810", "29,712"],
    ]
    text = "\n".join(grid_lines(grid))
    c = compute("What is the average share capital across 2018 and 2019?", [("t", text)])
    assert c is not None and c.answer == "4,127 million"


CASH = "\n".join(
    grid_lines(
        [
            ["(£m)", "2019", "2018"],
            ["Cash flow from operations", "120.1", "80.4"],
            ["Tax paid", "(5.6)", "(4.1)"],
            ["Net income (loss)", "(20.0)", "(50.5)"],
            ["Less: provision for doubtful receivables", "(16.4)", "(16.1)"],
            ["Impairment of receivables", "(0.2)", "0.4"],
        ]
    )
)


def test_a_cell_of_an_outflow_printed_negative_is_said_as_its_size():
    looked = look_up("What is the amount of tax paid in 2019?", [("t", CASH)])
    assert looked is not None and looked.answer == "5.6 million"


def test_a_cell_that_can_go_either_way_or_a_deduction_keeps_its_sign():
    looked = look_up("What was the Net income (loss) in 2019?", [("t", CASH)])
    assert looked is not None and looked.answer == "-20.0 million"
    looked = look_up("What was the provision for doubtful receivables in 2018?", [("t", CASH)])
    assert looked is not None and looked.answer == "-16.1 million"
    from edgerag.answer.outflow_rows import read_as_size
    from edgerag.answer.table_cells import Amount, Cell

    row = "Item: Restructuring costs; 2019: -120; 2018: -100; % change 2019: 20%"  # a positive change is no year's cell
    cost = Cell("Restructuring costs", "2019", Amount(-120.0, False, "", "-120"), "t", row, "million")
    assert read_as_size(cost)
    looked = look_up("What was the impairment of receivables in 2019?", [("t", CASH)])  # a reversal: 2018 is positive
    assert looked is not None and looked.answer == "-0.2 million"


def test_a_long_header_cut_to_its_words_keeps_its_year():
    from edgerag.text.rows import _header

    assert _header("Estimated at Acquisition and as of December 31, 2018", 1).endswith("2018")
    assert _header("Unaudited · Three months ended · 31 December 2019", 1) == "Three months ended · 31 December 2019"
    assert _header("Payments due by period · Less than 1 year", 1) == "Payments due by period · Less than 1"  # no year: as before
    grid = [
        ["", "Estimated at Acquisition and as of December 31, 2018", "Adjustments", "Final as of December 31, 2019"],
        ["Goodwill", "$ 3,178", "$ -", "$ 3,178"],
        ["Equipment notes payable", "(99)", "6", "(93)"],
    ]
    text = "\n".join(grid_lines(grid, caption="(in thousands)"))
    looked = look_up("What are the respective equipment notes payable at 2018 and 2019?", [("t", text)])
    assert looked is not None and looked.answer == "99 thousand; 93 thousand"


def test_a_segment_named_beats_the_total_row_the_question_does_not_ask():
    grid = [
        ["(RMB in millions)", "2019", "2018"],
        ["VAS", "26,120", "20,330"],
        ["Online Advertising", "9,241", "10,800"],
        ["Total cost of revenues", "59,659", "49,744"],
    ]
    text = "\n".join(grid_lines(grid))
    c = compute("What was the percentage increase in cost of VAS revenues between 2018 and 2019?", [("t", text)])
    assert c is not None and c.answer == "28.48%"


def test_a_scale_row_with_its_currency_spelled_out_scales_the_table():
    """ "(U.S. $ in thousands)" alone on a header row, under one column, is the table's scale."""
    grid = [
        ["", "", "Fiscal Year Ended June 30,", ""],
        ["", "2019", "2018", "2017"],
        ["", "", "(U.S. $ in thousands)", ""],
        ["Cash remuneration", "$430", "$362", "$388"],
        ["Share-based payments", "1,825", "1,577", "1,772"],
    ]
    text = "\n".join(grid_lines(grid, header_rows=3))
    c = compute("What is the difference in cash remuneration between 2018 and 2019?", [("t", text)])
    assert c is not None and c.answer == "68 thousand"


def test_share_counts_take_the_tables_scale_and_a_shares_price_does_not():
    """ "Basic EPS shares outstanding" counts shares (in thousands); a grant-date fair value, an
    exercise price and net income "per common share" are a share's, whatever the table's scale."""
    grid = [
        ["(in thousands)", "2019", "2018"],
        ["Basic EPS Shares outstanding (weighted average)", "8,916,250", "8,841,166"],
        ["Weighted-Average Grant Date Fair Value", "$20.84", "$16.59"],
        ["Diluted net income per common share", "$4.14", "$2.53"],
    ]
    text = "\n".join(grid_lines(grid))
    shares = compute("What is the difference in Basic EPS Shares outstanding between 2018 and 2019?", [("t", text)])
    assert shares is not None and shares.answer == "75,084 thousand"
    price = compute("What is the change in Weighted-Average Grant Date Fair Value from 2018 to 2019?", [("t", text)])
    assert price is not None and price.answer in ("4.25", "$4.25")
    per_share = compute("What was the change in the Diluted net income per common share from 2018 to 2019?", [("t", text)])
    assert per_share is not None and per_share.answer in ("1.61", "$1.61")


def test_a_note_that_leaves_share_counts_out_of_the_scale():
    """ "(in thousands, except share and per share data)": a row of shares is counted in shares."""
    grid = [
        ["Net Loss", "2019", "2018"],
        ["Net loss", "(5,120)", "(4,310)"],
        ["Weighted average common shares, basic", "30,412", "30,230"],
    ]
    text = "\n".join(grid_lines(grid, caption="(in thousands, except share and per share data)"))
    shares = compute("What is the change in Weighted average common shares, basic from 2018 to 2019?", [("t", text)])
    assert shares is not None and shares.answer == "182"
    loss = compute("What is the change in Net loss from 2018 to 2019?", [("t", text)])
    assert loss is not None and loss.answer == "-810 thousand"
    only_per_share = "\n".join(grid_lines(grid, caption="(in thousands, except per share data)"))
    counted = compute("What is the change in Weighted average common shares, basic from 2018 to 2019?", [("t", only_per_share)])
    assert counted is not None and counted.answer == "182 thousand"


def test_a_currency_codes_scale_in_a_header_and_an_amount_at_a_rate():
    """ "USDm" over the labels and "RMB'Million" over a column scale the table; "Tax at the
    federal statutory rate" is an amount (scaled), "Effective tax rate" a rate (not)."""
    grid = [
        ["USDm", "2019", "2018"],
        ["Net profit for the year", "166.0", "-34.8"],
        ["Net profit for the year excluding impairment", "46.0", "-34.8"],
    ]
    c = compute(
        "What was the change in Net profit for the year excluding impairment from 2018 to 2019?", [("t", "\n".join(grid_lines(grid)))]
    )
    assert c is not None and c.answer == "80.8 million"
    level = [["", "Level 1 · RMB’Million", "Level 2 · RMB’Million"], ["FVPL", "14,766", "5,091"], ["FVOCI", "74,707", "7,014"]]
    read = grids([("t", "\n".join(grid_lines(level)))])[0]
    assert read.value(0, read.headers[0]).scale == "million"
    taxes = [
        ["(in millions)", "2019", "2018"],
        ["Tax provision (benefit) at federal statutory rate", "(11.9)", "38.3"],
        ["Effective tax rate", "21.0", "20.5"],
    ]
    text = "\n".join(grid_lines(taxes))
    at_rate = compute("What was the change in the Tax provision (benefit) at federal statutory rate from 2018 to 2019?", [("t", text)])
    assert at_rate is not None and at_rate.answer == "-50.2 million"
    rate = compute("What was the change in the Effective tax rate from 2018 to 2019?", [("t", text)])
    assert rate is not None and "million" not in rate.answer


def test_an_upper_header_printed_over_any_column_of_its_group_heads_the_group():
    """A page that lost its column spans prints "Fiscal 2019" over 2019's "Low" (and "2018" over
    the middle of three): each label heads its group, not the next year's first column."""
    grid = [
        ["", "", "Fiscal 2019", "", "Fiscal 2018"],
        ["", "High", "Low", "High", "Low"],
        ["First Quarter", "$ 83.14", "$ 63.81", "$ 45.24", "$ 37.43"],
        ["Second Quarter", "$ 88.08", "$ 70.26", "$ 45.14", "$ 37.55"],
    ]
    text = "\n".join(grid_lines(grid, header_rows=2))
    assert "Fiscal 2019 · High: $ 83.14" in text and "Fiscal 2018 · High: $ 45.24" in text
    three = [
        ["", "2019", "", "", "", "2018", ""],
        ["", "Cents per share", "Total amount", "Date of payment", "Cents per share", "Total amount", "Date of payment"],
        ["Final", "57", "593", "20 Sep 2019", "55", "561", "21 Sep 2018"],
        ["Interim", "50", "525", "29 Mar 2019", "49", "515", "23 Mar 2018"],
    ]
    text = "\n".join(grid_lines(three, header_rows=2))
    assert "2018 · Cents per share: 55" in text and "2019 · Date of payment: 20 Sep 2019" in text


def test_a_total_row_answers_no_line_the_question_qualifies():
    budget = "\n".join(
        grid_lines(
            [["Budget line", "Q1", "Q2"], ["Membership fees", "120,000", "118,000"], ["Total income", "259,200", "257,900"]], "Income"
        )
    )
    assert look_up("What is the catering income for Q1?", [("b", budget)]) is None  # one line of income, not their total
    assert look_up("What is the total income for Q1?", [("b", budget)]).answer == "259,200"
    assert look_up("What is the income for Q1?", [("b", budget)]).answer == "259,200"  # every word explained


def test_a_row_label_runs_on_into_its_sentence_not_into_its_cells(tmp_path):
    """ "What constitutes Audit fee?" answered "Audit fees": the clause step ran the reply on to
    the end of the first sentence holding it, and that was the fee table's row, so the short
    answer was the row's numbers ("2018 · NT$: 52,794; …"). A row's cells are no clause: the
    prose sentence that holds the words is."""
    from edgerag.answer.clause import number_for_description, whole_clause
    from edgerag.ingest import iter_documents
    from edgerag.types import Document, Unit

    page = tmp_path / "fees.html"
    page.write_text(
        "<html><body><table><tr><th></th><th>2019 NT$</th><th>2018 NT$</th></tr>"
        "<tr><td>Audit fees</td><td>62,040</td><td>52,794</td></tr>"
        "<tr><td>Tax fees</td><td>3,943</td><td>4,304</td></tr></table>"
        "<p>Audit fees consist of fees associated with the annual audit and statutory audits.</p>"
        "<p>Tax fees include fees billed for tax compliance services.</p></body></html>"
    )
    text = "\n".join(d.text for d in iter_documents([page]) if isinstance(d, Document))
    units = [Unit("chunk", "1", text, 0, 0.0, "fees.html", "c1")]
    said = whole_clause("Audit fees", units)
    assert said == "Audit fees consist of fees associated with the annual audit and statutory audits"
    assert not number_for_description(whole_clause("Tax fees", units), "What is included in Tax fees?")


def test_a_year_does_not_span_into_a_column_headed_on_its_own():
    """ "For the Year Ended" over "2018 | 2017", beside "Change Amount": the empty cell under
    "Change Amount" is no "2017", so 2017's cell is one column, not two alike."""
    grid = [
        ["", "For the Year Ended December 31,", "", "Change Amount"],
        ["", "2018", "2017", ""],
        ["", "(dollars in thousands)", "", ""],
        ["Goodwill impairment", "9,174", "8,418", "756"],
        ["Restructuring charges", "—", "752", "(752)"],
    ]
    text = "\n".join(grid_lines(grid, header_rows=3))
    assert "Change Amount: 756" in text and "2017: 756" not in text
    done = look_up("What was the goodwill impairment in 2017 and 2018, respectively?", [("g", text)])
    assert done is not None and done.answer == "8,418 thousand; 9,174 thousand"


BALANCE = "\n".join(
    grid_lines(
        [
            ["", "2019", "2018"],
            ["Land", "$773,068", "$773,068"],
            ["Accounts receivable", "204", "213"],
            ["Software-as-a-service related", "72,831", "65,646"],
            ["Gross margin", "5,215", "4,900"],
        ],
        "Balances",
    )
)


def test_a_row_named_accounts_receivable_or_related_is_a_cells_question():
    """ "accounts" and "related" name rows here, not a question of what accounts for or relates to
    something; "the company's respective" asks no row's word."""
    units = [("b", BALANCE)]
    assert look_up("What is the accounts receivable for 2019 and 2018 respectively?", units).answer == "204; 213"
    assert look_up("What are the respective software-as-a-service related revenue in 2018 and 2019?", units).answer == "65,646; 72,831"
    assert look_up("What are the company's respective land value in 2018 and 2019?", units).answer == "$773,068; $773,068"
    assert look_up("What does the land relate to?", units) is None


def test_a_margin_asked_is_no_amount_unless_the_row_names_it_whole():
    units = [("b", BALANCE)]
    assert look_up("What is the gross profit margin in 2019?", units) is None  # a margin, not "Gross margin"'s amount
    assert look_up("What is the gross margin in 2019?", units).answer == "5,215"


def test_two_columns_the_question_names_alike_are_no_one_cell():
    bonds = "\n".join(
        grid_lines(
            [
                ["", "Amortized Cost", "Unrealized Gains", "Unrealized Losses", "Fair Value"],
                ["Municipal bonds", "44,802", "13", "(110)", "44,705"],
                ["Corporate bonds", "48,499", "23", "(226)", "48,296"],
            ],
            "Securities",
        )
    )
    assert look_up("What is the net value of the unrealized gains and losses of municipal bonds?", [("s", bonds)]) is None
    assert look_up("What is the fair value of the municipal bonds?", [("s", bonds)]).answer == "44,705"


def test_the_side_of_an_either_way_row_asked_by_its_own_word_is_said_as_its_size():
    """ "the income tax benefit" of "Income tax (benefit) expense: (20.6)" is 20.6; a question
    that says the label both ways keeps the sign."""
    table = "\n".join(
        grid_lines(
            [
                ["", "2019", "2018"],
                ["Income tax (benefit) expense", "$ (20.6)", "$ 2.4"],
                ["Net income (loss)", "(6,557)", "1,523"],
            ],
            "Taxes",
        )
    )
    units = [("t", table)]
    assert look_up("What was the income tax benefit in 2019?", units).answer == "$20.6"
    assert look_up("What was the net income (loss) in 2019?", units).answer == "-6,557"
    assert look_up("What was the income tax expense in 2018?", units).answer == "$2.4"


def test_a_rows_value_in_every_year_shown_is_each_years_cell_earliest_first():
    table = "\n".join(
        grid_lines(
            [
                ["", "2019", "2018", "2017", "2019 vs 2018 % Change"],
                ["General and administrative", "$ 178,934", "$ 107,444", "$ 67,719", "66.5 %"],
                ["Research and development", "$ 90,100", "$ 80,200", "$ 70,300", "12.3 %"],
            ],
            "Expenses",
        )
    )
    units = [("e", table)]
    asked = "How much is the general and administrative expenses for the 3 financial years shown in the table (in chronological order)?"
    assert look_up(asked, units).answer == "$67,719; $107,444; $178,934"
    assert look_up("What is the research and development for each financial year listed?", units).answer == "$70,300; $80,200; $90,100"
    assert look_up("What is the research and development?", units) is None  # no year, no column named


def test_a_bare_m_over_the_labels_scales_the_table():
    grid = [["m", "2019", "2018"], ["Operating activities", "11.1", "102.6"], ["Financing activities", "(122.4)", "(90.8)"]]
    text = "\n".join(grid_lines(grid, "Cash flow"))
    assert "\nm: " not in f"\n{text}" and "(in millions) — Item: Operating activities" in text
    assert look_up("What were the financing activities in 2019?", [("c", text)]).answer == "-122.4 million"


def test_a_body_row_of_the_scale_over_years_and_column_names_is_a_header_row():
    """An HTML table whose second header row sits in the body, its scale in the first cell:
    "(In thousands) | 2019 | 2018 | Change from 2018" heads the columns, it is no row."""
    grid = [
        ["", "Year Ended December 31,", "", "2019 %"],
        ["(In thousands)", "2019", "2018", "Change from 2018"],
        ["Loss from discontinued operations", "$ 0", "$(72,836)", "(100.0%)"],
        ["Gain on sale", "$ 0", "500,471", "(100.0%)"],
    ]
    text = "\n".join(grid_lines(grid, "Discontinued operations"))
    assert "Item: (In thousands)" not in text and "Column 3" not in text
    assert look_up("What was the gain on sale in 2018?", [("d", text)]).answer == "500,471 thousand"


def test_a_percentage_change_the_table_prints_is_read_as_rounded_there():
    """A "Change" column of percentages beside the two years: the report's own rounding of the
    same change ("+3.6%" for 3.64%), never a printed value of another sign or size."""
    table = "\n".join(
        grid_lines(
            [
                ["(millions)", "2019", "2018", "Change"],
                ["Wireless", "9.96", "9.61", "+3.6%"],
                ["Impairment", "—", "(149.4)", "100%"],
                ["Capital spending", "697", "664", "(5.0%)"],
            ],
            "Subscribers",
        )
    )
    units = [("s", table)]
    assert compute("What is the percentage change in subscribers for Wireless?", units).answer == "+3.6%"
    assert compute("What was the percentage change in Wireless in 2019 compared to the previous year?", units).answer == "+3.6%"
    assert compute("What is the percentage change in Capital spending from 2018 to 2019?", units).answer == "4.97%"  # (5.0%): another sign
    assert compute("What was the percentage change in impairment?", units) is None  # 100% printed, no change computed


def test_how_many_of_a_rows_thing_is_the_rows_cell():
    """ "How many employees (FTE) were there at the end of 2019 and 2018 respectively?" over a
    five-year summary's row "Employees at year end (FTE)": the row's cells, read in code (the 0.5B
    had answered "310; 96", the new hires and apprentices of the prose). A count of the table's
    own rows or years stays a count."""
    lines = grid_lines(
        [
            ["", "2019", "2018", "2017"],
            ["Revenue", "612.4", "571.0", "540.2"],
            ["Employees at year end (FTE)", "2,412", "2,288", "2,195"],
        ],
        "Five-year summary",
    )
    text = "\n".join(lines)
    asked = "How many employees (FTE) were there at the end of 2019 and 2018 respectively?"
    assert look_up(asked, [("p", text)]).answer == "2,412; 2,288"
    assert look_up("How many years had revenue above 550?", [("p", text)]) is None


def test_a_tables_lead_in_names_what_its_rows_count_and_their_scale():
    """A PDF's table under its heading and a line of prose ("Sales volumes are measured in
    thousands of nine-litre case equivalents."), no caption on its rows: "How many cases were sold
    in China in 2017?" is the China row's 2017 cell, in thousands (the 1.5B had read Australia's
    row and the check refused it). Without the lead-in's "cases" the row is not bound."""
    rows = "\n".join(
        grid_lines([["Market", "2018", "2017"], ["New Zealand", "182", "195"], ["Australia", "96", "104"], ["China", "88", "61"]])
    )
    lead = "Sales volumes by market\n\nSales volumes are measured in thousands of nine-litre case equivalents.\n\n"
    assert look_up("How many cases were sold in China in 2017?", [("p", lead + rows)]).answer == "61 thousand"
    assert look_up("How many cases were shipped in China in 2017?", [("p", "Volumes by market\n\n" + rows)]) is None
    assert grids([("p", "Amounts by market\n\n" + rows)])[0].said_scale == ""


def test_a_users_verb_names_the_reports_noun():
    """People ask in their own words: "How much did the bank lend to customers at the end of
    2023?" is the row "Customer loans" ("lend" is "loans"; the bank is the report's own, and a year's
    "end" no row's word), "paid in dividends" the row "Dividends paid", and "lending … grow" a change
    of that row. A verb with no such noun in the table binds nothing."""
    table = "\n".join(
        grid_lines(
            [["€ million", "2023", "2022"], ["Customer loans", "41,207", "38,950"], ["Customer deposits", "45,110", "43,002"]],
            "Balance sheet",
        )
    )
    units = [("k", table)]
    assert look_up("How much did the bank lend to customers at the end of 2023?", units).answer == "41,207 million"
    assert compute("By how much did lending to customers grow from 2022 to 2023?", units).answer == "2,257 million"
    assert look_up("How much did the bank borrow from customers in 2023?", units) is None


def test_a_quarter_written_short_names_its_column():
    """ "What was SaaS revenue in 4Q23?" over columns "Quarter · 4Q23", "Quarter · 4Q22", "Year · 2023":
    the quarter's column, though the question names no four-digit year."""
    earnings = [
        ["R$ mil", "Quarter", "", "Year", ""],
        ["", "4Q23", "4Q22", "2023", "2022"],
        ["SaaS", "128,615", "98,342", "472,880", "358,610"],
    ]
    earnings.append(["Licenses", "9,340", "10,525", "36,700", "40,530"])
    text = "\n".join(grid_lines(earnings, header_rows=2))
    assert look_up("What was SaaS revenue in 4Q23?", [("k", text)]).answer == "128,615 thousand"
    assert look_up("What was SaaS revenue in 3Q23?", [("k", text)]) is None
