"""A multiple written with a decimal comma ("0,9x") is 0.9x, never 9x (s48user).

A new user's Spanish answer to the Einhorn card wrote "RECHAZA. 0,9x, por debajo de 1,2x" (price to book 0.9x under
the 1.2x floor); `ipb parse` listed the numbers 9x and 2x: the pattern refused "0,9" (no thousands group has one
digit) and then started a figure at the digit after the comma. One or two digits after a comma cannot be a
thousands group, so the comma is the decimal mark whatever the answer's convention.
"""

from __future__ import annotations

import pytest

from ipb.scoring._numbers import find_numbers


@pytest.mark.parametrize("text, figures", [
    ("precio 0,9x frente a 1,2x", [("0,9x", 0.9), ("1,2x", 1.2)]),
    ("un múltiplo de 1,25x", [("1,25x", 1.25)]),
    ("Kurs-Buchwert 0,9×", [("0,9×", 0.9)]),
    ("P/B 0.9x and 12x", [("0.9x", 0.9), ("12x", 12.0)]),  # the dot as before
    ("1,234x", [("1,234x", 1234.0)]),  # a thousands group, as before
])
def test_a_decimal_comma_multiple(text, figures):
    assert [(n.text, n.value) for n in find_numbers(text)] == figures


def test_the_digits_after_a_comma_are_never_a_figure_of_their_own():
    # "3,5 %" with no convention shown: before, "5 %" (0.05) was read out of it; now nothing (the convention reads it)
    assert [n.text for n in find_numbers("margen 3,5 %")] == []
    assert [(n.text, n.value) for n in find_numbers("margen 3,5 %", decimal_comma=True)] == [("3,5 %", 0.035)]
