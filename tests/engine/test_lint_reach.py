"""A gate that never fires and a constraint no scenario keeps (stop 35, a new user's Neff card): ``ipb check``
warns at the criterion, file:line:col, where it said nothing before.

Each case is a card snippet, the rules it must warn under and the (line, column) of each warning, counted by
hand in the snippet (1-based; the column of the criterion's first character).
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.lint_reach import lint_reach
from ipb.engine.registry import compiled_card

runner = CliRunner()

HEAD = """\
id: reach
investor: Test Investor
name: Reach
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  pe: {type: multiple, range: [2x, 40x], step: 0.5x}
  phase: {type: category, values: [trough, recovery, peak]}
  payout: {type: ratio, range: [0%, 100%], step: 1%}
"""

# (case id, the card after HEAD, the expected (rule, line, column) list)
CASES = [
    ("contradictory-and-never-rejects", """\
gates:
  - id: cycle
    name: Cycle
    reject: phase == "peak" and phase == "trough"
    required_elements: [cycle]
""", [("never-fires", 16, 13)]),
    ("proceed-out-of-range-never-proceeds", """\
gates:
  - id: cheap
    name: Cheap
    proceed: pe < 1x
    required_elements: [pe]
""", [("never-fires", 16, 14)]),
    ("reject-covers-every-value-never-proceeds", """\
gates:
  - id: cycle
    name: Cycle
    reject: phase in {"trough", "recovery", "peak"}
    required_elements: [cycle]
""", [("never-fires", 16, 13)]),
    ("constraint-beyond-range", """\
constraints:
  - id: impossible
    require: pe > 50x
gates:
  - id: cheap
    name: Cheap
    proceed: pe <= 10x
    required_elements: [pe]
""", [("unsatisfiable-constraint", 15, 14)]),
    ("constraint-two-inputs", """\
constraints:
  - id: payout_and_pe
    require: payout > 100% or (pe < 2x and phase == "peak")
gates:
  - id: cheap
    name: Cheap
    proceed: pe <= 10x
    required_elements: [pe]
""", [("unsatisfiable-constraint", 15, 14)]),
    # cards that must not warn
    ("plain-gates-quiet", """\
constraints:
  - id: payout_at_most_earnings
    require: payout * pe <= 15
gates:
  - id: cheap
    name: Cheap
    proceed: pe <= 10x
    reject: pe > 20x
    required_elements: [pe]
  - id: cycle
    name: Cycle
    reject: phase == "peak"
    required_elements: [cycle]
""", [("criteria-gap", 19, 14)]),  # (s53lint) 10x < pe <= 20x neither proceeds nor rejects: HEAD's 12 lines + 7
    ("narrow-band-between-grid-points-quiet", """\
gates:
  - id: exact
    name: Exact
    proceed: pe == 7.5x
    required_elements: [pe]
""", []),
    ("computed-guard-quiet", """\
gates:
  - id: value
    name: Value
    compute:
      earnings_yield: 1 / pe
    reject: earnings_yield <= 0
    required_elements: [yield]
""", []),
]


@pytest.mark.parametrize("name,body,expected", CASES, ids=[c[0] for c in CASES])
def test_reach_warnings(name: str, body: str, expected: list[tuple[str, int, int]]) -> None:
    found = lint_reach(load_card_text(HEAD + body, "reach.yaml"))
    assert [(w.rule, w.line, w.column) for w in found] == expected
    for w in found:
        assert w.file == "reach.yaml"


def test_never_fires_message_says_which_verdict_and_what_to_check() -> None:
    body = CASES[0][1]
    (w,) = lint_reach(load_card_text(HEAD + body, "reach.yaml"))
    text = str(w)
    assert "gate 'cycle' never REJECTs" in text
    assert "none of the 3 combinations of phase" in text
    assert "two tests of one input joined by 'and'" in text


def test_never_proceeds_names_the_negation() -> None:
    (w,) = lint_reach(load_card_text(HEAD + CASES[2][1], "reach.yaml"))
    assert "gate 'cycle' never PROCEEDs: the negation of reject criterion" in str(w)


def test_unsatisfiable_constraint_message() -> None:
    # pe on its whole grid: 2x to 40x by 0.5x is 77 values
    (w,) = lint_reach(load_card_text(HEAD + CASES[3][1], "reach.yaml"))
    assert str(w).startswith("reach.yaml:15:14: warning: constraint 'impossible' (pe > 50x) holds in none of the 77 "
                             "combinations of pe")
    assert "ipb perturb can make no item" in str(w)


@pytest.mark.parametrize("card_id", ["buffett_acquisition_checklist", "klarman_deep_value_identification",
                                     "graham_seven_tests_defensive", "lynch_six_category_framework",
                                     "marks_distressed_debt", "dalio_all_weather_rebalancing"])
def test_bundled_cards_quiet(card_id: str) -> None:
    # Buffett's intrinsic-value guard reads a computed value and Klarman's reject: "false" is a constant
    # criterion: neither is this check's
    assert lint_reach(compiled_card(card_id).card) == []


def test_check_reports_it_and_strict_fails(tmp_path) -> None:
    path = tmp_path / "reach.yaml"
    path.write_text(HEAD + CASES[3][1], encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "unsatisfiable-constraint 1" in result.output
    assert "require: pe > 50x" in result.output
    strict = runner.invoke(app, ["check", "--strict", str(path)])
    assert strict.exit_code == 1
