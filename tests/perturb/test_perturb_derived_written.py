"""Derived values are written as a person writes the input (issue 18, stop 30; bug kind: 28-digit value).

A ``derive:`` whose value is a quotient was stated in the item and its question with the
decimal context's 28 digits ("2.894736842105263157894736842 times"). The derived value is
now rounded to the input's declared step (or, with no step, by its unit) and the gold is
executed on the value the item states. The card here is the new user's dividend card with
``chowder_number = dividend_yield + dividend_growth_5y / 3`` (a third of the growth: most
values repeat forever), checked by our own arithmetic.
"""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import compiled_card

runner = CliRunner()
HERE = Path(__file__).resolve().parents[1] / "fixtures" / "new_user"


def _files(tmp_path: Path, step: bool) -> tuple[Path, Path]:
    card = (HERE / "dividend_growth_screen.yaml").read_text(encoding="utf-8")
    card = card.replace("value: dividend_yield + dividend_growth_5y", "value: dividend_yield + dividend_growth_5y / 3")
    if not step:
        card = card.replace("    range: [-10%, 37%]\n    step: 0.1%\n", "    range: [-10%, 37%]\n")
        assert "step: 0.1%\n  payout_ratio" not in card
    base = (HERE / "staples_base.yaml").read_text(encoding="utf-8")
    base = re.sub(r"expected:\n(  .*\n)+", "", base)  # 3% + 10%/3: 6.3% with the step, 6.33% without
    base = base.replace("chowder_number: 13.0%", f"chowder_number: {'6.3%' if step else '6.33%'}")
    (tmp_path / "card.yaml").write_text(card, encoding="utf-8")
    (tmp_path / "base.yaml").write_text(base, encoding="utf-8")
    return tmp_path / "card.yaml", tmp_path / "base.yaml"


def _pct(text: str) -> Decimal:
    assert text.endswith("%"), text
    return Decimal(text[:-1]) / 100


@pytest.mark.parametrize("step,places", [(True, "0.001"), (False, "0.0001")], ids=["step-0.1%", "no-step-ratio"])
def test_a_quotient_derive_is_stated_to_the_inputs_precision_and_the_gold_reads_it(tmp_path, step, places):
    card, base = _files(tmp_path, step)
    out = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "400", "--seed", "3",
                               "--out", str(out)])
    assert made.exit_code == 0, made.output
    compiled = compiled_card(str(card))
    unrounded = 0
    for line in out.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        facts = item["scenario"]["facts"]
        exact = _pct(facts["dividend_yield"]) + _pct(facts["dividend_growth_5y"]) / 3
        want = exact.quantize(Decimal(places), rounding=ROUND_HALF_UP)
        stated = _pct(facts["chowder_number"])
        assert stated == want, (facts, want)
        assert len(facts["chowder_number"]) <= 7, facts["chowder_number"]  # "-9.83%", never 28 digits
        assert f"Chowder number is {facts['chowder_number']}." in item["question"], item["question"]
        unrounded += exact != want
        # the gold is the card's verdict on the value the item states (our threshold: 12%, 8% for utilities)
        floor = Decimal("0.08") if facts["sector"] == "utilities" else Decimal("0.12")
        if stated < floor and item["investment_verdict"] == "BUY":
            pytest.fail(f"BUY with a Chowder number {facts['chowder_number']} under {floor}")
    assert unrounded >= 100  # non-vacuity: most items needed rounding
    checked = runner.invoke(app, ["verify", str(out)])
    assert checked.exit_code == 0, checked.output
    assert compiled.card.constraints[1].written == ((Decimal("0.001"), None) if step else (Decimal("0.0001"), None))


def test_check_accepts_the_written_and_the_exact_value_and_refuses_another(tmp_path):
    card, base = _files(tmp_path, True)
    assert runner.invoke(app, ["check", str(card), str(base)]).exit_code == 0
    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace("chowder_number: 6.3%", "chowder_number: 6.333333333333333333333333333%"))
    assert runner.invoke(app, ["check", str(card), str(base)]).exit_code == 0
    base.write_text(text.replace("chowder_number: 6.3%", "chowder_number: 6.4%"))
    result = runner.invoke(app, ["check", str(card), str(base)])
    assert result.exit_code == 1 and "chowder_is_yield_plus_growth" in result.output, result.output
