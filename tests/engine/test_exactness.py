"""Exactness through arithmetic and computed values (issue 16, "Wrong results").

The oracle is Python's ``fractions.Fraction``, written here independently of
the engine: each generated expression is evaluated by a small recursive
evaluator over Fractions, and the compiled expression must give the same exact
value (or the same verdict) for every environment.
"""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute
from ipb.engine.expressions import MONEY, NUMBER, compile_expression
from ipb.engine.graph import compile_card
from ipb.errors import IpbError

# ---------------------------------------------------------------- the reproducers


def _ev(source: str, symbols: dict[str, Any], **env: Any) -> Any:
    return compile_expression(source, symbols).fn({k: D(v) for k, v in env.items()})


def test_margin_of_safety_boundary_proceeds() -> None:
    e = "1 - price/intrinsic_value >= 1/3"
    assert _ev(e, {"price": MONEY, "intrinsic_value": MONEY}, price=200_000_000, intrinsic_value=300_000_000) is True
    assert _ev(e, {"price": MONEY, "intrinsic_value": MONEY}, price=200_000_001, intrinsic_value=300_000_000) is False


def test_abs_keeps_every_digit() -> None:
    # Found by test_fraction_oracle in a fresh-clone CI: abs() went through Python's abs(Decimal), which rounds
    # to 28 significant digits. (1e-9 + 2e8)^2 = 40000000000000000.400000000000000001 exactly (36 digits).
    sym = {"x": NUMBER, "z": NUMBER}
    got = _ev("abs((x + z) * (x + z))", sym, x="1E-9", z=200_000_000)
    assert F(got) == F("40000000000000000.400000000000000001")
    assert F(_ev("abs(-((x + z) * (x + z)))", sym, x="1E-9", z=200_000_000)) == F("40000000000000000.400000000000000001")
    assert _ev("abs((x + z) * (x + z)) > 40000000000000000.4", sym, x="1E-9", z=200_000_000) is True


def test_adding_zero_keeps_a_quotient() -> None:
    assert _ev("a/b + 0 == a/b", {"a": NUMBER, "b": NUMBER}, a=7, b=3) is True
    assert _ev("-(a/b) == -a/b", {"a": NUMBER, "b": NUMBER}, a=7, b=3) is True


def test_quotient_times_divisor() -> None:
    assert _ev("ncav/shares*shares >= ncav", {"ncav": MONEY, "shares": NUMBER}, ncav=1_000_000, shares=3) is True
    assert _ev("ncav/shares*shares == ncav", {"ncav": MONEY, "shares": NUMBER}, ncav=1, shares=7) is True


def _ncav_card() -> Any:
    """The bundled net-net card with its two-thirds test written through a computed quotient."""
    path = Path(__file__).parents[2] / "frameworks" / "graham_net_net_screen.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("      price_ceiling: 2/3 * ncav\n", "      price_to_ncav: market_value / ncav\n")
    text = text.replace("    proceed: market_value <= 2/3 * ncav", "    proceed: price_to_ncav <= 2/3")
    text = text.replace("two-thirds threshold {price_ceiling}", "price to NCAV {price_to_ncav}")
    return compile_card(load_card_text(text, "exact.yaml"))


def test_computed_quotient_stays_exact() -> None:
    compiled = _ncav_card()
    facts = {"current_assets": D(300_000_000), "total_liabilities": D(0), "preferred_stock": D(0),
             "net_income": D(1)}
    trace = execute(compiled, {**facts, "market_value": D(200_000_000)})
    assert trace.gates[0].verdict.value == "PROCEED"
    # Shown to 28 digits wherever a value leaves the engine.
    assert trace.gates[0].computed["price_to_ncav"] == D("0.6666666666666666666666666667")
    trace = execute(compiled, {**facts, "market_value": D(200_000_001)})
    assert trace.gates[0].verdict.value == "REJECT"


# ---------------------------------------------------------------- the Fraction oracle

NAMES = ("x", "y", "z")
SYMBOLS = {n: NUMBER for n in NAMES}
CONSTANTS = ["0", "1", "2", "3", "7", "0.1", "0.5", "2.5", "1/3", "2/3", "10", "300"]
VALUES = [D(v) for v in ("0", "1", "-1", "3", "7", "0.1", "-0.3", "2.5", "200000000", "300000000", "1e-9", "12345.6789")]


def _tree(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.one_of(st.sampled_from(NAMES), st.sampled_from(CONSTANTS))
    if depth == 0:
        return leaf
    inner = _tree(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(["+", "-", "*", "/"]), inner, inner),
        st.tuples(st.just("neg"), inner),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner),
        st.tuples(st.just("abs"), inner),
    )


def _text(t: Any) -> str:
    if isinstance(t, str):
        return t if "/" not in t else f"({t})"
    if t[0] == "neg":
        return f"-({_text(t[1])})"
    if t[0] == "abs":
        return f"abs({_text(t[1])})"
    if t[0] in ("min", "max"):
        return f"{t[0]}({_text(t[1])}, {_text(t[2])})"
    return f"({_text(t[1])} {t[0]} {_text(t[2])})"


def _oracle(t: Any, env: dict[str, F]) -> F | None:
    """Exact value by Fractions; None when some division by zero makes it undefined."""
    if isinstance(t, str):
        if t in env:
            return env[t]
        num, _, den = t.partition("/")
        return F(num) / F(den or 1)
    args = [_oracle(a, env) for a in t[1:]]
    if any(a is None for a in args):
        return None
    if t[0] == "neg":
        return -args[0]
    if t[0] == "abs":
        return abs(args[0])
    if t[0] == "min":
        return min(args)
    if t[0] == "max":
        return max(args)
    a, b = args
    if t[0] == "/":
        return None if b == 0 else a / b
    return {"+": a + b, "-": a - b, "*": a * b}[t[0]]


def _as_f(value: Any) -> F | None:
    return None if value is None else F(value)


_env = st.fixed_dictionaries({n: st.sampled_from(VALUES) for n in NAMES})
_ops = st.sampled_from(["<", "<=", ">", ">=", "==", "!="])


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.tuples(_tree(3), _ops, _tree(3)), min_size=5, max_size=5), _env)
def test_fraction_oracle(cases: list[tuple[Any, str, Any]], env: dict[str, D]) -> None:
    # 2,000 examples x 5 cases x 2 checks = 20,000 random expressions.
    fenv = {k: F(v) for k, v in env.items()}
    for left, op, right in cases:
        value = compile_expression(_text(left), SYMBOLS).fn(env)
        assert _as_f(value) == _oracle(left, fenv), _text(left)
        # "+ 0" and "* 1" keep min/max from deciding the comparison by their known arguments alone.
        source = f"{_text(left)} + 0 {op} {_text(right)} * 1"
        got = compile_expression(source, SYMBOLS, expect="bool").fn(env)
        a, b = _oracle(left, fenv), _oracle(right, fenv)
        want = None if a is None or b is None else {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
                                                     "==": a == b, "!=": a != b}[op]
        assert got is want, source


# ---------------------------------------------------------------- the Decimal attempt's own context

_DECIMALS = st.decimals(min_value=-10**12, max_value=10**12, allow_nan=False, allow_infinity=False, places=6)


@settings(max_examples=300, deadline=None)
@given(a=_DECIMALS, b=_DECIMALS, op=st.sampled_from(["+", "-", "*", "/"]))
def test_decimal_attempt_ignores_the_callers_context(a: D, b: D, op: str) -> None:
    """Same exact value and the same representation whatever context the caller set, flags untouched.

    The expected representation is worked independently: Python's own Decimal
    operation at 28 digits when it is exact, else the reduced rational (as a
    Decimal when the denominator has only factors 2 and 5).
    """
    from decimal import Context, Inexact, localcontext

    from ipb.engine import _exact

    fn = {"+": _exact.add, "-": _exact.sub, "*": _exact.mul, "/": _exact.div}[op]
    if op == "/" and not b:
        return
    oracle = {"+": F(a) + F(b), "-": F(a) - F(b), "*": F(a) * F(b), "/": F(a) / F(b) if b else None}[op]
    plain = fn(a, b)
    assert F(plain) == oracle if isinstance(plain, D) else plain == oracle
    with localcontext(Context(prec=3, traps=[Inexact])) as ctx:
        ctx.flags[Inexact] = True
        tight = fn(a, b)
        assert ctx.flags[Inexact] is True and ctx.traps[Inexact] is True
    assert type(tight) is type(plain) and str(tight) == str(plain)
    twenty_eight = Context(prec=28)
    exact = {"+": twenty_eight.add, "-": twenty_eight.subtract, "*": twenty_eight.multiply,
             "/": twenty_eight.divide}[op](a, b)
    if not twenty_eight.flags[Inexact]:
        assert str(plain) == str(exact)  # the representation Decimal gives (1.50 * 2 is 3.00)


def test_decimal_attempt_keeps_the_decimal_representation() -> None:
    from ipb.engine import _exact

    assert str(_exact.mul(D("1.50"), D("2"))) == "3.00"
    assert str(_exact.div(D("1"), D("0.08"))) == "12.5"
    assert _exact.div(D("1"), D("0.09")) == F(100, 9)
    assert str(_exact.add(D("0.1"), D("0.20"))) == "0.30"


# ---------------------------------------------------------------- constants and computed values (issue 16, breaker 2)

_CARD_HEAD = """\
id: oracle
version: 1
investor: Benjamin Graham
name: Oracle
topology_type: linear_sequential
gate_logic: conjunction
topology_rationale: one test
vintage: {{start: 1934, end: 1976}}
sources: [{{tier: 1, document: Security Analysis, year: 1934}}]
constants: {{c: "{const}"}}
inputs:
  x: {{type: number}}
  w: {{type: number}}
gates:
  - id: g
    name: One test
    compute:
      v: "{computed}"
    proceed: "{proceed}"
    required_elements: [x]
    source: {{tier: 1, document: Security Analysis, year: 1934}}
"""

_CNAMES = ("x", "w", "c")


def _ctree(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.one_of(st.sampled_from(_CNAMES), st.sampled_from(CONSTANTS))
    if depth == 0:
        return leaf
    inner = _ctree(depth - 1)
    return st.one_of(leaf, st.tuples(st.sampled_from(["+", "-", "*", "/"]), inner, inner))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["1/3", "2/3", "1/7", "0.1", "5", "-2/3", "22/7"]), _ctree(2), _ops, _ctree(2),
       st.fixed_dictionaries({"x": st.sampled_from(VALUES), "w": st.sampled_from(VALUES)}))
def test_fraction_oracle_constants_and_computed(const: str, left: Any, op: str, right: Any,
                                                 env: dict[str, D]) -> None:
    """A card constant and a computed value hold the exact rational: the scalar and the columnar engine
    give the verdict of the Fraction oracle (a constant was rounded to 28 digits before)."""
    from ipb.engine.columnar import execute_columns
    import numpy as np

    num, _, den = const.partition("/")
    fenv = {"x": F(env["x"]), "w": F(env["w"]), "c": F(num) / F(den or 1)}
    v = _oracle(left, fenv)
    fenv["v"] = v  # type: ignore[assignment]
    b = _oracle(right, fenv)
    text = _CARD_HEAD.format(const=const, computed=_text(left), proceed=f"v {op} {_text(right)}")
    try:
        compiled = compile_card(load_card_text(text, "oracle.yaml"))
    except IpbError as exc:  # a divisor that folds to 0 is refused at load (tested elsewhere)
        assert "division by zero" in str(exc), text
        assume(False)
    trace = execute(compiled, dict(env))
    if v is None or b is None:
        want = "INCONCLUSIVE"
    else:
        want = "PROCEED" if {"<": v < b, "<=": v <= b, ">": v > b, ">=": v >= b, "==": v == b,
                             "!=": v != b}[op] else "REJECT"
    assert trace.gates[0].verdict.value == want, text
    cols = {k: np.array([val], dtype=object) for k, val in env.items()}
    assert execute_columns(compiled, cols).row(0)[2][0] == want, text


@pytest.mark.parametrize(("constant", "expression", "price", "ncav", "want"), [
    ("2/3", "price / ncav >= k", "200000000", "300000000", "PROCEED"),
    ("2/3", "price / ncav >= k", "199999999", "300000000", "REJECT"),
    ("1/3", "price <= 3 * k * ncav", "7", "7", "PROCEED"),
    ("1/3", "price * k + price * k + price * k == price", "7", "7", "PROCEED"),
])
def test_constant_at_its_exact_threshold(constant: str, expression: str, price: str, ncav: str, want: str) -> None:
    text = (_CARD_HEAD.replace("constants: {{c:", "constants: {{k:")
            .replace("  x: {{type: number}}\n  w: {{type: number}}", "  price: {{type: number}}\n  ncav: {{type: number}}")
            .replace("    compute:\n      v: \"{computed}\"\n", "").replace("[x]", "[price]"))
    compiled = compile_card(load_card_text(text.format(const=constant, proceed=expression), "k.yaml"))
    assert execute(compiled, {"price": D(price), "ncav": D(ncav)}).gates[0].verdict.value == want
