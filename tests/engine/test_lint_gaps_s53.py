"""Bug kind: wrong gold from a gap between a gate's criteria (branch s53lint, s53newuser finding 2).

``reject: downside_loss > max_loss`` beside ``proceed: downside_loss <= max_loss and expected_gain > 0%`` leaves a
small loss with no expected gain undecided: the gate was INCONCLUSIVE with every fact known, ``ipb check`` said
nothing and ``ipb explain`` listed no unknown fact. Now ``ipb check`` warns (rule ``criteria-gap``, naming the values
in the gap) and ``ipb explain`` says neither criterion held. Each warning case fails without the fix (no such rule).
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine._gaps import find_gap
from ipb.engine.card import load_card, load_card_text
from ipb.engine.execute import format_value
from ipb.engine.explain import explain
from ipb.engine.expressions import NUMBER, RATIO, compile_expression
from ipb.engine.graph import compile_card
from ipb.engine.lint_reach import lint_reach
from tests.engine.card_support import lint_card_head

FRAMEWORKS = Path(__file__).resolve().parents[2] / "frameworks"

CARD = lint_card_head("s53_gap", "Gaps") + """\
constants:
  cap: 20%
inputs:
  x: {{type: ratio{x_range}}}
  z: {{type: ratio}}
  phase: {{type: category, values: [peak, mid, trough]}}
  b: {{type: bool}}
gates:
  - id: g
    name: G
    description: {description}
    reject: {reject}
    proceed: {proceed}
    required_elements: [x]
"""


def _gaps(reject: str, proceed: str, x_range: str = "", description: str = "one test") -> list[str]:
    card = load_card_text(CARD.format(reject=reject, proceed=proceed, x_range=x_range, description=description),
                          "s53_gap.yaml")
    return [w.message for w in lint_reach(card) if w.rule == "criteria-gap"]


# (reject, proceed, the box written in the warning, worked by hand; None: no warning)
CASES = [
    # the finding: neither holds for x <= 20% with z <= 0% (x > 20% rejects, z > 0% with x <= 20% proceeds)
    pytest.param("x > cap", "x <= cap and z > 0%", "x <= 20% and z <= 0%", id="finding-2"),
    # the user's mended card: the reject covers z <= 0%, so no gap
    pytest.param("x > cap or z <= 0%", "x <= cap and z > 0%", None, id="complement-no-gap"),
    pytest.param("x < 2%", "x > 5%", "2% <= x <= 5%", id="one-variable-band"),
    pytest.param("x < 0%", "x > 0%", "x = 0%", id="one-point"),
    pytest.param("x >= 5%", "x < 5%", None, id="exact-complement"),
    pytest.param('phase == "peak"', 'phase == "trough"', "phase == 'mid'", id="category-middle"),
    pytest.param("b and x > 1%", "not b", "b and x <= 1%", id="bool-and-number"),
    # not judged: a comparison of two names, arithmetic (no warning, never a false alarm)
    pytest.param("x > z", "x < z", None, id="two-names-left-out"),
    pytest.param("x * 2 > 10%", "x < 1%", None, id="arithmetic-left-out"),
]


@pytest.mark.parametrize("reject,proceed,box", CASES)
def test_check_names_the_values_in_the_gap(reject, proceed, box):
    got = _gaps(reject, proceed)
    if box is None:
        assert got == []
    else:
        assert len(got) == 1 and f"with {box} neither reject" in got[0], got


def test_a_declared_range_outside_the_gap_gives_no_warning():
    # x declared over [6%, 10%]: the band 2%..5% is out of reach, so nothing; over [0%, 10%] the band is in it
    assert _gaps("x < 2%", "x > 5%", ", range: [6%, 10%], step: 1%") == []
    assert "with 2% <= x <= 5% neither" in _gaps("x < 2%", "x > 5%", ", range: [0%, 10%], step: 1%")[0]


def test_a_gap_the_description_calls_undecided_is_meant():
    assert _gaps("x < 2%", "x > 5%", description='"INCONCLUSIVE in between"') == []
    assert _gaps("x < 2%", "x > 5%", description='"a middle value leaves it undecided"') == []


def test_the_user_card_shape_warns_at_the_proceed_line_and_says_the_computed_value_is_free(tmp_path: Path):
    text = CARD.format(reject="x > cap", proceed="x <= cap and gain > 0%", x_range="", description="one test")
    text = text.replace("    reject: x > cap", "    compute: {gain: z - 1%}\n    reject: x > cap")
    warning = [w for w in lint_reach(load_card_text(text, "s53_gap.yaml")) if w.rule == "criteria-gap"]
    assert len(warning) == 1 and (warning[0].line, warning[0].column) == (23, 14)  # line 23 of the card with the compute line; "    proceed: " is 13 wide
    assert "with x <= 20% and gain <= 0%" in warning[0].message
    assert "gain is computed and taken as free here" in warning[0].message


def test_bundled_cards_have_no_unmeant_gap_and_their_eleven_meant_gaps_are_real():
    meant = []
    for path in sorted(FRAMEWORKS.glob("*.yaml")):
        if path.name in ("investors.yaml", "regimes.yaml", "sectors.yaml"):
            continue
        card = load_card(path)
        assert [w for w in lint_reach(card) if w.rule == "criteria-gap"] == [], path.name
        computed = {n for g in card.gates for n in g.compute}
        subjects = {n: t for n, t in card.symbols.items() if n in card.inputs or n in computed}
        ranges = {n: s.range for n, s in card.inputs.items() if s.range is not None}
        for gate in card.gates:
            if gate.reject is not None and gate.proceed is not None and not gate.classify and not gate.branches:
                if find_gap(gate.reject, gate.proceed, {n: v for n, (v, _) in card.constants.items()}, subjects,
                            ranges, computed, format_value) is not None:
                    meant.append(f"{card.id}.{gate.id}")
    # each read by hand: its description says the middle is undecided / INCONCLUSIVE (s53lint report)
    assert len(meant) == 11, meant
    assert "marks_risk_return_assessment.risk_premium" in meant  # "INCONCLUSIVE in between" 2% and 5%


def test_explain_says_neither_criterion_held():
    text = CARD.format(reject="x > cap", proceed="x <= cap and z > 0%", x_range="", description="one test")
    compiled = compile_card(load_card_text(text, "s53_gap.yaml"))
    gate = explain(compiled, {"x": Decimal("0.1"), "z": Decimal("-0.05")}).gates[0]
    assert gate.verdict == "INCONCLUSIVE" and gate.unknown == [] and gate.neither
    assert any(line.startswith("  neither criterion held") for line in gate.lines())
    # a missing fact is not a gap: z unknown leaves proceed unknown, not false
    gate = explain(compiled, {"x": Decimal("0.1")}).gates[0]
    assert gate.verdict == "INCONCLUSIVE" and not gate.neither
    assert explain(compiled, {"x": Decimal("0.1"), "z": Decimal("0.05")}).gates[0].verdict == "PROCEED"


# property: the box against the engine. Criteria built from "name op c" atoms under and/or/not have constant truth
# between neighbouring thresholds, so a probe at every threshold, midpoint and one point beyond each end finds a gap
# whenever one exists; a reported box must hold only gap points, and "no report" must mean no probe is a gap.
VALUES = ["-1", "0", "0.5", "2"]
ATOM = st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
                 st.sampled_from(VALUES))


def _formula(draw_atoms: list[tuple[str, str, str]], joins: list[str]) -> str:
    text = "{} {} {}".format(*draw_atoms[0])
    for atom, join in zip(draw_atoms[1:], joins):
        text = f"({text}) {join} " + "{} {} {}".format(*atom)
    return text


def _probe() -> list[Fraction]:
    points = sorted({Fraction(Decimal(v)) for v in VALUES})
    return [points[0] - 3, *points, *[(p + q) / 2 for p, q in itertools.pairwise(points)], points[-1] + 3]


def _inside(v: Fraction, bound: tuple) -> bool:
    _, lo, lo_strict, hi, hi_strict = bound
    return ((lo is None or (v > Fraction(lo) if lo_strict else v >= Fraction(lo)))
            and (hi is None or (v < Fraction(hi) if hi_strict else v <= Fraction(hi))))


@settings(max_examples=200, deadline=None)
@given(st.lists(ATOM, min_size=1, max_size=3), st.lists(st.sampled_from(["and", "or"]), min_size=2, max_size=2),
       st.lists(ATOM, min_size=1, max_size=3), st.lists(st.sampled_from(["and", "or"]), min_size=2, max_size=2))
def test_a_reported_box_is_all_gap_and_no_report_means_no_gap(r_atoms, r_joins, p_atoms, p_joins):
    symbols = {"a": NUMBER, "b": NUMBER}
    reject = compile_expression(_formula(r_atoms, r_joins), symbols, expect="bool")
    proceed = compile_expression(_formula(p_atoms, p_joins), symbols, expect="bool")
    found = find_gap(reject, proceed, {}, symbols, {}, set(), format_value)

    def is_gap(a: Fraction, b: Fraction) -> bool:
        env = {"a": Decimal(a.numerator) / Decimal(a.denominator), "b": Decimal(b.numerator) / Decimal(b.denominator)}
        return reject.fn(env) is False and proceed.fn(env) is False

    probes = list(itertools.product(_probe(), _probe()))
    if found is None:
        assert not any(is_gap(a, b) for a, b in probes), (reject.source, proceed.source)
    else:
        bounds = {b[0]: b for b in found.bounds}
        inside = [(a, b) for a, b in probes
                  if all(_inside(v, bounds[n]) for n, v in (("a", a), ("b", b)) if n in bounds)]
        assert inside and all(is_gap(a, b) for a, b in inside), (reject.source, proceed.source, found.text)


def test_ratio_values_show_as_percent():
    symbols = {"r": RATIO}
    found = find_gap(compile_expression("r < 2%", symbols, expect="bool"),
                     compile_expression("r > 5%", symbols, expect="bool"), {}, symbols, {}, set(), format_value)
    assert found is not None and found.text == "2% <= r <= 5%"
