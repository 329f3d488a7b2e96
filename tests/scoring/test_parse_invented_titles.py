"""Labels that are no gate the card lacks (issue 13, invented-gate false positives; FM-1, paper §7.5 and §7.11).

An invented gate is a criterion the answer sets beside the card's. These tests hold four labels a careful reader
does not count as one: a bare verdict under a gate's detail bullets ("- → PROCEED"), a step numbered 0 (the writer's
preliminary), a numbered step over all of the card's checks (a title above the gates), and a worded title in a list
that follows the card where the title's own language, or its own text, shows which gate it is. Each has a counter-case
that must stay invented. Answers are written for these tests (never corpus copies); expected values were worked by
hand against the cards.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response

DCF = "buffett_owner_earnings_dcf"  # 1 Owner Earnings, 2 Discounted Intrinsic Value, 3 Margin of Safety
G7 = "graham_seven_tests_defensive"  # 1 size, 2 financial condition, 3 earnings stability, ...


def _read(text: str, card: str = DCF) -> tuple[list[tuple[int, str | None]], list[str]]:
    result = parse_response(text, card, embedder=False)
    assert result.ok, result.reason
    return [(g.gate, g.verdict) for g in result.gates], list(result.invented_gates)


# ---------------------------------------------------------------- a verdict on a line of its own


def test_an_arrow_and_a_verdict_under_a_gates_bullets_is_that_gates_finding() -> None:
    # the "- → PROCEED" bullet sits beside the gate's detail bullets: it closes nothing and names nothing
    text = ("1. Size\n"
            "   - Sales $700M against the $100M floor → PROCEED\n"
            "2. Financial condition\n"
            "   - Current ratio 300 / 120 = 2.5\n"
            "   - Long-term debt $80M vs net current assets $180M\n"
            "   - → PROCEED\n"
            "3. Earnings stability\n"
            "   - One loss year in ten\n"
            "   - → REJECT\n")
    gates, invented = _read(text, G7)
    assert invented == []
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]


# ---------------------------------------------------------------- numbered steps outside the gates


def test_a_step_numbered_zero_is_the_writers_preliminary() -> None:
    text = ("Step 0: Gather the filings\n"
            "- 10-K for the year, two calls\n"
            "\n"
            "Step 1: Owner earnings of $2.0bn after upkeep capex. PROCEED\n"
            "Step 2: Discounted at 10%, the value is $29bn. PROCEED\n"
            "Step 3: The $31bn price leaves no margin of safety. REJECT\n")
    gates, invented = _read(text)
    assert invented == []
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]


def test_a_step_past_the_card_over_all_the_checks_is_a_title() -> None:
    # "Step 4" on a three-gate card heads the writer's run of the checklist: the three gates are inside it
    text = ("Step 4: Run the checklist\n"
            "\n"
            "Checks:\n"
            "- **Owner earnings**: $2.0bn a year, PROCEED\n"
            "- **Discounted intrinsic value**: $29bn at 10%, PROCEED\n"
            "- **Margin of safety**: the $31bn price is above the value, REJECT\n")
    gates, invented = _read(text)
    assert invented == []
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]


def test_a_step_past_the_card_after_the_gates_stays_invented() -> None:
    text = ("Step 1: Owner earnings of $2.0bn. PROCEED\n"
            "Step 2: Discounted intrinsic value $29bn. PROCEED\n"
            "Step 3: Margin of safety 20%. PROCEED\n"
            "Step 4: Insider buying: none this year. FAIL\n")
    _, invented = _read(text)
    assert invented == ["Step 4: Insider buying"]


# ---------------------------------------------------------------- worded titles in a list that follows the card


def test_titles_in_another_language_take_their_places_gates() -> None:
    # item 2 is named by the card's Spanish sidecar, so the run is in Spanish: the writer's own Spanish titles for
    # items 1 and 3 are their places' gates, not criteria the card lacks
    text = ("1. Lo que gana el dueño de verdad: 2.000 millones al año. Aprobado.\n"
            "2. Valor presente: 29.000 millones al 10%. Aprobado.\n"
            "3. ¿Hay colchón? El precio de 31.000 millones está por encima del valor. Rechazado.\n")
    gates, invented = _read(text)
    assert invented == []
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]


def test_an_item_whose_text_names_its_gate_is_that_gate() -> None:
    # item 1's title is a question of the writer's, its text names the card's gate 1 and no other
    text = ("1. Is the cash real?\n"
            "\n"
            "Owner earnings come to $2.0bn after upkeep capex. Pass.\n"
            "\n"
            "2. Intrinsic value: $29bn discounted at 10%. Pass.\n"
            "\n"
            "3. Margin of safety: none at a $31bn price. Fail.\n")
    gates, invented = _read(text)
    assert invented == []
    assert gates == [(1, "PROCEED"), (2, "PROCEED"), (3, "REJECT")]


def test_an_english_title_naming_nothing_beside_named_items_stays_invented() -> None:
    # the items' text names no gate, and the run is in the card's language: "Insider buying" is the writer's own test
    text = ("1. Owner earnings: $2.0bn. PROCEED\n"
            "2. Insider buying: three directors sold. FAIL\n"
            "3. Margin of safety: 30%. PROCEED\n")
    gates, invented = _read(text)
    assert invented == ["Insider buying"]
    assert 2 not in [g for g, _ in gates]
