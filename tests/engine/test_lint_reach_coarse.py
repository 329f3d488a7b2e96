"""``never-fires`` on inputs tried at a few points (s35break): a range with no step, or a step grid of 256 points or
more, is tried at its ends, eighths and the card's constants. A band between two of those points ("pe >= 10x and
pe <= 12x" over 0x..100x: eighths at 0, 12.5, 25 ...) held at none of them, so a sensible gate was reported as never
PROCEEDing. The thresholds the criterion compares a lone input with, and the midpoints between neighbouring points,
are tried now; a comparison through arithmetic or beside another input is not judged on such an input.

(line, column) pairs counted by hand in the snippets (1-based).
"""

from __future__ import annotations

import pytest

from ipb.engine.card import load_card_text
from ipb.engine.lint_reach import lint_reach
from ipb.engine.registry import bundled_card_paths, compiled_card

HEAD = """\
id: coarse
investor: Test Investor
name: Coarse
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  pe: {type: multiple, range: [0x, 100x]}
  growth: {type: ratio, range: [-50%, 50%], step: 0.1%}
  market_pe: {type: multiple, range: [5x, 40x]}
"""

CASES = [
    # sensible bands: no warning (both warned before)
    ("pe-band", "proceed: pe >= 10x and pe <= 12x", []),
    ("growth-band-fine-step", "proceed: growth > 3% and growth < 5%", []),  # 1001 grid points: tried coarsely
    ("chained-band", "proceed: 10x <= pe <= 12x", []),
    ("negative-literal", "reject: growth < -45% and growth > -46%", []),
    # beside another input: not judged on coarse inputs (a narrow relative band may hold)
    ("relative-band", "proceed: pe >= 0.5 * market_pe and pe <= 0.55 * market_pe", []),
    # a true contradiction over a coarse input is still reported
    ("empty-band", "proceed: pe >= 12x and pe <= 10x", [("never-fires", 16, 14)]),
    ("beyond-range", "reject: pe > 150x", [("never-fires", 16, 13)]),
]


@pytest.mark.parametrize("name,criterion,expected", CASES, ids=[c[0] for c in CASES])
def test_coarse_inputs(name: str, criterion: str, expected: list[tuple[str, int, int]]) -> None:
    body = f"gates:\n  - id: g\n    name: G\n    {criterion}\n    required_elements: [x]\n"
    found = lint_reach(load_card_text(HEAD + body, "coarse.yaml"))
    assert [(w.rule, w.line, w.column) for w in found] == expected


def test_every_bundled_card_is_quiet() -> None:
    noisy = {p.stem: [str(w) for w in lint_reach(compiled_card(str(p)).card)] for p in bundled_card_paths()}
    assert len(noisy) >= 28
    assert {c: w for c, w in noisy.items() if w} == {}


def test_only_the_computed_values_a_criterion_reaches_are_evaluated() -> None:
    # a 40-gate card evaluated every gate's computed values at every combination of every gate's grid (seconds);
    body = """\
gates:
  - id: g
    name: G
    compute:
      doubled: pe * 2
    proceed: doubled <= 300x and pe >= 0x
    required_elements: [x]
  - id: h
    name: H
    compute:
      halved: market_pe / 2
    proceed: market_pe <= 20x
    required_elements: [z]
"""
    card = load_card_text(HEAD + body, "coarse.yaml")
    calls: dict[str, int] = {"doubled": 0, "halved": 0}

    class Counting:
        def __init__(self, name: str, expr: object) -> None:
            self.name, self.expr, self.names = name, expr, expr.names  # type: ignore[attr-defined]

        def __call__(self, env: dict) -> object:
            calls[self.name] += 1
            return self.expr(env)  # type: ignore[operator]

    for gate in card.gates:
        for name in list(gate.compute):
            gate.compute[name] = Counting(name, gate.compute[name])  # type: ignore[index]
    assert lint_reach(card) == []
    # g's criterion reads a computed value (not judged: a guard's); h's reads none, so h's combinations evaluate
    # neither g's "doubled" nor h's own "halved" (each was evaluated at every one of h's combinations before)
    assert calls == {"doubled": 0, "halved": 0}


@pytest.mark.parametrize("criterion,expected", [
    # a gate rejecting a scenario that does not state a fact: known() is false when the fact is missing
    ("reject: not known(growth)", []),
    ("proceed: known(growth) and growth > 3% and growth < 5%", []),
    # a contradiction beside known() is still one
    ("reject: known(growth) and growth > 60%", [("never-fires", 16, 13)]),
])
def test_known_is_tried_with_the_fact_missing(criterion: str, expected: list[tuple[str, int, int]]) -> None:
    # s35break: every combination stated every input, so "reject: not known(x)" was warned never to REJECT
    body = f"gates:\n  - id: g\n    name: G\n    {criterion}\n    required_elements: [x]\n"
    found = lint_reach(load_card_text(HEAD + body, "coarse.yaml"))
    assert [(w.rule, w.line, w.column) for w in found] == expected
