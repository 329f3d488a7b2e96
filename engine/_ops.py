"""Compiled nodes of criterion expressions and the closures they run (arithmetic, comparison, Kleene logic).

The checker in :mod:`ipb.engine.expressions` builds one :class:`Node` per
grammar rule; each node's ``fn(env)`` is a small closure made here. Numbers are
exact (:mod:`ipb.engine._exact`): a quotient with no finite decimal form is a
Fraction, kept exact through ``+ - * /``, unary minus, computed values and
comparisons. An unknown operand (None) makes the result unknown; division by
zero and any other undefined or oversized arithmetic is unknown, never a crash.
"""

from __future__ import annotations

import operator
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence

from ipb.engine import _exact
from ipb.engine._exact import Exact

__all__ = ["Env", "Fn", "Node", "constant", "const_fn", "arith", "chain", "fold", "negate", "compare", "kleene_all",
           "kleene_any", "kleene_not", "Span", "unescape"]

Env = Mapping[str, Any]
Fn = Callable[[Env], Any]


class Node:
    """A checked, compiled sub-expression.

    ``fn(env)`` returns the value (or None for unknown). Constant nodes keep
    their exact ``value`` (a Decimal, or a Fraction with no finite decimal
    form) so that the parent can fold it.
    """

    __slots__ = ("fn", "type", "const", "value", "names", "start", "end", "ident", "aggregate")

    def __init__(
        self,
        fn: Fn,
        type: Any,
        names: frozenset[str] = frozenset(),
        *,
        const: bool = False,
        value: Any = None,
        start: int = 0,
        end: int = 0,
    ) -> None:
        self.fn = fn
        self.type = type
        self.names = names
        self.const = const
        self.value = value
        self.start = start
        self.end = end
        #: The input name, for a bare name lookup (lets parents read env directly).
        self.ident: str | None = None
        #: ("min" | "max", argument closures) of a min/max call, so that a
        #: comparison can be decided by the known arguments alone.
        self.aggregate: tuple[str, tuple[Fn, ...]] | None = None


class Span:
    """A stand-in for lark's meta covering two operands."""

    def __init__(self, start: int, end: int) -> None:
        self.start_pos = start
        self.end_pos = end


def const_fn(value: Any) -> Fn:
    def const(env: Env) -> Any:
        return value

    return const


def constant(value: Any, type: Any, start: int = 0, end: int = 0) -> Node:
    """A constant node; its closure returns the exact value."""
    return Node(const_fn(value), type, const=True, value=value, start=start, end=end)


# --------------------------------------------------------------------------- arithmetic

_ARITH: dict[str, Callable[[Exact, Exact], Exact]] = {
    "+": _exact.add, "-": _exact.sub, "*": _exact.mul, "/": _exact.div,
}


def fold(op: str, a: Any, b: Any) -> Any:
    """``a op b`` on two constants, exactly; None when undefined (``x/0``).

    Raises
    ------
    decimal.Overflow
        The exact result is beyond :data:`ipb.engine._exact.MAX_BITS`.
    """
    try:
        return _ARITH[op](a, b)
    except ZeroDivisionError:
        return None


def arith(op: str, left: Node, right: Node) -> Fn:
    """A closure for ``left op right``; exact, and unknown when an operand is unknown or the result undefined."""
    opf = _ARITH[op]
    # The Decimal attempt of _exact inlined (one call less per operation); when it raises, sop is what opf
    # then gives without redoing the attempt (s35speed: the exact path of a long expression paid it twice).
    dop = _exact.DECIMAL_OPS[op]
    sop = _exact.AFTER_DECIMAL[op]
    lf, rf = left.fn, right.fn
    # try/except costs nothing on the normal path (Python 3.11+).
    if left.ident is not None and right.const:
        name, b = left.ident, right.value
        if b is None:
            return const_fn(None)

        def name_const(env: Env) -> Any:
            a = env.get(name)
            if a is None:
                return None
            if a.__class__ is Decimal and b.__class__ is Decimal:
                try:
                    return dop(a, b)
                except ArithmeticError:
                    try:
                        return sop(a, b)
                    except ArithmeticError:
                        return None
            try:
                return opf(a, b)
            except ArithmeticError:
                return None

        return name_const
    if left.const and right.ident is not None:
        a, name = left.value, right.ident
        if a is None:
            return const_fn(None)

        def const_name(env: Env) -> Any:
            b = env.get(name)
            if b is None:
                return None
            if a.__class__ is Decimal and b.__class__ is Decimal:
                try:
                    return dop(a, b)
                except ArithmeticError:
                    try:
                        return sop(a, b)
                    except ArithmeticError:
                        return None
            try:
                return opf(a, b)
            except ArithmeticError:
                return None

        return const_name
    if left.ident is not None and right.ident is not None:
        lname, rname = left.ident, right.ident

        def name_name(env: Env) -> Any:
            a = env.get(lname)
            if a is None:
                return None
            b = env.get(rname)
            if b is None:
                return None
            if a.__class__ is Decimal and b.__class__ is Decimal:
                try:
                    return dop(a, b)
                except ArithmeticError:
                    try:
                        return sop(a, b)
                    except ArithmeticError:
                        return None
            try:
                return opf(a, b)
            except ArithmeticError:
                return None

        return name_name

    def generic(env: Env) -> Any:
        a = lf(env)
        if a is None:
            return None
        b = rf(env)
        if b is None:
            return None
        if a.__class__ is Decimal and b.__class__ is Decimal:
            try:
                return dop(a, b)
            except ArithmeticError:
                try:
                    return sop(a, b)
                except ArithmeticError:
                    return None
        try:
            return opf(a, b)
        except ArithmeticError:
            return None

    return generic


def chain(head: Node, steps: Sequence[tuple[str, Node]]) -> Fn:
    """``head op1 t1 op2 t2 ...`` left to right in one loop (no nesting, so no recursion limit)."""
    first = head.fn
    rest = tuple((_ARITH[op], _exact.DECIMAL_OPS[op], _exact.AFTER_DECIMAL[op], node.fn) for op, node in steps)

    def chained(env: Env) -> Any:
        acc = first(env)
        if acc is None:
            return None
        for opf, dop, sop, f in rest:
            v = f(env)
            if v is None:
                return None
            if acc.__class__ is Decimal and v.__class__ is Decimal:
                try:
                    acc = dop(acc, v)
                    continue
                except ArithmeticError:
                    try:
                        acc = sop(acc, v)
                        continue
                    except ArithmeticError:
                        return None
            try:
                acc = opf(acc, v)
            except ArithmeticError:
                return None
        return acc

    return chained


def negate(operand: Node) -> Fn:
    """``-operand``, exactly."""
    f = operand.fn

    def neg_fn(env: Env) -> Any:
        v = f(env)
        return None if v is None else _exact.neg(v)

    return neg_fn


# --------------------------------------------------------------------------- comparison

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _compare_aggregate(op: str, kind: str, args: tuple[Fn, ...], other: Fn) -> Fn:
    """``max(args) op other`` (or ``min``) decided by the known arguments when they suffice.

    ``max(...) > t`` holds as soon as one known argument exceeds ``t``, and fails
    only when every argument is known and none does; ``max(...) < t`` fails as
    soon as one known argument reaches ``t``. ``min`` mirrors this. This is the
    strong-Kleene reading of the comparison as an any/all over the arguments.
    """
    cmp = _COMPARE[op]
    upward = op in (">", ">=")
    # max > t == any(arg > t); max < t == all(arg < t); min < t == any; min > t == all.
    existential = upward == (kind == "max")

    def aggregate(env: Env) -> Any:
        t = other(env)
        if t is None:
            return None
        unknown = False
        for fn in args:
            v = fn(env)
            if v is None:
                unknown = True
                continue
            holds = cmp(v, t)
            if holds and existential:
                return True
            if not holds and not existential:
                return False
        if unknown:
            return None
        return not existential

    return aggregate


# A name against a constant, the commonest comparison (``price < 100``), with the operator written inline: one
# closure per operator, so that no operator function is called per evaluation. Each gives ``cmp(a, b)`` of
# :data:`_COMPARE` (the same Python comparison), or None when the name is unknown.


def _name_lt(name: str, b: Any) -> Fn:
    def name_lt(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a < b

    return name_lt


def _name_le(name: str, b: Any) -> Fn:
    def name_le(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a <= b

    return name_le


def _name_gt(name: str, b: Any) -> Fn:
    def name_gt(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a > b

    return name_gt


def _name_ge(name: str, b: Any) -> Fn:
    def name_ge(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a >= b

    return name_ge


def _name_eq(name: str, b: Any) -> Fn:
    def name_eq(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a == b

    return name_eq


def _name_ne(name: str, b: Any) -> Fn:
    def name_ne(env: Env) -> Any:
        a = env.get(name)
        return None if a is None else a != b

    return name_ne


_NAME_CONST: dict[str, Callable[[str, Any], Fn]] = {
    "<": _name_lt, "<=": _name_le, ">": _name_gt, ">=": _name_ge, "==": _name_eq, "!=": _name_ne,
}


def compare(op: str, left: Node, right: Node) -> Fn:
    """A closure for ``left op right`` (one of < <= > >= == !=); exact across Decimal and Fraction."""
    lf, rf = left.fn, right.fn
    if op not in ("==", "!="):
        if left.aggregate is not None and right.aggregate is None:
            return _compare_aggregate(op, left.aggregate[0], left.aggregate[1], rf)
        if right.aggregate is not None and left.aggregate is None:
            return _compare_aggregate(_MIRROR[op], right.aggregate[0], right.aggregate[1], lf)
    cmp = _COMPARE[op]
    if right.const:
        b = right.value
        if b is None:
            return const_fn(None)
        if left.ident is not None:
            return _NAME_CONST[op](left.ident, b)

        def fn_const(env: Env) -> Any:
            a = lf(env)
            return None if a is None else cmp(a, b)

        return fn_const
    if left.ident is not None and right.ident is not None:
        lname, rname = left.ident, right.ident

        def name_name(env: Env) -> Any:
            a = env.get(lname)
            if a is None:
                return None
            c = env.get(rname)
            return None if c is None else cmp(a, c)

        return name_name
    # A name against any other operand (``net_income <= arr * gross_margin``) and the mirror: the name read from env
    # directly, one closure call less per evaluation than through the name's own lookup closure (s37speed).
    if left.ident is not None:
        lname = left.ident

        def name_fn(env: Env) -> Any:
            a = env.get(lname)
            if a is None:
                return None
            c = rf(env)
            return None if c is None else cmp(a, c)

        return name_fn
    if right.ident is not None:
        rname = right.ident

        def fn_name(env: Env) -> Any:
            a = lf(env)
            if a is None:
                return None
            c = env.get(rname)
            return None if c is None else cmp(a, c)

        return fn_name

    def generic(env: Env) -> Any:
        a = lf(env)
        if a is None:
            return None
        c = rf(env)
        return None if c is None else cmp(a, c)

    return generic


# --------------------------------------------------------------------------- Kleene logic


def kleene_all(fns: Sequence[Fn]) -> Fn:
    """Strong-Kleene ``and`` over the closures: False wins, then unknown, then True."""
    if len(fns) == 2:
        f, g = fns

        def and2(env: Env) -> Any:
            a = f(env)
            if a is False:
                return False
            b = g(env)
            if b is False:
                return False
            return None if (a is None or b is None) else True

        and2.kleene = ("all", (f, g))  # type: ignore[attr-defined]
        return and2

    def and_n(env: Env) -> Any:
        unknown = False
        for fn in fns:
            v = fn(env)
            if v is False:
                return False
            if v is None:
                unknown = True
        return None if unknown else True

    and_n.kleene = ("all", tuple(fns))  # type: ignore[attr-defined]
    return and_n


def kleene_any(fns: Sequence[Fn]) -> Fn:
    """Strong-Kleene ``or`` over the closures: True wins, then unknown, then False."""
    if len(fns) == 2:
        f, g = fns

        def or2(env: Env) -> Any:
            a = f(env)
            if a is True:
                return True
            b = g(env)
            if b is True:
                return True
            return None if (a is None or b is None) else False

        or2.kleene = ("any", (f, g))  # type: ignore[attr-defined]
        return or2

    def or_n(env: Env) -> Any:
        unknown = False
        for fn in fns:
            v = fn(env)
            if v is True:
                return True
            if v is None:
                unknown = True
        return None if unknown else False

    or_n.kleene = ("any", tuple(fns))  # type: ignore[attr-defined]
    return or_n


def kleene_not(f: Fn) -> Fn:
    """Strong-Kleene ``not``: True <-> False, unknown stays unknown.

    ``not`` of an ``and``/``or`` made by :func:`kleene_all`/:func:`kleene_any` is one closure over the same
    operands (``not (a and b)`` returns True at the first False operand, unknown as the ``and`` would, else
    False), so the common rule form ``not (x == "utility" and growth > 10%)`` costs one call less per evaluation
    (s37speed). The value is the negation of the operand's in every case.
    """
    tagged = getattr(f, "kleene", None)
    if tagged is not None:
        kind, fns = tagged
        stop = False if kind == "all" else True  # the operand value that decides the and (False) / or (True)

        def not_kleene(env: Env) -> Any:
            unknown = False
            for fn in fns:
                v = fn(env)
                if v is stop:
                    return not stop
                if v is None:
                    unknown = True
            return None if unknown else stop

        return not_kleene

    def not_fn(env: Env) -> Any:
        v = f(env)
        return None if v is None else not v

    return not_fn


def unescape(text: str) -> str:
    """A string literal's body with its escapes read: ``\\n`` and ``\\t`` a newline and a tab, ``\\X`` any other
    character ``X`` itself (the quote, the backslash)."""
    out: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            nxt = next(chars, "")
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        else:
            out.append(ch)
    return "".join(out)
