"""Visible margins: a value that decides a gate must be past the gate's line by a step a reader can see (SR13).

Review finding SR13 (issue 18): on the Buffett share-repurchase card a third of the flip items turned on cents at
gate 2: a conservatively calculated value of $338,888 against a price of $305,000 rejects (90% of it is
$304,999.20) and $338,889 proceeds, while the gold program shows the price/value multiple as "0.9x". The question
states every fact exactly, so no rounding of the question hides the side; what hides it is the reading: a reader
who holds "$338,888" as "about $339K" (and a gold program that shows four decimals) sees the price at 90% of the
value, on the line.

The rule (docs/perturbation.md, "Visible margins"). Let ``g`` be the grid step of the moved input (the finest step
its values take, in engine units: ratios as fractions) and ``d(v)`` one unit of the third significant figure of
the value ``v`` the question states (``$338,888`` -> $1,000; ``$1.258B`` -> $10M; ``95.5%`` -> 0.1 percentage
point; ``0.9x`` -> 0.001x; ``12`` -> 0.1; zero -> nothing). The *display step* is ``m(v) = max(d(v), g)``
(:func:`display_step`). A flip's value ``v`` is *visibly past* its line when it lies at least ``m(v)`` beyond the
last grid value short of the line, checked as: ``v`` moved back towards the line by ``m(v) - g`` gives the same
verdicts as ``v`` (:func:`back_value`). So

* where the question shows every digit the grid has at that size (a count of 1 against "at least one", a
  price-to-book of 1.11x against "at most 1.1x", an amount of $1.2B on a $100M grid), the nearest flip is
  already visible and is kept: ``m(v) - g`` is 0;
* where it shows more than three figures of a finer grid ($338,888 on a $1 grid) the flip moves out by up to
  ``m(v)``: $337,889 (the price is 90.27% of it) in the example above.

Dates are stated to the day, a day is their grid step, and no operator searches along them; yes/no and category
facts have no line to be near.

This module gives the step and the check; :mod:`ipb.perturb.flip_search` moves a flip's value out to the first
visible one and :func:`ipb.perturb.verify_self.margin_problems` fails a flip item whose stated value is not.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ipb.engine.card import InputSpec

if TYPE_CHECKING:  # pragma: no cover
    from ipb.perturb.frame import Frame

__all__ = ["display_step", "back_value", "visible_problem", "knife_edges", "KNIFE_EDGE_PREFIX"]

#: The refusal a generation run records for a drawn item with a knife-edge value (:func:`knife_edges`).
KNIFE_EDGE_PREFIX = "knife edge: "


def display_step(value: Decimal, grid_step: Decimal) -> Decimal:
    """``m(v)``: the larger of one unit of ``value``'s third significant figure and ``grid_step`` (engine units).

    >>> [f"{display_step(Decimal(v), Decimal(g)):f}" for v, g in (("338888", "1"), ("1.258E9", "1E7"), ("0.955", "0.001"),
    ...                                                         ("0.9", "0.0001"), ("1", "1"), ("0", "0.01"))]
    ['1000', '10000000', '0.001', '0.001', '1', '0.01']
    """
    mag = abs(value)
    step = grid_step if mag == 0 else max(Decimal(1).scaleb(mag.adjusted() - 2), grid_step)
    return step.quantize(Decimal(1)) if step >= 1 else step  # whole steps in plain digits ($1,000, not $1E+3)


def back_value(value: Decimal, grid_step: Decimal, line_below: bool) -> Decimal:
    """``value`` moved ``m(v) - g`` back towards a line that lies below it (``line_below``) or above it.

    >>> back_value(Decimal(337889), Decimal(1), False), back_value(Decimal(1), Decimal(1), True)
    (Decimal('338888'), Decimal('1'))
    """
    gap = display_step(value, grid_step) - grid_step
    return value - gap if line_below else value + gap


def visible_problem(spec: InputSpec, value: Any, grid_step: Decimal, line_below: bool, outcome: Any,
                    outcome_back: Any) -> str | None:
    """Why fact ``value`` of ``spec`` is not visibly past its line, or None when it is.

    ``outcome`` is the verdicts with ``value`` stated, ``outcome_back`` with :func:`back_value` stated instead; the
    two must agree.
    """
    if not isinstance(value, Decimal) or outcome == outcome_back:
        return None
    from ipb.perturb.render import value_text  # the value as the question writes it

    back = back_value(value, grid_step, line_below)
    return (f"fact {spec.name} = {value_text(spec, value)} is not visibly past its gate's line (SR13): within one "
            f"display step ({value_text(spec, display_step(value, grid_step))}) of the last value short of it; at "
            f"{value_text(spec, back)} the verdict is {', '.join(map(str, outcome_back))}, not "
            f"{', '.join(map(str, outcome))}")


def knife_edges(frame: "Frame", facts: Mapping[str, Any], names: Iterable[str]) -> list[str]:
    """The drawn facts of ``names`` that lie within their display step of a gate's line, on either side (SR13).

    s53rfix (s52review kind 10): a metric or isolate draw lands anywhere on the grid, so it can land on a line
    by chance: Marks' risk-return card priced at 79.98-80.06% of value against "at most 80%", Graham's price
    within 4 cents of its limit. The flip keeps a visible margin on the one side it crosses (:func:`back_value`);
    a drawn value has no side, so both are checked: ``v`` moved ``m(v) - g`` up and down (``m``:
    :func:`display_step`, ``g`` the grid step) must give the verdicts ``v`` gives. Where the question shows every
    digit of the grid (``m(v) == g``) nothing is hidden and the value is kept. Derived inputs follow the moved one
    (:meth:`Frame.complete`); a name without a grid, or not a number in ``facts``, is skipped.

    Returns one line per knife-edge fact (empty when none), naming the fact, its step and the verdict it hides.
    """
    out: list[str] = []
    outcome: Any = None
    for name in names:
        value, grid, spec = facts.get(name), frame.grids.get(name), frame.inputs.get(name)
        if not isinstance(value, Decimal) or grid is None or spec is None:
            continue
        if display_step(value, grid.step) == grid.step:
            continue
        if outcome is None:
            outcome = frame.outcomes(facts)
        for line_below in (True, False):
            moved = frame.complete({**facts, name: back_value(value, grid.step, line_below)})
            problem = visible_problem(spec, value, grid.step, line_below, outcome, frame.outcomes(moved))
            if problem is not None:
                out.append(problem.replace("is not visibly past its gate's line (SR13)",
                                           "lies on a gate's line to the precision a reader holds (SR13)"))
                break
    return out
