"""The operators aimed at a verdict: ``flip`` (the smallest change to one input that flips the
final verdict) and ``isolate`` (a change that moves exactly one named gate), paper §6.5.

Registered on the same registry as the other operators (:func:`ipb.perturb.operators.operator`);
:mod:`ipb.perturb.operators` imports this module at its end, so asking for an operator by name
finds these too.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence

from ipb.errors import PerturbError
from ipb.perturb.deck_moves import follow, tied_rules
from ipb.perturb.flip_era import off_era_bound, timed_inputs
from ipb.perturb.multiples import ratio_outside
from ipb.perturb.frame import Frame, PScenario, cached_text, ordered_inputs
from ipb.perturb.flip_search import FLIP_MEMO_LIMIT, SCAN_LIMIT, Flip, _Recent, find_flip  # noqa: F401
from ipb.perturb.flip_search import _find_flip  # noqa: F401  (tests and bench/generate_parts read it here)
from ipb.perturb.values import literal

from ipb.perturb.operators import Step, _draw, _not_applicable, _spec_list, metric_inputs, operator, regime_inputs

__all__ = ["Flip", "find_flip", "verdict_flip", "gate_isolation", "UNREACHED"]


# --------------------------------------------------------------------------- verdict flip (the operator)

def _check_flip(frame: Frame) -> None:
    if not metric_inputs(frame):
        raise _not_applicable(frame, "has no numeric input with a declared range that a gate reads: "
                                     "no single-input change can be searched for a verdict flip")


#: Anchored attempts redraw at most this many other inputs before searching.
ANCHOR_INPUTS = 3
#: Draws tried for an anchor that satisfies the card's constraints.
ANCHOR_DRAWS = 8
#: Anchors searched by one flip attempt before it gives up.
FLIP_ANCHORS = 8
#: Anchors one flip attempt drops unsearched (:func:`_dead_move`) before it gives up.
SCREENED_ANCHORS = 128
#: From this attempt of a run on, a screened anchor whose moves besides its one number are bool or category moves
#: moves a second number too (:func:`_anchor`, ``wide``): the anchors before it are the cheapest to search, and
#: their space is what a long run uses up first (s43speed).
WIDE_FROM = 1024
#: Draws of that second number's value tried for one the screen keeps alive (then the anchor is screened).
LIVE_DRAWS = 8


def _anchor_pool(frame: Frame, keep: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The inputs :func:`_anchor` may redraw (in input order) and the ranged numeric ones among them, per frame."""
    memo = frame.memo.setdefault("anchor_pool", {})
    held = memo.get(keep)
    if held is None:
        pool = [n for n in frame.consumers if n not in keep and n not in frame.derived
                and (n in frame.grids or frame.inputs[n].type in ("bool", "category"))]
        pool = ordered_inputs(frame, pool)
        held = memo[keep] = (tuple(pool), tuple(n for n in pool if n in frame.grids))
    return list(held[0]), list(held[1])


def _anchor(frame: Frame, scenario: PScenario, rng: random.Random, keep: Sequence[str],
            dead: Callable[[str, Any], bool] | None = None, wide: bool = False
            ) -> tuple[dict[str, Any] | None, list[str]]:
    """A neighbour of ``scenario``: 1 to ``ANCHOR_INPUTS`` inputs (none of ``keep``) redrawn, one numeric among them.

    Candidates are the ranged numeric inputs a gate reads (a new grid value)
    and the bool and category inputs a gate reads (another value); an input
    the scenario leaves undisclosed may become stated this way. Draws that break a card constraint are redrawn (up to
    ``ANCHOR_DRAWS`` times); ``({}, [])`` when no neighbour is found (the
    caller then starts from the scenario itself).

    ``dead(name, value)`` (the flip's :func:`_dead_move`): when it is True of one of the draws, ``(None,
    changed)`` at once, before the constraints are asked or repaired: the caller's flip search would
    (almost always) find nothing from that anchor, and it draws its next one without searching.

    ``wide`` (with ``dead``; :func:`verdict_flip` from attempt ``WIDE_FROM`` on): a draw whose moves besides its
    one number are all bool or category moves keeps one of them and moves a second ranged number too, its value
    drawn (up to ``LIVE_DRAWS`` times) until ``dead`` keeps it alive. Without it such an anchor is one of few (on
    the bench card a macro regime has 4 live values, so a regime and one number make about 1,600 anchors, and half
    of a 20,000-attempt run's flips came from them): a long run drew them again and again, and every such flip
    was a duplicate item, searched in full and dropped (s43speed: 18,730 of 32,304 flip attempts at 40k items;
    with it, 20,000 attempts give 16,000 distinct flips, was 9,500). The first attempts keep the narrow anchors:
    they are found with fewer searches (2.18 anchors a kept flip over 2,000 attempts, 2.31 wide).
    """
    facts = scenario.facts
    # the pool, its numeric inputs and what is left of each once one is drawn, per frame and kept inputs
    plans = frame.memo.setdefault("anchor_plans", {})
    kept = tuple(keep)
    plan = plans.get(kept)
    if plan is None:
        pool_, numeric_ = _anchor_pool(frame, kept)
        plan = plans[kept] = (pool_, numeric_, _anchor_rests(frame, kept, tuple(pool_)),
                              _anchor_rests(frame, kept, tuple(numeric_)))
    pool, numeric, rests, numeric_rests = plan
    if not pool:
        return {}, []
    if not (wide and dead is not None):
        numeric_rests = {}
    # what each input's draw needs from its current value, remembered per frame (anchors are drawn again and again
    # from the same facts); the pool is in input order, so a draw's inputs are put in order by their positions
    ways: dict[tuple[Any, ...], tuple[Any, ...]] = frame.memo.setdefault("draw_ways", {})
    position: dict[str, int] | None = frame.memo.get("input_position")
    if position is None:
        ordered_inputs(frame, ())  # makes the frame's table of input positions
        position = frame.memo["input_position"]
    day = scenario.as_of if frame.regimes.multiples else None
    # s58fill (C10): an anchor never sets a market-wide regime input to a value that names one dated episode (the
    # first label of one regime and no other's: "pandemic_shock", 2020); the move drops the date, so the item would
    # name the episode with neither its date nor its figures (temporal sets a regime with both)
    episodes = frame.memo.get("episode_values")
    if episodes is None:
        labels = Counter(label for r in frame.regimes.regimes for label in set(r.labels))
        names = {r.labels[0] for r in frame.regimes.regimes if r.labels and labels[r.labels[0]] == 1}
        episodes = frame.memo["episode_values"] = {n: names for n in regime_inputs(frame)}
    for _ in range(ANCHOR_DRAWS):
        # one ranged numeric input always moves and one or two more of any kind (a large space of anchors)
        first = [rng.choice(numeric)] if numeric else []
        rest = rests[first[0] if first else None]
        extra = rng.randint(1, max(1, min(ANCHOR_INPUTS - len(first), len(rest)))) if rest else 0
        picked = rng.sample(rest, extra)
        second = None
        if numeric_rests and first and picked and numeric_rests[first[0]] and not any(
                name in frame.grids for name in picked):
            del picked[ANCHOR_INPUTS - 2:]  # one bool or category move, and a second number (``wide``)
            second = rng.choice(numeric_rests[first[0]])
            picked.append(second)
        chosen = sorted(first + picked, key=position.__getitem__)  # ordered_inputs: distinct, known
        changed = []
        values = []  # the drawn value of each input of ``changed``
        for name in chosen:
            current = facts.get(name)
            wkey = (name, current.__class__, current)
            way = ways.get(wkey)
            if way is None:
                if len(ways) >= DRAW_WAY_LIMIT:
                    ways.clear()
                way = ways[wkey] = _draw_way(frame, name, current)
            value: Any
            if way[0]:  # a grid: a uniform grid value other than the current one (``_draw``)
                _, grid, choices, skip = way
                if choices <= 0:
                    continue
                for _ in range(LIVE_DRAWS if name == second else 1):
                    k = rng.randrange(choices)
                    if skip is not None and k >= skip:
                        k += 1
                    value = grid.value(k)
                    if name != second or dead is None or not dead(name, value):
                        break
            else:
                others = way[1]
                if name in episodes:
                    others = [v for v in others if v not in episodes[name]]
                if not others:
                    continue
                value = rng.choice(others)
            values.append(value)
            changed.append(name)
        if not changed:
            continue
        if dead is not None:
            for name, value in zip(changed, values):
                if dead(name, value):
                    return None, changed  # a move no kept input can answer: the flip draws its next anchor
        moved = dict(facts)
        moved.update(zip(changed, values))
        if frame.breaks_constraint(facts, moved, changed) or _off_era(frame, moved, day):
            # asked once when it holds (a pure function); out of its era's bound on a quotient, the anchor is
            # redrawn inside it as inside a card rule (s42anchor: 2024's price of subscription-software growth)
            _repair(frame, facts, moved, changed, keep, rng, day)
            if frame.breaks_constraint(facts, moved, changed) or _off_era(frame, moved, day):
                continue
        return moved, changed
    return {}, []


def _off_era(frame: Frame, facts: Mapping[str, Any], day: Any) -> bool:
    """True when ``facts`` dated ``day`` (None: never) state a quotient outside its era's bounds
    (:func:`~ipb.perturb.multiples.ratio_anachronisms` over regimes.yaml's ``multiples``), as generation's dated
    refusal would find it."""
    return day is not None and ratio_outside(frame.regimes.multiples, facts, day)


def _repair(frame: Frame, facts: Mapping[str, Any], moved: dict[str, Any], changed: list[str],
            keep: Sequence[str], rng: random.Random, day: Any = None) -> None:
    """Redraw the numeric inputs of an anchor that breaks a constraint inside the card's rules, the others fixed.

    Each ranged numeric input of ``changed`` is redrawn in turn among the grid values that keep the constraints
    it reaches with every other fact as drawn (:func:`~ipb.perturb.feasible.redraw_if_broken`, never its value
    in ``facts``); if a rule is still broken, so is each ranged numeric input of ``keep`` that is stated (it is
    then added to ``changed``: the anchor moved it, and a flip searches on from the anchor's value). So a
    category move that needs a matching number can still be an anchor (s28review: the Marks cycle 2008 base
    made no flip item: at its 18% spread every anchor that moved investor psychology or capital off "panicked,
    tight" broke a rule, and the spread is the flip's own input, kept out of the draw). Random numbers are
    consumed only by a draw that breaks a rule; ``moved`` and ``changed`` are changed in place. With ``day``
    (the scenario's date), an era's bound on a quotient counts as a rule (:func:`~ipb.perturb.feasible.era_checks`,
    s42anchor).
    """
    from ipb.perturb.feasible import redraw_if_broken

    if tied_rules(frame) and not frame.deck:  # a card's own ``tie: true`` rules (an L8 deck's anchors as before)
        partners = _tied_partners(frame, facts, moved, changed, keep)
        if partners:
            moved.update(partners)
            changed.extend(partners)
            if not frame.breaks_constraint(facts, moved, changed) and not _off_era(frame, moved, day):
                return
    for name in list(changed):
        if name in frame.grids:
            moved[name] = redraw_if_broken(frame, moved, name, rng, facts.get(name), day=day)
    if not frame.breaks_constraint(facts, moved, changed) and not _off_era(frame, moved, day):
        return
    for name in keep:
        if name in frame.grids and isinstance(facts.get(name), Decimal) and name not in changed:
            new = redraw_if_broken(frame, moved, name, rng, facts.get(name), day=day)
            if new != facts.get(name):
                moved[name] = new
                changed.append(name)


def _tied_partners(frame: Frame, facts: Mapping[str, Any], moved: Mapping[str, Any], changed: Sequence[str],
                   keep: Sequence[str] = ()) -> dict[str, Any] | None:
    """The inputs a ``tie: true`` rule (or an L8 deck rule) links to ``changed``, at the values that keep it, as the
    flip's own search moves them (:func:`~ipb.perturb.deck_moves.follow`: no random number); None when no such rule
    is broken, or some partner is in ``changed`` or ``keep`` or has no value that keeps the rules.

    s50rfix (issue 18, s45/s46 review B1, s49review BA14): without it an anchor that moved one fact of a linked pair
    ($20B of subscription revenue beside the base's net income of $0) broke the card's rule, escaped the dead-move
    screen (a broken move was never called dead) and was repaired by redrawing the moved input itself, so anchors
    that were as good as the unmoved base were searched: 960 anchors for 399 kept flips on the bench card (2.4 a
    flip, over test_perturb_anchor_screen's 2.2). With the partner following, the screen judges the anchor the
    repair makes (the revenue kept, the income moved up by the revenue's change, on its grid: $4.95B at $20B from
    the base's $0 on $5B) and the repair makes that one: 872 anchors for 400 (870 for 398 before the rule).
    """
    out: dict[str, Any] = {}
    work = dict(moved)
    for name in changed:
        found = follow(frame, work, name, work[name], facts.get(name))
        if found is None:
            return None
        if any(n in changed or n in keep for n in found):
            return None
        out.update(found)
        work.update(found)
    return out or None


def _anchor_rests(frame: Frame, keep: tuple[str, ...], pool: tuple[str, ...]) -> dict[Any, tuple[str, ...]]:
    """For each numeric input of ``pool`` (and None), the pool without it, in pool order (per frame)."""
    memo = frame.memo.setdefault("anchor_rests", {})
    held = memo.get((keep, pool))
    if held is None:
        rests: dict[Any, tuple[str, ...]] = {n: tuple(m for m in pool if m != n) for n in pool}
        rests[None] = pool
        held = memo[(keep, pool)] = rests
    return held  # type: ignore[no-any-return]


#: :func:`_anchor` remembers at most this many ``(input, current value)`` draws per frame (then starts again).
DRAW_WAY_LIMIT = 4096


def _draw_way(frame: Frame, name: str, current: Any) -> tuple[Any, ...]:
    """How :func:`_anchor` draws a new value of ``name`` from ``current``: ``(True, grid, choices, skipped index)``
    as :func:`ipb.perturb.operators._draw` does, or ``(False, the other values)`` of a bool or category input."""
    if name in frame.grids:
        grid = frame.grids[name]
        skip = grid.index_of(current) if isinstance(current, Decimal) else None
        return True, grid, grid.count - (1 if skip is not None else 0), skip
    spec = frame.inputs[name]
    return False, [v for v in ((False, True) if spec.type == "bool" else (spec.values or ())) if v != current]


def _dead_move(frame: Frame, facts: Mapping[str, Any], names: Sequence[str],
               scenario: PScenario | None = None) -> Callable[[str, Any], bool]:
    """``dead(name, value)``: True when ``facts`` with ``name`` moved to ``value`` alone keep the card's
    constraints and no input of ``names`` other than ``name`` has a verdict flip from there (:func:`find_flip`,
    the search :func:`_first_flip` runs). A move that breaks a constraint alone is never dead: the anchor's
    repair (:func:`_repair`) will move other inputs with it.

    An anchor that moves an input to such a value almost never has a flip along the inputs it keeps: a gate
    that the moved value makes reject is read by no kept input (Buffett: business model, management, the
    economic moat's floors), or no kept input's range reaches its boundary (the price multiple above what any
    growth could justify). Those anchors were 55% of the anchors drawn on the bench card, each drawn,
    repaired against the constraints and searched along every kept input for nothing; :func:`_anchor` now
    drops an anchor with such a move as soon as its values are drawn. With ``scenario`` (the run's base, whose
    facts are ``facts``), a flip whose item would be refused (:func:`_kept_flip`: a card constraint broken, a
    fact outside its era on the base's date) counts as none (s42anchor: on the bench card most flips from a
    2024 anchor crossed the price-of-growth floor; searched, they were refused one by one).
    A pure function of the frame, ``facts``, ``names`` and the move
    (remembered per frame for the facts of the last scenario asked about, at most ``DEAD_MEMO_LIMIT``
    moves), so a run's items do not depend on what a process asked before.
    """
    held = frame.memo.get("dead_moves")
    key = (tuple(facts.items()), tuple(names), scenario.as_of if scenario is not None else None, scenario is None)
    if held is None or held[0] != key or len(held[1]) >= DEAD_MEMO_LIMIT:
        held = frame.memo["dead_moves"] = (key, {})
    memo: dict[Any, bool] = held[1]

    def dead(name: str, value: Any) -> bool:
        k = (name, type(value), value)
        found = memo.get(k)
        if found is None:
            moved = {**facts, name: value}
            partners = _tied_partners(frame, facts, moved, (name,)) if tied_rules(frame) and not frame.deck else None
            if partners:  # the anchor's repair moves these with it (:func:`_repair`): the screen judges that anchor
                moved.update(partners)
            if frame.breaks_constraint(facts, moved, (name, *(partners or ()))):
                # the anchor's repair will move the others (Dalio: QE brings the real rate down): not ruled out
                found = memo[k] = False
            else:
                before = frame.swept_outcomes(moved)
                # whether a business move answers an era bound does not depend on the order values are tried in:
                # a fixed generator keeps the screen a pure function (no draw of the attempt's own is used)
                kept = (_kept_flip(frame, scenario, moved, (name,), random.Random(0), [])
                        if scenario is not None else None)
                found = memo[k] = all(
                    f is None or (kept is not None and not kept(f))
                    for f in (find_flip(frame, moved, other, before=before, scan_limit=0)
                              for other in names if other != name))
        return found

    return dead


def _base_flips(frame: Frame, facts: Mapping[str, Any], names: Sequence[str]) -> bool:
    """True when ``facts`` (the run's base) have a verdict flip along some input of ``names``
    (:func:`find_flip` as :func:`_dead_move` searches), remembered per frame for the last base asked about.

    The anchor screen (:func:`_dead_move`) judges each move of an anchor alone, which is sound when the base
    is one move from a flip. A base held by two kills at once has none: every single move is "dead" and the
    screen dropped every anchor, so an anchor that moves both (predictability and growth, or predictability
    and the price) was never searched (s53rfix, s52review trip: BUFFETT-OE-004, unpredictable and growing 12%
    over a 10% discount, made 0 flip items in 64 attempts). On such a base anchors are searched unscreened.
    """
    key = (tuple(facts.items()), tuple(names))
    held = frame.memo.get("base_flips")
    if held is None or held[0] != key:
        before = frame.swept_outcomes(facts)
        found = any(find_flip(frame, facts, n, before=before, scan_limit=0) is not None for n in names)
        held = frame.memo["base_flips"] = (key, found)
    return bool(held[1])


#: :func:`_dead_move` remembers at most this many moves from one scenario (then starts again).
DEAD_MEMO_LIMIT = 1 << 14


def _first_flip(frame: Frame, facts: Mapping[str, Any], names: Sequence[str], anchor: Sequence[str],
                keep: Callable[[Flip], bool] | None = None) -> Flip | None:
    """The nearest flip along the first of ``names`` that has one (and that ``keep`` takes, when given: the
    flip's item would not be refused, :func:`_kept_flip`), from an anchor (``verdict_flip``).

    The flip along one input is a function of the facts alone
    (:func:`find_flip` from the facts' own verdicts), so the flips found
    from one set of facts are remembered per frame, input by input, whatever
    order a later attempt tries them in (a run draws the same anchor again
    and again when N is large; the name order only says which is taken).
    """
    try:
        key: Any = tuple(facts.items())
        hash(key)
    except TypeError:
        key = None
    memo = frame.memo.get("first_flip")
    if memo is None:
        memo = frame.memo["first_flip"] = _Recent(ANCHOR_MEMO_LIMIT)
    found: dict[str, Flip | None] | None = memo.get(key, None) if key is not None else None
    # equal facts may still write a number differently (0.5, 0.50): the flip's base is shown as written
    if found is None or any(f is not None and str(f.base) != str(facts[f.input]) for f in found.values()):
        found = {}
        if key is not None:
            memo[key] = found
    before: tuple[str, ...] | None = None
    # A flip along an input the anchor moved undoes the anchor's draw of it: on the bench card 55% of such
    # items were duplicates. With more inputs to search than an anchor can move, they are not searched (another
    # anchor is drawn instead); with few (Marks' cycle card), they come last, after every input the anchor kept.
    if len(names) > ANCHOR_INPUTS + 1:
        order = [n for n in names if n not in anchor]
    else:
        order = [n for n in names if n not in anchor] + [n for n in names if n in anchor and len(anchor) > 1]
    for name in order:
        if name in found:
            best = found[name]
        else:
            if before is None:
                before = frame.swept_outcomes(facts)
            best = found[name] = find_flip(frame, facts, name, before=before, scan_limit=0)
        if best is not None and (keep is None or keep(best)):
            return best
    return None


def _kept_flip(frame: Frame, scenario: PScenario, facts: Mapping[str, Any], anchor: Sequence[str],
               rng: random.Random, rescued: list[Any]) -> Callable[[Flip], bool]:
    """``keep(flip)`` for :func:`_first_flip` from the anchor ``facts``: False when the flip's item would be
    refused (s42anchor, issue 18 bar line 7), so the search goes on along the next input, then the next anchor.

    Refused: the flipped facts break a card constraint (read from ``scenario``, what the anchor moved and the
    flipped input with its tied partners), or, on a dated scenario whose date the flip keeps (no input that
    describes the day moved), state a fact outside its era (:meth:`Frame.dated_anachronisms` over
    :func:`~ipb.perturb.flip_era.timed_inputs`, as generation refuses it) that no move of the business
    (:func:`~ipb.perturb.flip_era.off_era_bound`) answers; such a move is put in ``rescued`` (the caller
    takes it). Before, a flip across 2024's price-of-growth floor was searched, built and refused, and
    the attempt was spent: 40% of the bench card's generation time (s41speed).
    """
    day = scenario.as_of
    timed = timed_inputs(frame) if day is not None else frozenset()
    dated: tuple[str, ...] | None = frame.memo.get("dated_inputs")
    if dated is None:
        dated = frame.memo["dated_inputs"] = tuple(
            n for n, spec in frame.inputs.items() if frame.regimes.describes_the_date(spec))

    def keep(flip: Flip) -> bool:
        tied = dict(flip.tied)
        flipped = {**facts, flip.input: flip.boundary, **tied}
        if frame.breaks_constraint(scenario.facts, flipped, (*anchor, flip.input, *tied)):
            return False
        if day is None or not timed or any(flipped.get(n) != scenario.facts.get(n) for n in dated):
            return True
        if not frame.dated_anachronisms(flipped, timed, day):
            return True
        if not frame.regimes.multiples or tied:
            return False
        along = flip.input
        moved = off_era_bound(frame, facts, along, flip.boundary, day, rng,
                              lambda f: find_flip(frame, f, along, before=frame.outcomes(f)))
        if moved is None:
            return False
        rescued.append(moved)
        return True

    return keep


#: :func:`_first_flip` remembers at most twice this many anchors per frame.
ANCHOR_MEMO_LIMIT = 2048


@operator("flip", arg="the input to move (default: the input whose flip is smallest)", check=_check_flip,
          varies=True)
def verdict_flip(frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None, *,
                 attempt: int = 0) -> Step:
    """Verdict flip: the smallest change to one input that flips the final verdict.

    Every stated numeric input with a declared range (or only ``arg``) is
    searched in both directions on its grid; the smallest flip is measured
    in grid steps, ties going to the smaller share of the input's declared
    range, then to the input that comes first in the card. The new scenario
    sets that input to the boundary value: it flips the verdict, exactly,
    under the engine's decimal arithmetic, and lies visibly past the line
    (:mod:`ipb.perturb.visible`, SR13: at least its display step beyond the
    value one grid step short of the nearest flip, ``details["line"]``, which
    does not flip). For an L8 frame a flip is any change in the vector of the cards'
    final verdicts.

    With ``attempt`` above 0 (the attempts of a generation run after the
    first) the search starts from an *anchor*: the scenario with one or two
    other stated ranged inputs redrawn (``details["anchor"]``), and looks
    along the inputs in a random order, taking the nearest flip along the
    first input that has one (up to ``FLIP_ANCHORS`` anchors), by galloping
    and bisection (``details["search"]`` is ``bisect``; ``nearest`` says
    whether the input is declared monotone). Each anchor has its own boundary, so one base
    yields as many flip items as it has neighbours with a decidable
    boundary; the anchor may also change a bool or category input (a base
    held by a kill that no number can lift gets flip items this way);
    ``one_step_short`` is always the anchor's value one grid step
    before the boundary, with the anchor's verdict.

    On an L8 deck whose ``constraints:`` tie the searched input to others,
    the partners follow each probed value through the rule
    (:func:`ipb.perturb.deck_moves.follow`, a function of the value); the
    item states the boundary's partners and ``details["tied"]`` records them.

    Raises
    ------
    PerturbError
        ``not-applicable`` (no ranged numeric input), ``operator-arg``,
        ``no-candidate`` (no single-input change within the declared ranges
        flips the verdict).

    References
    ----------
    Paper §6.5 and Table 9, Perturbation B (the verdict-flipping probe).
    """
    _check_flip(frame)
    candidates = [n for n in metric_inputs(frame) if isinstance(scenario.facts.get(n), Decimal)]
    chosen = _spec_list(arg, frame, candidates, "a stated, ranged numeric input that a gate reads")
    names = list(chosen if chosen is not None else candidates)
    facts: Mapping[str, Any] = scenario.facts
    anchor: list[str] = []
    best: Flip | None = None
    if attempt > 0:
        # from the run's base (Generator sets ``anchor_base``), on a card where the inputs an anchor moves are
        # not searched, an anchor with a move after which no other input can flip is dropped unsearched
        # (_dead_move); such anchors count apart, up to SCREENED_ANCHORS, so as many are searched as before
        dead = None
        if (len(names) > ANCHOR_INPUTS + 1 and frame.memo.get("anchor_base") == scenario.facts
                and _base_flips(frame, scenario.facts, sorted(names))):
            dead = _dead_move(frame, scenario.facts, sorted(names), scenario)
        searched = screened = 0
        while searched < FLIP_ANCHORS and screened < SCREENED_ANCHORS:
            rng.shuffle(names)
            moved, anchor = _anchor(frame, scenario, rng, names[:1], dead, attempt >= WIDE_FROM)
            if moved is None:
                screened += 1
                continue
            searched += 1
            facts = moved if anchor else scenario.facts
            rescued: list[Any] = []
            best = _first_flip(frame, facts, names, anchor, _kept_flip(frame, scenario, facts, anchor, rng, rescued))
            if best is not None:
                if rescued:  # the flip crossed an era bound: the business moved (off_era_bound) answers it
                    category, _, facts, best = rescued[-1]
                    anchor = [*anchor, category] if category not in anchor else anchor
                break
    else:
        best_key: tuple[Any, ...] = ()
        before = frame.outcomes(facts)
        for order, name in enumerate(names):
            # a flip farther than the best one so far cannot win: search no farther
            flip = find_flip(frame, facts, name, limit=best.steps if best else None, before=before)
            if flip is None:
                continue
            grid = frame.grids[name]
            span = grid.hi - grid.lo
            key = (flip.steps, abs(flip.boundary - flip.base) / span if span else Decimal(0), order)
            if best is None or key < best_key:
                best, best_key = flip, key
    if best is None:
        raise PerturbError("no change to one input within its declared range flips the verdict "
                           f"({', '.join(frame.outcomes(facts))})", rule="no-candidate")
    if attempt == 0 and frame.regimes.multiples and not best.tied:
        # s41gb3: a boundary outside its era moves the business (an anchored flip was moved above: _kept_flip)
        along = best.input
        moved_off = off_era_bound(frame, facts, along, best.boundary, scenario.as_of, rng,
                                  lambda f: find_flip(frame, f, along, before=frame.outcomes(f)))
        if moved_off is not None:
            category, _, facts, best = moved_off
            anchor = [*anchor, category] if category not in anchor else anchor
    new_facts = {**facts, best.input: best.boundary, **dict(best.tied)}
    # literal texts through the frame's memo (the same text: ``literal`` writes equal values alike, normalised)
    said = _literal_of(frame)
    details = {
        "input": best.input,
        "direction": best.direction,
        "base": said(best.input, best.base),
        "boundary": said(best.input, best.boundary),
        "one_step_short": said(best.input, best.short),
        # the nearest value that flips; the boundary is the first visibly past the line from there (SR13)
        "line": said(best.input, best.line if best.line is not None else best.boundary),
        "steps": best.steps,
        "search": best.search,
        "nearest": best.nearest,
        "verdicts_before": list(best.before),
        "verdicts_after": list(best.after),
        "anchor": {n: said(n, facts[n]) for n in anchor},
    }
    if best.tied:  # the inputs a deck rule ties to the flipped one followed it (stop 31)
        details["tied"] = {n: literal(frame.inputs[n], v) for n, v in best.tied}
    return Step("flip", scenario.with_facts(new_facts), details)


def _literal_of(frame: Frame) -> Callable[[str, Any], Any]:
    """``said(name, value)``: ``literal(frame.inputs[name], value)``, remembered in the frame's ``"literal"`` memo
    (:func:`~ipb.perturb.frame.cached_text`, which :func:`~ipb.perturb.frame.fact_literals` also fills)."""
    def said(name: str, value: Any) -> Any:
        return cached_text(frame, "literal", name, value, literal)
    return said


# gate isolation lives in its own module (s44items split); importing it registers the ``isolate`` operator
from ipb.perturb.isolate import ISOLATE_SAMPLES, UNREACHED, _alternatives, gate_isolation  # noqa: E402,F401
