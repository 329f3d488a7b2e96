"""s56rfix: s56review's strict kinds (issue 18 bar: no fact contradicts another or its date).

Each kind has rule cases worked by hand (a review item's facts refused, its neighbour kept) and a run of the
review's own ('ipb perturb --card C --base B --n 1000 --seed 11313', the bases s56review read) asserting the kind's
count is 0; before -> after counts are in /work/notes/s56review.md. Each run test fails without its fix (checked by
putting the previous card or regimes.yaml back).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from perturb_support import assert_rule_case, review_run

SEED = 11313
CPPIB = "cppib_total_portfolio_active_strategy"
ALL_WEATHER = "dalio_all_weather_portfolio_construction"
PIF = "pif_dual_kill_investment_screen"

# --------------------------------------------------------------------------- kind 1: CPPIB's benchmark and its date
#
# s56review (gate3_alpha_eaten_by_fees, 31 March 2023): #921 "Decision date: 2023-03-31" beside a risk-equivalent
# equity and bond mix that returned 20.5% a year over the evaluation period, #809 -4.5% (417 of 1,000 dated items with
# the benchmark's return moved, 143 of them outside -3% to 15%). regimes.yaml now lists the benchmark's return among
# the facts that describe the day, so a moved one makes the item undated.


def test_the_benchmark_return_describes_the_day():
    from ipb.perturb.registries import bundled_regimes

    state = bundled_regimes().market_state
    assert "benchmark_return" in state
    assert "strategy_return" not in state and "factor_return" not in state  # the strategy's own figures keep the date


def test_cppib_items_date_only_the_bases_benchmark():
    run = review_run(CPPIB, "gate3_alpha_eaten_by_fees.yaml", SEED)
    base = Decimal("0.06")
    dated_moved = [item["id"] for item, f in run if item["manifest"]["context"]["as_of"]
                   and f.get("benchmark_return") is not None and f["benchmark_return"] != base]
    assert dated_moved == []
    moved = [f["benchmark_return"] for _, f in run if f.get("benchmark_return") not in (None, base)]
    assert len(moved) >= 300, len(moved)            # the benchmark is still moved (undated)
    assert max(moved) > Decimal("0.15") and min(moved) < Decimal("-0.03")   # over its whole range
    assert sum(1 for item, _ in run if item["manifest"]["context"]["as_of"]) >= 300  # dated items remain
