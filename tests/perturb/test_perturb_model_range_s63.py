"""Stop 63 (issue 18 bar line 2, stop 62's weak Buffett item): every operator keeps a stated metric inside its stated
business model's own range (frameworks/sectors.yaml ``models:``; ``Frame.violations`` label ``sectors/model_range``,
perturb/sector_registry.py ``model_range_rule``). Before s63items only the sector move read these ranges, and the
isolate and metric moves wrote "subscription software" at a 35% gross margin (IPB-P-011-A-03dd043c271eb04f, review
run ``--n 200 --seed 61`` on ipb_p_011_a.yaml: 18 of 200 items outside 60-90%).
"""

from __future__ import annotations

import json
from decimal import Decimal

from ipb.perturb import Job, parse_recipes
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.generation import write_items
from ipb.perturb.sector_registry import MODEL_RANGE_LABEL
from perturb_support import BUFFETT, SCENARIOS

FRAME = build_frame([BUFFETT])
BASE_A = SCENARIOS / BUFFETT / "ipb_p_011_a.yaml"


def _facts(**changes):
    facts = dict(load_base(BASE_A, FRAME).facts)
    facts.update(changes)
    return facts


def test_subscription_software_below_its_models_gross_margin_breaks_the_rule():
    # models: subscription_software: gross_margin [60%, 90%]; both ends hold, a point past either breaks
    for margin, broken in (("0.35", True), ("0.59", True), ("0.60", False), ("0.90", False), ("0.91", True)):
        got = FRAME.violations(_facts(business_model="subscription_software", gross_margin=Decimal(margin)))
        assert (MODEL_RANGE_LABEL in got) is broken, (margin, got)


def test_a_model_without_its_own_range_is_not_held_to_one():
    # industrial_manufacturing lists only omits: (revenue_retention) under models:, no ranges
    facts = _facts(business_model="industrial_manufacturing", gross_margin=Decimal("0.35"))
    facts.pop("revenue_retention", None)
    assert MODEL_RANGE_LABEL not in FRAME.violations(facts)


def test_a_base_that_itself_breaks_the_range_keeps_its_items():
    # as the omission rule (s62sector, base_states): a user's base at 50% reads the rule as holding, so its moves
    # are judged as before stop 63; from the bundled base at 90% the same move to 40% is refused
    low = _facts(business_model="subscription_software", gross_margin=Decimal("0.50"))
    assert MODEL_RANGE_LABEL not in FRAME.violations_from(low, {**low, "gross_margin": Decimal("0.40")},
                                                          ["gross_margin"])
    good = _facts()
    assert good["gross_margin"] == Decimal("0.90")
    assert MODEL_RANGE_LABEL in FRAME.violations_from(good, {**good, "gross_margin": Decimal("0.40")},
                                                      ["gross_margin"])


def test_isolate_and_metric_moves_keep_subscription_software_at_a_software_margin(tmp_path):
    out = tmp_path / "items.jsonl"
    write_items(out, Job((BUFFETT,), str(BASE_A), 61, parse_recipes("isolate,metric")), 120)
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(items) == 120
    low = [it["id"] for it in items if it["scenario"]["facts"].get("business_model") == "subscription_software"
           and not Decimal("60") <= Decimal(it["scenario"]["facts"]["gross_margin"].rstrip("%")) <= Decimal("90")]
    assert low == []
