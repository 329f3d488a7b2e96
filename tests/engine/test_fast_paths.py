"""The engine's fast paths against the plain rules they stand for, on every bundled and test card.

The executor specialises its closures to a gate's shape
(:func:`ipb.engine._deciders.decider`), writes the commonest comparison (a
name against a constant) with its operator inline
(:data:`ipb.engine._ops._NAME_CONST`), and remembers whole gold programs by
:func:`ipb.engine.execute.program_key` (:meth:`Trace.to_grp`). Each law here
compares one of them with a reference written in this file from the rule
itself (paper §7.3 for the verdicts, §6.3 / Appendix E for the GRP), on
scenarios drawn with ``test_columnar``'s strategies (unknown facts, grid
values, range edges) and one-fact variants of them, which make equal keys
frequent.
"""

from __future__ import annotations

import operator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine import _ops
from ipb.engine.execute import ENTRY_MEMO_LIMIT, _plan, _used_values, execute, program_key
from ipb.engine.expressions import RATIO, category, compile_expression
from ipb.engine.logic import Verdict
from ipb.engine.registry import compiled_card

from tests.engine.test_columnar import CARDS, compiled, scenarios
from tests.engine.test_grp_view import _variants

PROCEED, REJECT, INCONCLUSIVE = Verdict.PROCEED, Verdict.REJECT, Verdict.INCONCLUSIVE


def _reference_verdict(gate: Any, used: frozenset[str], env: dict[str, Any]) -> Verdict:
    """A gate's verdict by the rule, written plainly: compute every value in order (into ``env``); a REJECT
    criterion that holds rejects; a gate PROCEEDs only on its criteria and with every value a later gate needs
    known; a failed PROCEED criterion of a gate with no REJECT criterion rejects; anything else is
    INCONCLUSIVE."""
    known = True
    for name, expr in gate.compute.items():
        env[name] = expr.fn(env)
        if env[name] is None and name in used:
            known = False
    r = gate.reject.fn(env) if gate.reject is not None else None
    p = gate.proceed.fn(env) if gate.proceed is not None else None
    if gate.reject is not None and r is True:
        return REJECT
    if gate.reject is not None and gate.proceed is not None:
        return PROCEED if (r is False and p is True and known) else INCONCLUSIVE
    if gate.reject is not None:
        return PROCEED if (r is False and known) else INCONCLUSIVE
    if gate.proceed is not None:
        if p is True:
            return PROCEED if known else INCONCLUSIVE
        return REJECT if p is False else INCONCLUSIVE
    return PROCEED if known else INCONCLUSIVE


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_gate_decider_gives_the_rules_verdict_and_values(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    rows = rows + _variants(card.card, data, rows)
    plan = _plan(card)
    used = _used_values(card.card)
    for facts in rows:
        fast_env = {**plan.base_env, **facts}
        slow_env = dict(fast_env)
        # every gate in card order on one environment (later gates read what earlier ones computed)
        for gate, decide in zip(card.card.gates, plan.deciders):
            if gate.is_classifier:
                continue
            assert decide(fast_env) is _reference_verdict(gate, used, slow_env), (gate.id, facts)
            assert fast_env == slow_env


_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
        "!=": operator.ne}
_NUMBERS = st.one_of(
    st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-1000, max_value=1000),
    st.fractions(min_value=-1000, max_value=1000, max_denominator=50),
    st.integers(-5, 5).map(Decimal),
)


@settings(max_examples=300, deadline=None)
@given(op=st.sampled_from(sorted(_OPS)), a=st.one_of(st.none(), _NUMBERS), b=_NUMBERS, present=st.booleans())
def test_inline_name_comparisons_equal_the_operator(op: str, a: Any, b: Any, present: bool) -> None:
    fn = _ops._NAME_CONST[op]("x", b)
    env = {"x": a} if present else {}
    expected = None if env.get("x") is None else _OPS[op](a, b)
    assert fn(env) is expected


@pytest.mark.parametrize("op", sorted(_OPS))
def test_compiled_name_comparisons_take_the_inline_closure_and_keep_their_answers(op: str) -> None:
    expr = compile_expression(f"x {op} 10%", {"x": RATIO})
    assert expr.fn.__name__ == _ops._NAME_CONST[op]("x", Decimal(0)).__name__  # the inline closure is used
    for value in (Decimal("0.05"), Decimal("0.1"), Decimal("0.10"), Decimal("0.2"), Fraction(1, 3), Fraction(1, 10)):
        assert expr({"x": value}) is _OPS[op](value, Decimal("0.1")), value
    assert expr({"x": None}) is None and expr({}) is None


@pytest.mark.parametrize(("source", "value", "truth"), [
    ('c == "a"', "a", True), ('c == "a"', "b", False), ('c != "a"', "a", False), ('c != "a"', "b", True),
    ('c == "a"', None, None),
])
def test_category_comparisons_through_the_inline_closures(source: str, value: Any, truth: Any) -> None:
    expr = compile_expression(source, {"c": category(("a", "b"))})
    assert expr({"c": value}) is truth


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_remembered_program_is_the_one_a_fresh_render_gives(path: Path, data: st.DataObject) -> None:
    card = compiled(path)
    rows = data.draw(scenarios(card.card), label="scenarios")
    rows = rows + _variants(card.card, data, rows) + rows[:2]
    sid = data.draw(st.sampled_from([None, "IPB-X-1"]), label="scenario id")
    layer = data.draw(st.sampled_from([None, "L7", "L8"]), label="layer")
    plan = _plan(card)
    by_key: dict[Any, list[dict[str, Any]]] = {}
    for facts in rows:
        warm = execute(card, facts, scenario_id=sid, layer=layer)
        got = warm.to_grp()
        plan.entries.clear()
        plan.programs.clear()
        fresh = execute(card, facts, scenario_id=sid, layer=layer).to_grp()
        assert got == fresh
        # soundness of the key: one key, one program (whatever the scenario)
        key = program_key(warm._run, warm.env, plan.names)
        assert by_key.setdefault(key, fresh["gold_program"]) == fresh["gold_program"]


def test_the_program_memo_hands_out_copies_and_stays_bounded() -> None:
    card = compiled_card("buffett_acquisition_checklist")
    plan = _plan(card)
    plan.programs.clear()
    facts = {"arr": Decimal("5E9"), "ev_to_arr": Decimal("10"), "net_income": Decimal("1E9")}
    first = execute(card, facts).to_grp()
    assert len(plan.programs) == 1
    first["gold_program"][4]["required_elements"].append("edited")
    first["gold_program"][4]["verdict"] = "edited"
    again = execute(card, dict(facts)).to_grp()
    assert len(plan.programs) == 1  # a hit
    assert again["gold_program"][4]["verdict"] != "edited"
    assert "edited" not in again["gold_program"][4]["required_elements"]
    # the same number written otherwise is the same text, so the same program; another value is another one
    assert execute(card, {**facts, "ev_to_arr": Decimal("10.00")}).to_grp() == again
    assert len(plan.programs) == 1
    execute(card, {**facts, "ev_to_arr": Decimal("11")}).to_grp()
    assert len(plan.programs) == 2
    for k in range(ENTRY_MEMO_LIMIT + 5):
        execute(card, {**facts, "price": Decimal(10**9 + k)}).to_grp()
        assert len(plan.programs) <= ENTRY_MEMO_LIMIT


def test_an_unhashable_shown_value_fails_as_before() -> None:
    """A shown value that cannot be hashed (not an engine value) gives the per-entry memo's TypeError."""
    card = compiled_card("buffett_acquisition_checklist")
    trace = execute(card, {"arr": Decimal("5E9"), "ev_to_arr": Decimal("10"), "net_income": Decimal("1E9")})
    trace.env["price"] = [1]  # a list where the GRP shows a number
    with pytest.raises(TypeError):
        trace.to_grp()
