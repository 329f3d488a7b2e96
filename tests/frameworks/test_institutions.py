"""The three institutional cards (paper §5.3) and their compound kill criteria (CKCA, paper §7.10).

Every expected trace below is worked out by hand from the card's rules, in
the comment above it; none is copied from the engine's output. The point of
each test is that the trace says *which* kill component fired: each
component is its own gate, and ``kill_triggered`` is true exactly on the
gates whose kill criterion fired.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from ipb.engine.execute import Trace, execute
from ipb.engine.registry import card_table, compiled_card
from ipb.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "frameworks" / "scenarios"

NBIM = "nbim_gpfg_exclusion_screen"
CPPIB = "cppib_total_portfolio_active_strategy"
PIF = "pif_dual_kill_investment_screen"


def run(card_id: str, scenario: str | None = None, **facts: Any) -> Trace:
    """Execute ``card_id`` on a bundled scenario file, with ``facts`` overriding or adding."""
    compiled = compiled_card(card_id)
    base: dict[str, Any] = {}
    if scenario is not None:
        base = dict(load_scenario(SCENARIOS / card_id / f"{scenario}.yaml", compiled.card).facts)
    base.update(facts)
    return execute(compiled, base)


def fired(trace: Trace) -> list[tuple[int, str]]:
    """The kill components that fired: (gate number, kill criterion)."""
    return [(r.gate.number, r.gate.kill_criterion) for r in trace.gates if r.kill_triggered]  # type: ignore[misc]


# --------------------------------------------------------------------------- card shape


@pytest.mark.parametrize(
    "card_id, investor, topology, logic, gates, kill_positions, kill_labels",
    [
        (NBIM, "NBIM (Norges Bank Investment Management)", "parallel_threshold", "conjunction", 5, [2, 3, 5],
         ["product_based_exclusion", "conduct_based_exclusion", "mandate_investment_restriction"]),
        (CPPIB, "CPPIB (Canada Pension Plan Investment Board)", "linear_sequential", "conjunction", 4, [2],
         ["factor_substitutable"]),
        (PIF, "PIF (Public Investment Fund of Saudi Arabia)", "parallel_threshold", "conjunction", 3, [2, 3],
         ["irr_below_hurdle", "not_aligned_with_vision_2030"]),
    ],
)
def test_institutional_card_has_the_ckca_kill_gates(card_id, investor, topology, logic, gates, kill_positions, kill_labels):
    card = compiled_card(card_id).card
    assert card.kind == "institution"
    assert card.investor == investor
    assert (card.topology_type, card.gate_logic, len(card.gates)) == (topology, logic, gates)
    assert [g.number for g in card.kill_gates] == kill_positions
    assert [g.kill_criterion for g in card.kill_gates] == kill_labels
    assert all(s.tier == 2 for s in card.sources), "institutional frameworks are documented from Tier-2 sources"
    assert all(g.source is not None and g.source.tier == 2 for g in card.gates)


def test_catalog_lists_institutions_after_practitioners():
    cards = [compiled_card(c).card for c in ("buffett_acquisition_checklist", NBIM, CPPIB, PIF)]
    rows = card_table(cards)
    assert [r["kind"] for r in rows] == ["practitioner", "institution", "institution", "institution"]
    assert [(r["gates"], r["kill_gates"]) for r in rows[1:]] == [(5, 3), (4, 1), (3, 2)]


# --------------------------------------------------------------------------- NBIM: three independent kill gates


# Gate 1 PROCEEDs for a non-Norwegian listed equity. Gate 2 rejects on weapons
# or tobacco, or on a coal threshold (share >= 30%, extraction > 20 Mt,
# capacity > 10,000 MW) without a credible transition. Gate 3 rejects when
# Norges Bank decided "exclude". Gate 4 rejects on a risk-based divestment
# (no kill criterion). Gate 5 rejects on a Ministry restriction. Parallel
# conjunction: every gate runs; the first REJECT names the trigger.
NBIM_CASES = [
    # scenario, verdicts, outcome, trigger, fired components
    ("hold_clean_industrial", ["PROCEED"] * 5, "HOLD", "all_gates_cleared", []),
    # tobacco_producer = true -> gate 2 REJECT (K2) alone; the rest PROCEED.
    ("k2_tobacco_producer", ["PROCEED", "REJECT", "PROCEED", "PROCEED", "PROCEED"], "DIVEST", "gate_2_reject",
     [(2, "product_based_exclusion")]),
    # norges_bank_decision = exclude -> gate 3 REJECT (K3) alone.
    ("k3_council_on_ethics_exclusion", ["PROCEED", "PROCEED", "REJECT", "PROCEED", "PROCEED"], "DIVEST",
     "gate_3_reject", [(3, "conduct_based_exclusion")]),
    # ministry_restriction = true -> gate 5 REJECT (K5) alone.
    ("k5_ministry_restriction", ["PROCEED", "PROCEED", "PROCEED", "PROCEED", "REJECT"], "DIVEST", "gate_5_reject",
     [(5, "mandate_investment_restriction")]),
    # 45% >= 30% coal share with no credible transition -> gate 2 REJECT; and the
    # bank excluded for environmental damage -> gate 3 REJECT. Both visible; the
    # trigger is the first, gate 2.
    ("k2_and_k3_coal_miner", ["PROCEED", "REJECT", "REJECT", "PROCEED", "PROCEED"], "DIVEST", "gate_2_reject",
     [(2, "product_based_exclusion"), (3, "conduct_based_exclusion")]),
    # Recommendation "exclusion", decision "pending": gate 3 reject is false and
    # proceed is false -> INCONCLUSIVE; no REJECT anywhere, but every exclusion
    # screen is decisive (issue 15) -> the holding is undecided.
    ("gate3_inconclusive_decision_pending", ["PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "PROCEED"], "INCONCLUSIVE",
     "gate_3_inconclusive", []),
    # A risk-based divestment rejects at gate 4, which has no kill criterion:
    # the fund sells, but no CKCA component fired.
    ("gate4_risk_based_divestment", ["PROCEED", "PROCEED", "PROCEED", "REJECT", "PROCEED"], "DIVEST",
     "gate_4_reject", []),
]


@pytest.mark.parametrize("scenario, verdicts, outcome, trigger, components", NBIM_CASES, ids=[c[0] for c in NBIM_CASES])
def test_nbim_trace_names_every_firing_component(scenario, verdicts, outcome, trigger, components):
    trace = run(NBIM, scenario)
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    assert fired(trace) == components


def test_nbim_all_three_components_fire_together_and_the_grp_marks_each():
    # Weapons producer (gate 2), excluded by the bank (gate 3), under a Ministry
    # order (gate 5): three REJECTs, each with kill_triggered; gate 4 PROCEEDs.
    trace = run(NBIM, "hold_clean_industrial", weapons_violating_humanitarian_principles=True,
                council_recommendation="exclusion", norges_bank_decision="exclude", ministry_restriction=True)
    grp = trace.to_grp()
    assert [g["kill_triggered"] for g in grp["gold_program"]] == [False, True, True, False, True]
    assert [g["kill_criterion"] for g in grp["gold_program"]] == [
        None, "product_based_exclusion", "conduct_based_exclusion", None, "mandate_investment_restriction"]
    assert (grp["investment_verdict"], grp["verdict_trigger"]) == ("DIVEST", "gate_2_reject")


@pytest.mark.parametrize(
    "facts, verdict",
    [
        # exactly 30% is "30% or more" -> REJECT
        ({"thermal_coal_share": Decimal("0.30"), "credible_coal_transition": False}, "REJECT"),
        # 29% share, 20 Mt (not more than 20), 10,000 MW (not more than 10,000) -> PROCEED
        ({"thermal_coal_share": Decimal("0.29"), "thermal_coal_extraction": Decimal(20),
          "coal_power_capacity": Decimal(10000), "credible_coal_transition": False}, "PROCEED"),
        # 10,500 MW > 10,000 MW, no transition -> REJECT
        ({"coal_power_capacity": Decimal(10500), "credible_coal_transition": False}, "REJECT"),
        # over a threshold with a credible transition -> observation, the gate PROCEEDs
        ({"thermal_coal_share": Decimal("0.40"), "credible_coal_transition": True}, "PROCEED"),
        # over a threshold, transition plans not assessed -> INCONCLUSIVE
        ({"thermal_coal_share": Decimal("0.40"), "credible_coal_transition": None}, "INCONCLUSIVE"),
    ],
)
def test_nbim_coal_criterion_thresholds(facts, verdict):
    trace = run(NBIM, "hold_clean_industrial", **facts)
    assert trace.gate("product_based_exclusion").verdict.value == verdict


@pytest.mark.parametrize(
    "recommendation, decision, verdict",
    [
        ("none", "no_case", "PROCEED"),
        ("observation", "observe", "PROCEED"),       # observation keeps the company in the fund
        ("exclusion", "exercise_ownership", "PROCEED"),  # the bank chose active ownership instead
        ("exclusion", "pending", "INCONCLUSIVE"),
        ("exclusion", "exclude", "REJECT"),
    ],
)
def test_nbim_conduct_gate_follows_norges_banks_decision(recommendation, decision, verdict):
    trace = run(NBIM, "hold_clean_industrial", council_recommendation=recommendation, norges_bank_decision=decision)
    assert trace.gate("conduct_based_exclusion").verdict.value == verdict


def test_nbim_exclusion_is_absolute_whatever_the_other_gates_say():
    # The conduct kill fires with every other gate PROCEEDing: nothing in the
    # card can offset it (there is no return input at all).
    card = compiled_card(NBIM).card
    assert not any("return" in name for name in card.inputs)
    trace = run(NBIM, "k3_council_on_ethics_exclusion")
    assert trace.outcome == "DIVEST"


# --------------------------------------------------------------------------- CPPIB: the factor-substitutability kill


def test_cppib_factor_kill_hand_worked():
    # strategy 10% - benchmark 7% = excess 3% > 0 -> gate 1 PROCEED.
    # residual alpha = 3% - factor 3.2% = -0.2% <= 0 -> gate 2 REJECT, kill
    # factor_substitutable (its t-statistic, -0.3 since s54rfix, carries the residual's sign; it was 3.0).
    # Linear conjunction: the chain stops; gates 3 and 4 N/A, terminated by gate 2.
    trace = run(CPPIB, "k2_factor_substitutable")
    assert trace.verdicts() == ["PROCEED", "REJECT", "N/A", "N/A"]
    assert (trace.outcome, trace.trigger) == ("REDIRECT_TO_PASSIVE", "gate_2_reject")
    assert fired(trace) == [(2, "factor_substitutable")]
    gate2 = trace.gate(2)
    assert gate2.computed == {"residual_alpha": Decimal("-0.002")}
    grp = trace.to_grp()["gold_program"]
    assert grp[1]["kill_criterion"] == "factor_substitutable" and grp[1]["kill_triggered"] is True
    assert grp[1]["computed_value"] == "-0.2%"
    assert [g["kill_criterion"] for g in grp[2:]] == ["terminated_by_gate_2", "terminated_by_gate_2"]


def test_cppib_insignificant_alpha_is_factor_substitutable_too():
    # Same strategy with factor return 2%: residual 1% > 0, but t = 1.1 < 2 ->
    # gate 2 REJECT with the same kill criterion.
    trace = run(CPPIB, "k2_factor_substitutable", factor_return=Decimal("0.02"), alpha_t_stat=Decimal("1.1"))
    assert trace.verdicts() == ["PROCEED", "REJECT", "N/A", "N/A"]
    assert fired(trace) == [(2, "factor_substitutable")]


def test_cppib_t_statistic_of_exactly_two_clears():
    # residual 1% > 0 and t = 2 >= 2 -> PROCEED; gate 3: cost gap 0.9% - 0.15% =
    # 0.75%, net alpha 1% - 0.75% = 0.25% > 0 -> PROCEED; gate 4: 0.2% <= 0.6% -> PROCEED.
    trace = run(CPPIB, "k2_factor_substitutable", factor_return=Decimal("0.02"), alpha_t_stat=Decimal(2))
    assert trace.verdicts() == ["PROCEED"] * 4
    assert trace.outcome == "ALLOCATE_ACTIVE"


CPPIB_CASES = [
    # excess 11%-7% = 4%; residual 4%-1.5% = 2.5%, t 2.6; net 2.5% - (1.2%-0.1%) = 1.4%; 0.3% <= 0.5%.
    ("allocate_genuine_alpha", ["PROCEED"] * 4, "ALLOCATE_ACTIVE", "all_gates_cleared", []),
    # excess 3%; residual 1.5%, t 2.2; net 1.5% - (2.0%-0.2%) = -0.3% <= 0 -> gate 3 REJECT,
    # a plain fail: the kill criterion did not fire.
    ("gate3_alpha_eaten_by_fees", ["PROCEED", "PROCEED", "REJECT", "N/A"], "REDIRECT_TO_PASSIVE", "gate_3_reject", []),
    # excess 3.5%; residual 2.5%, t 2.4; net 2.5% - 0.9% = 1.6%; headroom unknown ->
    # gate 4 INCONCLUSIVE; the risk budget is a hard limit (decisive, issue 15) -> undecided.
    ("gate4_inconclusive_budget_unknown", ["PROCEED", "PROCEED", "PROCEED", "INCONCLUSIVE"], "INCONCLUSIVE",
     "gate_4_inconclusive", []),
]


@pytest.mark.parametrize("scenario, verdicts, outcome, trigger, components", CPPIB_CASES, ids=[c[0] for c in CPPIB_CASES])
def test_cppib_hand_worked_traces(scenario, verdicts, outcome, trigger, components):
    trace = run(CPPIB, scenario)
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    assert fired(trace) == components


def test_cppib_no_excess_return_fails_before_the_factor_test():
    # strategy 6% vs benchmark 7%: excess -1% <= 0 -> gate 1 REJECT (no kill
    # criterion), the factor test is never reached.
    trace = run(CPPIB, "k2_factor_substitutable", strategy_return=Decimal("0.06"))
    assert trace.verdicts() == ["REJECT", "N/A", "N/A", "N/A"]
    assert (trace.outcome, trace.trigger, fired(trace)) == ("REDIRECT_TO_PASSIVE", "gate_1_reject", [])


# --------------------------------------------------------------------------- PIF: the dual kill


PIF_CASES = [
    # sector development, permitted; 9% >= 8%; new sector -> all PROCEED.
    ("invest_ev_manufacturing", ["PROCEED"] * 3, "INVEST", "all_gates_cleared", []),
    # 5% < 8% -> gate 2 REJECT (K2); localisation aligns -> gate 3 PROCEED.
    ("k2_irr_below_hurdle", ["PROCEED", "REJECT", "PROCEED"], "DECLINE", "gate_2_reject", [(2, "irr_below_hurdle")]),
    # 14% >= 10% -> PROCEED; link none -> gate 3 REJECT (K3).
    ("k3_not_aligned", ["PROCEED", "PROCEED", "REJECT"], "DECLINE", "gate_3_reject",
     [(3, "not_aligned_with_vision_2030")]),
    # 6% < 8% -> K2; asset growth outside the international diversified portfolio -> K3.
    ("k2_and_k3_both_fire", ["PROCEED", "REJECT", "REJECT"], "DECLINE", "gate_2_reject",
     [(2, "irr_below_hurdle"), (3, "not_aligned_with_vision_2030")]),
    # policy coverage unknown -> gate 1 INCONCLUSIVE; 11% >= 9%; giga-project aligns.
    ("gate1_inconclusive_policy_unknown", ["INCONCLUSIVE", "PROCEED", "PROCEED"], "INCONCLUSIVE", "gate_1_inconclusive", []),
    # asset growth is the international diversified portfolio's own purpose -> aligned; 7.5% >= 7%.
    ("international_diversified_financial_rationale", ["PROCEED"] * 3, "INVEST", "all_gates_cleared", []),
]


@pytest.mark.parametrize("scenario, verdicts, outcome, trigger, components", PIF_CASES, ids=[c[0] for c in PIF_CASES])
def test_pif_dual_kill_traces(scenario, verdicts, outcome, trigger, components):
    trace = run(PIF, scenario)
    assert trace.verdicts() == verdicts
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    assert fired(trace) == components


def test_pif_irr_exactly_at_the_hurdle_clears():
    # 8% >= 8% -> PROCEED
    trace = run(PIF, "k2_irr_below_hurdle", projected_irr=Decimal("0.08"))
    assert trace.verdicts() == ["PROCEED", "PROCEED", "PROCEED"]


def test_pif_high_return_does_not_offset_missing_alignment():
    # Raising the IRR to 40% leaves gate 3's kill in place: the components are
    # independent and both required.
    trace = run(PIF, "k3_not_aligned", projected_irr=Decimal("0.40"))
    assert (trace.outcome, fired(trace)) == ("DECLINE", [(3, "not_aligned_with_vision_2030")])


@pytest.mark.parametrize(
    "pool, verdict",
    [("international_diversified", "PROCEED"), ("international_strategic", "REJECT"), (None, "INCONCLUSIVE")],
)
def test_pif_asset_growth_aligns_only_in_the_international_diversified_portfolio(pool, verdict):
    trace = run(PIF, "international_diversified_financial_rationale", pool=pool)
    assert trace.gate("vision_2030_alignment").verdict.value == verdict
