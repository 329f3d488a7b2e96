"""Regression (verify passed an old item stating a quarter's annualised GDP as the year's growth; s39, issue 18).

Before the s38 period fix, temporal displacement copied a regime fact's ``value`` into every input standing for
it: a Dalio item dated 2009-03-09 said "real GDP growth over the past year is -6.2%", which is Q4 2008 at an
annual rate (the four quarters to Q4 2008 fell 0.8%). Such an item is consistent with itself (its question is
the one written for its facts, its gold is right for them), so ``ipb verify`` passed it. The old behaviour is
rebuilt here by making temporal copy ``value`` whatever the input's period, as it did.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ipb.perturb.operators as operators
from ipb.engine.registry import compiled_card
from ipb.perturb import verify_items, write_lines
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.items import build_item
from perturb_support import SCENARIOS

DALIO = "dalio_debt_supercycle_navigation"
BASE = SCENARIOS / DALIO / "top_rotate_to_bonds.yaml"


def _crisis_item() -> dict[str, Any]:
    """The Dalio base dated into the 2009 regime by the temporal operator, as an item."""
    frame = build_frame([compiled_card(DALIO)])
    base = load_base(BASE, frame)
    step = operators.get_operator("temporal")(frame, base, random.Random(0), "credit_crisis_2009")
    item = build_item(frame, base, step.scenario, [step], recipe="temporal", args=["credit_crisis_2009"], seed=0,
                      attempt=0)
    return json.loads(json.dumps(item))


@pytest.fixture(scope="module")
def old_and_new() -> tuple[dict[str, Any], dict[str, Any]]:
    new = _crisis_item()
    with pytest.MonkeyPatch.context() as mp:  # the perturb of before s38: the fact's value, whatever the period
        mp.setattr(operators, "period_value", lambda spec, metric, fact: fact.value)
        old = _crisis_item()
    return old, new


def test_an_old_item_with_the_annualised_quarter_as_the_years_growth_is_reported(old_and_new, tmp_path):
    item, _ = old_and_new
    assert item["scenario"]["facts"]["real_gdp_growth"] == "-6.2%"  # what the old perturb wrote
    path = tmp_path / "old.jsonl"
    write_lines(path, [json.dumps(item)])
    result = verify_items(path)
    assert not result.ok
    check = result.checks[0]
    assert check.id == item["id"] and check.status == "mismatch" and not check.gold_differs
    wrong = [p for p in check.inconsistencies if p.startswith("fact real_gdp_growth")]
    assert wrong == ["fact real_gdp_growth = -6.2% is regime credit_crisis_2009's real_gdp_growth for the latest "
                     "quarter at an annual rate, but the input is worded over the past year (the regime's figure over "
                     "the past year is -0.8%): the item was made before the period fix (s38); make it again with this "
                     "ipb's ipb perturb"]
    # nominal growth has no four-quarter figure in the registry: stated at all, it is reported as such
    nominal = [p for p in check.inconsistencies if p.startswith("fact nominal_gdp_growth")]
    assert len(nominal) == ("nominal_gdp_growth" in item["scenario"]["facts"])
    assert all("gives no figure over the past year" in p for p in nominal)


def test_an_item_made_now_states_the_years_figure_and_is_not_reported(old_and_new, tmp_path):
    _, item = old_and_new
    assert item["scenario"]["facts"]["real_gdp_growth"] == "-0.8%"
    path = tmp_path / "new.jsonl"
    write_lines(path, [json.dumps(item)])
    check = verify_items(path).checks[0]
    # the bare operator step is not repaired as ipb perturb repairs it (a yield-curve constraint may break): only
    # the item's agreement with itself is asserted here
    assert check.inconsistencies == [] and not check.gold_differs, check.problems
