"""Constraint-aware metric draws (issue 18 item 1: "draws that respect them ... with the rejection rate
reported") and the (card, base) the s25cards sweep fixed making 1,000 items with no --ops."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.perturb import Job, build_frame, generate, parse_recipes
from ipb.perturb.feasible import EXACT_LIMIT, SAMPLES, feasible_intervals, redraw_if_broken
from ipb.perturb.frame import load_base
from ipb.perturb.operators import get_operator
from ipb.perturb.verify import verify_items
from perturb_support import SCENARIOS

REPURCHASE = "buffett_share_repurchase"
MARKS = "marks_market_cycle_positioning"


def _brute(ok, count):
    """The intervals where ``ok`` holds, by walking every index (the independent implementation)."""
    out, start = [], None
    for k in range(count):
        if ok(k) and start is None:
            start = k
        if not ok(k) and start is not None:
            out.append((start, k - 1))
            start = None
    if start is not None:
        out.append((start, count - 1))
    return out


@st.composite
def _interval_sets(draw, count):
    cuts = sorted(set(draw(st.lists(st.integers(0, count), max_size=8))))
    first = draw(st.booleans())
    return cuts, first


def _predicate(cuts, first):
    def ok(k):
        # the truth value flips at every cut: a union of intervals, the shape of and/or over comparisons
        return first ^ (sum(1 for c in cuts if c <= k) % 2 == 1)
    return ok


@settings(max_examples=200)
@given(st.integers(1, EXACT_LIMIT).flatmap(lambda n: st.tuples(st.just(n), _interval_sets(n))))
def test_small_grids_are_exact(case):
    count, (cuts, first) = case
    ok = _predicate(cuts, first)
    assert feasible_intervals(ok, count) == _brute(ok, count)


@settings(max_examples=100)
@given(st.integers(EXACT_LIMIT + 1, 50_000).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.integers(0, n), min_size=0, max_size=6))))
def test_long_grids_are_exact_when_stretches_are_wider_than_the_probe_spacing(case):
    count, raw = case
    spacing = count // (SAMPLES - 1) + 1
    cuts: list[int] = []
    for c in sorted(raw):  # keep the cuts more than two probe spacings apart
        if not cuts or c - cuts[-1] > 2 * spacing:
            cuts.append(c)
    ok = _predicate(cuts, False)
    assert feasible_intervals(ok, count) == _brute(ok, count)


def test_a_narrow_stretch_around_the_current_value_is_found_at_any_scale():
    # a price within five times a $60 value on Berkshire's $1-$700K grid: $12-$300, 289 of 700,000 values
    ok = lambda k: 11 <= k <= 299  # noqa: E731
    assert feasible_intervals(ok, 700_000) == []  # between two even probes: the documented blind spot
    for near in (11, 109, 299):
        assert feasible_intervals(ok, 700_000, near=near) == [(11, 299)]


def _berkshire_2012():
    frame = build_frame([REPURCHASE])
    base = load_base(SCENARIOS / REPURCHASE / "berkshire_2012_within_limit.yaml", frame)
    return frame, base


def test_a_broken_draw_is_redrawn_inside_berkshire_s_band_and_a_good_one_is_kept():
    frame, base = _berkshire_2012()
    facts = dict(base.facts)
    old = facts["price_per_share"]
    # $500,000 a share breaks the 2012 band ($110K-$140K, hand-read from the card): redrawn inside it
    for seed in range(20):
        rng = random.Random(seed)
        new = redraw_if_broken(frame, {**facts, "price_per_share": Decimal(500000)}, "price_per_share", rng, old)
        assert Decimal(110000) <= new <= Decimal(140000) and new != old
        assert not frame.violations({**facts, "price_per_share": new})
    # a draw that keeps every constraint is returned as it is, and no random number is used ($132,000: inside the
    # 2012 band and, since s36fix, inside 12 December 2012's own record, $126,900-$138,200 and book $132,000 / 1.16
    # = $113.8K within $108,300-$115,100; the $120,000 used before is 8% under that day's trading)
    rng = random.Random(3)
    state = rng.getstate()
    assert redraw_if_broken(frame, {**facts, "price_per_share": Decimal(132000)}, "price_per_share", rng,
                            old) == Decimal(132000)
    assert rng.getstate() == state


def test_an_input_the_same_step_draws_later_leaves_its_constraints_to_that_draw():
    frame, base = _berkshire_2012()
    facts = dict(base.facts)
    # intrinsic value $1,000,000 breaks value_within_scale_of_price and Berkshire's value within twice its price with
    # the base price; both read the price too, which the same step draws later: they are checked at the price's
    # draw, so the value is kept here. (The test used $1 until s36rules added berkshire_value_at_least_its_reported_book,
    # which reads the value and the date but not the price: $1 now breaks a rule of its own draw and is redrawn.)
    rng = random.Random(0)
    got = redraw_if_broken(frame, {**facts, "intrinsic_value_per_share": Decimal(1000000)}, "intrinsic_value_per_share",
                           rng, facts["intrinsic_value_per_share"], pending=("price_per_share",))
    assert got == Decimal(1000000)


def test_metric_draws_on_the_repurchase_card_are_rarely_rejected_now():
    """s24qual: 84% of metric draws broke a constraint on Berkshire 2012 (2,210 attempts for 332 items)."""
    base = SCENARIOS / REPURCHASE / "berkshire_2012_within_limit.yaml"
    result = generate(Job((REPURCHASE,), str(base), 0, parse_recipes("metric")), 300)
    (report,) = result.recipes
    assert report.items == 300
    assert report.rejection_rate < 0.05, report.to_dict()
    frame = build_frame([REPURCHASE])
    items = [json.loads(line) for line in result.lines]
    prices = {item["scenario"]["facts"].get("price_per_share") for item in items}
    assert len(prices) > 50  # s24qual: 16 distinct Berkshire prices in a 1,000-item run
    from ipb.engine.scenario import convert_fact
    for item in items:
        facts = {k: convert_fact(frame.inputs[k], v) for k, v in item["scenario"]["facts"].items()}
        assert not frame.violations(facts)


#: (card, base, metric rejection rate at seed 0 with plain draws before s28review, measured) for the cards that
#: derive an input: the draw now reaches the derived input's range and the constraints reading it.
DERIVED = [
    ("dalio_all_weather_portfolio_construction", "balanced_mix_implement.yaml", 0.329),
    ("dalio_debt_supercycle_navigation", "beautiful_deleveraging_re_risk.yaml", 0.538),
    ("greenblatt_magic_formula_screen", "decline_outside_top_group.yaml", 0.666),
]


@pytest.mark.parametrize("card,base,plain", DERIVED, ids=[d[0] for d in DERIVED])
def test_metric_draws_on_cards_that_derive_an_input_are_rarely_rejected(card, base, plain):
    """s25: these cards kept plain draws (33-92% rejected); now at most 10%, and every item keeps every rule."""
    result = generate(Job((card,), str(SCENARIOS / card / base), 0, parse_recipes("metric")), 200)
    (report,) = result.recipes
    assert report.items == 200
    assert report.rejection_rate < 0.10 < plain, report.to_dict()
    frame = build_frame([card])
    from ipb.engine.scenario import convert_fact
    for line in result.lines:
        item = json.loads(line)
        facts = {k: convert_fact(frame.inputs[k], v) for k, v in item["scenario"]["facts"].items()}
        assert not frame.violations(facts), item["id"]


def test_a_draw_that_moves_a_derived_input_out_of_range_is_redrawn_into_it():
    """Dalio's debt card derives the curve's slope (ten-year minus policy rate, declared range -3% to 5%): a
    ten-year yield of 15% with a 0.25% policy rate makes a slope of 14.75%, so it is redrawn to 5.25% or less
    (hand-worked: 0.25% + 5%), and the card's other rules hold; a draw inside the range is kept."""
    card = "dalio_debt_supercycle_navigation"
    frame = build_frame([card])
    base = load_base(SCENARIOS / card / "beautiful_deleveraging_re_risk.yaml", frame)
    facts = dict(base.facts)
    old = facts["long_bond_yield"]
    for seed in range(20):
        new = redraw_if_broken(frame, {**facts, "long_bond_yield": Decimal("0.15")}, "long_bond_yield",
                               random.Random(seed), old)
        assert new <= Decimal("0.0525") and new != old
        assert not frame.violations({**facts, "long_bond_yield": new})
    rng = random.Random(3)
    state = rng.getstate()
    assert redraw_if_broken(frame, {**facts, "long_bond_yield": Decimal("0.03")}, "long_bond_yield", rng,
                            old) == Decimal("0.03")
    assert rng.getstate() == state


def test_metric_with_given_values_is_never_redrawn():
    frame, base = _berkshire_2012()
    step = get_operator("metric")(frame, base, random.Random(1), values={"price_per_share": "$500000"})
    assert step.scenario.facts["price_per_share"] == Decimal(500000)  # the caller's value; the run rejects it
def test_marks_cold_2008_makes_1000_items_with_no_ops_and_they_verify(tmp_path):
    """The bar's run for the base that fell short (569 items at a 0.25% spread step; 1,000 at 0.1%)."""
    from ipb.engine.registry import compiled_card, find_card, write_card_copy
    from ipb.perturb.generation import write_items

    path = str(find_card(MARKS))
    out = tmp_path / "marks.jsonl"
    result = write_items(out, Job((path,), str(SCENARIOS / MARKS / "cold_aggressive_2008.yaml"), 0), 1000)
    write_card_copy(compiled_card(path).card, out)
    assert result.written == 1000 and result.shortfall is None
    report = verify_items(out)
    assert report.ok and report.total == 1000


def test_flip_reaches_the_marks_2008_base_through_anchors_redrawn_inside_the_rules():
    """s25 leftover: flip made 0 items from cold_aggressive_2008 (panicked, tight capital, an 18% spread). The
    spread is the flip's own input, kept out of an anchor's draw, and at 18% every anchor that moved investor
    psychology or capital off "panicked, tight" broke a rule (above 12% capital is tight; panic needs 8%). An
    anchor that breaks a rule now redraws its numbers inside the rules, the flip input last; every item keeps
    every rule and flips the verdict it states."""
    base = SCENARIOS / MARKS / "cold_aggressive_2008.yaml"
    result = generate(Job((MARKS,), str(base), 0, parse_recipes("flip")), 50, allow_short=True)
    (report,) = result.recipes
    assert report.items >= 20, report.to_dict()
    frame = build_frame([MARKS])
    from ipb.engine.scenario import convert_fact
    psychologies = set()
    for line in result.lines:
        item = json.loads(line)
        facts = {k: convert_fact(frame.inputs[k], v) for k, v in item["scenario"]["facts"].items()}
        assert not frame.violations(facts), item["id"]
        details = item["manifest"]["operators"][0]["details"]
        assert frame.outcomes(facts) == (item["investment_verdict"],)
        assert details["input"] == "high_yield_spread"
        psychologies.add(facts["investor_psychology"])
    assert len(psychologies) >= 3  # the anchors left the panicked corner


def test_the_hold_of_a_checks_tuple_is_the_plain_conjunction_and_made_once():
    """s37speed: ``_hold_for`` (plain loops, one function per frame and checks tuple) answers as
    ``all(check(env) is not False ...)``; an unknown check (None) does not refuse a value."""
    from ipb.perturb.feasible import _hold_for

    frame = build_frame(["buffett_acquisition_checklist"])
    checks = ((lambda env: env.get("a") is None or env["a"] > 1, frozenset({"a"})),
              (lambda env: None if "b" not in env else env["b"] < env.get("a", 0), frozenset({"a", "b"})))
    hold = _hold_for(frame, checks)
    assert _hold_for(frame, checks) is hold  # the same tuple: the same function
    assert _hold_for(frame, tuple(checks)) is hold  # tuple() of a tuple is the tuple itself
    assert _hold_for(frame, checks[:1]) is not hold
    cases = [({"a": 2, "b": 1}, True), ({"a": 2, "b": 3}, False), ({"a": 1}, False), ({}, True), ({"a": 5}, True)]
    for env, want in cases:
        assert hold(env) is want
        assert all(fn(env) is not False for fn, _ in checks) is want
