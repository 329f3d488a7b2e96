"""Real cases this stop's card rules refused (s35break; issue 18, bar line 2), each kept now, with the rule's
review item still refused.

Greenblatt ``net_cash_within_ten_years_of_ebit`` allowed a company without positive EBIT at most $1B of net cash.
Moderna at the end of 2020 (inside the card's 2005- vintage): $5.25B of cash, cash equivalents and investments (its
2020 annual report) and no borrowings, an operating loss of about $0.76B (a net loss of $747M), a market value near
$41B ($104.47 a share on about 395M shares: author's recollection, rounded). A loss-maker holds the cash it raised to
fund its losses, so the bound scales with the loss as with a profit: ten times EBIT either way, at least $1B.
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

GREENBLATT = "greenblatt_magic_formula_screen"


@pytest.mark.parametrize("facts, refused", [
    # Moderna, 31 December 2020: about $5B of net cash on a $0.76B operating loss (refused before)
    ({"market_cap": "$41B", "enterprise_value": "$36B", "ebit": "-$760M"}, False),
    # the review's item (C #41) and the existing loss-maker case stay refused: $95.19B on $1.5B; $1.1B on -$100M
    ({"market_cap": "$194.6B", "enterprise_value": "$99.41B", "ebit": "$1.5B"}, True),
    ({"market_cap": "$3B", "enterprise_value": "$1.9B", "ebit": "-$100M"}, True),
    # ten years of a $760M loss is $7.6B: $8B of net cash on it is refused
    ({"market_cap": "$41B", "enterprise_value": "$33B", "ebit": "-$760M"}, True),
])
def test_net_cash_scales_with_a_loss_as_with_a_profit(facts: dict[str, str], refused: bool) -> None:
    assert_rule_case(GREENBLATT, "net_cash_within_ten_years_of_ebit", facts, refused)
