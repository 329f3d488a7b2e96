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
