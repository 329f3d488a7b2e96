"""Decisive gates of the 28 bundled cards (issue 15, defect 1).

Paper §7.3 lets missing *qualitative* evidence continue (Table 9
Perturbation B: no management data, gate 3 INCONCLUSIVE, still INVEST); it
does not let an unknown price/value comparison or a hard test clear. Every
gate of every bundled card therefore says whether it is decisive and why,
and the card states its default. The law checked here: **a scenario that
leaves every input a decisive gate depends on unknown never reaches the pass
verdict** — over every bundled scenario (exhaustively) and over random
variations of them (hypothesis).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.card import Card, Gate
from ipb.engine.execute import execute
from ipb.engine.registry import bundled_card_paths, bundled_scenario_paths, compiled_card
from ipb.engine.scenario import load_scenario

CARD_IDS = sorted(p.stem for p in bundled_card_paths())
SCENARIOS: dict[str, list[dict[str, Any]]] = {}
for _path in bundled_scenario_paths():
    _compiled = compiled_card(_path.parent.name)
    SCENARIOS.setdefault(_path.parent.name, []).append(dict(load_scenario(_path, _compiled.card).facts))


def gate_inputs(card: Card, gate: Gate) -> frozenset[str]:
    """The scenario inputs ``gate`` depends on, through computed values and the regime."""
    producers: dict[str, Gate] = {}
    for g in card.gates:
        for name in g.compute:
            producers.setdefault(name, g)
        if g.is_classifier:
            producers[g.id] = g
    seen: set[str] = set()
    todo = list(gate.reads)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        producer = producers.get(name)
        if producer is not None:
            exprs = [producer.compute[name]] if name in producer.compute else list(producer.expressions())
            for expr in exprs:
                todo.extend(expr.names)
    return frozenset(n for n in seen if n in card.inputs)


def blocked_outcomes(card: Card, gate: Gate, regime: str | None) -> set[str]:
    """The pass verdicts an unknown ``gate`` must keep the card from."""
    classifier = next((g for g in card.gates if g.is_classifier), None)
    if classifier is None:
        return {card.outcomes["pass"]}
    on_branch = {gid for b in classifier.branches.values() for gid in b.gates}
    if gate.id not in on_branch:  # the classifier or a gate before it: every branch
        return {b.pass_outcome for b in classifier.branches.values()}
    if regime is None or gate.id not in classifier.branches[regime].gates:
        return set()  # the gate is not on the branch taken: nothing to say
    return {classifier.branches[regime].pass_outcome}


DECISIVE = [
    (card_id, g.id) for card_id in CARD_IDS for g in compiled_card(card_id).card.gates if g.decisive
]


def test_every_bundled_gate_says_whether_it_is_decisive_and_why():
    """The default is explicit at card level and every gate carries its reason."""
    import yaml

    for path in bundled_card_paths():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(raw.get("decisive_default"), bool), f"{path.name}: no decisive_default"
        for g in raw["gates"]:
            assert isinstance(g.get("decisive"), bool), f"{path.name}/{g['id']}: decisive not stated"
            assert len(g.get("decisive_reason", "")) > 20, f"{path.name}/{g['id']}: no decisive_reason"
    assert len(CARD_IDS) == 28


@pytest.mark.parametrize(
    ("card_id", "gate_id"),
    [
        # The four gates the review named (issue 15, defect 1), plus the factor gate of paper §10.5.
        ("buffett_owner_earnings_dcf", "owner_earnings"),
        ("buffett_owner_earnings_dcf", "discounted_value"),
        ("graham_intrinsic_value_margin_of_safety", "formula_value"),
        ("cppib_total_portfolio_active_strategy", "factor_substitutability"),
        ("graham_seven_tests_defensive", "dividend_record"),
        ("buffett_acquisition_checklist", "margin_of_safety"),
    ],
)
def test_the_gates_the_review_named_are_decisive(card_id, gate_id):
    assert (card_id, gate_id) in DECISIVE


def test_management_evidence_stays_soft_as_in_table_9():
    """Table 9 Perturbation B invests with gate 3 (management) INCONCLUSIVE: that gate is not decisive."""
    gate = compiled_card("buffett_acquisition_checklist").card.gate("management_integrity")
    assert gate.decisive is False and "§7.3" in gate.decisive_reason


def _check(card_id: str, gate_id: str, facts: dict[str, Any]) -> None:
    compiled = compiled_card(card_id)
    card = compiled.card
    gate = card.gate(gate_id)
    unknown = gate_inputs(card, gate)
    assert unknown, f"{card_id}/{gate_id} reads no input"
    stripped = {k: v for k, v in facts.items() if k not in unknown}
    trace = execute(compiled, stripped)
    blocked = blocked_outcomes(card, gate, trace.regime)
    assert trace.outcome not in blocked, (
        f"{card_id}: with {sorted(unknown)} unknown, decisive gate {gate_id} gave "
        f"{trace.gate(gate_id).verdict.value} and the card {trace.outcome} ({trace.trigger})"
    )
    # The gate itself, when reached, is never decided without its inputs (no PROCEED on nothing).
    assert trace.gate(gate_id).verdict.value in ("INCONCLUSIVE", "N/A", "REJECT")


@pytest.mark.parametrize(("card_id", "gate_id"), DECISIVE, ids=[f"{c}/{g}" for c, g in DECISIVE])
def test_unknown_decisive_inputs_never_pass_on_bundled_scenarios(card_id, gate_id):
    for facts in SCENARIOS[card_id]:
        _check(card_id, gate_id, facts)


def _value(spec: Any, draw: Any) -> Any:
    if spec.type == "bool":
        return draw(st.booleans())
    if spec.type == "category":
        return draw(st.sampled_from(spec.values))
    if spec.type == "date":
        return draw(st.dates(dt.date(1930, 1, 1), dt.date(2025, 12, 31)))
    if spec.range is not None and spec.step:
        lo, hi = spec.range
        k = draw(st.integers(0, int((hi - lo) / spec.step)))
        return lo + k * spec.step
    if spec.range is not None:
        lo, hi = spec.range
        return lo + (hi - lo) * Decimal(draw(st.integers(0, 20))) / 20
    if spec.type == "year":
        return Decimal(draw(st.integers(1930, 2025)))
    return Decimal(draw(st.sampled_from(["-1", "0", "0.05", "0.5", "1", "3", "20", "1000000000"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize(("card_id", "gate_id"), DECISIVE, ids=[f"{c}/{g}" for c, g in DECISIVE])
def test_unknown_decisive_inputs_never_pass_on_random_variations(card_id, gate_id, data):
    """A bundled scenario with a few other inputs redrawn (most chains then reach the gate)."""
    card = compiled_card(card_id).card
    facts = dict(data.draw(st.sampled_from(SCENARIOS[card_id])))
    names = sorted(card.inputs)
    for name in data.draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
        facts[name] = _value(card.inputs[name], data.draw)
    _check(card_id, gate_id, facts)
