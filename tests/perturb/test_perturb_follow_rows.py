"""The flip's tied search and the feasible-set probes, made cheaper, give the plain computation's answers
(issue 18 item 7, s61speed; bug kind: a memo or a reordering that changes an answer).

* :func:`ipb.perturb.deck_moves.follower` remembers each rule's answers along a line of values (rows keyed by
  the rule, the moved input and the rule's other inputs); it must give :func:`follow`'s answer at every value,
  from any facts, in any order of values, the rows warm from earlier lines or not.
* :func:`ipb.perturb.deck_moves.follow` no longer asks its partners' constraints a second time: it must give
  what it gave when it asked every constraint of the moved input and of each partner (the definition below).
* :func:`ipb.perturb.feasible._probe` reads every remembered answer before computing one and computes from
  the check that broke the last probe: ``ok(k)`` must be the plain conjunction of the checks at ``k``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_perturb_deck import CARD, DECK, GRAHAM

from ipb.perturb.deck_moves import _follow_by_rule, _tied_reading, follow, follower
from ipb.perturb.feasible import _probe, _with_era, aged_row, constraint_checks
from ipb.perturb.frame import build_frame, load_base
from perturb_support import BUFFETT, BUFFETT_BASE

_FRAMES: dict[str, Any] = {}


def _buffett():
    if "buffett" not in _FRAMES:
        frame = build_frame([BUFFETT])
        _FRAMES["buffett"] = (frame, load_base(str(BUFFETT_BASE), frame))
    return _FRAMES["buffett"]


def _deck():
    if "deck" not in _FRAMES:
        frame = build_frame([str(CARD), GRAHAM])
        _FRAMES["deck"] = (frame, load_base(str(DECK), frame))
    return _FRAMES["deck"]


def _follow_as_defined(frame, facts, name, value, base):
    """:func:`follow` as it was before s61speed: every constraint of ``name`` and of each partner asked on the
    moved facts (the independent definition)."""
    moved = {**facts, name: value}
    env = frame.complete(moved) if frame.derived else moved
    out: dict[str, Any] = {}
    broken = [k for k in _tied_reading(frame, name) if k.expr.fn(env) is False]
    if broken:
        found = _follow_by_rule(frame, moved, name, value, base, broken)
        if not found:
            return None
        out = found
        moved.update(out)
    for n in (name, *out):
        if any(fn(moved) is False for fn, _ in constraint_checks(frame, n)):
            return None
    return out


def _facts(frame, base, data, movable):
    """The base with up to three of ``movable`` moved to drawn grid values (an anchor's neighbourhood)."""
    facts = dict(base.facts)
    for other in data.draw(st.lists(st.sampled_from(movable), max_size=3, unique=True), label="moved"):
        grid = frame.grids[other]
        facts[other] = grid.value(data.draw(st.integers(0, grid.count - 1), label=other))
    return facts


def _values(frame, name, data):
    grid = frame.grids[name]
    ks = data.draw(st.lists(st.integers(0, grid.count - 1), min_size=1, max_size=30), label="probes")
    return [grid.value(k) for k in ks + ks[:5]]  # some asked again (the rows' hits)


@settings(max_examples=60)
@given(data=st.data())
def test_follow_gives_its_definitions_answer(data):
    deck = data.draw(st.booleans(), label="deck")
    frame, base = _deck() if deck else _buffett()
    names = ["long_term_debt", "stock_equity", "debt_to_equity"] if deck else ["arr", "net_income"]
    names = [n for n in names if n in frame.grids]
    facts = _facts(frame, base, data, names if deck else [*names, "ev_to_arr", "revenue_growth", "gross_margin"])
    if not deck and data.draw(st.booleans(), label="software"):
        facts["business_model"] = "subscription_software"
    name = data.draw(st.sampled_from(names), label="name")
    for v in _values(frame, name, data):
        assert follow(frame, facts, name, v, facts[name]) == _follow_as_defined(frame, facts, name, v, facts[name])


@settings(max_examples=60)
@given(data=st.data())
def test_follower_gives_follows_answer_on_the_buffett_tie(data):
    frame, base = _buffett()  # tie: subscription software above $10B of revenue earns a profit (arr, net_income)
    movable = [n for n in ("arr", "net_income", "ev_to_arr", "revenue_growth", "gross_margin", "revenue_retention")
               if n in frame.grids]
    facts = _facts(frame, base, data, movable)
    if data.draw(st.booleans(), label="software"):
        facts["business_model"] = "subscription_software"
    name = data.draw(st.sampled_from(["arr", "net_income"]), label="name")
    at = follower(frame, facts, name, facts[name])
    for v in _values(frame, name, data):
        assert at(v) == follow(frame, facts, name, v, facts[name]) == _follow_as_defined(
            frame, facts, name, v, facts[name]), (name, v)


@settings(max_examples=40)
@given(data=st.data())
def test_follower_gives_follows_answer_on_the_l8_deck(data):
    frame, base = _deck()  # the deck rule ties debt to equity to the debt and the equity
    tied = [n for n in ("long_term_debt", "stock_equity", "debt_to_equity") if n in frame.grids]
    facts = _facts(frame, base, data, tied)
    name = data.draw(st.sampled_from(tied), label="name")
    at = follower(frame, facts, name, facts[name])
    for v in _values(frame, name, data):
        assert at(v) == follow(frame, facts, name, v, facts[name]) == _follow_as_defined(
            frame, facts, name, v, facts[name]), (name, v)


def test_follower_hand_worked_values_on_the_buffett_tie():
    frame, base = _buffett()
    facts = {**base.facts, "business_model": "subscription_software", "net_income": Decimal(0)}
    at = follower(frame, facts, "arr", facts["arr"])
    # $5B of revenue at no profit breaks no rule: nothing follows
    assert at(Decimal("5000000000")) == {} == follow(frame, facts, "arr", Decimal("5000000000"), facts["arr"])
    # $20B breaks the tie (above $10B, no profit): the income follows the revenue's move, as follow() gives it
    moved = at(Decimal("20000000000"))
    assert moved == follow(frame, facts, "arr", Decimal("20000000000"), facts["arr"])
    assert moved is None or (moved.keys() == {"net_income"} and moved["net_income"] > 0)


@settings(max_examples=60)
@given(data=st.data())
def test_probe_reordered_is_the_plain_conjunction(data):
    frame, base = _buffett()
    name = data.draw(st.sampled_from(["arr", "net_income", "ev_to_arr", "revenue_growth", "gross_margin"]))
    movable = [n for n in ("arr", "net_income", "ev_to_arr", "revenue_growth", "gross_margin") if n != name]
    checks = constraint_checks(frame, name)
    if data.draw(st.booleans(), label="dated"):
        checks = _with_era(frame, name, 2024, checks)  # the era bounds on a quotient count as checks too
    grid = frame.grids[name]
    for _ in range(data.draw(st.integers(1, 3), label="probes made")):  # later probes find warm rows
        facts = _facts(frame, base, data, movable)
        if data.draw(st.booleans(), label="software"):
            facts["business_model"] = "subscription_software"
        ok = _probe(frame, facts, name, grid, checks)
        for k in data.draw(st.lists(st.integers(0, grid.count - 1), min_size=1, max_size=40), label="ks"):
            env = {**facts, name: grid.value(k)}
            assert ok(k) == all(fn(env) is not False for fn, _ in checks), (name, k)


@settings(max_examples=100)
@given(keys=st.lists(st.integers(0, 12), max_size=80), limit=st.integers(1, 5))
def test_aged_rows_hold_at_most_two_generations_and_keep_a_row_they_hold(keys, limit):
    memo: dict = {}
    for key in keys:
        young_before = memo.get("rows", {})
        old_before = memo.get("rows_old", {})
        held = young_before.get(key, old_before.get(key))
        row = aged_row(memo, "rows", limit, key)
        if held is not None:
            assert row is held  # a held row (and the answers in it) is never replaced
        else:
            assert row == {}
        row.setdefault(key, True)
        assert memo["rows"][key] is row  # the row asked for is among the young
        assert len(memo["rows"]) <= limit and len(memo.get("rows_old", {})) <= limit
        assert not set(memo["rows"]) & set(memo.get("rows_old", {}))
