"""A report question's operation and operands bound as a reader of the report would (issue #63):
"total X as a percentage of Y" is a share, not a sum; "the sum of A and B" adds two rows; an
average "between 2017 and 2019" is over every year of it; a label saying the operation's word
once ("Weighted average shares") does not swallow a question that says it twice; a count of
shares named for a per-share figure is scaled; a row named only by the words of the table's
lead-in yields to a row the question also names by words that tell it apart (table_topic.py); a
computation is never one row's printed cell, nor a share asked as a percentage an amount's cell;
a year's several rows give the one named; a percentage asked over amounts is not computed; a
listed item's own year must be the one asked. Tables written here."""

from __future__ import annotations

from edgerag.answer.arithmetic import compute
from edgerag.answer.cell_lookup import look_up
from edgerag.answer.in_code import _asks_computation, decide_from_read
from edgerag.answer.listed import listed_value
from edgerag.answer.operation import operation
from edgerag.answer.table_cells import grids, unscaled_label
from edgerag.answer.table_topic import lead_in
from edgerag.ingest import iter_documents
from edgerag.text.rows import grid_lines
from edgerag.types import Document

from .helpers import passage


def _text(grid, caption="", lead=""):
    return (lead + "\n\n" if lead else "") + "\n".join(grid_lines(grid, caption=caption))


def test_a_total_as_a_percentage_of_another_is_a_share_not_a_sum():
    op = operation("What was the total Term Loan Facility as a percentage of total contractual obligations?")
    assert op is not None and op.op == "proportion"
    text = _text(
        [
            ["", "Total", "Less than 1 year"],
            ["Term Loan Facility", "2,435.4", "24.0"],
            ["Total contractual obligations", "14,461.6", "900.0"],
        ]
    )
    c = compute("What was the total Term Loan Facility as a percentage of total contractual obligations?", [("t", text)])
    assert c is not None and c.answer == "16.84%"
    assert operation("What was the total revenue in 2018 and 2019?").op == "sum"  # type: ignore[union-attr]


def test_the_sum_of_two_rows_names_them_apart():
    op = operation("What was the sum of total revenue and total other income for FY19?")
    assert op is not None and op.op == "sum" and op.parts == ("total revenue", "total other income")
    text = _text(
        [["", "FY19", "FY18"], ["Total revenue", "179,260", "170,000"], ["Total other income", "3,034", "2,000"], ["Expenses", "100", "90"]]
    )
    c = compute("What was the sum of total revenue and total other income for FY19?", [("t", text)])
    assert c is not None and c.value == 182294


def test_an_average_between_two_years_is_over_every_year_between():
    q = "What is the average number of potential common shares excluded between 2017 and 2019?"
    assert sorted(operation(q).years) == [2017, 2018, 2019]  # type: ignore[union-attr]
    assert sorted(operation("What is the change in revenue between 2017 and 2019?").years) == [2017, 2019]  # type: ignore[union-attr]
    text = _text([["", "2019", "2018", "2017"], ["Potential common shares excluded", "8,737", "9,022", "10,806"], ["Other", "1", "2", "3"]])
    c = compute(q, [("t", text)])
    assert c is not None and c.answer == "9,521.67"


def test_an_operation_said_twice_is_the_questions_not_the_labels():
    text = _text([["", "2019", "2018"], ["Weighted average common shares outstanding", "71,005", "68,490"], ["Net loss", "(5)", "(6)"]])
    c = compute("What is the average Weighted average common shares outstanding for 2019 and 2018?", [("t", text)])
    assert c is not None and c.value == 69747.5
    c = compute("What was the Weighted average common shares outstanding in 2019?", [("t", text)])
    assert c is None or c.value == 71005  # the label's own "average": its cell, never an average of years
    assert operation("What is the average year-on-year change in Weighted average grant date fair value from 2017 to 2019?") is None


def test_a_count_of_shares_named_for_a_per_share_figure_is_scaled():
    assert not unscaled_label("Potential common shares excluded from diluted net loss per share")
    assert not unscaled_label("Shares used in computing net loss per share, basic")
    assert unscaled_label("Net loss per share")
    assert unscaled_label("Basic earnings per share")
    text = _text(
        [
            ["", "2019", "2018"],
            ["Potential common shares excluded from diluted net loss per share", "8,737", "9,022"],
            ["Net loss per share", "(0.5)", "(0.6)"],
        ],
        caption="(in thousands)",
    )
    c = compute("What is the change in potential common shares excluded from diluted net loss per share from 2018 to 2019?", [("t", text)])
    assert c is not None and c.answer == "-285 thousand"


_PROVISION = [
    ["Item", "2019", "2018", "2017"],
    ["Current: › Federal", "$ 26", "$ 764", "$ 22"],
    ["Current: › Total current", "102", "813", "66"],
    ["Deferred: › Federal", "35", "239", "61"],
    ["Deferred: › Total deferred", "-3", "270", "74"],
    ["Provision for income taxes", "$ 99", "$ 1,083", "$ 140"],
]


def test_a_row_named_only_by_the_lead_in_yields_to_one_named_apart():
    lead = "The provision for income taxes consists of the following (in millions):"
    text = _text(_PROVISION, caption="(in millions)", lead=lead)
    assert "provision for income taxes" in lead_in(text.split("\n")[2], [text])
    c = compute("What was the change in total current provision for income tax between 2017 and 2018?", [("t", text)])
    assert c is not None and c.value == 747
    c = compute("What was the change in provision for income taxes between 2017 and 2018?", [("t", text)])
    assert c is not None and c.value == 943  # the lead-in's own row, where no other is named
    plain = _text(_PROVISION, caption="(in millions)")  # no lead-in: the row holding most words, as before
    c = compute("What was the change in total current provision for income tax between 2017 and 2018?", [("t", plain)])
    assert c is not None and c.value == 943


def test_a_lead_in_that_lists_things_names_no_topic():
    lead = "Obligations under long-term debt; operating leases; claims payable were as follows:"
    text = _text(
        [
            ["", "Total", "Less than 1 Year"],
            ["Operating leases", "47,774", "15,363"],
            ["Purchase obligations: › Total", "331,454", "233,143"],
        ],
        lead=lead,
    )
    assert lead_in(text.split("\n")[2], [text]) == ""


def _units(text: str):
    return [passage("p", "Report", text)]


_CHANGES = "Research and development expenses consist of payroll expenses, contracted expenses and facility costs.\n\n" + "\n".join(
    f"(In thousands) — Item: {label}; Change between Fiscal increase (decrease) · 2019 and: {a}; 2018 and 2017: {b}"
    for label, a, b in (
        ("Payroll and payroll-related benefits", "$12,629", "$39,119"),
        ("Facilities", "-4,775", "7,834"),
        ("Other miscellaneous", "-1,163", "473"),
    )
)


def test_a_computation_asked_is_never_one_rows_printed_cell():
    d = decide_from_read("What is the change of expenses for facilities from fiscal year 2017 to 2019?", _units(_CHANGES))
    assert d is None or "4,775" not in d.answer  # the printed change of 2019 and 2018, not 2017 to 2019
    assert _asks_computation("What is the change of expenses for facilities from fiscal year 2017 to 2019?")
    assert _asks_computation("What was Facilities as a percentage of total expenses in 2019?")
    assert not _asks_computation("What is the total charges for Fiscal year 2019?")  # a Total row's cell
    assert not _asks_computation("Who funds the Eel Passage project?")


_PROPERTY = "The following table details our property and equipment, net.\n\n" + "\n".join(
    f"(In millions) — December 31: {label}; 2019: {a}; 2018: {b}"
    for label, a, b in (
        ("Buildings", "747.0", "728.6"),
        ("Property and equipment, gross", "3,520.1", "3,386.2"),
        ("Accumulated depreciation and amortization", "-2,378.2", "-2,350.0"),
        ("Property and equipment, net", "$ 1,141.9", "$ 1,036.2"),
    )
)


def test_a_share_asked_as_a_percentage_is_never_an_amounts_cell():
    q = "What is the Property and equipment, net value expressed as a percentage to Property and equipment, gross value for 2019?"
    assert look_up(q, [("t", _PROPERTY)]) is None
    assert look_up("What was the Property and equipment, gross in 2019?", [("t", _PROPERTY)]) is not None


def test_a_years_several_rows_give_the_one_named():
    grid = [["Item", "High", "Low"]]
    for fy, rows in (
        ("Fiscal Year Ended April 27, 2019", ("45.45", "41.30", "32.22")),
        ("Fiscal Year Ended April 28, 2018", ("44.95", "46.75", "42.10")),
    ):
        grid += [[f"{fy} › {q} Quarter", v, "1.00"] for q, v in zip(("First", "Second", "Fourth"), rows)]
    text = _text(grid)
    q = "What is the change in First Quarter: High price from Fiscal Year Ended April 28, 2018 to Fiscal Year Ended April 27, 2019?"
    c = compute(q, [("t", text)])
    assert c is not None and c.answer == "0.5"


def test_a_percentage_asked_over_amounts_is_not_computed():
    text = _text(
        [["", "2019", "2018"], ["Cost of net revenue", "$149,495", "$176,223"], ["Gross profit", "167,685", "208,774"]],
        caption="(dollars in thousands)",
    )
    assert compute("What is the average % of net revenue for cost of net revenue for 2019 and 2018?", [("t", text)]) is None
    c = compute("What is the average cost of net revenue for 2019 and 2018?", [("t", text)])
    assert c is not None and c.answer == "162,859 thousand"


def test_a_listed_items_own_year_must_be_the_one_asked():
    text = (
        "There were 308,000 restricted stock awards excluded from the computation of diluted earnings per share for the "
        "fiscal year ended 2019, and 113,000 awards excluded in fiscal 2018 and 98,000 in fiscal 2017."
    )
    q = "How much was the restricted stock awards excluded from the computation of diluted earnings per share for the fiscal year ended 2019?"
    d = listed_value(q, _units(text))
    assert d is None or d.answer == "308,000"
    d = listed_value(q.replace("2019", "2018"), _units(text))
    assert d is None or d.answer != "308,000"


def test_which_year_over_a_row_printed_negative_is_by_size():
    text = _text([["", "2019", "2018"], ["Loss for the year", "(177.2)", "(103.7)"], ["Revenue", "500", "400"]])
    c = compute("In which year is there a greater loss for the year?", [("t", text)])
    assert c is not None and c.answer == "2019"
    mixed = _text([["", "2019", "2018"], ["Share of net earnings", "(2,515)", "3,711"], ["Revenue", "500", "400"]])
    c = compute("In which year was the share of net earnings higher?", [("t", mixed)])
    assert c is not None and c.answer == "2018"  # signs apart: by value


def test_a_year_asked_is_never_answered_by_a_number_computed():
    text = _text([["", "2019", "2018"], ["Diluted net earnings per share", "6.58", "2.96"], ["Net earnings", "500", "400"]])
    c = compute("Which year had the lowest percentage difference in basic and diluted net earnings per share?", [("t", text)])
    assert c is None or c.answer in ("2019", "2018")  # not the 122.3% the row's change over its years is


def test_as_a_percentage_is_the_asks_word_not_a_rows():
    text = _text(
        [
            ["", "2019", "2018", "2017"],
            ["Subscription revenue", "$542,968", "$473,052", "$396,764"],
            ["Percentage of subscription revenue to total revenue", "94.2%", "87.9%", "82.3%"],
            ["Total revenue", "$576,523", "537,891", "481,985"],
        ],
        caption="(in thousands, except for percentages)",
    )
    c = compute("What is the change in Total Revenue between 2017 and 2018 as a percentage?", [("t", text)])
    assert c is not None and c.answer == "11.6%"


def test_a_listed_number_answers_one_value_of_the_kind_asked():
    text = (
        "Maintenance revenue increased $0.7 million, or 7.0%, from $9.8 million in the year ended December 31, 2018 to "
        "$10.5 million in the year ended December 31, 2019. Our gross margin decreased to 53% during 2019, as compared to "
        "54% during 2018, and depreciation decreased by $0.5 million. We recorded share of profit of RMB16 million for the "
        "fourth quarter of 2018, and share of losses of RMB1,328 million for the fourth quarter of 2019."
    )
    assert listed_value("What are the respective maintenance revenue in 2018 and 2019?", _units(text)) is None
    d = listed_value("How much did depreciation decreased by in 2019?", _units(text))
    assert d is None or d.answer != "53%"
    assert listed_value("What was the profit margin for the fourth quarter of 2018?", _units(text)) is None


def test_a_money_scale_does_not_scale_a_count():
    grid = [
        ["Item", "Number of Shares", "Amount"],
        ["Balance as of June 30, 2018", "105,371,800", "$10,537"],
        ["Balance as of June 30, 2019", "117,273,566", "$11,727"],
    ]
    text = _text(grid, caption="(U.S. $ in thousands)")
    c = compute("What is the difference in the number of shares between June 30, 2018 and 2019?", [("t", text)])
    assert c is not None and c.answer == "11,901,766"
    grid_read = grids([("t", text)])[0]
    assert grid_read.value(0, "Number of Shares").scale == ""  # type: ignore[union-attr]
    assert grid_read.value(0, "Amount").scale == "thousand"  # type: ignore[union-attr]


def test_a_periods_columns_are_the_ones_the_rest_of_the_question_names():
    """ "consolidated … between FY 2018 and FY 2019" reads the Consolidated columns, not the
    Unconsolidated ones printed first; "In the first quarter of 2018, … the high and low price"
    reads 2018's High and Low, not 2019's; with nothing to tell two columns apart, no answer."""
    rd = [
        ["Expenditure", "Unconsolidated · FY 2019", "Unconsolidated · FY 2018", "Consolidated · FY 2019", "Consolidated · FY 2018"],
        ["b. Recurring", "303", "295", "306", "298"],
        ["d. Innovation center expenditure", "1,285", "1,079", "1,352", "1,202"],
    ]
    asked = "What is the percentage change for consolidated Innovation center expenditure between FY 2018 and FY 2019?"
    assert compute(asked, [("k", _text(rd))]).answer == "12.48%"
    assert compute(asked.replace("consolidated ", ""), [("k", _text(rd))]) is None  # two columns a year, neither named
    prices = [
        ["Quarter", "Fiscal 2019 · High", "Fiscal 2019 · Low", "Fiscal 2018 · High", "Fiscal 2018 · Low"],
        ["First Quarter", "83.14", "63.81", "70.00", "62.19"],
        ["Second Quarter", "80.00", "60.00", "71.00", "61.00"],
    ]
    spread = compute(
        "In the first quarter of 2018, what was the difference between the high and low price per share?", [("k", _text(prices))]
    )
    assert spread is not None and spread.answer == "7.81"


def test_a_label_said_word_for_word_wins_over_one_said_in_part():
    """ "Audit-related Fees" is asked by its own words; "Audit Fees" only shares a prefix with them."""
    fees = [
        ["Fees", "2018", "2019"],
        ["Audit Fees", "52,794", "62,040"],
        ["Audit-related Fees", "1,283", "1,095"],
        ["Tax Fees", "4,304", "3,943"],
    ]
    assert compute("What is the average Audit-related Fees?", [("k", _text(fees))]).answer == "1,189"
    assert compute("What is the average Audit Fees?", [("k", _text(fees))]).answer == "57,417"


def test_an_average_of_rows_named_by_their_labels_is_over_those_rows():
    """ "the average number of shares owned by A and B": the two people's rows, in the column the
    question names; a question naming no row, or one, is not a sum over rows."""
    owners = [
        ["Name", "Number of Shares Beneficially Owned", "Percent Owned"],
        ["Directors › L. Gordon Crovitz", "53,819", "1.2%"],
        ["Directors › Donald P. Hutchison", "88,205", "2.0%"],
        ["Directors › Brian Kinion", "16,016", "*"],
    ]
    pair = compute("What is the average number of shares owned by L. Gordon Crovitz and Donald P. Hutchison?", [("k", _text(owners))])
    assert pair is not None and pair.answer == "71,012"
    assert compute("What is the average number of shares owned by Brian Kinion?", [("k", _text(owners))]) is None
    assert compute("What is the average number of shares owned?", [("k", _text(owners))]) is None


def test_a_split_fiscal_year_and_a_labels_short_name_are_read_as_the_report_writes_them():
    """ "in 2018/2019 from 2017/2018" over columns headed so; "PSP payments" for the row
    "Performance Share Plan (‘PSP’)"; a year chosen is said as its column writes it."""
    assert operation("What was the change in personnel expenses in 2018/2019 from 2017/2018?").years == (2019, 2018)
    income = [["€ million", "2017/2018", "2018/2019"], ["Other financial income", "182", "159"], ["Other financial expenses", "-20", "-25"]]
    assert (
        compute("What was the change in Other financial income in 2018/2019 from 2017/2018?", [("k", _text(income))]).answer
        == "-23 million"
    )
    assert compute("In which year was Other financial income larger?", [("k", _text(income))]).answer == "2017/2018"
    plans = [
        ["Plan", "2019 · £m", "2018 · £m"],
        ["Share Incentive Plan (‘SIP’)", "0.5", "0.4"],
        ["Performance Share Plan (‘PSP’)", "2.1", "1.8"],
    ]
    assert compute("What was the change in PSP payments in 2019 from 2018?", [("k", _text(plans))]).answer.startswith("0.3")


def test_a_change_in_a_row_of_averages_is_a_change_not_a_change_of_averages():
    """ "the change in the average prices for Gold in 2019 from 2018" reads the row of average
    prices in two years; "between 2017-2018, and 2018-2019" asks averages of periods, not done."""
    prices = [["Average prices", "2019", "2018"], ["Gold", "1,309", "1,281"], ["Silver", "15.5", "16.0"]]
    assert compute("What was the change in the average prices for Gold in 2019 from 2018?", [("k", _text(prices))]).answer == "28"
    plain = [["$ millions", "2019", "2018"], ["Revenue", "110", "100"], ["Costs", "50", "45"]]  # no average printed: not computed
    assert compute("What was the change in average revenue between 2018 and 2019?", [("k", _text(plain))]) is None
    above = "The following table presents the average prices of metals:\n" + _text(
        [["Metal", "2019", "2018"], ["Gold", "1,309", "1,281"], ["Silver", "16.42", "17.15"]]
    )
    assert compute("What was the change in the average prices for Gold in 2019 from 2018?", [("k", above)]).answer == "28"  # said above
    assert compute("In which year was the average prices for Silver larger?", [("k", above)]).answer == "2018"  # said above too
    assert compute("In which year was the average revenue larger?", [("k", _text(plain))]) is None  # no average printed
    assert operation("What is the change in the average total bookings between 2017-2018, and 2018-2019?") is None


def test_a_change_in_one_year_is_from_the_year_before_and_a_driver_is_no_number():
    """ "the percentage change in capitalized interest in 2019" is 2018 to 2019; "the main
    drivers for the increase in operating expenses in 2019" asks causes, not a number."""
    interest = [["$ million", "2019", "2018"], ["Interest expense", "236", "222"], ["Capitalized interest", "45", "51"]]
    assert compute("What is the percentage change in capitalized interest in 2019?", [("k", _text(interest))]).answer == "-11.76%"
    assert operation("What were the main drivers for the overall increase in operating expenses in 2019?") is None
    assert compute("What was the capitalized interest in 2019?", [("k", _text(interest))]) is None  # a cell, no computation


def test_a_proportion_of_one_over_another_is_a_fraction_and_a_part_naming_two_rows_is_none():
    """ "the proportion of finished goods over total inventories" is 0.65, A / B as analysts
    write it; "investor relations and consultants" names two rows: no one row's cell."""
    stock = [
        ["Inventories", "2019", "2018"],
        ["Raw materials", "3,445", "3,100"],
        ["Finished goods", "6,356", "5,900"],
        ["Total inventories", "9,801", "9,000"],
    ]
    assert (
        compute("What is the proportion of the value of finished goods over total inventories in 2019?", [("k", _text(stock))]).answer
        == "0.65"
    )
    costs = [
        ["Operating expense", "2019"],
        ["Investor Relations", "105,639"],
        ["Consultants", "245,386"],
        ["Total Operating Expense", "19,133,139"],
    ]
    asked = "What is the proportion of investor relations and consultants over the total operating expense in 2019?"
    assert compute(asked, [("k", _text(costs))]) is None


def test_a_clause_setting_a_thing_aside_asks_no_operation():
    """ "…, excluding the increase in other costs of $0.4 million, what is the cost …?" asks a
    value; the increase is the aside's, not a change to compute."""
    asked = (
        "For Fiscal year 2019, excluding the increase in other miscellaneous costs of $0.4 million, what is the Cost of Support Revenues?"
    )
    assert operation(asked) is None
    assert operation("What was the change in revenue from 2018 to 2019?").op == "change"  # type: ignore[union-attr]


def test_guards_of_the_report_steps_against_what_they_must_not_read():
    """The shared readers the steps changed keep their other readers: a change column across a
    split year is no year's column; a unit in parentheses is no row's short name; a label that
    is itself "A and B" is one row; a total row is no item of a sum over rows named; "over the
    years" is no "A over B"; a split year before a comma, or across a century, is the year it ends in."""
    from edgerag.answer.cell_lookup import look_up
    from edgerag.answer.operation import years_in
    from edgerag.answer.table_cells import content, label_score

    changed = [["$ millions", "2019", "2018", "2018/2019 change"], ["Revenue", "110", "100", "10%"], ["Costs", "50", "45", "11%"]]
    assert look_up("What was the revenue in 2019?", [("k", _text(changed))]).answer == "110 million"
    assert compute("In which year was revenue larger?", [("k", _text(changed))]).answer == "2019"
    assert label_score("Sales (GWh)", content("What was the change in Generation in GWh?")) == 0
    rd = [
        ["$", "2019", "2018"],
        ["Revenue", "1,000", "900"],
        ["Research and development", "100", "90"],
        ["Total operating expenses", "500", "450"],
    ]
    assert compute("What is the research and development expenses as a percentage of revenue in 2019?", [("k", _text(rd))]).answer == "10%"
    pay = [["Name", "Salary"], ["John Other", "100"], ["Mary Smith", "200"], ["Total", "300"]]
    assert compute("What is the average salary of John Other and Mary Smith in total?", [("k", _text(pay))]).answer == "150"
    assert operation("What is the proportion of cash in total assets over the years 2018 and 2019?").op == "proportion"  # type: ignore[union-attr]
    assert years_in("In 2018/19, what was X?") == (2019,) and years_in("1999/00") == (2000,)


def test_the_years_a_row_is_negative_in_and_a_bound_said_as_the_table_prints_it():
    """ "In which year was X negative?" is the years below 0; "How many years was there a
    positive …?" counts those above; a bound with no scale word is in the table's own scale
    ("less -10,000" over a table in thousands is -10,000 thousand, not -10)."""
    tax = "(in thousands)\n" + _text(
        [["Item", "2018", "2019"], ["Provision for income taxes", "$18,467", "-$8,280"], ["Net loss", "-26,199", "-9,187"]]
    )
    assert compute("In which year was Provision for income taxes negative?", [("k", tax)]).answer == "2019"
    assert compute("How many years was there a positive Provision for income taxes?", [("k", tax)]).answer == "1"
    assert compute("In which year was the net loss less -10,000?", [("k", tax)]).answer == "2018"


def test_questions_as_an_outside_tester_asked_them():
    """Held-out set 2's phrasings (the tester read no code): "How many times did A cover B" is A / B;
    "What share of B did A account for" is A of B; "What percentage of gross revenue was recurring"
    is the row "Recurring revenue"; a whole named as a sum ("total income (net interest income plus
    other income)") or a forecast ("What growth … does the company now expect for 2024?") is no
    computation of code's; "the gross NPA ratio" names a row, not a ratio to compute."""
    pl = [["£'000", "2024", "2023"], ["Revenue", "486,215", "452,908"], ["Operating profit", "35,080", "27,650"]]
    pl += [["Finance costs", "(9,874)", "(8,903)"], ["Profit before taxation", "25,818", "18,895"]]
    units = [("k", _text(pl))]
    assert compute("How many times did operating profit cover finance costs in 2024?", units).answer == "3.55"
    assert compute("By what percentage did profit before tax increase from 2023 to 2024?", units).answer == "36.64%"
    assert look_up(
        "What was gross profit for the 52 weeks ended 30 March 2024?", [("k", _text([*pl, ["Gross profit", "184,762", "169,637"]]))]
    ).answer == ("184,762 thousand")
    sales = [["CHF m", "H1 2024", "H1 2023"], ["Oncology", "1,842", "1,706"], ["Total net sales", "4,638", "4,531"]]
    assert compute("What share of total net sales did Oncology account for in H1 2024?", [("k", _text(sales))]).answer == "39.72%"
    revenue = [["R$ mil", "2023", "2022"], ["Recurring revenue", "683,915", "566,480"], ["Gross revenue", "805,220", "695,250"]]
    assert compute("What percentage of gross revenue was recurring in 2023?", [("k", _text(revenue))]).answer == "84.94%"
    income = [
        ["₹ crore", "FY24", "FY23"],
        ["Net interest income", "3,852", "3,274"],
        ["Other income", "1,108", "946"],
        ["Operating expenses", "2,571", "2,238"],
    ]
    summed = "What were operating expenses as a percentage of total income (net interest income plus other income) in FY24?"
    assert (
        compute(summed, [("k", _text(income))]) is None and operation(summed).op == "proportion"
    )  # the check still knows a share is asked
    assert operation("What growth in core operating income does the company now expect for 2024?") is None
    assert operation("What is the change in expected volatility from 2018 to 2019?").op == "change"  # a row's "expected"
    ratios = [["Key ratios", "FY24", "FY23"], ["Gross NPA", "2.14", "2.87"], ["Net NPA", "0.68", "0.97"]]
    assert look_up("What was the gross NPA ratio as at March 31, 2023?", [("k", _text(ratios))]).answer == "2.87"


def test_a_fiscal_years_label_names_its_column_beside_the_months_it_spans():
    """ "FY2023 · (Apr 2023 – Mar 2024)" is the column of FY2023, as the report names it, not of no year."""
    revenue = [
        ["¥ million", "FY2022", "FY2023"],
        ["", "(Apr 2022 – Mar 2023)", "(Apr 2023 – Mar 2024)"],
        ["Cargo and mail", "62,480", "51,905"],
        ["Other", "81,180", "100,090"],
    ]
    units = [("k", "\n".join(grid_lines(revenue, header_rows=2)))]
    assert compute("What was the percentage change in cargo and mail revenue from FY2022 to FY2023?", units).answer == "-16.93%"


def test_years_down_the_side_are_read_as_columns():
    """A results summary prints its years as rows ("FY2023" | "FY2022") under columns of items with
    their unit ("Operating revenue · ¥ million"): read turned, a year's value and a change bind, and
    the unit is no word the question must say."""
    summary = [["", "Operating revenue", "Operating income", "Ordinary income"], ["", "¥ million", "¥ million", "¥ million"]]
    summary += [["FY2023", "612,480", "46,430", "43,115"], ["FY2022", "534,210", "24,340", "19,880"]]
    units = [("k", "\n".join(grid_lines(summary, header_rows=2)))]
    assert look_up("What was ordinary income in FY2023 and FY2022 respectively?", units).answer == "43,115 million; 19,880 million"
    assert compute("What was the percentage change in operating income from FY2022 to FY2023?", units).answer == "90.76%"


def test_a_list_item_answers_only_a_value_it_names_and_never_a_computation():
    """ "What was international passenger revenue …?" is not the item "operating revenue was ¥612,480
    million" (one word of three the question tells its subject by), and "the average quarterly net
    revenue" is computed or nothing, never a list's "Net revenue retention (NRR) of 108%" (held-out
    set 2's wrong answers)."""
    results = passage(
        "r",
        "Overview",
        "As a result, operating revenue was ¥612,480 million, operating income was ¥46,430 million and profit was ¥29,860 million.",
    )
    assert listed_value("What was international passenger revenue in the fiscal year ended March 31, 2024?", [results]) is None
    assert listed_value("What was operating income in the year?", [results]).answer == "¥46,430 million"
    kpis = passage("k", "Highlights", "Net revenue retention (NRR) of 108% in 2023, with gross churn of 0.9% per month.")
    assert listed_value("What was the average quarterly net revenue in 2023?", [kpis]) is None


def test_together_is_a_sum_and_a_list_item_names_two_telling_words():
    """A third outside tester's set (first run): "What were Road and Sea revenues together for the
    full year 2023?" is their sum, not both cells; "How much did the operator pay for spectrum
    licences in 2023?" is not the list item "… an interim dividend of €0.30 was paid" (one word of
    four), while "commercial analysis and consultancy £2.2 million", split at its "and", still is."""
    rows = [["NOK million", "2023", "2022"], ["Road", "5,512", "5,104"], ["Sea", "3,288", "3,010"], ["Air", "1,200", "1,150"]]
    assert compute("What were Road and Sea revenues together in 2023?", [("k", _text(rows))]).answer == "8,800 million"
    dividend = passage(
        "d",
        "Dividend",
        "The Board will propose a dividend of €0.80 per share for 2023, of which an interim dividend of €0.30 was paid in December 2023.",
    )
    assert listed_value("How much did the operator pay for spectrum licences in 2023?", [dividend]) is None
    income = passage(
        "i",
        "Income",
        "Research grants brought in £6.1 million, commercial analysis and consultancy £2.2 million, donations and legacies £0.7 million in 2024.",
    )
    assert listed_value("How much did commercial analysis and consultancy earn in 2024?", [income]).answer == "£2.2 million"


def test_a_year_asked_reads_the_whole_years_column_not_a_quarters():
    """Columns "Fourth quarter · 2023" and "Full year · 2023": a question naming the year reads the
    full year's (a third outside tester's "Road and Sea revenues together for the full year 2023"
    summed the quarter); one naming the quarter reads the quarter's."""
    grid = [["NOK million", "Fourth quarter", "", "Full year", ""], ["", "2023", "2022", "2023", "2022"]]
    grid += [["Road", "1,420", "1,300", "5,512", "5,104"], ["Sea", "864", "800", "3,288", "3,010"]]
    units = [("k", "\n".join(grid_lines(grid, header_rows=2)))]
    assert compute("What were Road and Sea revenues together for the full year 2023?", units).answer == "8,800 million"
    assert compute("What was the sum of Road and Sea revenues in 2023?", units).answer == "8,800 million"
    assert compute("What was the sum of Road and Sea revenues in the fourth quarter of 2023?", units).answer == "2,284 million"


def test_a_row_named_with_its_tables_caption_wins_over_a_row_named_alone():
    """A results table with quarter and full-year columns and a "Revenue by category" table below
    (a third outside tester's food group): "dairy revenue" is the row "Dairy" under its caption,
    not the first table's "Revenue", though each row's label holds one of the two words."""
    results = [["AED million", "Q4 2023", "Q4 2022", "FY 2023", "FY 2022"], ["Revenue", "1,126.4", "1,042.8", "4,318.7", "3,986.2"]]
    results.append(["EBITDA", "198.5", "176.2", "752.4", "668.9"])
    category = [["AED million", "FY 2023", "FY 2022"], ["Dairy", "1,842.5", "1,716.3"], ["Beverages", "1,106.9", "1,021.4"]]
    text = "\n".join(grid_lines(results, "Q4 and full-year 2023 results")) + "\n\n" + "\n".join(grid_lines(category, "Revenue by category"))
    units = [("k", text)]
    assert compute("What was the percentage increase in dairy revenue in 2023?", units).answer == "7.35%"
    assert compute("What was the average yearly Beverages revenue over 2022 and 2023?", units).answer == "1,064.15 million"
    assert compute("What was the percentage increase in revenue in 2023?", units).answer == "8.34%"


def test_people_words_for_a_comparison_a_change_a_ratio_and_a_share():
    """A fourth outside tester's phrasings, each a general form of asking: which of two years
    ("Was X higher in 2022 or in 2023?"), a change behind a yes-no lead ("…, and by how much?"),
    "in per cent" and "How fast did X grow", "How many times larger was A than B", "A was how
    many times B" and "What proportion of B went on A"; computed over a table written here."""
    grid = [["€'000", "2023", "2022"], ["Profit for the financial year", "12,040", "13,115"], ["Electricity sold (GWh)", "9,418", "10,206"]]
    grid += [["Loans to customers", "54,210.8", "47,885.5"], ["Data", "874.9", "713.4"], ["Voice", "612.4", "640.1"]]
    units = [("k", _text(grid))]
    assert compute("Was the profit for the financial year higher in 2022 or in 2023?", units).answer == "2022"
    assert compute("Did the group sell more electricity in 2022 or in 2023?", units).answer == "2022"
    assert (
        compute("Did the bank lend more to customers at the end of 2023 than a year earlier, and by how much?", units).answer
        == "6,325.3 thousand"
    )
    assert compute("By how much did electricity sold change between 2022 and 2023, in per cent?", units).answer == "-7.72%"
    assert compute("How fast did data grow in 2023, in per cent?", units).answer == "22.64%"
    assert compute("How many times larger was data than voice in 2023?", units).answer == "1.43"
    assert compute("Data was how many times voice in 2023?", units).answer == "1.43"
    assert operation("How many times did the board meet in 2023?") is None  # a count, no ratio
    spend = [["£", "Total 2024", "Total 2023"], ["Income from:", "", ""], ["Charitable activities", "3,225,195", "2,874,460"]]
    spend += [["Total income", "5,125,045", "4,565,073"], ["Expenditure on:", "", ""], ["Charitable activities", "4,237,002", "3,951,118"]]
    spend += [["Total expenditure", "4,657,749", "4,340,020"]]
    units = [("k", _text(spend))]
    assert compute("What proportion of total expenditure in 2024 went on charitable activities?", units).answer == "90.97%"
    assert compute("How fast did total income grow in the year to March 2024, in per cent?", units).answer == "12.27%"


def test_a_breakdown_under_of_which_is_its_rows_and_a_part_is_the_row_that_says_all_of_it(tmp_path):
    """An Italian utility's key figures in Markdown: "EBITDA", then "of which:" and items marked
    "–", then "EBIT". Read by the real reader, the items are EBITDA's ("EBITDA › of which: › –
    Networks"), EBIT is no item of it, and "(€ million)" leaves no "()" behind; "water EBITDA" is
    the one row that says both words, though its own label says more."""
    md = "\n".join(
        [
            "### Key figures",
            "",
            "| (€ million) | 2023 | 2022 |",
            "|---|---|---|",
            "| EBITDA | 812.4 | 734.9 |",
            "| of which: | | |",
            "| – Networks (electricity and gas distribution) | 298.6 | 281.2 |",
            "| – Integrated water service | 107.6 | 86.2 |",
            "| EBIT | 391.8 | 352.6 |",
        ]
    )
    (tmp_path / "figures.md").write_text(md)
    text = "\n\n".join(d.text for d in iter_documents([tmp_path / "figures.md"]) if isinstance(d, Document))
    assert "Key figures (€ million) — Item: EBITDA › of which: › – Integrated water service; 2023: 107.6" in text
    assert "— Item: EBIT; 2023: 391.8" in text
    units = [("k", text)]
    assert compute("How many times larger was Networks EBITDA than water EBITDA in 2023?", units).answer == "2.78"


def test_month_ranges_name_quarters_halves_and_the_whole_year():
    """A Swedish year-end report's columns "Oct–Dec 2023" and "Jan–Dec 2023": the fourth quarter
    and the whole year; "Jan–Jun" is the first half; "the year to March 2024" is no month asked."""
    from edgerag.answer.periods import Period, column_period, periods_asked

    assert column_period("Oct–Dec 2023", 2023) == Period(2023, "quarter", 4)
    assert column_period("Jan-Jun 2024", 2024) == Period(2024, "half", 1)
    assert column_period("Jan–Dec 2023", 2023) is None  # the whole year: no part
    assert periods_asked("How fast did income grow in the year to March 2024?") == ()
    grid = [["SEK m", "Oct–Dec 2024", "Oct–Dec 2023", "Jan–Dec 2024", "Jan–Dec 2023"]]
    grid += [["Items affecting comparability", "-22", "-37", "-61", "-95"], ["Net sales", "2,410", "2,302", "9,315", "8,964"]]
    units = [("k", _text(grid))]
    assert look_up("What were net sales for the full year 2023?", units).answer == "8,964 million"
    assert look_up("What were net sales in the fourth quarter of 2023?", units).answer == "2,302 million"


def test_a_listed_count_never_answers_money_and_the_reports_own_entity_tells_no_item():
    """Prose a fourth outside tester's telco and palm-oil excerpts hold: "How much money did data
    services bring in?" is not "of whom 44.6 million used data services"; "How much crude palm oil
    did the group produce?" is not "The Group replanted 4,115 hectares of old palms …"."""
    subs = passage(
        "p1",
        "Results",
        "Savannah Mobile ended 2023 with 79.4 million mobile subscribers, of whom 44.6 million used data services, and 12.1 million used mobile money.",
    )
    assert listed_value("How much money did data services bring in during 2023?", [subs]) is None
    money = passage("p3", "Revenue", "In 2023 data services brought in ₦412.3 billion, voice ₦301.2 billion and SMS ₦24.4 billion.")
    assert listed_value("How much money did data services bring in during 2023?", [money]).answer == "₦412.3 billion"
    palms = passage(
        "p2",
        "Estates",
        "The Group replanted 4,115 hectares of old palms in 2023 (2022: 3,640 hectares), and planted 1,020 hectares of new land.",
    )
    assert listed_value("How much crude palm oil did the group produce in 2022?", [palms]) is None


def test_a_listed_value_of_a_later_year_answers_nothing_of_the_year_asked():
    """An outlook sentence on a page headed with the year asked (an outside tester's held-out set
    3): "For 2024, the group targets … eCapex of around €1.45 billion" is no 2023 spending."""
    page = passage(
        "p4", "Full year 2023 results", "For 2024, the group targets EBITDAaL growth of 2% to 3% and eCapex of around €1.45 billion."
    )
    assert listed_value("How much did the group spend on eCapex in 2023?", [page]) is None
    spent = passage(
        "p5", "Full year 2023 results", "In 2023 the group spent €1.49 billion on eCapex and €0.31 billion on spectrum licences."
    )
    assert listed_value("How much did the group spend on eCapex in 2023?", [spent]).answer == "€1.49 billion"


def test_a_half_of_quarters_a_difference_from_the_year_before_and_the_one_row_that_says_it():
    """A fourth outside tester's forms: "net sales in the first half of 2024" over quarter columns
    only is Q1 + Q2; "How many more … at the end of 2023 than a year earlier?" is 2023 less 2022;
    "subscribers" is the one row "Mobile subscribers (million)" though it says "mobile" besides,
    never a row with two words more ("Total deferred tax asset" for "total assets")."""
    quarters = [["SEK m", "Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024"], ["Industrial Automation", "1,688", "1,779", "1,702", "1,856"]]
    quarters.append(["Flow Technology", "2,101", "2,244", "2,150", "2,308"])
    units = [("k", _text(quarters))]
    assert compute("What were Industrial Automation's net sales in the first half of 2024?", units).answer == "3,467 million"
    assert compute("What were Industrial Automation's net sales in the second quarter of 2024?", units) is None  # one cell: looked up
    kpis = [["", "2023", "2022"], ["Mobile subscribers (million)", "79.4", "75.8"], ["Data users (million)", "44.6", "38.1"]]
    units = [("k", _text(kpis, "Key performance indicators"))]
    assert compute("How many more subscribers did they have at the end of 2023 than a year earlier?", units).answer == "3.6 million"
    assert look_up("How many subscribers were there at the end of 2022?", units).answer == "75.8 million"
    tax = [
        ["$", "2019", "2018"],
        ["Deferred tax assets:", "", ""],
        ["Total deferred tax asset", "1,112,987", "1,004,512"],
        ["Valuation allowance", "(12,400)", "(11,900)"],
    ]
    assert look_up("What is the total assets as of June 30, 2019?", [("k", _text(tax))]) is None
