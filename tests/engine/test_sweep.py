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
from ipb.engine.sweep import dependent_gates, external_reads, line_key, line_runner, prepare, prepared_outcome

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


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_line_key_and_prepared_outcome_agree_with_execute_many(path: Path, data: st.DataObject) -> None:
    """Oracle: the scalar engine. ``prepared_outcome`` is the final verdict of the prepared scenario, and two
    scenarios with the same ``line_key`` along an input give the same final verdict at every value of it
    (the flip search's memo rests on this)."""
    card = compiled(path)
    numeric = [n for n, s in card.card.inputs.items() if s.expr_type.kind == "number"]
    if not numeric:
        return
    two = data.draw(scenarios(card.card).map(lambda rows: rows[:2]), label="scenarios")
    name = data.draw(st.sampled_from(numeric), label="input")
    values = data.draw(st.lists(_value(card.card.inputs[name]), min_size=1, max_size=8), label="values")
    keys = []
    for facts in two:
        prepared = prepare(card, facts)
        if prepared is None:
            return
        assert prepared_outcome(card, prepared) == next(iter(execute_many(card, [facts]))).outcome, facts
        keys.append(line_key(card, name, prepared))
    if len(two) < 2 or keys[0] is None:
        return
    # mixes of the two: the second with the first's values of the names the key reads (often the same key),
    # and the first with the second's values of those names (often the same verdicts elsewhere, another line)
    names = external_reads(card, name)
    assert names is not None
    inputs = card.card.inputs
    first, second = two
    mixes = [{**{k: v for k, v in second.items() if k not in names}, **{k: first[k] for k in names if k in first}},
             {**{k: v for k, v in first.items() if k not in names}, **{k: second[k] for k in names if k in second}}]
    want = [r.outcome for r in execute_many(card, [{**first, name: v} for v in values])]
    for mix in mixes:
        mix = {k: v for k, v in mix.items() if k in inputs}
        prepared = prepare(card, mix)
        assert prepared is not None
        if line_key(card, name, prepared) == keys[0]:
            got = [r.outcome for r in execute_many(card, [{**mix, name: v} for v in values])]
            assert got == want, (first, mix, name, values)


def test_line_key_ignores_what_the_moving_gates_do_not_read() -> None:
    """By hand, on the Buffett card: the key along ``ev_to_arr`` holds the verdicts of the gates that do not read
    it and the values its gate reads; moving an input only another gate reads (retention, while its gate still
    proceeds) keeps the key, and one that makes that gate reject changes it."""
    from ipb.engine.registry import compiled_card
    card = compiled_card("buffett_acquisition_checklist")
    facts = {"arr": Decimal("5e9"), "revenue_growth": Decimal("0.25"), "revenue_retention": Decimal("0.94"),
             "gross_margin": Decimal("0.78"), "ev_to_arr": Decimal("10")}
    base = prepare(card, facts)
    moved = prepare(card, {**facts, "revenue_retention": Decimal("0.96")})
    rejects = prepare(card, {**facts, "revenue_retention": Decimal("0.50")})
    assert base is not None and moved is not None and rejects is not None
    assert line_key(card, "ev_to_arr", base) == line_key(card, "ev_to_arr", moved)
    assert line_key(card, "ev_to_arr", base) != line_key(card, "ev_to_arr", rejects)
    assert "ev_to_arr" not in (external_reads(card, "ev_to_arr") or ())
