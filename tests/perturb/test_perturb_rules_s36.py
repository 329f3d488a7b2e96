"""Regression (a fact a careful reader stops at): the s35review2 proposed rules 3-8 as card rules and sector data
(issue 18, bar line 2; /work/notes/s35review2.md "Proposed rules", s36rules).

Each test takes the reviewer's item (seed 6767, its number cited), checks that the new rule refuses it, and that a
near neighbour the rule is not about (a real case where one is cited in the card) is kept. The sector registry's
new ``omits:`` is checked through the operator itself: a move to financials drops the facts no bank reports.
"""

from __future__ import annotations

import random

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.errors import IpbError
from ipb.perturb import build_frame, get_operator, load_base
from ipb.perturb.registries import bundled_sectors, load_sectors
from perturb_support import SCENARIOS

GRAHAM = "graham_seven_tests_defensive"
MARKS = "marks_distressed_debt"
DALIO = "dalio_debt_supercycle_navigation"
ACQ = "buffett_acquisition_checklist"
LYNCH = "lynch_six_category_framework"
REPO = "buffett_share_repurchase"
GREEN = "greenblatt_magic_formula_screen"


def _broken(card_id: str, facts: dict) -> list[str]:
    card = compiled_card(card_id).card
    return [e.name for e in constraint_errors(card, ipb.facts(card_id, facts))]


def _base(card_id: str, name: str) -> dict:
    return dict(load_scenario(SCENARIOS / card_id / name, compiled_card(card_id).card).facts)


# --------------------------------------------------------------------------- rule 8, Graham


def test_a_glamour_multiple_needs_earnings_that_doubled():
    """I 160: $261 on a three-year EPS of $3.00 that was $2.00 ten years before (87x, earnings up 50% in a decade)."""
    base = _base(GRAHAM, "pe_16_at_book_limit.yaml")
    assert "a_glamour_multiple_needs_doubled_earnings" in _broken(GRAHAM, {**base, "price_per_share": "$261"})
    # 35x ($105) is the bound itself, kept; so is 87x on earnings that doubled ($1.50 -> $3.00)
    assert "a_glamour_multiple_needs_doubled_earnings" not in _broken(GRAHAM, {**base, "price_per_share": "$105"})
    doubled = {**base, "price_per_share": "$261", "eps_3yr_avg_ten_years_ago": "$1.50"}
    assert "a_glamour_multiple_needs_doubled_earnings" not in _broken(GRAHAM, doubled)
    # a loss ten years before is no growth record: refused at 87x
    assert "a_glamour_multiple_needs_doubled_earnings" in _broken(
        GRAHAM, {**doubled, "eps_3yr_avg_ten_years_ago": "-$0.50"})


def test_the_glamour_base_stays_clean():
    """The bundled glamour base (January 1973, $100 on $2.50 against $1.00, 40x) grew 2.5 times: no rule refuses it."""
    assert _broken(GRAHAM, _base(GRAHAM, "glamour_growth_stock.yaml")) == []


# --------------------------------------------------------------------------- rule 7, Marks


def test_a_class_is_not_priced_above_the_firm():
    """I 138: 45% of a $4.39B class ($1.98B) beside a $1.4B base case for the whole company."""
    base = _base(MARKS, "invest_covered_senior_unsecured.yaml")
    assert "class_value_within_the_firm" in _broken(MARKS, {**base, "class_face": "$4.39B"})
    # $3.11B at 45% is $1.3995B: kept by this rule
    assert "class_value_within_the_firm" not in _broken(MARKS, {**base, "class_face": "$3.11B"})
    # the stop-34 neighbour: $800M at 75% with $200M ahead of a $600M firm is worth the whole firm, kept
    kept = {"class_face": "$800M", "senior_claims": "$200M", "reorganization_value": "$600M", "purchase_price": "75%"}
    assert _broken(MARKS, kept) == []
    assert _broken(MARKS, {**kept, "purchase_price": "76%"}) == ["price_within_reach_of_recovery", "class_value_within_the_firm"]


def test_a_glamour_multiple_on_a_record_that_did_not_double_is_refused():
    """The stop-34 rising record ($1.50 -> $2.50, 67% in ten years) at 95x ($237): kept by the 60x / 120x bounds,
    refused by the doubling rule; the same price on $1.00 -> $2.50 is kept (tests/perturb/test_perturb_review_s34)."""
    facts = {"eps_3yr_avg": "$2.5", "eps_3yr_avg_ten_years_ago": "$1.5", "years_with_earnings": 10,
             "company_type": "industrial", "price_per_share": "$237"}
    assert _broken(GRAHAM, facts) == ["a_glamour_multiple_needs_doubled_earnings"]
    assert _broken(GRAHAM, {**facts, "eps_3yr_avg_ten_years_ago": "$1"}) == []


# --------------------------------------------------------------------------- rule 5, Dalio


def test_deep_deflation_with_growth_needs_a_currency_the_bank_cannot_print():
    """I 151: real growth 2.5%, nominal -0.5% (a -3% deflator), 5% of the debt in a foreign currency."""
    base = _base(DALIO, "normalization_add_risk.yaml")
    deflating = {**base, "nominal_gdp_growth": "-0.5%"}
    assert "deep_deflation_with_growth_needs_a_fixed_currency" in _broken(DALIO, deflating)
    # -2% is Japan's worst year: kept
    assert "deep_deflation_with_growth_needs_a_fixed_currency" not in _broken(DALIO, {**base, "nominal_gdp_growth": "0.5%"})
    # Hong Kong 1999-2003 under its currency board, Ireland and Greece in the euro: kept
    assert "deep_deflation_with_growth_needs_a_fixed_currency" not in _broken(
        DALIO, {**deflating, "foreign_currency_debt_share": "60%"})
    # a slump: real -1%, nominal -4%: left to the -5% rule
    assert "deep_deflation_with_growth_needs_a_fixed_currency" not in _broken(
        DALIO, {**base, "real_gdp_growth": "-1%", "nominal_gdp_growth": "-4%"})


# --------------------------------------------------------------------------- rule 6, size x growth


@pytest.mark.parametrize("arr, growth, refused", [
    ("$36.6B", "25%", True),    # I 24
    ("$31.7B", "25%", True),    # I 143
    ("$31.4B", "18%", False),   # Salesforce, fiscal 2023
    ("$26.5B", "25%", False),   # Salesforce, fiscal 2022
    ("$26.5B", "26%", True),
    ("$17.1B", "29%", False),   # Salesforce, fiscal 2020
    ("$17.1B", "31%", True),
    ("$10B", "60%", False),     # at $10B the record does not bind
])
def test_subscription_growth_stays_within_the_record_for_its_size(arr, growth, refused):
    facts = {**_base(ACQ, "price_equals_value.yaml"), "arr": arr, "revenue_growth": growth}
    assert ("subscription_growth_within_the_record_for_its_size" in _broken(ACQ, facts)) is refused
    # another business model is not bound by the software record
    other = {**facts, "business_model": "retail", "sector": "consumer", "gross_margin": "40%"}
    assert "subscription_growth_within_the_record_for_its_size" not in _broken(ACQ, other)


def test_a_cyclical_grows_and_borrows_like_a_cyclical():
    """I 74: a $6B cyclical growing 46% a year; I 85: $28.81B of debt on a $6B cyclical that is not battered."""
    base = _base(LYNCH, "invest_cyclical_early_recovery.yaml")
    assert "a_cyclical_does_not_grow_like_a_fast_grower" in _broken(LYNCH, {**base, "earnings_growth": "46%"})
    assert "a_cyclical_does_not_grow_like_a_fast_grower" not in _broken(LYNCH, {**base, "earnings_growth": "25%"})
    grower = {k: v for k, v in base.items() if k != "cycle_position"}
    grower.update(earnings_growth="46%", cyclical_industry=False, sector="technology")
    assert "a_cyclical_does_not_grow_like_a_fast_grower" not in _broken(LYNCH, grower)
    heavy = {**base, "total_debt": "$28.81B", "debt_share": "83%"}
    assert "a_cyclical_not_battered_owes_at_most_twice_its_value" in _broken(LYNCH, heavy)
    assert "a_cyclical_not_battered_owes_at_most_twice_its_value" not in _broken(LYNCH, {**heavy, "distressed": True})
    assert "a_cyclical_not_battered_owes_at_most_twice_its_value" not in _broken(
        LYNCH, {**base, "total_debt": "$12B", "debt_share": "67%"})


# --------------------------------------------------------------------------- rule 3, Berkshire's reported figures


def test_berkshire_value_is_at_least_the_book_it_last_reported():
    """I 18: $215,500 a class A share on 30 August 2019, when the 10-Q had reported $233,977 of book at 30 June."""
    base = _base(REPO, "berkshire_2019_below_value.yaml")
    assert str(base["decision_date"]) == "2019-08-30"
    low = {**base, "intrinsic_value_per_share": "$215500"}
    assert "berkshire_value_at_least_its_reported_book" in _broken(REPO, low)
    assert "berkshire_value_at_least_its_reported_book" not in _broken(REPO, {**base, "intrinsic_value_per_share": "$340000"})
    # before the 10-Q (1 August) the last reported book was the year-end 2018's $212,503
    assert "berkshire_value_at_least_its_reported_book" not in _broken(REPO, {**low, "decision_date": "2019-08-01"})
    assert "berkshire_value_at_least_its_reported_book" in _broken(
        REPO, {**low, "decision_date": "2019-08-01", "intrinsic_value_per_share": "$212000"})
    # 2020 is left out; another company is not Berkshire
    assert "berkshire_value_at_least_its_reported_book" not in _broken(REPO, {**low, "issuer": "other_company"})


def test_berkshire_cash_and_book_of_the_quarter():
    """I 15: $106.6B of cash on 30 August 2019 (10-Q: $122.4B at 30 June); I 81: $305,000 at 1.15x book, a book of
    $265K a share while the 10-Q's $233,977 was the last reported."""
    base = _base(REPO, "berkshire_2019_below_value.yaml")
    thin = {**base, "cash_and_equivalents": "$106.6B"}
    assert "berkshire_cash_of_its_years" in _broken(REPO, thin)
    assert "berkshire_cash_of_its_years" not in _broken(REPO, {**thin, "decision_date": "2019-03-29"})
    high_book = {**base, "price_per_share": "$305000", "price_to_book": "1.15x"}
    assert "berkshire_book_value_of_its_year" in _broken(REPO, high_book)
    # from the Q3 10-Q (November) the year's band again: $265K is within 10% of the year-end's $261,417
    assert "berkshire_book_value_of_its_year" not in _broken(REPO, {**high_book, "decision_date": "2019-12-02"})


# --------------------------------------------------------------------------- rule 4, the sector operator


@pytest.fixture(scope="module")
def acq():
    frame = build_frame([ACQ])
    return frame, load_base(SCENARIOS / ACQ / "price_equals_value.yaml", frame)


def test_a_move_to_financials_drops_the_facts_no_bank_reports(acq):
    """I 73 and 44: a bank with a 46% gross margin, an insurer whose existing customers pay 96% of last year's."""
    frame, base = acq
    assert {"gross_margin", "revenue_retention"} <= set(base.facts)
    for seed in range(6):
        step = get_operator("sector")(frame, base, random.Random(seed), "financials")
        facts = step.scenario.facts
        assert facts["business_model"] in ("banking", "insurance")
        assert "gross_margin" not in facts and "revenue_retention" not in facts
        assert step.details["omitted"] == ["revenue_retention", "gross_margin"]  # in the card's input order
    # another sector omits nothing: a healthcare sector keeps the subscription-software model (its allows), and with
    # it the retention and gross margin
    step = get_operator("sector")(frame, base, random.Random(0), "healthcare")
    assert step.scenario.facts["business_model"] == "subscription_software"
    assert "omitted" not in step.details and {"gross_margin", "revenue_retention"} <= set(step.scenario.facts)
    # s45rfix (s45review B4): consumer omits nothing itself, but the retailer or brand the move makes of the software
    # base drops the retention its model omits (frameworks/sectors.yaml, models:) and keeps its gross margin
    step = get_operator("sector")(frame, base, random.Random(0), "consumer")
    assert step.scenario.facts["business_model"] in ("retail", "consumer_brand")
    assert step.details["omitted"] == ["revenue_retention"] and "gross_margin" in step.scenario.facts


def test_a_move_to_financials_drops_the_capital_of_the_ranking():
    """I 51, 186, 112: a financial described by net working capital and fixed assets, ranked 45th-3,000th."""
    frame = build_frame([GREEN])
    base = load_base(SCENARIOS / GREEN / "decline_rank_45_inside_top_decile.yaml", frame)
    assert {"net_working_capital", "net_fixed_assets"} <= set(base.facts)
    step = get_operator("sector")(frame, base, random.Random(0), "financials")
    facts = step.scenario.facts
    assert facts["sector"] == "financials"
    assert not {"net_working_capital", "net_fixed_assets"} & set(facts)
    # a move of the sector alone that keeps the capital is refused by the card
    alone = {**_base(GREEN, "decline_rank_45_inside_top_decile.yaml"), "sector": "financials"}
    assert "a_financial_states_no_tangible_capital" in _broken(GREEN, alone)
    assert _broken(GREEN, _base(GREEN, "decline_regional_bank.yaml")) == []


def test_the_registry_refuses_a_metric_both_omitted_and_ranged():
    text = (bundled_sectors().file and open(bundled_sectors().file, encoding="utf-8").read())
    bad = text.replace("omits: [gross_margin, revenue_retention,", "omits: [net_margin, gross_margin, revenue_retention,")
    assert bad != text
    with pytest.raises(IpbError) as err:
        load_sectors(text=bad)
    assert "both omits 'net_margin' and gives it a range" in str(err.value)
    assert bundled_sectors().get("financials").omits == (
        "gross_margin", "revenue_retention", "net_working_capital", "net_fixed_assets")


@pytest.mark.parametrize(("omits", "message"), [
    # net_profit_margin is an alias of net_margin, which financials give a range: omitted and ranged at once
    ("[net_profit_margin, gross_margin]", "omits 'net_profit_margin' (metric 'net_margin') and gives it a range"),
    # the sector input itself: a move to the sector would drop the very fact that names it
    ("[gross_margin, industry]", "omits 'industry', a sector input"),
    # business_model is in the sector's profile and allows: the move sets it, then would drop it
    ("[gross_margin, business_model]", "omits 'business_model' and lists values for it"),
    # one letter off a metric id: almost surely a typo that would silently drop nothing
    ("[gros_margin]", "omits 'gros_margin', which is no metric; did you mean 'gross_margin'?"),
])
def test_the_registry_refuses_an_omits_entry_that_cannot_mean_what_it_says(omits: str, message: str) -> None:
    text = open(bundled_sectors().file, encoding="utf-8").read()
    bad = text.replace("omits: [gross_margin, revenue_retention, net_working_capital, net_fixed_assets]", f"omits: {omits}")
    assert bad != text
    with pytest.raises(IpbError) as err:
        load_sectors(text=bad)
    assert message in str(err.value)
    line = 1 + text[: text.index("omits: [gross_margin, revenue")].count("\n")
    assert f"sectors.yaml>:{line}:" in str(err.value)


def test_an_omitted_alias_drops_the_input_named_by_its_metric_id() -> None:
    # gross_margins (an alias) omitted: a card input called gross_margin stands for the same metric
    text = open(bundled_sectors().file, encoding="utf-8").read()
    alias = load_sectors(text=text.replace("omits: [gross_margin, revenue_retention,", "omits: [gross_margins, revenue_retention,"))
    assert "gross_margin" in alias.get("financials").omits
