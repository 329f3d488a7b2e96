"""The exact path after a failed Decimal attempt (s35speed, issue 18 speed).

An arithmetic closure first tries the 28-digit Decimal operation; when that raises (the result
is not exact, or undefined) it now calls ``_exact.AFTER_DECIMAL[op]`` instead of ``_exact.add``
& co., which would try the same Decimal operation again before taking integer ratios. The two
must give the same value of the same type and the same Decimal text, and the same error.
"""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction

import pytest

from ipb.engine import _exact
from ipb.engine.expressions import compile_expression, NUMBER

PUBLIC = {"+": _exact.add, "-": _exact.sub, "*": _exact.mul, "/": _exact.div}

# pairs whose Decimal attempt raises: 1/3 has no finite decimal form, a 29-digit sum or product is
# rounded in 28 digits, 2/8 = 0.25 is exact but 1/7 is not
PAIRS = [
    (D(1), D(3)),
    (D("1234567890123456789012345678"), D("0.1")),
    (D("9999999999999999999999999999"), D("9999999999999999999999999999")),
    (D("2.5E+40"), D("3")),
    (D("-7"), D("0.0003")),
]


def _raises(op: str, a: D, b: D) -> bool:
    try:
        _exact.DECIMAL_OPS[op](a, b)
    except ArithmeticError:
        return True
    return False


def test_after_decimal_gives_what_the_public_operation_gives() -> None:
    """Every pair and operation whose Decimal attempt raises (the only case the closures call it in)."""
    cases = [(op, a, b) for op in "+-*/" for a, b in PAIRS if _raises(op, a, b)]
    assert {op for op, _, _ in cases} == set("+-*/") and len(cases) >= 8
    for op, a, b in cases:
        want = PUBLIC[op](a, b)
        got = _exact.AFTER_DECIMAL[op](a, b)
        assert type(got) is type(want) and got == want and str(got) == str(want), (op, a, b)


def test_hand_worked_values() -> None:
    """1/3 stays a Fraction; 28 nines squared is 99...980...01 (56 digits), exact; 0.1 + 28-digit integer
    keeps the tenth (29 significant digits); -7 / 0.0003 = -70000/3."""
    assert _exact.AFTER_DECIMAL["/"](D(1), D(3)) == Fraction(1, 3)
    nines = D("9" * 28)
    assert _exact.AFTER_DECIMAL["*"](nines, nines) == D("9" * 27 + "8" + "0" * 27 + "1")
    assert str(_exact.AFTER_DECIMAL["+"](D("1234567890123456789012345678"), D("0.1"))) == "1234567890123456789012345678.1"
    assert _exact.AFTER_DECIMAL["/"](D("-7"), D("0.0003")) == Fraction(-70000, 3)


def test_division_by_zero_raises_as_div_does() -> None:
    with pytest.raises(ZeroDivisionError):
        _exact.AFTER_DECIMAL["/"](D(5), D(0))
    with pytest.raises(ZeroDivisionError):
        _exact.div(D(5), D(0))


def test_expressions_on_the_exact_path() -> None:
    """Compiled name/name, name/constant, chained and nested forms reach the new branch; results as hand-worked."""
    sym = {"a": NUMBER, "b": NUMBER}
    env = {"a": D(1), "b": D(3)}
    assert compile_expression("a / b", sym)(env) == D("0.3333333333333333333333333333")
    assert compile_expression("a / b * b", sym)(env) == 1  # exact: (1/3) * 3
    assert compile_expression("a / 3 + a / 3 + a / 3", sym)(env) == 1
    assert compile_expression("(a + 0.1) / b - 11 / 30", sym)(env) == 0
    assert compile_expression("a / (b - 3)", sym)(env) is None
