"""Regression (implausible pairs): what s36review2 left as rules R4, R5 and R9 (issue 18, bar line 2; seed 8989).

The read (``/work/notes/s36review2.md`` "Causes and proposed rules") graded these items I (possible, but a careful
reader stops); s36fix2 did R1-R3, R7-R8 and part of R9. Here:

* R4, a sector move keeps facts of the old sector: subscription software filed under industrial automation kept a
  hardware maker's 42% gross margin (I 55), and a move to oil and gas kept the software base's revenue retention.
  The sector registry now gives a business model its own ranges (``models:`` in frameworks/sectors.yaml), read in
  place of the sector's, and energy omits revenue retention. A materials company kept the staples base's $2.5B of
  capital beside $5.2B of EBIT (Greenblatt I 172): a large capital-heavy company earns at most 2.5 times its
  sector's highest ordinary return on its tangible capital.
* R5, valuation multiples off any band: a $20-30B consumer-staples company at 2.3-4.2x EBIT (Greenblatt I 139, 48,
  38, 65, 180), subscription software growing 56% offered at 3x revenue (acquisition I 23), a business with no
  growth at 28 times its owner earnings (Munger I 19). The bands come from the sector registry where it has the
  figure (Greenblatt, acquisition); tests below tie the card's numbers to the registry's.
* R9, pairs that pull apart: a durable advantage with owner earnings shrinking 3-4.5% a year for good (Munger I 82,
  71); a battered company with 18 years of dividend raises (Lynch I 116).

Each rule refuses the review's item and keeps a neighbour; every bound is worked out at its case.
"""

from __future__ import annotations

import random
from decimal import ROUND_FLOOR, Decimal

import pytest

from ipb.errors import IpbError
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import get_operator
from ipb.perturb.registries import bundled_sectors, load_sectors
from perturb_support import SCENARIOS, assert_rule_case

ACQ = "buffett_acquisition_checklist"
GREEN = "greenblatt_magic_formula_screen"
MUNGER = "munger_business_quality_price"
LYNCH = "lynch_six_category_framework"
_DURABLE = {"competitive_advantage": "durable"}
_OE = {"owner_earnings": "$500M"}
_SAAS = {"business_model": "subscription_software"}

CASES = [
    # R9, Munger I 82 / 71: durable with -4.5% and -3% a year refused; -2% kept (the bound), -2.5% refused;
    # an eroding advantage with -4.5% kept
    (MUNGER, "a_durable_advantage_does_not_decline_for_good", {**_DURABLE, "long_run_growth": "-4.5%"}, True),
    (MUNGER, "a_durable_advantage_does_not_decline_for_good", {**_DURABLE, "long_run_growth": "-3%"}, True),
    (MUNGER, "a_durable_advantage_does_not_decline_for_good", {**_DURABLE, "long_run_growth": "-2%"}, False),
    (MUNGER, "a_durable_advantage_does_not_decline_for_good", {**_DURABLE, "long_run_growth": "-2.5%"}, True),
    (MUNGER, "a_durable_advantage_does_not_decline_for_good",
     {"competitive_advantage": "eroding", "long_run_growth": "-4.5%"}, False),
    # R5, Munger I 19: $14.2B for $500M of owner earnings with no growth (28.4x) refused; 20 x $500M = $10B kept,
    # $10.1B refused; the same $14.2B with 1% growth kept; a decline (-1%) at $10.1B refused
    (MUNGER, "no_growth_is_priced_for_its_yield", {**_OE, "market_value": "$14.2B", "long_run_growth": "0%"}, True),
    (MUNGER, "no_growth_is_priced_for_its_yield", {**_OE, "market_value": "$10B", "long_run_growth": "0%"}, False),
    (MUNGER, "no_growth_is_priced_for_its_yield", {**_OE, "market_value": "$10.1B", "long_run_growth": "0%"}, True),
    (MUNGER, "no_growth_is_priced_for_its_yield", {**_OE, "market_value": "$14.2B", "long_run_growth": "1%"}, False),
    (MUNGER, "no_growth_is_priced_for_its_yield", {**_OE, "market_value": "$10.1B", "long_run_growth": "-1%"}, True),
    # R9, Lynch I 116: battered with 18 years of raises refused; 10 kept, 11 refused; not battered with 18 kept
    # s44rfix: review44 (LYN-div-streak) refused streaks of 3-10 raises at a battered company too; the tighter rule
    # a_battered_company_raised_its_dividend_at_most_two_years_running breaks beside this one (card order), and 10
    # years, this rule's edge, is refused by it alone
    (LYNCH, ("a_battered_company_has_no_long_raise_streak",
             "a_battered_company_raised_its_dividend_at_most_two_years_running"),
     {"distressed": True, "dividend_raised_years": "18"}, True),
    (LYNCH, "a_battered_company_raised_its_dividend_at_most_two_years_running",
     {"distressed": True, "dividend_raised_years": "10"}, True),
    (LYNCH, ("a_battered_company_has_no_long_raise_streak",
             "a_battered_company_raised_its_dividend_at_most_two_years_running"),
     {"distressed": True, "dividend_raised_years": "11"}, True),
    (LYNCH, "a_battered_company_has_no_long_raise_streak", {"distressed": False, "dividend_raised_years": "18"},
     False),
    # R5, acquisition I 23: 56% growth at 3x refused; at 6x kept (5.6x is the bound); I 199's 55% at 5.5x sits on
    # it and is kept, 5x refused; a consumer brand growing 56% at 3x kept (the band is the software vendor's)
    # s40util: the floor is 0.08x a point outside a recession or credit crisis (Box in February 2016 sold near 3.5x
    # at 40% growth), so at 55% it is 4.4x: 5x is kept now and the refused neighbour below the floor is 4.3x
    (ACQ, "subscription_price_within_reach_of_its_growth", {**_SAAS, "revenue_growth": "56%", "ev_to_arr": "3x"}, True),
    (ACQ, "subscription_price_within_reach_of_its_growth", {**_SAAS, "revenue_growth": "56%", "ev_to_arr": "6x"}, False),
    (ACQ, "subscription_price_within_reach_of_its_growth", {**_SAAS, "revenue_growth": "55%", "ev_to_arr": "5.5x"},
     False),
    (ACQ, "subscription_price_within_reach_of_its_growth", {**_SAAS, "revenue_growth": "55%", "ev_to_arr": "4.4x"},
     False),
    (ACQ, "subscription_price_within_reach_of_its_growth", {**_SAAS, "revenue_growth": "55%", "ev_to_arr": "4.3x"},
     True),
    (ACQ, "subscription_price_within_reach_of_its_growth",
     {"business_model": "consumer_brand", "revenue_growth": "56%", "ev_to_arr": "3x"}, False),
    # R5, Greenblatt I 139 (staples, EV $29.56B, EBIT $7.72B: 3.83x) refused; I 180 (EV $14.53B, EBIT $4.265B:
    # 3.41x) refused; 4.5x exactly ($9B / $2B) kept, $9B / $2.005B refused; the same 3.83x at EV $4.9B kept
    # (a small or mid cap); materials at 3.4x kept (its floor is 3x), 2.9x refused
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "consumer_staples", "enterprise_value": "$29.56B", "ebit": "$7.72B"}, True),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "consumer_staples", "enterprise_value": "$14.53B", "ebit": "$4.265B"}, True),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "consumer_staples", "enterprise_value": "$9B", "ebit": "$2B"}, False),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "consumer_staples", "enterprise_value": "$9B", "ebit": "$2.005B"}, True),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "consumer_staples", "enterprise_value": "$4.9B", "ebit": "$1.28B"}, False),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "materials", "enterprise_value": "$14.53B", "ebit": "$4.265B"}, False),
    (GREEN, "a_large_cap_within_its_sector_multiple",
     {"sector": "materials", "enterprise_value": "$14.5B", "ebit": "$5B"}, True),
    # R4, Greenblatt I 172: materials, EBIT $5.23B on $0.5B + $2B of capital (209%) refused; on $0.5B + $13.5B
    # (37.4%) kept; the staples base's capital with the same EBIT in consumer staples kept (a brand's return)
    (GREEN, "a_capital_heavy_large_cap_within_its_sector_return",
     {"sector": "materials", "enterprise_value": "$30B", "ebit": "$5.23B", "net_working_capital": "$500M",
      "net_fixed_assets": "$2B"}, True),
    (GREEN, "a_capital_heavy_large_cap_within_its_sector_return",
     {"sector": "materials", "enterprise_value": "$30B", "ebit": "$5.23B", "net_working_capital": "$500M",
      "net_fixed_assets": "$13.5B"}, False),
    (GREEN, "a_capital_heavy_large_cap_within_its_sector_return",
     {"sector": "consumer_staples", "enterprise_value": "$30B", "ebit": "$5.23B", "net_working_capital": "$500M",
      "net_fixed_assets": "$2B"}, False),
]


@pytest.mark.parametrize("card, rule, facts, refused", CASES,
                         ids=[f"{c[1]}-{'refused' if c[3] else 'kept'}-{i}" for i, c in enumerate(CASES)])
def test_each_rule_refuses_its_item_and_keeps_its_neighbour(card, rule, facts, refused):
    assert_rule_case(card, rule, facts, refused)


# --------------------------------------------------------------------------- the bands come from the registry

#: The card's sector -> the registry sector whose figures give its bands (the card comment says why the others,
#: technology, communication, energy's multiple and financials, have none).
_FLOOR_SECTORS = {"consumer_staples": "consumer", "industrials": "industrial_automation", "healthcare": "healthcare",
                  "utilities": "utilities", "consumer_discretionary": "retail", "materials": "materials"}
_RETURN_SECTORS = {"materials": "materials", "energy": "energy", "utilities": "utilities"}


def _half_down(value: Decimal) -> Decimal:
    return (value * 2).to_integral_value(rounding=ROUND_FLOOR) / 2


@pytest.mark.parametrize("card_sector", sorted(_FLOOR_SECTORS))
def test_the_large_cap_multiple_floor_is_half_the_registry_lowest_ordinary_multiple(card_sector):
    """Floor = pe_ratio low end x 0.65 (a 35% tax: EV/EBIT of an unlevered firm) / 2, rounded down to a half; the card
    keeps a $10B company at the floor and refuses it $10M of EBIT above."""
    sector = bundled_sectors().get(_FLOOR_SECTORS[card_sector])
    floor = _half_down(sector.ranges["pe_ratio"][0] * Decimal("0.65") / 2)
    assert floor >= 3
    ebit = Decimal(10_000) / floor  # $M, at the floor exactly ($10B EV)
    at = {"sector": card_sector, "enterprise_value": "$10B", "ebit": f"${ebit.quantize(Decimal('0.01'))}M"}
    above = {**at, "ebit": f"${(ebit + 10).quantize(Decimal('0.01'))}M"}
    assert_rule_case(GREEN, "a_large_cap_within_its_sector_multiple", at, False)
    assert_rule_case(GREEN, "a_large_cap_within_its_sector_multiple", above, True)


@pytest.mark.parametrize("card_sector", sorted(_RETURN_SECTORS))
def test_the_capital_heavy_return_cap_is_two_and_a_half_times_the_registry_high(card_sector):
    """Cap = 2.5 x the sector's highest ordinary return on capital; $10B of capital at the cap kept, $5M more
    EBIT refused ($20B EV: above the sectors' multiple floors; half of it plant, as a utility carries at least)."""
    sector = bundled_sectors().get(_RETURN_SECTORS[card_sector])
    cap = sector.ranges["return_on_capital"][1] * Decimal("2.5")
    ebit = cap * 10_000  # $M on $10B of capital
    at = {"sector": card_sector, "enterprise_value": "$20B", "ebit": f"${ebit.normalize():f}M",
          "net_working_capital": "$0", "net_fixed_assets": "$10B"}
    assert_rule_case(GREEN, "a_capital_heavy_large_cap_within_its_sector_return", at, False)
    assert_rule_case(GREEN, "a_capital_heavy_large_cap_within_its_sector_return",
                     {**at, "ebit": f"${(ebit + 5).normalize():f}M"}, True)


def test_the_subscription_price_floor_is_the_registry_cheapest_multiple_per_point():
    """4x at the low end of enterprise software's EV/revenue over 40 points at the top of its growth: 0.1x a point,
    the card's ``ev_to_arr >= 10 * revenue_growth``."""
    sector = bundled_sectors().get("enterprise_software")
    per_point = sector.ranges["ev_to_arr"][0] / (sector.ranges["revenue_growth"][1] * 100)
    assert per_point == Decimal("0.1")


# --------------------------------------------------------------------------- R4, the sector operator


@pytest.fixture(scope="module")
def acq():
    frame = build_frame([ACQ])
    return frame, load_base(SCENARIOS / ACQ / "ipb_p_011_b.yaml", frame)


def test_a_software_vendor_moved_to_industrial_automation_keeps_a_software_gross_margin(acq):
    """I 55: "subscription software" in industrial automation with a 42% gross margin (the sector's 35-55%). The
    profile keeps the model there (the paper's Table 9 perturbation A), and the model's own range (60-90%) is drawn."""
    frame, base = acq
    margins = set()
    for seed in range(12):
        step = get_operator("sector")(frame, base, random.Random(seed), "industrial_automation")
        facts = step.scenario.facts
        assert facts["business_model"] == "subscription_software"
        assert Decimal("0.60") <= facts["gross_margin"] <= Decimal("0.90"), facts["gross_margin"]
        margins.add(facts["gross_margin"])
    assert len(margins) > 3  # drawn, not pinned
    # a model the move changes takes the sector's range: materials makes it an industrial manufacturer at 15-35%
    step = get_operator("sector")(frame, base, random.Random(0), "materials")
    assert step.scenario.facts["business_model"] == "industrial_manufacturing"
    assert Decimal("0.15") <= step.scenario.facts["gross_margin"] <= Decimal("0.35")


def test_a_move_to_oil_and_gas_drops_the_software_retention(acq):
    """The base's "existing customers pay 95% of what they paid a year earlier" is no fact an oil producer
    reports; energy has no retention range, so the value was the software base's own."""
    frame, base = acq
    assert "revenue_retention" in base.facts
    for seed in range(4):
        step = get_operator("sector")(frame, base, random.Random(seed), "energy")
        assert "revenue_retention" not in step.scenario.facts
        assert step.details["omitted"] == ["revenue_retention"]


def test_the_registry_reads_a_model_range_and_refuses_a_model_no_sector_names():
    models = bundled_sectors().models
    assert models["subscription_software"]["gross_margin"] == (Decimal("0.60"), Decimal("0.90"))
    text = open(bundled_sectors().file, encoding="utf-8").read()
    with pytest.raises(IpbError) as err:
        load_sectors(text=text.replace("models:\n  subscription_software:", "models:\n  subscription_sofware:"))
    assert "model 'subscription_sofware' is no value of a sector's profile or allows" in str(err.value)
    assert "did you mean 'subscription_software'" in str(err.value)
    line = 1 + text[: text.index("  subscription_software:\n    gross_margin")].count("\n")
    assert f":{line}:" in str(err.value)
    with pytest.raises(IpbError) as err:
        load_sectors(text=text.replace("    gross_margin: [60%, 90%]", "    gros_margin: [60%, 90%]"))
    assert "model 'subscription_software' gives a range for unknown metric 'gros_margin'" in str(err.value)
    with pytest.raises(IpbError) as err:
        load_sectors(text=text.replace("    gross_margin: [60%, 90%]", "    gross_margin: [90%, 60%]"))
    assert "range of 'gross_margin' in model 'subscription_software' is empty" in str(err.value)
