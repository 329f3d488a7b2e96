"""Regression (contradictory facts): the stop-32 review's listed findings (s32era, issue 18 bar line 2), fixed at stop 33.

The review (``/work/notes/s32/s32era_review.md``) read 20 random items (seed 3232) on each of 10 bundled cards and
listed twelve facts that another fact or the item's date rules out, or that a careful reader would stop at. Two
kinds of test, both by their own arithmetic on the stated facts (not through the cards' constraint code):

* the review's own items, regenerated with the stop-32 code (same ids), are refused by the rule named for them;
* default runs (no ``--ops``) from every bundled base of each card write no item that breaks the relation,
  while the figures involved still move (the relation is read on items that state them).
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal as D

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate, parse_recipes
from perturb_support import SCENARIOS, relations_on_lines

BUFFETT = "buffett_acquisition_checklist"
REPURCHASE = "buffett_share_repurchase"
GRAHAM = "graham_seven_tests_defensive"
GREENBLATT = "greenblatt_magic_formula_screen"
LYNCH = "lynch_six_category_framework"
MARKS = "marks_distressed_debt"
MUNGER = "munger_business_quality_price"
DALIO = "dalio_debt_supercycle_navigation"
SOROS = "soros_reflexive_hypothesis_trade_construction"

#: (card, review item id, its stated facts, the rules that now refuse it, in card order). The facts are the items'
#: own, regenerated with the stop-32 code (``generate(Job((card,), base, 3232), 200)``, item #k of the review).
REVIEW_ITEMS = [
    (BUFFETT, "IPB-P-011-A-d6afd2fe39790ac7",  # subscription software keeping 57% of last year's revenue
     {"arr": "$2B", "business_model": "subscription_software", "ev_to_arr": "7x", "gross_margin": "75%",
      "net_income": "$0", "revenue_growth": "54%", "revenue_retention": "57%", "sector": "industrial_automation"},
     ["subscriptions_keep_most_of_their_revenue"]),
    (BUFFETT, "IPB-P-011-A-ed79c9cbefea7137",  # an insurer at a 90% gross margin and 7x revenue
     {"arr": "$2B", "business_model": "insurance", "ev_to_arr": "7x", "gross_margin": "90%", "net_income": "$0",
      "revenue_growth": "4%", "revenue_retention": "100%", "sector": "financials"},
     # earning nothing on $2B at 7x revenue, s43items' rule (at most 2.5x) refuses it too, and s44items' (a business
     # outside software earning nothing and growing under 10% at under 2x revenue)
     ["banks_and_insurers_keep_financial_margins_and_prices",
      "a_large_financial_earning_nothing_is_priced_near_its_revenue",
      "a_business_earning_nothing_outside_software_is_priced_under_twice_revenue"]),
    (REPURCHASE, "BUFFETT-SR-003-58d0e5387cb2d959",  # another company's share at $626,748 in December 2012
     {"cash_and_equivalents": "$45B", "decision_date": "2012-12-12", "intrinsic_value_per_share": "$696387",
      "issuer": "other_company", "liquidity_reserve": "$20B", "price_per_share": "$626748", "price_to_book": "1.16x",
      "reinvestment_needs_funded": True, "repurchase_amount": "$1.2B",
      "repurchase_purpose": "return_value_to_continuing_owners", "shareholders_informed": True},
     ["another_company_share_price_of_its_era"]),
    (GRAHAM, "GRAHAM-7T-001-fb66b0546c6b4343",  # 162M shares x $3 = $486M of earnings on $1.04B of sales
     {"annual_sales": "$1.04B", "book_value_per_share": "$6.25", "company_type": "industrial", "current_assets": "$200M",
      "current_liabilities": "$80M", "dividend_years": 35, "eps_3yr_avg": "$3", "eps_3yr_avg_ten_years_ago": "$2",
      "long_term_debt": "$90M", "price_per_share": "$36", "stock_equity": "$1.013B", "years_with_earnings": 10},
     ["earnings_within_sales"]),
    (GRAHAM, "GRAHAM-7T-001-03bd6a5482e081d6",  # dividends through ten years of losses
     {"annual_sales": "$450M", "book_value_per_share": "$30", "company_type": "industrial", "current_assets": "$200M",
      "current_liabilities": "$80M", "dividend_years": 35, "eps_3yr_avg": "-$1.75", "eps_3yr_avg_ten_years_ago": "$9.8",
      "long_term_debt": "$90M", "price_per_share": "$36", "years_with_earnings": 0},
     ["dividends_are_paid_out_of_earnings"]),
    (GREENBLATT, "IPB-GRE-MF-003-c00f4b86d9a80d04",  # a utility with net cash and $2B of plant on a $70.6B EV
     {"combined_rank_position": 1205, "ebit": "$1.5B", "enterprise_value": "$70.58B", "foreign_adr": False,
      "market_cap": "$119.11B", "net_fixed_assets": "$2B", "net_working_capital": "$500M",
      "planned_holding_months": 12, "portfolio_positions": 25, "sector": "utilities"},
     # s35: $48.5B net cash on $1.5B; s38rules: and on $2.5B of operating capital; s37rules: 60% on $2.5B of
     # tangible capital, above a large utility's 20%
     ["utilities_carry_plant_and_debt", "net_cash_within_ten_years_of_ebit", "net_cash_within_the_operating_capital",
      "a_capital_heavy_large_cap_within_its_sector_return"]),
    (GREENBLATT, "IPB-GRE-MF-003-3af9da4f6664a06b",  # EBIT $18.7B on a $20B market value
     {"combined_rank_position": 2, "ebit": "$18.7B", "enterprise_value": "$56.55B", "foreign_adr": False,
      "market_cap": "$20B", "net_fixed_assets": "$2B", "net_working_capital": "-$2B", "planned_holding_months": 12,
      "portfolio_positions": 25, "sector": "consumer_staples"},
     # s35bounds: EV/EBIT 3.03 is above the one EV floor left (2x); the 1.07x market value is still refused;
     # s37rules: 3.03x is under a large staples company's 4.5x floor
     ["large_earnings_need_capital", "market_value_at_least_two_and_a_half_times_ebit",
      "a_large_cap_within_its_sector_multiple"]),
    (LYNCH, "LYNCH-6C-011-33ed8a7aa31d30d5",  # a 12%-growth stalwart at 12x with a decade average of 53.5x
     {"cyclical_industry": False, "distressed": False, "dividend_yield": "3%", "earnings_growth": "12%",
      "hidden_asset_value": "$0", "market_cap": "$8B", "pe_historical_average": "53.5x", "pe_ratio": "12x",
      "sector": "consumer"},
     ["historical_pe_of_a_slow_or_steady_grower", "current_pe_within_reach_of_its_average"]),
    (LYNCH, "LYNCH-6C-011-adb1a1b1d7b8e27d",  # distressed, growing 12% and yielding 10.5%
     {"cyclical_industry": False, "distressed": True, "dividend_yield": "10.5%", "earnings_growth": "12%",
      "hidden_asset_value": "$15.51B", "market_cap": "$8B", "pe_historical_average": "13x", "pe_ratio": "12x",
      "sector": "consumer", "total_debt": "$21.93B"},
     # s38fix (s38review kinds a-c): a battered company stating P/E 12 beside 12% growth, and 126% of earnings paid
     # out at 12% growth each break a new rule too ($15.51B of overlooked assets at an $8B company, 1.94x, broke
     # s38fix's "above the cap only at <= $2B"; s39rules' twice-the-cap bound keeps that fact, after Yahoo 2014)
     ["a_distressed_grower_pays_no_full_dividend",
      "a_battered_company_has_no_healthy_pe_and_growth", "a_grower_keeps_a_fifth_of_its_earnings"]),
    (MARKS, "IPB-MAR-DD-002-f3fa8f33e23cd5a5",  # 90% of face at a 29% spread; worth 12x the claims
     {"class_face": "$600M", "legal_process_risk": "moderate", "purchase_price": "90%", "reorganization_value": "$17.3B",
      "sector": "telecom", "senior_claims": "$800M", "spread_to_treasuries": "29%", "stressed_value": "$400M",
      "years_to_resolution": "3.75"},
     # s38rules: 12x the claims is also above twice them; s39rules: 29 points is above 10 points plus the 10-point
     # discount (the price-spread band)
     ["spread_within_coupon_and_pull_to_par", "reorganization_value_within_scale_of_claims",
      "a_conservative_value_leaves_the_debt_at_risk", "stressed_at_least_a_quarter_of_value",
      "the_bad_case_is_at_least_two_fifths_of_the_conservative_value",  # s46rfix2: 400 / 17,300 = 2.3%
      "spread_within_ten_points_plus_the_discount"]),
    (MARKS, "IPB-MAR-DD-002-83c1576ba49a18bb",  # worth $28.8B against $1.4B of claims, the class at 15%
     {"class_face": "$600M", "legal_process_risk": "moderate", "purchase_price": "15%", "reorganization_value": "$28.83B",
      "sector": "telecom", "senior_claims": "$800M", "spread_to_treasuries": "40%", "stressed_value": "$400M",
      "years_to_resolution": "1.5"},
     ["reorganization_value_within_scale_of_claims", "a_conservative_value_leaves_the_debt_at_risk",
      "stressed_at_least_a_quarter_of_value",
      "the_bad_case_is_at_least_two_fifths_of_the_conservative_value"]),  # s46rfix2: 400 / 28,830 = 1.4%
    (MUNGER, "MUNGER-QP-002-67787e80ea43c22d",  # $454.8B for $600M of owner earnings (758x)
     {"competitive_advantage": "durable", "incentives_aligned": False, "long_run_growth": "14.5%",
      "management_integrity": "untrustworthy", "market_value": "$454.8B", "owner_earnings": "$600M",
      "return_on_capital": "17%", "understandable": True},
     # s35bounds: at 14.5% growth the 50x bound gives way to the 200x one, which 758x breaks
     ["price_within_a_century_of_owner_earnings"]),
    (DALIO, "DAL-DSC-002-d8af734ef0fa1bfb",  # 6.5% real growth with 1.5% nominal
     {"bubble_signals": 5, "central_bank_stance": "easing", "debt_growth_gap": "4%", "foreign_currency_debt_share": "5%",
      "long_bond_yield": "2.5%", "nominal_gdp_growth": "1.5%", "policy_rate": "-0.75%", "real_gdp_growth": "6.5%",
      "yield_curve_slope": "3.25%"},
     # a -5% deflator with growth and 5% of the debt abroad breaks s36rules' rule too; s46rfix2: and a -0.75% policy
     # rate under a 2.5% ten-year with own-currency debt breaks the negative-rate rule; s50rfix: and 6.5% real growth
     # with a -5% deflator breaks the five-percent boom's -1.5% floor
     ["a_real_boom_has_no_deep_deflation", "deep_deflation_with_growth_needs_a_fixed_currency",
      "a_negative_policy_rate_keeps_the_own_currency_long_yield_low", "a_five_percent_boom_has_prices_near_flat"]),
    (SOROS, "SOR-RHT-005-f4a0a5d78902f676",  # not borne out after ten confirmations
     {"confirmation_rounds": 10, "feedback_loop": "self_reinforcing", "hypothesis_confirmed": False,
      "initial_position": "40%", "loss_budget": "5%", "max_position": "86%", "prevailing_bias": "identified",
      "stop_distance": "20%"},
     # s39rfix: the stop-33 rule (at most three) gave way to a stricter one (none), which still refuses it;
     # s46rfix2: the 40% probe stopped 20% out loses 8% against a 5% budget
     ["a_failed_hypothesis_had_no_favourable_move", "the_test_position_is_a_probe",
      "the_test_position_fits_the_loss_budget"]),
]


@pytest.mark.parametrize("card, item_id, facts, rules", REVIEW_ITEMS, ids=[r[1] for r in REVIEW_ITEMS])
def test_the_reviewed_item_is_refused_by_its_rule(card, item_id, facts, rules):
    errors = constraint_errors(compiled_card(card).card, ipb.facts(card, facts))
    assert [e.name for e in errors] == rules


def _financial(f):
    return f["business_model"] in ("banking", "insurance")


#: card -> [(what the relation says, it applies to these facts, it holds)]; read on items stating every fact it names.
RELATIONS = {
    BUFFETT: [
        # s36rules: a move to financials drops the gross margin (sectors.yaml omits), so a bank or insurer states none
        ("a bank or insurer: no gross margin stated", lambda f: _financial(f), lambda f: "gross_margin" not in f),
        ("a bank or insurer: EV/revenue <= 4x", lambda f: _financial(f), lambda f: f["ev_to_arr"] <= 4),
        ("subscription software keeps >= 75% of revenue", lambda f: f["business_model"] == "subscription_software",
         lambda f: f["revenue_retention"] >= D("0.75")),
    ],
    REPURCHASE: [
        ("another company's share <= $10,000 (2000-2019)",
         lambda f: f["issuer"] == "other_company" and date(2000, 1, 1) <= f["decision_date"] < date(2020, 1, 1),
         lambda f: f["price_per_share"] <= 10000),
    ],
    GRAHAM: [
        ("EPS x equity / book per share <= 25% of sales", lambda f: True,
         lambda f: f["eps_3yr_avg"] * f["stock_equity"] / f["book_value_per_share"] <= D("0.25") * f["annual_sales"]),
        ("dividend years in the decade <= years with earnings + 5", lambda f: True,
         lambda f: min(f["dividend_years"], 10) <= f["years_with_earnings"] + 5),
    ],
    GREENBLATT: [
        ("a utility: EV >= market cap", lambda f: f["sector"] == "utilities",
         lambda f: f["enterprise_value"] >= f["market_cap"]),
        ("a utility: fixed assets >= 3 x working capital and >= EV / 2", lambda f: f["sector"] == "utilities",
         lambda f: f["net_fixed_assets"] >= max(3 * f["net_working_capital"], f["enterprise_value"] / 2)),
        # s35bounds: the floors are EV/EBIT 2 and market cap 2.5x EBIT (ITT Educational, end of 2011: ~2.5x, ~3.0x)
        ("EV / EBIT >= 2", lambda f: f["ebit"] > 0, lambda f: f["enterprise_value"] / f["ebit"] >= 2),
        ("EBIT <= market cap / 2.5", lambda f: True, lambda f: f["ebit"] <= f["market_cap"] / D("2.5")),
    ],
    LYNCH: [
        ("under 20% growth: decade-average P/E <= 30", lambda f: f["earnings_growth"] < D("0.2"),
         lambda f: f["pe_historical_average"] <= 30),
        ("decade-average P/E <= 4 x the current one", lambda f: True,
         lambda f: f["pe_historical_average"] <= 4 * f["pe_ratio"]),
        # s38fix: a battered company no longer states a P/E beside growth >= 10% (s38review kind b), so the old
        # relation (distressed and growing >= 10%: yield < 4%) applied to no item of the run; it is read on every
        # battered item, joined with the new rule (an item breaking the old relation breaks this one too)
        ("distressed: growth < 10%, or no P/E and yield < 4%", lambda f: f["distressed"],
         lambda f: f["earnings_growth"] < D("0.1") or ("pe_ratio" not in f and f["dividend_yield"] < D("0.04"))),
    ],
    MARKS: [
        ("yield on price <= 15% coupon + pull to par", lambda f: True,
         lambda f: f["spread_to_treasuries"] * f["purchase_price"]
         <= D("0.15") + (1 - f["purchase_price"]) / f["years_to_resolution"]),
        ("reorganisation value <= 3 x claims at or ahead of the class", lambda f: True,
         lambda f: f["reorganization_value"] <= 3 * (f["senior_claims"] + f["class_face"])),
    ],
    MUNGER: [
        # s35bounds: 200x at 12% growth or more (Cisco, March 2000: ~165-225x)
        ("price <= 100 x positive owner earnings (200 x at 12% growth)", lambda f: f["owner_earnings"] > 0,
         lambda f: f["market_value"] <= (200 if f["long_run_growth"] >= D("0.12") else 100) * f["owner_earnings"]),
    ],
    DALIO: [
        ("real growth above 3%: deflator >= -3%", lambda f: f["real_gdp_growth"] > D("0.03"),
         lambda f: f["nominal_gdp_growth"] - f["real_gdp_growth"] >= D("-0.03")),
    ],
    SOROS: [
        ("not borne out: at most 3 confirmations", lambda f: not f["hypothesis_confirmed"],
         lambda f: f["confirmation_rounds"] <= 3),
    ],
}

#: items per bundled base (seed 3232, the review's); fewer on the slow or many-based cards
N = {GREENBLATT: 30, DALIO: 25}


@pytest.mark.parametrize("card", sorted(RELATIONS))
def test_default_runs_keep_the_reviewed_relations(card):
    lines = [line for base in sorted((SCENARIOS / card).glob("*.yaml"))
             for line in generate(Job((card,), str(base), 3232), N.get(card, 60)).lines]
    if card == GREENBLATT:
        # s36rules: since financials became reachable (a move there drops the capital), the default runs' sector
        # moves at this N no longer reach a utility with its capital stated; a run of moves to utilities with new
        # metrics from the reviewed base (seed 3232) reads the two utility relations (the default runs are still
        # checked, with these items, below)
        base = SCENARIOS / card / "decline_outside_top_group.yaml"
        lines += generate(Job((card,), str(base), 3232, parse_recipes("sector:utilities+metric")), 5).lines
    broken, read = relations_on_lines(card, lines, RELATIONS[card])
    assert broken == []
    assert all(read.values()), read  # non-vacuity: every relation was read on some item
