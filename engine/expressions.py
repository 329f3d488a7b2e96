"""Criterion expressions: parse with our grammar, check names and types, compile.

An expression is parsed once by the LALR grammar in ``grammar/expression.lark``,
checked against the card's declared inputs and computed values (names, types,
units, category values), and compiled into a tree of small Python closures that
is then executed many times. Nothing is ever handed to Python's ``eval``.

Meaning
-------
* Three-valued: a name missing from the scenario is unknown (``None``);
  ``and``/``or``/``not`` follow strong Kleene logic, and any comparison or
  arithmetic with an unknown operand is unknown. ``known(x)`` is the only way
  to ask whether a fact is present, and is never unknown itself.
* Division by zero, and any other undefined arithmetic, gives unknown.
* Numbers are ``decimal.Decimal``; literals are exact, and a constant that has no
  finite decimal form (``2/3``) is kept as an exact fraction and applied by
  multiplying before dividing, so ``price <= 2/3 * ncav`` is decided exactly at
  the boundary.

Units
-----
Numeric literals carry a unit: ``25%`` is the ratio 0.25, ``10x`` the multiple
10, ``$5B`` five billion USD, ``5B`` plain five billion. Inputs declare theirs.
Comparing or adding money with a ratio, multiple or year is a compile error;
plain numbers combine with anything.

>>> from decimal import Decimal
>>> e = compile_expression("price > 2/3 * ncav", {"price": MONEY, "ncav": MONEY})
>>> e({"price": Decimal(200), "ncav": Decimal(300)}), e({"price": Decimal(201), "ncav": Decimal(300)})
(False, True)
>>> e({"price": Decimal(201)}) is None
True
"""

from __future__ import annotations

import datetime as _dt
import operator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, Mapping, Sequence

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ipb.errors import CompileError, LintWarning, did_you_mean

__all__ = [
    "ExprType",
    "NUMBER",
    "MONEY",
    "RATIO",
    "MULTIPLE",
    "YEARS",
    "BOOL",
    "STRING",
    "DATE",
    "category",
    "CompiledExpression",
    "compile_expression",
    "parse_expression",
    "parse_literal",
    "get_parser",
]

Env = Mapping[str, Any]
Fn = Callable[[Env], Any]


# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class ExprType:
    """The static type of an expression or input.

    ``kind`` is one of number, bool, category, string, date, set. Numbers carry
    a ``unit`` (money, ratio, multiple, years, or None for plain); categories
    carry their allowed ``values``; sets carry the type of their ``item``.
    """

    kind: str
    unit: str | None = None
    values: tuple[str, ...] | None = None
    item: "ExprType | None" = None

    def describe(self) -> str:
        if self.kind == "number":
            return f"number ({self.unit})" if self.unit else "number"
        if self.kind == "category" and self.values is not None:
            return "category {" + ", ".join(self.values) + "}"
        if self.kind == "set" and self.item is not None:
            return f"set of {self.item.describe()}"
        return self.kind


NUMBER = ExprType("number")
MONEY = ExprType("number", "money")
RATIO = ExprType("number", "ratio")
MULTIPLE = ExprType("number", "multiple")
YEARS = ExprType("number", "years")
BOOL = ExprType("bool")
STRING = ExprType("string")
DATE = ExprType("date")


def category(values: Iterable[str]) -> ExprType:
    """A category type whose value must be one of ``values``."""
    return ExprType("category", values=tuple(values))


_SCALE = {"K": Decimal(10) ** 3, "M": Decimal(10) ** 6, "B": Decimal(10) ** 9, "T": Decimal(10) ** 12}


# --------------------------------------------------------------------------- parser


@lru_cache(maxsize=1)
def get_parser() -> Lark:
    """The LALR parser for ``grammar/expression.lark`` (read as package data)."""
    text = resources.files("ipb.grammar").joinpath("expression.lark").read_text(encoding="utf-8")
    # cache=True: lark keeps the LALR tables in a temporary file keyed by the grammar and lark's
    # version, so a new process loads them (about 2 ms) instead of rebuilding them (about 100 ms)
    return Lark(text, parser="lalr", lexer="basic", propagate_positions=True, maybe_placeholders=False, cache=True)


_TOKEN_WORDS = {
    "NAME": "a name",
    "DECIMAL": "a number",
    "PERCENT": "a percentage",
    "MULTIPLE": "a multiple",
    "MONEY": "an amount of money",
    "SCALED": "a number",
    "STRING": "a quoted string",
    "$END": "the end of the expression",
}


def _expected_words(names: Iterable[str]) -> str:
    parser = get_parser()
    words: set[str] = set()
    for name in names:
        if name in _TOKEN_WORDS:
            words.add(_TOKEN_WORDS[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            words.add(name)
            continue
        words.add(repr(pattern.value) if pattern.type == "str" else name)
    return ", ".join(sorted(words))


def parse_expression(source: str) -> Tree:
    """Parse ``source`` into a lark tree.

    Raises
    ------
    CompileError
        With 1-based ``line``/``column`` inside ``source``, ``offset`` (0-based)
        and ``rule="syntax"`` when the text is not a legal expression.
    """
    try:
        return get_parser().parse(source)
    except UnexpectedInput as exc:
        raise _syntax_error(source, exc) from None


def _syntax_error(source: str, exc: UnexpectedInput) -> CompileError:
    if isinstance(exc, UnexpectedEOF):
        offset = len(source)
        message = f"expression ends too early; expected {_expected_words(exc.expected)}"
    elif isinstance(exc, UnexpectedToken):
        offset = exc.token.start_pos if exc.token.start_pos is not None else len(source)
        found = "end of the expression" if exc.token.type == "$END" else repr(str(exc.token))
        message = f"unexpected {found}; expected {_expected_words(exc.expected)}"
        if exc.token.type == "$END":
            offset = len(source)
    elif isinstance(exc, UnexpectedCharacters):
        offset = exc.pos_in_stream or 0
        message = f"unexpected character {source[offset]!r}"
        if exc.allowed:
            message += f"; expected {_expected_words(exc.allowed)}"
    else:  # pragma: no cover - lark has no other subclasses today
        offset = getattr(exc, "pos_in_stream", 0) or 0
        message = str(exc)
    line, column = _line_col(source, offset)
    return CompileError(message, line=line, column=column, offset=offset, rule="syntax")


def _line_col(source: str, offset: int) -> tuple[int, int]:
    before = source[:offset]
    line = before.count("\n") + 1
    column = offset - (before.rfind("\n") + 1) + 1
    return line, column


# --------------------------------------------------------------------------- nodes


class Node:
    """A checked, compiled sub-expression.

    ``fn(env)`` returns the value (or None for unknown). Constant nodes keep
    their exact ``value`` (a Decimal, or a Fraction with no finite decimal
    form) so that the parent can fold or apply it exactly.
    """

    __slots__ = ("fn", "type", "const", "value", "names", "start", "end", "ident", "quotient", "aggregate")

    def __init__(
        self,
        fn: Fn,
        type: ExprType,
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
        #: (numerator, denominator) closures of a division, so that a comparison
        #: can cross-multiply instead of comparing a rounded quotient.
        self.quotient: tuple[Fn, Fn] | None = None
        #: ("min" | "max", argument closures) of a min/max call, so that a
        #: comparison can be decided by the known arguments alone.
        self.aggregate: tuple[str, tuple[Fn, ...]] | None = None


def _constant(value: Any, type: ExprType, start: int = 0, end: int = 0) -> Node:
    if isinstance(value, Fraction):
        exact = _fraction_to_decimal(value)
        if exact is not None:
            value = exact
    runtime = value if not isinstance(value, Fraction) else _approx(value)
    return Node(_const_fn(runtime), type, const=True, value=value, start=start, end=end)


def _const_fn(value: Any) -> Fn:
    def const(env: Env) -> Any:
        return value

    return const


def _fraction_to_decimal(value: Fraction) -> Decimal | None:
    """The exact Decimal of ``value``, or None when it has no finite decimal form."""
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den != 1:
        return None
    return Decimal(value.numerator) / Decimal(value.denominator)


def _approx(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _as_fraction(value: Any) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


# --------------------------------------------------------------------------- arithmetic


def _num_unit(op: str, a: ExprType, b: ExprType) -> str | None:
    if op in "+-":
        return a.unit or b.unit
    if op == "*":
        if a.unit == "money" or b.unit == "money":
            return "money"
        return a.unit if b.unit is None else (b.unit if a.unit is None else None)
    # division
    if a.unit == "money" and b.unit != "money":
        return "money"
    if a.unit == b.unit:
        return None
    return a.unit if b.unit is None else None


def _incompatible(a: ExprType, b: ExprType) -> bool:
    """Two numbers whose units must not be compared or added."""
    if a.unit is None or b.unit is None or a.unit == b.unit:
        return False
    dimensionless = {"ratio", "multiple"}
    return not (a.unit in dimensionless and b.unit in dimensionless)


def _arith(op: str, left: Node, right: Node) -> Fn:
    """A closure for ``left op right`` on Decimals, exact for fraction constants."""
    lf, rf = left.fn, right.fn
    lfrac = left.const and isinstance(left.value, Fraction)
    rfrac = right.const and isinstance(right.value, Fraction)
    if rfrac:
        p, q = Decimal(right.value.numerator), Decimal(right.value.denominator)
        if op == "*":
            return _guard(lambda env: _mul_div(lf(env), p, q))
        if op == "/":
            return _guard(lambda env: _mul_div(lf(env), q, p))
        if op == "+":
            return _guard(lambda env: _add_frac(lf(env), p, q, 1))
        return _guard(lambda env: _add_frac(lf(env), -p, q, 1))
    if lfrac:
        p, q = Decimal(left.value.numerator), Decimal(left.value.denominator)
        if op == "*":
            return _guard(lambda env: _mul_div(rf(env), p, q))
        if op == "/":
            return _guard(lambda env: _div_into(rf(env), p, q))
        if op == "+":
            return _guard(lambda env: _add_frac(rf(env), p, q, 1))
        return _guard(lambda env: _add_frac(rf(env), p, q, -1))
    if op == "/":
        return _division(left, right)
    opf = _ARITH[op]
    # try/except costs nothing on the normal path (Python 3.11+); an overflow
    # or other undefined decimal operation is unknown, never a crash.
    if left.ident is not None and right.const:
        name, b = left.ident, rf({})
        if b is None:
            return _const_fn(None)

        def name_const(env: Env) -> Any:
            a = env.get(name)
            if a is None:
                return None
            try:
                return opf(a, b)
            except ArithmeticError:
                return None

        return name_const
    if left.const and right.ident is not None:
        a, name = lf({}), right.ident
        if a is None:
            return _const_fn(None)

        def const_name(env: Env) -> Any:
            b = env.get(name)
            if b is None:
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
        try:
            return opf(a, b)
        except ArithmeticError:
            return None

    return generic


_ARITH: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _division(left: Node, right: Node) -> Fn:
    """``left / right``; a zero or unknown divisor gives unknown."""
    lf, rf = left.fn, right.fn
    if left.ident is not None and right.ident is not None:
        lname, rname = left.ident, right.ident

        def div_names(env: Env) -> Any:
            a = env.get(lname)
            if a is None:
                return None
            b = env.get(rname)
            if not b:
                return None
            try:
                return a / b
            except ArithmeticError:
                return None

        return div_names

    def div(env: Env) -> Any:
        a = lf(env)
        if a is None:
            return None
        b = rf(env)
        if not b:
            return None
        try:
            return a / b
        except ArithmeticError:
            return None

    return div


def _guard(fn: Fn) -> Fn:
    """Undefined decimal arithmetic (overflow, 0/0...) is unknown, never a crash."""

    def guarded(env: Env) -> Any:
        try:
            return fn(env)
        except (InvalidOperation, ArithmeticError):
            return None

    return guarded


def _mul_div(x: Any, p: Decimal, q: Decimal) -> Any:
    if x is None or not q:
        return None
    return x * p / q


def _div_into(x: Any, p: Decimal, q: Decimal) -> Any:
    # (p/q) / x  ==  p / (q*x)
    if x is None or not x:
        return None
    return p / (q * x)


def _add_frac(x: Any, p: Decimal, q: Decimal, sign: int) -> Any:
    # sign*x + p/q  ==  (sign*x*q + p) / q
    if x is None:
        return None
    return (sign * x * q + p) / q


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _is_fraction(node: Node) -> bool:
    return node.const and isinstance(node.value, Fraction)


def _parts(node: Node) -> tuple[Fn, Fn]:
    """(numerator, denominator) closures of a number node; the denominator of a plain value is 1."""
    if node.quotient is not None:
        return node.quotient
    if _is_fraction(node):
        p, q = Decimal(node.value.numerator), Decimal(node.value.denominator)
        return _const_fn(p), _const_fn(q)
    return node.fn, _const_fn(Decimal(1))


def _compare_quotients(op: str, left: Node, right: Node) -> Fn:
    """``a/b op c/d`` decided exactly as ``a*d op c*b`` (sides swapped when b*d < 0)."""
    cmp = _COMPARE[op]
    (ln, ld), (rn, rd) = _parts(left), _parts(right)

    def cross(env: Env) -> Any:
        a, b, c, d = ln(env), ld(env), rn(env), rd(env)
        if a is None or b is None or c is None or d is None or not b or not d:
            return None
        try:
            x, y = a * d, c * b
        except ArithmeticError:
            return None
        return cmp(x, y) if (b > 0) == (d > 0) else cmp(y, x)

    return cross


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


def _compare(op: str, left: Node, right: Node) -> Fn:
    lf, rf = left.fn, right.fn
    if op not in ("==", "!="):
        if left.aggregate is not None and right.aggregate is None and not _is_fraction(right):
            return _compare_aggregate(op, left.aggregate[0], left.aggregate[1], rf)
        if right.aggregate is not None and left.aggregate is None and not _is_fraction(left):
            return _compare_aggregate(_MIRROR[op], right.aggregate[0], right.aggregate[1], lf)
    lfrac = _is_fraction(left)
    rfrac = _is_fraction(right)
    if left.quotient is not None or right.quotient is not None:
        return _compare_quotients(op, left, right)
    if lfrac or rfrac:
        # Rare: compare exactly as fractions.
        cmp = _COMPARE[op]
        lconst = left.value if lfrac else None
        rconst = right.value if rfrac else None

        def exact(env: Env) -> Any:
            a = lconst if lfrac else lf(env)
            b = rconst if rfrac else rf(env)
            if a is None or b is None:
                return None
            return cmp(_as_fraction(a), _as_fraction(b))

        return exact
    cmp = _COMPARE[op]
    if right.const:
        b = rf({})
        if b is None:
            return lambda env: None
        if left.ident is not None:
            name = left.ident

            def name_const(env: Env) -> Any:
                a = env.get(name)
                return None if a is None else cmp(a, b)

            return name_const

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

    def generic(env: Env) -> Any:
        a = lf(env)
        if a is None:
            return None
        c = rf(env)
        return None if c is None else cmp(a, c)

    return generic


def _kleene_all(fns: Sequence[Fn]) -> Fn:
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

    return and_n


def _kleene_any(fns: Sequence[Fn]) -> Fn:
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

    return or_n


# --------------------------------------------------------------------------- checker


class _Compiler(Transformer):
    """One method per grammar rule: tree -> checked :class:`Node`."""

    def __init__(self, symbols: Mapping[str, ExprType], source: str, constants: Mapping[str, Any]) -> None:
        super().__init__()
        self.symbols = symbols
        self.source = source
        self.constants = constants
        self.warnings: list[LintWarning] = []

    # -- helpers
    def _error(self, message: str, meta: Any, rule: str, **fields: Any) -> CompileError:
        offset = getattr(meta, "start_pos", 0) or 0
        line, column = _line_col(self.source, offset)
        return CompileError(message, line=line, column=column, offset=offset, rule=rule, **fields)

    def _text(self, node: Node) -> str:
        return self.source[node.start : node.end]

    def _node(self, fn: Fn, type: ExprType, children: Sequence[Node], meta: Any) -> Node:
        names = frozenset().union(*(c.names for c in children)) if children else frozenset()
        start = getattr(meta, "start_pos", 0) or 0
        end = getattr(meta, "end_pos", start) or start
        if children and all(c.const for c in children):
            try:
                value = fn({})
            except (InvalidOperation, ArithmeticError):
                value = None
            folded = _constant(value, type, start, end)
            folded.names = names
            return folded
        return Node(fn, type, names, start=start, end=end)

    def _require(self, node: Node, kind: str, meta: Any, what: str) -> None:
        if node.type.kind != kind:
            raise self._error(
                f"{what} needs a {kind}, but {self._text(node)!r} is a {node.type.describe()}",
                _meta_of(node, meta),
                rule="type",
            )

    # -- logic
    @v_args(meta=True)
    def or_(self, meta: Any, children: list[Node]) -> Node:
        for c in children:
            self._require(c, "bool", meta, "'or'")
        return self._node(_kleene_any([c.fn for c in children]), BOOL, children, meta)

    @v_args(meta=True)
    def and_(self, meta: Any, children: list[Node]) -> Node:
        for c in children:
            self._require(c, "bool", meta, "'and'")
        return self._node(_kleene_all([c.fn for c in children]), BOOL, children, meta)

    @v_args(meta=True)
    def not_(self, meta: Any, children: list[Node]) -> Node:
        (operand,) = children
        self._require(operand, "bool", meta, "'not'")
        f = operand.fn

        def not_fn(env: Env) -> Any:
            v = f(env)
            return None if v is None else not v

        return self._node(not_fn, BOOL, children, meta)

    # -- comparisons
    def comp_op(self, tokens: list[Token]) -> str:
        return " ".join(str(t) for t in tokens)

    @v_args(meta=True)
    def comparison(self, meta: Any, children: list[Any]) -> Node:
        operands: list[Node] = children[0::2]
        ops: list[str] = children[1::2]
        parts = [self._compare_pair(op, a, b, meta) for op, a, b in zip(ops, operands, operands[1:])]
        if len(parts) == 1:
            return parts[0]
        return self._node(_kleene_all([p.fn for p in parts]), BOOL, parts, meta)

    def _compare_pair(self, op: str, left: Node, right: Node, meta: Any) -> Node:
        span = _Span(left.start, right.end)
        if op in ("in", "not in"):
            return self._membership(op, left, right, span)
        lt, rt = left.type, right.type
        if lt.kind == "set" or rt.kind == "set":
            raise self._error(f"a set can only appear after 'in' or 'not in' (in {op!r})", span, rule="type")
        if op in ("==", "!="):
            self._check_same_kind(left, right, op, span)
            self._check_category_literal(left, right)
            self._check_category_literal(right, left)
        else:
            if lt.kind not in ("number", "date") or rt.kind != lt.kind:
                raise self._error(
                    f"cannot order {self._text(left)!r} ({lt.describe()}) and "
                    f"{self._text(right)!r} ({rt.describe()}) with {op!r}; "
                    "only numbers with numbers and dates with dates",
                    span,
                    rule="type",
                )
            if lt.kind == "number" and _incompatible(lt, rt):
                raise self._error(
                    f"cannot compare {lt.unit} with {rt.unit}: {self._text(left)!r} {op} {self._text(right)!r}",
                    span,
                    rule="unit",
                )
        if lt.kind == "number" and rt.kind == "number":
            self._warn_unitless(left, right)
            self._warn_unitless(right, left)
        return self._node(_compare(op, left, right), BOOL, [left, right], span)

    def _warn_unitless(self, subject: Node, threshold: Node) -> None:
        """A plain literal threshold against a ratio, money or multiple ("retention >= 90")."""
        unit = subject.type.unit
        if unit not in ("ratio", "money", "multiple") or subject.const:
            return
        if not threshold.const or threshold.type.unit is not None or threshold.names:
            return
        if threshold.value is None or threshold.value == 0:
            return
        hint = {"ratio": "write it as a percentage such as 90%", "money": "write it as money such as $5B",
                "multiple": "write it as a multiple such as 10x"}[unit]
        offset = threshold.start
        line, column = _line_col(self.source, offset)
        self.warnings.append(
            LintWarning(
                f"threshold {self._text(threshold)!r} has no unit but {self._text(subject)!r} is a {unit}; {hint}",
                line=line,
                column=column,
                offset=offset,
                rule="unitless-threshold",
            )
        )

    def _check_same_kind(self, left: Node, right: Node, op: str, span: Any) -> None:
        kinds = {left.type.kind, right.type.kind}
        textual = {"category", "string"}
        if len(kinds) == 1 or kinds <= textual:
            if left.type.kind == "number" and _incompatible(left.type, right.type):
                raise self._error(
                    f"cannot compare {left.type.unit} with {right.type.unit} using {op!r}", span, rule="unit"
                )
            return
        raise self._error(
            f"cannot compare {self._text(left)!r} ({left.type.describe()}) with "
            f"{self._text(right)!r} ({right.type.describe()}) using {op!r}",
            span,
            rule="type",
        )

    def _check_category_literal(self, subject: Node, literal: Node) -> None:
        if subject.type.kind != "category" or not literal.const or subject.type.values is None:
            return
        values = literal.value if isinstance(literal.value, frozenset) else [literal.value]
        for value in values:
            if isinstance(value, str) and value not in subject.type.values:
                raise self._error(
                    f"{value!r} is not a value of {self._text(subject)!r}; allowed: "
                    + ", ".join(subject.type.values),
                    _Span(literal.start, literal.end),
                    rule="category",
                    name=value,
                    suggestion=did_you_mean(value, subject.type.values),
                )

    def _membership(self, op: str, left: Node, right: Node, span: Any) -> Node:
        if right.type.kind != "set" or right.type.item is None:
            raise self._error(
                f"{op!r} needs a set literal such as {{\"a\", \"b\"}} on its right, "
                f"not {self._text(right)!r}",
                _Span(right.start, right.end),
                rule="type",
            )
        item = right.type.item
        if not (item.kind == left.type.kind or {item.kind, left.type.kind} <= {"category", "string"}):
            raise self._error(
                f"cannot test whether {self._text(left)!r} ({left.type.describe()}) is in a set of {item.kind}s",
                span,
                rule="type",
            )
        if item.kind == "number" and _incompatible(left.type, item):
            raise self._error(
                f"cannot test whether {self._text(left)!r} ({left.type.unit}) is in a set of {item.unit} values",
                span,
                rule="unit",
            )
        self._check_category_literal(left, right)
        values = right.value
        lf = left.fn
        negate = op == "not in"
        ident = left.ident

        if ident is not None:

            def member_name(env: Env) -> Any:
                v = env.get(ident)
                return None if v is None else (v in values) != negate

            return self._node(member_name, BOOL, [left, right], span)

        def member(env: Env) -> Any:
            v = lf(env)
            return None if v is None else (v in values) != negate

        return self._node(member, BOOL, [left, right], span)

    # -- arithmetic
    def add_op(self, tokens: list[Token]) -> str:
        return str(tokens[0])

    mul_op = add_op

    @v_args(meta=True)
    def sum(self, meta: Any, children: list[Any]) -> Node:
        return self._fold_arith(meta, children)

    @v_args(meta=True)
    def product(self, meta: Any, children: list[Any]) -> Node:
        return self._fold_arith(meta, children)

    def _fold_arith(self, meta: Any, children: list[Any]) -> Node:
        acc: Node = children[0]
        for op, right in zip(children[1::2], children[2::2]):
            span = _Span(acc.start, right.end)
            for operand in (acc, right):
                if operand.type.kind != "number":
                    raise self._error(
                        f"{op!r} needs numbers, but {self._text(operand)!r} is a {operand.type.describe()}",
                        _Span(operand.start, operand.end),
                        rule="type",
                    )
            if op in "+-" and _incompatible(acc.type, right.type):
                raise self._error(
                    f"cannot {'add' if op == '+' else 'subtract'} {right.type.unit} "
                    f"{'to' if op == '+' else 'from'} {acc.type.unit}",
                    span,
                    rule="unit",
                )
            unit = _num_unit(op, acc.type, right.type)
            result_type = ExprType("number", unit)
            if acc.const and right.const and acc.value is not None and right.value is not None:
                names = acc.names | right.names
                acc = self._fold_constants(op, acc, right, result_type, span)
                acc.names = names
            else:
                node = self._node(_arith(op, acc, right), result_type, [acc, right], span)
                if op == "/" and not node.const and not _is_fraction(acc) and not _is_fraction(right):
                    node.quotient = (acc.fn, right.fn)
                acc = node
        return acc

    def _fold_constants(self, op: str, a: Node, b: Node, type: ExprType, span: Any) -> Node:
        x, y = _as_fraction(a.value), _as_fraction(b.value)
        if op == "+":
            value: Any = x + y
        elif op == "-":
            value = x - y
        elif op == "*":
            value = x * y
        elif y == 0:
            value = None
        else:
            value = x / y
        return _constant(value, type, span.start_pos, span.end_pos)

    @v_args(meta=True)
    def neg(self, meta: Any, children: list[Node]) -> Node:
        (operand,) = children
        self._require(operand, "number", meta, "unary '-'")
        if operand.const and operand.value is not None:
            return _constant(-operand.value, operand.type, meta.start_pos, meta.end_pos)
        f = operand.fn

        def neg_fn(env: Env) -> Any:
            v = f(env)
            return None if v is None else -v

        return self._node(neg_fn, operand.type, children, meta)

    # -- atoms
    @v_args(meta=True)
    def name(self, meta: Any, children: list[Token]) -> Node:
        (token,) = children
        ident = str(token)
        try:
            type = self.symbols.get(ident)
        except CompileError as exc:
            raise self._error(exc.message, meta, rule=exc.rule or "name", name=ident) from None
        if type is None:
            raise self._error(
                f"unknown name {ident!r}; it is neither a declared input nor a computed value",
                meta,
                rule="name",
                name=ident,
                suggestion=did_you_mean(ident, list(self.symbols)),
            )

        if ident in self.constants:
            node = _constant(self.constants[ident], type, meta.start_pos, meta.end_pos)
            node.names = frozenset([ident])
            return node

        def lookup(env: Env) -> Any:
            return env.get(ident)

        node = Node(lookup, type, frozenset([ident]), start=meta.start_pos, end=meta.end_pos)
        node.ident = ident
        return node

    @v_args(meta=True)
    def string(self, meta: Any, children: list[Token]) -> Node:
        raw = str(children[0])
        text = _unescape(raw[1:-1])
        return _constant(text, STRING, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def true(self, meta: Any, children: list[Any]) -> Node:
        return _constant(True, BOOL, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def false(self, meta: Any, children: list[Any]) -> Node:
        return _constant(False, BOOL, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def percent(self, meta: Any, children: list[Token]) -> Node:
        return _constant(Decimal(str(children[0])[:-1]) / 100, RATIO, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def multiple(self, meta: Any, children: list[Token]) -> Node:
        return _constant(Decimal(str(children[0])[:-1]), MULTIPLE, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def money(self, meta: Any, children: list[Token]) -> Node:
        return _constant(_scaled(str(children[0])[1:]), MONEY, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def scaled(self, meta: Any, children: list[Token]) -> Node:
        return _constant(_scaled(str(children[0])), NUMBER, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def decimal(self, meta: Any, children: list[Token]) -> Node:
        return _constant(Decimal(str(children[0])), NUMBER, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def set_(self, meta: Any, children: list[Any]) -> Node:
        items: list[Node] = children[0] if children and children[0] is not None else []
        kinds = {i.type.kind for i in items}
        if len(kinds) > 1:
            raise self._error("a set must hold values of one kind (all strings, all numbers...)", meta, rule="type")
        units = {i.type.unit for i in items if i.type.unit is not None}
        if len(units) > 1 and any(_incompatible(ExprType("number", u), ExprType("number", v)) for u in units for v in units):
            raise self._error("a set must not mix units (" + ", ".join(sorted(units)) + ")", meta, rule="unit")
        item_type = next((i.type for i in items if i.type.unit is not None), items[0].type) if items else STRING
        values = frozenset(i.value for i in items)
        return _constant(values, ExprType("set", item=item_type), meta.start_pos, meta.end_pos)

    def set_items(self, children: list[Node]) -> list[Node]:
        return list(children)

    def arguments(self, children: list[Node]) -> list[Node]:
        return list(children)

    @v_args(meta=True)
    def call(self, meta: Any, children: list[Any]) -> Node:
        fname = str(children[0])
        args: list[Node] = children[1] if len(children) > 1 and children[1] is not None else []
        builder = _FUNCTIONS.get(fname)
        if builder is None:
            raise self._error(
                f"unknown function {fname!r}; available: " + ", ".join(sorted(_FUNCTIONS)),
                meta,
                rule="function",
                name=fname,
                suggestion=did_you_mean(fname, list(_FUNCTIONS)),
            )
        return builder(self, fname, args, meta)


class _Span:
    """A stand-in for lark's meta covering two operands."""

    def __init__(self, start: int, end: int) -> None:
        self.start_pos = start
        self.end_pos = end


def _meta_of(node: Node, fallback: Any) -> Any:
    return _Span(node.start, node.end) if node.end > node.start else fallback


def _unescape(text: str) -> str:
    out: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            nxt = next(chars, "")
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        else:
            out.append(ch)
    return "".join(out)


def _scaled(text: str) -> Decimal:
    if text and text[-1] in _SCALE:
        return Decimal(text[:-1]) * _SCALE[text[-1]]
    return Decimal(text)


# --------------------------------------------------------------------------- functions


def _fn_minmax(c: _Compiler, fname: str, args: list[Node], meta: Any) -> Node:
    if len(args) < 2:
        raise c._error(f"{fname}() needs at least two arguments", meta, rule="function")
    for a in args:
        c._require(a, "number", meta, f"{fname}()")
    for a in args[1:]:
        if _incompatible(args[0].type, a.type):
            raise c._error(f"{fname}() mixes {args[0].type.unit} with {a.type.unit}", meta, rule="unit")
    unit = next((a.type.unit for a in args if a.type.unit), None)
    fns = [a.fn for a in args]
    pick = min if fname == "min" else max

    def minmax(env: Env) -> Any:
        values = [f(env) for f in fns]
        if any(v is None for v in values):
            return None
        return pick(values)

    node = c._node(minmax, ExprType("number", unit), args, meta)
    if not node.const:
        node.aggregate = (fname, tuple(fns))
    return node


def _fn_abs(c: _Compiler, fname: str, args: list[Node], meta: Any) -> Node:
    if len(args) != 1:
        raise c._error("abs() takes exactly one argument", meta, rule="function")
    c._require(args[0], "number", meta, "abs()")
    f = args[0].fn

    def abs_fn(env: Env) -> Any:
        v = f(env)
        return None if v is None else abs(v)

    return c._node(abs_fn, args[0].type, args, meta)


def _fn_known(c: _Compiler, fname: str, args: list[Node], meta: Any) -> Node:
    if len(args) != 1:
        raise c._error("known() takes exactly one argument", meta, rule="function")
    ident, f = args[0].ident, args[0].fn
    if ident is not None:

        def known_name(env: Env) -> Any:
            return env.get(ident) is not None

        return c._node(known_name, BOOL, args, meta)
    return c._node(lambda env: f(env) is not None, BOOL, args, meta)


def _fn_date(c: _Compiler, fname: str, args: list[Node], meta: Any) -> Node:
    if len(args) != 1 or not args[0].const or not isinstance(args[0].value, str):
        raise c._error('date() takes one quoted ISO date, e.g. date("2009-03-01")', meta, rule="function")
    try:
        value = _dt.date.fromisoformat(args[0].value)
    except ValueError:
        raise c._error(f"{args[0].value!r} is not an ISO date (YYYY-MM-DD)", meta, rule="function") from None
    return _constant(value, DATE, meta.start_pos, meta.end_pos)


def _fn_year(c: _Compiler, fname: str, args: list[Node], meta: Any) -> Node:
    if len(args) != 1:
        raise c._error("year() takes exactly one argument", meta, rule="function")
    c._require(args[0], "date", meta, "year()")
    f = args[0].fn

    def year_fn(env: Env) -> Any:
        v = f(env)
        return None if v is None else Decimal(v.year)

    return c._node(year_fn, YEARS, args, meta)


_FUNCTIONS: dict[str, Callable[[_Compiler, str, list[Node], Any], Node]] = {
    "min": _fn_minmax,
    "max": _fn_minmax,
    "abs": _fn_abs,
    "known": _fn_known,
    "date": _fn_date,
    "year": _fn_year,
}


# --------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class CompiledExpression:
    """An expression parsed and checked once, ready to execute many times.

    Attributes
    ----------
    source:
        The text as written in the card.
    type:
        Its static :class:`ExprType`.
    names:
        The inputs and computed values it reads.
    fn:
        ``fn(env) -> value``; ``env`` maps names to values, a missing name is
        unknown; the result is None when unknown.
    constant:
        True when the expression reads no names at all.
    """

    source: str
    type: ExprType
    names: frozenset[str]
    fn: Fn
    constant: bool = False
    warnings: tuple[LintWarning, ...] = ()

    def __call__(self, env: Env) -> Any:
        return self.fn(env)


def compile_expression(
    source: str,
    symbols: Mapping[str, ExprType],
    *,
    expect: str | None = None,
    constants: Mapping[str, Any] | None = None,
) -> CompiledExpression:
    """Parse, type-check and compile one criterion expression.

    Parameters
    ----------
    source:
        The expression text, e.g. ``"revenue_retention >= 90%"``.
    symbols:
        Every name the expression may read, with its type (the card's inputs,
        constants and the values computed by earlier gates).
    expect:
        ``"bool"`` for a criterion, ``"number"`` for a computed value; None
        accepts any type.
    constants:
        Values of names that are fixed when the card is written (the card's
        ``constants``); they are folded into the compiled code. Each must
        also appear in ``symbols``.

    Returns
    -------
    CompiledExpression

    Raises
    ------
    CompileError
        For a syntax error, an unknown name or function (with a "did you
        mean"), a type or unit mismatch, a category value not in the declared
        set, or a result of the wrong type. ``line``/``column`` are 1-based
        inside ``source``; ``offset`` is the 0-based character index.

    Examples
    --------
    >>> e = compile_expression("0 < pe * pb <= 22.5", {"pe": NUMBER, "pb": NUMBER})
    >>> e({"pe": Decimal(15), "pb": Decimal("1.5")}), e({"pe": Decimal(15)})
    (True, None)
    """
    tree = parse_expression(source)
    compiler = _Compiler(symbols, source, constants or {})
    try:
        node = compiler.transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, CompileError):
            if inner.rule is None:
                inner.rule = exc.rule.data if isinstance(exc.rule, Tree) else str(exc.rule)
            raise inner from None
        raise CompileError(f"in rule {exc.rule}: {inner}", rule=str(exc.rule)) from inner
    if not isinstance(node, Node):  # pragma: no cover - the grammar always yields a node
        raise CompileError("expression did not compile", rule="internal")
    if expect is not None and node.type.kind != expect:
        raise CompileError(
            f"this expression must give a {expect}, but it gives a {node.type.describe()}",
            line=1,
            column=1,
            offset=0,
            rule="type",
        )
    fn = node.fn
    if node.const:
        fn = _const_fn(node.value if not isinstance(node.value, Fraction) else _approx(node.value))
    return CompiledExpression(source, node.type, node.names, fn, constant=node.const, warnings=tuple(compiler.warnings))


def parse_literal(text: str) -> tuple[Any, ExprType]:
    """The value and type of a literal such as ``95%``, ``$5B``, ``10x``, ``-3``, ``2/3``.

    Used for scenario values and ``--set NAME=VALUE``. A fraction with no
    finite decimal form is returned as a Decimal to 28 significant digits.

    Raises
    ------
    CompileError
        When ``text`` is not a constant expression.

    >>> value, type = parse_literal("$1.25B")
    >>> value == Decimal("1250000000"), type.unit
    (True, 'money')
    """
    compiled = compile_expression(text, {})
    if not compiled.constant:  # pragma: no cover - with no symbols every name is an error
        raise CompileError(f"{text!r} is not a literal value", rule="literal")
    return compiled.fn({}), compiled.type
