"""A page's list read as the page prints it (issue #63 item 4, issue #62 item 5): the evidence
keeps a list's items apart (real index, real MiniLM embedder, the HTML reader), and a reply that
names pieces of its items is answered with the items whole."""

from __future__ import annotations

from edgerag import EdgeRAG, Settings
from edgerag.answer.evidence import evidence_units
from edgerag.answer.several import SEPARATOR, items_read, page_lists

from .helpers import passage

PAGE = """<html><body><h1>Register a sports club</h1>
<h2>Overview</h2>
<p>If your sports club is eligible, you can become a community amateur sports club (CASC). You'll get:</p>
<ul><li>tax relief on income, gains and profits from some activities</li>
<li>Gift Aid repayments on donations</li>
<li>business rates relief</li></ul>
<p>To benefit you must register with HM Revenue and Customs (HMRC).</p>
<h2>Membership</h2>
<p>Membership fees must be affordable. Clubs may offer equipment, coaching and post-match refreshments.</p>
</body></html>"""

ITEMS = ["tax relief on income, gains and profits from some activities", "Gift Aid repayments on donations", "business rates relief"]


def test_the_evidence_keeps_a_lists_items_on_lines_of_their_own(tmp_path):
    page = tmp_path / "casc.html"
    page.write_text(PAGE, encoding="utf-8")
    rag = EdgeRAG(tmp_path / "index", Settings(progress=False))
    rag.insert([page])
    question = "What are the benefits of registering as a CASC?"
    ctx = rag.retrieve(question, budget=3000)
    evidence = evidence_units(rag.index, rag.embedder, question, ctx.units, 400)
    lines = [line.strip() for u in evidence for line in u.text.splitlines()]
    assert all(item in lines for item in ITEMS)  # each item a line, not one run-on phrase
    assert page_lists(evidence) == [ITEMS]
    rag.close()


def test_pieces_of_a_lists_items_are_answered_with_the_items_whole():
    text = "Overview: You'll get:\n" + "\n".join(ITEMS) + "\nTo benefit you must register. Membership fees must be affordable."
    units = [passage("p", "Overview", text)]
    reply = "Tax relief, income, gains, profits, business rates relief, Gift Aid, membership fees"
    assert items_read(reply, units) == [ITEMS[0], ITEMS[2], ITEMS[1]]  # the reply's order; the fees are read elsewhere
    assert SEPARATOR.join(items_read(reply, units)).count(";") == 2


def test_a_table_row_or_one_item_is_no_list():
    rows = "Revenue:\nRevenue — Item: Services; 2019: 1,054\nRevenue — Item: Products; 2019: 2,331"
    assert page_lists([passage("p", "Revenue", rows)]) == []
    one = "You'll get:\nbusiness rates relief\nTo benefit you must register."
    assert page_lists([passage("p", "Overview", one)]) == []


def test_pieces_of_a_tables_column_headers_are_answered_with_the_headers_whole():
    rows = "\n".join(
        f"Contractual obligations — Item: {label}; Total: {t}; Less than 1 year: {a}; 1-5 years: {b}; More than 5 years: {c}"
        for label, t, a, b, c in (("Operating leases", "90", "20", "50", "20"), ("Purchase commitments", "40", "30", "10", "-"))
    )
    units = [passage("p", "Contractual obligations", "Contractual obligations:\n" + rows)]
    got = items_read("1 year, 5 years, more than 5 years", units)
    assert got == ["Less than 1 year", "1-5 years", "More than 5 years"]
