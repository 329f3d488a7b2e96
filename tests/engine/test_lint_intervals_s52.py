"""Bug kind: a lint blind without ranges (branch s52user, issue 18 hardening).

``ipb check`` found ``a < 0 and a > 0`` only when ``a`` declared a ``range`` (the grid of
:mod:`ipb.engine.lint_reach`); on an input without one it passed silently. Tests of one value against numbers joined
by ``and`` are now checked by intervals (:mod:`ipb.engine._intervals`), with no false alarm: a hypothesis property
compares the check with the engine itself on a grid that covers every case. The cases with a warning fail without
the fix.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine._intervals import first_conflict
from ipb.engine.expressions import NUMBER, compile_expression

runner = CliRunner()


CARD = """\
id: s52_unsat
investor: Test Investor
name: Contradictions
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: checks in order
decisive_default: true
vintage: {{start: 2000}}
sources: [{{tier: 1, document: Notes, year: 2000}}]
constants:
  cap: {{value: 5}}
inputs:
  a: {{type: number}}
  x: {{type: number}}
  p: {{type: number}}
constraints:
  - {{id: rule, require: {require}}}
gates:
  - {{id: g1, name: G1, reject: {reject}, required_elements: [a]}}
  - {{id: g2, name: G2, proceed: {proceed}, required_elements: [x]}}
"""

# (reject, proceed, require, the warnings as "rule line:col name"); every column is hand-counted in CARD
CASES = [
    pytest.param("a < 0 and a > 0", "x >= 5 and x < 3", "p == 1 and p == 2",
                 ["unsatisfiable-constraint 17:25 rule", "never-fires 19:32 g1", "never-fires 20:33 g2"],
                 id="the-three-of-the-issue"),
    pytest.param("a > 0 and a < 1", "x >= 1 and x <= 1", "p >= 1 and (p < 0 or p > 2)", [],
                 id="satisfiable-no-alarm"),
    pytest.param("0 < a < 1 and a != 1", "x > cap and x < 6", "p != 1 and p != 2", [], id="chains-constants-ne"),
    pytest.param("a >= 1 and a <= 1 and a != 1", "x > cap and -x < 0 and x <= 5", "p == 1 and p != 1",
                 ["unsatisfiable-constraint 17:25 rule", "never-fires 19:32 g1", "never-fires 20:33 g2"],
                 id="point-excluded-constant-bound"),
    pytest.param("not (a > 0) and a > 0", "x > 1 or x < 0", "p * 2 > 4 and p < 1", [], id="not-or-arithmetic-left"),
]


@pytest.mark.parametrize("reject,proceed,require,expected", CASES)
def test_check_warns_of_tests_of_one_input_that_admit_no_number(tmp_path: Path, reject, proceed, require, expected):
    card = tmp_path / "s52_unsat.yaml"
    card.write_text(CARD.format(reject=reject, proceed=proceed, require=require), encoding="utf-8")
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 0, result.output  # warnings, as the range-based lint gives
    got = []
    for line in result.output.splitlines():
        if line.startswith(f"{card}:") and ("never-fires" in line or "unsatisfiable" in line or "holds for no" in line):
            where = line[len(str(card)) + 1:].split(": ", 1)[0]
            rule = "unsatisfiable-constraint" if line.split(": warning: ", 1)[1].startswith("constraint") else "never-fires"
            name = line.split("'")[1]
            got.append(f"{rule} {where} {name}")
    assert got == expected, result.output
    if reject == "a < 0 and a > 0":
        assert ("gate 'g1' never REJECTs: reject criterion 'a < 0 and a > 0' holds for no value of a: its tests "
                "'a < 0' and 'a > 0' admit no number together") in " ".join(result.output.split())


def test_the_message_names_the_tests():
    hit = first_conflict("x >= 5 and x < 3", {}, {"x"})
    assert hit is not None and hit.name == "x" and [t.text for t in hit.tests] == ["x >= 5", "x < 3"]


# property: the check against the engine itself. A conjunction of tests "a op c" has the same truth between two
# neighbouring thresholds, so evaluating it at every threshold, every midpoint and one point beyond each end finds a
# passing number whenever one exists: there, "no value passes" and "a conflict is reported" must agree both ways.
OPS = ["<", "<=", ">", ">=", "==", "!="]
VALUES = [Decimal(v) for v in ("-2", "-1", "-0.5", "0", "0.25", "1", "1.5", "2", "3")]


def _probe(values: list[Decimal]) -> list[Fraction]:
    points = sorted({Fraction(v) for v in values})
    mids = [(a + b) / 2 for a, b in itertools.pairwise(points)]
    return [points[0] - 1, *points, *mids, points[-1] + 1]


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from(OPS), st.sampled_from(VALUES), st.booleans()), min_size=1, max_size=5))
def test_a_reported_conflict_is_exactly_a_criterion_no_number_passes(tests):
    # each test written "a op c" or mirrored "c op' a"
    mirror = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
    source = " and ".join(f"a {op} {c}" if straight else f"{c} {mirror[op]} a" for op, c, straight in tests)
    expr = compile_expression(source, {"a": NUMBER}, expect="bool")
    passing = [v for v in _probe([c for _, c, _ in tests]) if expr({"a": Decimal(v.numerator) / Decimal(v.denominator)}) is True]
    reported = first_conflict(source, {}, {"a"}) is not None
    assert reported == (not passing), (source, passing[:3])
