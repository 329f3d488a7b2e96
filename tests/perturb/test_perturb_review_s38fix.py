"""s38review (seed 9292) fixes, issue 18 bar line 2: general rules, each with the review's finding it closes."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from ipb.engine.card import load_card, load_card_text
from ipb.engine.registry import compiled_card
from ipb.errors import ErrorGroup, IpbError
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import get_operator
from ipb.perturb.periods import card_period_errors, period_of
from ipb.perturb.registries import bundled_regimes, load_regimes

from perturb_support import SCENARIOS, assert_rule_case, review_run

DALIO = "dalio_debt_supercycle_navigation"


# --------------------------------------------------------------------------- C: a regime figure of another period


def _temporal(regime: str):
    frame = build_frame([compiled_card(DALIO)])
    base = load_base(SCENARIOS / DALIO / "top_rotate_to_bonds.yaml", frame)
    return get_operator("temporal")(frame, base, random.Random(0), regime)


def test_temporal_2009_states_the_years_gdp_change_not_the_annualised_quarter():
    """Dalio C #50: "real GDP growth over the past year is -6.2%" on 2009-03-09 was Q4 2008 at an annual rate;
    the four quarters to Q4 2008 fell 0.8%. The nominal four-quarter change is not in the registry: undisclosed."""
    step = _temporal("credit_crisis_2009")
    assert step.scenario.facts["real_gdp_growth"] == Decimal("-0.008")
    assert "nominal_gdp_growth" not in step.scenario.facts
    # s56fixdsc: the base's market-state facts go too (no regime gives a figure for them)
    assert step.details["dropped"] == ["foreign_currency_debt_share", "nominal_gdp_growth", "debt_growth_gap",
                                       "bubble_signals"]


def test_temporal_2022_leaves_the_years_gdp_undisclosed():
    """Dalio #52: -0.6% real / 8.4% nominal were Q2 2022 annualised rates; the registry gives no four-quarter
    change for 2022, so neither is stated under "over the past year" (nor the base's 2% / 4.5%)."""
    step = _temporal("inflation_2022")
    assert "real_gdp_growth" not in step.scenario.facts and "nominal_gdp_growth" not in step.scenario.facts
    assert step.scenario.facts["policy_rate"] == Decimal("0.0325")


def test_registry_gdp_facts_declare_their_periods():
    reg = bundled_regimes()
    assert reg.facts["real_gdp_growth"].periods == ("quarter_annualised", "year")
    crisis = reg.get("credit_crisis_2009").facts["real_gdp_growth"]
    assert crisis.value == "-6.2%" and crisis.by_period == {"year": "-0.8%"}


@pytest.mark.parametrize("text, period", [
    ("Real GDP growth over the past year.", "year"),
    ("nominal GDP growth over the past year", "year"),
    ("Consumer prices, year on year.", "year"),
    ("Real GDP growth (latest quarter, annualised).", "quarter_annualised"),
    ("GDP growth at an annual rate in the latest quarter", "quarter_annualised"),
    ("Ten-year government bond yield.", None),
    ("Growth over the past year, annualised", None),  # both: names no one period
    ("Consumer prices, month on month.", "month"),
])
def test_period_words(text, period):
    assert period_of(text) == period


REGIME_HEAD = ("version: 1\ninputs: [macro_regime]\nfacts:\n"
               "  real_gdp_growth: {type: ratio, description: %s, periods: %s}\nregimes:\n")
REGIME = ("  - {id: r, name: R, labels: [x], known_from: '2009-01-01', as_of: '2009-03-09',\n"
          "     facts: {real_gdp_growth: {value: -6.2%%, %savailable: '2009-02-27'}}}\n")


def _load(description: str, periods: str, extra: str = ""):
    return load_regimes(text=REGIME_HEAD % (description, periods) + REGIME % extra)


def test_loader_refuses_a_fact_described_over_another_period_than_its_value():
    """The class behind C #50: a description saying "over the past year" while the value is the annualised
    quarter (or the reverse) is a load error, rule period."""
    _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised, year]", "year: -0.8%, ")
    with pytest.raises((ErrorGroup, IpbError)) as info:
        _load("'Real GDP growth over the past year.'", "[quarter_annualised, year]")
    errors = info.value.errors if isinstance(info.value, ErrorGroup) else [info.value]
    assert [e.rule for e in errors] == ["period"]


def test_loader_refuses_a_period_the_fact_does_not_declare():
    with pytest.raises((ErrorGroup, IpbError)) as info:
        _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised]", "year: -0.8%, ")
    errors = info.value.errors if isinstance(info.value, ErrorGroup) else [info.value]
    assert [e.rule for e in errors] == ["period"] and "year" in errors[0].message


def test_check_refuses_a_card_input_worded_over_a_period_the_fact_never_gives():
    """`ipb check`: the Dalio card's "over the past year" inputs pass against the bundled registry (which gives
    the year's change), and fail against one that holds GDP only as an annualised quarter."""
    card = load_card(SCENARIOS.parent / f"{DALIO}.yaml")
    assert card_period_errors(card) == []
    quarter_only = _load("'Real GDP growth (latest quarter, annualised).'", "[quarter_annualised]")
    errors = card_period_errors(card, regimes=quarter_only)
    assert [(e.rule, e.name) for e in errors] == [("period", "real_gdp_growth")]
    monthly = load_card_text((SCENARIOS.parent / f"{DALIO}.yaml").read_text(encoding="utf-8").replace(
        "description: Real GDP growth over the past year.", "description: Real GDP growth, month on month."))
    errors = card_period_errors(monthly)
    assert [(e.rule, e.name) for e in errors] == [("period", "real_gdp_growth")]
    assert "month on month" in errors[0].message and "over the past year" in errors[0].message


# --------------------------------------------------------------------------- I kinds: card constraints

_BRK = {"issuer": "berkshire_hathaway", "decision_date": "2019-08-30"}
_LYNCH = {"sector": "consumer", "distressed": False, "cyclical_industry": False, "hidden_asset_value": "$0",
          "market_cap": "$8B", "earnings_growth": "12%", "dividend_yield": "3%", "pe_ratio": "12x",
          "pe_historical_average": "13x"}  # the review's base, decline_stalwart_between_poor_and_okay (1984)
_GRAHAM = {"company_type": "industrial", "annual_sales": "$450M", "current_assets": "$200M",
           "current_liabilities": "$80M", "long_term_debt": "$90M", "years_with_earnings": 10, "dividend_years": 35,
           "eps_3yr_avg": "$3.00", "eps_3yr_avg_ten_years_ago": "$2.00", "price_per_share": "$48",
           "book_value_per_share": "$32"}  # pe_16_at_book_limit (1973)
_KLARMAN = {"sector": "industrials", "mispricing_source": "bankruptcy_or_restructuring", "conservative_value": "$400M",
            "value_rests_on_growth": False, "market_value": "$240M", "catalyst": "asset_sale"}

#: (card, rule, facts, refused): the review's item (refused by the one new rule) or its kept neighbour.
RULE_CASES = [
    # Berkshire, August 2019 ($296,000-$312,000 -> $287,100-$321,400): I #173 $333,866 and I #54 $346,038 refused
    # (the 2019 year band, $285,000-$350,000, kept both); $305,000 and $321,400 kept; a December day keeps the year band
    ("buffett_share_repurchase", "berkshire_price_of_its_month", {**_BRK, "price_per_share": "$333866"}, True),
    ("buffett_share_repurchase", "berkshire_price_of_its_month", {**_BRK, "price_per_share": "$346038"}, True),
    ("buffett_share_repurchase", "berkshire_price_of_its_month", {**_BRK, "price_per_share": "$321400"}, False),
    ("buffett_share_repurchase", "berkshire_price_of_its_month",
     {**_BRK, "decision_date": "2019-12-16", "price_per_share": "$333866"}, False),
    # cash on 30 Aug 2019 between $122.4B (30 Jun) and $128.2B (30 Sep), 3% out: $118.7B-$132.1B. I #179 $111.1B
    # refused (the second-half band $110B-$135B kept it); $120B kept
    ("buffett_share_repurchase", "berkshire_cash_between_its_quarter_ends",
     {**_BRK, "cash_and_equivalents": "$111.1B"}, True),
    ("buffett_share_repurchase", "berkshire_cash_between_its_quarter_ends",
     {**_BRK, "cash_and_equivalents": "$120B"}, False),
    # Lynch (a): I #137 $9.08B of overlooked assets at an $8B company was refused (the 5x rule kept up to $40B).
    # s39rules: s38fix's "above the cap only at <= $2B" was too strict (Yahoo, April 2014: about $49B of Alibaba and
    # Yahoo Japan stakes in a $36.9B company, 1.33x), so its successor bounds a company over $2B at twice its value:
    # I #137 (1.14x) is kept now, and $16.01B at $8B is the refused case; the card's own asset play, $900M at $400M,
    # kept; $8B at $8B kept
    ("lynch_six_category_framework", "overlooked_assets_within_twice_the_cap_above_two_billion",
     {**_LYNCH, "hidden_asset_value": "$16.01B"}, True),
    ("lynch_six_category_framework", "overlooked_assets_within_twice_the_cap_above_two_billion",
     {**_LYNCH, "hidden_asset_value": "$9.08B"}, False),
    ("lynch_six_category_framework", "overlooked_assets_within_twice_the_cap_above_two_billion",
     {**_LYNCH, "market_cap": "$400M", "hidden_asset_value": "$900M"}, False),
    ("lynch_six_category_framework", "overlooked_assets_within_twice_the_cap_above_two_billion",
     {**_LYNCH, "hidden_asset_value": "$8B"}, False),
    # (b): I #197 battered with P/E 12 and 12% growth refused; 5% growth, or no P/E stated, kept
    ("lynch_six_category_framework", "a_battered_company_has_no_healthy_pe_and_growth",
     {**_LYNCH, "distressed": True}, True),
    ("lynch_six_category_framework", "a_battered_company_has_no_healthy_pe_and_growth",
     {**_LYNCH, "distressed": True, "earnings_growth": "5%"}, False),
    ("lynch_six_category_framework", "a_battered_company_has_no_healthy_pe_and_growth",
     {k: v for k, v in {**_LYNCH, "distressed": True}.items() if k != "pe_ratio"}, False),
    # (c): I #181 7% x 12 = 84% paid out with 12% growth refused; 6.5% x 12 = 78% kept; 84% at 8% growth kept
    ("lynch_six_category_framework", "a_grower_keeps_a_fifth_of_its_earnings", {**_LYNCH, "dividend_yield": "7%"}, True),
    ("lynch_six_category_framework", "a_grower_keeps_a_fifth_of_its_earnings",
     {**_LYNCH, "dividend_yield": "6.5%"}, False),
    ("lynch_six_category_framework", "a_grower_keeps_a_fifth_of_its_earnings",
     {**_LYNCH, "dividend_yield": "7%", "earnings_growth": "8%"}, False),
    # Graham: long-term debt $560M = 1.24x $450M of sales refused (the 2x rule kept I #185's 1.7x); $540M = 1.2x kept
    ("graham_seven_tests_defensive", "industrial_debt_within_a_year_and_a_fifth_of_sales",
     {**_GRAHAM, "long_term_debt": "$560M"}, True),
    ("graham_seven_tests_defensive", "industrial_debt_within_a_year_and_a_fifth_of_sales",
     {**_GRAHAM, "long_term_debt": "$540M"}, False),
    # current assets $60M = 13.3% of $450M refused (10% floor kept it); $67.5M = 15% kept
    ("graham_seven_tests_defensive", "industrial_current_assets_at_least_fifteen_percent_of_sales",
     {**_GRAHAM, "current_assets": "$60M"}, True),
    ("graham_seven_tests_defensive", "industrial_current_assets_at_least_fifteen_percent_of_sales",
     {**_GRAHAM, "current_assets": "$67.5M"}, False),
    # a utility with $200M of current assets on $2.42B of sales (8.3%) refused; on $2B (10%) kept
    # s40util: the utility owes $1B of long-term debt (41-50% of its sales, a gas distributor's share), not the
    # industrial base's $90M (4-5%), which utility_debt_at_least_a_quarter_of_sales refuses
    ("graham_seven_tests_defensive", "utility_current_assets_at_least_a_tenth_of_sales",
     {**_GRAHAM, "company_type": "public_utility", "annual_sales": "$2.42B", "long_term_debt": "$1B"}, True),
    ("graham_seven_tests_defensive", "utility_current_assets_at_least_a_tenth_of_sales",
     {**_GRAHAM, "company_type": "public_utility", "annual_sales": "$2B", "long_term_debt": "$1B"}, False),
    # Klarman: I #124 $17.63B against $3.95B (4.5x, inside the 5x rule) refused; $9.5B (2.4x) kept; 2.6x at $1.9B kept
    # s42rfixM: at 4.46x the item broke low_end_value_under_four_times_the_price (review42 R6) as well; s42rec: that
    # rule bounds only a gap with no identified source, and this one is a bankruptcy
    ("klarman_deep_value_identification", "a_large_company_is_valued_within_two_and_a_half_times_its_price",
     {**_KLARMAN, "conservative_value": "$17.63B", "market_value": "$3.95B"}, True),
    ("klarman_deep_value_identification", "a_large_company_is_valued_within_two_and_a_half_times_its_price",
     {**_KLARMAN, "conservative_value": "$9.5B", "market_value": "$3.95B"}, False),
    ("klarman_deep_value_identification", "a_large_company_is_valued_within_two_and_a_half_times_its_price",
     {**_KLARMAN, "conservative_value": "$5B", "market_value": "$1.9B"}, False),
]


@pytest.mark.parametrize("card_id, rule, facts, refused", RULE_CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(RULE_CASES)])
def test_review_item_against_the_new_rule(card_id, rule, facts, refused):
    assert_rule_case(card_id, rule, facts, refused)


def _n(value) -> Decimal:
    return Decimal(str(value))


#: (card, base, name, applies, holds): the review's counted kinds on its own run (seed 9292, 200 items), where the
#: review's file had 56 / 13 / 19 / 6 / 17 / 10 / 23 / 6 such items.
RUN_KINDS = [
    ("buffett_share_repurchase", "berkshire_2019_below_value.yaml", "price in August 2019's range +-3%",
     lambda f: f.get("issuer") == "berkshire_hathaway" and "price_per_share" in f and "decision_date" in f,
     lambda f: Decimal("287100") <= _n(f["price_per_share"]) <= Decimal("321400")),
    ("buffett_share_repurchase", "berkshire_2019_below_value.yaml", "cash between the quarter-ends +-3%",
     lambda f: f.get("issuer") == "berkshire_hathaway" and "cash_and_equivalents" in f and "decision_date" in f,
     lambda f: Decimal("118.7E9") <= _n(f["cash_and_equivalents"]) <= Decimal("132.1E9")),
    # s39rules: within twice the cap (was: within the cap; the s38fix rule it read was replaced, see RULE_CASES)
    ("lynch_six_category_framework", "decline_stalwart_between_poor_and_okay.yaml", "overlooked assets within 2x the cap",
     lambda f: "hidden_asset_value" in f and "market_cap" in f and _n(f["market_cap"]) > Decimal("2E9"),
     lambda f: _n(f["hidden_asset_value"]) <= 2 * _n(f["market_cap"])),
    ("lynch_six_category_framework", "decline_stalwart_between_poor_and_okay.yaml", "payout at most 80% above 8% growth",
     lambda f: {"dividend_yield", "pe_ratio", "earnings_growth"} <= set(f) and _n(f["earnings_growth"]) > Decimal("0.08"),
     lambda f: _n(f["dividend_yield"]) * _n(f["pe_ratio"]) <= Decimal("0.8")),
    ("graham_seven_tests_defensive", "pe_16_at_book_limit.yaml", "industrial debt within 1.2x sales",
     lambda f: f.get("company_type") == "industrial" and {"long_term_debt", "annual_sales"} <= set(f),
     lambda f: _n(f["long_term_debt"]) <= Decimal("1.2") * _n(f["annual_sales"])),
    ("graham_seven_tests_defensive", "pe_16_at_book_limit.yaml", "industrial current assets >= 15% of sales",
     lambda f: f.get("company_type") == "industrial" and {"current_assets", "annual_sales"} <= set(f),
     lambda f: _n(f["current_assets"]) >= Decimal("0.15") * _n(f["annual_sales"])),
    ("klarman_deep_value_identification", "inconclusive_catalyst_timing_unknown.yaml", "value within 2.5x above $2B",
     lambda f: {"conservative_value", "market_value"} <= set(f) and _n(f["market_value"]) > Decimal("2E9"),
     lambda f: _n(f["conservative_value"]) <= Decimal("2.5") * _n(f["market_value"])),
]


@pytest.mark.parametrize("card_id, base, name, applies, holds", RUN_KINDS, ids=[k[2] for k in RUN_KINDS])
def test_review_run_has_none_of_the_kind(card_id, base, name, applies, holds):
    seen = 0
    for item, f in review_run(card_id, base, 9292, 200):
        if applies(f):
            seen += 1
            assert holds(f), (name, item["id"])
    assert seen >= 5, (name, seen)
