"""``ipb check`` on dead constraints (s53break finding 8, issue 18 item 1).

Two cards ``ipb check`` passed though ``ipb perturb`` could make no item from them:
- a ``require`` rule joined by ``and`` whose second part no value in the range meets (``market_value <= ncav and
  market_value < $0`` with market value in [$1M, $500M]): the whole reads two wide inputs, so it was never judged; its
  parts are now judged alone, as a gate's ``proceed`` already was;
- a divisor that is one term minus itself (``b / (a - a)``): zero whenever known, so the quotient is always unknown;
  only a literal ``0/0`` was flagged.
Each case fails without the change (checked by reverting it); the live rules beside them must stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.lint_reach import lint_reach
from tests.engine.card_support import lint_card_head

runner = CliRunner()

CARD = lint_card_head("s54_dead", "Dead rules") + """\
inputs:
  market_value: {{type: money, range: [$1M, $500M], step: $1M}}
  ncav: {{type: money, range: [$1M, $900M], step: $1M}}
  a: {{type: number, range: [0, 10], step: 1}}
  b: {{type: number, range: [1, 10], step: 1}}
constraints:
  - {{id: rule, require: {rule}}}
gates:
  - {{id: g, name: G, proceed: market_value <= ncav and a + b > 2, required_elements: [market value]}}
"""


def _warnings(rule: str) -> list[str]:
    card = load_card_text(CARD.format(rule=rule), "s54_dead.yaml")
    return [w.message for w in lint_reach(card) if w.rule == "unsatisfiable-constraint"]


def test_dead_part_of_a_wide_rule_is_found() -> None:
    (message,) = _warnings("market_value <= ncav and market_value < $0")
    # 500 x 900 grid points are too many to try whole; the part over market_value alone is tried on its 17 points
    # (ends, seven eighths between them, and the midpoints), none below $0
    assert "its part 'market_value < $0'" in message
    assert "combinations of market_value" in message


@pytest.mark.parametrize("rule", ["market_value <= ncav and market_value > $0", "market_value <= 2 * ncav",
                                  "market_value < $600M and ncav >= $1M"])
def test_live_rules_stay_silent(rule: str) -> None:
    assert _warnings(rule) == []


def test_self_cancelling_divisor_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "s54_dead.yaml"
    path.write_text(CARD.format(rule="b / (a - a) > 1"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code != 0
    assert "division by zero: the divisor 'a - a' is always 0" in result.output
    # the error points at the divisor: line 16 of the card, its column after "b / ("
    assert f"{path}:16:" in result.output


def test_other_divisors_are_not_flagged(tmp_path: Path) -> None:
    path = tmp_path / "s54_dead.yaml"
    path.write_text(CARD.format(rule="b / (b - a + 1) > 0 or a >= b"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert "division by zero" not in result.output, result.output
