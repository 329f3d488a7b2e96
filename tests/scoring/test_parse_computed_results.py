"""A computation worked in the text, read against the card's own test (issue 13, figures in prose; :mod:`._computed`).

Short texts written for these tests. The Buffett owner-earnings card's gate 1 passes when owner earnings are positive
(``owner_earnings_value > 0``); the Graham formula card's gate 3 rejects a formula value at or below zero. A text that
works the quantity out ("... = 140.5m", "= -74.3", "= owner earnings 125") states the gate's verdict by the result's
sign; a sign test's quantity on the gate's own label line does too ("Graham Formula Value: $52.40"). A clause with no
equals sign, a result of another kind than a non-zero bar's, or a bracket opening a formula reads nothing.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._computed import computed_result
from ipb.scoring.parse._thresholds import Bar

from tests.scoring.parse_support import gate_verdicts

DCF = "buffett_owner_earnings_dcf"
GRAHAM = "graham_intrinsic_value_margin_of_safety"
SIGN = (Bar("owner_earnings_value", ">", Decimal(0), "money", vw.PROCEED),)
PERCENT = (Bar("expected_return", ">=", Decimal("0.10"), "ratio", vw.PROCEED),)


@pytest.mark.parametrize(("text", "want"), [
    ("owner earnings = 88 + 21 - 14 = 95", vw.PROCEED),
    ("owner earnings = 12 + 4 - 30 = -14", vw.REJECT),
    ("owner earnings = 12 + 4 - 30 = \u221214", vw.REJECT),           # a typographic minus
    ("owner earnings = 12 + 4 - 30 = (14)", vw.REJECT),              # accounting brackets
    ("net income 40 + d&a 9 - capex 11 = owner earnings 38", vw.PROCEED),  # words between the sign and the result
    ("so the total is \u2248 about 3.1bn", vw.PROCEED),
], ids=["plain", "minus", "typographic-minus", "brackets", "named-result", "approx"])
def test_sign_test_reads_the_last_result(text: str, want: str) -> None:
    got = computed_result(text, 0, len(text), SIGN)
    assert got is not None and got[2] == want


@pytest.mark.parametrize("text", [
    "owner earnings of 95 this year",          # no computation
    "owner earnings = (8.5 + 2g) x eps",       # a bracket opening a formula, not a negative
    "owner earnings = net income + d&a",       # no number after the sign
])
def test_no_result_no_reading(text: str) -> None:
    assert computed_result(text, 0, len(text), SIGN) is None


def test_a_non_zero_bar_needs_a_result_of_its_kind() -> None:
    assert computed_result("expected return = 4 + 9 = 13%", 0, 30, PERCENT)[2] == vw.PROCEED  # type: ignore[index]
    assert computed_result("expected return = 4 + 3 = 7%", 0, 29, PERCENT)[2] == vw.REJECT  # type: ignore[index]
    assert computed_result("expected return = 4 + 9 = 13", 0, 29, PERCENT) is None  # a plain 13 is not 13%


def test_worked_owner_earnings_in_a_section() -> None:
    text = ("Owner earnings\nNet income 310 + D&A 64 - maintenance capex 58 = 316, all in $m.\n\n"
            "Discounted value\nWe did not get that far this week.\n")
    assert gate_verdicts(text, DCF)[1] == vw.PROCEED
    negative = text.replace("= 316", "= -12").replace("310", "-18")
    assert gate_verdicts(negative, DCF)[1] == vw.REJECT


def test_a_labelled_line_with_its_computation() -> None:
    text = ("1. Normal earnings: EPS averaged $2.40 over seven years: Pass\n"
            "2. Graham formula value: V = 2.40 x (8.5 + 2 x 5) x 4.4 / 4.1 = 47.65\n"
            "3. Margin of safety: price $41 is above two-thirds of value: Fail\n")
    assert gate_verdicts(text, GRAHAM)[3] == vw.PROCEED


def test_a_sign_tests_figure_on_its_label_line() -> None:
    text = "Normal earnings: Pass\nGraham Formula Value: $61.20\nMargin of safety: Fail\n"
    assert gate_verdicts(text, GRAHAM)[3] == vw.PROCEED


def test_a_computation_of_another_quantity_in_prose_is_not_the_gates() -> None:
    # the equals sign works out the price limit, in a sentence that names neither owner earnings nor sits on its label
    text = ("Owner earnings come to roughly what the company reports, nothing more to say.\n"
            "The buy limit is 0.75 x 2,000 = 1,500, and the market value of 1,780 is above it.\n")
    assert gate_verdicts(text, DCF).get(1) is None
