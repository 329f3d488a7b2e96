"""s55rfix2: kinds s55review left open (issue 18 bar: no fact contradicts another or its date).

Each kind has rule cases worked by hand (a review item's facts refused, its neighbour kept) and a run of the review's
own ('ipb perturb --card C --base B --n 1000 --seed 11212', the bases s55review read) asserting the kind's count is 0,
with a check that the run still draws near the new edge. Counts before -> after are in the commit messages; each run
test fails with the previous card put back (checked).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import assert_rule_case, review_run

SEED = 11212


def _range(card_id: str, name: str) -> tuple[Decimal, Decimal]:
    from ipb.engine.registry import compiled_card
    low, high = compiled_card(card_id).card.inputs[name].range
    return low, high


# --------------------------------------------------------------------------- kind 1: Soros's leveraged limit
#
# s55review (bias_unclear_gate1_inconclusive, 31 January 2000): the largest position set at 111% (#368), 166% (#296)
# and 191% (#42) of the fund while the prevailing bias is unclear (108 of 1,000 items above 100%, 48 above 150%).
REFLEXIVE = "soros_reflexive_hypothesis_trade_construction"
_LEVER = "leverage_needs_a_complete_hypothesis"
_R368 = {"confirmation_rounds": "1", "feedback_loop": "self_reinforcing", "hypothesis_confirmed": True,
         "initial_position": "5%", "loss_budget": "3%", "max_position": "111%", "prevailing_bias": "unclear",
         "stop_distance": "6.5%"}


@pytest.mark.parametrize("limit, bias, loop, refused", [
    ("111%", "unclear", "self_reinforcing", True),       # #368
    ("105%", "identified", "self_correcting", True),     # a bias, but nothing for leverage to ride
    ("105%", "identified", "absent", True),
    ("100%", "unclear", "self_reinforcing", False),      # the edge: the fund's own capital
    ("111%", "identified", "self_reinforcing", False),   # a complete hypothesis may borrow (sterling, 1992)
    ("25%", "unclear", "self_reinforcing", False),       # the base
])
def test_soros_leverage_needs_a_complete_hypothesis(limit, bias, loop, refused):
    # s57weak: with #368's 6.5% stop a limit above 100% also loses more than the 3% budget stopped out (111% x 6.5% =
    # 7.2%), which leverage_only_where_the_whole_limit_fits_the_loss_budget now refuses; a 2.5% stop (2.8% at 111%)
    # keeps each case on this rule alone
    facts = {**_R368, "max_position": limit, "prevailing_bias": bias, "feedback_loop": loop, "stop_distance": "2.5%"}
    assert_rule_case(REFLEXIVE, _LEVER, facts, refused)


@pytest.mark.parametrize("value, kept", [("1.91", False), ("1.66", False), ("1.55", False), ("1.50", True),
                                         ("1.00", True), ("0.25", True)])
def test_soros_position_limit_range_ends_at_the_sterling_trade(value, kept):
    low, high = _range(REFLEXIVE, "max_position")
    assert (low <= Decimal(value) <= high) == kept


def test_soros_reflexive_items_borrow_only_on_a_complete_hypothesis():
    run = review_run(REFLEXIVE, "bias_unclear_gate1_inconclusive.yaml", SEED)
    limits = [f for _, f in run if f.get("max_position") is not None]
    assert len(limits) >= 900, len(limits)
    assert [f["max_position"] for f in limits if f["max_position"] > Decimal("1.5")] == []
    assert [f for f in limits if f["max_position"] > 1 and not (
        f.get("prevailing_bias") == "identified" and f.get("feedback_loop") == "self_reinforcing")] == []
    assert sum(f["max_position"] > Decimal("0.5") for f in limits) >= 100  # large limits are still drawn
    assert {item["investment_verdict"] for item, _ in run} == {"ABANDON_HYPOTHESIS", "INCONCLUSIVE", "TAKE_POSITION"}


# --------------------------------------------------------------------------- kind 2: Buffett's D&A and maintenance
#
# s55review (unpredictable_technology, 31 December 1999): #297 depreciation and amortisation of $4.95B beside $0.3B
# of maintenance spending (16.5x), #42 $3.64B (12.1x), #846 $2.93B (9.8x); 180 of 1,000 items above 5x.
OWNER = "buffett_owner_earnings_dcf"
_DA = "depreciation_within_five_times_maintenance"
_B846 = {"earnings_predictable": True, "long_term_treasury_yield": "6.5%", "market_value": "$200B",
         "net_income": "$1.36B", "owner_earnings_growth": "8.5%", "working_capital_needs": "$100M"}


@pytest.mark.parametrize("da, capex, refused", [
    ("$2.93B", "$300M", True),    # #846
    ("$4.95B", "$300M", True),    # #297's charge
    ("$1.51B", "$300M", True),    # one step past the edge
    ("$1.5B", "$300M", False),    # the edge: five times
    ("$400M", "$300M", False),    # the base
    ("$10M", "$0", True),         # a charge beside no maintenance spending at all
])
def test_buffett_depreciation_within_five_times_maintenance(da, capex, refused):
    facts = {**_B846, "depreciation_amortization": da, "maintenance_capex": capex}
    assert_rule_case(OWNER, _DA, facts, refused)


def test_buffett_dcf_items_keep_depreciation_near_maintenance():
    run = review_run(OWNER, "unpredictable_technology.yaml", SEED)
    both = [f for _, f in run if f.get("depreciation_amortization") is not None
            and f.get("maintenance_capex") is not None]
    assert len(both) >= 900, len(both)
    assert [f for f in both if f["depreciation_amortization"] > 5 * f["maintenance_capex"]] == []
    # charges well above maintenance spending (goodwill amortisation before 2002) are still drawn
    assert sum(f["depreciation_amortization"] > 3 * f["maintenance_capex"] for f in both) >= 50


# --------------------------------------------------------------------------- kind 3: Munger's unfavourable branch
#
# s55review (four_lenses_confirm, 2009): #761 an "unfavourable" scenario returning +35%, #435 +50%, #760 +10% (123 of
# 1,000 items above 0%). The input's range now ends at break-even.
MUNGER = "munger_opportunity_evaluation"


@pytest.mark.parametrize("value, kept", [("0.50", False), ("0.35", False), ("0.10", False), ("0.05", False),
                                         ("0", True), ("-0.20", True), ("-1", True)])
def test_munger_unfavourable_return_range_ends_at_break_even(value, kept):
    low, high = _range(MUNGER, "downside_return")
    assert (low <= Decimal(value) <= high) == kept


def test_munger_items_never_profit_in_the_unfavourable_case():
    run = review_run(MUNGER, "four_lenses_confirm.yaml", SEED)
    downs = [f["downside_return"] for _, f in run if f.get("downside_return") is not None]
    assert len(downs) >= 900, len(downs)
    assert [d for d in downs if d > 0] == []
    assert sum(d >= Decimal("-0.05") for d in downs) >= 10  # shallow bad cases up to break-even are still drawn
    assert {item["investment_verdict"] for item, _ in run} == {"DECLINE", "INCONCLUSIVE", "INVEST"}


# --------------------------------------------------------------------------- kind 4: Greenblatt's financial peers
#
# s55review (invest_small_spinoff_insiders_aligned, 31 May 1996): #189 an insurance-services spinoff whose comparable
# companies trade at a median of 21.5x EBIT (77 of 1,000 items above 20x, every item of the run a financials spinoff).
SPINOFF = "greenblatt_spinoff_checklist"
_PEERS = "financial_peers_trade_at_most_twenty_times_ebit"
_G189 = {"ev_to_ebit": "39.5x", "index_eligible": False, "insider_buying": False, "insider_stake": "29.5%",
         "months_since_spin": "3", "relative_size": "8%"}


@pytest.mark.parametrize("sector, peers, refused", [
    ("financials", "21.5x", True),     # #189
    ("financials", "40x", True),       # the range's top
    ("financials", "20x", False),      # the edge
    ("financials", "10x", False),      # the base
    ("technology", "21.5x", False),    # not this rule's: other sectors keep the card's range
])
def test_greenblatt_financial_peers_trade_at_most_twenty_times_ebit(sector, peers, refused):
    facts = {**_G189, "sector": sector, "peer_ev_to_ebit": peers}
    assert_rule_case(SPINOFF, _PEERS, facts, refused)


def test_greenblatt_items_price_financial_peers_as_financials():
    run = review_run(SPINOFF, "invest_small_spinoff_insiders_aligned.yaml", SEED)
    peers = [f for _, f in run if f.get("sector") == "financials" and f.get("peer_ev_to_ebit") is not None]
    assert len(peers) >= 900, len(peers)
    assert [f["peer_ev_to_ebit"] for f in peers if f["peer_ev_to_ebit"] > 20] == []
    assert sum(f["peer_ev_to_ebit"] > 15 for f in peers) >= 50  # rich peer groups up to the edge are still drawn
    # the spinoff's own multiple keeps the card's range, so the gate's reject side is still drawn
    assert any(f.get("ev_to_ebit") is not None and f["ev_to_ebit"] > 20 for f in peers)
    assert {item["investment_verdict"] for item, _ in run} == {"DECLINE", "INCONCLUSIVE", "INVEST"}


# --------------------------------------------------------------------------- kind 6: Graham's 1973 bond grade
#
# s55review (balanced_portfolio, 1973): #724 "The lowest grade held in the bond component is high-yield bonds.", a
# name and a market from the late 1970s (19 of 1,000 items). The label now names the grade in words of every year.
GRAHAM = "graham_defensive_portfolio_selection"


def test_graham_bond_grade_label_names_no_later_market():
    from ipb.engine.registry import compiled_card
    labels = dict(compiled_card(GRAHAM).card.inputs["bond_quality"].value_labels)
    assert labels["high_yield"] == "speculative-grade bonds (below investment grade)"
    assert not any("high-yield" in label.lower() or "junk" in label.lower() for label in labels.values())


def test_graham_1973_items_never_say_high_yield():
    run = review_run(GRAHAM, "balanced_portfolio.yaml", SEED)
    graded = [item for item, f in run if f.get("bond_quality") == "high_yield"]
    assert len(graded) >= 10, len(graded)  # the grade is still drawn (19 items)
    assert [item["id"] for item, _ in run if "high-yield" in item["question"].lower()] == []
    assert all("speculative-grade bonds (below investment grade)" in item["question"] for item in graded)
