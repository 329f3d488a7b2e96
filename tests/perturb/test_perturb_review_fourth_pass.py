"""Regression (contradictory facts): the fourth issue 18 review (s28review2), on four cards outside the 10-card review.

``/work/notes/s28review2.md`` made ``ipb perturb --card C --base B --n 1000
--seed 2030`` on the first bundled base of Klarman deep value, Munger
quality/price, NBIM exclusion screen and Soros reflexive trade, and read 20
items per card picked with ``random.Random(30)``. Each rule below is the
review's own arithmetic on the engine's reading of every item's facts in the
same run; it names the finding, applies to at least ``least`` items (so it is
exercised), and failed on the cards before their fix (counts beside each).
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from perturb_support import assert_relation_on_run

SEED = 2030  # the review's seed

KLA = ("klarman_deep_value_identification", "decline_growth_valuation.yaml")
MUN = ("munger_business_quality_price", "fair_business_wonderful_price.yaml")
NBIM = ("nbim_gpfg_exclusion_screen", "gate3_inconclusive_decision_pending.yaml")
SOR = ("soros_reflexive_hypothesis_trade_construction", "bias_unclear_gate1_inconclusive.yaml")

_UNLISTED_NO_COAL = ("unlisted_real_estate", "unlisted_renewable_infrastructure")


def _coal(f: dict) -> bool:
    """Any thermal coal income, extraction or power capacity stated."""
    return (f.get("thermal_coal_share", 0) > 0 or f.get("thermal_coal_extraction", 0) > 0
            or f.get("coal_power_capacity", 0) > 0)


#: (card and base, rule name with the finding, applies(facts) -> bool, holds(facts) -> bool, least items it applies to).
#: On the cards before this review, on the same runs: 307 (of 805), 182, 142, 32 and 30 items broke the rules, in order.
RULES = [
    (KLA, "no catalyst identified has no time until the catalyst ('not identified', 17 months)",
     lambda f: f.get("catalyst") == "none", lambda f: f.get("catalyst_months") is None, 300),
    (MUN, "long-run growth within the return on capital, none without a return (6% with 18%, 15% with 18%)",
     lambda f: "long_run_growth" in f and "return_on_capital" in f,
     lambda f: f["long_run_growth"] <= max(f["return_on_capital"], D(0)), 500),
    (NBIM, "a Board decision answers a Council recommendation ('recommended nothing', 'not yet decided')",
     lambda f: "council_recommendation" in f and "norges_bank_decision" in f,
     lambda f: (f["council_recommendation"] == "none") == (f["norges_bank_decision"] == "no_case"), 500),
    (NBIM, "a company with coal is no unlisted real estate or renewables asset (real estate with 56,500 MW of coal)",
     lambda f: _coal(f) and "asset_type" in f, lambda f: f["asset_type"] not in _UNLISTED_NO_COAL, 500),
    (SOR, "a hypothesis the market has borne out has at least one confirmation (Yes beside 0)",
     lambda f: f.get("hypothesis_confirmed") is True and "confirmation_rounds" in f,
     lambda f: f["confirmation_rounds"] >= 1, 500),
]


@pytest.mark.parametrize("card_base,name,applies,holds,least", RULES, ids=[f"{r[0][0]}: {r[1][:40]}" for r in RULES])
def test_fourth_review_relation_holds_on_every_item(card_base, name, applies, holds, least):
    """One relation per finding; it applies to at least ``least`` items of the 1,000 and holds on each."""
    assert_relation_on_run(*card_base, SEED, name, applies, holds, least)
