"""Required elements with a closing bracketed gloss (issue 13, element recall; paper §6.3).

A card writes some elements with the bar the figure is held to in brackets:
``current ratio {current_ratio} (at least 2)``, ``buy limit {buy_limit} (75%
of intrinsic value)``. An answer states the element when it gives the words
and the figure outside the brackets; it need not repeat the card's bar.
Answers written for these tests; expected readings worked by hand.
"""

from __future__ import annotations

from ipb.scoring.parse import parse_response


def _elements(text: str, card: str) -> dict[int, list[str]]:
    result = parse_response(text, card, embedder=False)
    assert result.status == "ok", result.reason
    return {g.gate: list(g.elements) for g in result.gates}


def test_a_figure_without_the_cards_bar_states_the_element() -> None:
    got = _elements("Gate 2: financial condition. The current ratio is only 1.4x. REJECT.", "graham_seven_tests_defensive")
    assert got == {2: ["current ratio 1.4x (at least 2)"]}


def test_the_gloss_of_a_money_element_is_not_needed_either() -> None:
    got = _elements("Gate 3: buy limit. Market value $5.9B against a buy limit of $4.1B. REJECT.", "buffett_owner_earnings_dcf")
    assert got == {3: ["market value $5.9B", "buy limit $4.1B (75% of intrinsic value)"]}


def test_the_words_without_a_figure_still_state_nothing() -> None:
    got = _elements("Gate 2: financial condition. The current ratio looks weak. REJECT.", "graham_seven_tests_defensive")
    assert got == {2: []}


def test_a_bracket_inside_the_element_is_part_of_it() -> None:
    # "(growth + yield) / P/E = {lynch_ratio}": the bracket opens the formula, it is no gloss; "P/E 9x" alone is
    # the separate element "P/E {pe_ratio}", never this one
    got = _elements("Gate 2: price versus growth. P/E 9x. PROCEED.", "lynch_six_category_framework")
    assert not any(e.startswith("(growth") for e in got[2])
