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

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.graph import compile_card
from ipb.perturb.frame import build_frame

runner = CliRunner()

#: A two-gate liquidity screen in the shape of the new user's Dreman card (their card is not in the repo).
CARD = """\
id: s58_liquidity_screen
investor: Test Screener
name: Liquidity screen
topology_type: linear_sequential
gate_logic: conjunction
decisive_default: true
topology_rationale: The screener checks liquidity, then leverage.
vintage: {start: 1970, end: null}
sources:
  - {tier: 1, document: "A test card", year: 1970}
outcomes: {pass: BUY, fail: PASS}
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
