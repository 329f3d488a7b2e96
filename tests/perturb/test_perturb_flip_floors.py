"""Flips and draws that respect era floors (issue 18 bar line 7, s42anchor).

Hand-worked on the bench card (Buffett checklist, base IPB-P-011, dated 30 June 2024: 10x revenue, 25%
growth, $5B of revenue, 90% gross margin, subscription software). Gate 5 clears when
``ev_to_arr <= 1.875 + 7.5 * growth`` (test_perturb_anchor_screen), so at 25% growth the flip to INVEST is at
3.5x (the grid's 0.5 step at or under 3.75x). regimes.yaml's price of subscription-software growth from 2024
asks at least 20x revenue per unit of growth at $2B of revenue or more (60% gross margin, 15% growth or
more): at 25% growth at least 5x. So no flip along the multiple from the base is a fact of mid-2024; at 14%
growth the bound does not hold and the flip (2.5x, under 1.875 + 7.5 * 0.14 = 2.925x) is kept.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from ipb.perturb.feasible import era_checks, redraw_if_broken
from ipb.perturb.frame import build_frame, load_base
from ipb.perturb.operators import get_operator  # noqa: F401  (operators before targeted: they import each other)
import ipb.perturb.targeted as targeted
from perturb_support import BUFFETT, BUFFETT_BASE


@pytest.fixture(scope="module")
def bench():
    frame = build_frame([BUFFETT])
    return frame, load_base(BUFFETT_BASE, frame)


def test_a_flip_below_the_price_of_growth_floor_is_not_kept(bench):
    frame, base = bench
    flip = targeted.find_flip(frame, base.facts, "ev_to_arr")
    assert (flip.boundary, flip.direction, flip.after) == (Decimal("3.5"), "down", ("INVEST",))
    keep = targeted._kept_flip(frame, base, base.facts, (), random.Random(0), [])
    assert keep(flip) is False  # 3.5x at 25% growth: 14x a unit of growth, under 20x


def test_a_flip_where_the_floor_does_not_hold_is_kept(bench):
    frame, base = bench
    slower = {**base.facts, "revenue_growth": Decimal("0.14")}
    flip = targeted.find_flip(frame, slower, "ev_to_arr")
    assert flip.boundary == Decimal("2.5")
    keep = targeted._kept_flip(frame, base, slower, ("revenue_growth",), random.Random(0), [])
    assert keep(flip) is True
    at_base = targeted._kept_flip(frame, base, base.facts, (), random.Random(0), [])
    assert at_base(flip) is False  # the same boundary at the base's 25% growth: 10x a unit of growth


def test_the_metric_draw_is_made_inside_the_floor_on_the_scenarios_date(bench):
    frame, base = bench
    # the 15x and the large 20x bounds, and s42buff's 25x per unit of net revenue retention (June to August 2024)
    assert len(era_checks(frame, "ev_to_arr", base.as_of)) == 3
    assert era_checks(frame, "ev_to_arr", 2023) == ()  # before 2024 no row bounds the quotient
    broken = {**base.facts, "ev_to_arr": Decimal(4)}  # 16x a unit of growth: under 20x
    drawn = {redraw_if_broken(frame, broken, "ev_to_arr", random.Random(s), Decimal(10), day=base.as_of)
             for s in range(200)}
    assert min(drawn) == Decimal(5) and Decimal(10) not in drawn  # 20 x 0.25; the old value is never drawn
    # without the date the card's own rules alone are read: 4x keeps them and is kept
    assert redraw_if_broken(frame, broken, "ev_to_arr", random.Random(0), Decimal(10)) == Decimal(4)
