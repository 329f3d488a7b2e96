"""s56fixdsc (issue 18, strict coherence): ``temporal`` kept facts that describe the base's market.

Dalio's debt-supercycle card lists ``foreign_currency_debt_share``, ``bubble_signals`` and ``debt_growth_gap`` under
``market_state`` of frameworks/regimes.yaml, yet every one of the 49 temporal items over its 13 bases (seed 5601)
kept them from the base's date: DAL-DSC-010-5293af64194886f3, a "stylised emerging economy" with 65% of its debt in
dollars on 31 August 2018, moved to 23 March 2020 beside the US pandemic regime's 0.25% policy rate; a bubble base's
"5 of Dalio's seven bubble indicators" on the same day ("stocks at their low"). ``temporal`` now drops a market-state
input the regime gives no figure for, as it already dropped such macro facts (s36review), and keeps a derived one
(recomputed from its sources). Count over the 13 bases at seed 5601: 49 of 49 dated items keeping one -> 0 of 52.
Without the fix in perturb/operators.py (``_uncovered``) the hand-worked and run tests below fail.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from ipb.perturb import build_frame, get_operator, load_base
from perturb_support import SCENARIOS, review_run

DSC = "dalio_debt_supercycle_navigation"
MARKET = ("foreign_currency_debt_share", "bubble_signals", "debt_growth_gap")


def _moved(base: str, regime: str):
    frame = build_frame([DSC])
    scenario = load_base(SCENARIOS / DSC / base, frame)
    return scenario, get_operator("temporal")(frame, scenario, random.Random(0), regime)


def test_the_three_facts_are_market_state():
    from ipb.perturb.registries import bundled_regimes

    state = bundled_regimes().market_state
    assert all(name in state for name in MARKET)


def test_dollar_debt_base_moved_to_2020_drops_the_dollar_share():
    # Hand-worked: the base states foreign_currency_debt_share 65%, policy_rate 40%, real_gdp_growth -2%, tightening.
    # pandemic_2020 sets policy 0.25%, ten-year 0.8%, stance printing; it gives no past-year real growth (dropped,
    # s38) and no dollar share (dropped now); the slope is derived: 0.8% - 0.25% = 0.55%.
    base, step = _moved("dollar_debt_kill.yaml", "pandemic_2020")
    assert base.facts["foreign_currency_debt_share"] == Decimal("0.65")
    facts = step.scenario.facts
    assert "foreign_currency_debt_share" not in facts
    assert step.details["dropped"] == ["foreign_currency_debt_share", "real_gdp_growth"]
    assert step.scenario.as_of.isoformat() == "2020-03-23"
    assert facts["policy_rate"] == Decimal("0.0025") and facts["long_bond_yield"] == Decimal("0.008")


def test_bubble_base_moved_to_2020_keeps_no_bubble_count():
    base, step = _moved("bubble_stay_invested.yaml", "pandemic_2020")
    assert base.facts["bubble_signals"] == 5 and "debt_growth_gap" in base.facts
    for name in ("bubble_signals", "debt_growth_gap"):
        assert name not in step.scenario.facts and name in step.details["dropped"]


def test_derived_market_state_is_recomputed_not_dropped():
    # early_add_risk states the slope 2% (6% - 4%); after 2009 (ten-year 2.9%, policy 0.25%) it is 2.65%.
    base, step = _moved("early_add_risk.yaml", "credit_crisis_2009")
    assert base.facts["yield_curve_slope"] == Decimal("0.02")
    assert "yield_curve_slope" not in step.details["dropped"] and "yield_curve_slope" in step.scenario.facts
    assert "foreign_currency_debt_share" in step.details["dropped"]


@pytest.mark.parametrize("base", sorted(p.name for p in (SCENARIOS / DSC).glob("*.yaml")))
def test_no_dated_temporal_item_keeps_a_market_fact(base):
    run = review_run(DSC, base, 5601)
    dated = [item for item, f in run if item["manifest"]["context"].get("regime")
             and item["manifest"]["context"].get("as_of")]
    assert len(dated) >= 4                          # the run has temporal items to judge
    kept = [item["id"] for item in dated if any(n in item["scenario"]["facts"] for n in MARKET)]
    assert kept == []
    for item in dated:                              # the derived slope is the regime's ten-year minus its policy rate
        if item["manifest"]["context"]["regime"] == "credit_crisis_2009" and "yield_curve_slope" in item["scenario"]["facts"]:
            assert item["scenario"]["facts"]["yield_curve_slope"] == "2.65%"
