"""Finding N11 of s62's new user (/work/notes/NEWUSER_s62.md, issue 18); bug kind: a rule compared as text.

Two L8 cards deriving one input by rules that differ only in form (``(a) / b``, ``1 * a / b``, ``a / b * 100%``
against ``a / b``) were refused as two rules, with no line:col; ``ipb check --card A --card B`` with no base said ok
even for two rules that do differ. Rules are now compared by value on fixed probe points
(``perturb/derive_rules.py``), the error is located at the second card's ``derive:`` and names the first's, and
check with cards and no base reports it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.perturb.derive_rules import same_derive_rule
from ipb.perturb.verify import verify_items
from tests.perturb.test_ufix_s62 import _L8_BASE, _UP

runner = CliRunner()
_BASE = _L8_BASE.replace("  book_discount: 20%\n", "")  # the up cards' inputs only


def _files(tmp_path, rule: str):
    up, other, base = tmp_path / "up.yaml", tmp_path / "other.yaml", tmp_path / "base.yaml"
    up.write_text(_UP, encoding="utf-8")
    other.write_text(_UP.replace("up_rule", "other_rule").replace("'market_cap / book_value'", f"'{rule}'"),
                     encoding="utf-8")
    base.write_text(_BASE, encoding="utf-8")
    return up, other, base


@pytest.mark.parametrize("rule", ["(market_cap) / book_value", "1 * market_cap / book_value",
                                  "market_cap / book_value * 100%"])
def test_one_rule_written_otherwise_passes_check(tmp_path, rule):
    # Before: exit 1, "input 'price_to_book' is derived by two rules: ..."
    up, other, base = _files(tmp_path, rule)
    for args in (["check", str(base)], ["check"]):  # with the base, and the cards alone
        result = runner.invoke(app, [*args, "--card", str(up), "--card", str(other)])
        assert result.exit_code == 0, result.output


def test_items_of_one_rule_written_otherwise_verify(tmp_path):
    up, other, base = _files(tmp_path, "1 * market_cap / book_value * 100%")
    out = tmp_path / "run" / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(up), "--card", str(other), "--base", str(base), "--n", "6",
                               "--seed", "11", "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert verify_items(out).ok


def test_two_rules_are_refused_at_the_second_derive_line(tmp_path):
    # line 15 of each card is its constraint, whose derive value 'price_to_book' starts at column 33
    up, other, base = _files(tmp_path, "book_value / market_cap")
    want = (f"{other}:15:33: perturb error: input 'price_to_book' is derived by two rules: market_cap / book_value "
            "(card up_rule, constraint pb_from_parts) and book_value / market_cap (card other_rule, constraint "
            "pb_from_parts); an L8 scenario shares one value, so every item would break one of them")
    for args in (["check", str(base)], ["check"]):  # before, with no base: "checked 2 file(s): ok"
        result = runner.invoke(app, [*args, "--card", str(up), "--card", str(other)])
        text = " ".join(result.output.split())
        assert result.exit_code == 1, text
        assert want in text and f"(the first rule: {up}:15:33)" in text
    made = runner.invoke(app, ["perturb", "--card", str(up), "--card", str(other), "--base", str(base), "--n", "3",
                               "--out", str(tmp_path / "o.jsonl")])
    assert made.exit_code == 1 and want in " ".join(made.output.split())


def _rule(text: str):
    card = load_card_text(_UP.replace("'market_cap / book_value'", f"'{text}'"))
    return card.constraints[0], card.inputs


@settings(max_examples=25, deadline=None)
@given(k=st.integers(min_value=2, max_value=9), offset=st.integers(min_value=1, max_value=5))
def test_a_scaled_or_shifted_rule_is_another_rule(k, offset):
    # a / b against k * a / b, and against a / b + offset x: never the same value, so never one rule
    base, specs = _rule("market_cap / book_value")
    scaled, _ = _rule(f"{k} * market_cap / book_value")
    shifted, _ = _rule(f"market_cap / book_value + {offset}x")
    assert same_derive_rule(base, base, specs)
    assert not same_derive_rule(base, scaled, specs) and not same_derive_rule(scaled, base, specs)
    assert not same_derive_rule(base, shifted, specs)
