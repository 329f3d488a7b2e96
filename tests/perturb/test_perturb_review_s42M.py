"""s42rfixM: rules for review42's kinds R6 (share repurchase, Klarman), R15, R17 (Marks), R2 (Dalio), R19, R18 (Munger).

review42 (/work/notes/review42.md, seed 9696) read the last base in ls order of each card. Each case holds one of its
items (by id, with the facts it states) that the new rule refuses, alone of all the card's rules, beside neighbours
from the record or the rule's edge that no rule refuses. Figures marked [M] are recalled, not found with the search
tool this stop. Munger's R19 and R18 depend on the date, so they are era bounds in regimes.yaml's multiples
(durable_honest_price_to_owner_earnings, largest_price_to_owner_earnings), tested by the day they are read against.
"""

from __future__ import annotations

import datetime as dt

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes

from perturb_support import assert_rule_case

REPURCHASE = "buffett_share_repurchase"
KLARMAN = "klarman_deep_value_identification"
MARKS = "marks_distressed_debt"
DALIO = "dalio_debt_supercycle_navigation"

_SR6 = "informed_owners_sell_above_a_quarter_of_value"
#: The repurchase review base, reserve_policy_unknown (30 September 2016), as its items state it.
_SR = {"cash_and_equivalents": "$3B", "decision_date": "2016-09-30", "intrinsic_value_per_share": "$60",
       "issuer": "other_company", "price_per_share": "$57", "repurchase_amount": "$1B",
       "repurchase_purpose": "return_value_to_continuing_owners", "shareholders_informed": True}

_K6 = "low_end_value_under_four_times_the_price"
#: The Klarman review base, invest_orphaned_spinoff (30 September 1993), as its items state it.
_K = {"catalyst": "share_repurchase", "catalyst_months": "12", "conservative_value": "$300M", "market_value": "$180M",
      "mispricing_source": "spinoff", "sector": "industrials", "value_rests_on_growth": False}

_M15 = "price_within_thirty_points_of_the_bad_case"
_M17 = "media_within_the_largest_media_reorganisations"
_M45 = "price_at_least_three_fifths_of_the_bad_case"
_M85 = "the_bad_case_is_at_most_85_percent_of_the_conservative_value"
#: The Marks review base, invest_moderate_process_risk (31 March 2009), as its items state it.
_M = {"class_face": "$1B", "legal_process_risk": "moderate", "purchase_price": "45%", "reorganization_value": "$1.4B",
      "sector": "media", "senior_claims": "$500M", "spread_to_treasuries": "25%", "stressed_value": "$1B",
      "years_to_resolution": "2"}

_D2 = "a_near_full_bubble_reading_needs_real_growth"
#: The Dalio review base, ugly_deleveraging_defensive (undated), as its items state it.
_D = {"bubble_signals": "0", "central_bank_stance": "easing", "debt_growth_gap": "-1%",
      "foreign_currency_debt_share": "10%", "long_bond_yield": "4%", "nominal_gdp_growth": "1%", "policy_rate": "0.5%",
      "real_gdp_growth": "0.5%", "yield_curve_slope": "3.5%"}

#: (card, rule, facts, refused, what): a reviewed item (refused by the rule alone) or a neighbour (kept by every rule).
RULE_CASES = [
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$236"}, True,
     "review42 repurchase 16, BUFFETT-SR-005-1f2224d3b8829b0a: $236 against $57 (4.14x), owners informed"),
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$284", "liquidity_reserve": "$2.48B",
                        "repurchase_amount": "$520M"}, True,
     "review42 repurchase 19, BUFFETT-SR-005-e001b25a47a15826: $284 against $57 (4.98x)"),
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$13.393K", "price_per_share": "$2.83K",
                        "repurchase_amount": "$1.79B"}, True,
     "review42 repurchase 20, BUFFETT-SR-005-de8ccd0714b76494: $13,393 against $2,830 (4.73x)"),
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$227"}, False, "3.98x with owners informed: under 4x"),
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$228"}, True, "the edge: $228 is exactly 4 x $57"),
    (REPURCHASE, _SR6, {**_SR, "intrinsic_value_per_share": "$236", "shareholders_informed": False}, False,
     "the same gap with owners not informed: gate 4's case, value_within_scale_of_price's 5x still bounds it"),
    # s42rec: kept since the rule bounds only an unexplained gap; the Washington Post of 1973 sold at $80M against a
    # $400M low end (Buffett's Superinvestors speech), the same 5x with its cause identified (test_perturb_record_s42)
    (KLARMAN, _K6, {**_K, "market_value": "$60M", "catalyst_months": "42"}, False,
     "review42 Klarman 7, IPB-KLA-DV-001-1fa083ed73d5885c: $300M against $60M (5x), a spinoff"),
    (KLARMAN, _K6, {**_K, "conservative_value": "$830M", "catalyst_months": "1",
                    "mispricing_source": "none_identified"}, True,
     "review42 Klarman 9, IPB-KLA-DV-001-92054fbf263e0d54: $830M against $180M (4.6x), no source identified"),
    (KLARMAN, _K6, {**_K, "conservative_value": "$590M", "mispricing_source": "bankruptcy_or_restructuring"}, False,
     "review42 Klarman 11, IPB-KLA-DV-001-f6f1afa0d34b7673: a bankruptcy at 3.3x, kept by the reviewer"),
    (KLARMAN, _K6, {**_K, "conservative_value": "$719M", "mispricing_source": "none_identified"}, False,
     "just under the edge: $719M against $180M, no source identified"),
    (KLARMAN, _K6, {**_K, "conservative_value": "$720M", "mispricing_source": "none_identified"}, True,
     "the edge: four times the market value, no source identified"),
    # s45rfix: price_at_least_three_fifths_of_the_bad_case (s45review MK1) refuses these three items as well (45 cents
    # under 60% of an 85%, 89% and 76% bad-case recovery); the edge at 75% (45 = 60% of 75) stays kept by both
    # s54kind9: the_bad_case_is_at_most_85_percent_of_the_conservative_value (s53review kind 9) refuses it first: a
    # bad case of $3.39B is 90% of the $3.77B base case
    (MARKS, (_M85, _M15, _M45),
     {**_M, "class_face": "$3.4B", "reorganization_value": "$3.77B", "stressed_value": "$3.39B"},
     True,
     "review42 Marks 3, MARKS-DD-009-fc29ab3b8e75eca5: bought at 45 with an 85% bad-case recovery"),
    (MARKS, (_M15, _M45), {**_M, "class_face": "$560M"}, True,
     "review42 Marks 20, MARKS-DD-009-cb6fe26163c18dbb: bought at 45 with an 89% bad-case recovery"),
    # s54kind9: review42 kept Marks 1; s53review's kind 9 rule now refuses it alone (a bad case of $1.25B is 89% of
    # the $1.4B base case: no bad case). Its neighbour with a $1.5B base case (83%) keeps what this row tested: price
    # 45 within thirty points of a full bad-case recovery is kept by _M15 at high legal risk.
    (MARKS, _M85, {**_M, "class_face": "$300M", "legal_process_risk": "high", "stressed_value": "$1.25B"}, True,
     "review42 Marks 1, MARKS-DD-009-9a7520c09af53625: full recovery in both cases at 45 with high legal risk "
     "(Tribune 2009's LBO litigation), kept by review42, refused by s54's 85% rule"),
    (MARKS, _M15, {**_M, "class_face": "$300M", "legal_process_risk": "high", "stressed_value": "$1.25B",
                   "reorganization_value": "$1.5B"}, False, "Marks 1 with a $1.5B base case (bad case 83%), kept"),
    # s54kind9: the three edge rows below take a base case of $1.5B (bad cases of 83-84%) or $1.7B (82%), so that the
    # 85% rule stays out of what they test; at $1.4B it refused all three (89-100%)
    (MARKS, _M15, {**_M, "stressed_value": "$1.25B", "reorganization_value": "$1.5B"}, False,
     "the edge: bad case 75%, price 45"),
    (MARKS, (_M15, _M45), {**_M, "stressed_value": "$1.26B", "reorganization_value": "$1.5B"}, True,
     "just past the edge: bad case 76%, price 45"),
    (MARKS, _M15, {**_M, "purchase_price": "70%", "spread_to_treasuries": "12%", "stressed_value": "$1.4B",
                   "class_face": "$500M", "reorganization_value": "$1.7B"}, False,
     "a bad case above par: at 70 the cap at par keeps it"),
    (MARKS, _M17, {**_M, "legal_process_risk": "high", "reorganization_value": "$42.1B", "senior_claims": "$25.96B",
                   "stressed_value": "$26.73B"}, True,
     "review42 Marks 15, MARKS-DD-009-5ffb36f9a1b1e48e: a media reorganisation at $42.1B, $27B of claims"),
    (MARKS, _M17, {**_M, "class_face": "$8B", "senior_claims": "$13.5B", "reorganization_value": "$15.4B",
                   "stressed_value": "$12B", "purchase_price": "30%", "spread_to_treasuries": "40%",
                   "legal_process_risk": "high"}, False,
     "Charter Communications 2009: about $21.7B of debt [M], kept (a class of $8B behind $13.5B)"),
    (MARKS, _M17, {**_M, "sector": "telecom", "class_face": "$5B", "senior_claims": "$25B",
                   "reorganization_value": "$27B", "stressed_value": "$20B", "purchase_price": "20%",
                   "spread_to_treasuries": "40%", "legal_process_risk": "high"}, False,
     "telecom is not bounded: WorldCom (2002) owed about $41B [M]"),
    (DALIO, _D2, {**_D, "bubble_signals": "7", "debt_growth_gap": "1%", "long_bond_yield": "4.5%",
                  "yield_curve_slope": "4%"}, True,
     "review42 Dalio 9, DAL-DSC-008-92891075c7d294a5: seven bubble indicators at 0.5% real growth"),
    (DALIO, _D2, {**_D, "bubble_signals": "6", "debt_growth_gap": "4%", "policy_rate": "1.5%",
                  "yield_curve_slope": "2.5%"}, True,
     "review42 Dalio 20, DAL-DSC-008-0d04f2625ed63972: six at 0.5%"),
    # s45rfix: a_shrinking_economy_has_few_bubble_signals (s45review D3) refuses it too
    # s51rfix2: a slump at a 0.5% rate, easing, with 4% inflation (nominal 3% less real -1%) also breaks the later
    # a_deflationary_slump_at_the_rate_floor_has_low_inflation (s51review D12, the lead's 2% bound)
    (DALIO, (_D2, "a_shrinking_economy_has_few_bubble_signals",
             "a_deflationary_slump_at_the_rate_floor_has_low_inflation"),
     {**_D, "bubble_signals": "7", "debt_growth_gap": "7%", "nominal_gdp_growth": "3%", "real_gdp_growth": "-1%"},
     True,
     "review42 Dalio 5, DAL-DSC-008-e48d326c61d315d1: seven while real output falls 1%"),
    (DALIO, _D2, {**_D, "bubble_signals": "6", "debt_growth_gap": "4%", "real_gdp_growth": "2%",
                  "nominal_gdp_growth": "4.5%", "policy_rate": "4.5%", "long_bond_yield": "4.5%",
                  "yield_curve_slope": "0%", "central_bank_stance": "easing"}, False,
     "the United States in late 2007: real growth near 2% [M], the Fed easing from 5.25%, a flat curve"),
    (DALIO, _D2, {**_D, "bubble_signals": "6", "debt_growth_gap": "2%", "real_gdp_growth": "1%",
                  "nominal_gdp_growth": "2%"}, False, "the edge: six indicators at 1% real growth"),
    (DALIO, _D2, {**_D, "bubble_signals": "6", "debt_growth_gap": "2%", "real_gdp_growth": "0.75%",
                  "nominal_gdp_growth": "2%"}, True, "just under the edge: 0.75%"),
    (DALIO, _D2, {**_D, "bubble_signals": "5", "debt_growth_gap": "1%"}, False,
     "five indicators at 0.5% with debt outgrowing income: left to the older rules"),
]


@pytest.mark.parametrize("card_id, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused, what):
    assert_rule_case(card_id, rule, facts, refused)


MUNGER = "munger_business_quality_price"
#: The Munger review base, wonderful_business_fair_price (30 June 2004), as its items state it.
_MU = {"understandable": True, "return_on_capital": "20%", "competitive_advantage": "durable",
       "management_integrity": "trustworthy", "incentives_aligned": True, "owner_earnings": "$2B",
       "market_value": "$40B", "long_run_growth": "6%"}
_JUN2004 = dt.date(2004, 6, 30)
_DURABLE = "price / owner earnings of a durable business with trustworthy managers"
_LARGEST = "price / owner earnings of a company worth $100B or more"


def _era_found(when: int | dt.date, **facts: str | bool) -> list[str]:
    frame = build_frame([compiled_card(MUNGER)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(MUNGER, {**_MU, **facts}), when)


@pytest.mark.parametrize("when, facts, message", [
    # review42 Munger 10, MUNGER-QP-001-e4c19a98846c4f68: 4.3x owner earnings, durable, honest (here $2B at $8.6B)
    (_JUN2004, {"market_value": "$8.6B"},
     f"market_value / owner_earnings 4.3x (below the lowest {_DURABLE} of its era about 2004, 8x)"),
    # review42 Munger 15: 5.9x (a 17% yield)
    (_JUN2004, {"market_value": "$11.8B"},
     f"market_value / owner_earnings 5.9x (below the lowest {_DURABLE} of its era about 2004, 8x)"),
    # the edge: 8x kept; Fannie Mae in mid-2004 near 9x its earnings [M], kept
    (_JUN2004, {"market_value": "$16B"}, None),
    (_JUN2004, {"market_value": "$72B", "owner_earnings": "$8B"}, None),
    # the same price with mixed managers (Gazprom 2004, review42 Munger 13) or an eroding advantage: not bounded here
    (_JUN2004, {"market_value": "$8.6B", "management_integrity": "mixed", "incentives_aligned": False}, None),
    (_JUN2004, {"market_value": "$8.6B", "competitive_advantage": "eroding", "long_run_growth": "2%"}, None),
    # outside mid-2003 to mid-2008: 1995 (review41 kept 5-7x) and 2009 fall to the card's own floor
    (dt.date(1995, 6, 30), {"market_value": "$8.6B"}, None),
    (dt.date(2009, 3, 9), {"market_value": "$8.6B"}, None),
    # review42 Munger 1, MUNGER-QP-001-d376e62e5dfc97ff: $153.4B at 77x in mid-2004
    (_JUN2004, {"market_value": "$153.4B", "long_run_growth": "12.5%"},
     f"market_value / owner_earnings 76.7x (above the highest {_LARGEST} of its era about 2004, 50x)"),
    # Intel in mid-2004, near $180B at about 22x its free cash flow [M]: kept; the 77x at $90B is under $100B
    (_JUN2004, {"market_value": "$180B", "owner_earnings": "$8.2B"}, None),
    (_JUN2004, {"market_value": "$90B", "owner_earnings": "$1.17B", "long_run_growth": "12%"}, None),
    # Google late in 2007, above $200B at 60-70x its free cash flow [M]: the bound ends with 2004
    (dt.date(2007, 11, 1), {"market_value": "$220B", "owner_earnings": "$3.4B", "long_run_growth": "12%"}, None),
])
def test_munger_price_to_owner_earnings_by_era(when, facts, message):
    found = _era_found(when, **facts)
    assert found == ([message] if message else [])
