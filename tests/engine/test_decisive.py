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


# --------------------------------------------------------------------------- issue 15, defect 1

COMPUTE_CARD = """\
id: compute_demo
investor: Test Investor
name: Compute demo
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: A value, then a price test.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  earnings: {type: money}
  growth: {type: ratio}
  predictable: {type: bool}
  price: {type: money}
  a: {type: number}
  b: {type: number}
gates:
  - id: value
    name: Value
    compute:
      value: earnings * 10 * (1 + growth)
      shown: a / b
    proceed: predictable
    required_elements: [value]
  - {id: price_test, name: Price test, proceed: price <= value, required_elements: [price]}
"""


@pytest.mark.parametrize(
    ("facts", "verdicts", "outcome"),
    [
        # Hand-worked: value = $10 x 10 x 1.2 = $120 >= $100.
        ({"earnings": "10", "growth": "0.2", "predictable": True, "price": "100", "a": "1", "b": "2"},
         ["PROCEED", "PROCEED"], "INVEST"),
        # Growth unknown: the value cannot be computed, so the value gate does not PROCEED
        # although its own criterion (predictable) holds (regression: it used to PROCEED).
        ({"earnings": "10", "predictable": True, "price": "100", "a": "1", "b": "2"},
         ["INCONCLUSIVE", "INCONCLUSIVE"], "INCONCLUSIVE"),
        # A REJECT decided without the value stands.
        ({"earnings": "10", "predictable": False, "price": "100"}, ["REJECT", "N/A"], "DECLINE"),
        # A display-only value (shown = a / b, read by no criterion) that cannot be computed
        # does not hold the gate back.
        ({"earnings": "10", "growth": "0", "predictable": True, "price": "100", "a": "1", "b": "0"},
         ["PROCEED", "PROCEED"], "INVEST"),
    ],
)
def test_a_gate_never_proceeds_on_a_value_it_cannot_compute(facts, verdicts, outcome):
    compiled = compile_card(load_card_text(COMPUTE_CARD))
    typed = {k: v if isinstance(v, bool) else Decimal(v) for k, v in facts.items()}
    trace = execute(compiled, typed)
    assert (trace.verdicts(), trace.outcome) == (verdicts, outcome)
    (batch,) = execute_many(compiled, [typed])
    assert batch.outcome == outcome


THRESHOLD_CARD = """\
id: threshold_demo
investor: Test Investor
name: Threshold demo
topology_type: parallel_threshold
gate_logic: weighted_threshold_2_of_3
topology_rationale: Two of three lenses.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
decisive_default: false
threshold: {count: PROCEED, at_least: 2}
inputs:
  a: {type: number}
  b: {type: number}
  price: {type: number}
gates:
  - {id: lens_a, name: Lens A, proceed: a > 0, required_elements: [a]}
  - {id: lens_b, name: Lens B, proceed: b > 0, required_elements: [b]}
  - {id: price_lens, name: Price lens, proceed: price < 10, decisive: true,
     decisive_reason: an unknown price cannot clear, required_elements: [price]}
"""


@pytest.mark.parametrize(
    ("facts", "outcome", "trigger"),
    [
        ({"a": 1, "b": 1, "price": 5}, "INVEST", "threshold_met_3_of_3"),
        ({"a": 1, "b": 1}, "INCONCLUSIVE", "gate_3_inconclusive"),  # 2 of 3 met, but the price is decisive
        ({"a": 1, "price": 5}, "INVEST", "threshold_met_2_of_3"),  # lens B is not decisive
        ({"a": -1, "b": -1}, "DECLINE", "threshold_not_met_0_of_3"),
    ],
)
def test_a_decisive_gate_keeps_an_n_of_m_card_from_passing(facts, outcome, trigger):
    compiled = compile_card(load_card_text(THRESHOLD_CARD))
    typed = {k: Decimal(v) for k, v in facts.items()}
    trace = execute(compiled, typed)
    assert (trace.outcome, trace.trigger) == (outcome, trigger)
    (batch,) = execute_many(compiled, [typed])
    assert (batch.outcome, batch.trigger) == (outcome, trigger)


def test_decisive_default_applies_to_gates_that_do_not_say():
    card = load_card_text(CARD.format(topology="linear_sequential").replace(
        "gate_logic: conjunction\n", "gate_logic: conjunction\ndecisive_default: true\n"))
    assert [g.decisive for g in card.gates] == [True, True]
    assert card.decisive_default is True
    assert [g.decisive for g in load_card_text(CARD.format(topology="linear_sequential")).gates] == [False, True]
