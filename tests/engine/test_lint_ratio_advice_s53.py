"""Bug kind: wrong advice (branch s53lint, s53newuser finding 3).

``plain-against-ratio`` advised multiplying the definition by 100%, which the units rules undo when the definition
is already a ratio or a sum with a ratio in it (a ratio times 100% is a product of two ratios: plain). The new
user's ``expected_gain: (p * (iv / price - 1) - (1 - p) * loss) * 100%`` still warned and showed 1.18, and a
Kelly fraction needed ``* 100% * 100%``. ``ipb check`` now prints a rewrite of the definition that the compiler
types a ratio; each test applies the advised text and checks the warning is gone and the value shows as a
percentage (values worked by hand). The advice tests fail without the fix (the old advice text).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.execute import execute, format_value
from ipb.engine.graph import compile_card
from tests.engine.card_support import lint_card_head

runner = CliRunner()

CARD = lint_card_head("s53_ratio", "Ratio advice") + """\
inputs:
  p: {{type: ratio}}
  iv: {{type: money}}
  price: {{type: money}}
  loss: {{type: ratio}}
  w: {{type: ratio}}
  payoff: {{type: multiple}}
gates:
  - id: g
    name: G
    compute:
      value: {definition}
    proceed: value > 0%
    required_elements: ["value {{value}}"]
"""

FACTS = {"p": Decimal("0.8"), "iv": Decimal("1e9"), "price": Decimal("4e8"), "loss": Decimal("0.1"),
         "w": Decimal("0.6"), "payoff": Decimal("2")}


def _advice(tmp_path: Path, definition: str) -> str | None:
    path = tmp_path / "card.yaml"
    path.write_text(CARD.format(definition=definition), encoding="utf-8")
    out = " ".join(runner.invoke(app, ["check", str(path)]).output.split())
    if "plain-against-ratio" not in out:
        return None
    found = re.search(r"define it as a ratio: value: (.*?) \(the compiler types this a ratio", out)
    assert found is not None, out
    return found.group(1)


def _shown(definition: str) -> str:
    card = load_card_text(CARD.format(definition=definition), "card.yaml")
    trace = execute(compile_card(card), FACTS)
    return format_value(trace.gates[0]._env()["value"], card.gates[0].compute["value"].type.unit)


def test_the_users_expected_gain_gets_a_rewrite_that_works(tmp_path):
    # 0.8 * (1e9 / 4e8 - 1) - 0.2 * 0.1 = 0.8 * 1.5 - 0.02 = 1.18: shown 1.18 before, 118% after the advice
    definition = "(p * (iv / price - 1) - (1 - p) * loss) * 100%"
    advice = _advice(tmp_path, definition)
    assert advice == "p * (iv / price - 1) - (1 - p) * loss * 100%"
    assert _shown(definition) == "1.18"
    assert _advice(tmp_path, advice) is None and _shown(advice) == "118%"


def test_the_kelly_fraction_gets_a_rewrite_that_works(tmp_path):
    # (0.6 * 2 - 0.4) / 2 = 0.4: shown 0.4 with one "* 100%", 40% with the advised definition
    definition = "(w * payoff / 1x - (1 - w)) / (payoff / 1x) * 100%"
    advice = _advice(tmp_path, definition)
    assert advice == "(w * payoff / 1x * 100% - (1 - w)) / (payoff / 1x)"
    assert _shown(definition) == "0.4"
    assert _advice(tmp_path, advice) is None and _shown(advice) == "40%"


def test_a_plain_quotient_is_advised_times_100_percent(tmp_path):
    # iv / price - 1 = 1.5 (plain); (iv / price - 1) * 100% = 150%
    advice = _advice(tmp_path, "iv / price - 1")
    assert advice == "(iv / price - 1) * 100%"
    assert _advice(tmp_path, advice) is None and _shown(advice) == "150%"


def test_a_product_of_two_ratios_is_advised_times_100_percent(tmp_path):
    # p * loss = 0.08 (ratio times ratio: plain); p * loss * 100% = 8%
    advice = _advice(tmp_path, "p * loss")
    assert advice == "p * loss * 100%"
    assert _advice(tmp_path, advice) is None and _shown(advice) == "8%"
