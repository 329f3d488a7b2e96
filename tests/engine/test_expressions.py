"""The criterion expression language (``ipb.engine.expressions``).

Expected values are worked out by hand from the grammar
(``grammar/expression.lark``) and the meaning in the module docstring: exact
decimals, units carried by literals, Kleene ``and``/``or``/``not``, unknown
(None) through arithmetic and comparisons, division by zero unknown.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from itertools import product
from typing import Any

import pytest

from ipb.engine.expressions import (
    BOOL,
    MONEY,
    MULTIPLE,
    NUMBER,
    RATIO,
    ExprType,
    category,
    compile_expression,
    parse_literal,
)
from ipb.engine.execute import format_value
from ipb.errors import CompileError

D = Decimal

SYMBOLS: dict[str, ExprType] = {
    "a": BOOL,
    "b": BOOL,
    "c": BOOL,
    "x": NUMBER,
    "y": NUMBER,
    "z": NUMBER,
    "price": MONEY,
    "ncav": MONEY,
    "margin": RATIO,
    "multiple": MULTIPLE,
    "sector": category(["software", "banking", "energy"]),
}


def ev(source: str, **env: Any) -> Any:
    """Compile ``source`` against SYMBOLS and evaluate it; ints become Decimals."""
    facts = {k: D(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in env.items()}
    return compile_expression(source, SYMBOLS)(facts)


# --------------------------------------------------------------------------- literals

LITERALS = [
    # text, value, unit
    ("25%", D("0.25"), "ratio"),
    ("12.5%", D("0.125"), "ratio"),
    ("100%", D(1), "ratio"),
    ("10x", D(10), "multiple"),
    ("2.5x", D("2.5"), "multiple"),
    ("$5B", D(5) * 10**9, "money"),
    ("$1.25M", D(1_250_000), "money"),
    ("$500K", D(500_000), "money"),
    ("$2T", D(2) * 10**12, "money"),
    ("$90", D(90), "money"),
    ("5B", D(5) * 10**9, None),
    ("1.5e9", D(1_500_000_000), None),
    ("2E-3", D("0.002"), None),
    ("42", D(42), None),
    ("-3", D(-3), None),
    ("0.57", D("0.57"), None),
]


@pytest.mark.parametrize("text, value, unit", LITERALS, ids=[c[0] for c in LITERALS])
def test_literal(text: str, value: Decimal, unit: str | None) -> None:
    got, type = parse_literal(text)
    assert isinstance(got, Decimal)
    assert got == value
    assert (type.kind, type.unit) == ("number", unit)


def test_two_thirds_is_kept_exact() -> None:
    # As a constant it folds exactly: 2/3 * 3 is 2, and 1/3 + 1/3 + 1/3 is 1.
    assert ev("2/3 * 3 == 2") is True
    assert ev("1/3 + 1/3 + 1/3 == 1") is True
    assert ev("2/3 * x == 2", x=3) is True
    assert ev("x / (2/3) == 450", x=300) is True
    # Read as a value (e.g. a scenario fact), it is rounded to 28 significant digits.
    assert parse_literal("2/3")[0] == D("0.6666666666666666666666666667")


def test_literal_with_a_finite_fraction_is_a_decimal() -> None:
    assert parse_literal("1/4") == (D("0.25"), NUMBER)
    assert parse_literal("0.57 * 100")[0] == D(57)


@pytest.mark.parametrize("text", ["abc", "5 +", "$$5", "25 %%"])
def test_non_literals_are_refused(text: str) -> None:
    with pytest.raises(CompileError):
        parse_literal(text)


def test_string_and_bool_literals() -> None:
    assert ev('"it\'s" == "it\'s"') is True
    assert ev(r'"a\"b" == "a\"b"') is True
    assert ev("true and not false") is True


# --------------------------------------------------------------------------- precedence

@pytest.mark.parametrize(
    "source, value",
    [
        ("2 + 3 * 4", D(14)),
        ("(2 + 3) * 4", D(20)),
        ("2 * 3 + 4 * 5", D(26)),
        ("10 - 2 - 3", D(5)),  # left-associative
        ("24 / 4 / 2", D(3)),
        ("x - 2 - 3", D(5)),  # the same, not folded (x = 10)
        ("x / 4 / 2", D("1.25")),
        ("-2 + 3", D(1)),
        ("2 - -3", D(5)),
        ("-x * 2", D(-20)),
        ("+x", D(10)),
    ],
)
def test_arithmetic_precedence(source: str, value: Decimal) -> None:
    assert ev(source, x=10) == value


def test_not_binds_tighter_than_and_which_binds_tighter_than_or() -> None:
    """``not a or b and c`` is ``(not a) or (b and c)``, in all 27 Kleene cases."""
    values = [True, False, None]

    def k_not(p: Any) -> Any:
        return None if p is None else not p

    def k_and(p: Any, q: Any) -> Any:
        if p is False or q is False:
            return False
        return None if p is None or q is None else True

    def k_or(p: Any, q: Any) -> Any:
        if p is True or q is True:
            return True
        return None if p is None or q is None else False

    compiled = compile_expression("not a or b and c", SYMBOLS)
    for a, b, c in product(values, repeat=3):
        env = {k: v for k, v in (("a", a), ("b", b), ("c", c)) if v is not None}
        assert compiled(env) is k_or(k_not(a), k_and(b, c)), (a, b, c)


def test_comparison_binds_tighter_than_not() -> None:
    assert ev("not x > 1", x=0) is True
    assert ev("not x + 1 > 1", x=0) is True  # not ((x + 1) > 1)


# --------------------------------------------------------------------------- comparisons

@pytest.mark.parametrize(
    "source, env, value",
    [
        ("0 < x <= 10", dict(x=10), True),
        ("0 < x <= 10", dict(x=0), False),
        ("0 < x <= 10", dict(x=11), False),
        ("3 > 2 > 1", {}, True),  # (3 > 2) and (2 > 1), not (3 > 2) > 1
        ("1 < 3 > 2", {}, True),
        ("x == y == z", dict(x=1, y=1, z=1), True),
        ("x == y == z", dict(x=1, y=1, z=2), False),
        ("x < y < z", dict(x=1, y=3, z=2), False),
        # Kleene: a decided False link decides the chain; otherwise unknown stays.
        ("0 < x < y", dict(x=-1), False),
        ("0 < x < y", dict(x=5), None),
        ("0 < x <= 10", {}, None),
        ("x != y", dict(x=1, y=2), True),
        ("x >= y", dict(x=2, y=2), True),
    ],
)
def test_chained_comparisons(source: str, env: dict[str, Any], value: Any) -> None:
    assert ev(source, **env) is value


@pytest.mark.parametrize(
    "source, env, value",
    [
        ('sector in {"software", "banking"}', dict(sector="banking"), True),
        ('sector in {"software", "banking"}', dict(sector="energy"), False),
        ('sector not in {"software", "banking"}', dict(sector="energy"), True),
        ('sector not in {"software", "banking"}', dict(sector="software"), False),
        ('sector in {"software", "banking"}', {}, None),
        ('sector not in {"software"}', {}, None),
        ("x in {1, 2, 3}", dict(x=2), True),
        ("x in {1, 2, 3}", dict(x=D("2.0")), True),  # numbers compare by value
        ("x not in {1, 2, 3}", dict(x=4), True),
        ("x in {1, 2, 3,}", dict(x=3), True),  # a trailing comma is allowed
        ('"software" == sector', dict(sector="software"), True),
        ('sector != "energy"', dict(sector="software"), True),
    ],
)
def test_membership_and_category_equality(source: str, env: dict[str, Any], value: Any) -> None:
    assert ev(source, **env) is value


# --------------------------------------------------------------------------- functions

@pytest.mark.parametrize(
    "source, env, value",
    [
        ("min(x, y)", dict(x=3, y=-2), D(-2)),
        ("max(x, y, 7)", dict(x=3, y=-2), D(7)),
        ("min(x, y)", dict(x=3), None),
        ("max(x, 1)", {}, None),
        ("abs(x)", dict(x=-4), D(4)),
        ("abs(x - y)", dict(x=1, y=5), D(4)),
        ("abs(x)", {}, None),
        ("known(x)", dict(x=0), True),
        ("known(x)", {}, False),
        ("known(x / y)", dict(x=1, y=0), False),  # undefined is unknown
        ("known(a)", dict(a=False), True),
        ("not known(a) or a", {}, True),
        ("max(price, $1B) == $2B", dict(price=2 * 10**9), True),
        # round(): the nearest whole number, halves away from zero, exact on values with no decimal form
        ("round(x / y)", dict(x=5, y=2), D(3)),
        ("round(x / y)", dict(x=-5, y=2), D(-3)),
        ("round(x / y)", dict(x=7, y=3), D(2)),  # 2.333...
        ("round(x / y)", dict(x=8, y=3), D(3)),  # 2.666...
        ("round(x / y)", dict(x=-1, y=3), D(0)),
        ("round(x)", dict(x=D("1049.4999999999999999999999999")), D(1049)),
        ("round(x)", dict(x=12), D(12)),
        ("round(x)", {}, None),
        ("round(x / y)", dict(x=1, y=0), None),
    ],
)
def test_functions(source: str, env: dict[str, Any], value: Any) -> None:
    got = ev(source, **env)
    assert got == value and type(got) is type(value)


def test_function_result_types() -> None:
    assert compile_expression("abs(price)", SYMBOLS).type == MONEY
    assert compile_expression("min(margin, 50%)", SYMBOLS).type == RATIO
    assert compile_expression("known(price)", SYMBOLS).type == BOOL
    assert compile_expression("round(price)", SYMBOLS).type == MONEY


def test_round_of_minus_a_third_is_plain_zero() -> None:
    """Rounding toward zero from below gives 0, not Decimal('-0') (which would print as '-0' in a question)."""
    assert str(ev("round(x / y)", x=-1, y=3)) == "0"


@pytest.mark.parametrize("source", ["round(x, y)", "round()", "round(a)"])
def test_round_takes_one_number(source: str) -> None:
    with pytest.raises(CompileError):
        compile_expression(source, SYMBOLS)


# --------------------------------------------------------------------------- unknown and undefined

@pytest.mark.parametrize(
    "source, env",
    [
        ("x / y", dict(x=1, y=0)),
        ("x / 0", dict(x=1)),
        ("x / (y - y)", dict(x=1, y=5)),
        ("1 / 0", {}),
        ("0 / 0", {}),
        ("x / 0.0", dict(x=0)),
        ("2/3 / x", dict(x=0)),  # an exact fraction divided by zero
    ],
)
def test_division_by_zero_is_unknown(source: str, env: dict[str, Any]) -> None:
    assert ev(source, **env) is None


def test_division_by_zero_does_not_decide_a_comparison() -> None:
    assert ev("x / y > 1", x=1, y=0) is None
    assert ev("x / y > 1 or true", x=1, y=0) is True
    assert ev("x / y > 1 and false", x=1, y=0) is False


@pytest.mark.parametrize(
    "source",
    ["x + y", "x - y", "x * y", "x / y", "-y", "x * 0 + y", "y * 0", "min(x, y)", "2/3 * y", "y / (2/3)", "y + 2/3"],
)
def test_unknown_propagates_through_arithmetic(source: str) -> None:
    # y is unknown; even y * 0 is unknown, not 0.
    assert ev(source, x=3) is None


@pytest.mark.parametrize(
    "source, value",
    [
        ("x > 0 and y > 0", None),
        ("x < 0 and y > 0", False),
        ("x > 0 or y > 0", True),
        ("x < 0 or y > 0", None),
        ("not y > 0", None),
        ("y > 0 or not y > 0", None),  # Kleene: no excluded middle
    ],
)
def test_unknown_through_logic(source: str, value: Any) -> None:
    assert ev(source, x=3) is value


def test_exact_decimal_arithmetic() -> None:
    assert ev("x + y == 0.3", x=D("0.1"), y=D("0.2")) is True
    assert ev("x == 0.57 * 100", x=57) is True
    assert ev("x * 3 == 1", x=D("0.3333")) is False


# --------------------------------------------------------------------------- units and types

def test_result_units() -> None:
    def unit(source: str) -> str | None:
        return compile_expression(source, SYMBOLS).type.unit

    assert unit("price * margin") == "money"
    assert unit("price / ncav") is None
    assert unit("price / 2") == "money"
    assert unit("margin + 5%") == "ratio"
    assert unit("multiple * 2") == "multiple"
    assert unit("price * 10x") == "money"


@pytest.mark.parametrize(
    "source",
    [
        "1.2 * margin + 0.6 * multiple",  # Altman's Z: ratio terms, then multiple terms
        "0.6 * multiple + 1.2 * margin",
        "1.2 * margin + 0.6 * multiple + 1.0 * multiple",  # a multiple after the mix does not make it 'x'
        "margin + multiple + margin",
        "margin - multiple",
        "(margin + multiple) + x",  # plus a plain number
        "x - (margin + multiple)",
        "(margin + multiple) * 2",
    ],
)
def test_sum_of_ratio_and_multiple_is_a_plain_number(source: str) -> None:
    """Bug kind: a sum took the unit of its first term (s42user's Altman Z of exactly 2.99 read ``299%``)."""
    expr = compile_expression(source, SYMBOLS)
    assert expr.type.unit == "dimensionless"
    assert "%" not in format_value(D("2.99"), expr.type.unit) and format_value(D("2.99"), expr.type.unit) == "2.99"


def test_sum_of_ratio_and_multiple_keeps_its_value_and_reads_plain_thresholds() -> None:
    # 1.2 * 15% + 0.6 * 1x = 0.18 + 0.6 = 0.78, exactly
    assert ev("1.2 * margin + 0.6 * multiple == 0.78", margin=D("0.15"), multiple=D(1)) is True
    assert ev("1.2 * margin + 0.6 * multiple > 0.78", margin=D("0.15"), multiple=D(1)) is False
    # a plain threshold is right for such a sum: no "write it as a percentage" warning (it said so before)
    expr = compile_expression("1.2 * margin + 0.6 * multiple > 2.99", SYMBOLS)
    assert [w.rule for w in expr.warnings] == []
    # the mix is still not money
    with pytest.raises(CompileError, match="cannot add money to dimensionless"):
        compile_expression("margin + multiple + price > 0", SYMBOLS)


@pytest.mark.parametrize(
    "source, rule, fragment, column",
    [
        ("price > margin", "unit", "cannot compare money with ratio", 1),
        ("x > 1 and price + 5% > 0", "unit", "cannot add ratio to money", 11),
        ("min(price, 5%) > 0", "unit", "min() mixes money with ratio", 1),
        ("sector == 3", "type", "cannot compare 'sector'", 1),
        ('sector == "tech"', "category", "'tech' is not a value of 'sector'", 11),
        ('sector in {"software", "sofware"}', "category", "'sofware' is not a value", 11),
        ("x > 1 and a + 1 > 0", "type", "'+' needs numbers, but 'a' is a bool", 11),
        ("sector > 1", "type", "cannot order 'sector'", 1),
        ("x in 3", "type", "'in' needs a set literal", 6),
        ("nope > 1", "name", "unknown name 'nope'", 1),
        ("maxx(x, 1) > 0", "function", "unknown function 'maxx'", 1),
        ("min(x) > 0", "function", "min() needs at least two arguments", 1),
        ("x + ", "syntax", "unexpected end of the expression", 5),
        ("x > > 1", "syntax", "unexpected '>'", 5),
        ("x ? 1", "syntax", "unexpected character '?'", 3),
        ("x + 1", "type", "this expression must give a bool, but it gives a number", 1),
    ],
)
def test_compile_errors_point_into_the_expression(source: str, rule: str, fragment: str, column: int) -> None:
    with pytest.raises(CompileError) as info:
        compile_expression(source, SYMBOLS, expect="bool")
    err = info.value
    assert fragment in err.message
    assert err.rule == rule
    assert (err.line, err.column, err.offset) == (1, column, column - 1)


def test_compile_error_line_and_column_in_a_multiline_expression() -> None:
    with pytest.raises(CompileError) as info:
        compile_expression("x > 1 and\n  nope < 2", SYMBOLS)
    assert (info.value.line, info.value.column, info.value.offset) == (2, 3, 12)


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(CompileError) as info:
        compile_expression("prise > 1", SYMBOLS)
    assert info.value.suggestion == "price"
    assert info.value.name == "prise"


def test_compiled_expression_reports_its_names_and_type() -> None:
    e = compile_expression("0 < x * y <= 22.5 and not a", SYMBOLS, expect="bool")
    assert e.names == frozenset({"x", "y", "a"})
    assert e.type == BOOL
    assert not e.constant
    assert compile_expression("2/3 * 3", SYMBOLS).constant


# --------------------------------------------------------------------------- regressions (engine bugs)


@pytest.mark.parametrize("source", ["x * y", "x + x", "x - -x"])
def test_overflow_is_unknown_not_a_crash(source: str) -> None:
    assert ev(source, x=D("9e999999"), y=10) is None


def test_membership_checks_units() -> None:
    with pytest.raises(CompileError) as info:
        compile_expression("price in {5%, 10%}", SYMBOLS)
    assert info.value.rule == "unit"


def test_set_of_negative_numbers() -> None:
    assert ev("x in {-1, 0, 1}", x=-1) is True
