"""The paper's worked item IPB-P-011 (Appendix A.2) and its perturbations (Table 9).

Expected values are the paper's; the valuation numbers are worked by hand from
the card's one general rule:
    intrinsic = ARR x 25% x (1 / 10% + 40 x growth)
    base: 5B x 0.25 x (10 + 10) = 25B      B: 5B x 0.25 x (10 + 6) = 20B
    A:    2B x 0.25 x (10 + 8)  = 9B  vs price 7 x 2B = 14B
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from ipb.engine.card import load_card
from ipb.engine.execute import execute
from ipb.engine.graph import compile_card
from ipb.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
CARD = ROOT / "frameworks" / "buffett_acquisition_checklist.yaml"
SCENARIOS = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist"


@pytest.fixture(scope="module")
def compiled():
    return compile_card(load_card(CARD))


def run(compiled, name, diagnostic=False):
    scenario = load_scenario(SCENARIOS / f"ipb_p_011_{name}.yaml", compiled.card)
    return execute(compiled, scenario.facts, diagnostic=diagnostic, scenario_id=scenario.id, layer=scenario.layer)


def test_card_matches_table_5_row(compiled):
    card = compiled.card
    assert (card.investor, card.name, card.topology_type, card.gate_logic) == (
        "Warren Buffett",
        "Buffett Acquisition Checklist",
        "linear_sequential",
        "conjunction",
    )
    assert len(card.gates) == 6 and len(card.kill_gates) == 6


def test_appendix_a2_reproduced_exactly(compiled):
    trace = run(compiled, "base")
    assert trace.verdicts() == ["PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "REJECT", "N/A"]
    assert trace.gate(4).computed["intrinsic_value"] == Decimal("25e9")
    assert trace.gate(4).computed["owner_earnings"] == Decimal("1.25e9")
    assert trace.gate(5).computed["price"] == Decimal("50e9")
    assert (trace.outcome, trace.trigger) == ("DECLINE", "gate_5_reject")
    grp = trace.to_grp()
    assert grp["question_id"] == "IPB-P-011" and grp["layer"] == "L7"
    assert grp["framework"] == "buffett_acquisition_checklist"
    assert grp["investment_verdict"] == "DECLINE" and grp["verdict_trigger"] == "gate_5_reject"
    gate5, gate6 = grp["gold_program"][4], grp["gold_program"][5]
    assert gate5 == {
        "gate": 5,
        "name": "Margin of Safety",
        "verdict": "REJECT",
        "kill_criterion": "price_exceeds_intrinsic_value",
        "required_elements": ["price $50B", "intrinsic ~$25B", "2x premium"],
        "kill_triggered": True,
        "computed_value": "price = $50B; premium = 2x",
    }
    assert gate6["verdict"] == "N/A" and gate6["kill_criterion"] == "terminated_by_gate_5"
    assert gate6["required_elements"] == []
    gate3 = grp["gold_program"][2]
    assert gate3["verdict"] == "INCONCLUSIVE" and gate3["required_elements"] == ["data_insufficiency_acknowledged"]
    assert "intrinsic_value = $25B" in grp["gold_program"][3]["computed_value"]


def test_grp_has_the_appendix_e_fields(compiled):
    grp = run(compiled, "base").to_grp()
    for gate in grp["gold_program"]:
        assert set(gate) == {"gate", "name", "verdict", "kill_criterion", "required_elements", "kill_triggered", "computed_value"}
    assert [g["gate"] for g in grp["gold_program"]] == [1, 2, 3, 4, 5, 6]


def test_table_9_perturbation_a_declines_at_gate_5(compiled):
    trace = run(compiled, "a")
    assert trace.gate(4).computed["intrinsic_value"] == Decimal("9e9")
    assert trace.gate(5).computed["price"] == Decimal("14e9")
    assert (trace.outcome, trace.trigger) == ("DECLINE", "gate_5_reject")


def test_table_9_perturbation_b_flips_to_invest(compiled):
    trace = run(compiled, "b")
    assert trace.verdicts() == ["PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "PROCEED", "PROCEED"]
    assert trace.gate(4).computed["intrinsic_value"] == Decimal("20e9")
    assert trace.gate(5).computed["price"] == Decimal("15e9")
    assert (trace.outcome, trace.trigger) == ("INVEST", "all_gates_cleared")


def test_table_9_perturbation_c_rejects_at_gates_5_and_6_in_diagnostic_mode(compiled):
    trace = run(compiled, "c", diagnostic=True)
    assert trace.gate(5).verdict.value == "REJECT"
    assert trace.gate(6).verdict.value == "N/A"
    assert trace.gate(6).diagnostic_verdict.value == "REJECT"
    assert (trace.outcome, trace.trigger) == ("DECLINE", "gate_5_reject")
    assert trace.to_grp()["gold_program"][5]["diagnostic_verdict"] == "REJECT"
    # Without the 2009 regime, gate 6 would have cleared: the regime is what rejects it.
    base = run(compiled, "base", diagnostic=True)
    assert base.gate(6).diagnostic_verdict.value == "PROCEED"


def test_one_valuation_rule_serves_every_scenario(compiled):
    """No per-scenario number: the same expressions give 25B and 20B."""
    gate = compiled.card.gate("intrinsic_value")
    assert set(gate.compute) == {"owner_earnings", "earnings_multiple", "intrinsic_value"}
    assert not any("25" in e.source or "20" in e.source for e in gate.compute.values())


def test_grp_json_is_deterministic(compiled):
    first = json.dumps(run(compiled, "base").to_grp(), sort_keys=True)
    again = json.dumps(run(compile_card(load_card(CARD)), "base").to_grp(), sort_keys=True)
    assert first == again
