"""Card ``constraints:``: the DSL, ipb check on scenarios, every operator's candidates, ipb verify."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.errors import ErrorGroup
from ipb.perturb import Job, generate, parse_recipes, verify_items, write_lines
from ipb.perturb.values import literal
from perturb_support import SCENARIOS

runner = CliRunner()

CARD = """\
id: spread_card
investor: Howard Marks
name: Spread check
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: One test.
vintage: {start: 1990}
sources:
  - {tier: 1, document: "Memo", year: 2000}
inputs:
  spread: {type: ratio, range: [1%, 20%], step: 0.5%}
  mood: {type: category, values: [optimistic, fearful]}
  a: {type: ratio, range: [0%, 100%], step: 5%}
  b: {type: ratio, range: [0%, 100%], step: 5%}
  c: {type: ratio, range: [0%, 100%], step: 5%}
constraints:
@BLOCK@
gates:
  - id: cheap
    name: Spread is wide
    proceed: spread > 6% and c >= 0%
    required_elements: [spread]
"""

GOOD = """\
  - id: wide_is_not_optimistic
    require: not (spread > 8% and mood == "optimistic")
    description: Wide spreads come with fear.
  - id: shares_sum_to_one
    derive: c
    value: 1 - a - b
"""


def card(block: str):
    return load_card_text(CARD.replace("@BLOCK@\n", block), "spread_card.yaml")


def test_constraints_load_and_judge_scenarios():
    c = card(GOOD)
    require, derive = c.constraints
    assert require.broken({"spread": Decimal("0.09"), "mood": "optimistic"})
    assert not require.broken({"spread": Decimal("0.08"), "mood": "optimistic"})  # 8% is not above 8%
    assert not require.broken({"spread": Decimal("0.09")}), "an unknown mood cannot break it (Kleene)"
    assert derive.derive == "c" and derive.value_for({"a": Decimal("0.25"), "b": Decimal("0.5")}) == Decimal("0.25")
    assert derive.broken({"a": Decimal("0.25"), "b": Decimal("0.5"), "c": Decimal("0.3")})
    assert not derive.broken({"a": Decimal("0.25"), "b": Decimal("0.5"), "c": Decimal("0.25")})


CONSTRAINT_ERRORS = [
    ("  - {id: x, require: 'sprad > 1%'}\n", "spread"),  # did-you-mean on an unknown name
    ("  - {id: x, require: 'spread + 1%'}\n", "bool"),
    ("  - {id: x}\n", "exactly one of 'require'"),
    ("  - {id: x, require: 'spread > 1%', derive: c, value: '1 - a'}\n", "exactly one of 'require'"),
    ("  - {id: x, derive: mood, value: '1 - a'}\n", "not a numeric input"),
    ("  - {id: x, derive: c}\n", "gives no 'value'"),
    ("  - {id: x, derive: c, value: '1 - c'}\n", "from itself"),
    ("  - {id: x, derive: c, value: '1 - a'}\n  - {id: z, derive: c, value: '1 - b'}\n", "derived twice"),
    ("  - {id: x, derive: c, value: '1 - a'}\n  - {id: z, derive: b, value: '1 - c'}\n", "another derived input"),
    ("  - {id: x, require: 'spread > 1%'}\n  - {id: x, require: 'spread < 30%'}\n", "duplicate constraint id"),
    ("  - {id: x, require: 'spread > 1%', when: z}\n", "when"),  # schema: no other keys
]


@pytest.mark.parametrize("block, words", CONSTRAINT_ERRORS, ids=[w for _, w in CONSTRAINT_ERRORS])
def test_bad_constraints_are_errors_with_positions(block, words):
    with pytest.raises(ErrorGroup) as err:
        card(block)
    text = " | ".join(e.render() for e in err.value.errors)
    assert words in text and "spread_card.yaml:" in text


def test_ipb_check_reports_a_scenario_that_breaks_a_constraint(tmp_path):
    path = tmp_path / "cycle.yaml"
    src = (SCENARIOS / "marks_market_cycle_positioning" / "cold_aggressive_2008.yaml").read_text()
    path.write_text(src.replace("investor_psychology: panicked", "investor_psychology: optimistic"))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "high_yield_spread" in t)
    assert f"cycle.yaml:{line}:" in result.output and "wide_spreads_are_not_euphoric" in result.output
    assert "high_yield_spread = 18%" in result.output


def _spread_ok(facts: dict) -> bool:
    """Marks' cycle relations written out independently of the engine (percent literals)."""
    spread = Decimal(facts["high_yield_spread"].rstrip("%")) / 100 if "high_yield_spread" in facts else None
    mood, capital = facts.get("investor_psychology"), facts.get("capital_availability")
    if (mood, capital) in (("panicked", "loose"), ("euphoric", "tight")):
        return False
    if spread is None:
        return True
    if spread > Decimal("0.08") and (mood in ("euphoric", "optimistic") or capital == "loose"):
        return False
    if spread < Decimal("0.04") and (mood in ("fearful", "panicked") or capital == "tight"):
        return False
    return True


@pytest.mark.parametrize("ops", ["metric", "flip", "isolate", "metric+isolate"])
def test_every_operator_respects_the_constraints(ops):
    card_id = "marks_market_cycle_positioning"
    base = SCENARIOS / card_id / "cold_defensive_increase_risk.yaml"  # 8.8%, fearful, tight
    result = generate(Job((card_id,), str(base), 5, parse_recipes(ops)), 20, allow_short=True)
    assert result.lines
    for line in result.lines:
        assert _spread_ok(json.loads(line)["scenario"]["facts"]), line[:300]


def test_rejections_are_counted_and_derived_inputs_computed():
    card_id = "dalio_all_weather_rebalancing"
    base = sorted((SCENARIOS / card_id).glob("*.yaml"))[0]
    result = generate(Job((card_id,), str(base), 0, parse_recipes("metric")), 100)
    (rep,) = result.recipes
    assert rep.rejected > 0 and rep.rejection_rate == rep.rejected / rep.attempts
    assert result.to_dict()["constraint_rejections"] == rep.rejected
    assert "broke a constraint" in result.summary()
    names = ["risk_share_rising_growth", "risk_share_falling_growth", "risk_share_rising_inflation",
             "risk_share_falling_inflation"]
    for line in result.lines:
        facts = json.loads(line)["scenario"]["facts"]
        shares = [Decimal(facts[n].rstrip("%")) for n in names]
        assert sum(shares) == 100 and min(shares) >= 0, facts


def test_verify_flags_an_item_that_breaks_a_constraint(tmp_path):
    card_id = "marks_market_cycle_positioning"
    base = SCENARIOS / card_id / "cold_aggressive_2008.yaml"
    result = generate(Job((card_id,), str(base), 0, parse_recipes("metric")), 3)
    items = [json.loads(line) for line in result.lines]
    items[1]["scenario"]["facts"]["investor_psychology"] = "optimistic"
    items[1]["scenario"]["facts"]["high_yield_spread"] = "15%"
    path = tmp_path / "items.jsonl"
    write_lines(path, [json.dumps(i) for i in items])
    check = verify_items(path)
    assert not check.ok and [c.record for c in check.violations] == [2]
    assert "wide_spreads_are_not_euphoric" in check.violations[0].constraints[0]
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
