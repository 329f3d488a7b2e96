"""Closure shapes of s37speed: a name compared with an expression, and ``not`` of an and/or (ipb.engine._ops).

Each shape must give the plain strong-Kleene value (paper §5.2, criteria are three-valued) and read the operands
in the same order, stopping where the plain form stops. The values below are worked by hand.
"""

from __future__ import annotations

from decimal import Decimal as D
from fractions import Fraction

import pytest

from ipb.engine._ops import kleene_all, kleene_any, kleene_not
from ipb.engine.expressions import BOOL, NUMBER, STRING, compile_expression
from tests.engine.reads_support import CountingReads

NUMS = {"a": NUMBER, "b": NUMBER, "c": NUMBER}


@pytest.mark.parametrize("source, env, want", [
    # name against a product: 5 <= 2 * 3
    ("a <= b * c", {"a": D(5), "b": D(2), "c": D(3)}, True),
    ("a <= b * c", {"a": D(7), "b": D(2), "c": D(3)}, False),
    ("a <= b * c", {"b": D(2), "c": D(3)}, None),  # the name unknown
    ("a <= b * c", {"a": D(5), "b": D(2)}, None),  # the other side unknown
    # the mirror: a difference against a name; 1.25 - 1 = 0.25 >= 0.25
    ("b - 1 >= a", {"a": D("0.25"), "b": D("1.25")}, True),
    ("b - 1 > a", {"a": D("0.25"), "b": D("1.25")}, False),
    ("b - 1 > a", {"b": D("1.25")}, None),
    # exact at the boundary: 1/3 == 1/3 (a Fraction on the right)
    ("a == b / 3", {"a": Fraction(1, 3), "b": D(1)}, True),
    ("a != b / 3", {"a": D("0.3333333333333333333333333333"), "b": D(1)}, True),
    # a constant on the left of a name (0 < a) and of a product (0 < a * b)
    ("0 < a", {"a": D("-0.5")}, False),
    ("0 < a * b", {"a": D(-2), "b": D(-3)}, True),
])
def test_name_against_expression_values(source, env, want):
    assert compile_expression(source, NUMS, expect="bool").fn(env) is want


def test_name_against_expression_reads_the_name_first_and_stops_when_it_is_unknown():
    e = compile_expression("a <= b * c", NUMS, expect="bool")
    env = CountingReads(b=D(1), c=D(1))
    assert e.fn(env) is None
    assert env.reads == {"a": 1}  # b and c never read
    env = CountingReads(a=D(1), b=D(1), c=D(2))
    assert e.fn(env) is True
    assert env.reads == {"a": 1, "b": 1, "c": 1}


# strong-Kleene truth tables: T, F, U(nknown) for every pair
T, F, U = True, False, None
AND = {(T, T): T, (T, F): F, (T, U): U, (F, T): F, (F, F): F, (F, U): F, (U, T): U, (U, F): F, (U, U): U}
OR = {(T, T): T, (T, F): T, (T, U): T, (F, T): T, (F, F): F, (F, U): U, (U, T): T, (U, F): U, (U, U): U}
NOT = {T: F, F: T, U: U}


def _value(name):
    return lambda env: env[name]


@pytest.mark.parametrize("pair", sorted(AND, key=repr))
def test_not_of_and_and_or_follow_the_truth_tables(pair):
    env = {"x": pair[0], "y": pair[1]}
    two = [_value("x"), _value("y")]
    assert kleene_not(kleene_all(two))(env) is NOT[AND[pair]]
    assert kleene_not(kleene_any(two))(env) is NOT[OR[pair]]
    # three operands (the and_n / or_n closures), the third True (neutral for and) or False (neutral for or)
    env["z"] = True
    assert kleene_not(kleene_all([*two, _value("z")]))(env) is NOT[AND[pair]]
    env["z"] = False
    assert kleene_not(kleene_any([*two, _value("z")]))(env) is NOT[OR[pair]]


def test_not_of_and_stops_where_the_and_stops():
    asked = []

    def op(name, value):
        def fn(env):
            asked.append(name)
            return value
        return fn

    assert kleene_not(kleene_all([op("p", None), op("q", False), op("r", True)]))({}) is True
    assert asked == ["p", "q"]  # False decides: r never asked
    asked.clear()
    assert kleene_not(kleene_any([op("p", False), op("q", True), op("r", None)]))({}) is False
    assert asked == ["p", "q"]


def test_not_of_anything_else_negates_it():
    assert kleene_not(lambda env: True)({}) is False
    assert kleene_not(lambda env: None)({}) is None


SYMS = {"model": STRING, "growth": NUMBER, "flag": BOOL}


@pytest.mark.parametrize("model, growth, want", [
    ("utility", D("0.12"), False),  # both hold: the rule is broken
    ("utility", D("0.08"), True),
    ("software", D("0.30"), True),
    (None, D("0.12"), None),  # model unknown, growth above: unknown
    (None, D("0.05"), True),  # growth below decides whatever the model
    ("utility", None, None),
])
def test_a_card_rule_of_the_not_and_form(model, growth, want):
    e = compile_expression('not (model == "utility" and growth > 10%)', SYMS, expect="bool")
    env = {k: v for k, v in (("model", model), ("growth", growth)) if v is not None}
    assert e.fn(env) is want


def test_double_negation_and_not_or_in_a_rule():
    e = compile_expression('not (not flag or growth < 0)', SYMS, expect="bool")
    assert e.fn({"flag": True, "growth": D(1)}) is True
    assert e.fn({"flag": False, "growth": D(1)}) is False
    assert e.fn({"flag": True}) is None
    assert e.fn({"growth": D(-1)}) is False
