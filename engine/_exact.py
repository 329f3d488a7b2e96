"""Exact arithmetic for the expression engine: Decimals where they are exact, fractions where not.

A value is a :class:`~decimal.Decimal` or a :class:`~fractions.Fraction`. Each
operation is first done in Decimal, and the context's ``Inexact`` flag (cleared
before, restored after) proves whether the result was rounded; only when it
was is the operation done again with Fractions. So the common case stays a fast
Decimal operation, and every result is the exact rational value: ``200/300``
is ``Fraction(2, 3)``, ``a/b + 0 == a/b`` and ``n/s * s == n`` always hold, and
``1 - price/value >= 1/3`` is decided exactly at the boundary. A Fraction whose
denominator has only the factors 2 and 5 is turned back into its exact Decimal.

Python compares a Decimal with a Fraction exactly (``Decimal.__lt__`` accepts
any ``numbers.Rational``), and equal values hash equally, so comparisons and
set membership need nothing special.

Limits: a result whose numerator or denominator exceeds :data:`MAX_BITS` bits
(about 10^±3000) raises :class:`decimal.Overflow`, which the engine reads as
unknown at run time; this bounds the work of any single operation.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Context, Decimal, DivisionByZero, Inexact, InvalidOperation, Overflow
from fractions import Fraction
from typing import Any, Callable, Union

__all__ = ["Exact", "add", "sub", "mul", "div", "neg", "absolute", "as_fraction", "normal", "public", "round_half_away", "MAX_BITS"]

Exact = Union[Decimal, Fraction]

#: Largest numerator or denominator of an exact result, in bits (~10^3000).
MAX_BITS = 10_000

_OUT = Context(prec=28)
_WIDE = Context(prec=MAX_BITS)  # scaleb by a power of ten without rounding


def as_fraction(value: Exact) -> Fraction:
    """``value`` as a Fraction (exact)."""
    if value.__class__ is Fraction:
        return value  # type: ignore[return-value]
    return Fraction(*value.as_integer_ratio())


def normal(value: Fraction) -> Exact:
    """``value`` as a Decimal when it has a finite decimal form, else the Fraction.

    Raises
    ------
    decimal.Overflow
        The numerator or denominator exceeds :data:`MAX_BITS` bits.

    >>> normal(Fraction(1, 4)), normal(Fraction(2, 3))
    (Decimal('0.25'), Fraction(2, 3))
    """
    return _ratio(value.numerator, value.denominator)


def _ratio(num: int, den: int) -> Exact:
    """``num / den`` (``den > 0``) as an exact Decimal when it has a finite decimal form, else a Fraction."""
    g = math.gcd(num, den)
    if g != 1:
        num //= g
        den //= g
    if num.bit_length() > MAX_BITS or den.bit_length() > MAX_BITS:
        raise Overflow("exact value too large")
    if den == 1:
        return Decimal(num)
    twos = (den & -den).bit_length() - 1
    rest = den >> twos
    fives = 0
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        return Fraction(num, den)
    # num / (2^a 5^b) = num * 2^(k-a) * 5^(k-b) / 10^k with k = max(a, b)
    k = max(twos, fives)
    scaled = num * (2 ** (k - twos)) * (5 ** (k - fives))
    return Decimal(scaled).scaleb(-k, _WIDE)


def _pair(value: Exact) -> tuple[int, int]:
    if value.__class__ is Fraction:
        return value.numerator, value.denominator  # type: ignore[union-attr]
    return value.as_integer_ratio()


def _slow(op: str, a: Exact, b: Exact) -> Exact:
    """``a op b`` on integer ratios (the exact path)."""
    an, ad = _pair(a)
    bn, bd = _pair(b)
    if op == "+":
        return _ratio(an * bd + bn * ad, ad * bd)
    if op == "-":
        return _ratio(an * bd - bn * ad, ad * bd)
    if op == "*":
        return _ratio(an * bn, ad * bd)
    if bn < 0:
        an, bn = -an, -bn
    return _ratio(an * bd, ad * bn)


#: The context of the Decimal attempt: the default precision and exponent limits
#: (those of a fresh thread), with every signal that marks a result as not exact
#: (or undefined) trapped. An operation that raises gave no exact result and is
#: redone on integer ratios. A context of our own (instead of clearing and
#: restoring the thread context's ``Inexact`` flag around each operation) is
#: about twice as fast, and the caller's context and flags are never touched.
_EXACT = Context(prec=28, rounding=ROUND_HALF_EVEN, Emax=999_999, Emin=-999_999, capitals=1, clamp=0,
                 flags=[], traps=[InvalidOperation, DivisionByZero, Overflow, Inexact])

#: ``a op b`` of two Decimals in :data:`_EXACT`; raises ArithmeticError when the result is not exact.
DECIMAL_OPS: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": _EXACT.add, "-": _EXACT.subtract, "*": _EXACT.multiply, "/": _EXACT.divide,
}


def _decimal_first(op: str) -> Callable[[Exact, Exact], Exact]:
    """``a op b``, exactly: the :data:`DECIMAL_OPS` operation when both are Decimals and the result is exact,
    else the integer-ratio path (:func:`_slow`)."""
    fast = DECIMAL_OPS[op]

    def apply(a: Exact, b: Exact) -> Exact:
        if a.__class__ is Decimal and b.__class__ is Decimal:
            try:
                return fast(a, b)
            except ArithmeticError:
                pass
        return _slow(op, a, b)

    return apply


#: ``a + b``, ``a - b`` and ``a * b``, exactly.
add = _decimal_first("+")
sub = _decimal_first("-")
mul = _decimal_first("*")
_div = _decimal_first("/")


def _after_decimal(op: str) -> Callable[[Exact, Exact], Exact]:
    """``a op b`` for two Decimals whose :data:`DECIMAL_OPS` attempt raised: what :data:`add`, :data:`sub`,
    :data:`mul` and :func:`div` then give (the attempt, a pure function of its operands in a fixed context,
    would raise again), without redoing it."""
    if op != "/":
        return lambda a, b: _slow(op, a, b)

    def slow_div(a: Exact, b: Exact) -> Exact:
        if not b:
            raise ZeroDivisionError("division by zero")
        return _slow("/", a, b)

    return slow_div


#: ``a op b`` of two Decimals after their Decimal attempt raised (:func:`_after_decimal`).
AFTER_DECIMAL: dict[str, Callable[[Exact, Exact], Exact]] = {op: _after_decimal(op) for op in "+-*/"}


def div(a: Exact, b: Exact) -> Exact:
    """``a / b``, exactly; ZeroDivisionError when ``b`` is zero."""
    if not b:
        raise ZeroDivisionError("division by zero")
    return _div(a, b)


def neg(a: Exact) -> Exact:
    """``-a``, exactly (``-Decimal`` would round to the context)."""
    if a.__class__ is Decimal:
        return a.copy_negate()
    return -a


def absolute(a: Exact) -> Exact:
    """``abs(a)``, exactly (``abs(Decimal)`` would round to the context's 28 digits).

    >>> absolute(Decimal("-40000000000000000.400000000000000001"))
    Decimal('40000000000000000.400000000000000001')
    """
    if isinstance(a, Decimal):
        return a.copy_abs()
    return abs(a)


def public(value: Any) -> Any:
    """The value as the rest of ipb sees it: a Fraction becomes a Decimal of 28 significant digits.

    >>> public(Fraction(2, 3)), public(Decimal("0.5")), public(None)
    (Decimal('0.6666666666666666666666666667'), Decimal('0.5'), None)
    """
    cls = value.__class__
    if cls is Decimal or cls is bool or value is None:  # the common cases, without the ABC instance check
        return value
    if isinstance(value, Fraction):
        return _OUT.divide(Decimal(value.numerator), Decimal(value.denominator))
    return value


def round_half_away(v: Any) -> Decimal:
    """``round(x)`` of the expression language: the nearest whole number, halves away from zero, exactly.

    ``abs(Decimal)`` would round to 28 digits, so the value is taken as a Fraction.
    """
    r = abs(as_fraction(v))
    whole = Decimal((2 * r.numerator + r.denominator) // (2 * r.denominator))
    return -whole if whole and v < 0 else whole
