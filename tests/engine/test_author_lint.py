"""Lint for what card authors get wrong (issue 17, item 3): each case a warning or error with
file:line:col and a caret, warnings grouped and counted, ``--strict`` unchanged.

Line and column numbers are counted by hand in the snippets below.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.lint import lint_card
from ipb.errors import ErrorGroup, IpbError

runner = CliRunner()

LINEAR = """\
id: lint_author
investor: Test Investor
name: Lint author
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: Two tests in order.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  leverage: {type: ratio, range: [0%, 60%], step: 1%}
  sales: {type: money, range: [$0, $5B], step: $100M}
  current_ratio: {type: number, range: [0, 5], step: 0.1}
gates:
  - id: debt
    name: Debt test
    reject: leverage > 40%
    required_elements: [leverage]
  - id: size
    name: Size test
    proceed: sales >= $1B
    required_elements: [sales]
decisive_default: false
"""

BRANCH = """\
id: lint_branch
investor: Test Investor
name: Lint branch
topology_type: conditional_branch
gate_logic: regime_dependent
topology_rationale: One regime gate, then one gate per branch.
vintage: {start: 2000}
sources: [{tier: 1, document: Test letter, year: 2000}]
inputs:
  spread: {type: ratio, range: [0%, 20%], step: 1%}
  quality: {type: ratio, range: [0%, 100%], step: 1%}
gates:
  - id: climate
    name: Climate
    classify:
      - regime: tight
        when: spread <= 10%
      - regime: very_tight
        when: spread <= 5%
      - regime: wide
    branches:
      tight: {gates: [quality_check], pass: INVEST, fail: DECLINE}
      very_tight: {gates: [quality_check], pass: INVEST, fail: DECLINE}
      wide: {gates: [quality_check], pass: WAIT, fail: WAIT}
    required_elements: [spread]
  - id: quality_check
    name: Quality check
    proceed: quality >= 50%
    required_elements: [quality]
decisive_default: false
"""

# (name, card text, [(rule, line, column)]) -- every case the issue lists for cards
CARD_CASES = [
    ("unused-input", LINEAR, [("unused-input", 12, 3)]),
    ("constant-criterion", LINEAR.replace("reject: leverage > 40%", 'reject: "true"'),
     [("unused-input", 10, 3), ("unused-input", 12, 3), ("constant-criterion", 16, 13)]),
    ("shadowed-rule-and-same-verdicts", BRANCH, [("shadowed-rule", 18, 9), ("same-verdicts", 24, 7)]),
    # s40user: no decisive_default and no gate's decisive -> one warning at gate_logic
    ("decisive-unstated", LINEAR.replace("decisive_default: false\n", ""),
     [("decisive-unstated", 5, 1), ("unused-input", 12, 3)]),
    ("decisive-on-a-gate-states-it", LINEAR.replace("decisive_default: false\n", "").replace(
        "required_elements: [leverage]", "decisive: true\n    required_elements: [leverage]"), [("unused-input", 12, 3)]),
    # s40user: a figure in words before a unit; digits, and a figure in words before no unit, pass
    ("element-number-in-words", LINEAR.replace(
        "required_elements: [sales]", "required_elements: [sales, ten percent floor, five-times cover, 10% cap, ten-year record]"),
     [("unused-input", 12, 3), ("element-number-in-words", 21, 32), ("element-number-in-words", 21, 51)]),
    # s40break: 'times' counting how often is no multiple (no '2x' to write); a multiple after it still warns
    ("element-number-in-words-how-often", LINEAR.replace(
        "required_elements: [sales]", "required_elements: [sales, dividend cut no more than two times in ten years, "
        "covered three times over, one-off gains excluded, first-mover advantage]"),
     [("unused-input", 12, 3), ("element-number-in-words", 21, 82)]),
    # s41user: an element the gate's name or an alias already says is credited for naming the gate; a quoted value
    # or a figure says more, one word of a longer label is left alone, and more words than the label are more
    ("element-is-gate-label", LINEAR.replace(
        "required_elements: [sales]", 'aliases: [turnover floor]\n    required_elements: [sales, size test, floor, '
        'turnover floor, "turnover {sales}", 2x turnover floor, turnover floor breached]'),
     [("unused-input", 12, 3), ("element-is-gate-label", 22, 32), ("element-is-gate-label", 22, 50)]),
    # s42user: an element whose only words are single letters ("Z {z}"), or that is a bare field, anchors its figure
    # nowhere; a word of two letters or more ("Z-score", "EV", "P/B"), or no field at all, passes
    ("element-words-too-short", LINEAR.replace(
        "required_elements: [sales]", 'required_elements: [sales, "Z {sales}", "Z-score {sales}", "EV {sales}", '
        '"{sales}", Z, "P/B {sales}"]'),
     [("unused-input", 12, 3), ("element-words-too-short", 21, 32), ("element-words-too-short", 21, 78)]),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CARD_CASES], ids=[c[0] for c in CARD_CASES])
def test_card_lint_table(text, expected):
    found = [(w.rule, w.line, w.column) for w in lint_card(load_card_text(text, "c.yaml"))]
    assert found == expected


def test_the_new_user_lints_say_what_happens_and_how_to_mend_it():
    (decisive, _) = lint_card(load_card_text(LINEAR.replace("decisive_default: false\n", ""), "c.yaml"))
    assert "one gate PROCEEDing with every other fact unknown gives INVEST" in decisive.message
    assert "write decisive_default: true" in decisive.message
    text = LINEAR.replace("required_elements: [sales]", 'required_elements: ["twenty five percent margin {sales}"]')
    (_, words) = lint_card(load_card_text(text, "c.yaml"))
    assert words.rule == "element-number-in-words" and "('twenty five percent')" in words.message
    assert "write the figure in digits" in words.message


def test_an_element_the_label_says_names_the_label_and_what_to_require_instead():
    text = LINEAR.replace("required_elements: [sales]", "required_elements: [Size Test]")
    (_, label) = lint_card(load_card_text(text, "c.yaml"))
    assert label.rule == "element-is-gate-label" and label.name == "size"
    assert "required element 'Size Test' of gate 'size' is said by the gate's label 'Size test'" in label.message
    # s41elem: the parser no longer credits the bare label (scoring/parse/_element_labels.py); the warning says what
    # still happens, a restatement of the name in the reasoning being credited
    assert "an answer that only names the gate is not credited with it, but one that repeats the name in its reasoning is" \
        in label.message


def test_a_shadowed_rule_names_the_wider_rule_before_it():
    (shadow, _) = lint_card(load_card_text(BRANCH, "c.yaml"))
    assert "classify rule 'very_tight' of gate 'climate' never fires" in shadow.message
    assert "an earlier rule ('tight') matches first" in shadow.message
    # the narrower rule first: no warning
    fixed = BRANCH.replace("when: spread <= 10%", "when: spread <= 5%#").replace("when: spread <= 5%\n", "when: spread <= 10%\n").replace("5%#", "5%")
    fixed = fixed.replace("regime: tight\n        when: spread <= 5%", "regime: very_tight\n        when: spread <= 5%", 1)
    fixed = fixed.replace("regime: very_tight\n        when: spread <= 10%", "regime: tight\n        when: spread <= 10%", 1)
    assert [w.rule for w in lint_card(load_card_text(fixed, "c.yaml"))] == ["same-verdicts"]


def test_reject_true_unquoted_says_what_yaml_read_and_how_to_fix_it():
    with pytest.raises(ErrorGroup) as info:
        load_card_text(LINEAR.replace("reject: leverage > 40%", "reject: true"), "c.yaml")
    (error,) = info.value.errors
    assert (error.line, error.column) == (16, 13)
    assert "YAML reads true here as a boolean" in error.message and "quote it ('true')" in error.message
    assert "True is not of type" not in error.message


SCENARIO = """\
id: S-1
card: lint_author
facts:
  leverage: 95%
  sales: $95B
  current_ratio: 1.8x
"""


def _check(tmp_path, card: str, scenario: str | None = None, *args: str):
    (tmp_path / "card.yaml").write_text(card, encoding="utf-8")
    paths = [str(tmp_path / "card.yaml")]
    if scenario is not None:
        (tmp_path / "s.yaml").write_text(scenario, encoding="utf-8")
        paths.append(str(tmp_path / "s.yaml"))
    return runner.invoke(app, ["check", *paths, *args], catch_exceptions=False)


def test_scenario_facts_out_of_range_wrong_unit_and_missing_warn_in_check(tmp_path):
    result = _check(tmp_path, LINEAR, SCENARIO)
    out = result.output
    s = str(tmp_path / "s.yaml")
    assert result.exit_code == 0, out
    assert f"{s}:4:13: warning: fact leverage = 95% is outside the range [0%, 60%]" in out
    assert f"{s}:5:10: warning: fact sales = $95B is outside the range [$0, $5B]" in out
    assert f"{s}:6:18: warning: fact current_ratio = '1.8x' carries a unit, but input 'current_ratio' is a plain number" in out
    # warnings grouped by kind and counted
    assert "-- 2 warning(s): out-of-range --" in out
    # (the test card's "Test Investor" is not in the registry: check says so too)
    assert "checked 2 file(s): ok, 5 warning(s) (unknown-investor 1, unused-input 1, unit-mismatch 1, out-of-range 2)" in out
    # --strict unchanged: warnings fail it
    assert _check(tmp_path, LINEAR, SCENARIO, "--strict").exit_code == 1


def test_a_scenario_that_leaves_an_input_out_without_expected_warns(tmp_path):
    scenario = "id: S-2\ncard: lint_author\nfacts:\n  leverage: 30%\n"
    out = _check(tmp_path, LINEAR, scenario).output
    assert f"{tmp_path / 's.yaml'}:3:1: warning: no fact for sales, current_ratio: unknown" in out


def test_perturb_refuses_a_base_fact_outside_the_declared_range(tmp_path):
    (tmp_path / "card.yaml").write_text(LINEAR, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    items = tmp_path / "out" / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(tmp_path / "card.yaml"), "--base", str(tmp_path / "s.yaml"),
                                 "--n", "2", "--out", str(items)], catch_exceptions=False)
    assert result.exit_code == 1
    assert f"{tmp_path / 's.yaml'}:4:13: perturb error: fact leverage = 95% is outside the range [0%, 60%]" in result.output
    assert not items.exists()


def test_an_error_on_line_100_is_not_turned_into_an_emoji(tmp_path):
    # regression (emoji): rich read ":100:" in "card.yaml:100:14:" as the 💯 emoji code
    card = LINEAR.replace("gates:\n", "gates:\n" + "".join(f"  # filler {i}\n" for i in range(80)), 1)
    card = card.replace("proceed: sales >= $1B", "proceed: sales >= $1B and")
    result = _check(tmp_path, card)
    assert f"{tmp_path / 'card.yaml'}:100:" in result.output
    assert "\U0001f4af" not in result.output


def test_an_error_without_a_file_has_no_input_prefix():
    assert str(IpbError("something broke")) == "error: something broke"


def test_a_scenario_checked_alone_points_at_its_card_line_and_says_what_to_do(tmp_path):
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    result = runner.invoke(app, ["check", str(tmp_path / "s.yaml")], catch_exceptions=False)
    text = " ".join(result.output.split())
    assert f"{tmp_path / 's.yaml'}:2:7: load error: 'lint_author' is neither a card file nor a known card id" in text
    assert "--cards DIR or IPB_CARDS" in text and "ipb check CARD.yaml" in text
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "c.yaml").write_text(LINEAR, encoding="utf-8")
    again = runner.invoke(app, ["check", str(tmp_path / "s.yaml"), "--cards", str(tmp_path / "cards")])
    assert again.exit_code == 0 and "checked 1 file(s): ok" in again.output


def test_an_expected_verdict_mismatch_names_the_trigger_and_the_values(tmp_path):
    scenario = ("id: S-3\ncard: lint_author\nexpected: {verdict: INVEST}\n"
                "facts:\n  leverage: 50%\n  sales: $2B\n  current_ratio: 1.5\n")
    out = " ".join(_check(tmp_path, LINEAR, scenario).output.split())
    assert "expected verdict 'INVEST' but the card gives 'DECLINE' (trigger gate_1_reject" in out
    assert "gate 1 debt: reject: leverage 50% > 40%: true" in out


def test_a_scenario_dated_outside_the_card_vintage_warns_in_check(tmp_path):
    # s45user: a Templeton base dated 2009-03-09 on a card of vintage 1954-2008 passed ipb check and ipb run, and only
    # ipb perturb refused it. By hand: 1977 is a year past 1934-1976, 1933 one before it; both ends are inside.
    closed = LINEAR.replace("vintage: {start: 2000}", "vintage: {start: 1934, end: 1976}", 1)
    assert closed != LINEAR
    s = str(tmp_path / "s.yaml")

    def scenario(as_of: str) -> str:
        return f'card: lint_author\nas_of: "{as_of}"\nfacts:\n  leverage: 30%\n  sales: $1B\n  current_ratio: 1.8\n'

    for card, as_of, window in ((closed, "1977-01-03", "1934-1976"), (closed, "1933-12-29", "1934-1976"),
                                (LINEAR, "1999-12-31", "2000-now")):
        out = _check(tmp_path, card, scenario(as_of)).output
        assert (f"{s}:2:8: warning: as_of {as_of} is outside the vintage {window} of card 'lint_author': "
                "ipb run executes it, but ipb perturb refuses it as a base unless --fm6-probe") in out, out
        assert "outside-vintage 1" in out
    for card, as_of in ((closed, "1934-01-02"), (closed, "1976-12-31"), (LINEAR, "2030-06-30")):
        out = _check(tmp_path, card, scenario(as_of)).output
        assert "outside-vintage" not in out, out


def test_a_ranged_input_without_a_step_warns_with_the_grid_perturb_would_use(tmp_path):
    # s45user: intrinsic_value on [$50M, $2T] with no step was perturbed to $20.0495B and $1.840004T, and ipb explain
    # found no switch point along it. By hand: ($5B - $0) / 100 = $50M, so the grid reads $0, $50M, ...
    card = LINEAR.replace("sales: {type: money, range: [$0, $5B], step: $100M}",
                          "sales: {type: money, range: [$0, $5B]}", 1)
    assert card != LINEAR
    out = _check(tmp_path, card).output
    c = str(tmp_path / "card.yaml")
    assert (f"{c}:11:3: warning: input 'sales' declares range [$0, $5B] but no step: ipb perturb draws its values a "
            "hundredth of the range apart ($50M: $0, $50M, ...) and ipb explain does not search") in out, out
    assert "range-without-step 1" in out
    # the card as written, every range with its step, is not warned about
    assert "range-without-step" not in _check(tmp_path, LINEAR).output
