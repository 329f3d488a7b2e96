"""``ipb check`` warns when a plain number read by name is compared with a ratio (rule ``plain-against-ratio``).

s49user's Graham risk-arbitrage card computes ``expected_return`` as a gain over ``target_price * years_to_close``
(money over money times a number of years: a plain number) and compares it with ``hurdle: 20%``. The comparison
is right (0.2062 >= 20%), but the GRP's element "expected annual return {expected_return}" reads "expected annual
return 0.2062" while an answer writes 20.6%, so a faultless answer's KCCS was 0.95, not 1, on every item reaching
gate 3. Multiplying the definition by 100% makes the value a ratio ("expected annual return 24%").
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
CARD = Path(__file__).resolve().parents[1] / "fixtures" / "new_user49" / "graham_risk_arbitrage_spread.yaml"
FORMULA = "(gain * completion_probability - loss * (1 - completion_probability)) / (target_price * years_to_close)"


def _check(tmp_path: Path, text: str) -> str:
    path = tmp_path / "card.yaml"
    path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["check", str(path)]).output


def test_a_plain_number_against_a_ratio_is_warned_at_its_name(tmp_path):
    out = _check(tmp_path, CARD.read_text(encoding="utf-8"))
    # line 76 is "    proceed: expected_return >= hurdle"; the name starts after 4 spaces and "proceed: " (column 14)
    assert "card.yaml:76:14: warning: 'expected_return' is a plain number but 'hurdle' is a ratio" in out
    # (s53lint) the advice is the definition rewritten, here the plain quotient times 100%, checked a ratio below
    assert f"define it as a ratio: expected_return: {FORMULA} * 100%" in " ".join(out.split())
    assert "plain-against-ratio 1" in out


def test_the_same_value_made_a_ratio_is_not_warned(tmp_path):
    text = CARD.read_text(encoding="utf-8")
    assert FORMULA in text
    out = _check(tmp_path, text.replace(FORMULA, FORMULA + " * 100%"))
    assert "plain-against-ratio" not in out and "checked 1 file(s): ok" in out


def test_an_expression_against_a_ratio_is_left_to_the_author(tmp_path):
    # Lynch's "dividend_yield * pe_ratio > 60%" style: an expression, not a value an element quotes by name
    text = CARD.read_text(encoding="utf-8").replace("proceed: expected_return >= hurdle",
                                                    "proceed: expected_return * 2 >= hurdle")
    assert "plain-against-ratio" not in _check(tmp_path, text)
