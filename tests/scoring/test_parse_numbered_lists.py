"""Labels beside the gates: numbered lists that follow the card's gate order, and inline bold figures
(issue 13, "gate references" and "layout"; paper §7.5).

A human reader takes an unnamed item of a numbered list by its number when the
list's named items all sit at their own gate numbers and the item states its
working or a figure instead of a title; and a bold label with its value on its
line ends with its paragraph, so a verdict after a blank line is not its. Answers are written for these tests
(never corpus copies); expected values were worked by hand against the card.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

DCF = "buffett_owner_earnings_dcf"  # 1 Owner Earnings, 2 Discounted Intrinsic Value, 3 Margin of Safety


def _read(text: str) -> tuple[list[tuple[int, str | None]], list[str]]:
    result = parse_response(text, DCF, embedder=False)
    return [(g.gate, g.verdict) for g in result.gates], list(result.invented_gates)


def test_a_worked_item_in_a_list_that_follows_the_card_is_its_numbered_gate() -> None:
    text = ("1. Owner earnings: $2.0bn after upkeep capex -> PROCEED\n"
            "2. V = 2.0 x 1.03 / (0.10 - 0.03) = $29.4bn -> PROCEED\n"
            "3. Margin of safety: the $31bn market value is above V -> REJECT\n")
    gates, invented = _read(text)
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]
    assert invented == []


def test_an_item_stating_a_count_is_not_a_gate_the_card_lacks() -> None:
    text = ("1) Owner earnings came to $640m: PROCEED\n"
            "2) 12 years of steady cash flow, discounted at 10% -> PROCEED\n"
            "3) Margin of safety -> REJECT\n")
    gates, invented = _read(text)
    assert (2, "PROCEED") in gates
    assert invented == []


def test_a_list_out_of_the_card_order_is_not_read_by_its_numbers() -> None:
    # item 1 names gate 3: the numbers do not follow the card, so item 2 is not gate 2
    text = ("1. Margin of safety: REJECT\n"
            "2. V = 40 x 1.5 = $60bn: PROCEED\n")
    gates, _ = _read(text)
    assert 2 not in [g for g, _ in gates]


def test_a_worded_title_keeps_its_name_and_is_invented() -> None:
    text = ("1. Owner earnings: PROCEED\n"
            "2. Insider buying: FAIL\n"
            "3. Margin of safety: PROCEED\n")
    gates, invented = _read(text)
    assert invented == ["Insider buying"]
    assert 2 not in [g for g, _ in gates]


def test_an_item_numbered_past_the_last_gate_is_no_gate() -> None:
    text = ("1. Owner earnings: PROCEED\n"
            "2. Intrinsic value: PROCEED\n"
            "3. Margin of safety: PROCEED\n"
            "4. Yield = 5.1% -> fine\n")
    gates, _ = _read(text)
    assert [g for g, _ in gates] == [1, 2, 3]


# ---------------------------------------------------------------- a bold label with its value inline


def test_an_inline_bold_figure_does_not_take_the_verdict_of_the_next_paragraph() -> None:
    # "Share count" is a figure beside the gates; the verdict in the paragraph after the blank line is the margin
    # of safety's, so the label is no gate the card lacks
    text = ("**Owner earnings:** $1.1bn a year, PROCEED\n"
            "**Share count:** 412 million\n"
            "\n"
            "At $74 a share the margin of safety test fails.\n")
    gates, invented = _read(text)
    assert invented == []
    assert (3, "REJECT") in gates


def test_an_inline_bold_label_with_its_own_verdict_is_still_invented() -> None:
    text = ("**Owner earnings:** $1.1bn a year, PROCEED\n"
            "**Insider buying:** none this year. FAIL\n"
            "**Margin of safety:** 30%, PROCEED\n")
    _, invented = _read(text)
    assert invented == ["Insider buying"]


def test_an_item_opening_with_its_gate_name_in_prose_counts_as_named() -> None:
    # item 1 names its gate only as the start of a computation; the list still follows the card, so the worked
    # items 2 and 3 are gates 2 and 3 and "r = max" is no gate the card lacks
    text = ("1) Owner earnings = 900 + 120 \u2212 150 \u2212 30 = $840m \u2192 PROCEED\n"
            "2) r = max(4.1%, 10%) = 10%; value = 0.84bn \u00d7 1.02 / 0.08 = $10.7bn \u2192 PROCEED (steady toll-road traffic)\n"
            "3) Buy below = 0.75 \u00d7 10.7 = $8.0bn vs market cap $9.0bn \u2192 REJECT\n")
    gates, invented = _read(text)
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]
    assert invented == []
