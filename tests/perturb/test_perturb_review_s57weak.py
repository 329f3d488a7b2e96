"""s57weak: the weak (implausible) kinds that s55review, s56review2 and s56review3 counted and left open (issue 18 bar:
no fact contradicts another or its date), on Greenblatt's magic formula, Buffett's repurchase, Dalio's economic
machine and bubble gauge, Soros's reflexive trade, Marks's cycle and risk-return cards, Graham's defensive portfolio
and Munger's quality-and-price card.

A fixed kind has rule cases worked by hand (a review item's facts refused, its neighbour kept) where a rule fixes it,
and a run of the review's own (``ipb perturb --card C --base B --n 1000 --seed S``) asserting its count is 0, with a
floor showing the run still states what the rule reads. Each run test fails on the card before its fix: the counts
before are in the comments (measured on the old cards). The kinds kept by decision (Marks's euphoric mood at 5-6.5%,
Munger's fast "conservative" growth under $1B, Greenblatt's asset-light returns above 150%, leverage whose stopped-out
limit fits Soros's budget, a few 1972 holdings above $4B) are pinned too, so that a later rule that removes them fails
here and has to say why (docs/perturbation.md, "Review decisions").
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import assert_rule_case, review_run

GREENBLATT = "greenblatt_magic_formula_screen"
REPURCHASE = "buffett_share_repurchase"
MACHINE = "dalio_economic_machine_positioning"
SOROS = "soros_reflexive_hypothesis_trade_construction"
BUBBLE = "dalio_bubble_detection_gauge"
CYCLE = "marks_market_cycle_positioning"
GRAHAM = "graham_defensive_portfolio_selection"
MUNGER = "munger_business_quality_price"
MARKS_RR = "marks_risk_return_assessment"

B = Decimal("1e9")


def _stated(run, *keys):
    return [(item, f) for item, f in run if all(f.get(k) is not None for k in keys)]


# ------------------------------------------------------------------------- 1. Greenblatt: return on tangible capital
#
# s56review3 (decline_outside_top_group, 30 September 2008, seed 11515): 213 of 1,000 items earn above 150% on
# tangible capital, all with an enterprise value of $5B or more (industrials 47, technology 52, consumer
# discretionary 48, staples 34, healthcare 32). Fixed for industrials; the asset-light sectors kept by decision.
_INDUSTRIAL = "a_large_industrial_earns_at_most_150_percent_on_its_capital"


@pytest.mark.parametrize("sector, ebit, ev, nwc, refused", [
    ("industrials", "$5.235B", "$30B", "$500M", True),         # #63's kind: 5.235 / 2.5 = 209%
    ("industrials", "$3.75B", "$30B", "$500M", False),         # exactly 150%
    ("industrials", "$3.76B", "$30B", "$500M", True),          # 150.4%
    ("industrials", "$1.5B", "$4.99B", "$0", False),           # under $5B of enterprise value: 75% anyway, kept
    ("consumer_staples", "$5.235B", "$30B", "$500M", False),   # a tobacco maker's return: kept by decision
    ("technology", "$5.235B", "$30B", "$500M", False),         # software: kept by decision
])
def test_greenblatt_a_large_industrial_earns_at_most_150_percent(sector, ebit, ev, nwc, refused):
    facts = {"market_cap": "$20B" if ev == "$30B" else "$4B", "sector": sector, "foreign_adr": False,
             "ebit": ebit, "enterprise_value": ev, "net_working_capital": nwc, "net_fixed_assets": "$2B"}
    assert_rule_case(GREENBLATT, _INDUSTRIAL, facts, refused)


def test_greenblatt_items_keep_large_industrials_within_150_percent_on_capital():
    run = review_run(GREENBLATT, "decline_outside_top_group.yaml", 11515)
    stated = [(item, f) for item, f in _stated(run, "ebit", "enterprise_value", "net_working_capital",
                                                 "net_fixed_assets")
              if f["net_working_capital"] + f["net_fixed_assets"] > 0]
    assert len(stated) >= 800, len(stated)

    def rich(f):
        return 2 * f["ebit"] > 3 * (f["net_working_capital"] + f["net_fixed_assets"]) and f["enterprise_value"] >= 5 * B

    assert [item["id"] for item, f in stated if f["sector"] == "industrials" and rich(f)] == []   # was 47
    assert sum(1 for _, f in stated if f["sector"] == "industrials" and f["enterprise_value"] >= 5 * B) >= 30
    # the decision: asset-light large caps above 150% stay (166 before, 187 after)
    assert sum(1 for _, f in stated if f["sector"] != "industrials" and rich(f)) >= 100


# ------------------------------------------------------------------------ 2. Buffett repurchase: Berkshire's 2012 cash
#
# s56review3 (berkshire_2012_within_limit, 12 December 2012, seed 11515): 99 of 1,000 dated items above $50B (#879
# $52.7B); Berkshire held about $47B. The card's 2012 band ended at $55B, now $50B.
_CASH = "berkshire_cash_of_its_years"


@pytest.mark.parametrize("date, cash, refused", [
    ("2012-12-12", "$52.7B", True),    # #879
    ("2012-12-12", "$50.1B", True),
    ("2012-12-12", "$50B", False),
    ("2012-12-12", "$45B", False),     # the base
    ("2011-12-12", "$52.7B", False),   # 2011 keeps its $55B
])
def test_berkshire_2012_cash_at_most_50b(date, cash, refused):
    facts = {"cash_and_equivalents": cash, "repurchase_amount": "$1.2B", "liquidity_reserve": "$20B",
             "reinvestment_needs_funded": True, "issuer": "berkshire_hathaway", "decision_date": date}
    assert_rule_case(REPURCHASE, _CASH, facts, refused)


def test_berkshire_items_of_december_2012_hold_at_most_50b():
    run = review_run(REPURCHASE, "berkshire_2012_within_limit.yaml", 11515)
    dated = [(item, f) for item, f in _stated(run, "cash_and_equivalents") if item["manifest"]["context"]["as_of"]]
    assert len(dated) >= 800, len(dated)
    assert [item["id"] for item, f in dated if f["cash_and_equivalents"] > 50 * B] == []          # was 99
    assert sum(1 for _, f in dated if f["cash_and_equivalents"] >= 47 * B) >= 30


# -------------------------------------------------------- 3. Dalio economic machine: the tilt's size and the growth
#
# s56review2 (goldilocks_equities, seed 11414): 76 of 1,000 items at 80%+ of the risk in the favoured quadrant "after
# the tilt" (#204 100%), 22 expecting real growth above 7% (#823 9.75%); s56review3 (breakeven_unknown_inconclusive,
# seed 11515): 105 at 80%+ (#809 93%), 62 above 7%. The ranges end at 75% and 7% (were 100% and 10%).
@pytest.mark.parametrize("base, seed", [
    ("goldilocks_equities.yaml", 11414),               # before: 76 at 80%+, 22 above 7%
    ("breakeven_unknown_inconclusive.yaml", 11515),    # before: 105 at 80%+, 62 above 7%
])
def test_machine_items_tilt_to_at_most_75_percent_and_expect_at_most_7_percent_growth(base, seed):
    run = review_run(MACHINE, base, seed)
    shares = [f["favoured_risk_share"] for _, f in _stated(run, "favoured_risk_share")]
    growths = [f[k] for _, f in run for k in ("expected_growth", "discounted_growth") if f.get(k) is not None]
    assert len(shares) >= 900 and len(growths) >= 1800, (len(shares), len(growths))
    assert max(shares) <= Decimal("0.75") and max(growths) <= Decimal("0.07")
    # not vacuous: oversized tilts the gate refuses and strong growth views are still drawn
    assert sum(1 for s in shares if s > Decimal("0.5")) >= 50
    assert sum(1 for g in growths if g >= Decimal("0.05")) >= 20


# ---------------------------------------------------------------------------- 4. Soros: leverage within the budget
#
# s56review2 (loss_budget_stops_loop, 30 June 2007, seed 11414): 81 of 1,000 items set the limit above the fund's
# capital (#453 121%, #204 136%), most beside a 20% stop and a 5% budget. Above 100% the limit stopped out now fits
# the loss budget, as the card's 1992 sterling plan (150% x 3% = 4.5% against 5%); such plans stay (20 after).
_LEVERAGE = "leverage_only_where_the_whole_limit_fits_the_loss_budget"


@pytest.mark.parametrize("limit, stop, budget, refused", [
    ("106%", "20%", "5%", True),     # 21.2% against 5% (within the older 4.5x rule's 22.5%)
    ("150%", "3%", "5%", False),     # the sterling plan: 4.5%
    ("100%", "20%", "5%", False),    # the base: no borrowing
    ("101%", "4.5%", "5%", False),   # 4.545%
    ("111%", "4.5%", "5%", False),   # 4.995%
    ("116%", "4.5%", "5%", True),    # 5.22%
])
def test_soros_leverage_only_where_the_limit_fits_the_loss_budget(limit, stop, budget, refused):
    facts = {"prevailing_bias": "identified", "feedback_loop": "self_reinforcing", "initial_position": "10%",
             "max_position": limit, "hypothesis_confirmed": True, "confirmation_rounds": "4",
             "stop_distance": stop, "loss_budget": budget}
    assert_rule_case(SOROS, _LEVERAGE, facts, refused)


def test_soros_items_borrow_only_where_the_limit_fits_the_budget():
    run = review_run(SOROS, "loss_budget_stops_loop.yaml", 11414)
    stated = _stated(run, "max_position", "stop_distance", "loss_budget")
    assert len(stated) >= 900, len(stated)
    over = [(item, f) for item, f in stated if f["max_position"] > 1]
    assert [item["id"] for item, f in over
            if f["max_position"] * f["stop_distance"] > f["loss_budget"]] == []                     # was 74 of 81
    assert len(over) >= 10, len(over)                                  # the decision: sterling-like plans stay (20)
    assert sum(1 for _, f in stated if f["max_position"] == 1) >= 100


# ------------------------------------------------------------------------- 5. Dalio bubble: long-run growth below 0
#
# s56review2 (speculative_tech_bubble, seed 11414): 51 of 1,000 items state a long-run sustainable growth below 0%
# (#782 -5%). The range starts at 0%.
def test_bubble_items_sustain_growth_of_0_percent_or_more():
    run = review_run(BUBBLE, "speculative_tech_bubble.yaml", 11414)
    stated = [f["sustainable_growth"] for _, f in _stated(run, "sustainable_growth")]
    assert len(stated) >= 800, len(stated)
    assert min(stated) >= 0                                                                          # was 51 below
    assert sum(1 for g in stated if g <= Decimal("0.02")) >= 5     # slow growth is still drawn
    assert {item["investment_verdict"] for item, _ in run} == {"BUBBLE_REDUCE_RISK", "NO_BUBBLE"}


# ---------------------------------------------------------- 6. Marks cycle: euphoric at 5-6.5% (kept by decision)
#
# s56review2 (hot_aggressive_reduce_risk, late 1999, seed 11414): 117 of 1,000 items euphoric at a spread above 5%.
# Kept: the base is itself euphoric at 5% in December 1999, and the card's optimism_has_a_narrow_spread puts the
# edge at 6.5% because equities were euphoric while high-yield spreads stood near 5-6% (1999 into March 2000). The
# pin: such items stay, and none passes 6.5%.
def test_marks_cycle_euphoric_items_keep_the_1999_spreads_and_stop_at_6_5_percent():
    run = review_run(CYCLE, "hot_aggressive_reduce_risk.yaml", 11414)
    euphoric = [f["high_yield_spread"] for _, f in _stated(run, "high_yield_spread", "investor_psychology")
                if f["investor_psychology"] == "euphoric"]
    assert sum(1 for s in euphoric if s > Decimal("0.05")) >= 60, len(euphoric)                       # 117
    assert max(euphoric) <= Decimal("0.065")


# ------------------------------------------------------- 7. Graham defensive: 1972 holdings above $4B and $2B of sales
#
# s55review and s56review2 (nifty_fifty_concentration, 29 December 1972, seed 11414): 52 of 1,000 dated items put the
# smallest holding above $4B, 40 of them with the base's 8 holdings; 10 hold more such companies than there were (5
# with 26-57 holdings each above $4B, 5 with 41-60 each above $2B). The few stay; the many are refused.
_LARGE = "no_more_large_holdings_than_companies_of_that_size_by_1973"


@pytest.mark.parametrize("stocks, smallest, level, refused", [
    ("26", "$4.21B", "1x", True),
    ("20", "$4.21B", "1x", False),     # as many as there were companies of that size
    ("8", "$4.35B", "1x", False),      # #688's kind: kept by decision
    ("41", "$2.01B", "1x", True),
    ("40", "$2.01B", "1x", False),
    ("26", "$4.21B", "1.05x", True),   # 1973: $4B x 1.05 = $4.2B < $4.21B
    ("26", "$4.2B", "1.05x", False),   # exactly $4B of 1972
    ("26", "$4.5B", "1.15x", False),   # after 1973: no bound
    ("30", "$3B", "0.8x", False),      # the 1960s: $3B < $4B x 0.8 = $3.2B, and 30 <= 40
    ("41", "$1.7B", "0.8x", True),     # $2B x 0.8 = $1.6B < $1.7B with 41 stocks
])
def test_graham_no_more_large_holdings_than_companies_of_that_size(stocks, smallest, level, refused):
    facts = {"number_of_stocks": stocks, "smallest_sales": smallest, "price_level_since_1972": level}
    assert_rule_case(GRAHAM, _LARGE, facts, refused)


def test_graham_1972_items_hold_no_more_large_companies_than_there_were():
    run = review_run(GRAHAM, "nifty_fifty_concentration.yaml", 11414)
    dated = [(item, f) for item, f in _stated(run, "number_of_stocks", "smallest_sales", "price_level_since_1972")
             if item["manifest"]["context"]["as_of"]]
    assert len(dated) >= 500, len(dated)
    assert all(f["price_level_since_1972"] == 1 for _, f in dated)
    assert [item["id"] for item, f in dated
            if (f["number_of_stocks"] > 20 and f["smallest_sales"] > 4 * B)
            or (f["number_of_stocks"] > 40 and f["smallest_sales"] > 2 * B)] == []                  # was 10
    # the decision: a few holdings each above $4B stay
    assert sum(1 for _, f in dated if f["smallest_sales"] > 4 * B) >= 20                             # 42


# -------------------------------------------------- 8. Munger: "conservative" growth above 12% (kept by decision)
#
# s56review2 (untrustworthy_management, 31 March 2008, seed 11414): 70 of 1,000 items (after s56rfix3) state a
# conservative long-run growth above 12% (#453 17% for a $600M business). Kept: s44items bounds it at 12% from $1B
# of owner earnings (or above 50x them); a smaller business may outgrow the economy for a long time. The pin.
def test_munger_fast_conservative_growth_stays_only_under_1b_or_above_50x():
    run = review_run(MUNGER, "untrustworthy_management.yaml", 11414)
    fast = [f for _, f in _stated(run, "long_run_growth", "owner_earnings", "market_value")
            if f["long_run_growth"] > Decimal("0.12")]
    assert len(fast) >= 30, len(fast)                                                                # 70
    assert all(f["owner_earnings"] < B or f["market_value"] > 50 * f["owner_earnings"] for f in fast)


# ---------------------------------------------------- 9. Marks risk-return: the consensus view on a shunned bargain
#
# s56review2 (invest_all_lenses_2008, 30 November 2008, seed 11414): "the consensus view" on a shunned asset, INVEST
# (#954); counted here: 91 of 1,000 items, 57 of them at 80% of the appraised value or less.
_CONSENSUS = "a_deep_discount_on_a_shunned_asset_is_no_consensus_view"


@pytest.mark.parametrize("view, popularity, price, refused", [
    ("consensus", "shunned", "$70M", True),              # #954's kind
    ("consensus", "shunned", "$80M", True),              # 80%: the edge is refused
    ("consensus", "shunned", "$81M", False),
    ("variant_and_supported", "shunned", "$70M", False),  # the base
    ("consensus", "neutral", "$70M", False),
])
def test_marks_a_deep_discount_on_a_shunned_asset_is_no_consensus_view(view, popularity, price, refused):
    facts = {"asset_class": "bank_loan", "price": price, "intrinsic_value": "$100M", "expected_return": "15%",
             "risk_free_rate": "2.5%", "permanent_loss_probability": "8%", "view_vs_consensus": view,
             "asset_popularity": popularity, "market_temperature": "cold"}
    assert_rule_case(MARKS_RR, _CONSENSUS, facts, refused)


def test_marks_items_hold_no_consensus_view_on_a_shunned_bargain():
    run = review_run(MARKS_RR, "invest_all_lenses_2008.yaml", 11414)
    pairs = [f for _, f in _stated(run, "view_vs_consensus", "asset_popularity", "price", "intrinsic_value")
             if f["view_vs_consensus"] == "consensus" and f["asset_popularity"] == "shunned"]
    assert [f for f in pairs if f["price"] <= Decimal("0.8") * f["intrinsic_value"]] == []          # was 57
    assert len(pairs) >= 10, len(pairs)       # near its value a shunned asset may still be seen as the crowd sees it
