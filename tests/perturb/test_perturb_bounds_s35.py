"""Regression (a bound that refuses the record): card rules checked against real cases of their vintage (issue 18,
bar 2; s34read must-fix 6 and should-fix 7-8; closing13 "unreachable outcomes").

Stop 34 bounded facts against each other to refuse items a careful reader would stop at; the code reader found
several bounds that also refused real companies inside the card's own vintage, and one that left a gate outcome
to a single path. Each test below takes a real case (cited at the case), checks that no card rule refuses it,
that the card's own gate decides it as the investor would, and that the contradiction the bound was made for is
still refused. The per-rule pairs (refused item, kept neighbour) are in ``test_perturb_review_s34.py``.
"""

from __future__ import annotations

import pytest

import ipb
from ipb.engine.card import constraint_errors
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario
from ipb.perturb import Job, generate
from perturb_support import SCENARIOS


def _broken(card_id: str, facts: dict) -> list[str]:
    card = compiled_card(card_id).card
    return [e.name for e in constraint_errors(card, ipb.facts(card_id, facts))]


def _base_facts(card_id: str, base: str) -> dict:
    return dict(load_scenario(SCENARIOS / card_id / base, compiled_card(card_id).card).facts)


def test_a_nifty_fifty_price_is_kept_and_the_moderate_price_gate_rejects_it():
    """Polaroid, 1971: 94.8 times earnings (Fesenmaier and Smith's table of the Nifty Fifty). On the glamour base
    (January 1973, three-year EPS $2.50 against $1.00) a price of $237 is 94.8x: the 60x bound used to refuse it,
    so Graham's P/E test (gate 6, at most 15x) never saw it. Now it is kept and the gate rejects it."""
    facts = {**_base_facts("graham_seven_tests_defensive", "glamour_growth_stock.yaml"), "price_per_share": "$237"}
    assert _broken("graham_seven_tests_defensive", facts) == []
    trace = ipb.execute("graham_seven_tests_defensive", facts)
    assert trace.outcome == "DECLINE"
    assert [g.verdict for g in trace.gates if g.gate.id == "moderate_pe"] == ["REJECT"]
    # the review's contradiction stays refused: $298 on a three-year EPS of $2.50 that fell from $7.05 (119x)
    wrecked = {**facts, "price_per_share": "$298", "eps_3yr_avg_ten_years_ago": "$7.05"}
    assert "price_within_sixty_times_earnings" in _broken("graham_seven_tests_defensive", wrecked)


def test_cisco_in_2000_is_a_price_munger_may_be_asked_about():
    """Cisco, March 2000: near $450B for $2.7B of fiscal-2000 earnings (about 167x), growing 30-50% a year. The
    60x cap at 12% growth refused it; now only the 200x bound applies at that growth. Munger's price gate is the
    one to decline it."""
    facts = {"market_value": "$450B", "owner_earnings": "$2.7B", "long_run_growth": "20%", "return_on_capital": "30%",
             "competitive_advantage": "durable"}
    assert _broken("munger_business_quality_price", facts) == []
    assert _broken("munger_business_quality_price", {**facts, "long_run_growth": "5%"}) == [
        "price_within_a_century_of_owner_earnings", "price_by_growth"]


def test_itt_educational_at_the_end_of_2011_passes_the_greenblatt_rules():
    """ITT Educational Services, 2011 (8-K of 2012-01-26): operating income $507.1M, cash and investments $379.6M,
    debt $150M, 26.5M diluted shares; near $57 a share the equity was about $1.51B and the enterprise value about
    $1.28B (EV/EBIT 2.5, cap/EBIT 3.0), an earnings yield near 40%, a textbook magic-formula pick. Refused before by
    three rules (EV/EBIT >= 3 and >= 3.5, cap >= 4x EBIT)."""
    facts = {"ebit": "$507.1M", "market_cap": "$1.51B", "enterprise_value": "$1.28B"}
    assert _broken("greenblatt_magic_formula_screen", facts) == []
    # the review's contradiction (EBIT $180M on a $400M market value, 2.2x) stays refused
    assert _broken("greenblatt_magic_formula_screen", {**facts, "ebit": "$180M", "market_cap": "$400M",
                                                       "enterprise_value": "$400M"}) == [
        "market_value_at_least_two_and_a_half_times_ebit"]
    # the old 2x rule is gone, not dead: no rule of the card repeats it
    ids = {k.id for k in compiled_card("greenblatt_magic_formula_screen").card.constraints}
    assert "operating_profit_within_half_the_equity_value" not in ids


@pytest.mark.parametrize("facts", [
    # Bulgaria, 2019-2020: lev pegged to the euro, most public debt in euro, ten-year 0.02-1.08% (2020), base rate 0%
    {"foreign_currency_debt_share": "65%", "long_bond_yield": "0.25%", "policy_rate": "0%",
     "nominal_gdp_growth": "4%", "real_gdp_growth": "-4%"},
    # Italy, 2020: all its debt in a currency its central bank cannot print, ECB deposit rate -0.5%, ten-year ~1%
    {"foreign_currency_debt_share": "100%", "long_bond_yield": "1%", "policy_rate": "-0.5%",
     "nominal_gdp_growth": "-8%", "real_gdp_growth": "-9%"},
    # Switzerland, 2016-2021: own-currency debt, policy rate -0.75%, negative ten-year yield, prices near flat
    {"foreign_currency_debt_share": "5%", "long_bond_yield": "-0.5%", "policy_rate": "-0.75%",
     "central_bank_stance": "neutral", "nominal_gdp_growth": "1%", "real_gdp_growth": "1%"},
], ids=["bulgaria-2020", "italy-2020", "switzerland-2019"])
def test_euro_debtors_and_negative_yields_pass_the_dalio_rules(facts):
    assert _broken("dalio_debt_supercycle_navigation", facts) == []


def test_a_lynch_cyclical_with_dover_s_streak_and_an_asset_play_of_cash_are_kept():
    """Dover raised its dividend every year from 1956 (its 62nd raise came in 2017): 35 years by 1990. And Lynch's
    asset play whose hidden asset is its cash (One Up on Wall Street, ch. 7): cash above the market value, not
    battered, counted in the overlooked assets. The card classifies it an asset play and its story check reads it."""
    assert _broken("lynch_six_category_framework", {"cyclical_industry": True, "dividend_raised_years": 35}) == []
    # the hidden-land base ($500M market value): its $900M of overlooked assets now $600M of cash among them
    facts = {**_base_facts("lynch_six_category_framework", "invest_asset_play_hidden_land.yaml"), "cash": "$600M"}
    assert facts["market_cap"] < ipb.facts("lynch_six_category_framework", {"cash": "$600M"})["cash"]
    assert _broken("lynch_six_category_framework", facts) == []
    assert ipb.execute("lynch_six_category_framework", facts).regime == "asset_play"


def test_a_large_1995_style_spinoff_is_kept_and_a_large_neglected_stock_is_not():
    """Allstate: Sears spun off its 80.3% on 30 June 1995, 360.5M shares worth $10.7B (about $13B for the whole;
    "the biggest spinoff ever", Roanoke Times and LA Times, 1 July 1995)."""
    spinoff = {"mispricing_source": "spinoff", "market_value": "$13B", "conservative_value": "$20B"}
    assert _broken("klarman_deep_value_identification", spinoff) == []
    assert _broken("klarman_deep_value_identification", {**spinoff, "mispricing_source": "complexity_or_neglect"}) == [
        "a_neglected_security_is_small"]


def test_a_berkshire_proposal_that_eats_into_the_reserve_is_kept_for_the_first_gate_to_reject():
    """closing13: the quarter-of-cash bound left the first gate's cash test unreachable for Berkshire proposals
    above a quarter of the cash. $40B of $55B (2012's cash range) against the stated $20B reserve is kept and
    rejected by the gate; the review's $49.97B of $128B, which leaves the reserve whole, stays refused."""
    facts = {"issuer": "berkshire_hathaway", "cash_and_equivalents": "$55B", "repurchase_amount": "$40B",
             "liquidity_reserve": "$20B", "reinvestment_needs_funded": True}
    assert _broken("buffett_share_repurchase", facts) == []
    trace = ipb.execute("buffett_share_repurchase", facts)
    assert (trace.gates[0].gate.id, trace.gates[0].verdict) == ("funds_beyond_needs", "REJECT")
    assert _broken("buffett_share_repurchase", {**facts, "cash_and_equivalents": "$128B",
                                                "repurchase_amount": "$49.97B", "liquidity_reserve": "$30B"}) == [
        "berkshire_buyback_within_a_quarter_of_its_cash"]


def test_a_default_run_of_another_company_reaches_the_cash_rejection():
    """Non-vacuity on a run: from the card's 2000 base (another company, $8B of cash, a $1B reserve; seed 0, 120
    items) some items reject at the first gate with reinvestment funded, through cash after the buyback below the
    reserve. This asserted it of Berkshire items from the 2012 base until stop 51: the lead's ruling (SR12) holds
    Berkshire's buybacks of 26 September 2011 to 16 July 2018 to at most $8B, and with 2012's $35-55B of cash and its
    $20B reserve only a buyback above $10B could eat into the reserve, so that base can no longer reach it (0 of 120;
    the 2000 base: 36 of 120, s51rfix)."""
    import json

    lines = generate(Job(("buffett_share_repurchase",),
                         str(SCENARIOS / "buffett_share_repurchase" / "dilution_offset_above_value.yaml"), 0), 120).lines
    through_cash = 0
    for line in lines:
        item = json.loads(line)
        f = item["scenario"]["facts"]
        first = item["grp"]["gold_program"][0]
        if f.get("issuer") == "other_company" and f.get("reinvestment_needs_funded") is True \
                and first["verdict"] == "REJECT":
            read = ipb.facts("buffett_share_repurchase", f)
            assert read["cash_and_equivalents"] - read["repurchase_amount"] < read["liquidity_reserve"], f
            through_cash += 1
    assert through_cash >= 10, through_cash
