"""s51rfix: SR12 on the lead's ruling, then s51review's kinds (issue 18).

Counts over the review's 1,000 items before -> after, with the commands, are in /work/notes/s51rfix.md. Each test
below fails without its fix (checked by putting the previous file back, never by stashing).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

import ipb
from ipb.perturb import Job, generate
from perturb_support import SCENARIOS, assert_rule_case


# --------------------------------------------------------------------------- SR12: Berkshire's buybacks under its price limit
#
# s50review SR12 (409 of 1,000 items on berkshire_2012_within_limit, seed 10707): Berkshire proposing $10-48B on
# 12 December 2012, the day it bought its largest block ever, $1.2B. The lead's ruling (stop 51): from
# 26 September 2011 to 16 July 2018, while a price limit of 110-120% of book stood, Berkshire bought in amounts far
# below $10B, so a proposal of those days is at most $8B. The base's facts: $45B of cash, a $20B reserve.

REPURCHASE = "buffett_share_repurchase"
_SR12_RULE = "berkshire_buyback_of_its_price_limit_years"
_SR12 = {"issuer": "berkshire_hathaway", "decision_date": "2012-12-12", "cash_and_equivalents": "$55B",
         "liquidity_reserve": "$20B", "reinvestment_needs_funded": True}
_CASH_TOO = ("berkshire_cash_of_its_years", _SR12_RULE)


@pytest.mark.parametrize("facts, refused, what", [
    # s57weak: 2012's cash band now ends at $50B, so the $55B these items state is refused too (the tuples)
    ({**_SR12, "repurchase_amount": "$48.03B"}, _CASH_TOO,
     "s50review SR12, BUFFETT-SR-003-aa999c27eae8e029's $48.03B (leaves $6.97B, under the reserve, so the quarter "
     "rule lets it through to the cash gate)"),
    ({**_SR12, "repurchase_amount": "$12.67B"}, _CASH_TOO,
     "s50review SR12, BUFFETT-SR-003-b923954e012855af's $12.67B (23% of $55B: within a quarter)"),
    ({**_SR12, "repurchase_amount": "$8.01B"}, _CASH_TOO, "just over the cap"),
    ({**_SR12, "repurchase_amount": "$8B", "cash_and_equivalents": "$50B"}, False, "the cap itself"),
    ({**_SR12, "repurchase_amount": "$1.2B", "cash_and_equivalents": "$50B"}, False,
     "the record: 9,200 class A shares at $131,000, 12 December 2012"),
    ({**_SR12, "decision_date": "2011-09-26", "repurchase_amount": "$8.01B", "cash_and_equivalents": "$40B"}, True,
     "the window's first day, the 110% limit's release"),
    ({**_SR12, "decision_date": "2011-09-23", "repurchase_amount": "$9B", "cash_and_equivalents": "$40B"}, False,
     "the Friday before the limit: no buyback programme, the cap does not apply"),
    ({**_SR12, "decision_date": "2018-07-16", "repurchase_amount": "$8.01B", "cash_and_equivalents": "$110B"}, True,
     "the window's last day"),
    ({**_SR12, "decision_date": "2018-07-17", "repurchase_amount": "$12B", "cash_and_equivalents": "$110B"}, False,
     "17 July 2018: the limit replaced by a judgement of value (11% of $110B, within a quarter)"),
    ({k: v for k, v in _SR12.items() if k != "decision_date"} | {"repurchase_amount": "$40B"}, False,
     "undated (test_perturb_bounds_s35's $40B of $55B, kept for the cash gate)"),
    ({**_SR12, "issuer": "other_company", "repurchase_amount": "$40B"}, False, "another company: not Berkshire's limit"),
])
def test_berkshire_proposes_at_most_eight_billion_while_its_price_limit_stood(facts, refused, what):
    assert_rule_case(REPURCHASE, refused if isinstance(refused, tuple) else _SR12_RULE, facts, bool(refused))


@pytest.mark.parametrize("base", ["berkshire_2012_within_limit.yaml", "berkshire_2014_above_book_limit.yaml"])
def test_no_berkshire_item_inside_the_price_limit_years_proposes_more_than_the_cap(base):
    """A default run (seed 0, 120 items) of each base dated inside the window: every Berkshire item dated
    26 September 2011 to 16 July 2018 proposes at most $8B, and such items are most of the run (non-vacuity)."""
    cap = ipb.facts(REPURCHASE, {"repurchase_amount": "$8B"})["repurchase_amount"]
    lines = generate(Job((REPURCHASE,), str(SCENARIOS / REPURCHASE / base), 0), 120).lines
    inside = 0
    for line in lines:
        f = json.loads(line)["scenario"]["facts"]
        when = f.get("decision_date")
        if f.get("issuer") != "berkshire_hathaway" or when is None:
            continue
        if dt.date(2011, 9, 26) <= dt.date.fromisoformat(when) <= dt.date(2018, 7, 16):
            inside += 1
            assert ipb.facts(REPURCHASE, f)["repurchase_amount"] <= cap, f
    assert inside >= 60, inside


# --------------------------------------------------------------------------- G17: a utility's bonds beside a sliver of equity
#
# s51review G17 (65 of 1,000 items on utility_passes, 31 December 1974; 51 of them public utilities): the operators
# shrink book equity under the base's $500M of long-term debt to fail gate 2 (debt at most twice equity) and leave
# the bonds, the assets and the record. A regulated utility's equity was a third to a half of its capital; the line
# is debt at most three times equity for a system with $500M or more of assets (the mirror of s48rfix2's rule).

GRAHAM = "graham_seven_tests_defensive"
_G17_RULE = "utility_long_term_debt_at_most_three_times_its_equity"
_G17 = {"book_value_per_share": "$20", "company_type": "public_utility", "dividend_years": "2", "eps_3yr_avg": "$2.4",
        "eps_3yr_avg_ten_years_ago": "$3.6", "long_term_debt": "$500M", "price_per_share": "$18",
        "stock_equity": "$77M", "total_assets": "$800M", "years_with_earnings": "10"}


@pytest.mark.parametrize("facts, refused, what", [
    (_G17, True, "s51review G17 #5, GRAHAM-7T-004-5773028a2ce7771b: $500M of bonds on $77M of equity (6.5x)"),
    ({**_G17, "dividend_years": "40", "eps_3yr_avg": "$1.8", "eps_3yr_avg_ten_years_ago": "$1.7",
      "stock_equity": "$107M", "total_assets": "$890M", "years_with_earnings": "6"}, True,
     "s51review G17 #17, GRAHAM-7T-004-81f0497e2c5ab1dd: $500M on $107M (4.7x)"),
    ({**_G17, "stock_equity": "$166M"}, True, "just over: $500M > 3 x $166M = $498M"),
    ({**_G17, "stock_equity": "$167M"}, False, "the edge side: $500M <= 3 x $167M = $501M"),
    ({**_G17, "stock_equity": "$200M"}, False, "2.5x: the reviewer's realistic band for a gate-2 REJECT"),
    ({**_G17, "stock_equity": "$300M"}, False, "the base: 1.67x"),
    ({**_G17, "total_assets": "$450M", "long_term_debt": "$300M", "stock_equity": "$77M"}, False,
     "a system under $500M of assets is left open (3.9x)"),
    ({**_G17, "company_type": "industrial"}, False, "an industrial is left open"),
])
def test_graham_a_large_utility_owes_at_most_three_times_its_equity(facts, refused, what):
    assert_rule_case(GRAHAM, _G17_RULE, facts, refused)


def test_graham_gate_2_still_rejects_a_utility_between_twice_and_three_times_its_equity():
    """The base with $200M of equity: $500M of long-term debt is 2.5 times it, over Graham's twice (gate 2 REJECT), and
    the new rule keeps it."""
    facts = {**_G17, "dividend_years": "40", "eps_3yr_avg": "$2.4", "eps_3yr_avg_ten_years_ago": "$1.7",
             "stock_equity": "$200M"}
    assert_rule_case(GRAHAM, _G17_RULE, facts, False)
    gates = {g.gate.id: g.verdict for g in ipb.execute(GRAHAM, facts).gates}
    assert gates["strong_financial_condition"] == "REJECT", gates


# --------------------------------------------------------------------------- LY17: a cyclical compounding like a fast grower
#
# s51review LY17 (153 of 1,000 items on invest_fast_grower_room_to_expand, 30 September 1979): the sector and isolate
# operators made the base's 22% consumer grower a transport or materials cyclical and left its long-run growth. A
# cyclical's long-run growth now stays under the card's fast-grower floor (20%).

LYNCH = "lynch_six_category_framework"
_LY17_RULE = "a_cyclical_grows_below_the_fast_grower_floor"
_LY17 = {"cyclical_industry": True, "debt_share": "10%", "distressed": False, "dividend_yield": "1%",
         "earnings_growth": "22%", "expansion_room": True, "hidden_asset_value": "$0", "market_cap": "$300M",
         "pe_ratio": "19.5x", "sector": "transport"}


@pytest.mark.parametrize("facts, refused, what", [
    (_LY17, True, "s51review LY17 #10, IPB-LYN-SC-004-68bab38750f06da0: a transport cyclical growing 22% a year"),
    ({**_LY17, "dividend_yield": "3%", "pe_ratio": "17x", "sector": "materials"}, True,
     "s51review LY17 #16, IPB-LYN-SC-004-5a653d2b6846d533: materials, 22%"),
    ({**_LY17, "earnings_growth": "20%"}, True, "at the floor: 20% is a fast grower's rate"),
    ({**_LY17, "earnings_growth": "19%"}, False, "just under the floor"),
    ({**_LY17, "earnings_growth": "8%"}, False, "a cyclical's few points a year"),
    ({**_LY17, "cyclical_industry": False, "sector": "consumer"}, False, "the base itself: a consumer fast grower"),
])
def test_lynch_a_cyclical_grows_below_the_fast_grower_floor(facts, refused, what):
    assert_rule_case(LYNCH, _LY17_RULE, facts, refused)


def test_lynch_a_cyclical_above_a_quarter_a_year_names_both_growth_rules():
    """s36rules' I 74 kind (a cyclical growing 46% a year), here on the LY17 item: refused by the 25% rule and the new
    floor, in card order."""
    facts = {**_LY17, "earnings_growth": "46%"}
    assert_rule_case(LYNCH, ("a_cyclical_does_not_grow_like_a_fast_grower", _LY17_RULE), facts, True)


# --------------------------------------------------------------------------- D10: fast deflation while the central bank prints
#
# s51review D10 (141 of 1,000 items on pushing_on_a_string_inflation_hedges, undated; 60 of them printing with prices
# falling more than 2% a year): the metric and flip moved nominal growth alone under the base's printing. Deflation of
# 3-10% a year is 1930-32, before anyone printed; under printing the record runs from about -2% (US 1933, Japan 2010)
# upwards. The card's -5% floor for any slump stays.

DALIO = "dalio_debt_supercycle_navigation"
_D10_RULE = "printing_stops_a_fast_deflation"
_D10 = {"bubble_signals": "2", "central_bank_stance": "printing", "debt_growth_gap": "5%",
        "foreign_currency_debt_share": "5%", "long_bond_yield": "0.7%", "nominal_gdp_growth": "-8%",
        "policy_rate": "0.1%", "real_gdp_growth": "-3.5%", "yield_curve_slope": "0.6%"}


@pytest.mark.parametrize("facts, refused, what", [
    (_D10, True, "DALIO-DC-013-0975cfe281f7e6b1 (s51review's run): real -3.5%, nominal -8%, a 4.5% deflation"),
    ({**_D10, "debt_growth_gap": "8%", "nominal_gdp_growth": "-7.5%", "policy_rate": "0.75%",
      "yield_curve_slope": "-0.05%"}, True, "DALIO-DC-013-5badccdafa661aac: a 4% deflation at 0.75%"),
    ({**_D10, "nominal_gdp_growth": "-5.75%"}, True, "just over: prices falling 2.25% a year"),
    ({**_D10, "nominal_gdp_growth": "-5.5%"}, False, "the edge: -2%, Japan 2010 and the US 1933"),
    ({**_D10, "nominal_gdp_growth": "-2%"}, False, "the base: prices rising 1.5%"),
    ({**_D10, "central_bank_stance": "easing"}, False,
     "s51review D10 #1 (DALIO-DC-013-b26ea8ace513569c's kind): easing, not printing, is not bound here (1931-32)"),
])
def test_dalio_printing_holds_deflation_to_two_percent(facts, refused, what):
    assert_rule_case(DALIO, _D10_RULE, facts, refused)
