"""A value shown to a user never reads as a different value (s63 new user B4).

Regression kind: *value misread*. ``ipb explain graham_net_net_screen --set 'market_value=$1e-99'`` warned
"--set market_value = $0 is outside the range" (the value is not $0), and ``$9e99`` printed an 88-digit number of
trillions. :func:`ipb.engine.execute.format_value` is the one formatter of values (question text, gold elements,
warnings, ``ipb check``), so the fix is there: a value that is not zero but rounds to 0 at four decimals, or one with
more than 15 integer digits, is shown in scientific notation. Texts of ordinary values (every bundled item) are
unchanged; tests/perturb/test_perturb_bytes.py pins that.
"""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.engine.execute import format_value

ROOT = Path(__file__).resolve().parents[2]
IPB = str(Path(sys.executable).parent / "ipb")
CARD = "graham_net_net_screen"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "exactly_two_thirds.yaml"


@pytest.mark.parametrize("given_value, shown", [("$1e-99", "$1e-99"), ("$9e99", "$9e99"), ("$2.5e-7", "$2.5e-7")])
def test_explain_warns_with_the_value_as_given(given_value: str, shown: str) -> None:
    got = subprocess.run([IPB, "explain", CARD, str(BASE), "--set", f"market_value={given_value}"],
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert (f"warning: --set market_value = {shown} is outside the range [$1M, $500M] that card {CARD!r} declares "
            "for it.") in got.stderr, got.stderr


@pytest.mark.parametrize("value, unit, shown", [
    ("1E-99", "money", "$1e-99"), ("-1E-99", "money", "-$1e-99"), ("9E+99", "money", "$9e99"),
    ("-9E+99", "money", "-$9e99"), ("1.23456E+30", "money", "$1.2346e30"),
    ("9E+20", "money", "$900000000T"),  # 15 digits of trillions or fewer: the suffix form, as before
    ("1E-99", "ratio", "1e-97%"), ("1E-99", "multiple", "1e-99x"), ("1E-99", None, "1e-99"),
    ("0.00004", "money", "$4e-5"), ("0.00015", "money", "$0.0002"), ("0", "money", "$0"),
    ("1107", "money", "$1,107"), ("25000000000", "money", "$25B"), ("0.955", "ratio", "95.5%"),
    ("123456789012345", None, "123456789012345"), ("1234567890123456", None, "1.2346e15"),
    ("9.99999E+40", None, "1e41"),
])
def test_format_value_by_hand(value: str, unit: str | None, shown: str) -> None:
    assert format_value(Decimal(value), unit) == shown


def _read_back(text: str) -> Decimal:
    """The number a reader takes from a plain-unit text (``1.2346e15`` included)."""
    return Decimal(text)


@settings(max_examples=300, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, min_value=Decimal("-1e200"), max_value=Decimal("1e200"),
                   places=None).filter(lambda d: d.is_finite()))
def test_law_a_shown_number_is_the_value_to_its_shown_precision(value: Decimal) -> None:
    text = format_value(value)
    back = _read_back(text)
    assert (back == 0) == (value == 0)  # zero only for zero
    assert (back < 0) == (value < 0)
    # four decimals, or five significant digits in scientific notation
    assert abs(back - value) <= max(Decimal("0.00005"), abs(value) * Decimal("0.00005"))
    assert len(text) <= 24  # never a wall of digits
