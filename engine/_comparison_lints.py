"""Warnings ``ipb check`` gives on a comparison whose two sides are numbers of units that do not read alike.

Both rules look at one side (the *subject*, a value computed from the facts) and the other (the *threshold*, a
constant): the comparison itself decides right, but the card, its trace or its required elements say the figure in a
way an answer never will.

- ``unitless-threshold``: a plain literal against a ratio, money or multiple (``retention >= 90``: 90 means 9,000%),
  or a plain card constant read by name (``discount >= min_discount`` with ``min_discount: 50``, s53newuser).
- ``plain-against-ratio``: a plain number read by name against a ratio (``expected_return >= hurdle``, the hurdle 20%,
  where ``expected_return`` divides money by money times years). The GRP and every element quoting the value write
  0.24 where answers write 24% (s49user's Graham risk-arbitrage card: a faultless answer's KCCS was then 0.95 on
  every item reaching gate 3; KCCS now matches the two by value, s51user). ``* 100%`` on a plain definition makes it
  a ratio (not on one that is already a ratio or mixed: ratio times ratio is plain; ``ipb check`` advises a rewrite
  checked by the compiler, :mod:`ipb.engine._ratio_advice`, s53newuser). A value that adds a
  ratio to a plain term reading an input (``expense_ratio + turnover * trading_cost``, where a product of two ratios
  is plain) is shown plain too (``0.0023``, s51user's Bogle fund-cost card, where the author meant 0.23%); for it the
  ``* 100%`` goes on the plain term, since the whole sum times 100% stays plain.

Each function returns the warning, or None when the rule does not apply; ``source`` is the whole expression text
and offsets count characters in it.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ipb.engine._ops import Node
from ipb.engine._units import MIXED
from ipb.errors import LintWarning

__all__ = ["ADVICE", "line_col", "plain_against_ratio", "same_unit_quotient", "unitless_threshold"]

_UNIT_HINT = {"ratio": "write it as a percentage such as 90%", "money": "write it as money such as $5B",
              "multiple": "write it as a multiple such as 10x"}


def _percent(value: Any) -> str:
    """``value`` (a share: 0.5) written as a percentage (``50%``).

    >>> _percent(Decimal("0.5")), _percent(Fraction(1, 8))
    ('50%', '12.5%')
    """
    share = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
    return f"{(share * 100).normalize():f}%"


def line_col(source: str, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of character ``offset`` of ``source``."""
    before = source[:offset]
    line = before.count("\n") + 1
    column = offset - (before.rfind("\n") + 1) + 1
    return line, column


def _warning(source: str, at: int, message: str, rule: str) -> LintWarning:
    line, column = line_col(source, at)
    return LintWarning(message, line=line, column=column, offset=at, rule=rule)


def _text(source: str, node: Node) -> str:
    return source[node.start : node.end]


def same_unit_quotient(op: str, a: Node, b: Node) -> bool:
    """Whether ``a / b`` divides two values read from the facts in one unit: money by money, or plain numbers of one
    declared ``unit:`` (a share such as 0.3, not a ratio, a multiple or a count). Only the first step of a chain
    is asked: in ``p / e * p / b`` (Graham's P/E times P/B) the last division's dividend is a product.

    >>> from ipb.engine.expressions import MONEY
    >>> from ipb.engine._ops import constant
    >>> money = Node(lambda env: None, MONEY)
    >>> same_unit_quotient("/", money, money), same_unit_quotient("*", money, money)
    (True, False)
    >>> same_unit_quotient("/", money, constant(Decimal(2), MONEY, 0, 2))
    False
    """
    if op != "/" or a.const or b.const or a.type.fraction or b.type.fraction:
        return False
    if a.type.unit == b.type.unit == "money":
        return True
    return a.type.unit is None and b.type.unit is None and a.type.measure is not None and a.type.measure == b.type.measure


def unitless_threshold(source: str, subject: Node, threshold: Node) -> LintWarning | None:
    """A plain literal threshold against a ratio, money or multiple ("retention >= 90"), or None.

    A plain quotient of two values in one unit (``ExprType.fraction``: ``operating_profit / capital_employed``, 0.3
    for 30%) is judged as a ratio when the threshold is above 1 in size: ``roce >= 20`` with the author's "20%
    minimum" is never met (s54newuser's Terry Smith card: every scenario failed gate 1, silently). A share such as
    0.2 or 1 against it stays silent, and so does a threshold above 1 against a quotient of money by money whose
    name says it is a multiple or a ratio of prices (``pe``, ``price_to_...``, ``..._multiple``).
    """
    if subject.type.fraction and not subject.const:
        return _fraction_threshold(source, subject, threshold)
    unit = subject.type.unit
    if unit not in _UNIT_HINT or subject.const:
        return None
    # a constant read by name is folded to a constant node that keeps its name: judged as its literal would be
    # (s53newuser: "constants: {min_discount: 50}" against a ratio passed silently while ">= 50" warned)
    if not threshold.const or threshold.type.unit is not None:
        return None
    if threshold.value is None or threshold.value == 0:
        return None
    text = _text(source, threshold)
    if threshold.names:
        named = ", ".join(sorted(threshold.names))
        shown = {"ratio": "{}%", "money": "${}", "multiple": "{}x"}[unit].format(threshold.value)
        kind = {"ratio": "a percentage", "money": "money", "multiple": "a multiple"}[unit]
        advice = (f"if {threshold.value} is meant as {kind}, declare it '{named}: {shown}'" if len(threshold.names) == 1
                  else f"declare the constants with a unit ({_UNIT_HINT[unit]})")
        if unit == "ratio" and len(threshold.names) == 1 and abs(threshold.value) <= 1:
            # (0.5 against a ratio is 50% already; written plain, the trace and the elements show 0.5)
            advice += f", or '{named}: {_percent(threshold.value)}' if it is already the share"
        return _warning(
            source, threshold.start,
            f"threshold {text!r} has no unit (card constant {named} is a plain number, {threshold.value}) but "
            f"{_text(source, subject)!r} is a {unit}; {advice}",
            "unitless-threshold",
        )
    return _warning(
        source, threshold.start,
        f"threshold {text!r} has no unit but {_text(source, subject)!r} is a {unit}; {_UNIT_HINT[unit]}",
        "unitless-threshold",
    )


#: Words in a quotient's name (or the name it is compared under) that say it is a multiple, not a share.
_MULTIPLE_WORDS = frozenset({"pe", "per", "multiple", "times", "price", "to", "cover", "coverage", "turns", "x",
                             "ev", "pb", "ps", "pcf"})


def _fraction_threshold(source: str, subject: Node, threshold: Node) -> LintWarning | None:
    """The ``unitless-threshold`` warning for a plain threshold above 1 against a same-unit quotient, or None."""
    if not threshold.const or threshold.type.unit is not None or threshold.value is None or abs(threshold.value) <= 1:
        return None
    named = sorted(threshold.names)
    words = set(re.split(r"[_\W]+", " ".join([_text(source, subject), *named]).casefold()))
    if words & _MULTIPLE_WORDS:
        return None
    value = threshold.value
    meant = f"{value}%"
    text, said = _text(source, threshold), _text(source, subject)
    what = f"card constant {named[0]} is a plain number, {value}" if len(named) == 1 else f"{value}"
    declare = f"declare '{named[0]}: {meant}'" if len(named) == 1 else f"write '{meant}'"
    return _warning(
        source, threshold.start,
        f"threshold {text!r} has no unit ({what}) but {said!r} divides two values in one unit, a share such as "
        f"0.3 for 30%: {value} would mean {_percent(value)}, so the comparison is almost never met; if {value} is "
        f"meant as a percentage, {declare} and make {said!r} a ratio by multiplying its definition by 100%",
        "unitless-threshold",
    )


def plain_against_ratio(source: str, subject: Node, threshold: Node) -> LintWarning | None:
    """A plain number read by name against a constant ratio ("expected_return >= hurdle", the hurdle 20%), or None.

    Only a bare name warns: an expression such as Lynch's ``dividend_yield * pe_ratio > 60%`` is the author's own
    arithmetic, not a value an element quotes by name.

    A sum of a ratio and a plain term that reads an input (:data:`~ipb.engine._units.MIXED`, shown plain) warns too,
    with the advice that fits it: the ``100%`` goes on the plain term.
    """
    if subject.type.unit not in (None, MIXED) or subject.const or subject.ident is None:
        return None
    if not threshold.const or threshold.type.unit != "ratio":
        return None
    if subject.type.unit == MIXED:
        advice = ("it adds a ratio to a plain term (a product or quotient of two ratios, or of a ratio and a plain "
                  "number, is plain): if it is a share, multiply that term by 100% to make it a ratio "
                  "(rate * cost * 100%); the whole sum times 100% stays plain")
    else:
        advice = ("if it is a share, make its definition a ratio: '* 100%' makes a plain number a ratio, but a ratio "
                  "times 100% is plain again (a product of two ratios), so the 100% goes on the plain part only")
    found = _warning(
        source, subject.start,
        f"{_text(source, subject)!r} is a plain number but {_text(source, threshold)!r} is a ratio: the trace and "
        f"the required elements write it as a plain number (0.24) where answers write a percentage (24%){ADVICE}"
        f"{advice}",
        "plain-against-ratio",
    )
    found.name = subject.ident  # (ipb check replaces the advice with a checked rewrite of its definition)
    return found


#: Where a ``plain-against-ratio`` warning's advice starts (:func:`ipb.engine._ratio_advice.advised`).
ADVICE = "; "
