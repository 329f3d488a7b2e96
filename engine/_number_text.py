"""How :func:`ipb.engine.execute.format_value` writes a number: at most four decimals, thousands grouped in the
dollar range the questions write in full, and scientific notation only where the plain form would hide the value.

Kept apart from :mod:`ipb.engine.execute` (the module-size limit of ``tests/test_layers.py``); the inverse, reading
written numbers, is :mod:`ipb.engine.numbers`.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["SCIENTIFIC_DIGITS", "scientific", "thousands", "trim"]


def thousands(mag: Decimal) -> str:
    """An amount from $1,000 to under $1M as the question writes it, in full with thousands separators and a
    fraction in cents (s49review SR11: gold elements read "price $1.107K" where the question said "$1,107").

    >>> [thousands(Decimal(v)) for v in ("1107", "324001", "12500.5", "2399.125", "999999.99999")]
    ['1,107', '324,001', '12,500.50', '2,399.125', '1,000,000']
    """
    whole, _, fraction = trim(mag).partition(".")
    text = f"{int(whole):,}"
    return f"{text}.{fraction.ljust(2, '0')}" if fraction else text


#: A number with this many integer digits or more is shown in scientific notation by :func:`trim`.
SCIENTIFIC_DIGITS = 15


def trim(value: Decimal) -> str:
    """At most four decimals, no trailing zeros; scientific notation only where the plain form would hide the value.

    A value that is not zero but rounds to 0 at four decimals is shown as ``1e-99``, never as ``0``, and one with
    more than :data:`SCIENTIFIC_DIGITS` integer digits as ``9e99``, not as its 100 digits (s63 new user B4: ``--set
    market_value=$1e-99`` was warned about as "$0", ``$9e99`` as an 88-digit number of trillions). No value an
    item or a bundled card states comes near either bound, so their texts are unchanged.

    >>> [trim(Decimal(v)) for v in ("0.123456", "0.00005", "-0.00004", "0.00006", "1E-99", "9E+99", "12345")]
    ['0.1235', '5e-5', '-4e-5', '0.0001', '1e-99', '9e99', '12345']
    """
    if value.adjusted() >= SCIENTIFIC_DIGITS:
        return scientific(value)
    shown = value.quantize(Decimal("0.0001"))
    if not shown and value:
        return scientific(value)
    text = format(shown.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def scientific(value: Decimal) -> str:
    """``value`` (not zero) as a mantissa of at most four decimals and a power of ten: ``1.2346e-7``, ``9e99``.

    >>> scientific(Decimal("-1.23456E-7")), scientific(Decimal("9.99999E+40"))
    ('-1.2346e-7', '1e41')
    """
    power = value.adjusted()
    mantissa = value.scaleb(-power).quantize(Decimal("0.0001"))
    if abs(mantissa) >= 10:  # 9.99999 rounded up
        power += 1
        mantissa = value.scaleb(-power).quantize(Decimal("0.0001"))
    return f"{format(mantissa.normalize(), 'f')}e{power}"
