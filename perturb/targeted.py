"""The operators aimed at a verdict: ``flip`` (the smallest change to one input that flips the
final verdict) and ``isolate`` (a change that moves exactly one named gate), paper §6.5.

Registered on the same registry as the other operators (:func:`ipb.perturb.operators.operator`);
:mod:`ipb.perturb.operators` imports this module at its end, so asking for an operator by name
finds these too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence

from ipb.engine.execute import execute
from ipb.engine.logic import Verdict
from ipb.errors import PerturbError, did_you_mean
from ipb.perturb.deck_moves import deck_tied, follow
from ipb.perturb.flip_era import off_era_bound, timed_inputs
from ipb.perturb.multiples import ratio_anachronisms
from ipb.perturb.frame import ConstantLine, Frame, PScenario, cached_text, ordered_inputs
from ipb.perturb.values import Grid, literal

from ipb.perturb.operators import Step, _draw, _not_applicable, _spec_list, metric_inputs, operator

__all__ = ["Flip", "find_flip", "verdict_flip", "gate_isolation", "UNREACHED"]


# --------------------------------------------------------------------------- verdict flip


@dataclass(frozen=True)
class Flip:
    """The nearest value of one input that flips the final verdict.

    ``boundary`` flips it; ``short`` (one grid step nearer the base value, or
    the base value itself) does not. ``steps`` counts grid values from the
    base to the boundary; ``search`` is ``scan`` (every grid value checked in
    order) or ``bisect`` (galloping then bisection, for directions longer
    than ``SCAN_LIMIT``); ``nearest`` is True when no nearer flip can exist:
    after a scan, or a bisection along an input every reading gate declares
    ``monotone``. Either way the boundary flips and the value one step short
    does not.
    """

    input: str
    direction: str
    base: Decimal
    boundary: Decimal
    short: Decimal
    steps: int
    search: str
    nearest: bool
    before: tuple[str, ...]
    after: tuple[str, ...]
    #: On an L8 deck, the inputs that follow ``input`` to the boundary through the deck's rules, as
    #: (name, engine value) pairs (:func:`ipb.perturb.deck_moves.follow`); empty otherwise.
    tied: tuple[tuple[str, Any], ...] = ()


#: Directions with more grid values than this are searched by galloping and bisection.
SCAN_LIMIT = 128


def _monotone(frame: Frame, name: str) -> bool:
    gates = frame.consumers.get(name, ())
    declared = {(c.card.id, g.id) for c in frame.cards for g in c.card.gates if name in g.monotone}
    return bool(gates) and all(tuple(k.split("/", 1)) in declared for k in gates)


@lru_cache(maxsize=4096)
def _probes(length: int) -> list[int]:
    """Galloping probes along a direction of ``length`` grid values: 0, 1, 3, 7, ... and the last."""
    return sorted({min(2 ** k - 1, length - 1) for k in range(length.bit_length() + 1)})


def _direction(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid, base: Decimal, up: bool,
               before: tuple[str, ...], limit: int | None = None, scan_limit: int = SCAN_LIMIT,
               line: Callable[[Sequence[Any]], list[tuple[str, ...]]] | None = None) -> Flip | None:
    """The nearest flip along one direction, looking at most ``limit`` grid steps away (``line``:
    :meth:`Frame.line` of ``facts`` and ``name``, shared by both directions)."""
    below = grid.below(base)
    on_grid = grid.index_of(base) is not None
    if up:
        start = below + (1 if on_grid else 0)
        length = grid.count - start

        def at(t: int) -> Decimal:
            return grid.value(start + t)
    else:
        length = below

        def at(t: int) -> Decimal:
            return grid.value(below - 1 - t)
    full = length
    if limit is not None:
        length = min(length, limit)
    if length <= 0:
        return None

    sweep = line if line is not None else frame.line(facts, name)

    def run(ts: Sequence[int]) -> list[tuple[str, ...]]:
        return sweep([at(t) for t in ts])

    search = "scan" if full <= scan_limit else "bisect"
    if search == "scan":
        first = None
        done = 0
        size = 8
        while first is None and done < length:
            ts = range(done, min(done + size, length))
            results = run(ts)
            hit = next((i for i, r in enumerate(results) if r != before), None)
            if hit is not None:
                first, after = ts[hit], results[hit]
            done, size = ts.stop, size * 2
        if first is None:
            return None
    else:
        probes = _probes(length)
        results = run(probes)
        hit = next((i for i, r in enumerate(results) if r != before), None)
        if hit is None:
            return None
        lo = probes[hit - 1] if hit > 0 else -1  # -1 stands for the base value: no flip
        hi, after = probes[hit], results[hit]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            r = run([mid])[0]
            if r != before:
                hi, after = mid, r
            else:
                lo = mid
        first = hi
    short = at(first - 1) if first > 0 else base
    nearest = search == "scan" or _monotone(frame, name)
    return Flip(name, "up" if up else "down", base, at(first), short, first + 1, search, nearest, before, after)


def find_flip(frame: Frame, facts: Mapping[str, Any], name: str, *, limit: int | None = None,
              before: tuple[str, ...] | None = None, scan_limit: int = SCAN_LIMIT) -> Flip | None:
    """The nearest verdict flip along input ``name`` (both directions), or None.

    The nearer direction wins (fewer grid steps); a tie goes to the smaller
    absolute change, then downward. ``limit`` bounds the search to that many
    grid steps from the base value. Directions longer than ``scan_limit``
    grid values are searched by galloping and bisection (0: always), which
    finds a boundary whose value one step short does not flip, though not
    always the nearest one unless the input is declared monotone.
    """
    grid = frame.grids[name]
    base = facts.get(name)
    if not isinstance(base, Decimal):
        return None
    if frame.deck and deck_tied(frame, name):
        # its partners follow it through the deck's rules, and the gates reading them move too: no sweep of
        # one input, no shortcut through the gates that do not read it, no memo keyed by them (stop 31)
        if before is None:
            before = frame.outcomes(facts)
        return _find_tied_flip(frame, facts, name, grid, base, limit, tuple(before), scan_limit)
    if frame.held_by_reject(facts, name):
        return None  # a gate that does not read it rejects: no value of it moves the verdict
    if before is None:
        before = frame.outcomes(facts)
    # the search is a function of what the line's sweep reads (Frame.line_key), so scenarios that agree on
    # that (anchors that moved inputs the moving gates do not read) share one search
    sweep = frame.line_key(facts, name)
    if sweep is None:
        return _find_flip(frame, facts, name, grid, base, limit, tuple(before), scan_limit)
    memo = frame.memo.get("find_flip")
    if memo is None:
        memo = frame.memo["find_flip"] = _Recent(FLIP_MEMO_LIMIT)
    key = (name, str(base), tuple(before), limit, scan_limit, sweep)
    found = memo.get(key, memo)
    if found is memo:
        found = memo[key] = _find_flip(frame, facts, name, grid, base, limit, tuple(before), scan_limit)
    return found  # type: ignore[return-value]


#: :func:`find_flip` remembers at most twice this many searches per frame (memory stays flat in N).
FLIP_MEMO_LIMIT = 4096


class _Recent:
    """A bounded memo: the searches of the current and the previous generation of ``limit`` entries.

    A lookup that hits the previous generation moves the entry to the
    current one, so what recurs stays; when the current generation is full
    it becomes the previous one (the older is dropped). What it holds never
    changes a result, only how often a search is repeated.
    """

    __slots__ = ("limit", "new", "old")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.new: dict[Any, Any] = {}
        self.old: dict[Any, Any] = {}

    def get(self, key: Any, default: Any) -> Any:
        found = self.new.get(key, default)
        if found is default:
            found = self.old.get(key, default)
            if found is not default:
                self[key] = found
        return found

    def __setitem__(self, key: Any, value: Any) -> None:
        if len(self.new) >= self.limit:
            self.old, self.new = self.new, {}
        self.new[key] = value


def _find_flip(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid, base: Decimal, limit: int | None,
               before: tuple[str, ...], scan_limit: int) -> Flip | None:
    line = frame.line(facts, name)
    if isinstance(line, ConstantLine) and line.outcomes == tuple(before):
        return None  # no card's verdict moves along this input: every probe would give ``before``
    down = _direction(frame, facts, name, grid, base, False, before, limit, scan_limit, line)
    up_limit = limit if down is None else (down.steps if limit is None else min(limit, down.steps))
    up = _direction(frame, facts, name, grid, base, True, before, up_limit, scan_limit, line)
    found = [f for f in (down, up) if f is not None]
    if not found:
        return None
    return min(found, key=lambda f: (f.steps, abs(f.boundary - f.base), f.direction != "down"))


def _find_tied_flip(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid, base: Decimal,
                    limit: int | None, before: tuple[str, ...], scan_limit: int) -> Flip | None:
    """:func:`_find_flip` along an input an L8 deck rule ties to others: at each value its partners follow.

    Each probed value is executed with the partners :func:`~ipb.perturb.deck_moves.follow` gives it (a pure
    function of the value); a value no partner can follow, or at which a constraint reading the input or a
    partner breaks, counts as no flip (reads ``before``), so the boundary found is a value a scenario of
    the deck can state: it flips the verdict with its partners, and the value one step short, with its own
    partners, does not (or is a value the rules exclude). Before stop 31 the flip moved the input alone and
    67% of its attempts on the bundled deck base broke a deck rule and were rejected.
    """

    def line(values: Sequence[Any]) -> list[tuple[str, ...]]:
        scenarios: list[dict[str, Any]] = []
        where: list[int] = []
        out: list[tuple[str, ...]] = [before] * len(values)
        for i, v in enumerate(values):
            partners = follow(frame, facts, name, v, base)
            if partners is not None:
                scenarios.append({**facts, name: v, **partners})
                where.append(i)
        for i, outcome in zip(where, frame.outcomes_many(scenarios) if scenarios else ()):
            out[i] = outcome
        return out

    down = _direction(frame, facts, name, grid, base, False, before, limit, scan_limit, line)
    up_limit = limit if down is None else (down.steps if limit is None else min(limit, down.steps))
    up = _direction(frame, facts, name, grid, base, True, before, up_limit, scan_limit, line)
    found = [f for f in (down, up) if f is not None]
    if not found:
        return None
    best = min(found, key=lambda f: (f.steps, abs(f.boundary - f.base), f.direction != "down"))
    partners = follow(frame, facts, name, best.boundary, base) or {}
    return replace(best, tied=tuple(partners.items())) if partners else best


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
    pool, numeric = _anchor_pool(frame, tuple(keep))
    if not pool:
        return {}, []
    rests = _anchor_rests(frame, tuple(keep), tuple(pool))
    numeric_rests = _anchor_rests(frame, tuple(keep), tuple(numeric)) if wide and dead is not None else {}
    # what each input's draw needs from its current value, remembered per frame (anchors are drawn again and again
    # from the same facts); the pool is in input order, so a draw's inputs are put in order by their positions
    ways: dict[tuple[Any, ...], tuple[Any, ...]] = frame.memo.setdefault("draw_ways", {})
    position: dict[str, int] | None = frame.memo.get("input_position")
    if position is None:
        ordered_inputs(frame, ())  # makes the frame's table of input positions
        position = frame.memo["input_position"]
    day = scenario.as_of if frame.regimes.multiples else None
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
        moved = dict(facts)
        changed = []
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
                if not others:
                    continue
                value = rng.choice(others)
            moved[name] = value
            changed.append(name)
        if not changed:
            continue
        if dead is not None and any(dead(name, moved[name]) for name in changed):
            return None, changed  # a move no kept input can answer: the flip draws its next anchor
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
    return day is not None and bool(ratio_anachronisms(frame.regimes.multiples, facts, day))


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
            if frame.breaks_constraint(facts, moved, (name,)):
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
    under the engine's decimal arithmetic, and the value one step short does
    not. For an L8 frame a flip is any change in the vector of the cards'
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
        if len(names) > ANCHOR_INPUTS + 1 and frame.memo.get("anchor_base") == scenario.facts:
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


# --------------------------------------------------------------------------- gate isolation

#: At most this many values of one numeric input are tried when isolating a gate.
ISOLATE_SAMPLES = 24
#: The error of an isolate attempt whose isolated gate(s) the card's own run never reaches (an earlier gate stops
#: the chain first, so the gold shows the gate N/A); the run summary counts these (``RecipeReport.unreached``).
UNREACHED = "isolated gate not reached: "


def _check_isolate(frame: Frame) -> None:
    if not any(_isolation_inputs(frame, key) for key in frame.gate_keys()):
        raise _not_applicable(frame, "has no gate that reads an input with more than one possible value")


def _isolation_inputs(frame: Frame, gate_key: str) -> list[str]:
    """The inputs a change of which may isolate gate ``gate_key``, in input order (per frame)."""
    memo = frame.memo.setdefault("isolation_inputs", {})
    held = memo.get(gate_key)
    if held is None:
        held = memo[gate_key] = tuple(
            name for name, gates in frame.consumers.items()
            if gate_key in gates and name not in frame.derived
            and (name in frame.grids or frame.inputs[name].type in ("bool", "category")))
    return list(held)


def _reached(frame: Frame, facts: Mapping[str, Any], target: str) -> bool:
    """True when the card's own run on ``facts`` (derived inputs computed, not diagnostic mode) reaches gate
    ``target`` (``card_id/gate_id``): the item's gold then gives the gate a verdict, not N/A."""
    card_id, gate_id = target.split("/", 1)
    index = frame.card_ids.index(card_id)
    trace = execute(frame.cards[index], frame.facts_for(index, frame.complete(facts)))
    return any(r.gate.id == gate_id and r.verdict is not Verdict.NOT_REACHED for r in trace.gates)


def _resolve_gate(frame: Frame, arg: str) -> str:
    keys = frame.gate_keys()
    if arg in keys:
        return arg
    matches = [k for k in keys if "/" not in arg and k.split("/", 1)[1] == arg]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise PerturbError(f"gate {arg!r} is in several cards; write CARD/GATE: {', '.join(matches)}",
                           rule="operator-arg", name=arg)
    gates = [k.split("/", 1)[1] for k in keys]
    raise PerturbError(f"no gate {arg!r} in card {' or '.join(frame.card_ids)}; gates: {', '.join(gates)}",
                       rule="operator-arg", name=arg, suggestion=did_you_mean(arg, gates))


def _alternatives(frame: Frame, name: str, current: Any, rng: random.Random) -> list[Any]:
    spec = frame.inputs[name]
    if spec.type == "bool":
        return [v for v in (False, True) if v != current]
    if spec.type == "category":
        return [v for v in (spec.values or ()) if v != current]
    grid = frame.grids[name]
    if grid.count <= ISOLATE_SAMPLES:
        ks = list(range(grid.count))
    else:
        ks = sorted(rng.sample(range(grid.count), ISOLATE_SAMPLES))
    return [grid.value(k) for k in ks if grid.value(k) != current]


@operator("isolate", arg="the gate (GATE or CARD/GATE) whose verdict alone changes", check=_check_isolate,
          varies=True)
def gate_isolation(frame: Frame, scenario: PScenario, rng: random.Random, arg: str | None = None, *,
                   attempt: int = 0) -> Step:
    """Gate isolation: change one input so that exactly one named gate changes verdict.

    Verdicts are compared gate by gate with every gate evaluated, including
    those a chain skipped (the engine's diagnostic mode), so a change that
    turns gate 5 of a linear chain from REJECT to PROCEED isolates gate 5
    even though gate 6 is then reached. Candidate changes are every other
    value of each category or bool input the gate reads, and up to
    ``ISOLATE_SAMPLES`` grid values of each numeric one; one of the changes
    that isolate the gate is chosen at random. With ``attempt`` above 0 the
    change is made from an anchor (one or two other ranged inputs redrawn,
    as for ``flip``; ``details["anchor"]``), so one base yields many items.

    The isolated gate is always one the card's own run reaches on the new
    facts, so the item's gold shows its verdict (``verdict_after``), never
    N/A: a target that an earlier gate's REJECT (or stopping INCONCLUSIVE)
    cuts off is passed over for the next one (s40user defect 3: 20 of 90
    isolate items of a five-gate chain showed the gate N/A). Whether a gate is
    reached depends only on the gates before it, which the change leaves as
    they were, so the next attempt (a new anchor) may reach it.

    Raises
    ------
    PerturbError
        ``not-applicable``, ``operator-arg`` (unknown gate), ``no-candidate``
        (no single-input change isolates the gate, or every gate a change
        isolates is not reached: the message then starts with ``UNREACHED``).
    """
    _check_isolate(frame)
    keys = frame.gate_keys()
    if arg is not None:
        targets = [_resolve_gate(frame, arg)]
    else:
        targets = [k for k in keys if _isolation_inputs(frame, k)]
        rng.shuffle(targets)
    anchor: list[str] = []
    if attempt > 0:
        moved, anchor = _anchor(frame, scenario, rng, ())
        assert moved is not None  # no screen: never None
        if anchor:
            scenario = scenario.with_facts(moved)
    base_profile = frame.profile(scenario.facts)
    # profiles of the changes tried, by (input, value): the targets share them (the values drawn are the same)
    seen: dict[tuple[str, type, Any], tuple[str, ...]] = {}
    lines: dict[str, Callable[[Sequence[Any]], list[tuple[str, ...]]]] = {}
    unreached: list[str] = []
    for target in targets:
        index = keys.index(target)
        hits: list[tuple[str, Any, str]] = []
        for name in _isolation_inputs(frame, target):
            values = [value for value in _alternatives(frame, name, scenario.facts.get(name), rng)
                      if not frame.breaks_constraint(scenario.facts, {**scenario.facts, name: value}, (name,))]
            todo = [value for value in values if (name, type(value), value) not in seen]
            if todo:
                line = lines.get(name)
                if line is None:
                    line = lines[name] = frame.profile_line(scenario.facts, name)
                for value, profile in zip(todo, line(todo)):
                    seen[name, type(value), value] = profile
            for value in values:
                profile = seen[name, type(value), value]
                diff = [i for i, (a, b) in enumerate(zip(base_profile, profile)) if a != b]
                if diff == [index]:
                    hits.append((name, value, profile[index]))
        if hits:
            name, value, verdict = rng.choice(hits)
            facts = {**scenario.facts, name: value}
            card_id, gate_id = target.split("/", 1)
            if not _reached(frame, facts, target):
                # an earlier gate stops the chain: the gold would show this gate N/A (s40user defect 3)
                unreached.append(target)
                continue
            old = scenario.facts.get(name)
            details = {"card": card_id, "gate": gate_id, "input": name,
                       "from": literal(frame.inputs[name], old) if old is not None else None,
                       "to": literal(frame.inputs[name], value),
                       "verdict_before": base_profile[index], "verdict_after": verdict,
                       "anchor": {n: literal(frame.inputs[n], scenario.facts[n]) for n in anchor}}
            return Step("isolate", scenario.with_facts(facts), details)
        if arg is not None and not unreached:
            raise PerturbError(f"no single-input change makes gate {target} the only gate to change verdict",
                               rule="no-candidate", name=target)
    if unreached:
        raise PerturbError(f"{UNREACHED}an earlier gate stops the chain before {', '.join(sorted(unreached))}",
                           rule="no-candidate", name=unreached[0])
    raise PerturbError("no single-input change isolates any gate", rule="no-candidate")
