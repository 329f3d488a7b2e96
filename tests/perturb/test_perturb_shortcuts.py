"""The generation shortcuts of issue 18 (item 7) against the plain computations they replace.

Each shortcut must give exactly what the plain path gives, so the items and
run reports do not change (tests/perturb/test_perturb_bytes.py pins the
bytes); these tests check each one against an independent oracle:

* ``Frame.held_by_reject`` (no flip search when a gate that does not read
  the input rejects) against full execution at every grid value;
* ``Frame.violations_from`` (only constraints reading a moved input are
  evaluated) against ``Frame.violations``;
* ``_first_flip``'s per-anchor memo of flips input by input against a
  search with no memo, in several name orders;
* ``format_value``'s memo against the formatting itself, with numbers
  written in several ways;
* ``write_lines_atomic`` in blocks against the lines joined by hand;
* ``Frame.line`` on the cards the engine's sweep does not take (a
  disjunction, an n-of-m threshold: final verdicts from a table of gate
  verdict vectors) and on cards with a derived input, against
  ``Frame.outcomes_many``, full execution;
* ``Frame.profile_line`` (gate isolation re-runs only the gates that depend
  on the moved input) against ``Frame.profile``, the engine's diagnostic
  execution, on every bundled card and an L8 frame.
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import ipb._files as files
from ipb.engine.execute import _FORMATTED, _format_value, format_value
from ipb.perturb.operators import metric_inputs  # before targeted, which operators imports at its end
from ipb.perturb import targeted
from ipb.perturb.frame import base_from_facts, build_frame, load_base
from ipb.perturb.deck_moves import deck_tied, tied_rules
from ipb.perturb.flip_search import _find_tied_flip
from ipb.perturb.gate_lines import verdict_line
from ipb.perturb.sector_registry import MODEL_RANGE_LABEL, OMITS_LABEL, SECTOR_RANGE_LABEL
from ipb.perturb.targeted import _anchor, _alternatives, _first_flip, find_flip
from perturb_support import BUFFETT, CARD_IDS, FIXTURES, card_frame


def _frames_with(predicate):
    out = []
    for card in CARD_IDS:
        frame, bases, reason = card_frame(card)
        if not reason and predicate(frame):
            out.append(pytest.param(card, id=card))
    return out


SWEPT = _frames_with(lambda f: bool(metric_inputs(f)) and not f.derived)
CONSTRAINED = _frames_with(lambda f: any(c.card.constraints for c in f.cards))


def _neighbours(frame, base, rng: random.Random, count: int):
    """Scenarios near ``base``: up to three inputs redrawn on their grids or value lists (the anchors' kind)."""
    names = [n for n in frame.inputs if n in frame.grids or frame.inputs[n].type in ("bool", "category")]
    for _ in range(count):
        facts = dict(base.facts)
        moved = rng.sample(names, min(len(names), rng.randint(1, 3)))
        for name in moved:
            spec = frame.inputs[name]
            if name in frame.grids:
                grid = frame.grids[name]
                facts[name] = grid.value(rng.randrange(grid.count))
            elif spec.type == "bool":
                facts[name] = rng.choice((False, True))
            elif spec.values:
                facts[name] = rng.choice(spec.values)
        yield facts, moved


@pytest.mark.parametrize("card", SWEPT)
def test_held_by_reject_means_no_value_of_the_input_moves_any_verdict(card):
    """Oracle: the engine's full execution at every grid value (at most 60 per input) gives the scenario's own
    outcomes. The claim is checked wherever it is made, and it must be made somewhere (else the test proves nothing)."""
    frame, bases, _ = card_frame(card)
    rng = random.Random(f"held/{card}")
    claimed = 0
    for facts, _ in _neighbours(frame, bases[0], rng, 40):
        own = frame.outcomes(facts)
        for name in metric_inputs(frame):
            if not frame.held_by_reject(facts, name):
                continue
            claimed += 1
            grid = frame.grids[name]
            ks = sorted(set(range(0, grid.count, max(1, grid.count // 60))) | {grid.count - 1})
            values = [grid.value(k) for k in ks]
            assert set(frame.outcomes_many([{**facts, name: v} for v in values])) == {own}, (name, facts)
            if isinstance(facts.get(name), Decimal):  # and the search it skips finds nothing either
                assert targeted._find_flip(frame, facts, name, grid, facts[name], None, own, 0) is None
    if card == BUFFETT:
        assert claimed > 0, "Buffett's neighbours include scenarios held by a REJECT"


def test_held_by_reject_is_false_where_the_input_can_flip_the_verdict():
    """Hand-worked, Buffett's base IPB-P-011: moving ev_to_arr far enough flips the verdict, so no gate that ignores
    it may be claimed to reject."""
    frame, bases, _ = card_frame(BUFFETT)
    facts = bases[0].facts
    assert find_flip(frame, facts, "ev_to_arr") is not None
    assert not frame.held_by_reject(facts, "ev_to_arr")


@pytest.mark.parametrize("card", CONSTRAINED)
def test_violations_from_gives_the_same_list_as_violations(card):
    """Oracle: Frame.violations on the whole scenario; the reference is the base, moved the inputs redrawn."""
    frame, bases, _ = card_frame(card)
    rng = random.Random(f"violations/{card}")
    broken = 0
    for base in bases:
        # a base that itself breaks a registry rule (sectors/omits, sectors/model_range, sectors/sector_range: Buffett's
        # moat_between_thresholds states subscription software at a 50% gross margin) reads that rule as holding
        # for its moves (sector_registry.base_states, s62sector and s64range), so the plain list leaves it out
        exempt = {label for label in frame.violations(base.facts)
                  if label in (OMITS_LABEL, MODEL_RANGE_LABEL, SECTOR_RANGE_LABEL)}
        for facts, moved in _neighbours(frame, base, rng, 60):
            want = [label for label in frame.violations(facts) if label not in exempt]
            changed = [n for n in facts if facts[n] != base.facts.get(n)]
            assert frame.violations_from(base.facts, facts, changed) == want, (moved, facts)
            assert frame.violations_from(base.facts, facts, moved) == want  # a superset of the changes also works
            assert frame.breaks_constraint(base.facts, facts, moved) is bool(want)
            broken += bool(want)
    if card == BUFFETT:
        assert broken > 0, "some of Buffett's neighbours break a constraint"


def _plain_flip(frame, facts, name, before):
    """find_flip's search along ``name`` with no memo: along an input a ``tie: true`` rule reads (Buffett's ARR, whose
    net income follows it past $10B of subscription revenue) the partners follow each probed value, as find_flip
    searches it (s64range: the oracle searched ARR alone and disagreed where only the followed income flips)."""
    if tied_rules(frame) and deck_tied(frame, name):
        return _find_tied_flip(frame, facts, name, frame.grids[name], facts[name], None, before, 0)
    return targeted._find_flip(frame, facts, name, frame.grids[name], facts[name], None, before, 0)


def test_first_flip_memo_gives_the_search_of_every_name_order():
    """Oracle: find_flip name by name with no memo, from the facts' own outcomes. For anchors along which two
    inputs flip, orders that put each of them first must each get that input's flip (the memo is filled by the
    first order and read by the next), and a random order gets the first flipping input of that order. The
    Buffett card has 6 inputs to search, more than ``ANCHOR_INPUTS + 1``: the inputs the anchor moved are not
    searched (s29gen)."""
    frame, bases, _ = card_frame(BUFFETT)
    rng = random.Random("first-flip")
    names = [n for n in metric_inputs(frame) if isinstance(bases[0].facts.get(n), Decimal)]
    assert len(names) > targeted.ANCHOR_INPUTS + 1
    two = none = 0
    # s42: once flips generation would refuse count as none (s42anchor) and 2024's multiple per unit of retention is
    # bounded (s42buff), no anchor from the first base has two flipping inputs; the second base's anchors do
    for base in [bases[0]] * 120 + [bases[1]] * 60:
        order = list(names)
        rng.shuffle(order)
        facts, anchor = _anchor(frame, base, rng, order[:1])
        facts = facts or dict(base.facts)
        before = frame.outcomes(facts)
        searchable = [n for n in names if n not in anchor]
        flips = {n: _plain_flip(frame, facts, n, before) for n in searchable}
        flipping = [n for n in searchable if flips[n] is not None]
        orders = [[n] + [m for m in order if m != n] for n in flipping[:2]] + [order]
        for trial in orders:
            want = next((flips[n] for n in trial if n in flips and flips[n] is not None), None)
            assert _first_flip(frame, facts, trial, anchor) == want, (facts, trial)
        two += len(flipping) >= 2
        none += not flipping
    assert two and none, "anchors with two flipping inputs and anchors with none both occur"


@settings(max_examples=300, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, min_value=-10**15, max_value=10**15, places=4),
       st.integers(min_value=0, max_value=3), st.sampled_from([None, "ratio", "multiple", "money", "number"]))
def test_format_value_memo_ignores_how_a_number_is_written(value, zeros, unit):
    """The same number written with extra trailing zeros, formatted after the short form was remembered, and a
    Fraction of it: each equals the formatting itself (no memo)."""
    _FORMATTED.clear()
    longer = Decimal(f"{value:f}{'' if '.' in f'{value:f}' else '.'}{'0' * zeros}") if zeros else value
    assert longer == value
    assert format_value(value, unit) == _format_value(value, unit)
    assert format_value(longer, unit) == _format_value(longer, unit)
    as_fraction = Fraction(value)
    assert format_value(as_fraction, unit) == _format_value(as_fraction, unit)


def test_format_value_memo_keeps_types_apart():
    """True == 1 == Decimal(1) and hash alike; each keeps its own text."""
    _FORMATTED.clear()
    assert [format_value(v, "multiple") for v in (True, 1, Decimal(1), Decimal("1.000"))] == \
        ["true", "1", "1x", "1x"]
    assert format_value(Decimal("0.50"), "ratio") == "50%" and format_value(Decimal("-0"), "money") == "$0"


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 16])
def test_write_lines_in_blocks_is_the_lines_joined(tmp_path, monkeypatch, block):
    monkeypatch.setattr(files, "WRITE_BLOCK", block)
    rng = random.Random(block)
    lines = ["".join(rng.choice("ab€\u00e9{}\"") for _ in range(rng.randrange(0, 40))) for _ in range(300)]
    path = tmp_path / "out.jsonl"
    files.write_lines_atomic(path, iter(lines))
    assert path.read_bytes() == "".join(line + "\n" for line in lines).encode("utf-8")
    files.write_lines_atomic(path, iter([]))
    assert path.read_bytes() == b""


def test_a_duplicate_found_before_the_constraint_checks_is_the_same_candidate():
    """Oracle: the same attempts with no keys taken (every check run). With every key taken, each candidate that
    had a key is a duplicate with the same key, changed count and point, and the rejected ones keep their error."""
    from ipb.perturb import Job, parse_recipes
    from ipb.perturb.generation import Generator
    from perturb_support import BUFFETT_BASE

    job = Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("metric,sector,flip"))
    plain = [c for r in range(3) for c in Generator(job).run([(r, 0, 120)], build=True)]
    taken = {c.key for c in plain if c.key is not None}
    gen = Generator(job)
    spared = [gen.attempt(c.recipe, c.attempt, seen=taken) for c in plain]
    assert [c.error for c in plain].count(None) > 100 and any(c.error for c in plain)
    for p, s in zip(plain, spared):
        assert (s.recipe, s.attempt, s.key, s.error, s.changed, tuple(s.point)) == \
            (p.recipe, p.attempt, p.key, p.error, p.changed, tuple(p.point))
        assert s.line is None and s.label is None


def _profile_lines_match(frame, bases, seed: int, count: int) -> int:
    """Check ``profile_line`` against ``profile`` around each base; returns how many values moved a gate."""
    rng = random.Random(seed)
    names = [n for n in frame.consumers if n not in frame.derived
             and (n in frame.grids or frame.inputs[n].type in ("bool", "category"))]
    moved_a_gate = 0
    for base in bases:
        for facts, _ in [(dict(base.facts), ())] + list(_neighbours(frame, base, rng, count)):
            own = frame.profile(facts)
            for name in names:
                values = _alternatives(frame, name, facts.get(name), rng)
                got = frame.profile_line(facts, name)(values)
                want = [frame.profile({**facts, name: v}) for v in values]
                assert got == want, (name, facts)
                moved_a_gate += sum(p != own for p in want)
    return moved_a_gate


@pytest.mark.parametrize("card", [pytest.param(c, id=c) for c in CARD_IDS])
def test_profile_line_is_the_diagnostic_profile_of_each_value(card):
    frame, bases, reason = card_frame(card)
    if reason:
        pytest.skip(reason)
    moved = _profile_lines_match(frame, bases[:2], 18, 4)
    if frame.consumers:
        assert moved > 0  # the check saw values that change some gate, not only unchanged profiles


def test_profile_line_on_an_l8_frame_moves_only_the_cards_that_read_the_input():
    frame = build_frame([BUFFETT, "marks_market_cycle_positioning", "dalio_bubble_detection_gauge"])
    base = load_base(FIXTURES / "l8_three_investors.yaml", frame)
    assert _profile_lines_match(frame, [base], 7, 6) > 0


def _lines_match(frame, bases, seed: int, count: int) -> tuple[int, int]:
    """Check ``Frame.line`` against ``outcomes_many`` around each base: (values checked, values off the base verdict)."""
    rng = random.Random(seed)
    checked = moved = 0
    for base in bases:
        for facts, _ in [(dict(base.facts), ())] + list(_neighbours(frame, base, rng, count)):
            own = frame.outcomes(facts)
            for name in frame.grids:
                grid = frame.grids[name]
                values = [grid.value(k) for k in sorted(rng.sample(range(grid.count), min(grid.count, 24)))]
                want = frame.outcomes_many([{**facts, name: v} for v in values])
                assert frame.line(facts, name)(values) == want, (name, facts)
                checked += len(values)
                moved += sum(w != own for w in want)
    return checked, moved


TABLED = _frames_with(lambda f: not f.derived and any(
    c.family != "conjunction" and c.classifier is None and all(g.reentry is None for g in c.card.gates)
    for c in f.cards))


@pytest.mark.parametrize("card", TABLED)
def test_line_from_gate_verdicts_is_full_execution_on_threshold_and_trigger_cards(card):
    frame, bases, reason = card_frame(card)
    if reason:
        pytest.skip(reason)
    assert any(verdict_line(frame, bases[0].facts, 0, n) is not None for n in frame.grids)
    checked, _ = _lines_match(frame, bases[:2], 11, 4)
    assert checked > 0


def test_tabled_cards_include_the_bubble_gauge_and_its_verdict_moves():
    assert "dalio_bubble_detection_gauge" in [p.values[0] for p in TABLED]
    frame, bases, _ = card_frame("dalio_bubble_detection_gauge")
    assert _lines_match(frame, bases[:1], 3, 6)[1] > 0


def test_line_over_an_l8_frame_with_a_threshold_card_is_full_execution():
    frame = build_frame([BUFFETT, "marks_market_cycle_positioning", "dalio_bubble_detection_gauge"])
    base = load_base(FIXTURES / "l8_three_investors.yaml", frame)
    # marks is a regime card (full execution): the frame falls back, still equal
    assert _lines_match(frame, [base], 5, 4)[1] > 0
    two = build_frame([BUFFETT, "dalio_bubble_detection_gauge"])
    base = base_from_facts(two, {k: v for k, v in base.facts.items() if k in two.inputs}, as_of=base.as_of)
    frame = two
    assert _lines_match(frame, [base], 5, 4)[1] > 0


DERIVED = _frames_with(lambda f: bool(f.derived))


@pytest.mark.parametrize("card", DERIVED)
def test_line_with_a_derived_input_is_full_execution(card):
    frame, bases, reason = card_frame(card)
    if reason:
        pytest.skip(reason)
    tabled = any(verdict_line(frame, bases[0].facts, 0, n) is not None for n in frame.grids)
    assert tabled == (frame.cards[0].classifier is None)  # a regime card is executed in full
    checked, moved = _lines_match(frame, bases[:2], 13, 4)
    assert checked > 0 and moved > 0


def test_derived_cards_are_checked():
    assert len(DERIVED) >= 3  # the all-weather and debt-cycle cards derive an input


@pytest.mark.parametrize("deck", ["buffett", "l8"])
def test_a_shared_item_is_the_copied_item_and_a_copy_owns_its_parts(deck):
    """``build_item(shared=True)`` (the generator's path: the frame's constant manifest parts, condition C and the
    remembered GRP entries given without copies) against the plain build of the same attempts: equal values and
    equal lines. The plain build still owns every part: editing one item (as the tamper tests do) leaves the
    next item of the frame, and the memo behind it, as they were."""
    from ipb.perturb import Job, parse_recipes
    from ipb.perturb.generation import Generator
    from ipb.perturb.items import build_item, dumps_item
    from perturb_support import BUFFETT_BASE, FIXTURES

    if deck == "buffett":
        job = Job((BUFFETT,), str(BUFFETT_BASE), 0, parse_recipes("metric,sector,flip"))
    else:
        job = Job((BUFFETT, "marks_market_cycle_positioning", "dalio_bubble_detection_gauge"),
                  str(FIXTURES / "l8_three_investors.yaml"), 7, parse_recipes("metric,sector"))
    gen = Generator(job)
    built = 0
    shared_cards = None
    for r in range(len(job.recipes)):
        for j in range(40):
            made = gen.scenario(r, j)
            if isinstance(made, str):
                continue
            scenario, steps = made
            recipe = job.recipes[r]

            def build(shared: bool) -> dict:
                return build_item(gen.frame, gen.base, scenario, steps, recipe=recipe.text,
                                  args=[a for _, a in recipe.steps], seed=0, attempt=j, shared=shared)

            plain, shared = build(False), build(True)
            assert shared == plain and dumps_item(shared) == dumps_item(plain)
            if shared_cards is not None:
                assert shared["manifest"]["cards"] is shared_cards  # built once per frame
            shared_cards = shared["manifest"]["cards"]
            want = dumps_item(build(False))
            grps = [plain["grp"]] if "grp" in plain else [g["grp"] for g in plain["golds"]]
            for grp in grps:
                grp["gold_program"][0]["name"] = "edited"
                grp["gold_program"][0]["required_elements"].append("edited")
            plain["manifest"]["cards"][0]["id"] = "edited"
            plain["manifest"]["tool"]["version"] = "edited"
            plain["conditions"]["C"]["cards"][0]["id"] = "edited"
            plain["conditions"]["B"]["investors"].append("edited")
            assert dumps_item(build(False)) == dumps_item(build(True)) == want
            built += 1
    assert built > 40


def test_dated_anachronisms_memo_gives_the_plain_answer():
    """``Frame.dated_anachronisms`` (remembered by year and the timed facts' names, types and values) against
    ``regimes.anachronisms`` asked each time: the same messages in the same order, for facts in two orders, a
    size above the year's largest company, and a memo warm from another year or order."""
    from perturb_support import BUFFETT_BASE

    frame = build_frame([BUFFETT])
    base = load_base(str(BUFFETT_BASE), frame)
    timed = frozenset(frame.inputs)
    big = {**base.facts, "arr": Decimal("6e11")}
    variants = [dict(base.facts), big, dict(reversed(list(big.items())))]
    found_any = False
    for _ in range(2):  # the second pass is served from the memo
        for year in (1950, 1995, 2020):
            for facts in variants:
                want = frame.regimes.anachronisms(frame.inputs, {n: v for n, v in facts.items() if n in timed}, year)
                assert frame.dated_anachronisms(facts, timed, year) == want
                found_any = found_any or bool(want)
    assert found_any
