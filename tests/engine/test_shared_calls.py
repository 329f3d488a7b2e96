"""A call written several times in one expression is computed once per evaluation (ipb.engine._shared, s34slow)."""

from __future__ import annotations

import threading
from decimal import Decimal as D
from fractions import Fraction

from ipb.engine.expressions import MONEY, NUMBER, compile_expression
from tests.engine.reads_support import CountingReads


SYMBOLS = {"a": NUMBER, "b": NUMBER}


def test_a_repeated_call_reads_its_inputs_once_and_gives_the_same_value():
    # max(a, 0) written three ways (spacing differs), min(a, 0) once: a read twice, not four times
    e = compile_expression("max(a, 0) + max(a,0) * 2 - max( a , 0 ) + min(a, 0)", SYMBOLS)
    for a, want in ((D(3), D(6)), (D(-2), D(-2)), (D("0.5"), D(1))):
        env = CountingReads(a=a)
        assert e(env) == want
        assert env.reads == {"a": 2}
    assert e(CountingReads()) is None  # unknown stays unknown


def test_each_evaluation_recomputes_its_calls():
    """The same dict, changed between evaluations (as a feasible-set probe does), never sees an old value."""
    e = compile_expression("max(a, b) * max(a, b)", SYMBOLS)
    env = {"a": D(1), "b": D(2)}
    assert e(env) == 4
    env["a"] = D(5)
    assert e(env) == 25
    del env["b"]
    assert e(env) is None


def test_an_exact_fraction_is_shared_unchanged():
    e = compile_expression("max(a / 3, b) + max(a / 3, b)", SYMBOLS)
    assert e.fn({"a": D(1), "b": D(0)}) == Fraction(2, 3)


def test_a_comparison_on_a_repeated_min_max_is_decided_as_before():
    """A comparison reads a min/max's arguments on its own (Node.aggregate: ``max(a, b) < 10`` is false once
    a >= 10, b unknown): the shared calls answer as the same expression with no call repeated."""
    e = compile_expression("max(a, b) > 3 and max(a, b) < 10", SYMBOLS)
    plain = compile_expression("max(a, b) > 3 and max(a, b + 0) < 10", SYMBOLS)
    assert e({"a": D(10)}) is False and e({"a": D(4)}) is None
    for a in range(-1, 12):
        for b in (None, D(0), D(4), D(11)):
            env = {"a": D(a)} if b is None else {"a": D(a), "b": b}
            assert e(env) == plain(env), (a, b)


def test_threads_evaluating_one_expression_keep_their_own_values():
    e = compile_expression("max(a, $0) * 2 + max(a, $0)", {"a": MONEY})
    wrong: list[int] = []

    def work(k: int) -> None:
        for _ in range(300):
            if e({"a": D(k)}) != 3 * k:
                wrong.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
