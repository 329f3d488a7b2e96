"""min/max in a comparison are decided by the known arguments when those suffice (Kleene any/all)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ipb.engine.expressions import NUMBER, RATIO, compile_expression

SYMBOLS = {"a": RATIO, "b": RATIO, "c": RATIO, "t": RATIO}
D = Decimal


@pytest.mark.parametrize(
    ("source", "env", "expected"),
    [
        ("max(a, b) > 35%", {"a": D("0.6")}, True),  # one share already above the band
        ("max(a, b) > 35%", {"a": D("0.2")}, None),  # b could still exceed it
        ("max(a, b) > 35%", {"a": D("0.2"), "b": D("0.1")}, False),
        ("max(a, b) < 35%", {"a": D("0.6")}, False),
        ("min(a, b) < 35%", {"b": D("0.1")}, True),
        ("min(a, b) >= 10%", {"a": D("0.05")}, False),
        ("35% < max(a, b)", {"b": D("0.6")}, True),  # aggregate on the right
        ("max(a, b) == 60%", {"a": D("0.6")}, None),  # equality needs every argument
    ],
)
def test_known_arguments_decide(source, env, expected):
    assert compile_expression(source, SYMBOLS)(env) is expected


values = st.one_of(st.none(), st.integers(-5, 5).map(Decimal))


@given(
    kind=st.sampled_from(["min", "max"]),
    op=st.sampled_from(["<", "<=", ">", ">="]),
    a=values,
    b=values,
    c=values,
    t=st.integers(-5, 5).map(Decimal),
    fill=st.lists(st.integers(-6, 6).map(Decimal), min_size=3, max_size=3),
)
def test_decided_means_decided_and_agrees_with_the_plain_value(kind, op, a, b, c, t, fill):
    expr = compile_expression(f"{kind}(a, b, c) {op} t", {k: NUMBER for k in "abct"})
    env = {k: v for k, v in zip("abc", (a, b, c)) if v is not None}
    env["t"] = t
    partial = expr(env)
    complete = {**{k: f for k, f in zip("abc", fill)}, **env}
    pick = min if kind == "min" else max
    plain = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}[op]
    truth = plain(pick(complete[k] for k in "abc"), t)
    assert expr(complete) is truth
    if partial is not None:
        assert partial is truth
