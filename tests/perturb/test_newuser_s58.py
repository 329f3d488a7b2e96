"""New-user report s58 (issue 18, publishable perturbed items): the findings fixed by s58fixw.

F-W2 (bug kind: a derived input's rounding decides a gate): ``current_ratio`` derived as current assets over
current liabilities and written to 0.01x stated "$4.37B ... $2.19B ... current ratio 2x" (1.9954 exactly) and the
gate ``current_ratio >= 2x`` proceeded, so a reader who divides the stated figures got the other verdict. Such a
draw is now refused (a broken constraint, counted in the summary) and redrawn.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.graph import compile_card
from ipb.perturb.frame import build_frame
from tests.engine.card_support import screener_card_head

runner = CliRunner()

#: A two-gate liquidity screen in the shape of the new user's Dreman card (their card is not in the repo).
CARD = screener_card_head("s58_liquidity_screen", "Liquidity screen",
                          "The screener checks liquidity, then leverage.") + """\
inputs:
  current_assets: {type: money, description: current assets on the latest balance sheet, range: [$1B, $6B], step: $10M}
  current_liabilities: {type: money, description: current liabilities on the latest balance sheet, range: [$1B, $4B], step: $10M}
  current_ratio: {type: multiple, description: current assets over current liabilities, range: [0.1x, 10x], step: 0.01x}
  debt_to_equity: {type: ratio, description: long-term debt over equity, range: [0%, 100%], step: 5%}
constraints:
  - id: ratio_is_quotient
    derive: current_ratio
    value: current_assets / current_liabilities
    description: The current ratio is current assets over current liabilities.
gates:
  - id: liquidity
    name: Liquidity
    proceed: current_ratio >= 2x
    kill_criterion: illiquid
    required_elements: [current ratio]
  - id: leverage
    name: Leverage
    proceed: debt_to_equity <= 60%
    kill_criterion: levered
    required_elements: [debt to equity]
"""
BASE = """\
id: S58-BASE
layer: L7
card: s58_liquidity_screen
as_of: "1985-06-30"
facts:
  current_assets: $4.4B
  current_liabilities: $2.2B
  current_ratio: 2x
  debt_to_equity: 40%
"""


def _money(text: str) -> Decimal:
    scale = {"B": Decimal("1e9"), "M": Decimal("1e6")}
    text = text.replace("$", "").replace(",", "")
    return Decimal(text[:-1]) * scale[text[-1]] if text[-1] in scale else Decimal(text)


def _frame():
    return build_frame([compile_card(load_card_text(CARD))])


def test_a_draw_whose_rounding_crosses_the_gate_line_breaks_the_constraint():
    frame = _frame()
    # the user's item: 4.37 / 2.19 = 1.99543..., written 2.00x, and the gate reads 2.00 >= 2
    crossing = {"current_assets": Decimal("4.37e9"), "current_liabilities": Decimal("2.19e9"),
                "debt_to_equity": Decimal("0.4")}
    assert frame.complete(crossing)["current_ratio"] == Decimal("2.00")
    assert frame.violations(crossing) == [
        "s58_liquidity_screen/ratio_is_quotient (derived current_ratio rounds across a gate line)"]
    # rounded, but on the same side of every line: 4.39 / 2.19 = 2.0045... -> 2.00, exact also >= 2
    assert frame.violations({**crossing, "current_assets": Decimal("4.39e9")}) == []
    # rounded, far from the line: 3.31 / 2.19 = 1.5114... -> 1.51, and both reject
    assert frame.violations({**crossing, "current_assets": Decimal("3.31e9")}) == []



def test_a_gate_the_chain_skips_is_judged_as_if_reached():
    # leverage first: debt to equity 80% stops the chain before the liquidity gate, so the trace is the same with
    # 2.00 and 1.9954; the question still states "$4.37B ... $2.19B ... 2x", and a reader checking the liquidity
    # gate against the stated sources would judge it the other way, so the draw is refused all the same
    liquidity, leverage = CARD.split("  - id: liquidity\n")[1].split("  - id: leverage\n")
    swapped = CARD.split("  - id: liquidity\n")[0] + "  - id: leverage\n" + leverage + "  - id: liquidity\n" + liquidity
    frame = build_frame([compile_card(load_card_text(swapped))])
    facts = {"current_assets": Decimal("4.37e9"), "current_liabilities": Decimal("2.19e9"),
             "debt_to_equity": Decimal("0.8")}
    assert frame.outcomes(frame.complete(facts)) == ("PASS",)
    assert frame.violations(facts) == [
        "s58_liquidity_screen/ratio_is_quotient (derived current_ratio rounds across a gate line)"]


def test_a_base_whose_stated_ratio_rounds_across_the_line_is_refused_at_the_ratio(tmp_path: Path):
    # the user's base: $4.37B and $2.19B (1.99543...) stated as 2x, which ipb check asks for ("state that"); every
    # draw keeping those sources would be refused, so the base is, with the exact value and a location
    (tmp_path / "card.yaml").write_text(CARD, encoding="utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(BASE.replace("$4.4B", "$4.37B").replace("$2.2B", "$2.19B"), encoding="utf-8")
    made = runner.invoke(app, ["perturb", "--card", str(tmp_path / "card.yaml"), "--base", str(base), "--n", "5",
                               "--seed", "3", "--out", str(tmp_path / "items.jsonl")])
    assert made.exit_code == 1, made.output
    assert (f"{base}:8:18: load error: the base states current_ratio as its sources' value rounded "
            "(current_assets, current_liabilities give 1.99543)") in made.output
    assert "Traceback" not in made.output

def test_no_item_states_sources_whose_quotient_lies_across_the_line_from_the_stated_ratio(tmp_path: Path):
    (tmp_path / "card.yaml").write_text(CARD, encoding="utf-8")
    (tmp_path / "base.yaml").write_text(BASE, encoding="utf-8")
    out = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(tmp_path / "card.yaml"), "--base", str(tmp_path / "base.yaml"),
                               "--n", "400", "--seed", "3", "--ops", "metric,flip,isolate", "--out", str(out)])
    assert made.exit_code == 0, made.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(items) == 400
    disagree = 0
    for item in items:
        facts = item["scenario"]["facts"]
        exact = _money(facts["current_assets"]) / _money(facts["current_liabilities"])
        stated = Decimal(facts["current_ratio"].rstrip("x"))
        disagree += (exact >= 2) != (stated >= 2)
        # the gold follows what a reader computes from the stated sources
        if item["investment_verdict"] == "BUY":
            assert exact >= 2, facts
    assert disagree == 0


# --------------------------------------------------------------------------------------------------- F-W1, F-C1
#: A one-gate yield screen with a category input whose labels the tests vary (LABEL), and an input read only by a
#: constraint (``market_yield``).
LABEL_CARD = screener_card_head("s58_label_screen", "Label screen",
                                "The screener wants a yield from an unloved stock.") + """\
inputs:
  dividend_yield: {type: ratio, description: Dividend yield of the stock, range: [0%, 12%], step: 0.1%}
  market_yield: {type: ratio, description: Dividend yield of the market, range: [0%, 12%], step: 0.1%}
  sentiment:
    type: category
    description: The analysts' view of the stock
    describes: company
    values: [shunned, liked]
    value_labels:
      shunned: LABEL
      liked: liked by most analysts
constraints:
  - id: market_below_fifteen
    require: market_yield <= 15%
    description: The market's yield stays below 15%.
gates:
  - id: unloved_yield
    name: Unloved yield
    proceed: sentiment == 'shunned' and dividend_yield >= 4%
    kill_criterion: no_yield
    required_elements: [dividend yield]
"""
LABEL_BASE = """\
id: S58-LABEL-BASE
layer: L7
card: s58_label_screen
as_of: "1985-06-30"
facts:
  dividend_yield: 5%
  market_yield: 4%
  sentiment: shunned
"""


def _label_card(tmp_path: Path, label: str) -> Path:
    path = tmp_path / "labels.yaml"
    path.write_text(LABEL_CARD.replace("LABEL", label), encoding="utf-8")
    return path


@pytest.mark.parametrize("label,message", [
    ('"neutral. The dividend yield is 9%"', 'holds a sentence break (".") followed by more text'),
    ('"shunned! Truly"', 'holds a sentence break ("!") followed by more text'),
    ('"shunned; yield 9%"', 'holds a sentence break (";") followed by more text'),
    ('"line\\nbreak"', "it spans lines"),
    ('" "', "a label cannot be blank"),
], ids=["period", "exclamation", "semicolon", "two-lines", "blank"])
def test_check_refuses_a_label_that_is_blank_spans_lines_or_holds_a_sentence_break(tmp_path, label, message):
    card = _label_card(tmp_path, label)
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1, result.output
    # located at the label's value: line 21 of LABEL_CARD, the column after "shunned: "
    assert f"{card}:21:16: load error: value_labels of 'sentiment' shows 'shunned' as " in result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("label", ["a Wall St. darling", "shunned (e.g. by brokers)", "Mr. Market's orphan",
                                   "out of favour"])
def test_a_period_after_an_abbreviation_is_no_sentence_break(tmp_path, label):
    result = runner.invoke(app, ["check", str(_label_card(tmp_path, f'"{label}"'))])
    assert result.exit_code == 0, result.output
    assert "label-states-fact" not in result.output


@pytest.mark.parametrize("label,why", [
    ('"shunned at a 9% yield"', "states a figure (9%)"),
    ('"shunned, $2B short"', "states a figure ($2)"),
    ('"shunned despite the dividend yield of the stock"', "names input 'dividend_yield' ('dividend yield of the stock')"),
    ('"shunned, market yield aside"', "names input 'market_yield' ('market yield')"),
], ids=["percent", "money", "description", "name"])
def test_check_warns_about_a_label_stating_a_figure_or_another_input(tmp_path, label, why):
    card = _label_card(tmp_path, label)
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 0, result.output
    assert f"{card}:21:16: warning: value 'shunned' of input 'sentiment' is shown as " in result.output
    assert why in result.output and "label-states-fact" in result.output


def test_verify_reads_back_a_question_whose_label_states_another_input(tmp_path):
    # no sentence break, so the card loads (with a warning), and the question states the dividend yield twice
    card = _label_card(tmp_path, '"shunned - The dividend yield of the stock is 9%"')
    (tmp_path / "base.yaml").write_text(LABEL_BASE, encoding="utf-8")
    out = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(tmp_path / "base.yaml"), "--n", "20",
                               "--seed", "1", "--ops", "metric", "--out", str(out)])
    assert made.exit_code == 0, made.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    twice = [i for i in items if i["question"].count("The dividend yield of the stock is ") == 2]
    assert twice, "no question states the label: the test card does not reach the case"
    checked = runner.invoke(app, ["verify", str(out), "--card", f"s58_label_screen={card}"])
    assert checked.exit_code == 1, checked.output
    assert "dividend_yield is stated twice" in checked.output


def test_verify_of_ordinary_labels_is_unchanged(tmp_path):
    card = _label_card(tmp_path, "shunned by most analysts")
    (tmp_path / "base.yaml").write_text(LABEL_BASE, encoding="utf-8")
    out = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(tmp_path / "base.yaml"), "--n", "20",
                               "--seed", "1", "--ops", "metric", "--out", str(out)])
    assert made.exit_code == 0, made.output
    checked = runner.invoke(app, ["verify", str(out), "--card", f"s58_label_screen={card}"])
    assert checked.exit_code == 0, checked.output


def test_unused_input_says_an_input_is_read_only_by_constraints(tmp_path):
    # market_yield is read by the require: constraint market_below_fifteen and by no gate (F-C1: the warning said
    # "read by no criterion, computed value or rule", and a constraint is a rule)
    card = _label_card(tmp_path, '"shunned by most analysts"')
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 0, result.output
    assert (f"{card}:14:3: warning: input 'market_yield' is read only by constraint(s) market_below_fifteen, by no "
            "criterion, computed value or classify rule: it limits which scenarios are drawn but cannot change a "
            "verdict") in result.output
    assert "'market_yield' is read by no criterion, computed value or rule" not in result.output


# --------------------------------------------------------------------------------------------------------- F-C2
def _with_rules(tmp_path: Path, *rules: str) -> Path:
    extra = "".join(f"  - {{id: rule_{i}, require: \"{r}\"}}\n" for i, r in enumerate(rules))
    path = tmp_path / "rules.yaml"
    path.write_text(LABEL_CARD.replace("LABEL", "shunned by most").replace("constraints:\n", "constraints:\n" + extra),
                    encoding="utf-8")
    return path


def test_check_refuses_two_constraints_no_value_of_one_input_meets(tmp_path):
    card = _with_rules(tmp_path, "dividend_yield <= 3%", "dividend_yield >= 6%")
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1, result.output
    # at the second rule's require (line 25 of the card, after "  - {id: rule_1, require: ")
    assert (f"{card}:25:27: load error: constraints 'rule_0' (dividend_yield <= 3%) and 'rule_1' "
            "(dividend_yield >= 6%) admit no value of 'dividend_yield' within its range [0%, 12%] together") \
        in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("rules", [
    ("dividend_yield <= 3%", "dividend_yield >= 3%"),  # one value, 3%, meets both
    ("dividend_yield <= 6% or market_yield > 1%", "dividend_yield >= 9%"),  # an "or": not judged
    ("dividend_yield <= 3%",),
], ids=["touching", "or-not-judged", "one-rule"])
def test_constraints_that_leave_a_value_pass(tmp_path, rules):
    result = runner.invoke(app, ["check", str(_with_rules(tmp_path, *rules))])
    assert result.exit_code == 0, result.output


def test_one_rule_against_the_range_stays_a_warning(tmp_path):
    # dividend_yield >= 20% over [0%, 12%] is unsatisfiable-constraint's (a warning), not the pair check's
    result = runner.invoke(app, ["check", str(_with_rules(tmp_path, "dividend_yield >= 20%", "dividend_yield >= 1%"))])
    assert result.exit_code == 0, result.output
    assert "unsatisfiable-constraint" in result.output
