"""Gaps between a gate's two criteria for ``ipb check``: known values for which neither ``reject`` nor ``proceed`` holds.

A gate that states both criteria is INCONCLUSIVE wherever neither holds, even with every fact known (s53newuser:
``reject: downside_loss > max_loss`` beside ``proceed: downside_loss <= max_loss and expected_gain > 0%`` left
``expected_gain <= 0%`` with a small loss undecided; ``ipb perturb`` made 80 such golds in 500 items). Under Kleene
logic (paper §6.2) a gate's verdict is INCONCLUSIVE only when the facts do not decide it (§7.3), so a gate whose
criteria leave known values undecided gives the benchmark a gold the paper's semantics does not mean.

What is read: both criteria's ``and`` / ``or`` / ``not`` structure down to atoms, each atom a comparison of one name
(an input or a computed value) with number literals or card constants (``x > 5%``, ``0 < r <= cap``), a category
name with a quoted value (``phase == "peak"``), or a bool name alone. A criterion with any other atom (arithmetic, a
comparison of two names, a call such as ``known()``) is not judged: no warning. Over the atoms' names the truth of
both criteria is constant between neighbouring thresholds, so trying every threshold, a point between each two
neighbours and one beyond each end (inside an input's declared ``range``, its ends included) decides it exactly;
at most :data:`POINT_LIMIT` combinations are tried, else no warning. A computed value is taken as free to take any
value (its formula is not read), so a gap over one is a gap if the formula can reach it; the warning says so.

The gap found is grown from its first combination into the widest box (one interval per name) whose every
combination is a gap, and written as bounds (``0% <= downside_loss <= 20% and expected_gain <= 0%``).
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, NamedTuple

from lark import Tree

from ipb.engine._exact import public
from ipb.engine.expressions import ExprType, parse_expression
from ipb.engine.numbers import read_number

__all__ = ["Gap", "POINT_LIMIT", "find_gap"]

#: At most this many combinations of the names' tried values are evaluated (a wider product: no warning).
POINT_LIMIT = 4096
_LITERALS = frozenset({"percent", "multiple", "money", "scaled", "decimal"})
_ORDER = frozenset({"<", "<=", ">", ">=", "==", "!="})


class _Point(NamedTuple):
    """One tried value of a name: ``value``, and the open interval ``(low, high)`` it stands for (None ends are
    unbounded) or None when it stands for itself (a threshold or a range end)."""

    value: Any
    between: tuple[Any, Any] | None


class Gap(NamedTuple):
    """A box of known values where neither criterion holds: per name ``(name, low, low_strict, high, high_strict)``
    (None for no bound; a category or bool name has low == high == its value), ``text`` the box as bounds and
    ``free`` the computed values it names."""

    bounds: tuple[tuple[str, Any, bool, Any, bool], ...]
    text: str
    free: tuple[str, ...]


def _fixed(node: Any, constants: dict[str, Any]) -> Fraction | None:
    if not isinstance(node, Tree):
        return None
    if node.data in _LITERALS:
        return Fraction(read_number(str(node.children[0])).value)
    if node.data == "neg":
        inner = _fixed(node.children[0], constants)
        return None if inner is None else -inner
    if node.data == "name":
        value = constants.get(str(node.children[0]))
        if isinstance(value, (Decimal, Fraction, int)) and not isinstance(value, bool):
            return Fraction(value)
    return None


def _atoms(tree: Any, constants: dict[str, Any], subjects: dict[str, ExprType],
           found: dict[str, set[Any]]) -> bool:
    """Collect per name the thresholds (numbers) or values (category strings, bools) the atoms of ``tree`` set it
    against into ``found``; False when an atom is not of a judged form."""
    if not isinstance(tree, Tree):
        return False
    if tree.data in ("and_", "or_", "not_"):
        return all(_atoms(k, constants, subjects, found) for k in tree.children if isinstance(k, Tree))
    if tree.data in ("true", "false"):
        return True
    if tree.data == "name":
        name = str(tree.children[0])
        if name in subjects and subjects[name].kind == "bool":
            found.setdefault(name, set()).update({True, False})
            return True
        return False
    if tree.data != "comparison":
        return False
    kids = tree.children
    for k in range(1, len(kids) - 1, 2):
        op = " ".join(str(t) for t in kids[k].children)
        if op not in _ORDER:
            return False
        pair = [kids[k - 1], kids[k + 1]]
        names = [p for p in pair if isinstance(p, Tree) and p.data == "name" and str(p.children[0]) in subjects]
        if len(names) != 1:
            return False
        name = str(names[0].children[0])
        other = pair[1] if pair[0] is names[0] else pair[0]
        kind = subjects[name].kind
        if kind == "number":
            value = _fixed(other, constants)
            if value is None:
                return False
            found.setdefault(name, set()).add(value)
        elif kind == "category" and isinstance(other, Tree) and other.data == "string" and op in ("==", "!="):
            found.setdefault(name, set()).update(subjects[name].values or ())
            found[name].add(str(other.children[0])[1:-1])
        else:
            return False
    return True


def _axis(values: set[Any], kind: str, span: tuple[Any, Any] | None) -> list[_Point]:
    """The tried values of one name: every threshold, a point between neighbours and one beyond each end; inside
    ``span`` (an input's declared range, ends included) when given."""
    if kind != "number":
        return [_Point(v, None) for v in sorted(values, key=str)]
    marks = sorted(values)
    if span is not None:
        lo, hi = Fraction(span[0]), Fraction(span[1])
        marks = sorted({m for m in marks if lo <= m <= hi} | {lo, hi})
    points: list[_Point] = []
    if span is None:
        reach = max(Fraction(1), marks[-1] - marks[0])
        points.append(_Point(marks[0] - reach, (None, marks[0])))
    for i, m in enumerate(marks):
        if i:
            points.append(_Point((marks[i - 1] + m) / 2, (marks[i - 1], m)))
        points.append(_Point(m, None))
    if span is None:
        points.append(_Point(marks[-1] + reach, (marks[-1], None)))
    return points


def _describe(name: str, axis: list[_Point], lo: int, hi: int, show: Callable[[Any], str],
              kind: str) -> tuple[str, tuple[str, Any, bool, Any, bool]] | None:
    """The bounds of ``name`` over ``axis[lo..hi]`` as text (None when the box spans all its values)."""
    if kind != "number":
        if lo == 0 and hi == len(axis) - 1:
            return None
        values = [axis[i].value for i in range(lo, hi + 1)]
        shown = " or ".join(f"{name} == {v!r}" if kind == "category" else (name if v else f"not {name}")
                            for v in values)
        return shown, (name, values[0], False, values[-1], False)
    if lo == 0 and hi == len(axis) - 1:
        return None
    first, last = axis[lo], axis[hi]
    low, low_strict = (first.value, False) if first.between is None else (first.between[0], True)
    high, high_strict = (last.value, False) if last.between is None else (last.between[1], True)
    if lo == hi and first.between is None:
        return f"{name} = {show(low)}", (name, low, False, low, False)
    if high is None:
        text = f"{name} {'>' if low_strict else '>='} {show(low)}"
    elif low is None:
        text = f"{name} {'<' if high_strict else '<='} {show(high)}"
    else:
        text = f"{show(low)} {'<' if low_strict else '<='} {name} {'<' if high_strict else '<='} {show(high)}"
    return text, (name, low, low_strict, high, high_strict)


def find_gap(reject: Any, proceed: Any, constants: dict[str, Any], subjects: dict[str, ExprType],
             ranges: dict[str, tuple[Any, Any]], computed: set[str],
             show: Callable[[Any, str | None], str]) -> Gap | None:
    """A box of known values where neither ``reject`` nor ``proceed`` (compiled criteria, called with an
    environment) holds, or None when there is none or the criteria are not of the judged form.

    Parameters
    ----------
    reject, proceed : CompiledExpression
        The gate's two criteria (``fn(env)``: True, False or None for unknown).
    constants : dict
        The card's constants by name (value only), put in every environment.
    subjects : dict
        The names a criterion may test (inputs and computed values) with their types.
    ranges : dict
        An input's declared ``[lo, hi]`` by name: its values are tried inside it only.
    computed : set of str
        The computed values (named in :attr:`Gap.free` when the box bounds them).
    show : callable
        ``show(value, unit)``: a number as the card writes it (``20%``).

    Examples
    --------
    ``reject: r < 2%`` and ``proceed: r > 5%`` leave 2% to 5% (both ends included) undecided:

    >>> from ipb.engine.execute import format_value
    >>> from ipb.engine.expressions import RATIO, compile_expression
    >>> r = {"r": RATIO}
    >>> find_gap(compile_expression("r < 2%", r), compile_expression("r > 5%", r), {}, r, {}, set(), format_value).text
    '2% <= r <= 5%'
    >>> find_gap(compile_expression("r < 2%", r), compile_expression("r >= 2%", r), {}, r, {}, set(), format_value)
    """
    found: dict[str, set[Any]] = {}
    for criterion in (reject, proceed):
        if not _atoms(parse_expression(criterion.source), constants, subjects, found):
            return None
    names = [n for n in found if found[n]]
    if not names:
        return None
    axes = [_axis(found[n], subjects[n].kind, ranges.get(n)) for n in names]
    total = 1
    for axis in axes:
        total *= len(axis)
    if total > POINT_LIMIT:
        return None
    memo: dict[tuple[int, ...], bool] = {}

    def gap(index: tuple[int, ...]) -> bool:
        if index not in memo:
            env = dict(constants)
            for n, axis, i in zip(names, axes, index):
                value = axis[i].value
                env[n] = _value(value)
            memo[index] = reject.fn(env) is False and proceed.fn(env) is False
        return memo[index]

    start = next((ix for ix in itertools.product(*(range(len(a)) for a in axes)) if gap(ix)), None)
    if start is None:
        return None
    box = [[i, i] for i in start]
    grown = True
    while grown:  # widen one name's interval by one step while every combination in the box stays a gap
        grown = False
        for d in range(len(names)):
            for side, step in ((0, -1), (1, 1)):
                while 0 <= box[d][side] + step < len(axes[d]):
                    trial = [list(b) for b in box]
                    trial[d][side] += step
                    cells = itertools.product(*(range(b[0], b[1] + 1) for b in trial))
                    if not all(gap(ix) for ix in cells):
                        break
                    box, grown = trial, True
    shown: list[str] = []
    bounds: list[tuple[str, Any, bool, Any, bool]] = []
    for n, axis, (lo, hi) in zip(names, axes, box):
        unit = subjects[n].unit

        def written(v: Any, u: str | None = unit) -> str:
            return show(_value(v), u)

        got = _describe(n, axis, lo, hi, written, subjects[n].kind)
        if got is not None:
            shown.append(got[0])
            bounds.append(got[1])
    if not shown:
        shown = ["any value of " + ", ".join(names)]
    free = tuple(b[0] for b in bounds if b[0] in computed)
    return Gap(tuple(bounds), " and ".join(shown), free)


def _value(value: Any) -> Any:
    """A tried value as the engine holds it (a Fraction with a finite decimal form as a Decimal)."""
    if isinstance(value, Fraction):
        return public(value) if value.denominator != 1 else Decimal(value.numerator)
    return value

