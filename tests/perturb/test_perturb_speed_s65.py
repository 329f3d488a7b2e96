"""s65speed (issue 18 item 7): the tied partners' feasible-set search answers its probes as the others do.

:func:`ipb.perturb.deck_moves._draw` (a partner of a ``tie: true`` rule or an L8 deck rule, drawn by ``metric``
and ``sector`` moves through :func:`~ipb.perturb.deck_moves.move_tied`) asked every constraint of the partner at
every probe of its search (``ok_with``: about 80 probes and a bisection per draw, 7.6% of the bench card's
generation time at 10,000 items). It now answers them through :func:`ipb.perturb.feasible._ok`, as
:func:`~ipb.perturb.feasible.redraw_if_broken` does: the monotone comparisons from their exact spans, the rest
from remembered rows. ``_ok(k)`` is "no check is False at index k", which is ``ok_with``'s answer, so the
intervals, the value drawn and the random numbers consumed are the same (checked here against the code it
replaced, copied verbatim; whole runs: test_perturb_bytes.py).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.perturb.deck_moves import _draw, _guesses
from ipb.perturb.feasible import _ok, constraint_checks, feasible_intervals
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.monotone import comparison_atoms
from perturb_support import BUFFETT, BUFFETT_BASE

_HELD: dict[str, Any] = {}


def _buffett():
    if "frame" not in _HELD:
        frame = build_frame([BUFFETT])
        _HELD["frame"] = (frame, load_base(str(BUFFETT_BASE), frame))
    return _HELD["frame"]


def _old_draw(frame, env, name, checks, rng, changes):
    """deck_moves._draw before s65speed, verbatim (the oracle)."""
    current = env.get(name)
    fns = [fn for fn, _ in checks]

    def ok_with(value):
        env[name] = value
        return all(fn(env) is not False for fn in fns)

    try:
        grid = frame.grids.get(name)
        if grid is not None:
            skip = grid.index_of(current) if isinstance(current, Decimal) else None
            intervals = feasible_intervals(lambda k: ok_with(grid.value(k)), grid.count,
                                           _guesses(grid, current, changes))
            picks = [(lo, hi) for lo, hi in intervals]
            total = sum(hi - lo + 1 for lo, hi in picks) - (
                1 if skip is not None and any(lo <= skip <= hi for lo, hi in picks) else 0)
            if total <= 0:
                return None
            k = rng.randrange(total)
            for lo, hi in picks:
                for index in range(lo, hi + 1):
                    if index == skip:
                        continue
                    if k == 0:
                        return grid.value(index)
                    k -= 1
            raise AssertionError("unreachable")
        spec = frame.inputs[name]
        values = (False, True) if spec.type == "bool" else tuple(spec.values or ())
        fitting = [v for v in values if v != current and ok_with(v)]
        return rng.choice(fitting) if fitting else None
    finally:
        env[name] = current


def _large_subscription(arr: str = "20000000000", margin: str = "0.70", income: str = "-1000000000"):
    frame, base = _buffett()
    env = {**base.facts, "business_model": "subscription_software", "arr": Decimal(arr),
           "gross_margin": Decimal(margin), "net_income": Decimal(income)}
    return frame, env


def test_net_income_intervals_hand_worked():
    # $20B of subscription revenue at a 70% gross margin: net income must be above $0 (the tie rule past $10B),
    # at most 45% of revenue ($9B) and 70% of it ($14B), at least -$20B. The grid is -$2B..$5B by $50M
    # (141 values, index 40 is $0), so every value from $50M (index 41) to $5B (index 140) and nothing else.
    frame, env = _large_subscription()
    grid = frame.grids["net_income"]
    assert (grid.count, grid.value(40), grid.value(41), grid.value(140)) == (141, 0, Decimal("5E+7"), Decimal("5E+9"))
    checks = constraint_checks(frame, "net_income")
    guesses = _guesses(grid, env["net_income"], {"arr": (Decimal("5000000000"), env["arr"])})
    assert feasible_intervals(_ok(frame, env, "net_income", grid, checks), grid.count, guesses) == [(41, 140)]
    # the draw: rng.randrange(100) (-$1B, index 20, is outside the interval: nothing skipped) read from index 41
    rng, twin = random.Random(65), random.Random(65)
    value = _draw(frame, dict(env), "net_income", checks, rng, {"arr": (Decimal("5000000000"), env["arr"])})
    assert value == grid.value(41 + twin.randrange(100)) and Decimal(0) < value <= Decimal("5E+9")
    assert rng.getstate() == twin.getstate()


def test_draw_asks_the_checks_at_few_probes():
    # Each card check is wrapped to count its calls (its comparisons registered as the original's, so the exact
    # spans read them). Before s65speed every probe asked the checks in turn: over 80 calls for this draw (65
    # sampled indices and the powers of two around each guess, then the bisection); the spans ask each check
    # once per stretch between its comparisons' changes.
    frame, env = _large_subscription()
    calls = [0]
    memo = frame.memo.setdefault("monotone_atoms", {})
    wrapped = []
    for fn, names in constraint_checks(frame, "net_income"):
        def counted(e, fn=fn):
            calls[0] += 1
            return fn(e)
        memo[(counted, "net_income")] = comparison_atoms(frame, fn, "net_income")
        wrapped.append((counted, names))
    value = _draw(frame, dict(env), "net_income", tuple(wrapped), random.Random(1),
                  {"arr": (Decimal("5000000000"), env["arr"])})
    assert value is not None and value > 0
    assert calls[0] <= 40, calls[0]  # 19 (11 checks, each asked once per stretch of its spans)
    calls[0] = 0
    old = _old_draw(frame, dict(env), "net_income", tuple(wrapped), random.Random(1),
                    {"arr": (Decimal("5000000000"), env["arr"])})
    assert old == value and calls[0] > 80  # the same value, the old way: every probe asked


@settings(max_examples=150, deadline=None)
@given(arr=st.integers(0, 400), margin=st.integers(0, 100), income=st.integers(0, 140),
       partner=st.sampled_from(["net_income", "arr", "gross_margin", "revenue_growth", "ev_to_arr"]),
       model=st.sampled_from(["subscription_software", "banking", "utility", "pre_revenue_technology"]),
       seed=st.integers(0, 2**32 - 1))
def test_draw_matches_the_old_draw(arr, margin, income, partner, model, seed):
    # the value drawn and the random numbers consumed are the old code's, from any facts on the grids
    frame, base = _buffett()
    env = dict(base.facts)
    env["business_model"] = model
    for name, k in (("arr", arr), ("gross_margin", margin), ("net_income", income)):
        grid = frame.grids[name]
        env[name] = grid.value(k * (grid.count - 1) // max(1, {"arr": 400, "gross_margin": 100,
                                                                  "net_income": 140}[name]))
    checks = constraint_checks(frame, partner)
    changes = {"arr": (base.facts.get("arr"), env["arr"])}
    new_rng, old_rng = random.Random(seed), random.Random(seed)
    new_env, old_env = dict(env), dict(env)
    assert _draw(frame, new_env, partner, checks, new_rng, changes) == _old_draw(
        frame, old_env, partner, checks, old_rng, changes)
    assert new_rng.getstate() == old_rng.getstate() and new_env == old_env == env
