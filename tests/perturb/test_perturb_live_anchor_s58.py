"""Flip anchors drawn among live moves (issue 18 item 7, s58speedgen2): from a screened base,
``ipb.perturb.targeted._anchor`` no longer draws anchors only for the dead-move screen to drop them; it drops
a draw at the chance the screen would, and draws a kept one's inputs by weight (``_live_sets``) and each value
among the live ones (``_Screen.live``). These tests pin the weights by hand and against the unscreened draw.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from types import SimpleNamespace

import pytest

from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import metric_inputs
import ipb.perturb.targeted as targeted
from perturb_support import BUFFETT, BUFFETT_BASE


class _Grid:
    """Values 0, 1, ..., count - 1 (the part of a frame's grid ``_draw_way`` reads)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def index_of(self, value: Decimal) -> int:
        return int(value)

    def value(self, k: int) -> Decimal:
        return Decimal(k)


def test_live_set_weights_hand_worked():
    # numeric a and b undisclosed (4 values each: 0..3), a bool c now False (one other value, True)
    frame = SimpleNamespace(memo={}, grids={"a": _Grid(4), "b": _Grid(4)},
                            inputs={"c": SimpleNamespace(type="bool", values=None)})
    live_values = {"a": {Decimal(0), Decimal(1)}, "b": {Decimal(3)}, "c": {True}}
    screen = targeted._Screen(lambda n, v: v not in live_values[n], frame, {})
    sets, cum, live = targeted._live_sets(frame, (), screen, False, (("a", "b", "c"), ("a", "b")),
                                          {"c": False}, {"a": 0, "b": 1, "c": 2})
    assert live == {"a": (Decimal(0), Decimal(1)), "b": (Decimal(3),), "c": (True,)}
    weights = dict(zip(sets, [hi - lo for lo, hi in zip([0.0, *cum], cum)]))
    # a first (1/2, live 2/4): 1 other (1/2, b or c: 1/2) or both (1/2); b first (1/2, live 1/4) likewise
    # {a,b}: 1/2*1/2*1/2 * 2/4*1/4 twice = 1/32; {a,c}: 1/8 * 2/4 = 1/16; {b,c}: 1/8 * 1/4 = 1/32;
    # {a,b,c}: 1/2*1/2 * 2/4*1/4 twice = 1/16; the rest of 1 (13/16) is screened
    assert weights == pytest.approx({("a", "b"): 1 / 32, ("a", "c"): 1 / 16, ("b", "c"): 1 / 32,
                                     ("a", "b", "c"): 1 / 16})
    assert cum[-1] == pytest.approx(3 / 16)


def test_wide_second_number_has_live_draws_tries():
    # wide: a sample of bool or category inputs only keeps one and adds a second number, tried LIVE_DRAWS times
    frame = SimpleNamespace(memo={}, grids={"a": _Grid(4), "b": _Grid(4)},
                            inputs={"c": SimpleNamespace(type="bool", values=None)})
    live_values = {"a": {Decimal(0), Decimal(1)}, "b": {Decimal(3)}, "c": {True}}
    screen = targeted._Screen(lambda n, v: v not in live_values[n], frame, {})
    sets, cum, _ = targeted._live_sets(frame, ("b",), screen, True, (("a", "c"), ("a",)),
                                       {"c": False}, {"a": 0, "b": 1, "c": 2})
    # keep b: a always first, c its one other input; no second number left (b is kept): {a, c} at 2/4
    assert sets == [("a", "c")] and cum == pytest.approx([0.5])
    sets, cum, _ = targeted._live_sets(frame, (), screen, True, (("a", "b", "c"), ("a", "b")),
                                       {"c": False}, {"a": 0, "b": 1, "c": 2})
    weights = dict(zip(sets, [hi - lo for lo, hi in zip([0.0, *cum], cum)]))
    b_tries = 1 - (3 / 4) ** targeted.LIVE_DRAWS  # b drawn as the second number until live
    a_tries = 1 - (2 / 4) ** targeted.LIVE_DRAWS
    # a first, c drawn alone (1/2 * 1/2 * 1/2): becomes {a, c, b}; b first likewise: {b, c, a}
    expected_abc = 1 / 8 * (2 / 4) * b_tries + 1 / 8 * (1 / 4) * a_tries + 1 / 16
    assert weights == pytest.approx({("a", "b"): 1 / 32, ("a", "b", "c"): expected_abc})


@pytest.fixture(scope="module")
def bench():
    frame = build_frame([BUFFETT])
    base = load_base(BUFFETT_BASE, frame)
    names = sorted(n for n in metric_inputs(frame) if isinstance(base.facts.get(n), Decimal))
    return frame, base, names


def test_live_values_are_those_the_screen_keeps(bench):
    # test_perturb_anchor_screen: a multiple above 6.375x is dead (no growth in range justifies it) and no other is
    frame, base, names = bench
    screen = targeted._dead_move(frame, base.facts, names)
    grid = frame.grids["ev_to_arr"]
    current = base.facts["ev_to_arr"]
    expected = tuple(grid.value(k) for k in range(grid.count)
                     if grid.value(k) <= Decimal("6.375") and grid.value(k) != current)
    assert screen.live("ev_to_arr", current) == expected
    assert Decimal(6) in expected and Decimal("6.5") not in expected


def test_weights_are_the_law_of_the_unscreened_draw(bench, monkeypatch):
    """The unscreened draw (``_anchor`` with a plain screen function, the code before) dropped as the screen
    says, counted: its rate of kept anchors and the sets they move match ``_live_sets`` (constraints off, so
    one draw is one anchor)."""
    frame, base, names = bench
    screen = targeted._dead_move(frame, base.facts, names)
    monkeypatch.setattr(frame, "breaks_constraint", lambda *args: False)
    monkeypatch.setattr(targeted, "_off_era", lambda *args: False)
    keep = ("revenue_growth",)
    plain = lambda n, v: screen(n, v)  # noqa: E731  (not a _Screen: the old draw-then-screen path)
    rng = random.Random(5)
    draws = 6000
    made = Counter()
    for _ in range(draws):
        moved, changed = targeted._anchor(frame, base, rng, keep, plain)
        if moved is not None:
            made[tuple(changed)] += 1
    pool, numeric = targeted._anchor_pool(frame, keep)
    sets, cum, _ = targeted._live_sets(frame, keep, screen, False, (pool, numeric), base.facts,
                                       frame.memo["input_position"])
    kept = sum(made.values())
    w = cum[-1]
    assert abs(kept / draws - w) < 4 * (w * (1 - w) / draws) ** 0.5
    weights = dict(zip(sets, [(hi - lo) / w for lo, hi in zip([0.0, *cum], cum)]))
    assert set(made) <= set(weights)
    for s, p in weights.items():
        if p > 0.05:
            assert abs(made[s] / kept - p) < 4 * (p * (1 - p) / kept) ** 0.5, s
    # the new path: the same rate of kept anchors, every move of each live
    rng = random.Random(6)
    new = [targeted._anchor(frame, base, rng, keep, screen) for _ in range(draws)]
    got = [m for m in new if m[0] is not None]
    assert abs(len(got) / draws - w) < 4 * (w * (1 - w) / draws) ** 0.5
    assert all(not screen(n, m[n]) for m, changed in got for n in changed)
