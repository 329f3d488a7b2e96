"""s41rfix2: card rules for review41's kinds GB2 (Greenblatt) and MU1 (Munger), seed 9595, issue 18 bar line 2.

Each case holds an item of /work/notes/review41.md (by id, with its facts) that its new rule refuses, alone of all the
card's rules, beside neighbours from the record or the rule's edge that no rule refuses. Figures marked [M] in the
card comment are recalled, not found with the search tool this stop.
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

GREENBLATT = "greenblatt_magic_formula_screen"
MUNGER = "munger_business_quality_price"
_GB2 = "staples_working_capital_within_four_years_of_ebit_and_the_grain_in_store"

#: The Greenblatt review base, decline_outside_top_group (30 September 2008), as its items state it.
_GB = {"market_cap": "$20B", "sector": "consumer_staples", "foreign_adr": False, "ebit": "$1.5B",
       "enterprise_value": "$30B", "net_working_capital": "$500M", "net_fixed_assets": "$2B",
       "planned_holding_months": "12", "portfolio_positions": "25"}

_MU1 = "a_losing_decade_below_five_percent_leaves_no_owner_earnings"
#: The Munger review base, fair_business_wonderful_price (30 June 1995), as its items state it.
_MU = {"understandable": True, "return_on_capital": "6%", "competitive_advantage": "eroding",
       "management_integrity": "trustworthy", "incentives_aligned": True, "owner_earnings": "$500M",
       "market_value": "$4B", "long_run_growth": "0%"}

#: (card, rule, facts, refused, what): a reviewed item (refused by the rule alone) or a neighbour (kept by every rule).
RULE_CASES = [
    (GREENBLATT, _GB2, {**_GB, "enterprise_value": "$33.46B", "net_working_capital": "$10.21B"}, True,
     "review41 Greenblatt 19, IPB-GRE-MF-003-d31a0ff3abac3d25: $10.21B on $1.5B of EBIT (bound $10B)"),
    (GREENBLATT, _GB2, {**_GB, "market_cap": "$39.44B", "net_working_capital": "$12.475B"}, True,
     "review41 Greenblatt 14, IPB-GRE-MF-003-65bfdf55c2a9f96a: $12.475B on $1.5B"),
    (GREENBLATT, _GB2, {**_GB, "market_cap": "$32.03B", "net_working_capital": "$17.975B"}, True,
     "review41 Greenblatt 17, IPB-GRE-MF-003-f5360726d3b21ad2: $17.975B on $1.5B"),
    (GREENBLATT, _GB2, {**_GB, "net_working_capital": "$10B"}, False, "the edge: 4 x $1.5B + $4B"),
    (GREENBLATT, _GB2, {**_GB, "net_working_capital": "$10.005B"}, True, "just above the edge"),
    (GREENBLATT, _GB2, {**_GB, "market_cap": "$8.6B", "enterprise_value": "$12B", "ebit": "$445M",
            "net_working_capital": "$4.7B", "net_fixed_assets": "$5.35B"}, False,
     "Bunge 2009: total segment EBIT $443M, working capital about $4.7B [M], plant $5.35B (values [M])"),
    (GREENBLATT, _GB2, {**_GB, "market_cap": "$14B", "enterprise_value": "$22B", "ebit": "$3.44B",
            "net_working_capital": "$10.835B", "net_fixed_assets": "$7.125B"}, False,
     "ADM, fiscal 2008: working capital $10.834B, segment operating profit $3.441B, plant $7.125B (values [M])"),
    (GREENBLATT, _GB2, {**_GB, "ebit": "-$200M", "net_working_capital": "$5B"}, False, "a loss: left to the other rules"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-6%", "owner_earnings": "$1.37B", "market_value": "$26.3B"}, True,
     "review41 Munger 9, MUNGER-QP-003-8d24c9a2a35f02a3: -6% for a decade beside $1.37B of owner earnings"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-10%", "owner_earnings": "$320M"}, True,
     "review41 Munger 14, MUNGER-QP-003-153298b7b7d5e429: -10% beside $320M"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-5%"}, False, "the edge: -5% beside $500M"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-6%", "owner_earnings": "$10M",
                    "market_value": "$150M"}, True, "a small positive figure below -5%"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-10%", "owner_earnings": "$0"}, False, "-10% with nothing for the owners"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-10%", "owner_earnings": "-$200M", "long_run_growth": "-2%"}, False,
     "-10% with owner earnings negative too"),
    (MUNGER, _MU1, {**_MU, "return_on_capital": "-4%", "owner_earnings": "$700M", "market_value": "$3B",
                    "competitive_advantage": "none"}, False,
     "Chrysler after its turn (1983): about $700M earned [M] after a decade near -4% [M] (Time, 7 March 1983)"),
]


@pytest.mark.parametrize("card_id, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused, what):
    assert_rule_case(card_id, rule, facts, refused)
