"""The unit of an arithmetic result and which units may meet (``+ - * /`` and comparisons in criteria).

Numbers carry a unit: ``money``, ``ratio`` (``25%``), ``multiple`` (``10x``), ``years``, :data:`MIXED`, or
None for a plain number. Money never meets a ratio or a multiple in a sum or a comparison; ratios and
multiples are both pure numbers, so they may. A sum of a ratio and a multiple is :data:`MIXED`: shown as a
plain number (``2.99``, not ``299%`` or ``2.99x``) and compared with plain thresholds.

Examples
--------
Altman's Z (1968), ``1.2 X1 + 1.4 X2 + 3.3 X3 + 0.6 X4 + 1.0 X5`` with X1-X3 ratios and X4, X5 multiples:

>>> arithmetic_unit("+", "ratio", "multiple"), arithmetic_unit("+", MIXED, "multiple")
('dimensionless', 'dimensionless')
>>> arithmetic_unit("+", "ratio", None), arithmetic_unit("*", "money", "ratio"), arithmetic_unit("/", "money", "money")
('ratio', 'money', None)
>>> incompatible_units("money", "ratio"), incompatible_units(MIXED, "ratio"), incompatible_units(MIXED, "money")
(True, False, True)
"""

from __future__ import annotations

__all__ = ["MIXED", "arithmetic_unit", "incompatible_units"]

#: The unit of a sum or difference of a ratio and a multiple. It stays so through further sums with ratios,
#: multiples and plain numbers, so such a sum's unit does not depend on the order of its terms (before, the sum
#: took its first term's unit: a new user's Altman Z of exactly 2.99 read ``299%`` in the trace and the gold
#: program, ``ipb check`` advised writing the 2.99 threshold as a percentage, and an answer stating "Z 2.9" was
#: not credited for the element ``Z 290%``).
MIXED = "dimensionless"
_DIMENSIONLESS = frozenset({"ratio", "multiple", MIXED})


def arithmetic_unit(op: str, a: str | None, b: str | None) -> str | None:
    """The unit of ``a op b`` for ``op`` one of ``+ - * /``, given the operands' units (checked compatible)."""
    if op in "+-":
        units = {a, b} - {None}
        if units <= _DIMENSIONLESS and (len(units) > 1 or MIXED in units):
            return MIXED
        return a or b
    if op == "*":
        if a == "money" or b == "money":
            return "money"
        return a if b is None else (b if a is None else None)
    # division
    if a == "money" and b != "money":
        return "money"
    if a == b:
        return None
    return a if b is None else None


def incompatible_units(a: str | None, b: str | None) -> bool:
    """Whether numbers in units ``a`` and ``b`` must not be added, subtracted or compared."""
    if a is None or b is None or a == b:
        return False
    return not (a in _DIMENSIONLESS and b in _DIMENSIONLESS)
