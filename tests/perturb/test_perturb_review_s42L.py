"""s42rfixL: rules for review42's Lynch and Graham kinds (seed 9696, the last base of each card), issue 18 bar line 2.

Each card-rule case holds an item of /work/notes/review42.md (by id, with its facts as the run stated them) that its
new rule refuses, alone of all the card's rules, beside a neighbour from the record or the rule's edge that no rule
refuses. The 1974 utility price-to-book bound (R7) is an era multiple of frameworks/regimes.yaml, read against the
scenario's date; the transport move (R4) is carried by frameworks/sectors.yaml. Figures marked [M] in the comments
of the card and the registries are recalled, not found with the search tool this stop.
"""

from __future__ import annotations

import datetime as dt

import pytest

import ipb
from ipb.engine.registry import compiled_card
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_regimes, bundled_sectors

from ipb.perturb.frame import load_base

from perturb_support import SCENARIOS, assert_rule_case, review_run

LYNCH = "lynch_six_category_framework"
GRAHAM = "graham_seven_tests_defensive"

#: The Lynch review base, invest_stalwart_below_normal_pe (31 December 1984), as its items state it.
_LY = {"sector": "consumer", "distressed": False, "cyclical_industry": False, "hidden_asset_value": "$0",
       "market_cap": "$8B", "earnings_growth": "12%", "dividend_yield": "3%", "pe_ratio": "10x",
       "pe_historical_average": "13x"}
_R3 = "a_large_fast_grower_is_not_priced_under_two_fifths_of_its_growth"
_R13 = "a_decades_average_pe_is_five_or_more"
_R11 = "debt_due_within_a_year_within_one_and_a_half_times_the_cap"

#: The Graham review base, utility_passes (31 December 1974), as its items state it.
_GR = {"company_type": "public_utility", "total_assets": "$800M", "long_term_debt": "$500M", "stock_equity": "$300M",
       "years_with_earnings": "10", "dividend_years": "40", "eps_3yr_avg": "$2.4", "eps_3yr_avg_ten_years_ago": "$1.7",
       "price_per_share": "$18", "book_value_per_share": "$20"}
_R8 = "a_utility_earned_ten_years_ago_and_at_most_tripled"
_R5 = "utility_return_on_book_at_most_a_fifth"

#: (card, rule, facts, refused, what): a reviewed item (refused by the rule alone) or a neighbour (kept by every rule).
RULE_CASES = [
    # R3: a company over $2B growing 25%+ at a P/E under 0.4 times its growth in points.
    (LYNCH, _R3, {**_LY, "earnings_growth": "37%", "pe_ratio": "8.5x"}, True,
     "review42 Lynch 14, IPB-LYN-SC-002-d0afe2536e207501: 37% growth at 8.5x, $8B"),
    (LYNCH, _R3, {**_LY, "earnings_growth": "45%", "dividend_yield": "1.5%", "hidden_asset_value": "$8.48B"}, True,
     "review42 Lynch 20, IPB-LYN-SC-002-0f2787c31b3b7794: 45% growth at 10x"),
    (LYNCH, _R3, {**_LY, "earnings_growth": "25%"}, False, "the edge: 25% growth at 10x (0.4)"),
    (LYNCH, _R3, {**_LY, "earnings_growth": "26%"}, True, "just above: 26% growth at 10x"),
    (LYNCH, _R3, {**_LY, "earnings_growth": "45%", "pe_ratio": "18x", "dividend_yield": "1.5%"}, False,
     "45% growth at 18x (0.4)"),
    (LYNCH, _R3, {**_LY, "market_cap": "$150M", "earnings_growth": "50%", "dividend_yield": "0%"}, False,
     "La Quinta Motor Inns near 1978 (One Up on Wall Street): a small company growing 50% at 10x"),
    (LYNCH, _R3, {**_LY, "market_cap": "$2B", "earnings_growth": "50%", "dividend_yield": "0%"}, False,
     "$2B, the edge of the size"),
    # R13: a decade's average P/E under 5.
    (LYNCH, _R13, {**_LY, "dividend_yield": "1.5%", "pe_historical_average": "3.5x"}, True,
     "review42 Lynch 8, IPB-LYN-SC-002-b317724b38c298a8: a decade at 3.5x for a 12% grower"),
    (LYNCH, _R13, {**_LY, "pe_historical_average": "4.5x"}, True, "4.5x"),
    (LYNCH, _R13, {**_LY, "pe_historical_average": "5x"}, False, "5x, the edge"),
    (LYNCH, _R13, {**_LY, "sector": "materials", "cyclical_industry": True, "earnings_growth": "4%",
                   "pe_ratio": "6x", "pe_historical_average": "5.5x"}, False,
     "a steel maker of 1975-84 averaging 5.5x over the decade [M]"),
    # R11: debt due within a year above 1.5 times the market value, not battered, not a lender.
    (LYNCH, (_R3, _R11), {**_LY, "earnings_growth": "28%", "cash": "$1.27B", "bank_debt": "$17.58B"}, True,
     "review42 Lynch 4, IPB-LYN-SC-002-ac2cdcb65bee68d9: $17.58B due within a year at $8B (and 28% growth at 10x)"),
    (LYNCH, _R11, {**_LY, "bank_debt": "$17.58B"}, True, "the same debt at the base's 12% growth"),
    (LYNCH, _R11, {**_LY, "bank_debt": "$12B"}, False, "the edge: 1.5 times"),
    (LYNCH, _R11, {**_LY, "bank_debt": "$12.01B"}, True, "just above"),
    (LYNCH, _R11, {**_LY, "total_debt": "$16.09B"}, False,
     "review42 Lynch 16: $16.09B of total debt (2x), inside the recapitalisations' 2-3x and the card's 3x"),
    (LYNCH, _R11, {**_LY, "sector": "financials", "bank_debt": "$17.58B"}, False, "a lender borrows short"),
    (LYNCH, _R11, {**_LY, "distressed": True, "earnings_growth": "-10%", "dividend_yield": "0%",
                   "bank_debt": "$17.58B"}, False, "a battered company: outside the rule"),
    # R8: a utility's three-year EPS of ten years ago above zero and at most tripled since.
    (GRAHAM, _R8, {**_GR, "eps_3yr_avg_ten_years_ago": "$0.25", "long_term_debt": "$496M", "stock_equity": "$248M"},
     True, "review42 Graham 12, GRAHAM-7T-004-a86e61e6ca5c6c80: $0.25 to $2.40 (9.6x) in ten years"),
    (GRAHAM, _R8, {**_GR, "dividend_years": "55", "eps_3yr_avg_ten_years_ago": "-$1.9", "price_per_share": "$24.5"},
     True, "review42 Graham 14, GRAHAM-7T-004-6adfc4ac0b307b0c: a loss averaged ten years before"),
    (GRAHAM, _R8, {**_GR, "eps_3yr_avg_ten_years_ago": "$0.8"}, False, "the edge: $0.80 to $2.40, three times"),
    (GRAHAM, _R8, {**_GR, "eps_3yr_avg_ten_years_ago": "$0.79"}, True, "just above three times"),
    (GRAHAM, _R8, {**_GR, "eps_3yr_avg_ten_years_ago": "$1.1"}, False,
     "about 8% a year, a Sun Belt utility of 1964-74 [M]"),
    (GRAHAM, _R8, {**_GR, "company_type": "industrial", "annual_sales": "$600M", "current_assets": "$240M",
                   "current_liabilities": "$100M", "total_assets": "$700M", "long_term_debt": "$120M",
                   "stock_equity": "$480M", "eps_3yr_avg": "$2", "eps_3yr_avg_ten_years_ago": "$0.4",
                   "price_per_share": "$30", "book_value_per_share": "$25"}, False,
     "an industrial that grew five-fold: outside the rule"),
    # R5: a utility earning more than a fifth of its book.
    (GRAHAM, _R5, {**_GR, "eps_3yr_avg": "$4.55", "eps_3yr_avg_ten_years_ago": "$2", "price_per_share": "$24"}, True,
     "review42 Graham 1 (GRAHAM-7T-004-2d0fab1962be65f4): $4.55 on $20 of book, 23% (at $24, 5x earnings)"),
    (GRAHAM, _R5, {**_GR, "eps_3yr_avg": "$4", "eps_3yr_avg_ten_years_ago": "$2", "price_per_share": "$24"}, False, "the edge: 20%"),
    (GRAHAM, _R5, {**_GR, "eps_3yr_avg": "$4.01", "eps_3yr_avg_ten_years_ago": "$2", "price_per_share": "$24"}, True, "just above"),
    (GRAHAM, _R5, {**_GR, "eps_3yr_avg": "$3.2", "eps_3yr_avg_ten_years_ago": "$2", "price_per_share": "$24"}, False,
     "16%: the allowed return of 1981-82 [M]"),
]


@pytest.mark.parametrize("card_id, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused, what):
    assert_rule_case(card_id, rule, facts, refused)


_UTILITY_PB = "price / book value per share of a public utility"


def _graham_era(when: int | dt.date, **facts: str) -> list[str]:
    frame = build_frame([compiled_card(GRAHAM)])
    return [m for m in bundled_regimes().anachronisms(frame.inputs, ipb.facts(GRAHAM, {**_GR, **facts}), when)
            if _UTILITY_PB in m]


@pytest.mark.parametrize("when, facts, refused, what", [
    (dt.date(1974, 12, 31), {"eps_3yr_avg": "$2.55", "price_per_share": "$36.75"}, True,
     "review42 Graham 4, GRAHAM-7T-004-cbcc95b4220cb0ec: 1.84x book at the end of 1974"),
    (dt.date(1974, 12, 31), {"eps_3yr_avg_ten_years_ago": "$5.9", "price_per_share": "$32.25"}, True,
     "review42 Graham 13, GRAHAM-7T-004-9898be2307cd2fec: 1.61x book"),
    (dt.date(1974, 12, 31), {"price_per_share": "$26"}, False, "1.3x, the edge"),
    (dt.date(1974, 12, 31), {"price_per_share": "$26.25"}, True, "just above"),
    (dt.date(1974, 12, 31), {"price_per_share": "$18"}, False, "the base, 0.9x"),
    (dt.date(1974, 12, 31), {"price_per_share": "$6", "book_value_per_share": "$20"}, False,
     "Consolidated Edison after its April 1974 dividend skip, $6 a share (NARUC), far under book"),
    (dt.date(1975, 3, 31), {"price_per_share": "$32.25"}, True, "the 1975 base's date: still bounded"),
    (dt.date(1976, 6, 30), {"price_per_share": "$32.25"}, False, "1976: lifted"),
    (dt.date(1973, 6, 30), {"price_per_share": "$32.25"}, False, "before 1974: not bounded"),
    (dt.date(1974, 12, 31), {"company_type": "industrial", "annual_sales": "$600M", "current_assets": "$240M",
                             "current_liabilities": "$100M", "price_per_share": "$32.25"}, False,
     "an industrial: outside the bound"),
])
def test_a_1974_utility_sells_at_most_at_1_3_times_book(when, facts, refused, what):
    found = _graham_era(when, **facts)
    assert bool(found) == refused, found


def test_a_move_into_transport_makes_the_company_cyclical():
    """review42 R4 (Lynch 2 and 12, IPB-LYN-SC-002-ba14212a63eac391 and -67fb7fe2f78ba40c: a consumer stalwart moved
    to transport still answered "not cyclical"): transport's profile names ``cyclical_industry: [true]``, as
    materials' does, so a sector move there carries the answer. Over 300 items of the review base (seed 9696) every
    item moved into transport is cyclical, and some are; the railroad asset-play base, not moved, keeps its "No"."""
    assert bundled_sectors().get("transport").profile["cyclical_industry"] == (True,)
    moved = [f for _, f in review_run(LYNCH, "invest_stalwart_below_normal_pe.yaml", 9696, 300)
             if f["sector"] == "transport"]
    assert moved and all(f["cyclical_industry"] is True for f in moved)
    base = load_base(SCENARIOS / LYNCH / "invest_asset_play_hidden_land.yaml", build_frame([LYNCH]))
    assert base.facts["sector"] == "transport" and base.facts["cyclical_industry"] is False
