"""Regression (contradictions): the three kinds the s36review2 read found (issue 18, bar line 2; seed 8989).

The read (``/work/notes/s36review2.md``, 20 items on each of 10 cards) graded 7 items a contradiction:

1. buffett_share_repurchase #127 #198 #49 #43: $170-240B of cash on 2000-03-31, when the largest corporate cash
   pile was about $24B (Microsoft). Cash was bounded by the largest balance sheet (a bank's, $1T in 2000); it now
   has its own bound by year (``sizes.figures`` id ``cash`` in frameworks/regimes.yaml), which also covers the
   cash a business must keep (``liquidity_reserve``) and Lynch's ``cash``.
2. buffett_share_repurchase #95 #81: ``isolate`` named Berkshire Hathaway at $110 a share on 2000-03-31, a year
   the card's Berkshire bands (2011-2020) do not cover. A dated item names Berkshire only in those years.
3. graham_seven_tests_defensive #160: total assets $480M below current liabilities $80M + long-term debt $426M
   with a positive book value of $30 a share (equity not stated, so the closure rule read nothing).

Two I kinds of the same read that one rule each fixes are here too (R9: a reserve 2-5x all the cash; R7: an
industrial's current assets 1.7-1.9x its sales; R8: a negative ten-year yield at a 1.5% policy rate, four bubble
signals in a 7.5-10% collapse). Each rule refuses the review's item and keeps a neighbour; every hand-worked bound is written out at its case.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate
from ipb.perturb.recipes import parse_recipes
from ipb.perturb.registries import load_regimes
from perturb_support import SCENARIOS, assert_rule_case

REPURCHASE = "buffett_share_repurchase"
GRAHAM = "graham_seven_tests_defensive"
LYNCH = "lynch_six_category_framework"
DALIO = "dalio_debt_supercycle_navigation"
_2000 = {"issuer": "berkshire_hathaway", "decision_date": "2000-03-31"}
_BAL = {"total_assets": "$480M", "current_liabilities": "$80M", "book_value_per_share": "$30"}

CASES = [
    # C #95 / #81: Berkshire on 2000-03-31 refused (price or not); the same in 2012 kept, an undated one kept,
    # another company in 2000 kept; 2010-12-31 refused, 2011-01-01 and 2020-12-31 kept, 2021-01-01 refused
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "price_per_share": "$110"}, True),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", _2000, True),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "decision_date": "2012-06-29"}, False),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {"issuer": "berkshire_hathaway"}, False),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "issuer": "other_company"}, False),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "decision_date": "2010-12-31"}, True),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "decision_date": "2011-01-01"}, False),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "decision_date": "2020-12-31"}, False),
    (REPURCHASE, "berkshire_named_only_in_years_with_bands", {**_2000, "decision_date": "2021-01-01"}, True),
    # C #160: $80M + $426M = $506M >= $480M refused; $80M + $399M = $479M kept; $80M + $400M = $480M (equity 0
    # with a positive book value) refused; book value unstated kept (negative equity is possible then)
    (GRAHAM, "liabilities_below_assets_with_positive_book", {**_BAL, "long_term_debt": "$426M"}, True),
    (GRAHAM, "liabilities_below_assets_with_positive_book", {**_BAL, "long_term_debt": "$399M"}, False),
    (GRAHAM, "liabilities_below_assets_with_positive_book", {**_BAL, "long_term_debt": "$400M"}, True),
    (GRAHAM, "liabilities_below_assets_with_positive_book",
     {"total_assets": "$480M", "current_liabilities": "$80M", "long_term_debt": "$426M"}, False),
    # I kinds the same read found (R9, R7), one rule each:
    # I #79: $15.25B to keep of $8B of cash (1.9x) refused; 1.5 x $8B = $12B kept, $12.01B refused; unstated kept
    (REPURCHASE, "reserve_within_reach_of_cash", {"cash_and_equivalents": "$8B", "liquidity_reserve": "$15.25B"}, True),
    (REPURCHASE, "reserve_within_reach_of_cash", {"cash_and_equivalents": "$8B", "liquidity_reserve": "$12B"}, False),
    (REPURCHASE, "reserve_within_reach_of_cash", {"cash_and_equivalents": "$8B", "liquidity_reserve": "$12.01B"}, True),
    (REPURCHASE, "reserve_within_reach_of_cash", {"cash_and_equivalents": "$8B"}, False),
    # I #115: an industrial with $874M of current assets on $450M of sales (1.94x) refused; 1.2 x $450M = $540M
    # kept, $541M refused; I #166: $200M on $150M (1.33x) refused; the base's $200M on $450M kept
    (GRAHAM, "industrial_current_assets_within_sales",
     {"company_type": "industrial", "annual_sales": "$450M", "current_assets": "$874M"}, True),
    (GRAHAM, "industrial_current_assets_within_sales",
     {"company_type": "industrial", "annual_sales": "$450M", "current_assets": "$540M"}, False),
    (GRAHAM, "industrial_current_assets_within_sales",
     {"company_type": "industrial", "annual_sales": "$450M", "current_assets": "$541M"}, True),
    (GRAHAM, "industrial_current_assets_within_sales",
     {"company_type": "industrial", "annual_sales": "$150M", "current_assets": "$200M"}, True),
    (GRAHAM, "industrial_current_assets_within_sales",
     {"company_type": "industrial", "annual_sales": "$450M", "current_assets": "$200M"}, False),
    # R8, I #17: a -0.25% ten-year yield at a 1.5% policy rate refused; at 0.5% kept, at 0.51% refused; a +0.25%
    # yield at 1.5% kept (the slope, long minus policy, is derived and not stated here)
    (DALIO, "a_negative_long_yield_needs_a_policy_rate_near_zero",
     {"long_bond_yield": "-0.25%", "policy_rate": "1.5%"}, True),
    (DALIO, "a_negative_long_yield_needs_a_policy_rate_near_zero",
     {"long_bond_yield": "-0.25%", "policy_rate": "0.5%"}, False),
    (DALIO, "a_negative_long_yield_needs_a_policy_rate_near_zero",
     {"long_bond_yield": "-0.25%", "policy_rate": "0.51%"}, True),
    (DALIO, "a_negative_long_yield_needs_a_policy_rate_near_zero",
     {"long_bond_yield": "0.25%", "policy_rate": "1.5%"}, False),
    # R8, I #3 / #155: 4 bubble signals at real -10% / -7.5% refused; 2 signals at -10% kept; 4 at -5% kept
    # s45rfix: a_shrinking_economy_has_few_bubble_signals (s45review D3: at most two signals at any negative growth)
    # refuses the two items as well, and the 4 signals at -5% (kept by the collapse rule's edge) by itself
    (DALIO, ("a_collapse_has_few_bubble_signals", "a_shrinking_economy_has_few_bubble_signals"),
     {"real_gdp_growth": "-10%", "bubble_signals": 4}, True),
    (DALIO, ("a_collapse_has_few_bubble_signals", "a_shrinking_economy_has_few_bubble_signals"),
     {"real_gdp_growth": "-7.5%", "bubble_signals": 4}, True),
    (DALIO, "a_collapse_has_few_bubble_signals", {"real_gdp_growth": "-10%", "bubble_signals": 2}, False),
    (DALIO, "a_shrinking_economy_has_few_bubble_signals", {"real_gdp_growth": "-5%", "bubble_signals": 4}, True),
]


@pytest.mark.parametrize("card, rule, facts, refused", CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused):
    assert_rule_case(card, rule, facts, refused)


def _specs(card_id: str):
    return compiled_card(card_id).card.inputs


def test_cash_and_its_reserve_are_bounded_by_the_cash_figure_not_the_balance_sheet():
    """Every cash-like input of the bundled cards is the ``cash`` figure; total and current assets stay ``assets``."""
    regimes = load_regimes()
    named = [(REPURCHASE, "cash_and_equivalents"), (REPURCHASE, "liquidity_reserve"), (LYNCH, "cash")]
    for card_id, name in named:
        assert regimes.money_figure(_specs(card_id)[name]).id == "cash", (card_id, name)
    for name in ("total_assets", "current_assets"):
        assert regimes.money_figure(_specs(GRAHAM)[name]).id == "assets"


def test_the_2000_cash_bound_lies_between_the_largest_pile_and_the_review_items():
    """Microsoft's $23.8B (30 June 2000) is the largest pile the bound must admit; #81's $36.6B is refused, and so
    are #43's $170.3B and I #88's $81.8B; the base's $8B is kept. The bound of 2024 admits Berkshire's $334.2B."""
    regimes = load_regimes()
    cash = next(f for f in regimes.figures if f.id == "cash")
    assert Decimal("23.8E9") <= cash.bound(2000) < Decimal("36.6E9")
    assert cash.bound(2024) >= Decimal("334.2E9")
    specs = _specs(REPURCHASE)
    for value, refused in (("36.6E9", True), ("170.3E9", True), ("81.8E9", True), ("8E9", False)):
        found = regimes.anachronisms(specs, {"cash_and_equivalents": Decimal(value)}, 2000)
        assert bool(found) is refused, (value, found)
    # I #74: a reserve of $44.02B in 2000 is itself beyond any company's cash then
    assert regimes.anachronisms(specs, {"liquidity_reserve": Decimal("44.02E9")}, 2000)


def test_the_cash_bound_admits_the_card_berkshire_bands():
    """The card's Berkshire cash bands (top $55B in 2011-12 ... $150B in 2020) lie under each year's cash bound,
    so the new bound refuses no Berkshire figure the card allows."""
    cash = next(f for f in load_regimes().figures if f.id == "cash")
    tops = {2011: 55, 2012: 55, 2013: 70, 2014: 70, 2015: 95, 2016: 95, 2017: 130, 2018: 130, 2019: 135, 2020: 150}
    for year, top in tops.items():
        assert cash.bound(year) >= Decimal(top) * Decimal("1E9"), year


def test_generated_repurchase_items_of_2000_keep_cash_and_issuer_to_their_date():
    """The reviewed base (2000-03-31), seed 8989: no item states cash or a reserve above $30B, none names
    Berkshire (the review's file: 52 items above $30B of cash, 14 naming Berkshire, of 200)."""
    base = SCENARIOS / REPURCHASE / "dilution_offset_above_value.yaml"
    result = generate(Job((REPURCHASE,), str(base), 8989, parse_recipes("metric,isolate,flip")), 60,
                      allow_short=True)
    assert result.lines
    for line in result.lines:
        facts = json.loads(line)["scenario"]["facts"]
        if facts.get("decision_date") is None:
            continue
        assert facts.get("issuer") != "berkshire_hathaway", facts
        for name in ("cash_and_equivalents", "liquidity_reserve"):
            if facts.get(name) is not None:
                text = str(facts[name]).replace("$", "").replace(",", "")
                scale = {"K": 1e3, "M": 1e6, "B": 1e9}.get(text[-1], 1)
                amount = float(text[:-1]) * scale if scale != 1 else float(text)
                assert amount <= 30e9, (name, facts[name])
