"""s40rfixL: general rules for review40's Lynch and Graham kinds (seed 9494), issue 18 bar line 2.

Each kind holds an item the reviewer read (by id, with its facts) that its rule refuses, beside a real neighbour the
rule keeps (figures marked [M] in the card comments are recalled, not found with the search tool this stop).
"""

from __future__ import annotations

import pytest

from perturb_support import assert_rule_case

LYNCH = "lynch_six_category_framework"
GRAHAM = "graham_seven_tests_defensive"

#: The Lynch review base, decline_fast_grower_overpriced (a PC maker, 30 June 1983), as its items state it.
_LY = {"sector": "technology", "distressed": False, "cyclical_industry": False, "hidden_asset_value": "$0",
       "market_cap": "$1.5B", "earnings_growth": "25%", "dividend_yield": "0%", "pe_ratio": "40x", "debt_share": "10%",
       "expansion_room": True}

#: The Graham review base, dividend_record_unknown (a chemicals maker, 31 March 1975), as its items state it.
_GR = {"company_type": "industrial", "annual_sales": "$600M", "current_assets": "$240M", "current_liabilities": "$100M",
       "long_term_debt": "$120M", "years_with_earnings": "10", "eps_3yr_avg": "$2", "eps_3yr_avg_ten_years_ago": "$1.2",
       "price_per_share": "$40", "book_value_per_share": "$25"}

#: (card, rule, facts, refused, what): a reviewed item (refused by the rule alone) or a real neighbour (kept).
RULE_CASES = [
    # LY1: a technology company above $12B at 30x or more.
    (LYNCH, "a_large_technology_company_is_no_glamour_stock",
     {**_LY, "market_cap": "$29.87B", "earnings_growth": "60%", "cash": "$6.67B", "pe_historical_average": "23.5x"},
     True, "review40 Lynch 1, IPB-LYN-SC-003-5692aa10f1035a6b: $29.87B growing 60% at 40x on 1983-06-30"),
    (LYNCH, "a_large_technology_company_is_no_glamour_stock", {**_LY, "market_cap": "$46.83B"},
     True, "review40 Lynch 20, IPB-LYN-SC-003-cc2379cc39e08e4d: $46.83B at 40x"),
    (LYNCH, "a_large_technology_company_is_no_glamour_stock",
     {**_LY, "market_cap": "$26B", "pe_ratio": "22.5x", "debt_share": "5%"},
     False, "Digital Equipment, August 1987 (NYT 1988-08-28): $25.5B, a little over $1B of profit (~23x)"),
    (LYNCH, "a_large_technology_company_is_no_glamour_stock",
     {**_LY, "market_cap": "$12B", "earnings_growth": "15%", "pe_ratio": "25x", "dividend_yield": "0.5%"},
     False, "Hewlett-Packard, 1983 [M]: about $11-12B at 20-25x"),
    (LYNCH, "a_large_technology_company_is_no_glamour_stock", {**_LY, "market_cap": "$12.01B", "pe_ratio": "30x"},
     True, "the edges: above $12B at 30x"),
    (LYNCH, "a_large_technology_company_is_no_glamour_stock", {**_LY, "market_cap": "$12.01B", "pe_ratio": "29.5x"},
     False, "the edges: above $12B at 29.5x"),
    # LY4: overlooked assets at or above the market value at more than 30x.
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "hidden_asset_value": "$5.74B", "earnings_growth": "-15%", "cash": "$450M", "debt_share": "45%"},
     True, "review40 Lynch 12, IPB-LYN-SC-003-2d5c7a0506e12d47: assets 3.8x a $1.5B value, -15% a year, 40x"),
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "hidden_asset_value": "$4.46B", "market_cap": "$4.47B", "pe_historical_average": "30x"},
     False, "review40 Lynch 19, IPB-LYN-SC-003-4a45e74120234af6: assets just under the value, 40x (no asset play)"),
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "hidden_asset_value": "$4.47B", "market_cap": "$4.47B"},
     True, "the same at the value: an asset play at 40x"),
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "sector": "energy", "market_cap": "$7.2B", "hidden_asset_value": "$13.2B", "earnings_growth": "0%",
      "pe_ratio": "7x", "dividend_yield": "6%", "expansion_room": False},
     False, "Gulf Oil, December 1983 [M]: reserves 1.8x its ~$7.2B value at about 7x"),
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "market_cap": "$2B", "hidden_asset_value": "$2.66B", "earnings_growth": "-5%", "pe_ratio": "28x"},
     False, "Yahoo, April 2014, at the card's scale [M]: stakes ~1.33x its value, ~28x, core earnings shrinking"),
    (LYNCH, "an_asset_play_is_not_priced_as_a_glamour_grower",
     {**_LY, "market_cap": "$2B", "hidden_asset_value": "$2.66B", "earnings_growth": "-5%", "pe_ratio": "30.5x"},
     True, "the edge: the same above 30x"),
    # LY3: debt at 75% of capital or more at 30x or more, not battered.
    (LYNCH, "a_heavily_indebted_company_is_not_priced_as_a_glamour_grower",
     {**_LY, "debt_share": "77%", "earnings_growth": "36%", "pe_ratio": "66.5x"},
     True, "review40 Lynch 7, IPB-LYN-SC-003-694e59da5bedf9e3: debt 77% of capital at 66.5x"),
    (LYNCH, ("a_large_technology_company_is_no_glamour_stock", "a_heavily_indebted_company_is_not_priced_as_a_glamour_grower"),
     {**_LY, "debt_share": "76%", "market_cap": "$17.01B", "pe_ratio": "30x"},
     True, "a $17B technology company with debt 76% of capital at 30x breaks both"),
    (LYNCH, "a_heavily_indebted_company_is_not_priced_as_a_glamour_grower",
     {**_LY, "sector": "consumer", "debt_share": "85%", "earnings_growth": "8%", "pe_ratio": "12x",
      "expansion_room": False},
     False, "a 1986-89 leveraged recapitalisation at a modest multiple [M]"),
    (LYNCH, "a_heavily_indebted_company_is_not_priced_as_a_glamour_grower",
     {**_LY, "sector": "real_estate", "debt_share": "85%", "earnings_growth": "12%", "pe_ratio": "40x",
      "dividend_yield": "2%"},
     False, "a property company, small earnings after depreciation (Rouse Company, 1980s [M])"),
    (LYNCH, "a_heavily_indebted_company_is_not_priced_as_a_glamour_grower",
     {**_LY, "debt_share": "74%", "pe_ratio": "40x"}, False, "the edge: 74% at 40x"),
    # LY2: shrinking long-run earnings above 35x, not battered, not cyclical, no asset play.
    (LYNCH, "shrinking_earnings_earn_no_glamour_multiple", {**_LY, "earnings_growth": "-9%", "dividend_yield": "1%"},
     True, "review40 Lynch 2, IPB-LYN-SC-003-988aa847c60b5a68: earnings shrinking 9% a year at 40x"),
    (LYNCH, "shrinking_earnings_earn_no_glamour_multiple",
     {**_LY, "sector": "consumer", "market_cap": "$10B", "earnings_growth": "-6%", "pe_ratio": "31x",
      "dividend_yield": "2.5%", "expansion_room": False},
     False, "Eastman Kodak, 1985: earnings down 64% on a $494M charge (AP 1986-02-18), near 30x [M]"),
    (LYNCH, "shrinking_earnings_earn_no_glamour_multiple",
     {**_LY, "earnings_growth": "-9%", "cyclical_industry": True, "dividend_raised_years": "0"},
     False, "a cyclical at the trough: 40x on depressed earnings"),
    (LYNCH, "shrinking_earnings_earn_no_glamour_multiple", {**_LY, "earnings_growth": "-9%", "pe_ratio": "35.5x"},
     True, "the edge: 35.5x"),
    # LY5: a fast grower under 5x, neither battered nor cyclical.
    (LYNCH, "a_fast_grower_sells_at_five_times_or_more",
     {**_LY, "pe_ratio": "3.5x", "dividend_yield": "7%", "hidden_asset_value": "$1.03B"},
     True, "review40 Lynch 9, IPB-LYN-SC-003-172a23dcdef5f8d7: 25% growth at 3.5x with a 7% yield"),
    (LYNCH, "a_fast_grower_sells_at_five_times_or_more", {**_LY, "pe_ratio": "5x", "dividend_yield": "2%"},
     False, "the edge: 5x, a P/E a quarter of the growth rate"),
    # s51rfix (s51review LY17): this constructed cyclical keeps _LY's 25% long-run growth, now over the 20% floor a
    # cyclical stays under, so it is refused by that rule alone (the fast grower's 5x rule still does not fire)
    (LYNCH, "a_cyclical_grows_below_the_fast_grower_floor",
     {**_LY, "sector": "materials", "cyclical_industry": True, "pe_ratio": "3.5x", "dividend_yield": "4%",
      "dividend_raised_years": "0"},
     True, "a cyclical at peak earnings at 3.5x"),
    # GR3: an industrial short of working capital at 15x or more.
    (GRAHAM, "an_industrial_short_of_working_capital_sells_under_fifteen_times",
     {**_GR, "annual_sales": "$850M", "current_liabilities": "$558M", "long_term_debt": "$46M",
      "years_with_earnings": "8"},
     True, "review40 Graham 6, GRAHAM-7T-005-653d26df2c76b204: $558M due against $240M of current assets at 20x"),
    (GRAHAM, "an_industrial_short_of_working_capital_sells_under_fifteen_times",
     {**_GR, "annual_sales": "$1.36B", "current_liabilities": "$394M", "dividend_years": "32"},
     True, "review40 Graham 11, GRAHAM-7T-005-dc47969b4f568846: $394M against $240M at 20x"),
    (GRAHAM, "an_industrial_short_of_working_capital_sells_under_fifteen_times",
     {**_GR, "current_liabilities": "$394M", "annual_sales": "$1.36B", "price_per_share": "$29.75"},
     False, "the same squeezed at 14.9x"),
    (GRAHAM, "an_industrial_short_of_working_capital_sells_under_fifteen_times",
     {**_GR, "current_assets": "$100M", "current_liabilities": "$130M", "long_term_debt": "$0"},
     False, "a restaurant chain run on negative working capital (McDonald's [M]): small current assets and debts, 20x"),
    # GR2: a growing steady earner under 5x.
    # s43rfix: up more than fourfold, it breaks the later a_growth_record_is_priced_at_least_at_six_times_earnings too
    # s44items: $169.25 of book at the base's price is under 0.35x book, so review43b's K5 rule refuses it as well
    (GRAHAM, ("a_going_concern_sells_above_a_third_of_book", "a_steady_grower_sells_at_five_times_or_more",
              "a_growth_record_is_priced_at_least_at_six_times_earnings"),
     {**_GR, "eps_3yr_avg": "$13.2", "book_value_per_share": "$169.25", "dividend_years": "14"},
     True, "review40 Graham 3, GRAHAM-7T-005-a75df85ab74849be: EPS up elevenfold in ten years at 3.0x"),
    (GRAHAM, "a_steady_grower_sells_at_five_times_or_more",
     {**_GR, "annual_sales": "$1.08B", "eps_3yr_avg": "$8.8", "eps_3yr_avg_ten_years_ago": "$6.6"},
     True, "review40 Graham 5, GRAHAM-7T-005-d88d438e582de4ff: 35% on book at 4.5x"),
    (GRAHAM, "a_steady_grower_sells_at_five_times_or_more",
     {**_GR, "eps_3yr_avg": "$7", "eps_3yr_avg_ten_years_ago": "$6.6", "book_value_per_share": "$30",
      "price_per_share": "$24.5"},
     False, "a steady earner with a flat record at 3.5x, as many were at the December 1974 low [M]"),
    (GRAHAM, "a_steady_grower_sells_at_five_times_or_more",
     {**_GR, "eps_3yr_avg": "$8", "eps_3yr_avg_ten_years_ago": "$4", "book_value_per_share": "$30"},
     False, "doubled in the decade at 5x, the edge"),
    # GR6 (soft): an industrial's current liabilities under 5% of its sales.
    # s41rfix: its current ratio, 10.26, also breaks industrial_current_ratio_at_most_ten (review41 GR2), a later rule.
    (GRAHAM, ("industrial_current_liabilities_at_least_five_percent_of_sales", "industrial_current_ratio_at_most_ten"),
     {**_GR, "annual_sales": "$2.13B", "current_assets": "$1.026B", "eps_3yr_avg_ten_years_ago": "$1.1"},
     True, "review40 Graham 9, GRAHAM-7T-005-42f86bc7caa4d0fb: $100M due on $2.13B of sales (4.7%)"),
    (GRAHAM, "industrial_current_liabilities_at_least_five_percent_of_sales",
     {**_GR, "annual_sales": "$2B", "current_assets": "$1B"}, False, "5% of sales, the floor"),
    (GRAHAM, "industrial_current_liabilities_at_least_five_percent_of_sales",
     {**_GR, "company_type": "public_utility", "annual_sales": "$2.13B", "total_assets": "$5B",
      "current_assets": "$300M", "long_term_debt": "$2B", "stock_equity": "$2B"},
     False, "a utility: not an industrial's payables"),
]


@pytest.mark.parametrize("card_id, rule, facts, refused, what", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_item_against_the_rule(card_id, rule, facts, refused, what):
    assert_rule_case(card_id, rule, facts, refused)


# --------------------------------------------------------------------------- LY6: the decade's average P/E by era


def _lynch_anachronisms(year: int, facts: dict) -> list[str]:
    import ipb
    from ipb.engine.registry import compiled_card
    from ipb.perturb.frame import build_frame
    from ipb.perturb.registries import bundled_regimes

    frame = build_frame([compiled_card(LYNCH)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(LYNCH, facts), year)


_LY16 = {**_LY, "debt_share": "76%", "market_cap": "$17.01B", "pe_ratio": "16.5x", "pe_historical_average": "53.5x"}
#: s62sector (REVIEW_s61 F8): review40's $17.01B technology company of June 1983 is now also above the non-IBM
#: technology bound of 1980-86 ($13.2B, frameworks/regimes.yaml sizes.sectors); the P/E tables below are read on the
#: same facts at $13B, under it, so that each case still isolates its P/E bound (test_review40_lynch_16_breaks_both).
_LY16_P = {**_LY16, "market_cap": "$13B"}


@pytest.mark.parametrize("year, average, refused, what", [
    (1983, "53.5x", True, "review40 Lynch 16, IPB-LYN-SC-003-08f8310c88fcd97f: a 53.5x decade average in June 1983"),
    (1983, "30.5x", True, "just above the bound"),
    (1983, "30x", False, "review40 Lynch 19's 30x, at the bound (a generous one: review40 proposed 25x)"),
    (1983, "17x", False, "a Nifty Fifty survivor, 40-60x in 1973 and 10-15x after 1974 [M]"),
    (1986, "31x", True, "the decade 1976-86"),
    # s43rfix (review43 R2): lifted to 35x from 1987, not removed; months of growth markets make no decade's average
    (1987, "53.5x", True, "review43 Lynch 8, IPB-LYN-SC-007-cb7818a1de5c7f37: 53.5x over 1978-87"),
    (1987, "35x", False, "from 1987 the bound is 35x"),
    (1991, "53.5x", False, "past the Lynch card's vintage: lifted"),
    (1979, "31x", True, "1974-79, the current multiple's bound as well"),
    (1972, "53.5x", False, "before the table: the Nifty Fifty"),
])
def test_decade_average_pe_within_its_eras_bound(year, average, refused, what):
    found = _lynch_anachronisms(year, {**_LY16_P, "pe_historical_average": average})
    assert bool(found) == refused, (what, found)
    if refused:
        assert found == [f"pe_historical_average {average[:-1]}x (above the highest price / earnings of its "
                         f"era about {year}, {35 if year >= 1987 else 30}x)"], found


def test_the_current_pe_keeps_its_own_bound():
    """The split leaves the current P/E's table as it was: 40x in 1983 (lifted from 1980), 31x refused in 1979."""
    assert _lynch_anachronisms(1983, {**_LY16_P, "pe_ratio": "40x", "pe_historical_average": "20x"}) == []
    assert _lynch_anachronisms(1979, {**_LY16_P, "pe_ratio": "31x", "pe_historical_average": "20x"}) == [
        "pe_ratio 31x (above the highest price / earnings of its era about 1979, 30x)"]


def test_review40_lynch_16_breaks_both():
    """s62sector: the reviewed item as stated ($17.01B, 53.5x decade average, June 1983) breaks the size bound by date
    (0.12 x $110B = $13.2B) and the decade-average bound (30x)."""
    assert _lynch_anachronisms(1983, _LY16) == [
        "market_cap $17.01B (above the largest non-IBM technology company's market value about 1983, $13.2B: 12% of "
        "the largest US company's)",
        "pe_historical_average 53.5x (above the highest price / earnings of its era about 1983, 30x)"]


# --------------------------------------------------------------------------- GR5: the price / three-year EPS ceiling


def _graham_anachronisms(year: int, facts: dict) -> list[str]:
    import ipb
    from ipb.engine.registry import compiled_card
    from ipb.perturb.frame import build_frame
    from ipb.perturb.registries import bundled_regimes

    frame = build_frame([compiled_card(GRAHAM)])
    return bundled_regimes().anachronisms(frame.inputs, ipb.facts(GRAHAM, {**_GR, **facts}), year)


@pytest.mark.parametrize("year, facts, refused, what", [
    (1975, {"price_per_share": "$232.5", "eps_3yr_avg": "$3.5", "book_value_per_share": "$163.75",
            "total_assets": "$630M"}, "66.43x",
     "review40 Graham 19, GRAHAM-7T-005-2782ade0329147bf: $232.50 on $3.50 in March 1975"),
    (1975, {"price_per_share": "$62.5", "years_with_earnings": "9", "dividend_years": "4", "stock_equity": "$272M"},
     "31.25x", "review40 Graham 15, GRAHAM-7T-005-4300d2e40ad87beb: 31x for EPS up 5% a year"),
    # s65review: _GR's record ($2 against $1.20 ten years before) did not double, and from s65review such a record is
    # priced at most 20x three-year EPS in 1974-75 (slow_record_price_to_average_earnings_1974_1975): the 30x edge is
    # read on a record that doubled ($0.95 ten years before), and the refused 1974-75 rows on _GR's record break both
    (1975, {"price_per_share": "$60", "eps_3yr_avg_ten_years_ago": "$0.95"}, None,
     "30x, the ceiling: a growth favourite near 25x its latest year [M]"),
    (1974, {"price_per_share": "$60.5"}, "30.25x", "1974, the same ceiling"),
    (1976, {"price_per_share": "$70"}, None, "1976: 35x"),
    (1976, {"price_per_share": "$70.5"}, "35.25x", "1976: above 35x"),
    (1973, {"price_per_share": "$120"}, None, "1973: the Nifty Fifty's year, not bounded above"),
    (1980, {"price_per_share": "$120"}, None, "lifted from 1980 with the current P/E's"),
])
def test_price_within_the_eras_highest_multiple_of_three_year_earnings(year, facts, refused, what):
    found = _graham_anachronisms(year, facts)
    if refused is None:
        assert found == [], (what, found)
    else:
        bound = 35 if year >= 1976 else 30
        want = [f"price_per_share / eps_3yr_avg {refused} (above the highest price / three-year average "
                f"earnings of its era about {year}, {bound}x)"]
        then = facts.get("eps_3yr_avg_ten_years_ago", _GR["eps_3yr_avg_ten_years_ago"])
        eps = facts.get("eps_3yr_avg", _GR["eps_3yr_avg"])
        if year in (1974, 1975) and float(eps.strip("$")) <= 2 * float(then.strip("$")):   # s65review's 20x row too
            want.append(f"price_per_share / eps_3yr_avg {refused} (above the highest price / three-year EPS of a "
                        f"record less than doubled in ten years of its era about {year}, 20x)")
        assert sorted(found) == sorted(want), (what, found)
