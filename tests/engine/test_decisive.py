"""When a conjunction with no REJECT is still undecided: decisive gates and all-INCONCLUSIVE chains.

Paper §7.3: INCONCLUSIVE does not stop a chain (Table 9 B invests with gate 3
INCONCLUSIVE). A card may declare a gate ``decisive`` — its verdict must be
known for the card to clear — and a chain in which no gate PROCEEDed clears
nothing.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute, execute_many
from ipb.engine.graph import compile_card
from ipb.engine.registry import compiled_card
from ipb.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]

CARD = """\
id: decisive_demo
investor: Test Investor
name: Decisive demo
topology_type: {topology}
gate_logic: conjunction
topology_rationale: Two tests.
vintage: {{start: 2000}}
sources: [{{tier: 1, document: Test letter, year: 2000}}]
inputs:
  a: {{type: number}}
  b: {{type: number}}
gates:
  - {{id: soft, name: Soft test, proceed: a > 0, required_elements: [a, sign]}}
  - {{id: hard, name: Hard test, proceed: b > 0, decisive: true, required_elements: [b, sign]}}
"""


@pytest.mark.parametrize("topology", ["linear_sequential", "parallel_threshold"])
@pytest.mark.parametrize(
    ("facts", "verdicts", "outcome", "trigger"),
    [
        ({"a": 1, "b": 1}, ["PROCEED", "PROCEED"], "INVEST", "all_gates_cleared"),
        ({"b": 1}, ["INCONCLUSIVE", "PROCEED"], "INVEST", "all_gates_cleared"),  # a soft gate may stay open
        ({"a": 1}, ["PROCEED", "INCONCLUSIVE"], "INCONCLUSIVE", "gate_2_inconclusive"),  # a decisive one may not
        ({"a": 1, "b": -1}, ["PROCEED", "REJECT"], "DECLINE", "gate_2_reject"),
        ({}, ["INCONCLUSIVE", "INCONCLUSIVE"], "INCONCLUSIVE", "gate_2_inconclusive"),
    ],
)
def test_decisive_gate(topology, facts, verdicts, outcome, trigger):
    compiled = compile_card(load_card_text(CARD.format(topology=topology)))
    typed = {k: Decimal(v) for k, v in facts.items()}
    trace = execute(compiled, typed)
    assert (trace.verdicts(), trace.outcome, trace.trigger) == (verdicts, outcome, trigger)
    (batch,) = execute_many(compiled, [typed])
    assert (batch.outcome, batch.trigger) == (outcome, trigger)


def test_buffett_price_unknown_leaves_the_checklist_undecided():
    compiled = compiled_card("buffett_acquisition_checklist")
    path = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_b.yaml"
    facts = dict(load_scenario(path, compiled.card).facts)
    del facts["ev_to_arr"]  # no asking price: margin of safety cannot be judged
    trace = execute(compiled, facts)
    assert trace.verdicts() == ["PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "INCONCLUSIVE", "PROCEED"]
    assert (trace.outcome, trace.trigger) == ("INCONCLUSIVE", "gate_5_inconclusive")


def test_a_gauge_that_counts_rejects_draws_met_into_the_fail_outcome():
    """Regression (graph drawing): 4 of 7 bubble signals met sinks the card, it does not clear it."""
    graph = compiled_card("dalio_bubble_detection_gauge").graph
    card = compiled_card("dalio_bubble_detection_gauge").card
    met = [v for u, v, d in graph.edges(data=True) if u == "join" and d["label"] == "met"]
    assert met == [f"outcome:{card.outcomes['fail']}"]
