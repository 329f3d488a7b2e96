"""s53rfix2: s53review's kinds (issue 18 bar: no fact contradicts another or its date).

Each kind has rule cases worked by hand (a review item's facts refused, its neighbour kept) and a run of the
review's own ('ipb perturb --card C --base B --n 1000 --seed 11010', the bases s53review read) asserting the kind's
count is 0; before -> after counts are in /work/notes/s53rfix2.md. Each run test fails without its fix (checked by
putting the previous card or regimes.yaml back).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.engine.registry import compiled_card
from perturb_support import anachronisms_of, assert_rule_case, review_run

SEED = 11010
MUNGER = "munger_opportunity_evaluation"
GRAHAM = "graham_defensive_portfolio_selection"
ALL_WEATHER = "dalio_all_weather_portfolio_construction"
DISTRESSED = "marks_distressed_debt"
MACHINE = "dalio_economic_machine_positioning"
SPINOFF = "greenblatt_spinoff_checklist"
NBIM = "nbim_gpfg_exclusion_screen"


def _in_range(card_id: str, name: str, value: str) -> bool:
    """Whether ``value`` (a number as the card writes it, without its unit) lies in the input's declared range."""
    low, high = compiled_card(card_id).card.inputs[name].range
    return low <= Decimal(value) <= high


# --------------------------------------------------------------------------- kind 1 (strict): Munger's categories
#
# s53review MUNGER-ML-003 #472, #629, #161, #449: "the competitive advantage behind the returns is durable" beside
# "The business has been displaced by change" (58 of 1,000); #135 a ten-year return on tangible capital of -7% beside
# a durable advantage (60 of 1,000).
_MUN = {"incentives_aligned": True, "bias_driven_thesis": False, "probability_of_success": "50%",
        "upside_return": "30%", "downside_return": "-15%"}


@pytest.mark.parametrize("advantage, record, roc, rule, refused", [
    ("durable", "displaced_by_change", "24%", "a_displaced_business_has_no_durable_advantage", True),   # #629
    ("eroding", "displaced_by_change", "24%", "a_displaced_business_has_no_durable_advantage", False),
    ("durable", "adapted_through_disruption", "24%", "a_displaced_business_has_no_durable_advantage", False),
    ("durable", "untested", "-7%", "a_durable_advantage_earns_a_positive_return", True),                # #135
    ("durable", "untested", "-1%", "a_durable_advantage_earns_a_positive_return", True),
    # the edge of this rule; since s63cards (s63 review R3) a durable moat on 0-5% breaks the stricter rule beside it
    ("durable", "untested", "0%", "a_durable_advantage_earns_more_than_a_bond", True),
    ("durable", "untested", "6%", "a_durable_advantage_earns_a_positive_return", False),
    ("none", "untested", "-7%", "a_durable_advantage_earns_a_positive_return", False),
])
def test_munger_advantage_agrees_with_the_record_and_the_returns(advantage, record, roc, rule, refused):
    facts = {**_MUN, "competitive_advantage": advantage, "adaptation_record": record, "return_on_capital": roc}
    assert_rule_case(MUNGER, rule, facts, refused)


def test_munger_items_never_pair_a_durable_advantage_with_displacement_or_losses():
    run = review_run(MUNGER, "two_lenses_unknown_open.yaml", SEED)
    durable = [f for _, f in run if f.get("competitive_advantage") == "durable"]
    assert [f for f in durable if f.get("adaptation_record") == "displaced_by_change"] == []
    assert [f for f in durable if f["return_on_capital"] < 0] == []
    assert len(durable) >= 300, len(durable)  # the rules are read on many items, not on none


# --------------------------------------------------------------------------- kind 8: Munger's tree of two outcomes
#
# s53review #302 a 100% chance of the favourable case beside a -25% unfavourable one (58 of 1,000 at 0% or 100%);
# #246 a durable advantage earning 16% beside a bad case of -100% (11 of 1,000).
@pytest.mark.parametrize("p, advantage, down, rule, refused", [
    ("100%", "eroding", "-25%", "both_scenarios_can_happen", True),       # #302
    ("0%", "eroding", "-25%", "both_scenarios_can_happen", True),
    ("95%", "eroding", "-25%", "both_scenarios_can_happen", False),       # the edge
    ("5%", "eroding", "-25%", "both_scenarios_can_happen", False),
    ("50%", "durable", "-100%", "a_durable_advantage_is_not_a_total_loss", True),   # #246
    ("50%", "durable", "-95%", "a_durable_advantage_is_not_a_total_loss", False),
    ("50%", "none", "-100%", "a_durable_advantage_is_not_a_total_loss", False),
])
def test_munger_tree_gives_each_branch_a_chance(p, advantage, down, rule, refused):
    facts = {**_MUN, "return_on_capital": "16%", "probability_of_success": p, "competitive_advantage": advantage,
             "downside_return": down, "upside_return": "415%"}
    assert_rule_case(MUNGER, rule, facts, refused)


def test_munger_items_give_both_branches_a_chance():
    run = review_run(MUNGER, "two_lenses_unknown_open.yaml", SEED)
    assert [f for _, f in run if f["probability_of_success"] in (0, 1)] == []
    assert [f for _, f in run if f.get("competitive_advantage") == "durable" and f["downside_return"] <= -1] == []


# --------------------------------------------------------------------------- kind 3 (strict): the price level
#
# s53review GRAHAM-DP-004 #717 "9.25x" and #135 "9.65x", undated: the CPI-U's 1972 average was 41.8 and its 2025
# average about 322 (7.7x); 65 of 1,000 items stated a level no day has reached.
@pytest.mark.parametrize("level, kept", [("9.25", False), ("9.65", False), ("7.95", False), ("7.9", True),
                                         ("7.5", True), ("1.1", True)])  # 7.5x: the bundled 2024 base
def test_graham_price_level_stops_at_the_highest_reached(level, kept):
    assert _in_range(GRAHAM, "price_level_since_1972", level) == kept


def test_graham_items_state_no_price_level_above_today():
    run = review_run(GRAHAM, "utility_at_35_percent_equity.yaml", SEED)
    levels = [f["price_level_since_1972"] for _, f in run if f.get("price_level_since_1972") is not None]
    assert [v for v in levels if v > Decimal("7.9")] == []
    assert len(levels) >= 900 and max(levels) > 6, (len(levels), max(levels))


# --------------------------------------------------------------------------- kinds 7 and 8: Graham's holdings
#
# s53review: utility or railroad common equity at 11% (#144), 73% (#629), 83% (#449); the lowest industrial at 99%
# across 28 stocks (#626); a seven-year P/E of 54.5x (#774) and 40.5x (#246) beside a highest trailing P/E of 14x.
@pytest.mark.parametrize("name, value, kept", [
    ("lowest_utility_railroad_equity_share", "0.11", False), ("lowest_utility_railroad_equity_share", "0.73", False),
    ("lowest_utility_railroad_equity_share", "0.20", True), ("lowest_utility_railroad_equity_share", "0.70", True),
    ("lowest_utility_railroad_equity_share", "0.35", True),     # the base
    ("lowest_equity_to_capitalization", "0.99", False), ("lowest_equity_to_capitalization", "0.90", True),
])
def test_graham_equity_ratios_stay_in_their_bands(name, value, kept):
    assert _in_range(GRAHAM, name, value) == kept


_GDP = {"stock_allocation": "52%", "target_stock_allocation": "50%", "bond_quality": "us_government",
        "number_of_stocks": "20", "smallest_sales": "$300M", "price_level_since_1972": "1.1x",
        "holds_utilities_or_railroads": False, "lowest_equity_to_capitalization": "60%",
        "shortest_dividend_record": "22"}


@pytest.mark.parametrize("seven, trailing, refused", [
    ("54.5x", "14x", True),    # #774: 3.9 times
    ("40.5x", "14x", True),    # #246: 2.9 times
    ("28.5x", "14x", True),    # 2.04 times
    ("28x", "14x", False),     # twice, the edge
    ("18x", "14x", False),     # the base: 1.29 times
    ("12x", "30x", False),     # earnings fallen: not this rule's
])
def test_graham_seven_year_pe_within_twice_the_trailing(seven, trailing, refused):
    facts = {**_GDP, "highest_pe_seven_year": seven, "highest_pe_trailing": trailing}
    assert_rule_case(GRAHAM, "seven_year_pe_within_twice_the_trailing", facts, refused)


def test_graham_items_keep_ratios_in_band_and_pes_together():
    run = review_run(GRAHAM, "utility_at_35_percent_equity.yaml", SEED)
    util = [f["lowest_utility_railroad_equity_share"] for _, f in run
            if f.get("lowest_utility_railroad_equity_share") is not None]
    assert [v for v in util if not Decimal("0.2") <= v <= Decimal("0.7")] == []
    assert [f for _, f in run if f["lowest_equity_to_capitalization"] > Decimal("0.9")] == []
    assert [f for _, f in run if f["highest_pe_seven_year"] > 2 * f["highest_pe_trailing"]] == []
    assert len(util) >= 500, len(util)


# --------------------------------------------------------------------------- kind 2 (strict): All Weather's shares
#
# s53review DAL-AWC-003 #629: rising growth 66% and rising inflation 48%, 114% of the risk budget with the other two
# undisclosed; 55 of 1,000 items stated shares over 100%.
_SHARES = ("risk_share_rising_growth", "risk_share_falling_growth", "risk_share_rising_inflation",
           "risk_share_falling_inflation")


@pytest.mark.parametrize("shares, refused", [
    ({"risk_share_rising_growth": "66%", "risk_share_rising_inflation": "48%"}, True),    # #629: 114%
    ({"risk_share_rising_growth": "52%", "risk_share_rising_inflation": "48%"}, False),   # 100%, the edge
    ({"risk_share_falling_growth": "40%", "risk_share_rising_inflation": "35%", "risk_share_falling_inflation": "26%"},
     True),                                                                                # three at 101%
    ({"risk_share_falling_growth": "40%", "risk_share_rising_inflation": "35%", "risk_share_falling_inflation": "25%"},
     False),
])
def test_all_weather_stated_shares_fit_the_budget(shares, refused):
    facts = {"environments_covered": "4", "gross_leverage": "1.5x", **shares}
    # s54rfix: with all four environments covered, stated shares that take the whole budget (100% or more) leave
    # another environment at 0%, which four_covered_environments_each_carry_risk refuses too (s54review #970); the
    # budget rule's own verdict on each case is unchanged.
    rules = ("stated_risk_shares_within_the_budget",) if refused else ()
    assert_rule_case(ALL_WEATHER, (*rules, "four_covered_environments_each_carry_risk"), facts, True)


def test_all_weather_items_state_shares_within_the_budget():
    run = review_run(ALL_WEATHER, "sixty_forty_no_inflation_hedge.yaml", SEED)
    stated = [[f[k] for k in _SHARES if f.get(k) is not None] for _, f in run]
    assert [s for s in stated if sum(s) > 1] == []
    assert sum(1 for s in stated if len(s) in (2, 3)) >= 50  # partial sets are read, not only whole ones


# --------------------------------------------------------------------------- kind 5: All Weather's rate pair
#
# s53review: #430 a 6% expected return on the levered bonds against a 0.25% cost of borrowing, #626 8% against 0.75%,
# #717 2.25% against 7%, #135 an expected return of -1.25% a year.
@pytest.mark.parametrize("ret, cost, rule, refused", [
    ("6%", "0.25%", "levered_return_and_financing_within_the_curve", True),     # #430: 5.75 points over
    ("8%", "0.75%", "levered_return_and_financing_within_the_curve", True),     # #626
    ("2.25%", "7%", "levered_return_and_financing_within_the_curve", True),     # #717: 4.75 points under
    ("4.25%", "0.25%", "levered_return_and_financing_within_the_curve", False),  # 4 points over, the edge
    ("4.5%", "7%", "levered_return_and_financing_within_the_curve", False),     # 2.5 points under, the edge
    ("-1.25%", "-0.5%", "levered_return_at_least_minus_one_percent", True),     # #135
    ("-1%", "-0.5%", "levered_return_at_least_minus_one_percent", False),
])
def test_all_weather_rates_stay_within_the_curve(ret, cost, rule, refused):
    facts = {"environments_covered": "4", "gross_leverage": "2x", "levered_asset_expected_return": ret,
             "financing_rate": cost}
    assert_rule_case(ALL_WEATHER, rule, facts, refused)


def test_all_weather_items_keep_the_rate_pair_within_the_curve():
    run = review_run(ALL_WEATHER, "sixty_forty_no_inflation_hedge.yaml", SEED)
    pairs = [(f["levered_asset_expected_return"], f["financing_rate"]) for _, f in run
             if f.get("levered_asset_expected_return") is not None and f.get("financing_rate") is not None]
    assert [(r, c) for r, c in pairs if r - c > Decimal("0.04") or c - r > Decimal("0.025")] == []
    assert [f for _, f in run if (f.get("levered_asset_expected_return") or 0) < Decimal("-0.01")] == []
    # 144 stated both rates on s53rfix2 alone; s53rfix states them only above 1x (an unlevered mix borrows nothing),
    # which leaves 52 on this 60/40 base: still enough for the rule above to be tested (s56rfix: 49, since a stated
    # risk share beside this base's 3 covered environments now comes with one share at 0%, which changes the draws)
    assert len(pairs) >= 45, len(pairs)


# --------------------------------------------------------------------------- kind 9: the distressed bad case
#
# s53review #774 a bad case of $1B against a base case of $1.08B (93%), #629 $980M against $1.1B (89%), #717 $1.33B
# against $1.4B (95%); 115 of 1,000 items above 85%. Open: the card rule (bad case <= 85% of the base case) was
# withdrawn because earlier stops' rule cases pin facts above it (test_perturb_review_s42M's bad cases at 89-100%,
# test_perturb_review_s47rfix's s47review Marks 20 at 87%), which must be re-read before the rule can land.
_KIND9_OPEN = pytest.mark.xfail(strict=True, reason="kind 9 open: the 85% rule conflicts with s42M/s47rfix fixtures")


def test_distressed_items_keep_the_bad_case_below_85_percent_of_the_base():
    run = review_run(DISTRESSED, "invest_moderate_process_risk.yaml", SEED)
    read = [(f["stressed_value"], f["reorganization_value"]) for _, f in run
            if f.get("stressed_value") is not None and f.get("reorganization_value")]
    assert [(s, r) for s, r in read if s > Decimal("0.85") * r] == []
    assert len(read) >= 900, len(read)


@pytest.mark.parametrize("bad, base, refused", [("$1B", "$1.08B", True), ("$1.33B", "$1.4B", True),
                                                ("$1.19B", "$1.4B", False),   # 85%, the edge
                                                ("$1B", "$1.4B", False)])     # the base: 71%
def test_distressed_bad_case_at_most_85_percent(bad, base, refused):
    facts = {"stressed_value": bad, "reorganization_value": base}
    assert_rule_case(DISTRESSED, "the_bad_case_is_at_most_85_percent_of_the_conservative_value", facts, refused)


# --------------------------------------------------------------------------- kind 8: expected against priced growth
#
# s53review DEM: #774 expected real growth of 10% against -4.75% discounted, #269 1.5% against -8.25%, #131 -4%
# against 3%; 289 of 1,000 items more than 5 points apart.
_DEM = {"expected_inflation": "6%", "discounted_inflation": "3.5%", "credit_impulse": "-1%",
        "favoured_risk_share": "40%"}


@pytest.mark.parametrize("expected, priced, refused", [
    ("10%", "-4.75%", True), ("1.5%", "-8.25%", True), ("-4%", "3%", True),
    ("5.25%", "0%", True),     # 5.25 points
    ("5%", "0%", False),       # 5 points, the edge
    ("-3%", "2%", False),      # 5 points below
    ("1.5%", "3%", False),     # the base
])
def test_machine_growth_view_near_the_priced_growth(expected, priced, refused):
    facts = {**_DEM, "expected_growth": expected, "discounted_growth": priced}
    assert_rule_case(MACHINE, "growth_view_near_the_discounted_growth", facts, refused)


def test_machine_items_keep_the_growth_view_near_the_market():
    run = review_run(MACHINE, "stagflation_linkers_gold.yaml", SEED)
    gaps = [abs(f["expected_growth"] - f["discounted_growth"]) for _, f in run
            if f.get("expected_growth") is not None and f.get("discounted_growth") is not None]
    assert [g for g in gaps if g > Decimal("0.05")] == []
    assert len(gaps) >= 900, len(gaps)


# --------------------------------------------------------------------------- kind 7: spinoff peers by era
#
# s53review GSP, a financials spinoff dated 31 May 1996: peer medians of 28-39.5x EBIT (#131, #717, #135) and 4.5x
# (#132); 257 of the 1,000 dated items outside 5-24x.
@pytest.mark.parametrize("peer, year, refused", [
    ("39.5x", 1996, True), ("28x", 1996, True), ("24.5x", 1996, True), ("4.5x", 1996, True),
    ("24x", 1996, False), ("5x", 1996, False), ("10x", 1996, False),   # the base: 10x
    ("39.5x", 1999, False),                                            # the technology boom: not bounded
    ("39.5x", 1984, False),                                            # before the table's first row
])
def test_spinoff_peer_median_bounded_by_era(peer, year, refused):
    found = [m for m in anachronisms_of(SPINOFF, {"peer_ev_to_ebit": peer, "sector": "financials"}, year)
             if "peer" in m]
    assert bool(found) == refused, found


def test_spinoff_dated_items_keep_peer_medians_in_the_eras_band():
    run = review_run(SPINOFF, "invest_small_spinoff_insiders_aligned.yaml", SEED)
    dated = [f for item, f in run if item["manifest"]["context"]["as_of"]
             and item["manifest"]["context"]["as_of"] < "1998" and f.get("peer_ev_to_ebit") is not None]
    assert [f["peer_ev_to_ebit"] for f in dated if not 5 <= f["peer_ev_to_ebit"] <= 24] == []
    assert len(dated) >= 500, len(dated)


# --------------------------------------------------------------------------- kind 6: NBIM's coal share and volume
#
# s53review: #246 a 3% coal share beside 274 Mt a year; #996 10% beside 10,500 MW (kept: 30,000 MW is the bound at
# 10%); #629 a tobacco producer earning 98% of its income from thermal coal.
_NBIM = {"asset_type": "listed_equity", "issuer_norwegian": False, "recreational_cannabis_producer": False,
         "weapons_violating_humanitarian_principles": False, "tobacco_producer": False}


@pytest.mark.parametrize("facts, rule, refused", [
    ({"thermal_coal_share": "3%", "thermal_coal_extraction": "274", "coal_power_capacity": "0"},
     "coal_extraction_within_the_coal_share", True),                    # #246: the bound is 150 Mt
    ({"thermal_coal_share": "3%", "thermal_coal_extraction": "150", "coal_power_capacity": "0"},
     "coal_extraction_within_the_coal_share", False),                   # the edge
    ({"thermal_coal_share": "7%", "thermal_coal_extraction": "21", "coal_power_capacity": "7500"},
     "coal_extraction_within_the_coal_share", False),                   # #973: an Anglo American profile
    ({"thermal_coal_share": "2%", "thermal_coal_extraction": "0", "coal_power_capacity": "6500"},
     "coal_power_within_the_coal_share", True),                         # 6,000 MW at 2%
    ({"thermal_coal_share": "10%", "thermal_coal_extraction": "14", "coal_power_capacity": "10500"},
     "coal_power_within_the_coal_share", False),                        # #996
    ({"thermal_coal_share": "98%", "thermal_coal_extraction": "19", "coal_power_capacity": "0",
      "tobacco_producer": True}, ("a_coal_company_is_no_tobacco_maker", "a_tobacco_or_cannabis_maker_is_no_coal_company"),
     True),                                                             # #629 (s56rfix3's rule refuses it too)
    # the old edge: 50% kept by this rule; s56rfix3 refuses any coal share beside tobacco, so only its rule speaks
    ({"thermal_coal_share": "50%", "thermal_coal_extraction": "19", "coal_power_capacity": "0",
      "tobacco_producer": True}, "a_tobacco_or_cannabis_maker_is_no_coal_company", True),
])
def test_nbim_coal_volumes_fit_the_coal_share(facts, rule, refused):
    assert_rule_case(NBIM, rule, {**_NBIM, **facts}, refused)


def test_nbim_items_keep_coal_volumes_within_the_share():
    run = review_run(NBIM, "k5_ministry_restriction.yaml", SEED)
    read = [f for _, f in run if f.get("thermal_coal_share") is not None]
    assert [f for f in read if (f.get("thermal_coal_extraction") or 0) > 5000 * f["thermal_coal_share"]] == []
    assert [f for f in read if (f.get("coal_power_capacity") or 0) > 300000 * f["thermal_coal_share"]] == []
    assert [f for f in read if f.get("tobacco_producer") and f["thermal_coal_share"] > Decimal("0.5")] == []
    assert len(read) >= 900, len(read)
