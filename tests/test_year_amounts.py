"""The amounts a report's sentence gives its years, one reader a pattern (answer/year_amounts.py,
issue #63): each pattern read from a sentence written here, and a sentence each must refuse."""

from __future__ import annotations

from edgerag.answer.year_amounts import YearAmount, amounts_in, blocks, bracketed, in_turn, own_year, respectively


def _read(found: list[YearAmount] | None) -> list[tuple[int, str, str]] | None:
    return None if found is None else [(p.year, p.written, p.how) for p in found]


NOTE = (
    "(1) Includes amounts capitalized related to the Company's U.S. build-to-suit facility of $41.8 million and "
    "$39.4 million as of March 31, 2019 and 2018, respectively."
)


def test_respectively_gives_the_years_their_amounts_in_order():
    found = respectively(NOTE)
    assert _read(found) == [(2019, "$41.8 million", "respectively"), (2018, "$39.4 million", "respectively")]
    assert found[0].scale == "million" and NOTE[found[0].at :].startswith("$41.8")  # where the first amount starts


def test_respectively_needs_the_word_and_as_many_amounts_as_years():
    assert respectively("Net sales were $12.4 million and $10.1 million in 2019 and 2018.") is None  # no "respectively"
    assert respectively("Net sales were $12.4 million, $10.1 million and $9.0 million in 2019 and 2018, respectively.") is None
    assert respectively("Net sales were $12.4 million in 2019, respectively.") is None  # one year


def test_a_bracketed_prior_year_gives_its_year_the_amount_inside():
    said = "Group revenue rose to £45.2 million (2018: £41.5 million), and profit to £3.1 million (2018: £2.9 million)."
    assert _read(bracketed(said)) == [(2018, "£41.5 million", "bracketed"), (2018, "£2.9 million", "bracketed")]
    assert bracketed("Group revenue rose to £45.2 million (2018 restated), across 12 stores (FY2018: 11).") == []  # no amount given


def test_the_sentences_own_year_takes_the_amount_next_to_the_subject():
    said = "Altium had US$6.9 million in long-term deferred revenue as at June 2019 which resulted in an adjustment of US$0.2 million."
    subject = ["long-term", "deferred", "revenue"]
    found = own_year(said, subject, [2018, 2019])
    assert (found.year, found.written, found.how, found.scale) == (2019, "US$6.9 million", "own year", "million")
    assert own_year(said, subject, [2017, 2018]) is None  # the year it names is not one of those counted
    two = "Revenue was $5.0 million in 2019 and costs were $3.0 million in 2018."
    assert own_year(two, ["revenue"], [2018, 2019]) is None  # two years of its own: none is the sentence's
    far = "Revenue, as the table below shows after the many adjustments made across every segment, was $5.0 million in 2019."
    assert own_year(far, ["revenue"], [2019]) is None  # more than NEAR words away
    assert own_year(far, ["revenue"], [2019], near=20).written == "$5.0 million"
    bracket = "Group revenue rose to £45.2 million (2018: £41.5 million) in 2019."
    assert own_year(bracket, ["revenue"], [2018, 2019]).written == "£45.2 million"  # 2018 is the bracket's, its amount no candidate
    only = "Net profit after tax was NZ$6.2 million (2017: NZ$5.1 million)."
    found = own_year(only, ["net", "profit", "tax"], [2017, 2018])
    assert (found.year, found.written) == (2018, "NZ$6.2 million")  # only a prior year's bracket: the figure is the next year's
    assert own_year(only, ["net", "profit", "tax"], [2016, 2017]) is None  # the year after the bracket not asked


def test_pairs_in_turn_end_where_the_words_between_do_not_join_them():
    said = (
        "A total of $6.5 million of software costs during 2019 and $7.7 million of software costs during 2018 were capitalized,"
        " resulting in an increase of the expense by $1.2 million compared to 2018."
    )
    assert _read(in_turn(said)) == [(2019, "$6.5 million", "in turn"), (2018, "$7.7 million", "in turn"), (2018, "$1.2 million", "in turn")]
    kept = in_turn(said, lambda between: "resulting" not in between)
    assert _read(kept) == [(2019, "$6.5 million", "in turn"), (2018, "$7.7 million", "in turn")]
    assert in_turn(said, lambda between: False) is None  # one pair kept: no pairing
    rates = "The statutory rate (21.0% in fiscal 2019, 24.5% in fiscal 2018 and 35.0% in fiscal 2017) applies to income."
    assert [(p.year, p.amount.value) for p in in_turn(rates)] == [(2019, 21.0), (2018, 24.5), (2017, 35.0)]  # an aside, not negative
    assert in_turn("Amortization expense was $163 in 2018, and $185 in all.") is None  # one year: no pairs


def test_blocks_give_the_amounts_to_the_years_after_them_in_order():
    said = "Amortization expense was approximately $163 and $185 in 2018 and 2017."
    assert _read(blocks(said)) == [(2018, "$163", "blocks"), (2017, "$185", "blocks")]
    period = "The amortization expense for the year ended December 31, 2019 was $163 and $185 in 2018 and 2017."
    assert _read(blocks(period)) == [(2018, "$163", "blocks"), (2017, "$185", "blocks")]  # 2019, before them, is the period
    assert blocks(said, lambda between: "amortization" in between) is None  # the words between refused
    assert blocks("Amortization expense was $163, $185 and $190 in 2018 and 2017.") is None  # three amounts, two years
    assert in_turn(said) is None and blocks("Revenue was $5.0 million in 2019 and $3.0 million in 2018.") is None  # the other pattern


def test_amounts_are_read_without_years_or_days():
    said = "On March 27, 2020 the price was $0.22, down 12.5% from 1,204 shares (note 14)."
    assert [(a.text, s) for _, a, s in amounts_in(said)] == [("$0.22", ""), ("12.5%", ""), ("1,204", "")]
    assert [a.value for _, a, _ in amounts_in("Tax paid (1,204) and €2.1bn")] == [-1204.0, 2.1]
