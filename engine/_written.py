"""How a person writes a derived input's value (issue 18, stop 30).

A ``derive:`` value is computed in the engine's decimal arithmetic, so a
quotient comes out with the context's 28 digits ("2.894736842105263157894736842
times"), which an item and its question then stated. A derived value is instead
rounded to the precision the input is written in, and the gold is computed from
that stated value (:meth:`ipb.engine.card.Constraint.value_for` rounds, so
perturbation, ``ipb check`` and ``ipb verify`` agree):

* an input with a declared ``step`` is written to the step's decimal places
  (step 0.05 -> hundredths; the value is not moved onto the grid); an amount
  of money to the step's place, so a step of $100M writes $284.6B (stop 30:
  the place of a whole-dollar step gave "$284.640592407B");
* otherwise by its unit: a ratio to hundredths of a percent (28.95%), a
  multiple or a plain number to hundredths (2.89x), a year to whole years, an
  amount of money to three significant figures ($1.23M);
* a value already written with no more digits than that is left exactly as it
  is (sums and differences of grid values keep their form, so no bundled card's
  items change); halves round away from zero, as people round.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

__all__ = ["written_form", "as_written"]

#: Decimal places by unit when the input declares no step.
_QUANTUM = {"ratio": Decimal("0.0001"), "multiple": Decimal("0.01"), "number": Decimal("0.01"), "year": Decimal(1)}
#: Significant figures of an amount of money (with no step), and the most kept as written.
MONEY_FIGURES = 3
MONEY_KEEP = 6


def written_form(spec: Any) -> tuple[Decimal | None, int | None]:
    """(quantum, significant figures) a value of input ``spec`` is written to; (None, None): as computed.

    >>> from types import SimpleNamespace as S
    >>> written_form(S(type="ratio", step=None)), written_form(S(type="number", step=Decimal("0.05")))
    ((Decimal('0.0001'), None), (Decimal('0.01'), None))
    >>> written_form(S(type="money", step=None))
    (None, 3)
    """
    step = getattr(spec, "step", None)
    if isinstance(step, Decimal) and step > 0:
        exponent = int(step.normalize().as_tuple().exponent)
        # an amount stepped in round figures ($100M) is written to that place ($284.6B, not $284.640592407B);
        # other inputs to the step's decimal places (a step of 1 or 5: whole numbers)
        return Decimal(1).scaleb(exponent if spec.type == "money" else min(0, exponent)), None
    if spec.type == "money":
        return None, MONEY_FIGURES
    return _QUANTUM.get(spec.type), None


def as_written(value: Decimal, form: tuple[Decimal | None, int | None]) -> Decimal:
    """``value`` rounded as :func:`written_form` says, or unchanged when it has no more digits than that.

    >>> as_written(Decimal(55) / Decimal(19), (Decimal("0.01"), None))
    Decimal('2.89')
    >>> as_written(Decimal("0.105"), (Decimal("0.0001"), None)), as_written(Decimal("2.5"), (Decimal("0.01"), None))
    (Decimal('0.105'), Decimal('2.5'))
    >>> as_written(Decimal(1) / 3 * 10**9, (None, 3)), as_written(Decimal("482100000000"), (None, 3))
    (Decimal('3.33E+8'), Decimal('482100000000'))
    >>> as_written(Decimal("0.125"), (Decimal("0.01"), None))
    Decimal('0.13')
    """
    if not value.is_finite():
        return value
    quantum, figures = form
    if quantum is not None:
        if value.as_tuple().exponent >= quantum.as_tuple().exponent:  # type: ignore[operator]
            return value
        return value.quantize(quantum, rounding=ROUND_HALF_UP)
    if figures is not None and value != 0:
        digits = len(value.normalize().as_tuple().digits)
        if digits <= MONEY_KEEP:
            return value
        place = value.adjusted() - figures + 1
        return value.quantize(Decimal(1).scaleb(place), rounding=ROUND_HALF_UP)
    return value
