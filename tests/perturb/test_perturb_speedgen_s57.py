"""The helpers s57speedgen added to make the flip's generation cheaper, each against hand-worked values or the
computation it replaced (the byte pins of test_perturb_bytes.py check that the items are unchanged)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ipb.perturb import deck_moves, feasible, flip_search
from ipb.perturb.frame import build_frame, held_by_reject_of, load_base
from ipb.perturb.multiples import MultipleBound, ratio_anachronisms, ratio_outside
from perturb_support import BUFFETT, BUFFETT_BASE


@pytest.fixture(scope="module")
def bench():
    frame = build_frame([BUFFETT])
    return frame, load_base(BUFFETT_BASE, frame)


GROWTH_FLOOR = MultipleBound("g", "price / growth", (), (), ((2024, Decimal(15)),), ("ev", "growth"),
                             (("model", ("saas",)),))


@pytest.mark.parametrize("facts, year, expected", [
    ({"model": "saas", "ev": Decimal(3), "growth": Decimal("0.25")}, 2024, True),     # 3 / 0.25 = 12x < 15x
    ({"model": "saas", "ev": Decimal("4.5"), "growth": Decimal("0.25")}, 2024, False),  # 18x
    ({"model": "saas", "ev": Decimal("3.75"), "growth": Decimal("0.25")}, 2024, False),  # 15x: on the floor
    ({"model": "bank", "ev": Decimal(3), "growth": Decimal("0.25")}, 2024, False),    # the condition is not met
    ({"model": "saas", "ev": Decimal(3), "growth": Decimal(0)}, 2024, False),         # no quotient of no growth
    ({"model": "saas", "growth": Decimal("0.25")}, 2024, False),                      # the price is not stated
    ({"model": "saas", "ev": Decimal(3), "growth": Decimal("0.25")}, 2023, False),    # no floor before 2024
])
def test_ratio_outside_is_whether_a_quotient_breaks_its_era(facts, year, expected):
    assert ratio_outside((GROWTH_FLOOR,), facts, year) is expected
    assert ratio_outside((GROWTH_FLOOR,), facts, year) is bool(ratio_anachronisms((GROWTH_FLOOR,), facts, year))


def test_tied_reading_lists_the_tie_rules_of_an_input(bench):
    frame, _ = bench
    # the card's one ``tie: true`` rule reads business_model, arr and net_income
    assert [k.id for k in deck_moves._tied_reading(frame, "arr")] == ["a_large_subscription_business_earns_a_profit"]
    assert [k.id for k in deck_moves._tied_reading(frame, "net_income")] == [
        "a_large_subscription_business_earns_a_profit"]
    assert deck_moves._tied_reading(frame, "gross_margin") == ()


@pytest.mark.parametrize("income, expected", [
    ("1000000000", True),    # $1B on $5B of revenue: a 20% margin
    ("2250000000", True),    # 45% exactly
    ("3000000000", False),   # 60%: above net_margin_plausible's 45%
    ("-6000000000", False),  # a loss larger than the revenue
])
def test_holds_for_answers_as_the_constraints_reading_the_input(bench, income, expected):
    frame, base = bench
    facts = {**base.facts, "net_income": Decimal(income)}
    assert deck_moves._holds_for(frame, "net_income")(facts) is expected
    checks = deck_moves.constraint_checks(frame, "net_income")
    assert expected is not any(fn(facts) is False for fn, _ in checks)


def test_follow_moves_the_income_with_revenue_past_ten_billion(bench):
    frame, base = bench
    five = base.facts["arr"]
    assert deck_moves.follow(frame, base.facts, "arr", Decimal("6000000000"), five) == {}
    partners = deck_moves.follow(frame, base.facts, "arr", Decimal("12000000000"), five)
    assert list(partners) == ["net_income"] and partners["net_income"] > 0  # the tie: $12B earns a profit


def _old_tied_flip(frame, facts, name):
    """The tied flip as it was before s57speedgen: every probed value executed through outcomes_many."""
    grid, base = frame.grids[name], facts[name]
    before = frame.outcomes(facts)

    def line(values):
        out = [before] * len(values)
        scenarios, where = [], []
        for i, v in enumerate(values):
            partners = deck_moves.follow(frame, facts, name, v, base)
            if partners is not None:
                scenarios.append({**facts, name: v, **partners})
                where.append(i)
        for i, outcome in zip(where, frame.outcomes_many(scenarios) if scenarios else ()):
            out[i] = outcome
        return out

    best = flip_search._nearest(frame, facts, name, grid, base, None, tuple(before), 0, line)
    if best is None:
        return None
    partners = deck_moves.follow(frame, facts, name, best.boundary, base) or {}
    return (best.input, best.boundary, best.short, best.line, best.after, tuple(partners.items()))


def _facts(base, changes):
    return {**base.facts, **{k: Decimal(v) if v[0] in "-0123456789" else v for k, v in changes.items()}}


@pytest.mark.parametrize("changes, name, boundary, tied", [
    # credit crisis at 2x: a profit lifts holding_period's reject; past $10B of revenue the income follows the tie
    ({"macro_regime": "credit_crisis", "ev_to_arr": "2"}, "arr", "11000000000", (("net_income", "4950000000"),)),
    ({"macro_regime": "credit_crisis", "ev_to_arr": "2"}, "net_income", "50000000", ()),
    ({"macro_regime": "credit_crisis", "ev_to_arr": "2", "arr": "12000000000", "net_income": "100000000"},
     "net_income", "-50000000", (("arr", "200000000"),)),
    ({"macro_regime": "credit_crisis", "ev_to_arr": "1.5", "arr": "8000000000"}, "arr", "10100000000",
     (("net_income", "2050000000"),)),
    ({"macro_regime": "credit_crisis", "ev_to_arr": "2", "arr": "12000000000", "net_income": "100000000"},
     "arr", None, ()),
    ({}, "arr", None, ()),       # the base: price and value both scale with the revenue, and no crisis
    ({}, "net_income", None, ()),
])
def test_tied_flip_sweeps_as_the_old_search_executed(bench, changes, name, boundary, tied):
    frame, base = bench
    facts = _facts(base, changes)
    found = flip_search._find_tied_flip(frame, facts, name, frame.grids[name], facts[name], None,
                                        frame.outcomes(facts), 0)
    old = _old_tied_flip(frame, facts, name)
    if boundary is None:
        assert found is None and old is None
        return
    assert found.boundary == Decimal(boundary) and found.tied == tuple((n, Decimal(v)) for n, v in tied)
    assert (found.input, found.boundary, found.short, found.line, found.after, found.tied) == old


def test_tied_names_are_the_input_and_its_tie_partners(bench):
    frame, _ = bench
    assert flip_search._tied_names(frame, "arr") == ("arr", "business_model", "net_income")
    assert flip_search._tied_names(frame, "net_income") == ("net_income", "business_model", "arr")


@pytest.mark.parametrize("changes, held", [
    ({"management_record": "self_serving"}, True),   # management_integrity rejects, reading none of the three
    ({}, False),                                      # margin_of_safety rejects, and its price reads the revenue
    ({"macro_regime": "credit_crisis", "ev_to_arr": "2"}, False),  # holding_period rejects on the income
])
def test_held_by_reject_of_tied_inputs(bench, changes, held):
    frame, base = bench
    facts = _facts(base, changes)
    names = flip_search._tied_names(frame, "arr")
    assert held_by_reject_of(frame, facts, names) is held
    assert held_by_reject_of(frame, facts, ("arr",)) is frame.held_by_reject(facts, "arr")
    if held:  # independently: no revenue on the grid, with the income that follows it, moves the verdict
        before = frame.outcomes(facts)
        grid = frame.grids["arr"]
        for k in range(0, grid.count, 7):
            partners = deck_moves.follow(frame, facts, "arr", grid.value(k), facts["arr"])
            if partners is not None:
                assert frame.outcomes({**facts, "arr": grid.value(k), **partners}) == before


def _direct(frame, facts, name):
    """The feasible grid indices of ``name`` by asking every constraint reading it at every value."""
    grid, checks = frame.grids[name], feasible.constraint_checks(frame, name)
    return [k for k in range(grid.count)
            if not any(fn({**facts, name: grid.value(k)}) is False for fn, _ in checks)]


@pytest.mark.parametrize("growth, top", [("0.25", "1.25"), ("0.10", "1.10")])
def test_probe_rows_give_the_feasible_set_of_the_checks(bench, growth, top):
    frame, base = bench
    facts = {**base.facts, "revenue_growth": Decimal(growth)}
    name, grid = "revenue_retention", frame.grids["revenue_retention"]
    checks = feasible.constraint_checks(frame, name)
    frame.memo.pop("probe_rows", None)
    ok = feasible._probe(frame, facts, name, grid, checks)
    found = feasible.feasible_intervals(ok, grid.count)
    # growth_includes_what_existing_customers_add: retention at most 1 + growth (hand-worked top of the set)
    assert grid.value(found[-1][1]) == Decimal(top)
    assert [k for lo, hi in found for k in range(lo, hi + 1)] == _direct(frame, facts, name)
    rows = frame.memo["probe_rows"]
    made = len(rows)
    assert made == len(checks)  # one row a check, each keyed by the other values it reads
    again = feasible._probe(frame, dict(facts), name, grid, checks)
    assert len(rows) == made and [again(k) for k in range(grid.count)] == [ok(k) for k in range(grid.count)]
    # a moved fact that a check reads gives that check a new row (the growth: the rules that read it)
    feasible._probe(frame, {**facts, "revenue_growth": Decimal("0.3")}, name, grid, checks)
    reading = sum(1 for _, names in checks if "revenue_growth" in names)
    assert reading > 0 and len(rows) == made + reading
