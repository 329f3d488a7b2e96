"""Exact arithmetic for the expression engine: Decimals where they are exact, fractions where not.

A value is a :class:`~decimal.Decimal` or a :class:`~fractions.Fraction`. Each
operation is first tried in Decimal under a context that *traps* rounding
(``Inexact``), overflow and underflow; only when the Decimal result would not
be exact is it computed again with Fractions. So the common case stays a fast
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

from decimal import Context, Decimal, DivisionByZero, Inexact, InvalidOperation, Overflow, Rounded, Underflow
from fractions import Fraction
from typing import Any, Union

__all__ = ["Exact", "add", "sub", "mul", "div", "neg", "as_fraction", "normal", "public", "MAX_BITS"]

Exact = Union[Decimal, Fraction]

#: Largest numerator or denominator of an exact result, in bits (~10^3000).
MAX_BITS = 10_000

_CTX = Context(prec=60, Emax=3000, Emin=-3000,
               traps=[Inexact, Rounded, Overflow, Underflow, InvalidOperation, DivisionByZero])
_OUT = Context(prec=28)


def as_fraction(value: Exact) -> Fraction:
    """``value`` as a Fraction (exact)."""
    return value if isinstance(value, Fraction) else Fraction(value)


def normal(value: Fraction) -> Exact:
    """``value`` as a Decimal when it has a short finite decimal form, else the Fraction.

    Raises
    ------
    decimal.Overflow
        The numerator or denominator exceeds :data:`MAX_BITS` bits.

    >>> normal(Fraction(1, 4)), normal(Fraction(2, 3))
    (Decimal('0.25'), Fraction(2, 3))
    """
    num, den = value.numerator, value.denominator
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
        return value
    # num / (2^a 5^b) = num * 2^(k-a) * 5^(k-b) / 10^k with k = max(a, b)
    k = max(twos, fives)
    scaled = num * (2 ** (k - twos)) * (5 ** (k - fives))
    sign = 1 if scaled < 0 else 0
    return Decimal((sign, tuple(int(d) for d in str(abs(scaled))), -k))


def add(a: Exact, b: Exact) -> Exact:
    """``a + b``, exactly."""
    if a.__class__ is Decimal and b.__class__ is Decimal:
        try:
            return _CTX.add(a, b)
        except ArithmeticError:
            pass
    return normal(as_fraction(a) + as_fraction(b))


def sub(a: Exact, b: Exact) -> Exact:
    """``a - b``, exactly."""
    if a.__class__ is Decimal and b.__class__ is Decimal:
        try:
            return _CTX.subtract(a, b)
        except ArithmeticError:
            pass
    return normal(as_fraction(a) - as_fraction(b))


def mul(a: Exact, b: Exact) -> Exact:
    """``a * b``, exactly."""
    if a.__class__ is Decimal and b.__class__ is Decimal:
        try:
            return _CTX.multiply(a, b)
        except ArithmeticError:
            pass
    return normal(as_fraction(a) * as_fraction(b))


def div(a: Exact, b: Exact) -> Exact:
    """``a / b``, exactly; ZeroDivisionError when ``b`` is zero."""
    if not b:
        raise ZeroDivisionError("division by zero")
    if a.__class__ is Decimal and b.__class__ is Decimal:
        try:
            return _CTX.divide(a, b)
        except ArithmeticError:
            pass
    return normal(as_fraction(a) / as_fraction(b))


def neg(a: Exact) -> Exact:
    """``-a``, exactly (``-Decimal`` would round to the context)."""
    if a.__class__ is Decimal:
        return a.copy_negate()
    return -a


def public(value: Any) -> Any:
    """The value as the rest of ipb sees it: a Fraction becomes a Decimal of 28 significant digits.

    >>> public(Fraction(2, 3)), public(Decimal("0.5")), public(None)
    (Decimal('0.6666666666666666666666666667'), Decimal('0.5'), None)
    """
    if isinstance(value, Fraction):
        return _OUT.divide(Decimal(value.numerator), Decimal(value.denominator))
    return value
