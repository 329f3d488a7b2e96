"""Regression (question offers no right answer): a conjunction whose decisive gate is INCONCLUSIVE on stated facts.

Stop 32 made questions offer INCONCLUSIVE when an undisclosed input can leave a conjunction undecided; 68 of
504 INCONCLUSIVE golds (60 items x the first three bases x every bundled card, seed 1) were still asked without
it, because a decisive gate was undecided with every fact stated (a spin-off's insider stake between the trivial
and the required one, an EV/EBIT between the required discount and the peers', a normal EPS above zero averaged
over too few years, NBIM's decision still pending, Greenblatt's return on capital on no capital). The card's own
outcomes (``card_outcomes``) now include INCONCLUSIVE for such cards (``ipb.perturb.undecided``), and no other.
"""

from __future__ import annotations

import json

import pytest

from ipb.engine.execute import execute
from ipb.engine.logic import Verdict
from ipb.engine.registry import compiled_card
from ipb.perturb import Job, generate
from ipb.perturb.frame import card_outcomes
from ipb.perturb.undecided import undecided_gates
from perturb_support import SCENARIOS

#: card -> the gates some fully stated scenario leaves INCONCLUSIVE, worked by hand from the criteria.
UNDECIDED = {
    # insider stake in [1%, 5%) without insider buying meets neither criterion; EV/EBIT in (0.8 x peers, peers)
    "greenblatt_spinoff_checklist": {"insiders_want_it", "hidden_value_revealed"},
    # normal EPS above $0 averaged over fewer than 5 years meets neither
    "graham_intrinsic_value_margin_of_safety": {"normal_earnings"},
    # a council recommendation with the bank's decision pending meets neither
    "nbim_gpfg_exclusion_screen": {"conduct_based_exclusion"},
    # EBIT > 0 on zero or negative tangible capital: the return on capital is undefined
    "greenblatt_magic_formula_screen": {"formula_ratios"},
    # every business model is in one of the two lists; the decisive gates are one-sided or complementary;
    # management "mixed" is between the two (that gate is not decisive)
    "buffett_acquisition_checklist": {"management_integrity"},
    "graham_net_net_screen": set(),
}


@pytest.mark.parametrize("card", sorted(UNDECIDED))
def test_the_undecided_gates_are_the_hand_worked_ones(card):
    assert undecided_gates(compiled_card(card)) == UNDECIDED[card]


def test_a_pending_decision_is_inconclusive_and_offered():
    """By hand: NBIM's conduct gate with the Council recommending exclusion and the bank's decision pending."""
    compiled = compiled_card("nbim_gpfg_exclusion_screen")
    trace = execute(compiled, {"council_recommendation": "exclusion", "norges_bank_decision": "pending"},
                    diagnostic=True)
    gate = trace.gate("conduct_based_exclusion")
    assert (gate.diagnostic_verdict or gate.verdict) is Verdict.INCONCLUSIVE
    assert card_outcomes(compiled) == ["HOLD", "DIVEST", "INCONCLUSIVE"]
    assert card_outcomes(compiled_card("buffett_acquisition_checklist")) == ["INVEST", "DECLINE"]


@pytest.mark.parametrize("card", ["greenblatt_spinoff_checklist", "graham_intrinsic_value_margin_of_safety"])
def test_every_inconclusive_gold_is_offered_inconclusive(card):
    """The cards that held 58 of the 68 misses: every INCONCLUSIVE gold of 60 items from each of the first three
    bases (seed 1) is asked with INCONCLUSIVE among the final verdicts."""
    golds = 0
    for base in sorted((SCENARIOS / card).glob("*.yaml"))[:3]:
        for line in generate(Job((card,), str(base), 1), 60).lines:
            item = json.loads(line)
            if item["investment_verdict"] == "INCONCLUSIVE":
                golds += 1
                assert "INCONCLUSIVE" in item["question"].rsplit("give the final verdict", 1)[1], item["id"]
    assert golds > 0  # non-vacuity


# --------------------------------------------------------------------------- bounds (stop 34)

def _wide_card(gates: int, inputs: int = 3, marks: int = 12) -> str:
    """A card of ``gates`` one-sided gates, each reading ``inputs`` numbers on 0..100 beside ``marks`` constants
    in that range: ``(2 + 4 * marks) ** inputs`` lattice points per gate (125,000 here), none undecided, plus a
    last gate undecided on a band (proceed at 50 or more, reject under 40)."""
    lines = ["id: wide_card", "investor: Benjamin Graham", "name: Wide card (test)",
             "topology_type: parallel_threshold", "gate_logic: conjunction",
             "topology_rationale: Independent tests; any failure rejects.", "vintage: {start: 1934, end: null}",
             "sources:", "  - {tier: 1, document: Security Analysis, year: 1934}", "constants:"]
    lines += [f"  c{j}: {{value: {5 * (j + 1)}, type: number, author_inferred: true}}" for j in range(marks)]
    lines.append("inputs:")
    for g in range(gates + 1):
        for k in range(inputs):
            lines += [f"  x{g}_{k}:", "    type: number", "    range: [0, 100]", "    step: 1"]
    lines.append("gates:")
    source = "    source: {tier: 1, document: Security Analysis, year: 1934}"
    for g in range(gates):
        total = " + ".join(f"x{g}_{k}" for k in range(inputs))
        lines += [f"  - id: g{g}", f"    name: Gate {g}", f"    proceed: {total} >= c{g % marks}",
                  "    required_elements: [sum]", source]
    others = " and ".join(f"x{gates}_{k} >= 0" for k in range(1, inputs))
    lines += ["  - id: band", "    name: Band", f"    proceed: x{gates}_0 >= 50 and {others}",
              f"    reject: x{gates}_0 < 40", "    required_elements: [band]", source]
    return "\n".join(lines) + "\n"


def test_a_wide_card_runs_a_bounded_count_of_trials(monkeypatch):
    """Resource bound (stop 34: LATTICE_LIMIT bounded nothing; this card would have run 2,625,000 scenarios):
    20 gates of 125,000 lattice points and a band gate run at most CARD_LIMIT scenarios, each decided gate
    exactly its share, and the band gate's undecided values are still found in its sample."""
    from ipb.engine.card import load_card_text
    from ipb.engine.graph import compile_card
    from ipb.perturb import undecided

    compiled = compile_card(load_card_text(_wide_card(20)))
    real, calls = undecided.execute, []

    def counted(card, facts, **kw):
        calls.append(facts)
        assert len(calls) <= undecided.CARD_LIMIT, "the card's trial bound is broken"
        return real(card, facts, **kw)

    monkeypatch.setattr(undecided, "execute", counted)
    assert undecided_gates(compiled) == {"band"}
    share = undecided.CARD_LIMIT // 21  # 16,384 // 21 gates = 780 scenarios a gate
    assert share == 780 and share < undecided.LATTICE_LIMIT
    decided = [f for f in calls if "x0_0" in f]  # gate g0's trials: its share, every one different
    assert len(decided) == share and len({tuple(sorted(f.items())) for f in decided}) == share
    assert 20 * share < len(calls) <= 21 * share  # the band gate stops at its first undecided scenario
    assert undecided_gates(compiled) == {"band"} and len(calls) <= 21 * share  # remembered: no second run


def test_a_gate_share_is_the_lattice_limit_on_a_narrow_card():
    """A card of up to 16 gates gives each gate LATTICE_LIMIT scenarios (every bundled card has at most 7)."""
    from ipb.perturb import undecided

    assert undecided.CARD_LIMIT // 16 == undecided.LATTICE_LIMIT == 1024


@pytest.mark.parametrize("source, undefined", [
    ("ebit / capital", True),                     # a divisor that can be zero
    ("ebit / (capital - debt) > 1", True),
    ("a / -0.0%", True),                          # a zero literal divisor
    ("a / -2 > 1", False),                        # a non-zero literal: always defined
    ("a / 1e-3 + b / 25% + c / $5B", False),
    ("a / k", False),                             # a non-zero card constant
    ("a / z", True),                              # a zero card constant
    ('sector in {"n/a", "catalog"}', False),      # a '/' in a string is no division (the old substring test)
    ("catalog_log > sqrt_floor", False),          # 'log' and 'sqrt' in names (the old substring test)
])
def test_the_undefined_value_fallback_reads_divisions_exactly(source, undefined):
    from decimal import Decimal

    from ipb.perturb.undecided import can_be_undefined

    assert can_be_undefined(source, {"k": (Decimal(4), None), "z": (Decimal(0), None)}) is undefined
