"""Tables as rows (issue #56, item 5): every reader writes a table row with its header as one
line, the sentence splitter and the chunker keep it whole, and text/tables.py decides a
column's superlative or a comparison of rows in code. The readers are the real ones, on files
made here (tests/docmaker.py); the end-to-end tests use the real LMDB, hnswlib and embedder."""

from __future__ import annotations

import pytest

from edgerag import EdgeRAG
from edgerag.ingest import iter_documents
from edgerag.provenance import locate
from edgerag.text.chunking import split_document
from edgerag.text.rows import grid_lines, parse_row, row_line, rows_in
from edgerag.text.sentences import split_sentences
from edgerag.text.tables import table_answer
from edgerag.text.tokens import get_tokenizer
from edgerag.types import Document

from .docmaker import html_page, make_docx, make_pdf, make_placed_pdf

CENTRIFUGE = "Lab instruments — Instrument: centrifuge; Room: B-2; Price: 12,400 EUR; Bought: 2021"
FREEZER = "Lab instruments — Instrument: freezer; Room: C-1; Price: 8,900 EUR; Bought: 12 March 2019"
INSTRUMENTS = [
    ["Instrument", "Room", "Price", "Bought"],
    ["centrifuge", "B-2", "12,400 EUR", "2021"],
    ["freezer", "C-1", "8,900 EUR", "12 March 2019"],
    ["microscope", "B-2", "45,000 EUR", "2023"],
]


def _one(path):
    docs = [d for d in iter_documents([path]) if isinstance(d, Document)]
    assert len(docs) == 1, docs
    return docs[0]


def _md_table(rows):
    head, *body = rows
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(r) + " |" for r in body])


# ---- the row line ----------------------------------------------------------------------------------
def test_a_row_line_is_written_with_its_header_and_read_back():
    line = row_line(["Instrument", "Room", "Price", "Notes"], ["centrifuge", "B-2", "12,400 EUR", ""], "Lab instruments")
    assert line == "Lab instruments — Instrument: centrifuge; Room: B-2; Price: 12,400 EUR"  # the empty cell left out
    row = parse_row(line)
    assert row.caption == "Lab instruments" and row.cells == {"Instrument": "centrifuge", "Room": "B-2", "Price": "12,400 EUR"}
    # what a cell may not hold is changed, so the line still reads back as written
    odd = row_line(["Time: start", "Note"], ["10:30", "late; see\nbelow — maybe"])
    assert odd == "Time start: 10:30; Note: late, see below – maybe"
    assert parse_row(odd).cells == {"Time start": "10:30", "Note": "late, see below – maybe"}
    verdun = "The Battle of Verdun (French: Bataille de Verdun; German: Schlacht um Verdun) was fought in 1916. It was long."
    for prose in ("Costs rose. Budget: 5m; Staff: 3", "Note: one pair only", "A plain sentence; with a semicolon.", verdun):
        assert parse_row(prose) is None, prose
    assert split_sentences(verdun) == [verdun[: verdun.index(" It")], "It was long."]  # Punkt reads it, as before


def test_a_grid_that_is_no_table_of_data_is_refused():
    assert grid_lines([["only"], ["one column"]]) is None
    assert grid_lines([["Header", "Row"]]) is None  # no row under the header
    assert grid_lines([["A", "B"], ["x" * 500, "y"]]) is None  # prose in a cell: a layout table
    assert grid_lines([]) is None and grid_lines([[""], ["", ""]]) is None  # an empty table: no rows, no error
    # a row spanning the table is written alone, and heads the rows below it as their section
    assert grid_lines([["Item", "Cost"], ["Hardware", "Hardware"], ["bolts", "3 EUR"]]) == [
        "Hardware",
        "Item: Hardware › bolts; Cost: 3 EUR",
    ]


# ---- each reader ------------------------------------------------------------------------------------
def test_markdown_pipe_tables_become_row_lines_under_their_heading_or_caption(tmp_path):
    f = tmp_path / "lab.md"
    f.write_text(
        "# Lab report\n\nThe lab bought three instruments.\n\n## Lab instruments\n\n"
        + _md_table(INSTRUMENTS)
        + "\n\n**Projects 2025**\n"
        + "| Project | Lead | Budget |\n| :-- | :-: | --: |\n| Atlas | Maria Olsen | €1.2 million |\n| Borealis | Jon \\| Berg | 800,000 EUR |\n"
        + "\n```\n| not | a table |\n|---|---|\n| in | code |\n```\n"
    )
    text = _one(f).text
    assert CENTRIFUGE in text.splitlines() and FREEZER in text.splitlines()
    assert "Projects 2025 — Project: Atlas; Lead: Maria Olsen; Budget: €1.2 million" in text
    assert "Projects 2025 — Project: Borealis; Lead: Jon | Berg; Budget: 800,000 EUR" in text
    assert "| in | code |" in text  # a fenced block is left as written
    assert "| centrifuge |" not in text


def test_html_tables_use_thead_th_or_the_first_row_and_spanning_cells(tmp_path):
    f = tmp_path / "lab.html"
    f.write_text(
        html_page(
            "Lab",
            "<h1>Lab</h1><h2>Equipment</h2><p>What the lab owns.</p>"
            "<table><caption>Lab instruments</caption>"
            "<thead><tr><th rowspan='2'>Instrument</th><th colspan='2'>Cost</th></tr><tr><th>Price</th><th>Service</th></tr></thead>"
            "<tbody><tr><td>centrifuge</td><td>12,400 EUR</td><td>400 EUR</td></tr>"
            "<tr><td>freezer</td><td>8,900 EUR</td><td>250 EUR</td></tr></tbody></table>"
            "<h2>Projects</h2><table><tr><td>Project</td><td>Budget</td></tr><tr><td>Atlas</td><td>€1.2 million</td></tr>"
            "<tr><td>Borealis</td><td>800,000 EUR</td></tr></table>"
            "<table><tr><td>a layout table of one column</td></tr><tr><td>its second cell</td></tr></table>",
        )
    )
    doc = _one(f)
    lines = doc.text.split("\n\n")
    assert (
        "Lab instruments — Instrument: centrifuge; Cost · Price: 12,400 EUR; Cost · Service: 400 EUR" in lines
    )  # the header path, issue #63
    assert "Projects — Project: Atlas; Budget: €1.2 million" in lines  # no <th>: the first row heads it
    assert "a layout table of one column" in lines and "its second cell" in lines
    at = doc.text.index("Project: Atlas")
    assert locate(doc.marks, at, at + 10) == {"section": "Lab › Projects"}


def test_docx_tables_take_the_caption_above_or_the_heading(tmp_path):
    f = make_docx(
        tmp_path / "lab.docx",
        [
            ("h", 1, "Equipment"),
            ("p", "Table 1: Lab instruments"),
            ("t", INSTRUMENTS),
            ("h", 2, "Costs"),
            ("t", [["item", "cost"], ["bolts", "3 EUR"], ["nuts", "2 EUR"]]),
        ],
    )
    doc = _one(f)
    assert "Table 1: Lab instruments — Instrument: freezer; Room: C-1; Price: 8,900 EUR; Bought: 12 March 2019" in doc.text
    assert "Costs — item: bolts; cost: 3 EUR" in doc.text
    at = doc.text.index("item: nuts")
    assert locate(doc.marks, at, at + 5) == {"section": "Equipment › Costs"}


def _pdf_table(rows):
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def test_a_pdf_table_laid_out_in_columns_becomes_rows_cited_by_page(tmp_path):
    f = make_pdf(
        tmp_path / "lab.pdf",
        [
            "Annual report. The lab grew this year and bought new instruments for its rooms.",
            "Equipment\nThe table below lists what the lab owns.\nLab instruments\n" + _pdf_table(INSTRUMENTS) + "\nPrices include tax.",
        ],
    )
    doc = _one(f)
    assert CENTRIFUGE in doc.text.splitlines() and FREEZER in doc.text.splitlines()
    assert "Prices include tax." in doc.text and "The table below lists what the lab owns." in doc.text
    at = doc.text.index("Instrument: microscope")
    assert locate(doc.marks, at, at + 10) == {"pages": [2, 2]}


def test_pdf_prose_and_labelled_values_are_not_read_as_tables(tmp_path):
    f = make_pdf(
        tmp_path / "letter.pdf",
        [
            "Date:         3 May 2025\nTo:           the lab\nFrom:         the board\nSubject:      new freezer\n"
            + "The board agreed. " * 30
        ],
    )
    text = _one(f).text
    assert not rows_in(text) and "3 May 2025" in text and "the board" in text


def test_pdf_tables_drawn_in_other_ways_are_found(tmp_path):
    rows = INSTRUMENTS[:3]
    # each row one text object, its cells set apart by kerning
    kerned = make_placed_pdf(
        tmp_path / "kerned.pdf",
        [(50, 700, "Lab instruments")]
        + [(50, 680 - 16 * r, [c for cell in row for c in (cell, -4000)][:-1]) for r, row in enumerate(rows)],
    )
    # column by column, as some generators draw it
    columns = make_placed_pdf(
        tmp_path / "columns.pdf",
        [(50, 700, "Lab instruments")] + [(50 + 110 * c, 680 - 16 * r, rows[r][c]) for c in range(4) for r in range(3)],
    )
    for f in (kerned, columns):
        lines = _one(f).text.splitlines()
        assert CENTRIFUGE in lines and FREEZER in lines, (f.name, lines)
    # numbers set right, a header on two lines, a cell wrapped onto a second line
    placed = [(50, 700, "Table 4: Projects in 2025")]
    for r, (a, b, c) in enumerate(
        [
            ("Project", "Lead", "Budget"),
            ("", "", "(EUR)"),
            ("Atlas", "Maria Olsen", "1,200,000"),
            ("Borealis", "Jon Berg and", "800,000"),
            ("", "Ana Lima", ""),
            ("Cygnus", "Per Dahl", "95,000"),
        ]
    ):
        placed += [(x, 680 - 14 * r, t) for x, t in ((50, a), (150, b), (330 - 5 * len(c), c)) if t]
    text = _one(make_placed_pdf(tmp_path / "wrapped.pdf", placed)).text
    assert "Table 4: Projects in 2025 — Project: Borealis; Lead: Jon Berg and Ana Lima; Budget (EUR): 800,000" in text.splitlines()


def test_pdf_columns_of_prose_and_lines_without_a_header_stay_text(tmp_path):
    prose = "The committee met in spring and discussed the budget for the coming year at length, agreeing that more was needed. "
    words = (prose * 6).split()
    lines = [" ".join(words[i : i + 8]) for i in range(0, len(words), 8)]
    two_columns = make_placed_pdf(
        tmp_path / "columns.pdf", [(50 + 270 * c, 740 - 13 * i, line) for c in range(2) for i, line in enumerate(lines)]
    )
    cv = make_placed_pdf(
        tmp_path / "cv.pdf",
        [(50, 700 - 14 * i, span) for i, span in enumerate(["2019 - 2021", "2015 - 2019", "2012 - 2015"])]
        + [
            (160, 700 - 14 * i, job) for i, job in enumerate(["Research engineer, Lab X", "PhD student, University Y", "MSc, University Z"])
        ],
    )
    for f in (two_columns, cv):
        text = _one(f).text
        assert not rows_in(text), text


# ---- sentences and chunks ------------------------------------------------------------------------------
def test_each_row_is_one_sentence_and_no_chunk_or_sub_chunk_cuts_one():
    rows = [
        row_line(["Lead", "Budget", "Notes"], [f"Dr. Olsen {i}", f"approx. {i},500 EUR", "Delayed. See p. 4 of the plan"], "Projects")
        for i in range(30)
    ]
    text = "Projects\n\nThe projects of the year follow. They are many.\n" + "\n".join(rows) + "\nThat is all. Thank you."
    sentences = split_sentences(text)
    for r in rows:
        assert r in sentences, r
    assert "The projects of the year follow." in sentences and "That is all." in sentences
    tok = get_tokenizer("cl100k")
    split = split_document(Document(id="d", text=text), tok, chunk_tokens=64, overlap=8, subchunk_tokens=16)
    assert len(split.chunks) > 3
    for unit in [*split.chunks, *split.subchunks]:
        for line in unit.text.splitlines():  # a row is in a unit whole, or not at all
            if any(part in line for part in ("Lead:", "Budget:", "Notes:", "Olsen", "plan")):
                assert line in rows, (line, unit.text)
    assert sum(1 for s in split.sentences if s.text in rows) >= len(rows)


# ---- decisions in code ---------------------------------------------------------------------------------
PROJECTS = [
    ["Project", "Lead", "Budget", "Start", "End"],
    ["Atlas", "Maria Olsen", "€1.2 million", "1 March 2024", "30 June 2026"],
    ["Borealis", "Jon Berg", "800,000 EUR", "2023-09-01", "2025-12-31"],
    ["Cygnus", "Ana Lima", "EUR 950 000", "January 2025", "March 2027"],
]


@pytest.fixture
def units():
    return [
        ("projects.md", "\n".join(grid_lines(PROJECTS, "Projects 2025"))),
        ("lab.pdf p. 2", "\n".join(grid_lines(INSTRUMENTS, "Lab instruments"))),
    ]


@pytest.mark.parametrize(
    "question, answer, column, returned",
    [
        ("Which project has the largest budget?", "Atlas", "Budget", "Project"),
        ("Who leads the project with the largest budget?", "Maria Olsen", "Budget", "Lead"),
        ("Which project has the smallest budget?", "Borealis", "Budget", "Project"),
        ("Who is in charge of the project with the lowest budget?", "Jon Berg", "Budget", "Lead"),
        ("What is the largest budget?", "€1.2 million", "Budget", "Budget"),
        ("Which project ends first?", "Borealis", "End", "Project"),
        ("Which project finishes last?", "Cygnus", "End", "Project"),
        ("Which project has the earliest start?", "Borealis", "Start", "Project"),
        ("Which project started most recently?", "Cygnus", "Start", "Project"),
        ("When does the project with the smallest budget end?", "2025-12-31", "Budget", "End"),
        ("Which project ends later, Atlas or Cygnus?", "Cygnus", "End", "Project"),
        ("Which is cheaper, the centrifuge or the freezer?", "freezer", "Price", "Instrument"),
        ("Which is more expensive, the freezer or the centrifuge?", "centrifuge", "Price", "Instrument"),
        ("Which instrument is the most expensive?", "microscope", "Price", "Instrument"),
        ("Which instrument costs least?", "freezer", "Price", "Instrument"),
        ("Which instrument in room B-2 is the cheapest?", "centrifuge", "Price", "Instrument"),
        ("Where is the cheapest instrument?", "C-1", "Price", "Room"),
        ("Which instrument was bought first?", "freezer", "Bought", "Instrument"),
        ("Which room has the newest instrument?", "B-2", "Bought", "Room"),
        ("How much does the most expensive instrument cost?", "45,000 EUR", "Price", "Price"),
        ("Is the centrifuge cheaper than the freezer?", "no", "Price", ""),
        ("Is the freezer cheaper than the centrifuge?", "yes", "Price", ""),
    ],
)
def test_a_column_is_decided_from_the_question_words(units, question, answer, column, returned):
    d = table_answer(question, units)
    assert d is not None, question
    assert (d.answer, d.column, d.returned) == (answer, column, returned), d
    assert d.rows[0] in units[0][1] + units[1][1] and d.sources[0] in ("projects.md", "lab.pdf p. 2")
    assert d.why.startswith(column)


@pytest.mark.parametrize(
    "question",
    [
        "Who is the director of the lab?",  # no superlative
        "Which is the largest?",  # no column named
        "Which project has the most partners?",  # a column the tables lack
        "Which is cheaper, the centrifuge or the autoclave?",  # one side is in no row
        "Who was the first director of the lab?",  # "first" of no date column
    ],
)
def test_no_column_named_decides_nothing(units, question):
    assert table_answer(question, units) is None


def test_numbers_with_units_separators_and_scales_compare_in_one_base():
    rows = [
        ["Site", "Area", "Staff", "Budget", "Duration"],
        ["North", "1.2 km²", "1,250", "€350k", "18 months"],
        ["South", "900,000 m²", "980", "€1.2m", "2 years"],
        ["East", "250 ha", "1 100", "1.200.000,50 €", "100 weeks"],
    ]
    units = [("sites", "\n".join(grid_lines(rows)))]
    assert table_answer("Which site has the largest area?", units).answer == "East"  # 2.5 km²
    assert table_answer("Which site has the most staff?", units).answer == "North"
    assert table_answer("Which site has the fewest staff?", units).answer == "South"
    assert table_answer("Which site has the biggest budget?", units).answer == "East"  # 1,200,000.50 > 1,200,000
    assert table_answer("Which site has the longest duration?", units).answer == "South"  # 730 days
    assert table_answer("Which site has the shortest duration?", units).answer == "North"
    mixed = [("m", "\n".join(grid_lines([["Item", "Price"], ["a", "10 EUR"], ["b", "12 USD"]])))]
    assert table_answer("Which item has the highest price?", mixed) is None  # EUR against USD: no decision
    rooms = [("r", "\n".join(grid_lines([["Room", "Seats"], ["101", "40"], ["102", "25"]])))]
    assert table_answer("Which room has the most seats?", rooms).answer == "101"
    assert table_answer("Which room is the largest?", rooms) is None  # a room's number is no size
    tie = [("t", "\n".join(grid_lines([["Item", "Price"], ["a", "10 EUR"], ["b", "10 EUR"]])))]
    assert table_answer("Which item has the highest price?", tie) is None


def test_dates_in_several_forms_and_ambiguous_day_month_order():
    rows = [
        ["Milestone", "Due"],
        ["Design", "15/03/2026"],
        ["Build", "2026-02-01"],
        ["Test", "April 3, 2026"],
        ["Launch", "May 2026"],
    ]
    units = [("m", "\n".join(grid_lines(rows)))]
    assert table_answer("Which milestone is due first?", units).answer == "Build"
    assert table_answer("Which milestone is due last?", units).answer == "Launch"
    us = [("u", "\n".join(grid_lines([["Task", "Deadline"], ["a", "03/04/2026"], ["b", "03/05/2026"]])))]
    assert table_answer("Which task has the earliest deadline?", us).answer == "a"  # 3 April or 4 March: "a" either way
    swap = [("s", "\n".join(grid_lines([["Task", "Deadline"], ["a", "03/04/2026"], ["b", "04/03/2026"]])))]
    assert table_answer("Which task has the earliest deadline?", swap) is None  # day-first and month-first disagree
    loose = [("y", "\n".join(grid_lines([["Task", "End"], ["a", "2026"], ["b", "March 2026"]])))]
    assert table_answer("Which task ends first?", loose) is None  # the same year: undecided at its precision


def test_an_age_column_makes_the_oldest_the_largest():
    units = [
        (
            "staff",
            "\n".join(grid_lines([["Name", "Age", "Role"], ["Ida", "34", "chemist"], ["Per", "51", "technician"], ["Lu", "29", "intern"]])),
        )
    ]
    assert table_answer("Who is the oldest?", units).answer == "Per"
    assert table_answer("What is the role of the youngest?", units) is not None


# ---- through the real index ------------------------------------------------------------------------------
def test_a_row_is_retrieved_whole_for_a_question_about_it(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    names = [
        "centrifuge",
        "freezer",
        "microscope",
        "cryostat",
        "autoclave",
        "spectrometer",
        "incubator",
        "fume hood",
        "balance",
        "sonicator",
    ]
    rows = [["Instrument", "Room", "Price", "Bought"]] + [
        [n, f"R-{i}", f"{(i + 3) * 1000:,} EUR", str(2010 + i)] for i, n in enumerate(names)
    ]
    (d / "instruments.md").write_text("# Lab instruments\n\nEverything the lab owns, by room.\n\n" + _md_table(rows) + "\n")
    (d / "minutes.md").write_text("# Minutes\n\nThe board met on Tuesday. It approved the new canteen menu and a bicycle shed.\n")
    (d / "policy.md").write_text("# Travel policy\n\nTrips abroad need the approval of the head of department.\n")
    rag = EdgeRAG(tmp_path / "ix", progress=False, text_unit="subchunks", chunk_tokens=96, chunk_overlap=16, tau=2)
    rag.insert([d])
    row = "Lab instruments — Instrument: cryostat; Room: R-3; Price: 6,000 EUR; Bought: 2013"
    sentences = [r["text"] for r in rag.index.get_many("sentences", rag.index.ids("sentences"))]
    assert row in sentences  # stored as one sentence
    ctx = rag.retrieve("In which room is the cryostat, and when was it bought?", method="text", budget=60)
    assert row in ctx.units[0].text
    for u in ctx.units:  # no retrieved unit holds part of a row
        for line in u.text.splitlines():
            if "Instrument:" in line:
                assert parse_row(line) is not None and line.startswith("Lab instruments — "), line
    decided = table_answer(
        "Which instrument is the most expensive?", [(u.id, u.text) for u in ctx.units] + [("doc", _one(d / "instruments.md").text)]
    )
    assert decided.answer == "sonicator" and decided.rows[0].endswith("Price: 12,000 EUR; Bought: 2019")


def test_a_pdf_row_sentence_keeps_its_page(tmp_path):
    f = make_pdf(tmp_path / "lab.pdf", ["Page one speaks of budgets in general terms only.", "Lab instruments\n" + _pdf_table(INSTRUMENTS)])
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([f])
    rec = next(r for r in rag.index.get_many("sentences", rag.index.ids("sentences")) if r["text"] == FREEZER)
    assert rec["loc"] == {"pages": [2, 2]}


def test_the_top_n_rows_of_a_column_are_named_in_rank_order():
    lines = grid_lines(
        [
            ["", "2019", "2018"],
            ["Prepaid services", "$221", "$180"],
            ["Prepaid bonds for German statutory costs", "188", "190"],
            ["Prepaid insurance", "62", "70"],
            ["Other prepaid expenses", "17", "70"],
        ],
        "Prepaid expenses",
    )
    units = [("p", "\n".join(lines))]
    top = table_answer("Which are the top 2 prepaid expenses for 2019?", units)
    assert top is not None and top.answer == "Prepaid services; Prepaid bonds for German statutory costs"
    assert table_answer("Which are the two smallest prepaid expenses in 2019?", units).answer == "Other prepaid expenses; Prepaid insurance"
    assert table_answer("What is the total sum of the top 3 prepaid expenses in 2019?", units) is None  # a sum: arithmetic's
    assert table_answer("Which are the top 3 prepaid expenses for 2018?", units) is None  # 70 and 70 tie at the third place


def test_a_question_asking_a_period_is_never_answered_with_a_rows_label():
    """ "In which quarter of 2023 was the head grade highest?" over quarters as columns: a period is
    asked, and the row "Ore milled (tonnes)" (the largest number of column "Q1 2023") is no answer."""
    from edgerag.text.rows import grid_lines

    grid = [["", "Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023"], ["Ore milled (tonnes)", "412,300", "428,950", "435,120", "441,630"]]
    grid.append(["Head grade (g/t Au)", "1.92", "2.05", "2.11", "1.98"])
    units = [("t", "\n".join(grid_lines(grid, "Selected quarterly information")))]
    assert table_answer("In which quarter of 2023 was the head grade highest?", units) is None
    assert table_answer("Which item was highest in Q1 2023?", units) is not None  # a thing asked: a row's label


def test_a_period_asked_over_rows_of_periods_is_a_rows_label():
    """ "Which fiscal year has the highest total number of shares purchased?" over rows "Fiscal Year
    2018", "Fiscal Year 2019": the rows are the periods asked (TAT-QA 0206-q8, lost to the guard above)."""
    from edgerag.text.rows import grid_lines

    grid = [["Period", "Total number of shares purchased", "Average price paid per share"]]
    grid += [["Fiscal Year 2018", "1,200,000", "$10.12"], ["Fiscal Year 2019", "950,000", "$11.40"]]
    units = [("t", "\n".join(grid_lines(grid, "Share repurchases")))]
    assert table_answer("Which fiscal year has the highest total number of shares purchased?", units).answer == "Fiscal Year 2018"
