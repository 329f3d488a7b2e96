"""Values of card inputs as perturbation sees them: grids, exact literals, display text.

Three forms of one fact value appear in a perturbed item:

* the **engine value** (``Decimal`` for numbers, ``bool``, category ``str``,
  ``datetime.date``), what :func:`ipb.engine.execute.execute` reads;
* the **literal**, an exact text that :func:`ipb.engine.scenario.convert_fact`
  reads back to the same engine value (``"95%"``, ``"$2.5B"``, ``"-$50M"``,
  ``"7x"``, ``"0.125"``): it is what item scenarios and manifests hold, so a
  JSON item never carries a float;
* the **display** text, :func:`ipb.engine.execute.format_value` plus the free
  text unit of a plain number (``"$2.5B"``, ``"95%"``, ``"10 years"``): what the
  rendered question shows.

A numeric input with a declared ``range`` has a :class:`Grid` of plausible
values ``lo, lo + step, ..., <= hi`` (paper §6.5: metric substitution draws
within the declared plausible range). An input with a range and no step gets
one hundredth of the range as its step.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cached_property
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping

from ipb.engine._card_checks import MAX_GRID_POINTS  # checked when the card loads, too
from ipb.engine.numbers import read_number
from ipb.engine.card import Card, InputSpec
from ipb.engine.execute import format_value
from ipb.errors import IpbError, PerturbError

__all__ = [
    "Grid",
    "NUMERIC_TYPES",
    "input_grid",
    "literal",
    "display",
    "consumed_inputs",
    "read_inputs",
    "is_numeric",
    "read_literal",
]

#: Input types whose values lie on a numeric grid (calendar years and dates are
#: moved only by temporal displacement).
NUMERIC_TYPES = frozenset({"number", "ratio", "money", "multiple"})

_SCALES = (("T", Decimal(10) ** 12), ("B", Decimal(10) ** 9), ("M", Decimal(10) ** 6), ("K", Decimal(10) ** 3))


def is_numeric(spec: InputSpec) -> bool:
    """True for number, ratio, money and multiple inputs."""
    return spec.type in NUMERIC_TYPES


@dataclass(frozen=True)
class Grid:
    """The plausible values of one numeric input: ``lo + k * step`` for ``k = 0 .. count - 1``.

    All arithmetic is exact (``Decimal``), so a grid value compares with a
    card threshold exactly as the engine does.

    >>> g = Grid(Decimal("1"), Decimal("0.5"), Decimal("3"))
    >>> g.count, g.value(4), g.index_of(Decimal("2.5")), g.index_of(Decimal("2.2"))
    (5, Decimal('3.0'), 3, None)
    """

    lo: Decimal
    step: Decimal
    hi: Decimal

    @cached_property
    def count(self) -> int:
        """How many grid values lie in ``[lo, hi]`` (computed once per grid)."""
        return int((self.hi - self.lo) // self.step) + 1

    def value(self, k: int) -> Decimal:
        """The ``k``-th grid value (0-based)."""
        return self.lo + self.step * k

    def index_of(self, value: Decimal) -> int | None:
        """The index of ``value`` on the grid, or None when it is off the grid or out of range."""
        if value < self.lo or value > self.hi:
            return None
        q, r = divmod(value - self.lo, self.step)
        return int(q) if r == 0 else None

    def contains(self, value: Decimal) -> bool:
        """True when ``value`` lies in ``[lo, hi]`` (on the grid or not)."""
        return self.lo <= value <= self.hi

    def below(self, value: Decimal) -> int:
        """Number of grid values strictly below ``value``."""
        if value <= self.lo:
            return 0
        if value > self.hi:
            return self.count
        q, r = divmod(value - self.lo, self.step)
        return int(q) + (1 if r != 0 else 0)

    def clip(self, lo: Decimal, hi: Decimal) -> "Grid | None":
        """The part of the grid inside ``[lo, hi]``, on the same step; None when empty."""
        first = self.below(lo)
        if first >= self.count:
            return None
        new_lo = self.value(first)
        if new_lo > hi:
            return None
        last = min(self.hi, hi)
        return Grid(new_lo, self.step, new_lo + self.step * int((last - new_lo) // self.step))


def input_grid(spec: InputSpec) -> Grid | None:
    """The grid of a numeric input with a declared ``range``; None without one.

    Raises
    ------
    PerturbError
        Rule ``step``: the declared step is zero or negative.
    """
    if not is_numeric(spec) or spec.range is None:
        return None
    lo, hi = spec.range
    step = spec.step if spec.step is not None else (hi - lo) / 100
    if step <= 0:
        if lo == hi:
            return Grid(lo, Decimal(1), hi)
        raise PerturbError(f"input {spec.name!r} declares step {step}; a step must be positive", rule="step", name=spec.name)
    points = Fraction(hi - lo) / Fraction(step)
    if points > MAX_GRID_POINTS:
        raise PerturbError(
            f"input {spec.name!r}: range {lo}..{hi} with step {step} is about 10^{len(str(int(points))) - 1} grid "
            f"points; at most 10^{len(str(MAX_GRID_POINTS)) - 1} are supported (declare a coarser step)",
            rule="step", name=spec.name)
    _check_writable(spec, (lo, hi, lo + step, hi - step))
    return Grid(lo, step, hi)


def _check_writable(spec: InputSpec, values: Iterable[Decimal]) -> None:
    """PerturbError unless every value is written (:func:`literal`) as a fact that the scenario reader reads back.

    A card may declare a range in exponent form (``range: [0, "1e99"]``), which it reads, while an item writes its
    facts in full (``"340000...0"``, 99 digits) and the reader stops at :data:`ipb.engine.numbers.MAX_DIGITS`
    digits: ``ipb perturb`` wrote items that ``ipb verify``, ``respond`` and ``score`` could not read (s48break).
    """
    from ipb.engine.scenario import convert_fact

    for value in values:
        text = literal(spec, value)
        try:
            convert_fact(spec, text)
        except IpbError as exc:
            shown = text if len(text) <= 24 else f"{text[:8]}...{text[-4:]} ({len(text)} characters)"
            lo, hi = spec.range or (value, value)
            raise PerturbError(
                f"input {spec.name!r}: its range {_brief(lo)}..{_brief(hi)} has values that an item cannot state: "
                f"{_brief(value)} is written {shown}, which ipb does not read back "
                f"({exc.message.replace(text, shown)}); declare a narrower range", rule="range",
                name=spec.name) from None


def _brief(value: Decimal) -> str:
    """``value`` in full when short, else in exponent form (``1E+99``)."""
    text = _plain(value)
    return text if len(text) <= 24 else format(value.normalize(), "E")


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def literal(spec: InputSpec, value: Any) -> Any:
    """The exact JSON form of an engine value for input ``spec`` (None stays None).

    Numbers are strings with their unit, so no float ever enters an item and
    :func:`ipb.engine.scenario.convert_fact` reads the same Decimal back.

    >>> from ipb.engine.expressions import MONEY, RATIO
    >>> literal(InputSpec("arr", "money", MONEY), Decimal("2500000000"))
    '$2.5B'
    >>> literal(InputSpec("m", "ratio", RATIO), Decimal("0.955")), literal(InputSpec("n", "money", MONEY), Decimal("-5E7"))
    ('95.5%', '-$50M')
    """
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, Decimal):
        return value
    kind = spec.type
    if kind == "ratio":
        return _plain(value * 100) + "%"
    if kind == "multiple":
        return _plain(value) + "x"
    if kind == "money":
        sign = "-" if value < 0 else ""
        mag = abs(value)
        for suffix, scale in _SCALES:
            if mag >= scale:
                return f"{sign}${_plain(mag / scale)}{suffix}"
        return f"{sign}${_plain(mag)}"
    if kind == "year" and value == value.to_integral_value():
        return int(value)
    return _plain(value)


def money_text(value: Decimal) -> str:
    """How a question writes an amount of money (s35review: "$324.001K" and "$2.4" read as a misprint): under $1M
    in full with thousands separators, a fraction in cents; from $1M the item's own form (:func:`literal`).
    :func:`ipb.engine.scenario.convert_fact` reads each back to the same value.

    >>> [money_text(Decimal(v)) for v in ("324001", "2.4", "18", "-0.15", "95000", "12500.5", "2.455", "2.5E9")]
    ['$324,001', '$2.40', '$18', '-$0.15', '$95,000', '$12,500.50', '$2.455', '$2.5B']
    """
    sign = "-" if value < 0 else ""
    mag = abs(value)
    for suffix, scale in _SCALES[:3]:
        if mag >= scale:
            return f"{sign}${_plain(mag / scale)}{suffix}"
    if mag == mag.to_integral_value():
        return f"{sign}${mag.to_integral_value():,}"
    cents = mag.quantize(Decimal("0.01"))
    return f"{sign}${cents if cents == mag else mag.normalize():,f}"


_FAST = re.compile(r"(-?)(\$?)(\d+(?:\.\d+)?)([KMBT%x]?)")
_UNITS = {"%": "ratio", "x": "multiple"}
_SCALE = {"K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "B": Decimal(10) ** 9, "T": Decimal(10) ** 12}


def read_literal(spec: InputSpec, text: str) -> Decimal | None:
    """The engine value of a numeric literal in the forms :func:`literal` writes, without the parser.

    Returns None when ``text`` is not such a form or does not fit the input
    (the caller then uses :func:`ipb.engine.scenario.convert_fact`, which
    gives the error). The value is the same Decimal, digit for digit, as
    ``convert_fact`` gives (``tests/perturb/test_perturb_values.py``).

    >>> from ipb.engine.expressions import MONEY
    >>> read_literal(InputSpec("m", "money", MONEY), "-$2.5B")
    Decimal('-2500000000')
    """
    if spec.type not in NUMERIC_TYPES:
        return None
    m = _FAST.fullmatch(text)
    if m is None:
        return None
    sign, dollar, digits, suffix = m.groups()
    if dollar:
        if suffix in _UNITS:
            return None
        value = Decimal(digits) * _SCALE[suffix] if suffix else Decimal(digits)
        unit: str | None = "money"
    elif suffix in _UNITS:
        value = Decimal(digits) / 100 if suffix == "%" else Decimal(digits)
        unit = _UNITS[suffix]
    elif suffix:
        return None  # a scaled plain number (3M): rare in items, left to the parser
    else:
        value, unit = Decimal(digits), None
    expected = spec.expr_type.unit
    if unit is not None and unit != expected:
        return None
    if spec.type == "ratio" and unit is None and abs(value) > 10:
        return None
    # The value itself as the engine's one number reader gives it (the same normal form as
    # convert_fact, digit for digit); the pattern above only decides the form and the unit.
    return read_number(text).value


def display(spec: InputSpec, value: Any) -> str:
    """How the question text shows a value: :func:`format_value`, plus the unit of a plain number.

    >>> from ipb.engine.expressions import NUMBER
    >>> display(InputSpec("y", "number", NUMBER, unit="years"), Decimal(10))
    '10 years'
    """
    if isinstance(value, dt.date):
        return value.isoformat()
    text = format_value(value, spec.expr_type.unit)
    if value is not None and spec.type == "number" and spec.unit:
        text += f" {spec.unit}"
    return text


def consumed_inputs(card: Card) -> dict[str, tuple[str, ...]]:
    """Each input that some gate reads, directly or through computed values, -> those gate ids.

    Inputs no gate reads are left out (they are context only, such as a
    ``sector`` category that no criterion mentions). An input that no gate
    reads but a ``derive:`` value does (the five-year growth in a derived
    "yield plus growth") counts as read by the gates that read the derived
    input: perturbation recomputes that input from it, so it moves their
    verdicts (before, such an input was never drawn; branch s29user18).
    """
    value_inputs: dict[str, frozenset[str]] = {}
    for g in card.gates:
        for name, expr in g.compute.items():
            value_inputs[name] = _resolve(expr.names, value_inputs, card.inputs)
        if g.classify:
            names: set[str] = set()
            for _, when in g.classify:
                if when is not None:
                    names |= when.names
            value_inputs[g.id] = _resolve(names, value_inputs, card.inputs)
    found: dict[str, list[str]] = {}
    for g in card.gates:
        for name in sorted(_resolve(g.reads, value_inputs, card.inputs)):
            found.setdefault(name, []).append(g.id)
    for k in card.constraints:
        if k.derive is not None and k.derive in found:
            for name in sorted(_resolve(k.expr.names, value_inputs, card.inputs) - set(found)):
                found[name] = list(found[k.derive])
    return {name: tuple(found[name]) for name in card.inputs if name in found}


def read_inputs(card: Card) -> frozenset[str]:
    """The card-relevant inputs: those some gate, computed value or constraint reads.

    A gate reads an input directly or through a computed value
    (:func:`consumed_inputs`); a ``constraints:`` entry reads the names in its
    expression (a computed value counts as the inputs it is computed from)
    and, for ``derive:``, the input it derives. An input outside this set is
    a label only: changing it changes no verdict and no constraint, so two
    scenarios that differ only there are the same item (issue 18).
    """
    value_inputs: dict[str, frozenset[str]] = {}
    for g in card.gates:
        for name, expr in g.compute.items():
            value_inputs[name] = _resolve(expr.names, value_inputs, card.inputs)
    out = set(consumed_inputs(card))
    for k in card.constraints:
        out |= _resolve(k.expr.names, value_inputs, card.inputs)
        if k.derive is not None:
            out.add(k.derive)
    return frozenset(out)


def _resolve(names: Iterable[str], values: Mapping[str, frozenset[str]], inputs: Mapping[str, InputSpec]) -> frozenset[str]:
    out: set[str] = set()
    for name in names:
        if name in inputs:
            out.add(name)
        elif name in values:
            out |= values[name]
    return frozenset(out)
