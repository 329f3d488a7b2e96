"""Feasible sets from the constraints' monotone comparisons (perturb/monotone.py, s62speed, issue 18 item 7).

A feasible-set search of ``redraw_if_broken`` used to ask every constraint at ~70 grid values; the constraints
whose comparisons are monotone in the input are now answered from an exact set worked out by bisection on each
comparison. The answers must be those of asking every constraint at every grid value (the items stay
byte-identical: tests/perturb/test_perturb_bytes.py), and the search must ask the grid far fewer times.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipb.engine.expressions import parse_expression
from ipb.perturb import build_frame
from ipb.perturb.feasible import _ok, _probe, constraint_checks, feasible_intervals
from ipb.perturb.monotone import _atom_sources, _spans, check_spans, comparison_atoms, exact_spans, inside

BUFFETT = "buffett_acquisition_checklist"
MARKS = "marks_market_cycle_positioning"
FRAMES = {card: build_frame([card]) for card in (BUFFETT, MARKS)}


def _rule(frame, rule_id):
    return next(k for c in frame.cards for k in c.card.constraints if k.id == rule_id)


def _brute(frame, facts, name, checks):
    """Every grid index where no check is False, by asking every check at every value (the plain path)."""
    grid = frame.grids[name]
    env = dict(facts)
    out = []
    for k in range(grid.count):
        env[name] = grid.value(k)
        out.append(all(fn(env) is not False for fn, _ in checks))
    return out


def _indices(spans):
    return [k for lo, hi in spans for k in range(lo, hi + 1)]


@st.composite
def _scenario(draw, card):
    """A card, one of its grid inputs and facts drawn for every input (grid values, category values, or unknown)."""
    frame = FRAMES[card]
    facts = {}
    for spec_card in frame.cards:
        for n, spec in spec_card.card.inputs.items():
            if draw(st.integers(0, 9)) == 0:
                continue  # unknown
            if n in frame.grids:
                g = frame.grids[n]
                facts[n] = g.value(draw(st.integers(0, g.count - 1)))
            elif getattr(spec, "values", None):
                facts[n] = draw(st.sampled_from(sorted(spec.values)))
    name = draw(st.sampled_from(sorted(frame.grids)))
    return frame, facts, name


# -- hand-worked


def test_net_income_span_hand_worked():
    """net_income's grid is -$2B + $50M * k (k = 0..140). With ARR $1B and a 40% gross margin:
    net_margin_plausible (-ARR <= net income <= 45% of ARR) holds for -$1B..$450M, k = 20..49;
    net_income_within_gross_profit (net income <= ARR * gross margin = $400M) for k <= 48; both: k = 20..48."""
    frame = FRAMES[BUFFETT]
    grid = frame.grids["net_income"]
    assert (grid.lo, grid.step, grid.count) == (Decimal("-2000000000"), Decimal("50000000"), 141)
    facts = {"arr": Decimal("1000000000"), "gross_margin": Decimal("0.40"), "net_income": Decimal("0")}
    margin, profit = _rule(frame, "net_margin_plausible"), _rule(frame, "net_income_within_gross_profit")
    atoms, others = comparison_atoms(frame, margin.expr.fn, "net_income")
    assert len(atoms) == 2 and others == ("arr",)
    assert _spans(facts, "net_income", grid, margin.expr.fn, atoms) == [(20, 49)]
    checks = ((margin.expr.fn, margin.expr.names), (profit.expr.fn, profit.expr.names))
    assert exact_spans(frame, facts, "net_income", grid, checks) == ([(20, 48)], ())
    # an unknown ARR leaves both rules unknown at every value: the whole grid
    assert exact_spans(frame, {"gross_margin": Decimal("0.40")}, "net_income", grid, checks) == ([(0, 140)], ())


def test_arr_span_hand_worked():
    """arr's grid is $100M * (k + 1) (k = 0..499). With net income $900M: net_margin_plausible needs
    $900M <= 45% of ARR, ARR >= $2B, k >= 19 (the loss side, $900M >= -ARR, always holds)."""
    frame = FRAMES[BUFFETT]
    grid = frame.grids["arr"]
    margin = _rule(frame, "net_margin_plausible")
    atoms, _ = comparison_atoms(frame, margin.expr.fn, "arr")
    assert _spans({"net_income": Decimal("900000000")}, "arr", grid, margin.expr.fn, atoms) == [(19, 499)]


@pytest.mark.parametrize("source, atoms", [
    ("x <= 45% * a and x >= -1 * a", ["x <= 45% * a", "x >= -1 * a"]),
    ("not (s == \"u\" and x > 10%)", ["x > 10%"]),
    ("0 < x * b <= 22.5", ["0 < x * b", "x * b <= 22.5"]),
    ("(x - a) / b + 1 >= c or s == \"u\"", ["(x - a) / b + 1 >= c"]),
    ("a - -x < 3", ["a - -x < 3"]),
    ("s == \"u\"", []),
])
def test_monotone_comparisons_are_found(source, atoms):
    assert _atom_sources(source, parse_expression(source), "x") == atoms


@pytest.mark.parametrize("source", [
    "x * x < 1",  # read twice
    "a / x < 1",  # a divisor: not monotone across zero
    "x == 1",  # true at one value: two changes
    "x != 1",
    "x in {1, 2}",
    "min(x, 1) < 2",  # under a call
    "x < a and x > b and x / 2 < x",  # one comparison reads it twice
])
def test_other_forms_are_left_to_the_probes(source):
    assert _atom_sources(source, parse_expression(source), "x") is None


# -- the same answers as the plain path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([BUFFETT, MARKS]).flatmap(_scenario))
def test_exact_spans_are_the_plain_answers(case):
    """Every check of constraint_checks, analysable or not, asked at every grid value gives the same set."""
    frame, facts, name = case
    checks = constraint_checks(frame, name)
    exact = exact_spans(frame, facts, name, frame.grids[name], checks)
    if exact is None:
        assert not checks
        return
    spans, rest = exact
    assert not rest  # every constraint of these two cards has the monotone form
    brute = _brute(frame, facts, name, checks)
    assert _indices(spans) == [k for k, ok in enumerate(brute) if ok]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([BUFFETT, MARKS]).flatmap(_scenario))
def test_search_probe_answers_match_the_plain_probe(case):
    """_ok (exact spans) and _probe (every check asked) answer every index alike, and so the search's intervals."""
    frame, facts, name = case
    checks = constraint_checks(frame, name)
    if not checks:
        return
    grid = frame.grids[name]
    fast, plain = _ok(frame, facts, name, grid, checks), _probe(frame, facts, name, grid, checks)
    assert [fast(k) for k in range(grid.count)] == [plain(k) for k in range(grid.count)]
    near = grid.count // 3
    assert feasible_intervals(fast, grid.count, near) == feasible_intervals(plain, grid.count, near)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([BUFFETT, MARKS]).flatmap(_scenario))
def test_remembered_spans_are_the_computed_ones(case):
    """check_spans' memo (two generations) returns what _spans computes afresh."""
    frame, facts, name = case
    grid = frame.grids[name]
    for fn, _ in constraint_checks(frame, name):
        atoms, others = comparison_atoms(frame, fn, name)
        first = check_spans(frame, facts, name, grid, fn, atoms, others)
        assert check_spans(frame, facts, name, grid, fn, atoms, others) == first == _spans(facts, name, grid, fn, atoms)


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 5)), max_size=6), st.integers(-2, 80))
def test_inside_is_membership(raw, k):
    spans, at = [], 0
    for gap, width in raw:
        lo = at + gap + (1 if spans else 0)
        spans.append((lo, lo + width))
        at = lo + width
    assert inside(spans)(k) == any(lo <= k <= hi for lo, hi in spans)


# -- the point of it: far fewer evaluations


def _python_calls(fn):
    """``fn()`` and the number of Python function calls it made (a count, not a time)."""
    import sys

    made = [0]

    def tally(frame, event, arg):
        if event == "call":
            made[0] += 1
    sys.setprofile(tally)
    try:
        out = fn()
    finally:
        sys.setprofile(None)
    return out, made[0]


@pytest.mark.parametrize("name", ["net_income", "arr", "gross_margin", "revenue_retention"])
def test_a_search_makes_fewer_calls(name):
    """A fresh frame (nothing remembered), every constraint that reads the input: the search through the exact spans
    finds the plain search's intervals with fewer Python calls (at s62speed: net_income 620 against 965, arr 859
    against 4,771, gross_margin 251 against 728, revenue_retention 226 against 678). With ARR $1B and a 40% margin,
    net income keeps every rule from -$1B to $400M: k = 20..48 (test_net_income_span_hand_worked)."""
    facts = {"arr": Decimal("1000000000"), "gross_margin": Decimal("0.40"), "revenue_growth": Decimal("0.2"),
             "revenue_retention": Decimal("1.05"), "ev_to_arr": Decimal("8"), "business_model": "subscription_software",
             "sector": "enterprise_software", "net_income": Decimal("300000000")}
    runs = []
    for ask in (_probe, _ok):
        frame = build_frame([BUFFETT])
        grid, checks = frame.grids[name], constraint_checks(frame, name)
        for fn, _ in checks:
            comparison_atoms(frame, fn, name)  # compiled once per frame: not counted
        runs.append(_python_calls(lambda: feasible_intervals(ask(frame, facts, name, grid, checks), grid.count, 10)))
    (plain, plain_calls), (fast, fast_calls) = runs
    assert fast == plain
    if name == "net_income":
        assert fast == [(20, 48)]
    assert fast_calls * 3 < plain_calls * 2
