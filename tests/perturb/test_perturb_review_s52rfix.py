"""s52rfix: s52review's kinds (issue 18 bar: no fact contradicts another or its date).

Each test generates the review's run ('ipb perturb --card C --base B --n 1000 --seed 10909', the bases s52review
read) and asserts the kind's violation count is 0; before -> after counts are in /work/notes/s52rfix.md. Each test
fails without its fix (checked by putting the previous card or regimes.yaml back).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from perturb_support import anachronisms_of, assert_rule_case, review_run

SEED = 10909
ALL_WEATHER = "dalio_all_weather_portfolio_construction"
GRAHAM_IV = "graham_intrinsic_value_margin_of_safety"


# --------------------------------------------------------------------------- kind 1 (strict): the day's rates
#
# s52review DAL-AWC-003-a6e00a77c512176a (#680): "Decision date: 2014-06-30" beside a financing rate of -0.25%; the
# lowest policy rate anywhere that day was the ECB's -0.10%. 36 of 1,000 items were below -0.10%. The base states
# neither rate, so a dated item that states one kept the date after a move added it: regimes.yaml now lists both as
# inputs that describe the day.

def test_all_weather_items_that_state_the_days_rates_carry_no_date():
    run = review_run(ALL_WEATHER, "sixty_forty_no_inflation_hedge.yaml", SEED)
    rates = ("financing_rate", "levered_asset_expected_return")
    dated_with_rate = [item["id"] for item, f in run
                       if item["manifest"]["context"]["as_of"] and any(k in f for k in rates)]
    stating = sum(1 for _, f in run if any(k in f for k in rates))
    below_ecb = [item["id"] for item, f in run if item["manifest"]["context"]["as_of"]
                 and f.get("financing_rate") is not None and f["financing_rate"] < Decimal("-0.001")]
    assert dated_with_rate == [] and below_ecb == []
    assert stating >= 300, stating  # the rule is read: most items state a rate (631 of 1,000 did before)


# --------------------------------------------------------------------------- kind 2 (strict): price over normal EPS
#
# s52review GRAHAM-IV-002-76fc7b27d2e49b7a (#349): 31 December 1974, normal EPS $4.45 and a price of $196.25, 44.1x
# (196.25 / 4.45 = 44.10); -f2c43ed13eb2bc25 (#436): $30 over $13.85, 2.17x. regimes.yaml bounded the price over a
# three-year average (3-30x in 1974) but not over the card's normal EPS: 97 of the 296 dated items fell outside.

@pytest.mark.parametrize("price, eps, when, refused", [
    ("$196.25", "$4.45", dt.date(1974, 12, 31), True),   # 44.1x, review #349
    ("$30", "$13.85", dt.date(1974, 12, 31), True),      # 2.17x, review #436
    ("$22", "$4", dt.date(1974, 12, 31), False),         # 5.5x: the bundled base's bear_market_bargain
    ("$120", "$4", dt.date(1974, 12, 31), False),        # 30x: the 1974 ceiling itself
    ("$120.25", "$4", dt.date(1974, 12, 31), True),      # 30.06x
    ("$12", "$4", dt.date(1974, 12, 31), False),         # 3x: the 1974 floor itself
    ("$11.75", "$4", dt.date(1973, 6, 30), True),        # 2.94x, under 1973's 4x floor
    ("$60", "$1.50", dt.date(1972, 12, 29), False),      # 40x in 1972: the Nifty Fifty, not bounded
    ("$140", "$4", dt.date(1976, 6, 30), False),         # 35x: 1976's ceiling
])
def test_price_over_normal_eps_is_bounded_by_era(price, eps, when, refused):
    facts = {"price_per_share": price, "normal_eps": eps}
    found = [m for m in anachronisms_of(GRAHAM_IV, facts, when) if "normal_eps" in m]
    assert bool(found) == refused, found


def test_graham_dated_items_price_normal_eps_inside_the_eras_bounds():
    run = review_run(GRAHAM_IV, "no_margin_of_safety.yaml", SEED)
    dated = outside = 0
    for item, f in run:
        if not item["manifest"]["context"]["as_of"]:
            continue
        dated += 1
        eps, price = f.get("normal_eps"), f.get("price_per_share")
        if eps is not None and price is not None and eps > 0 and not 3 <= price / eps <= 30:
            outside += 1
    assert outside == 0
    assert dated >= 200, dated  # 296 before, 279 after


# --------------------------------------------------------------------------- kind 8: maintenance capex over D&A
#
# s52review OE (5 of 20 items; 283 of 1,000 at 3x or more): the networking maker's base spends $300M against $400M of
# D&A; the moves gave it maintenance capex 3.4-15 times D&A. The card now holds it at most 2.5 times (replacing
# assets bought 10-15 years ago at 3-6% inflation: 1.34-2.40 times their historic cost).
OWNER_EARNINGS = "buffett_owner_earnings_dcf"
_OE_RULE = "maintenance_within_replacement_of_depreciation"


@pytest.mark.parametrize("capex, da, refused", [
    ("$1.36B", "$400M", True),    # 3.4x, the review's lowest
    ("$1.01B", "$400M", True),    # 2.525x
    ("$1B", "$400M", False),      # 2.5x, the edge
    ("$450M", "$300M", False),    # 1.5x, the airline base
    ("$10M", "$0", True),         # maintenance with no D&A at all
])
def test_maintenance_capex_is_at_most_two_and_a_half_times_da(capex, da, refused):
    assert_rule_case(OWNER_EARNINGS, _OE_RULE, {"maintenance_capex": capex, "depreciation_amortization": da,
                                                "market_value": "$200B"}, refused)


def test_owner_earnings_items_keep_maintenance_capex_within_two_and_a_half_times_da():
    run = review_run(OWNER_EARNINGS, "unpredictable_technology.yaml", SEED)
    read = [(item["id"], f["maintenance_capex"] / f["depreciation_amortization"]) for item, f in run
            if f.get("maintenance_capex") is not None and f.get("depreciation_amortization")]
    assert [i for i, r in read if r > Decimal("2.5")] == []
    assert len(read) >= 900, len(read)


# --------------------------------------------------------------------------- kind 3: the investor's estimates agree
#
# s52review Marks RR (7 of 20): #939 a 70% permanent loss beside +9% a year; #461 40% a year at 80% of value. With a
# 40% chance of losing the stake, the rest must end at 1.159 / 0.6 = 1.93 times the price over five years at 3%
# Treasuries (1.03^5 = 1.159), which only a price at half of value or less offers; at 75% of value or more the
# return is at most Treasuries plus 15 points (the gap closing over three years, 1.333^(1/3) = 1.10, plus 5 points).
RISK_RETURN = "marks_risk_return_assessment"
_RR = {"asset_class": "equity", "risk_free_rate": "3%"}


@pytest.mark.parametrize("facts, rule, refused", [
    # s54rfix: a permanent loss over 50% likely at or under the appraised value is refused by
    # a_likely_loss_puts_the_value_under_the_price too (s54review #521), so the first two cases name it; the
    # first is still refused by this rule and the second still not.
    ({"price": "$750M", "intrinsic_value": "$1B", "expected_return": "9%", "permanent_loss_probability": "70%"},
     ("likely_loss_needs_a_deep_discount", "a_likely_loss_puts_the_value_under_the_price"), True),  # review #939's pair
    ({"price": "$750M", "intrinsic_value": "$1B", "expected_return": "3%", "permanent_loss_probability": "70%"},
     ("a_likely_loss_puts_the_value_under_the_price",), True),         # return at Treasuries: this rule keeps it
    ({"price": "$500M", "intrinsic_value": "$1B", "expected_return": "12%", "permanent_loss_probability": "45%"},
     "likely_loss_needs_a_deep_discount", False),                      # at half of value: kept
    ({"price": "$501M", "intrinsic_value": "$1B", "expected_return": "12%", "permanent_loss_probability": "40%"},
     "likely_loss_needs_a_deep_discount", True),
    ({"price": "$800M", "intrinsic_value": "$1B", "expected_return": "40%", "permanent_loss_probability": "15%"},
     "small_discount_caps_the_return", True),                          # review #461
    ({"price": "$750M", "intrinsic_value": "$1B", "expected_return": "18%", "permanent_loss_probability": "15%"},
     "small_discount_caps_the_return", False),                         # 3% + 15 points, the edge
    ({"price": "$740M", "intrinsic_value": "$1B", "expected_return": "25%", "permanent_loss_probability": "15%"},
     "small_discount_caps_the_return", False),                         # under 75% of value: not this rule's
])
def test_marks_loss_and_return_estimates_agree(facts, rule, refused):
    assert_rule_case(RISK_RETURN, rule, {**_RR, **facts}, refused)


def test_marks_items_keep_loss_and_return_estimates_together():
    run = review_run(RISK_RETURN, "invest_three_of_five_mixed.yaml", SEED)
    likely = small = read = 0
    for _, f in run:
        if any(f.get(k) is None for k in ("price", "intrinsic_value", "expected_return", "risk_free_rate",
                                           "permanent_loss_probability")):
            continue
        read += 1
        p, v, r, rf = f["price"], f["intrinsic_value"], f["expected_return"], f["risk_free_rate"]
        likely += f["permanent_loss_probability"] >= Decimal("0.4") and r > rf and p > v / 2
        small += p >= Decimal("0.75") * v and r > rf + Decimal("0.15")
    assert (likely, small) == (0, 0)
    assert read >= 900, read


# --------------------------------------------------------------------------- kind 7: the mood against the spread
#
# s52review MMC (7 of 20): balanced at 9.3-12%, optimistic at 7.8%, a 2% spread below any on record. Balanced stops at
# the cold spread of 8%, optimism and euphoria at 6.5% (1999's euphoric equities came with spreads near 5-6%), and
# no spread is below 2.3% (about the record low, June 2007).
MARKET_CYCLE = "marks_market_cycle_positioning"
_MC = {"thesis_basis": "present_conditions", "capital_availability": "normal", "proposed_posture": "balanced"}


@pytest.mark.parametrize("spread, mood, rule, refused", [
    ("9.3%", "balanced", "balanced_mood_has_a_normal_spread", True),    # the review's lowest balanced
    ("8.05%", "balanced", "balanced_mood_has_a_normal_spread", True),
    ("8%", "balanced", "balanced_mood_has_a_normal_spread", False),     # the edge
    ("7.8%", "optimistic", "optimism_has_a_narrow_spread", True),       # the review's optimistic
    ("6.55%", "euphoric", "optimism_has_a_narrow_spread", True),
    ("6.5%", "optimistic", "optimism_has_a_narrow_spread", False),      # the edge
    ("2%", "balanced", "spread_above_its_record_low", True),            # the review's 2%
    ("2.25%", "balanced", "spread_above_its_record_low", True),
    ("2.3%", "balanced", "spread_above_its_record_low", False),
])
def test_market_mood_agrees_with_the_spread(spread, mood, rule, refused):
    assert_rule_case(MARKET_CYCLE, rule, {**_MC, "high_yield_spread": spread, "investor_psychology": mood}, refused)


def test_market_cycle_items_keep_mood_and_spread_together():
    run = review_run(MARKET_CYCLE, "reject_macro_forecast.yaml", SEED)
    broken = [item["id"] for item, f in run if f.get("high_yield_spread") is not None and (
        f["high_yield_spread"] < Decimal("0.023")
        or (f.get("investor_psychology") == "balanced" and f["high_yield_spread"] > Decimal("0.08"))
        or (f.get("investor_psychology") in ("optimistic", "euphoric") and f["high_yield_spread"] > Decimal("0.065")))]
    assert broken == []
    assert sum(1 for _, f in run if f.get("high_yield_spread") is not None) >= 900


# --------------------------------------------------------------------------- kind 9: expected against priced inflation
#
# s52review DEM (3 of 20): the investor's expected inflation 8-15 points from the breakeven the market prices (286 of
# 1,000 more than 5 points apart). The card now holds the two within 5 points either way.
MACHINE = "dalio_economic_machine_positioning"
_DEM = {"expected_growth": "1.5%", "discounted_growth": "3%", "credit_impulse": "-1%", "favoured_risk_share": "40%"}


@pytest.mark.parametrize("expected, priced, refused", [
    ("15%", "3.5%", True),     # 11.5 points
    ("8.75%", "3.5%", True),   # 5.25 points
    ("8.5%", "3.5%", False),   # 5 points, the edge
    ("6%", "3.5%", False),     # the base: 2.5 points
    ("-2%", "3.25%", True),    # 5.25 points below
    ("-1.5%", "3.5%", False),  # 5 points below
])
def test_inflation_view_stays_within_five_points_of_the_breakeven(expected, priced, refused):
    assert_rule_case(MACHINE, "inflation_view_near_the_breakeven",
                     {**_DEM, "expected_inflation": expected, "discounted_inflation": priced}, refused)


def test_economic_machine_items_keep_the_inflation_view_near_the_breakeven():
    run = review_run(MACHINE, "stagflation_linkers_gold.yaml", SEED)
    read = [(item["id"], abs(f["expected_inflation"] - f["discounted_inflation"])) for item, f in run
            if f.get("expected_inflation") is not None and f.get("discounted_inflation") is not None]
    assert [i for i, gap in read if gap > Decimal("0.05")] == []
    assert len(read) >= 900, len(read)


# --------------------------------------------------------------------------- kind 11: wording
#
# s52review: "The issuer is another company." (SR, 20 of 20), "The conduct criterion the Council on Ethics' case
# concerns is none." (NBIM, 20 of 20), "The thesis basis is present conditions." (MMC, 20 of 20), and "at the
# decision date" in 21 undated Graham and owner-earnings items (704 and 306 of 1,000 before). Each input now has a
# phrase or a label that reads as a sentence with or without a date.

@pytest.mark.parametrize("card, base, banned, wanted", [
    ("buffett_share_repurchase", "reserve_policy_unknown.yaml", "The issuer is",
     "The company buying back its shares is a listed company other than Berkshire Hathaway."),  # s65review (R4)
    ("nbim_gpfg_exclusion_screen", "k5_ministry_restriction.yaml", "concerns is none",
     "On conduct, the Council on Ethics has no conduct case on the company."),
    (MARKET_CYCLE, "reject_macro_forecast.yaml", "The thesis basis is",
     "The proposed posture rests on a forecast of the economy, rates or markets."),
    (GRAHAM_IV, "no_margin_of_safety.yaml", "at the decision date", "The current yield on AAA corporate bonds is "),
    (OWNER_EARNINGS, "unpredictable_technology.yaml", "at the decision date",
     "The yield on long-term US Treasury bonds is "),
])
def test_questions_state_these_facts_in_plain_sentences(card, base, banned, wanted):
    questions = [item["question"] for item, _ in review_run(card, base, SEED)]
    assert [q for q in questions if banned in q] == []
    assert sum(wanted in q for q in questions) >= 100
