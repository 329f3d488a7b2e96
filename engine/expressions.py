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
* Numbers are exact: literals are read by :mod:`ipb.engine.numbers` into
  ``decimal.Decimal``, and a value with no finite decimal form (``2/3``,
  ``price / ncav``) is kept as a ``fractions.Fraction`` through ``+ - * /``,
  unary minus, computed values and comparisons (:mod:`ipb.engine._exact`), so
  ``price <= 2/3 * ncav`` and ``price / ncav <= 2/3`` are decided exactly at the
  boundary. Nesting deeper than :data:`MAX_NESTING` is a compile error.

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
import threading
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import Any, Callable, Iterable, Mapping, Sequence

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import VisitError

from ipb.engine import _exact
from ipb.engine._ops import (Env, Fn, Node, Span, arith, chain, compare, const_fn, constant, fold, kleene_all, kleene_any,
                             kleene_not, negate, unescape)
from ipb.engine._comparison_lints import line_col as _line_col
from ipb.engine._expr_parser import (MAX_EXPRESSION_CHARS, MAX_NESTING, _cancels, get_parser,  # noqa: F401 (re-exported)
                                     parse_expression)
from ipb.engine._comparison_lints import plain_against_ratio, same_unit_quotient, unitless_threshold
from ipb.engine._shared import repeated_calls, shared, sharing_root
from ipb.engine._units import MIXED, arithmetic_unit, incompatible_units
from ipb.engine.numbers import NumberError, read_number
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


# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class ExprType:
    """The static type of an expression or input.

    ``kind`` is one of number, bool, category, string, date, set. Numbers carry
    a ``unit`` (money, ratio, multiple, years, ``dimensionless`` for a sum of
    ratios and multiples (:mod:`ipb.engine._units`), or None for plain);
    categories carry their allowed ``values``; sets carry the type of their ``item``.

    Two fields only the lints read, left out of equality: ``measure`` is a plain number input's declared ``unit:``
    (``count``, ``issues``), and ``fraction`` marks a plain quotient of two values in one unit (money over money,
    count over count: ``operating_profit / capital_employed`` is 0.3 for 30%, s54newuser), so that a plain
    threshold such as 20 against it is flagged as one against a ratio is.
    """

    kind: str
    unit: str | None = None
    values: tuple[str, ...] | None = None
    item: "ExprType | None" = None
    measure: str | None = field(default=None, compare=False)
    fraction: bool = field(default=False, compare=False)

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


# --------------------------------------------------------------------------- units


def _num_unit(op: str, a: Node, b: Node) -> str | None:
    """The unit of ``a op b`` (:func:`arithmetic_unit`); a ratio plus or minus a plain number that reads an input
    is plain (:data:`MIXED`): Beneish's M ``-4.84 + 0.920 * dsri + ... + 4.679 * tata`` read ``-97.688%`` (s44user).
    A plain constant keeps the ratio (``1 - payout``, ``growth + 0.02``)."""
    unit = arithmetic_unit(op, a.type.unit, b.type.unit)
    if op in "+-" and unit == "ratio" and {a.type.unit, b.type.unit} == {"ratio", None}:
        plain = a if a.type.unit is None else b
        if not plain.const:
            return MIXED
    return unit


#: Words an author may write for a truth value, and the literal the grammar reads.
_TRUTH_WORDS = {"yes": "true", "no": "false", "true": "true", "false": "false", "y": "true", "n": "false"}


def _incompatible(a: ExprType, b: ExprType) -> bool:
    """Two numbers whose units must not be compared or added."""
    return incompatible_units(a.unit, b.unit)


# --------------------------------------------------------------------------- checker


class _Compiler(Transformer):
    """One method per grammar rule: tree -> checked :class:`Node`."""

    def __init__(self, symbols: Mapping[str, ExprType], source: str, constants: Mapping[str, Any]) -> None:
        super().__init__()
        self.symbols = symbols
        self.source = source
        self.constants = constants
        self.warnings: list[LintWarning] = []
        #: span -> slot of the calls written more than once (:mod:`ipb.engine._shared`), set by compile_expression
        self.repeated: dict[tuple[int, int], int] = {}
        self.store = threading.local()

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
            folded = constant(value, type, start, end)
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
        return self._node(kleene_any([c.fn for c in children]), BOOL, children, meta)

    @v_args(meta=True)
    def and_(self, meta: Any, children: list[Node]) -> Node:
        for c in children:
            self._require(c, "bool", meta, "'and'")
        return self._node(kleene_all([c.fn for c in children]), BOOL, children, meta)

    @v_args(meta=True)
    def not_(self, meta: Any, children: list[Node]) -> Node:
        (operand,) = children
        self._require(operand, "bool", meta, "'not'")
        return self._node(kleene_not(operand.fn), BOOL, children, meta)

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
        for part in parts:  # s64 new user F10: ``min_growth <= sales_growth_5y <= 40% >= 3%`` passed with no word
            if part.const and part.value in (True, False):
                line, column = _line_col(self.source, part.start)
                self.warnings.append(LintWarning(
                    f"the link {self.source[part.start:part.end]!r} of this chained comparison compares two constants: "
                    f"it is always {'true' if part.value else 'false'}, so it "
                    f"{'decides nothing' if part.value else 'makes the whole chain false'}; leave it out",
                    line=line, column=column, offset=part.start, rule="constant-link"))
        return self._node(kleene_all([p.fn for p in parts]), BOOL, parts, meta)

    def _compare_pair(self, op: str, left: Node, right: Node, meta: Any) -> Node:
        span = Span(left.start, right.end)
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
            for subject, threshold in ((left, right), (right, left)):
                for lint in (unitless_threshold, plain_against_ratio):
                    found = lint(self.source, subject, threshold)
                    if found is not None:
                        self.warnings.append(found)
        return self._node(compare(op, left, right), BOOL, [left, right], span)

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
        # every undeclared value, sorted: a frozenset's order follows PYTHONHASHSEED
        bad = sorted(v for v in values if isinstance(v, str) and v not in subject.type.values)
        if bad:
            named = ", ".join(map(repr, bad))
            raise self._error(
                f"{named} {'is not a value' if len(bad) == 1 else 'are not values'} of {self._text(subject)!r}; "
                "allowed: " + ", ".join(subject.type.values),
                Span(literal.start, literal.end),
                rule="category",
                name=bad[0],
                suggestion=did_you_mean(bad[0], subject.type.values),
            )

    def _membership(self, op: str, left: Node, right: Node, span: Any) -> Node:
        if right.type.kind != "set" or right.type.item is None:
            raise self._error(
                f"{op!r} needs a set literal such as {{\"a\", \"b\"}} on its right, "
                f"not {self._text(right)!r}",
                Span(right.start, right.end),
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
        """A left-to-right chain ``t0 op1 t1 op2 t2 ...``: units checked per step, a constant prefix
        folded exactly, the rest run by one flat closure (so a 1,000-term sum does not nest 1,000 calls)."""
        acc: Node = children[0]
        steps: list[tuple[str, Node]] = []
        for op, right in zip(children[1::2], children[2::2]):
            span = Span(acc.start, right.end)
            for operand in (acc, right):
                if operand.type.kind != "number":
                    raise self._error(
                        f"{op!r} needs numbers, but {self._text(operand)!r} is a {operand.type.describe()}",
                        Span(operand.start, operand.end),
                        rule="type",
                    )
            if op in "+-" and _incompatible(acc.type, right.type):
                raise self._error(
                    f"cannot {'add' if op == '+' else 'subtract'} {right.type.unit} "
                    f"{'to' if op == '+' else 'from'} {acc.type.unit}",
                    span,
                    rule="unit",
                )
            if op == "/" and (right.const and right.value is not None and right.value == 0
                              or not right.const and _cancels(self._text(right))):
                line, column = _line_col(self.source, right.start)
                self.warnings.append(LintWarning(
                    f"division by zero: the divisor {self._text(right)!r} is always 0, so the quotient is always "
                    "unknown", line=line, column=column, offset=right.start, rule="zero-division"))
            result_type = ExprType("number", _num_unit(op, acc, right), fraction=not steps and same_unit_quotient(op, acc, right))
            if not steps and acc.const and right.const and acc.value is not None and right.value is not None:
                names = acc.names | right.names
                try:
                    value = fold(op, acc.value, right.value)
                except ArithmeticError:
                    raise self._error(f"a constant {op!r} here gives a number beyond the engine's limit "
                                      f"of about 10^±{_exact.MAX_BITS * 3 // 10}", span,
                                      rule="limit") from None
                acc = constant(value, result_type, span.start_pos, span.end_pos)
                acc.names = names
                continue
            if not steps:
                head = acc
            steps.append((op, right))
            operands = [head] + [n for _, n in steps]
            acc = Node(const_fn(None), result_type, frozenset().union(*(n.names for n in operands)),
                       start=head.start, end=right.end)
        if steps:
            acc.fn = arith(steps[0][0], head, steps[0][1]) if len(steps) == 1 else chain(head, steps)
            if head.const and all(n.const for _, n in steps):  # pragma: no cover - folded above
                acc = constant(acc.fn({}), acc.type, acc.start, acc.end)
        return acc

    @v_args(meta=True)
    def neg(self, meta: Any, children: list[Node]) -> Node:
        (operand,) = children
        self._require(operand, "number", meta, "unary '-'")
        if operand.const and operand.value is not None:
            return constant(_exact.neg(operand.value), operand.type, meta.start_pos, meta.end_pos)
        return self._node(negate(operand), operand.type, children, meta)

    # -- atoms
    @v_args(meta=True)
    def name(self, meta: Any, children: list[Token]) -> Node:
        (token,) = children
        ident = str(token)
        try:
            type = self.symbols.get(ident)
        except CompileError as exc:
            raise self._error(exc.message, meta, rule=exc.rule or "name", name=ident) from None
        if type is None:  # a category's value written bare (`phase == evasive`) says so (s40user)
            owner = next((n for n in sorted(self.symbols)
                          if self.symbols[n].kind == "category" and ident in (self.symbols[n].values or ())), None)
            quote = f"; it is a value of category input {owner!r}, and a value is a string: write it in quotes, \"{ident}\""
            truth = _TRUTH_WORDS.get(ident.casefold())  # `== yes` (s54newuser): true and false are the words
            unknown = f"; a truth value is written {truth} (lower case), not {ident}" if truth else \
                "; it is neither a declared input nor a computed value"
            raise self._error(f"unknown name {ident!r}" + (quote if owner else unknown), meta, rule="name", name=ident,
                              suggestion=truth or (None if owner else did_you_mean(ident, list(self.symbols))))

        if ident in self.constants:
            node = constant(self.constants[ident], type, meta.start_pos, meta.end_pos)
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
        text = unescape(raw[1:-1])
        return constant(text, STRING, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def true(self, meta: Any, children: list[Any]) -> Node:
        return constant(True, BOOL, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def false(self, meta: Any, children: list[Any]) -> Node:
        return constant(False, BOOL, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def percent(self, meta: Any, children: list[Token]) -> Node:
        return self._literal(children[0], RATIO, meta)

    @v_args(meta=True)
    def multiple(self, meta: Any, children: list[Token]) -> Node:
        return self._literal(children[0], MULTIPLE, meta)

    @v_args(meta=True)
    def money(self, meta: Any, children: list[Token]) -> Node:
        return self._literal(children[0], MONEY, meta)

    @v_args(meta=True)
    def scaled(self, meta: Any, children: list[Token]) -> Node:
        return self._literal(children[0], NUMBER, meta)

    @v_args(meta=True)
    def decimal(self, meta: Any, children: list[Token]) -> Node:
        return self._literal(children[0], NUMBER, meta)

    def _literal(self, token: Token, type: ExprType, meta: Any) -> Node:
        """A number token read by the project's one number reader (which bounds its size)."""
        try:
            value = read_number(str(token)).value
        except NumberError as exc:
            raise self._error(exc.message, meta, rule="number-limit") from None
        return constant(value, type, meta.start_pos, meta.end_pos)

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
        return constant(values, ExprType("set", item=item_type), meta.start_pos, meta.end_pos)

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
        node = builder(self, fname, args, meta)
        slot = self.repeated.get((getattr(meta, "start_pos", -1), getattr(meta, "end_pos", -1)))
        if slot is not None and not node.const:
            node.fn = shared(node.fn, slot, self.store)
        return node


def _meta_of(node: Node, fallback: Any) -> Any:
    return Span(node.start, node.end) if node.end > node.start else fallback


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


def _unary_number(c: _Compiler, fname: str, args: list[Node], meta: Any, op: Callable[[Any], Any]) -> Node:
    """``fname(x)`` for one number ``x``: ``op(x)`` in ``x``'s unit; an unknown ``x`` stays unknown."""
    if len(args) != 1:
        raise c._error(f"{fname}() takes exactly one argument", meta, rule="function")
    c._require(args[0], "number", meta, f"{fname}()")
    f = args[0].fn

    def unary(env: Env) -> Any:
        v = f(env)
        return None if v is None else op(v)

    return c._node(unary, args[0].type, args, meta)


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
    return constant(value, DATE, meta.start_pos, meta.end_pos)


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
    "abs": partial(_unary_number, op=_exact.absolute),
    "round": partial(_unary_number, op=_exact.round_half_away),
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
        unknown; the result is None when unknown. Numbers are exact: a
        Decimal, or a ``fractions.Fraction`` when the value has no finite
        decimal form (``200/300``); the engine keeps them in the environment
        so computed values stay exact. Calling the expression itself gives
        the public form (see :func:`ipb.engine._exact.public`).
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
        """The value in ``env`` as the rest of ipb sees it (a Fraction from ``fn`` becomes a 28-digit Decimal)."""
        return _exact.public(self.fn(env))


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
    compiler.repeated = repeated_calls(tree)
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
        fn = const_fn(node.value)
    elif compiler.repeated:
        fn = sharing_root(fn, len(set(compiler.repeated.values())), compiler.store)
    return CompiledExpression(source, node.type, node.names, fn, constant=node.const, warnings=tuple(compiler.warnings))


def parse_literal(text: str, *, exact: bool = False) -> tuple[Any, ExprType]:
    """The value and type of a literal such as ``95%``, ``$5B``, ``10x``, ``-3``, ``2/3``.

    Used for scenario values and ``--set NAME=VALUE``. A fraction with no
    finite decimal form is returned as a Decimal to 28 significant digits,
    or, with ``exact=True`` (a card's constants and weights, issue 16), as the
    exact :class:`~fractions.Fraction` an inline literal folds to.

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
    value = compiled.fn({})
    return (value if exact else _exact.public(value)), compiled.type
