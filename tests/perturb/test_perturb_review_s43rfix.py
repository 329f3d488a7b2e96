"""s43rfix: rules for review43's kinds R2-R7 (issue 18 bar line 2: no fact contradicts another or its date).

review43 (/work/notes/review43.md, seed 9797) read each card's middle base in ls order. Each card-rule case holds one
of its items (by id, with the facts the item states) that the new rule refuses, alone of all the card's rules, beside
neighbours from the record or the rule's edge that no rule refuses. Rules that depend on the date are era bounds in
frameworks/regimes.yaml's ``multiples``, tested against the day they are read on. Figures marked [M] are recalled;
the others were found with the search tool (the cards' comments say where).
"""

from __future__ import annotations

import datetime as dt

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes

from perturb_support import assert_rule_case

ACQ = "buffett_acquisition_checklist"
GRAHAM = "graham_seven_tests_defensive"
DALIO = "dalio_debt_supercycle_navigation"
LYNCH = "lynch_six_category_framework"
MUNGER = "munger_business_quality_price"
GREENBLATT = "greenblatt_magic_formula_screen"

#: The acquisition review base, ipb_p_011_c (Table 9 Perturbation C, 9 March 2009), as its items state it.
_C = {"arr": "$5B", "business_model": "subscription_software", "ev_to_arr": "10x", "gross_margin": "90%",
      "macro_regime": "credit_crisis", "net_income": "$0", "revenue_growth": "25%", "revenue_retention": "95%",
      "sector": "enterprise_software"}
_A2 = "a_credit_crisis_prices_an_operating_business_at_most_at_twelve_times_revenue"
_A3A = "a_rich_price_needs_growth_or_earnings"
_A3B = "a_growing_profitable_business_is_priced_at_least_at_four_times_earnings"

#: The Graham review base, glamour_growth_stock (31 January 1973), as its items state it.
_G = {"annual_sales": "$2B", "book_value_per_share": "$12.5", "company_type": "industrial", "current_assets": "$1B",
      "current_liabilities": "$400M", "dividend_years": "15", "eps_3yr_avg": "$2.5", "eps_3yr_avg_ten_years_ago": "$1",
      "long_term_debt": "$100M", "price_per_share": "$100", "years_with_earnings": "10"}
_G4 = "a_rich_multiple_earns_at_least_five_percent_on_book"
_G3B = "a_growth_record_is_priced_at_least_at_six_times_earnings"

_D6A = "an_emergency_rate_comes_with_prices_that_do_not_fall"
_D6B = "all_foreign_debt_takes_a_currency_unions_rate"
_D6C = "no_tightening_in_a_boom_under_negative_long_yields"

#: The Lynch review base, invest_asset_play_hidden_land (31 December 1987), as its items state it.
_L = {"cyclical_industry": False, "debt_share": "15%", "distressed": False, "hidden_asset_value": "$900M",
      "market_cap": "$500M", "sector": "transport", "total_debt": "$100M"}
_L5 = "debt_share_debt_and_market_value_agree"
_LPB = "price_to_book_within_the_sector_when_not_battered"
_L7 = "net_cash_within_the_market_value_unless_battered"

#: (card, rule, facts, refused, what): a reviewed item (refused by the rule alone) or a neighbour (kept by every rule).
RULE_CASES = [
    # R2: 22x, 15.5x and 28x revenue in the credit crisis; Salesforce sold at 3.52x on 9 March 2009
    (ACQ, _A2, {**_C, "ev_to_arr": "22x", "net_income": "-$350M", "revenue_retention": "91%"}, True,
     "review43 acquisition 5, IPB-P-011-C-a4fe9f5c5e2ddb79: a loss-making $5B at 22x in March 2009"),
    (ACQ, _A2, {**_C, "ev_to_arr": "15.5x", "net_income": "$1.05B"}, True,
     "review43 acquisition 13, IPB-P-011-C-f78a7aa2c9cf3f16: 15.5x, a P/E of 74"),
    (ACQ, _A2, {**_C, "ev_to_arr": "12.5x"}, True, "just above the edge"),
    (ACQ, _A2, {**_C, "ev_to_arr": "12x"}, False, "the edge: 12x in a credit crisis"),
    (ACQ, _A2, {**_C, "ev_to_arr": "22x", "macro_regime": "expansion"}, False, "22x outside a credit crisis"),
    (ACQ, _A2, {**_C, "ev_to_arr": "22x", "macro_regime": "credit_crisis", "business_model": "speculative_biotech",
                "sector": "healthcare", "arr": "$175M", "net_income": "-$150M", "gross_margin": "80%"}, False,
     "Vertex in March 2009 near 25x its 2008 revenue of about $175M [M]: a speculative biotech is not bounded"),
    # R3a: 10x revenue growing 7% with a loss
    (ACQ, _A3A, {**_C, "ev_to_arr": "10x", "net_income": "-$700M", "gross_margin": "70%", "revenue_growth": "7%"},
     True, "review43 acquisition 15, IPB-P-011-C-4b89846ef9483ea3: 10x revenue, 7% growth, -14% net margin"),
    (ACQ, _A3A, {**_C, "ev_to_arr": "10x", "net_income": "$50M", "revenue_growth": "7%", "macro_regime": "expansion",
                 "revenue_retention": "100%"}, False, "10x at 7% growth with a profit"),
    (ACQ, _A3A, {**_C, "ev_to_arr": "8x", "net_income": "$0", "revenue_growth": "9%", "revenue_retention": "100%"},
     False, "the edge: 8x at 9% growth breaking even"),
    (ACQ, _A3A, {**_C, "ev_to_arr": "8x", "net_income": "-$10M", "revenue_growth": "9%", "revenue_retention": "100%"},
     True, "the edge: 8x at 9% growth losing $10M"),
    (ACQ, _A3A, {**_C, "ev_to_arr": "7.5x", "net_income": "-$700M", "revenue_growth": "7%"}, False, "under 8x"),
    (ACQ, _A3A, {**_C, "sector": "enterprise_software", "arr": "$37.9B", "revenue_growth": "9%",
                 "gross_margin": "77%", "revenue_retention": "100%", "net_income": "$6.2B", "ev_to_arr": "8x",
                 "macro_regime": "expansion"}, False,
     "Salesforce, fiscal 2025: 7.4-8.45x its revenue growing 9-11%, near 50 times earnings"),
    (ACQ, _A3A, {**_C, "ev_to_arr": "10x", "net_income": "-$700M", "revenue_growth": "10%"}, False,
     "10% growth pays for 8x or more"),
    # R3b: $2.15B of net income at 1x revenue, a P/E of 2.3
    (ACQ, _A3B, {**_C, "ev_to_arr": "1x", "net_income": "$2.15B", "revenue_growth": "15%"}, True,
     "review43 acquisition 2, IPB-P-011-C-cd5ba50d73281200: 43% net margin at 1x revenue growing 15%"),
    (ACQ, _A3B, {**_C, "ev_to_arr": "1.6x", "net_income": "$2B", "revenue_growth": "15%"}, False,
     "the edge: $8B for $2B of net income, 4x"),
    (ACQ, _A3B, {**_C, "arr": "$500M", "ev_to_arr": "1x", "net_income": "$200M", "revenue_growth": "15%"}, False,
     "under $1B of revenue: Daehan Flour Mills sold near 2x earnings in 2004"),
    # R4: a 40x glamour multiple on 1.5-3.7% of book; US Steel at about 4.5-5% on book near 10x [M] stays
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$66.75", "current_assets": "$538M", "total_assets": "$3.59B"}, True,
     "review43 Graham 4, GRAHAM-7T-003-37056b4532c39977: EPS $2.50 on $66.75 of book (3.7%) at 40x"),
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$184", "annual_sales": "$1.27B", "current_assets": "$704M",
                   "years_with_earnings": "9"}, True,
     "review43 Graham 10, GRAHAM-7T-003-83775b52bf6d782c: 1.4% on book at 40x"),
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$58.75", "annual_sales": "$3.11B", "years_with_earnings": "9",
                   "eps_3yr_avg_ten_years_ago": "$0.4"}, True,
     "review43 Graham 14, GRAHAM-7T-003-1cc593411ea74a97: 4.3% on book at 40x"),
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$47", "current_liabilities": "$574M"}, False,
     "review43 Graham 15, GRAHAM-7T-003-701459ca6437294c: 5.3% on book at 40x, passed by the reviewer"),
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$50"}, False, "the edge: 5% on book at 40x"),
    (GRAHAM, _G4, {**_G, "book_value_per_share": "$66.75", "price_per_share": "$25"}, False,
     "3.7% on book at 10x: US Steel's 1970-72 record [M]"),
    # R3b: EPS up 19.4 times in a decade, priced at 5.2x
    (GRAHAM, _G3B, {**_G, "eps_3yr_avg": "$19.4", "book_value_per_share": "$133.75", "dividend_years": "20"}, True,
     "review43 Graham 19, GRAHAM-7T-003-6763205d294816c6: $19.40 against $1.00 ten years before, at 5.2x"),
    (GRAHAM, _G3B, {**_G, "eps_3yr_avg": "$16", "book_value_per_share": "$133.75", "dividend_years": "20",
                    "price_per_share": "$96"}, False, "the edge: 6x a record that grew 16 times"),
    (GRAHAM, _G3B, {**_G, "eps_3yr_avg": "$3.9", "book_value_per_share": "$30", "price_per_share": "$20"}, False,
     "EPS up 3.9 times (under four) at 5.1x: not a growth record by the rule"),
    # R6: three macro identities (the Dalio review base, dollar_debt_kill, undated in its items)
    # s45rfix: its three bubble signals beside shrinking output break a_shrinking_economy_has_few_bubble_signals too
    (DALIO, (_D6A, "a_shrinking_economy_has_few_bubble_signals"),
     {"bubble_signals": "3", "central_bank_stance": "tightening", "debt_growth_gap": "6%",
      "foreign_currency_debt_share": "45%", "nominal_gdp_growth": "-3%", "policy_rate": "40%",
      "real_gdp_growth": "-2%"}, True,
     "review43 Dalio 6, DAL-DSC-010-06fc10f53d4698d3: prices falling 1% under a 40% policy rate"),
    # s47rfix: 9.5% real growth under a 40% rate also breaks an_emergency_rate_comes_without_a_boom (s47review D6)
    (DALIO, (_D6A, "an_emergency_rate_comes_without_a_boom"),
     {"bubble_signals": "4", "central_bank_stance": "tightening", "foreign_currency_debt_share": "35%",
      "nominal_gdp_growth": "6.5%", "policy_rate": "40%", "real_gdp_growth": "9.5%"}, True,
     "review43 Dalio 14, DAL-DSC-010-0750ea6eaaa1db9d: prices falling 3% under 40%"),
    (DALIO, _D6A, {"central_bank_stance": "tightening", "foreign_currency_debt_share": "65%",
                   "nominal_gdp_growth": "-2%", "policy_rate": "40%", "real_gdp_growth": "-2%"}, False,
     "the edge: a flat price level under 40%"),
    (DALIO, _D6A, {"central_bank_stance": "tightening", "foreign_currency_debt_share": "65%",
                   "nominal_gdp_growth": "12%", "policy_rate": "40%", "real_gdp_growth": "-5%"}, False,
     "review43 Dalio 20: real -5%, nominal +12%, Argentina and Turkey"),
    (DALIO, _D6B, {"central_bank_stance": "tightening", "foreign_currency_debt_share": "100%",
                   "policy_rate": "47.5%", "real_gdp_growth": "-3%"}, True,
     "review43 Dalio 7, DAL-DSC-010-f86385eb3edf96b3: all debt foreign beside a 47.5% policy rate"),
    (DALIO, _D6B, {"central_bank_stance": "tightening", "foreign_currency_debt_share": "100%",
                   "policy_rate": "4.25%", "real_gdp_growth": "1%"}, False,
     "the edge: a euro member at the ECB's 4.25% of July 2008"),
    # s47rfix: the item's 10% real growth under a 40% rate breaks an_emergency_rate_comes_without_a_boom (s47review
    # D6), so the kept neighbour of this rule now grows 5%, the new rule's edge; the item itself is refused by it alone
    (DALIO, _D6B, {"bubble_signals": "5", "central_bank_stance": "tightening", "foreign_currency_debt_share": "95%",
                   "policy_rate": "40%", "real_gdp_growth": "5%"}, False,
     "review43 Dalio 19, DAL-DSC-010-443d59291eb8b3d0, at 5% real growth: 95% dollar debt at 40%, Ecuador before "
     "dollarisation"),
    (DALIO, "an_emergency_rate_comes_without_a_boom",
     {"bubble_signals": "5", "central_bank_stance": "tightening", "foreign_currency_debt_share": "95%",
      "policy_rate": "40%", "real_gdp_growth": "10%"}, True,
     "review43 Dalio 19 as drawn: 10% real growth under a 40% rate"),
    (DALIO, _D6C, {"central_bank_stance": "tightening", "foreign_currency_debt_share": "10%",
                   "long_bond_yield": "-0.75%", "policy_rate": "-0.25%", "real_gdp_growth": "5.5%",
                   "yield_curve_slope": "-0.5%"}, True,
     "review43 Dalio 16, DAL-DSC-010-7ac8d9d4612cd577: tightening at 5.5% growth under a -0.75% ten-year yield"),
    (DALIO, _D6C, {"central_bank_stance": "neutral", "foreign_currency_debt_share": "10%",
                   "long_bond_yield": "-0.25%", "policy_rate": "-0.5%", "real_gdp_growth": "5.5%",
                   "yield_curve_slope": "0.25%"}, False,
     "the euro area in 2021: 5.3% growth, the Bund near -0.3%, the ECB on hold [M]"),
    # R5: the debt share moved alone
    # s45rfix: price_to_book_within_the_sector_when_not_battered (at most 5 times book for a railroad) is stricter, so
    # these items break it too, and the old edge (20 times book) is refused by it alone
    (LYNCH, (_L5, _LPB), {**_L, "debt_share": "82%", "hidden_asset_value": "$1.65B"}, True,
     "review43 Lynch 3, IPB-LYN-SC-007-3b5f38c4836b3cad: $100M at 82% leaves $22M of book under $500M"),
    (LYNCH, _LPB, {**_L, "debt_share": "80%"}, True, "the old edge: $25M of book under $500M, 20 times"),
    (LYNCH, (_L5, _LPB), {**_L, "debt_share": "81%"}, True, "just past the old edge"),
    (LYNCH, _L5, {**_L, "debt_share": "82%", "distressed": True}, False, "a battered company may have lost its equity"),
    (LYNCH, _L5, {**_L, "debt_share": "42%", "earnings_growth": "-17%", "pe_historical_average": "6x",
                  "pe_ratio": "3x"}, False,
     "review43 Lynch 16, IPB-LYN-SC-007-9b861665b06e1852: 42% gives $138M of book, passed"),
    # R7: net cash above the market value
    # s46rfix: $830M of cash is also above the $667M of total capital that $100M of debt at 15% implies
    (LYNCH, (_L7, "cash_within_the_total_capital_its_debt_share_implies"),
     {**_L, "cash": "$830M", "cyclical_industry": True, "expansion_room": True}, True,
     "review43 Lynch 17, IPB-LYN-SC-007-80a40f0ed41d4367: $730M of net cash under a $500M market value"),
    (LYNCH, _L7, {**_L, "cash": "$600M"}, False, "the edge: net cash equal to the market value"),
    (LYNCH, _L7, {**_L, "cash": "$830M", "distressed": True, "hidden_asset_value": "$0"}, False,
     "a battered company burning its cash"),
]


@pytest.mark.parametrize("card_id, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused, what):
    assert_rule_case(card_id, rule, facts, refused)


def _era_found(card_id: str, when: int | dt.date, facts: dict) -> list[str]:
    frame = build_frame([compiled_card(card_id)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(card_id, facts), when)


#: The Munger review base, untrustworthy_management (31 March 2008), as its items state it.
_MU = {"competitive_advantage": "durable", "incentives_aligned": False, "long_run_growth": "4%",
       "management_integrity": "untrustworthy", "market_value": "$7.5B", "owner_earnings": "$600M",
       "return_on_capital": "25%", "understandable": True}
_MAR2008 = dt.date(2008, 3, 31)
_SLOW = "price / owner earnings of a business growing 5% a year or less"

#: The Greenblatt review base, decline_regional_bank (30 June 2007), as its items state it.
_GB = {"ebit": "$600M", "enterprise_value": "$2.5B", "foreign_adr": False, "market_cap": "$3B",
       "planned_holding_months": "12", "portfolio_positions": "30", "sector": "financials"}
_JUN2007 = dt.date(2007, 6, 30)
_EBIT = "enterprise value / EBIT of a non-financial company worth $1B or more"


@pytest.mark.parametrize("card_id, when, facts, message", [
    # R3a (Munger): 36-44x owner earnings growing 2.5-4% in March 2008
    (MUNGER, _MAR2008, {**_MU, "market_value": "$25.1B", "return_on_capital": "29%"},
     f"market_value / owner_earnings 41.83x (above the highest {_SLOW} of its era about 2008, 35x)"),
    (MUNGER, _MAR2008, {**_MU, "market_value": "$287.1B", "owner_earnings": "$6.54B"},
     f"market_value / owner_earnings 43.9x (above the highest {_SLOW} of its era about 2008, 35x)"),
    (MUNGER, _MAR2008, {**_MU, "market_value": "$21B"}, None),  # the edge: 35x
    # review43 Munger 17 ($16.1B, 26.8x at 4%) and 19 ($20.8B, 34.7x at 7.5%), passed by the reviewer
    (MUNGER, _MAR2008, {**_MU, "market_value": "$16.1B"}, None),
    (MUNGER, _MAR2008, {**_MU, "market_value": "$25.1B", "long_run_growth": "5.5%"}, None),
    # the 2021 base management_record_missing: $1B growing 5% at $50B, with ten-year yields near 1.5%
    (MUNGER, dt.date(2021, 3, 31), {**_MU, "market_value": "$50B", "owner_earnings": "$1B", "long_run_growth": "5%"},
     None),
    (MUNGER, dt.date(2002, 6, 30), {**_MU, "market_value": "$25.1B"}, None),  # before the table
    # R3b (Greenblatt): an industrial at 2.7x EBIT at the June 2007 peak
    (GREENBLATT, _JUN2007, {**_GB, "ebit": "$930M", "planned_holding_months": "7", "sector": "industrials"},
     f"enterprise_value / ebit 2.69x (below the lowest {_EBIT} of its era about 2007, 3x)"),  # s43items' 3x once merged
    # review43 Greenblatt 16 (4.2x, passed as borderline) and the base bank itself (a lender's EV)
    (GREENBLATT, _JUN2007, {**_GB, "market_cap": "$1.55B", "net_fixed_assets": "$2.545B", "sector": "industrials",
                            "planned_holding_months": "49"}, None),
    (GREENBLATT, _JUN2007, {**_GB, "ebit": "$930M"}, None),
    (GREENBLATT, _JUN2007, {**_GB, "ebit": "$930M", "market_cap": "$900M", "sector": "industrials"}, None),
    # Dell near 3.4x its operating profit in February-April 2009 (test_perturb_review_s41): the card's own floor
    (GREENBLATT, dt.date(2009, 3, 31), {**_GB, "ebit": "$930M", "sector": "technology"}, None),
])
def test_era_multiples(card_id, when, facts, message):
    assert _era_found(card_id, when, facts) == ([message] if message else [])


#: The decade-average P/E on the 1987 asset-play base (review43 Lynch 2, 8, 20 at 51.5x, 53.5x, 59.5x).
@pytest.mark.parametrize("when, average, refused", [
    (dt.date(1987, 12, 31), "53.5x", True),
    (dt.date(1987, 12, 31), "59.5x", True),
    (dt.date(1987, 12, 31), "35.5x", True),
    (dt.date(1987, 12, 31), "35x", False),
    (dt.date(1990, 3, 31), "40x", True),
    (dt.date(1991, 6, 30), "53.5x", False),
])
def test_lynch_decade_average_pe_from_1987(when, average, refused):
    found = _era_found(LYNCH, when, {**_L, "total_debt": "$50M", "hidden_asset_value": "$540M",
                                     "pe_historical_average": average})
    assert found == ([f"pe_historical_average {average[:-1]}x (above the highest price / earnings of its era "
                      f"about {when.year}, 35x)"] if refused else [])
