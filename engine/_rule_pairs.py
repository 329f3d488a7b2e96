"""``ipb check``'s ``incompatible-constraints`` warning: two ``require:`` rules that each hold somewhere but never
together, read exactly as bounds on the quotient of two inputs (s64 new user F7).

``require: rd_spend > revenue`` beside ``require: rd_spend <= 25% * revenue`` passed ``ipb check`` (each rule alone
holds for some scenario; ``unsatisfiable-constraint`` judges one rule at a time, and a rule reading two wide inputs
is not tried on a grid), and ``ipb perturb`` made 300 items of which none could state ``rd_spend``. A rule of the
shape ``A OP B`` or ``A OP K * B`` (``OP`` one of ``<``, ``<=``, ``>``, ``>=``; ``K`` a number or a card constant,
on either side of ``B``), with ``B``'s declared range above 0, bounds the quotient ``A / B`` by ``K`` (1 for a bare
``B``); two such rules over the same two inputs whose bounds admit no quotient together contradict, whatever the
scenario. ``B OP K * A`` with both ranges above 0 is read as the reverse bound on ``A / B``. Exact (rational
arithmetic, open and closed ends), so it never warns wrongly; any other shape is not judged.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from ipb.engine.card import Card, Constraint
from ipb.engine.numbers import read_number
from ipb.errors import IpbError, LintWarning

__all__ = ["incompatible_rules"]

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SHAPE = re.compile(rf"^\s*(?P<a>{_NAME})\s*(?P<op><=|<|>=|>)\s*(?:(?P<k1>[^\s*()]+)\s*\*\s*)?(?P<b>{_NAME})"
                    rf"(?:\s*\*\s*(?P<k2>[^\s*()]+))?\s*$")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


class _Bound(NamedTuple):
    """``A / B`` OP ``value``."""

    op: str
    value: Fraction


def _factor(card: Card, text: str | None) -> Fraction | None:
    if text is None:
        return Fraction(1)
    held = card.constants.get(text)
    raw: Any = held[0] if held is not None else None
    if raw is None:
        try:
            raw = read_number(text).value
        except (IpbError, ValueError, ArithmeticError):
            return None
    return Fraction(raw) if isinstance(raw, (int, Decimal, Fraction)) and not isinstance(raw, bool) else None


def _positive(card: Card, name: str) -> bool:
    spec = card.inputs.get(name)
    return spec is not None and spec.range is not None and isinstance(spec.range[0], (int, Decimal)) \
        and spec.range[0] > 0


def _bound(card: Card, rule: Constraint) -> tuple[tuple[str, str], _Bound] | None:
    """((A, B), bound on A / B) of a rule of the module's shape, with the pair in name order; None otherwise."""
    found = _SHAPE.match(rule.expr.source)
    if found is None or (found["k1"] and found["k2"]):
        return None
    a, b, op = found["a"], found["b"], found["op"]
    k = _factor(card, found["k1"] or found["k2"])
    if k is None or a == b or a not in card.inputs or b not in card.inputs or not _positive(card, b):
        return None
    if a < b:
        return (a, b), _Bound(op, k)
    if k <= 0 or not _positive(card, a):
        return None
    return (b, a), _Bound(_FLIP[op], 1 / k)  # A OP k * B  <=>  B / A  FLIP(OP)  1 / k, both above 0


def _disjoint(x: _Bound, y: _Bound) -> bool:
    """No quotient meets both bounds."""
    low, high = (x, y) if x.op in (">", ">=") else (y, x)
    if low.op not in (">", ">=") or high.op not in ("<", "<="):
        return False  # two bounds on one side always meet
    if low.value != high.value:
        return low.value > high.value
    return low.op == ">" or high.op == "<"


def _shown(bound: _Bound) -> str:
    """``> 1``, ``<= 0.25``: the bound as the warning writes it (display only)."""
    return f"{bound.op} {float(bound.value):g}"


def incompatible_rules(card: Card) -> list[tuple[tuple[Any, ...], LintWarning]]:
    """(card path of the later rule, warning) for each pair of ``require:`` rules whose bounds on the quotient of the
    same two inputs admit no value together.

    >>> from ipb.engine._demo import demo_card
    >>> text = '''inputs:
    ...   rd: {type: money, range: [$1M, $5B]}
    ...   sales: {type: money, range: [$50M, $20B]}
    ... constraints:
    ...   - {id: above, require: rd > sales}
    ...   - {id: share, require: rd <= 25% * sales}
    ... gates:
    ...   - {id: g, name: G, proceed: rd > $1M, required_elements: [x]}
    ... '''
    >>> [(path, w.rule) for path, w in incompatible_rules(demo_card(text))]
    [(('constraints', 1, 'require'), 'incompatible-constraints')]
    """
    seen: dict[tuple[str, str], list[tuple[Constraint, _Bound]]] = {}
    found: list[tuple[tuple[Any, ...], LintWarning]] = []
    for j, rule in enumerate(card.constraints):
        if rule.derive is not None or rule.expr.constant:
            continue
        read = _bound(card, rule)
        if read is None:
            continue
        pair, bound = read
        for other, earlier in seen.get(pair, []):
            if _disjoint(earlier, bound):
                a, b = pair
                found.append((("constraints", j, "require"), LintWarning(
                    f"constraints {other.id!r} ({other.expr.source.strip()}) and {rule.id!r} "
                    f"({rule.expr.source.strip()}) hold together for no value of {a} / {b} ({_shown(earlier)} and "
                    f"{_shown(bound)}, {b} being above 0 on its range): every scenario that states both {a} and "
                    f"{b} breaks one of them, so ipb perturb never states the two together; check the rules (one "
                    "bound the wrong way round?)", rule="incompatible-constraints", name=rule.id)))
                break
        seen.setdefault(pair, []).append((rule, bound))
    return found
