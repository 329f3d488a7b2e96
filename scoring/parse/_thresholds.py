"""A gate's facts stated as a figure against the gate's own bar (issue 13, gates discussed in prose; paper §7.5).

"Returns on capital have run at 9%" says nothing by its words alone, yet a reader who knows the card's criterion
(``return_on_capital >= 15%``) reads it as the gate failing. For each gate whose tests are each a single comparison of
one name with a literal or a card constant (``pe_ratio <= 15x``, ``annual_sales >= $100M``, ``return_on_capital >=
return_on_capital_floor`` with the constant 15%), :func:`gate_bars` keeps those bars, read from the card's compiled expression text with the
engine's own grammar (:func:`ipb.engine.expressions.parse_expression`, :func:`ipb.engine.expressions.parse_literal`:
read only). :func:`bar_verdict` compares a clause's one figure of the bar's kind (money, a percentage, a multiple;
read by the one number reader, :func:`ipb.scoring._text.find_numbers`) with the bar: the test holds -> its verdict
(PROCEED for a ``proceed`` test, REJECT for a ``reject`` test), else the other. A gate with a compound test (``and``,
``or``, a category, two names) has no bar: one figure cannot settle it.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from ipb.engine.card import Card
from ipb.engine.expressions import parse_expression, parse_literal
from ipb.scoring import verdict_words as vw
from ipb.scoring.parse._memo import per_object

__all__ = ["Bar", "bar_verdict", "gate_bars"]

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_HOLDS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
#: literal kinds of the expression grammar -> the unit the number reader gives a figure of that kind
_UNITS = {"money": "money", "percent": "ratio", "multiple": "multiple"}


@dataclass(frozen=True)
class Bar:
    """``name op value`` (op one of < <= > >=; value in the number reader's units: 15% is 0.15) and the verdict the test
    gives when it holds."""

    name: str
    op: str
    value: Decimal
    unit: str
    holds: str

    def verdict(self, figure: Decimal) -> str:
        """The gate's verdict for ``figure`` of :attr:`name`.

        >>> Bar("pe", "<=", Decimal(15), "multiple", "PROCEED").verdict(Decimal("22"))
        'REJECT'
        """
        ok = _HOLDS[self.op](figure, self.value)
        return self.holds if ok else (vw.REJECT if self.holds == vw.PROCEED else vw.PROCEED)


def _literal(node: Any) -> tuple[Decimal, str] | None:
    """The value and unit of a literal node (``neg`` of one allowed), else None."""
    sign = 1
    if getattr(node, "data", None) == "neg" and len(node.children) == 1:
        sign, node = -1, node.children[0]
    kind = getattr(node, "data", None)
    if kind not in _UNITS or len(node.children) != 1:
        return None
    try:
        value, _ = parse_literal(str(node.children[0]))
    except Exception:  # noqa: BLE001 - a literal the reader cannot take is no bar
        return None
    return Decimal(sign) * Decimal(value), _UNITS[kind]


def _constant(node: Any, constants: dict[str, Any]) -> tuple[Decimal, str] | None:
    """The value and unit of a card constant named by ``node`` (``signal_percentile: 80%``), else None."""
    if getattr(node, "data", None) != "name":
        return None
    found = constants.get(str(node.children[0]))
    if found is None:
        return None
    value, kind = found
    unit = getattr(kind, "unit", None)
    if not isinstance(unit, str) or unit not in _UNITS.values() or isinstance(value, bool):
        return None
    try:
        return Decimal(value), unit
    except (InvalidOperation, TypeError, ValueError):
        return None


def _bar(source: str, holds: str, constants: dict[str, Any]) -> Bar | None:
    try:
        tree = parse_expression(source)
    except Exception:  # noqa: BLE001 - compiled cards parse; anything else is no bar
        return None
    if tree.data != "comparison" or len(tree.children) != 3:
        return None
    left, op_node, right = tree.children
    op = str(op_node.children[0]) if getattr(op_node, "children", None) else str(op_node)
    if op not in _FLIP:
        return None
    def value(node: Any) -> tuple[Decimal, str] | None:
        return _literal(node) or _constant(node, constants)

    if getattr(left, "data", None) == "name" and str(left.children[0]) not in constants:
        name, lit = str(left.children[0]), value(right)
    elif getattr(right, "data", None) == "name" and str(right.children[0]) not in constants:
        name, lit, op = str(right.children[0]), value(left), _FLIP[op]
    else:
        return None
    if lit is None:
        return None
    return Bar(name, op, lit[0], lit[1], holds)


@per_object()
def gate_bars(card: Card) -> dict[int, tuple[Bar, ...]]:
    """Gate number -> its bars, for the gates whose tests are each one comparison of a name with a literal or a card
    constant (built once per card): one bar when the gate has one test (failing it is the other verdict), two when it
    has both on the same name (a value that meets neither is no reading: the band between them is INCONCLUSIVE).

    >>> from ipb.engine.registry import compiled_card
    >>> bars = gate_bars(compiled_card("cppib_total_portfolio_active_strategy").card)
    >>> [(b.name, b.op, b.value == 0, b.unit, b.holds) for b in bars[1]]
    [('excess_return', '>', True, 'ratio', 'PROCEED'), ('excess_return', '<=', True, 'ratio', 'REJECT')]
    """
    table: dict[int, tuple[Bar, ...]] = {}
    constants = dict(getattr(card, "constants", None) or {})
    for g in card.gates:
        if g.classify or g.branches:
            continue
        tests = [(e, v) for e, v in ((g.proceed, vw.PROCEED), (g.reject, vw.REJECT)) if e is not None]
        bars = [_bar(e.source, v, constants) for e, v in tests]
        if bars and all(b is not None for b in bars) and len({b.name for b in bars if b is not None}) == 1:
            table[g.number] = tuple(b for b in bars if b is not None)
    return table


def bar_verdict(bars: Sequence[Bar], figures: Sequence[Any]) -> tuple[int, int, str] | None:
    """(start, end, verdict) of the one figure among ``figures`` (the number reader's matches in a clause) whose unit is
    the bars'; None when there is none or more than one (a clause of two figures of one kind does not say which is the
    gate's), or when the figure meets neither of two bars.

    >>> from types import SimpleNamespace as F
    >>> bars = (Bar("premium", ">=", Decimal("0.05"), "ratio", "PROCEED"), Bar("premium", "<", Decimal("0.02"), "ratio", "REJECT"))
    >>> [bar_verdict(bars, [F(start=0, end=2, value=v, unit="ratio")]) for v in (0.06, 0.01, 0.03)]
    [(0, 2, 'PROCEED'), (0, 2, 'REJECT'), None]
    """
    same = [f for f in figures if f.unit == bars[0].unit]
    if len(same) != 1:
        return None
    f = same[0]
    try:
        figure = Decimal(str(f.value))
    except (InvalidOperation, ValueError):
        return None
    if len(bars) == 1:
        return f.start, f.end, bars[0].verdict(figure)
    for bar in bars:
        if bar.verdict(figure) == bar.holds:
            return f.start, f.end, bar.holds
    return None
