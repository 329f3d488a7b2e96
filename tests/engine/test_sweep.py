"""Sweeping one input (:func:`ipb.engine.sweep.line_runner`) gives the scalar engine's final verdict at every value.

The verdict-flip search relies on this: the sweep evaluates only the gates
that read the moved input, and must agree with
:func:`ipb.engine.execute.execute_many` (every gate run) on every value, for
every bundled card and every test card, with facts left unknown and values on
the grids, at their edges and between (the strategies of ``test_columnar``).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute_many
from ipb.engine.graph import compile_card
from ipb.engine.sweep import dependent_gates, line_runner, prepare

from tests.engine.test_columnar import CARDS, _value, compiled, scenarios


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_sweep_agrees_with_execute_many(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    numeric = [n for n, s in card.card.inputs.items() if s.expr_type.kind == "number"]
    if not numeric:
        return
    (facts,) = data.draw(scenarios(card.card).map(lambda rows: rows[:1]), label="scenario")
    name = data.draw(st.sampled_from(numeric), label="input")
    values = data.draw(st.lists(_value(card.card.inputs[name]), min_size=1, max_size=12), label="values")
    run = line_runner(card, facts, name)
    if run is None:
        assert card.card.topology_type not in ("linear_sequential", "parallel_threshold") or \
            card.family != "conjunction" or dependent_gates(card, name) is None or any(g.reentry for g in card.card.gates)
        return
    want = [r.outcome for r in execute_many(card, [{**facts, name: v} for v in values])]
    assert run(values) == want, (facts, name, values)
    # one preparation of the scenario serves the sweeps of all its inputs, in any order
    prepared = prepare(card, facts)
    for other in numeric:
        shared = line_runner(card, facts, other, prepared)
        assert shared is not None
        if other == name:
            assert shared(values) == want, (facts, name, values)


CHAIN = """
id: sweep_chain
version: 1
investor: Benjamin Graham
name: Sweep chain
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Three tests in order.
vintage: {start: 1934, end: 1976}
sources: [{tier: 1, document: Security Analysis, year: 1934}]
inputs:
  price: {type: money}
  ncav: {type: money}
  debt: {type: money}
gates:
  - id: cheap
    name: Price at most two thirds of NCAV
    compute: {ratio: price / ncav}
    proceed: ratio <= 2/3
    required_elements: [price]
    source: {tier: 1, document: Security Analysis, year: 1934}
  - id: solvent
    name: Debt below NCAV
    proceed: debt < ncav
    required_elements: [debt]
    source: {tier: 1, document: Security Analysis, year: 1934}
  - id: ratio_again
    name: The ratio of gate 1 is positive
    proceed: ratio > 0
    required_elements: [price]
    source: {tier: 1, document: Security Analysis, year: 1934}
"""


def test_dependence_follows_computed_values() -> None:
    card = compile_card(load_card_text(CHAIN))
    assert dependent_gates(card, "price") == (True, False, True)  # gate 3 reads gate 1's ratio of price
    assert dependent_gates(card, "debt") == (False, True, False)
    assert dependent_gates(card, "ncav") == (True, True, True)


def test_worked_sweep_over_price() -> None:
    # NCAV $300M, debt $100M: price $200M is exactly two thirds (INVEST), $201M is not (DECLINE);
    # with debt $400M gate 2 rejects whatever the price (the sweep answers without evaluating gate 1).
    card = compile_card(load_card_text(CHAIN))
    values = [Decimal("2e8"), Decimal("2.01e8"), Decimal("1e6")]
    run = line_runner(card, {"ncav": Decimal("3e8"), "debt": Decimal("1e8")}, "price")
    assert run is not None and run(values) == ["INVEST", "DECLINE", "INVEST"]
    stuck = line_runner(card, {"ncav": Decimal("3e8"), "debt": Decimal("4e8")}, "price")
    assert stuck is not None and stuck(values) == ["DECLINE"] * 3
    unknown = line_runner(card, {"debt": Decimal("1e8")}, "price")
    assert unknown is not None and unknown(values) == [r.outcome for r in execute_many(card, [
        {"debt": Decimal("1e8"), "price": v} for v in values])]
