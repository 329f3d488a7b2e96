"""s62sector (issue 18 bar line 2, REVIEW_s61 F7): no scenario states an input its stated business model or sector
omits, whichever operator made it.

Regression kind: a flip anchor moved the Buffett base's business model to industrial manufacturing and kept
"Existing customers pay 101% of what they paid a year earlier" (IPB-P-011-A-cf7eca5e0ab57a00, seed 61), although
``frameworks/sectors.yaml`` ``models:`` says a manufacturer states no revenue retention (the sector operator drops
it). The rule now lives in :mod:`ipb.perturb.sector_registry` and :meth:`Frame.violations` applies it under
``sectors/omits``: the candidate is refused and another drawn (not repaired by dropping the fact: the flip's
verdict change was found with the fact stated, and an item without it would carry a different verdict change).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

import ipb
from ipb.perturb import Job, generate
from ipb.perturb import operators, undisclosed
from ipb.perturb.frame import build_frame
from ipb.perturb.registries import bundled_sectors
from ipb.perturb import sector_registry
from ipb.perturb.sector_registry import (OMITS_LABEL, SECTOR_RANGE_LABEL, context_omits, omission_rule,
                                        stated_omissions)

from perturb_support import ROOT, SCENARIOS

BUFFETT = "buffett_acquisition_checklist"

#: IPB-P-011-A-cf7eca5e0ab57a00 (REVIEW_s61 F7): the facts the reviewed item stated.
_F7 = {"arr": "$2B", "business_model": "industrial_manufacturing", "ev_to_arr": "3x", "gross_margin": "84%",
       "macro_regime": "expansion", "net_income": "$0", "revenue_growth": "20%", "revenue_retention": "101%",
       "sector": "industrial_automation"}

#: frameworks/sectors.yaml ``models:``: the six business models whose ``omits:`` is [revenue_retention] (read by hand).
_OMITTING_MODELS = {"airline", "railroad", "retail", "consumer_brand", "industrial_manufacturing", "utility"}


def _violations(facts: dict[str, str]) -> list[str]:
    frame = build_frame([BUFFETT])
    return frame.violations(ipb.facts(BUFFETT, facts))


def test_the_reviewed_f7_item_breaks_the_omission_rule_and_nothing_else():
    # since s65sector the reviewed item also breaks sectors/sector_range: an industrial manufacturer at an 84% gross
    # margin growing 20% a year is outside industrial automation's 35-55% and 0-15% (frameworks/sectors.yaml)
    assert _violations(_F7) == [OMITS_LABEL, SECTOR_RANGE_LABEL]
    assert _violations({k: v for k, v in _F7.items() if k != "revenue_retention"}) == [SECTOR_RANGE_LABEL]
    # inside the sector's ranges (45%, 10%) the stated retention is the one fault, and its neighbour keeps every rule
    in_range = {**_F7, "gross_margin": "45%", "revenue_growth": "10%"}
    assert _violations(in_range) == [OMITS_LABEL]
    kept = {k: v for k, v in in_range.items() if k != "revenue_retention"}
    assert _violations(kept) == []
    # a software vendor in the same sector states it: kept (its 84% is the model's own range, 60-90%)
    assert _violations({**_F7, "business_model": "subscription_software", "gross_margin": "84%",
                        "revenue_growth": "10%"}) == []


def test_a_sector_omission_is_refused_too():
    """financials omits gross_margin, revenue_retention, net_working_capital and net_fixed_assets (sectors.yaml)."""
    # growth 10%, inside financials' 0-12% (the sectors/sector_range rule since s65sector; _F7's 20% breaks it)
    bank = {**_F7, "business_model": "banking", "sector": "financials", "net_income": "$300M", "revenue_growth": "10%"}
    del bank["revenue_retention"], bank["gross_margin"]
    assert _violations(bank) == []
    assert _violations({**bank, "gross_margin": "40%"}) == [OMITS_LABEL]
    frame = build_frame([BUFFETT])
    assert sorted(stated_omissions(frame, {"sector": "financials"})) == ["gross_margin", "revenue_retention"]
    assert context_omits(frame, {"gross_margin": 1}, "financials") and not context_omits(frame, {}, "financials")


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(["subscription_software", "consumer_brand", "insurance", "banking", "railroad", "utility",
                              "retail", "industrial_manufacturing", "pre_revenue_technology", "speculative_biotech",
                              "crypto_asset", "airline"]),
       retention=st.sampled_from([None, "80%", "101%", "120%"]))
def test_the_rule_refuses_exactly_an_omitting_model_with_a_stated_retention(model, retention):
    frame = build_frame([BUFFETT])
    fn, names = omission_rule(frame)
    assert {"business_model", "sector", "revenue_retention", "gross_margin"} <= names
    facts = {"business_model": model}  # no sector stated: only the model's omits: apply
    if retention is not None:
        facts["revenue_retention"] = ipb.facts(BUFFETT, {"revenue_retention": retention})["revenue_retention"]
    assert fn(facts) is (retention is None or model not in _OMITTING_MODELS)


def test_the_seed_61_run_states_no_omitted_input():
    """The review's run (first base, --n 200 --seed 61, default operators): 14 of its 200 items stated a revenue
    retention beside an omitting model before (counted on /tmp/s61review/before), the reviewed one among them."""
    result = generate(Job((BUFFETT,), str(SCENARIOS / BUFFETT / "ipb_p_011_a.yaml"), 61), 200)
    frame = build_frame([BUFFETT])
    items = [json.loads(line) for line in result.lines]
    assert len(items) == 200
    stating = [it["id"] for it in items
               if stated_omissions(frame, it["scenario"]["facts"], it["manifest"]["context"]["sector"])
               & set(it["scenario"]["facts"])]
    assert stating == []
    assert "IPB-P-011-A-cf7eca5e0ab57a00" not in {it["id"] for it in items}
    # the flip anchors still move the model: an omitting one without the retention figure is kept
    assert any(it["scenario"]["facts"].get("business_model") in _OMITTING_MODELS for it in items)


def test_one_rule_for_the_operators_the_question_and_the_frame():
    """Stop 61's final read: operators and undisclosed read the sector-omission rule from the registry module, and
    undisclosed no longer imports operators' private helpers."""
    assert operators._omitted_inputs is sector_registry.omitted_inputs
    assert operators._model_omitted_inputs is sector_registry.model_omitted_inputs
    assert operators._sector_metric_inputs is sector_registry.sector_metric_inputs
    assert operators.metric_inputs is sector_registry.metric_inputs
    assert undisclosed.stated_omissions is sector_registry.stated_omissions
    tree = ast.parse((ROOT / "perturb" / "undisclosed.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "ipb.perturb.operators" not in imported


def test_registry_find_does_not_raise():
    reg = bundled_sectors()
    assert reg.find("financials") is reg.get("financials")
    assert [reg.find(x) for x in ("Financials", "banks", "", None, 3, True)] == [None] * 6


# --------------------------------------------------------------------------- F8: a technology company's size by date
LYNCH = "lynch_six_category_framework"

#: IPB-LYN-SC-003-8d8a036ba3aab6c5 (REVIEW_s61 F8, 1983-06-30): the facts the reviewed item stated.
_F8 = {"cyclical_industry": False, "debt_share": "34%", "distressed": False, "dividend_yield": "0%",
       "earnings_growth": "25%", "expansion_room": True, "hidden_asset_value": "$0", "market_cap": "$21.48B",
       "pe_ratio": "10.5x", "sector": "technology", "total_debt": "$1.37B"}


def _dated(facts: dict, when) -> list[str]:
    from perturb_support import anachronisms_of

    return anachronisms_of(LYNCH, facts, when)


def test_the_reviewed_f8_item_is_an_anachronism_and_its_neighbours_are_not():
    """regimes.yaml sizes.sectors: a non-IBM technology company's share of the year's $110B bound is 0.12 in
    1980-86 ($13.2B), 0.25 in 1987-89 ($27.5B), 1 before 1980 and from 1992 (hand-worked: 0.12 x $110B)."""
    import datetime as dt

    day = dt.date(1983, 6, 30)
    assert _dated(_F8, day) == ["market_cap $21.48B (above the largest non-IBM technology company's market value "
                                "about 1983, $13.2B: 12% of the largest US company's)"]
    assert _dated({**_F8, "market_cap": "$13.2B", "total_debt": "$0.8B"}, day) == []  # the edge, kept
    assert len(_dated({**_F8, "market_cap": "$13.3B", "total_debt": "$0.8B"}, day)) == 1
    assert _dated({**_F8, "sector": "industrials"}, day) == []  # the bound is the technology sector's
    assert _dated(_F8, 1979) == [] and _dated(_F8, 1992) == []  # the table speaks for 1980-91 only
    assert _dated({**_F8, "market_cap": "$27.5B"}, 1987) == []  # DEC's August 1987 peak, $25.5B, rounded up
    assert len(_dated({**_F8, "market_cap": "$27.6B"}, 1987)) == 1


def test_the_lynch_seed_61_run_states_no_technology_company_above_the_bound():
    """The review's Lynch run (decline_fast_grower_overpriced, 1983-06-30, --n 200 --seed 61): 8 of its 200 items
    stated a technology company above $13.2B before (counted on /tmp/s61review/before), the reviewed one among them."""
    from ipb.perturb.registries import bundled_regimes

    result = generate(Job((LYNCH,), str(SCENARIOS / LYNCH / "decline_fast_grower_overpriced.yaml"), 61), 200)
    items = [json.loads(line) for line in result.lines]
    assert len(items) == 200
    tech = [ipb.facts(LYNCH, it["scenario"]["facts"]) for it in items
            if it["scenario"]["facts"].get("sector") == "technology" and it["scenario"]["as_of"] == "1983-06-30"]
    assert tech and all(f["market_cap"] <= 13_200_000_000 for f in tech if "market_cap" in f)
    assert "IPB-LYN-SC-003-8d8a036ba3aab6c5" not in {it["id"] for it in items}
    assert bundled_regimes().size_bound(1983) == 110_000_000_000
