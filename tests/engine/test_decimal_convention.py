"""The decimal-convention detector's quick pre-check never changes its answer (a property over texts of digits,
marks, currencies and spaces, against the full patterns alone)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine import _decimal_convention as convention
from ipb.engine import numbers


def _reference(text: str) -> bool | None:
    comma = convention._COMMA_DECIMAL.search(text) is not None
    dot = convention._DOT_DECIMAL.search(text) is not None
    return comma if comma != dot else None


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789.,€£$% \tEURGBPUSDx", max_size=40))
def test_the_pre_check_agrees_with_the_full_patterns(text: str) -> None:
    assert numbers.decimal_comma_convention(text) is _reference(text)


def test_hand_worked_cases() -> None:
    assert numbers.decimal_comma_convention("Kurs €12,50 und 1.234,5 Stück") is True
    assert numbers.decimal_comma_convention("price $12.50, margin 3.5%") is False
    assert numbers.decimal_comma_convention("1934 1935 1936 " * 1000) is None
