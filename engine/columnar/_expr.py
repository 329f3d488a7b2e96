"""Card criteria compiled to whole-column operations (numpy), with Kleene logic.

The scalar engine (:mod:`ipb.engine.expressions`) parses and type-checks every
expression of a card; this module takes the same lark parse tree (from
:func:`ipb.engine.expressions.parse_expression`, so the grammar lives in one
place) and turns it into a closure over a :class:`Frame` of columns. Names,
types and units were already checked by the scalar compiler when the card
loaded, so nothing here re-checks them.

Values
------
Every column value is a :class:`Col`:

* ``num``: ``v`` float64, ``ok`` the validity mask (False = unknown), ``err``
  an upper bound on ``|v - exact|`` where ``exact`` is the decimal value the
  scalar engine would compute (0 for exact values), ``exact`` True when a float
  comparison with another exact value is decided exactly (see below);
* ``bool``: ``v`` is the known-true mask and ``ok`` the known mask (strong
  Kleene: known-false is ``ok & ~v``);
* ``cat``/``str``: ``v`` int32 codes into one vocabulary per card (-1 unknown);
* ``date``: ``v`` int64 days since 1970-01-01.

Exactness at thresholds
-----------------------
A table cell holding the float ``x`` stands for the decimal ``repr(x)`` (the
shortest decimal that reads back as ``x``: what was typed). Rounding to the
nearest float is monotone, so two such values, or one and a literal of at most
15 significant digits, compare exactly as floats: those comparisons are never
doubted. Any other comparison (arithmetic, ``2/3``) carries the error bound
``err`` of both sides (unit roundoff ``u = 2**-53`` per operation, no rounding
where integer operands give an integer below ``2**53``); a row whose two sides
lie within ``err_a + err_b`` of each other is marked *doubtful* and the
executor re-decides that whole row with the scalar engine, so
``price <= 2/3 * ncav`` holds at 200 and 300 exactly as the scalar engine says.
"""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Mapping

import numpy as np
from lark import Token, Tree

from ipb.engine._ops import unescape
from ipb.engine.expressions import ExprType, parse_expression

__all__ = ["Col", "Frame", "ColumnExpr", "compile_columns", "Vocabulary", "U"]

#: Unit roundoff of float64.
U = 2.0 ** -53
_BIG = 2.0 ** 53
_EPOCH = _dt.date(1970, 1, 1)
_SCALE = {"K": 10 ** 3, "M": 10 ** 6, "B": 10 ** 9, "T": 10 ** 12}


class Vocabulary:
    """Strings (category values, string literals, regimes) <-> int32 codes, one per card."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}
        self.words: list[str] = []

    def code(self, word: str) -> int:
        c = self.codes.get(word)
        if c is None:
            c = self.codes[word] = len(self.words)
            self.words.append(word)
        return c


class Col:
    """One value over every row (or a scalar broadcast to all rows)."""

    __slots__ = ("kind", "v", "ok", "err", "exact", "raw")

    def __init__(self, kind: str, v: Any, ok: Any = True, err: Any = 0.0, exact: bool = True,
                 raw: Any = None) -> None:
        self.kind = kind
        # numpy booleans, so that ``~`` is logical for a scalar too
        self.v: Any = np.bool_(v) if isinstance(v, bool) else v
        self.ok: Any = np.bool_(ok) if isinstance(ok, bool) else ok
        #: None = not yet computed (a float input column; see :meth:`Frame.err`).
        self.err = err
        self.exact = exact
        #: An input column's exact values (object array of Decimal / int, None where unknown) when some
        #: cell is not its float (``20000000.0000000001``, integers past 2^53); the scalar re-run reads them.
        self.raw = raw

    @property
    def false(self) -> Any:
        """Known-false mask of a bool column."""
        return ~self.v if _all(self.ok) else self.ok & ~self.v


def _all(ok: Any) -> bool:
    """True when ``ok`` is the scalar True: known on every row."""
    return np.ndim(ok) == 0 and bool(ok)


def _mask(a: Any, b: Any) -> Any:
    """``a & b`` for validity masks, skipping a mask that is known everywhere."""
    if _all(a):
        return b
    if _all(b):
        return a
    return a & b


class Frame:
    """The columns one batch of rows is evaluated on, plus the doubtful-row mask.

    ``env`` maps input, constant and computed names to :class:`Col`; ``doubt``
    (bool, shape ``(n,)``) collects rows whose verdict a float comparison cannot
    decide exactly.
    """

    def __init__(self, n: int, env: dict[str, Col]) -> None:
        self.n = n
        self.env = env
        self.doubt = np.zeros(n, dtype=bool)

    def err(self, c: Col) -> Any:
        """``c.err``, computed on first use for an input column: 0 for a column of integers."""
        if c.err is None:
            v = c.v
            c.err = 0.0 if bool(np.all((v == np.rint(v)) | ~c.ok)) else U * np.abs(v)
        return c.err


Fn = Callable[[Frame], Col]


class ColumnExpr:
    """A compiled sub-expression: its kind and either a constant or a closure."""

    __slots__ = ("kind", "fn", "const", "value", "ident", "agg")

    def __init__(self, kind: str, fn: Fn | None = None, *, const: bool = False, value: Any = None,
                 ident: str | None = None, agg: Any = None) -> None:
        self.kind = kind
        self.fn = fn
        self.const = const
        self.value = value
        self.ident = ident
        self.agg = agg

    def __call__(self, frame: Frame) -> Col:
        if self.fn is None:
            return _const_col(self.kind, self.value)
        return self.fn(frame)


# --------------------------------------------------------------------------- constants


def _short_decimal(x: Fraction) -> bool:
    """True when ``x`` is a decimal of at most 15 significant digits (exact as a float comparand)."""
    den = x.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den != 1:
        return False
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return len(d.normalize().as_tuple().digits) <= 15


def _const_col(kind: str, value: Any) -> Col:
    if value is None:
        return Col(kind, 0.0 if kind == "num" else 0, ok=False)
    if kind == "num":
        f = float(value)
        exact = Fraction(f) == value
        return Col("num", f, True, 0.0 if exact else U * abs(f), exact=exact or _short_decimal(value))
    if kind == "bool":
        return Col("bool", bool(value), True)
    return Col(kind, value, True)


# --------------------------------------------------------------------------- runtime ops


def _round(v: Any, ea: Any, eb: Any, ok: Any) -> Any:
    """Rounding error of one float operation giving ``v``.

    None when both operands are exact and every known result is an integer
    below ``2**53``; otherwise ``u * |v|`` (an array: conservative for rows that
    happen to be exact, which at worst sends a tie to the scalar engine).
    """
    r = U * np.abs(v)
    if isinstance(ea, float) and isinstance(eb, float) and ea == 0.0 and eb == 0.0:
        if bool(np.all(((v == np.rint(v)) & (r < 1.0)) | ~ok)):
            return 0.0
    return r


def _arith(op: str, a: Col, b: Col, frame: Frame) -> Col:
    ea, eb = frame.err(a), frame.err(b)
    ok = _mask(a.ok, b.ok)
    av, bv = a.v, b.v
    if op in "+-":
        v = av + bv if op == "+" else av - bv
        err = _sum(_sum(ea, eb), _round(v, ea, eb, ok))
        return Col("num", v, ok, err, exact=False)
    if op == "*":
        v = av * bv
        err = _round(v, ea, eb, ok)
        if not _zero(eb):
            err = err + np.abs(av) * eb
        if not _zero(ea):
            err = err + np.abs(bv) * ea
            if not _zero(eb):
                err = err + ea * eb
    else:
        zero = np.equal(bv, 0)
        # A divisor that is 0 as a float but not exactly, or whose error
        # interval holds 0, cannot be decided here.
        absb = np.abs(bv)
        if _zero(eb):
            safe = np.where(zero, 1.0, bv)
            v = av / safe
            err = _round(v, ea, eb, ok)
            if not _zero(ea):
                err = err + ea / absb
        else:
            frame.doubt |= np.broadcast_to(ok & (absb <= eb) & ~(zero & (np.asarray(eb) == 0)), (frame.n,))
            safe = np.where(zero, 1.0, bv)
            v = av / safe
            gap = np.maximum(absb - eb, 1e-300)
            err = (np.abs(av) * eb + absb * ea) / (absb * gap) + _round(v, ea, eb, ok)
        ok = ok & ~zero
    frame.doubt |= np.broadcast_to(_mask(ok, ~np.isfinite(v)), (frame.n,))
    return Col("num", v, ok, err, exact=False)


def _zero(e: Any) -> bool:
    return isinstance(e, float) and e == 0.0


def _sum(a: Any, b: Any) -> Any:
    if _zero(a):
        return b
    if _zero(b):
        return a
    return a + b


def _cmp(op: str, a: Col, b: Col, frame: Frame) -> Col:
    ok = _mask(a.ok, b.ok)
    av, bv = a.v, b.v
    if op == "<":
        res = av < bv
    elif op == "<=":
        res = av <= bv
    elif op == ">":
        res = av > bv
    elif op == ">=":
        res = av >= bv
    elif op == "==":
        res = av == bv
    else:
        res = av != bv
    if a.kind == "num" and not (a.exact and b.exact):
        e = frame.err(a) + frame.err(b)
        if not (isinstance(e, float) and e == 0.0):
            frame.doubt |= np.broadcast_to(_mask(ok, np.abs(av - bv) <= e), (frame.n,))
    return Col("bool", _mask(ok, res), ok)


def _and(cols: list[Col]) -> Col:
    t = cols[0].v
    if all(_all(c.ok) for c in cols):
        for c in cols[1:]:
            t = t & c.v
        return Col("bool", t, True)
    f = cols[0].false
    for c in cols[1:]:
        t = t & c.v
        f = f | c.false
    return Col("bool", t, t | f)


def _or(cols: list[Col]) -> Col:
    t = cols[0].v
    if all(_all(c.ok) for c in cols):
        for c in cols[1:]:
            t = t | c.v
        return Col("bool", t, True)
    f = cols[0].false
    for c in cols[1:]:
        t = t | c.v
        f = f & c.false
    return Col("bool", t, t | f)


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


# --------------------------------------------------------------------------- compiler


class _Compiler:
    """Parse tree -> :class:`ColumnExpr`, one method per grammar rule (as the scalar ``_Compiler``)."""

    def __init__(self, symbols: Mapping[str, ExprType], constants: Mapping[str, Any], vocab: Vocabulary) -> None:
        self.symbols = symbols
        self.constants = constants
        self.vocab = vocab

    def build(self, tree: Any) -> ColumnExpr:
        if isinstance(tree, Token):  # pragma: no cover - every token sits under a rule
            raise TypeError(f"unexpected token {tree!r}")
        method = getattr(self, "r_" + tree.data.rstrip("_"))
        return method(tree.children)

    # -- logic
    def r_or(self, children: list[Any]) -> ColumnExpr:
        parts = [self.build(c) for c in children]
        return ColumnExpr("bool", lambda fr: _or([p(fr) for p in parts]))

    def r_and(self, children: list[Any]) -> ColumnExpr:
        parts = [self.build(c) for c in children]
        return ColumnExpr("bool", lambda fr: _and([p(fr) for p in parts]))

    def r_not(self, children: list[Any]) -> ColumnExpr:
        (inner,) = [self.build(c) for c in children]

        def not_(fr: Frame) -> Col:
            c = inner(fr)
            return Col("bool", c.false, c.ok)

        return ColumnExpr("bool", not_)

    # -- comparisons
    def r_comparison(self, children: list[Any]) -> ColumnExpr:
        operands = [self.build(c) for c in children[0::2]]
        ops = [" ".join(str(t) for t in c.children) for c in children[1::2]]
        parts = [self._pair(op, a, b) for op, a, b in zip(ops, operands, operands[1:])]
        if len(parts) == 1:
            return parts[0]
        return ColumnExpr("bool", lambda fr: _and([p(fr) for p in parts]))

    def _pair(self, op: str, left: ColumnExpr, right: ColumnExpr) -> ColumnExpr:
        if op in ("in", "not in"):
            return self._member(op == "not in", left, right)
        if op not in ("==", "!="):
            if left.agg is not None and right.agg is None and not _is_fraction(right):
                return self._aggregate(op, left.agg, right)
            if right.agg is not None and left.agg is None and not _is_fraction(left):
                return self._aggregate(_MIRROR[op], right.agg, left)
        if left.kind in ("cat", "str") and right.kind in ("cat", "str"):
            kind = "cat"
        else:
            kind = left.kind

        def compare(fr: Frame) -> Col:
            a, b = left(fr), right(fr)
            if kind == "cat":
                a.kind = b.kind = "cat"
            return _cmp(op, a, b, fr)

        return ColumnExpr("bool", compare)

    def _aggregate(self, op: str, agg: tuple[str, list[ColumnExpr]], other: ColumnExpr) -> ColumnExpr:
        """``max(args) op t`` as any/all over the arguments (the scalar engine's strong-Kleene reading)."""
        kind, args = agg
        existential = (op in (">", ">=")) == (kind == "max")

        def aggregate(fr: Frame) -> Col:
            t = other(fr)
            parts = [_cmp(op, a(fr), t, fr) for a in args]
            return _or(parts) if existential else _and(parts)

        return ColumnExpr("bool", aggregate)

    def _member(self, negate: bool, left: ColumnExpr, right: ColumnExpr) -> ColumnExpr:
        values = right.value
        table_exact = True
        if left.kind in ("cat", "str"):
            table = np.array(sorted(self.vocab.code(v) for v in values), dtype=np.int32)
            vocab = self.vocab

            def member_cat(fr: Frame) -> Col:
                c = left(fr)
                lut = np.zeros(len(vocab.words) + 1, dtype=bool)  # the last slot is -1: unknown
                lut[table] = True
                hit = lut[c.v]
                return Col("bool", c.ok & (~hit if negate else hit), c.ok)

            return ColumnExpr("bool", member_cat)
        elif left.kind == "bool":
            table = np.array(sorted({bool(v) for v in values}), dtype=bool)
        else:
            nums = sorted(Fraction(v) for v in values)
            table = np.array([float(v) for v in nums], dtype=np.float64)
            table_exact = all(_short_decimal(v) for v in nums)

        def member(fr: Frame) -> Col:
            c = left(fr)
            if c.kind == "bool":
                hit = np.isin(np.asarray(c.v), table)
            else:
                hit = np.isin(c.v, table)
            if c.kind == "num" and not (c.exact and table_exact):
                e = fr.err(c)
                if not (isinstance(e, float) and e == 0.0) or not table_exact:
                    near = np.zeros(np.shape(c.v), dtype=bool)
                    for t in table:
                        near |= np.abs(c.v - t) <= e + U * abs(t)
                    fr.doubt |= np.broadcast_to(c.ok & near, (fr.n,))
            res = ~hit if negate else hit
            return Col("bool", c.ok & res, c.ok)

        return ColumnExpr("bool", member)

    # -- arithmetic
    def r_sum(self, children: list[Any]) -> ColumnExpr:
        return self._fold(children)

    r_product = r_sum

    def _fold(self, children: list[Any]) -> ColumnExpr:
        acc = self.build(children[0])
        for op_tree, right_tree in zip(children[1::2], children[2::2]):
            op = str(op_tree.children[0])
            right = self.build(right_tree)
            if acc.const and right.const:
                acc = ColumnExpr("num", const=True, value=_fold_const(op, acc.value, right.value))
            else:
                acc = self._arith(op, acc, right)
        return acc

    def _arith(self, op: str, a: ColumnExpr, b: ColumnExpr) -> ColumnExpr:
        return ColumnExpr("num", lambda fr: _arith(op, a(fr), b(fr), fr))

    def r_neg(self, children: list[Any]) -> ColumnExpr:
        (inner,) = [self.build(c) for c in children]
        if inner.const:
            return ColumnExpr(inner.kind, const=True, value=None if inner.value is None else -inner.value)

        def neg(fr: Frame) -> Col:
            c = inner(fr)
            return Col("num", -c.v, c.ok, fr.err(c), c.exact)

        return ColumnExpr("num", neg)

    # -- atoms
    def r_name(self, children: list[Any]) -> ColumnExpr:
        ident = str(children[0])
        if ident in self.constants:
            return ColumnExpr(_kind(self.symbols[ident]), const=True, value=_exact(self.constants[ident]))
        kind = _kind(self.symbols[ident])
        return ColumnExpr(kind, lambda fr: fr.env[ident], ident=ident)

    def r_string(self, children: list[Any]) -> ColumnExpr:
        raw = str(children[0])
        text = unescape(raw[1:-1])
        return ColumnExpr("str", const=True, value=self.vocab.code(text))

    def r_true(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("bool", const=True, value=True)

    def r_false(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("bool", const=True, value=False)

    def r_percent(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("num", const=True, value=Fraction(str(children[0])[:-1]) / 100)

    def r_multiple(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("num", const=True, value=Fraction(str(children[0])[:-1]))

    def r_money(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("num", const=True, value=_scaled(str(children[0])[1:]))

    def r_scaled(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("num", const=True, value=_scaled(str(children[0])))

    def r_decimal(self, children: list[Any]) -> ColumnExpr:
        return ColumnExpr("num", const=True, value=Fraction(Decimal(str(children[0]))))

    def r_set(self, children: list[Any]) -> ColumnExpr:
        items = [self.build(c) for c in (children[0].children if children and children[0] is not None else [])]
        values = []
        for item in items:
            if item.kind == "str":
                values.append(self.vocab.words[item.value])
            else:
                values.append(item.value)
        return ColumnExpr("set", const=True, value=frozenset(values))

    def r_call(self, children: list[Any]) -> ColumnExpr:
        fname = str(children[0])
        args = [self.build(c) for c in children[1].children] if len(children) > 1 and children[1] is not None else []
        return getattr(self, "f_" + fname)(args)

    # -- functions
    def f_min(self, args: list[ColumnExpr], pick: str = "min") -> ColumnExpr:
        if all(a.const for a in args):
            vals = [a.value for a in args]
            value = None if any(v is None for v in vals) else (min(vals) if pick == "min" else max(vals))
            return ColumnExpr("num", const=True, value=value)
        np_pick = np.minimum if pick == "min" else np.maximum

        def minmax(fr: Frame) -> Col:
            cols = [a(fr) for a in args]
            v, ok, err, exact = cols[0].v, cols[0].ok, fr.err(cols[0]), cols[0].exact
            for c in cols[1:]:
                v = np_pick(v, c.v)
                ok = ok & c.ok
                err = np.maximum(err, fr.err(c))
                exact = exact and c.exact
            return Col("num", v, ok, err, exact)

        return ColumnExpr("num", minmax, agg=(pick, args))

    def f_max(self, args: list[ColumnExpr]) -> ColumnExpr:
        return self.f_min(args, "max")

    def f_abs(self, args: list[ColumnExpr]) -> ColumnExpr:
        (a,) = args
        if a.const:
            return ColumnExpr("num", const=True, value=None if a.value is None else abs(a.value))

        def abs_(fr: Frame) -> Col:
            c = a(fr)
            return Col("num", np.abs(c.v), c.ok, fr.err(c), c.exact)

        return ColumnExpr("num", abs_)

    def f_known(self, args: list[ColumnExpr]) -> ColumnExpr:
        (a,) = args

        def known(fr: Frame) -> Col:
            c = a(fr)
            return Col("bool", np.broadcast_to(c.ok, (fr.n,)), True)

        return ColumnExpr("bool", known)

    def f_date(self, args: list[ColumnExpr]) -> ColumnExpr:
        text = self.vocab.words[args[0].value]
        return ColumnExpr("date", const=True, value=(_dt.date.fromisoformat(text) - _EPOCH).days)

    def f_year(self, args: list[ColumnExpr]) -> ColumnExpr:
        (a,) = args

        def year(fr: Frame) -> Col:
            c = a(fr)
            days = np.asarray(c.v, dtype="int64").astype("datetime64[D]")
            years = days.astype("datetime64[Y]").astype(np.int64) + 1970
            return Col("num", years.astype(np.float64), c.ok, 0.0, True)

        return ColumnExpr("num", year)


def _is_fraction(e: ColumnExpr) -> bool:
    if not (e.const and isinstance(e.value, Fraction)):
        return False
    den = e.value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return den != 1


def _fold_const(op: str, x: Fraction | None, y: Fraction | None) -> Fraction | None:
    if x is None or y is None:
        return None
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return None if y == 0 else x / y


def _exact(value: Any) -> Any:
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return Fraction(value)
    return value


def _kind(t: ExprType) -> str:
    return {"number": "num", "bool": "bool", "category": "cat", "string": "str", "date": "date", "set": "set"}[t.kind]


def _scaled(text: str) -> Fraction:
    if text and text[-1] in _SCALE:
        return Fraction(Decimal(text[:-1])) * _SCALE[text[-1]]
    return Fraction(Decimal(text))


def compile_columns(source: str, symbols: Mapping[str, ExprType], constants: Mapping[str, Any],
                    vocab: Vocabulary) -> ColumnExpr:
    """Compile one (already checked) card expression to a column closure.

    Parameters
    ----------
    source:
        The expression text as written in the card.
    symbols:
        The card's name -> :class:`ExprType` table (``Card.symbols``).
    constants:
        The card's constants (name -> Decimal), folded exactly as fractions.
    vocab:
        The card's string vocabulary; string literals are added to it.
    """
    tree = parse_expression(source)
    if not isinstance(tree, Tree):
        tree = Tree("expr", [tree])  # pragma: no cover
    return _Compiler(symbols, constants, vocab).build(tree)
