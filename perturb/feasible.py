"""Constraint-aware draws: the grid values of one input that keep the card's constraints (issue 18, item 1).

Metric substitution draws a numeric input uniformly on its declared grid
(paper §6.5, operator (i)). When a card's ``constraints:`` tie that input to
others (Berkshire's class A price within its band for the decision's year,
intrinsic value within twice the price), most uniform draws break a
constraint and the candidate is rejected: on ``buffett_share_repurchase`` 84%
of metric draws were (s24qual). This module finds, for one input with every
other fact fixed, the values of its grid under which every constraint that
reads it holds, so the operator can redraw there instead. On a card that
derives an input (``derive:``), the constraints an input reaches through the
derived one count too, each evaluated on the recomputed facts, with the
derived value held to its declared range (s28review).

How the set is found: the constraint expressions compare sums, products and
ratios of inputs, so with the other facts fixed each comparison is true on a
prefix or a suffix of the grid and the feasible values form a few intervals.
Grids of at most ``EXACT_LIMIT`` values are checked value by value (exact).
Longer grids are probed at ``SAMPLES`` evenly spaced values and at
geometrically spaced values around the input's current value, and each
change between neighbouring probes is located by bisection, so every
boundary between probes is exact; an interval of feasible values that lies
wholly between two infeasible probes is missed, and a hole of that width
inside a feasible stretch is not seen. Neither can let a bad item through: the generator still checks every
candidate against every constraint and rejects what breaks one (the
rejection stays in the run report).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from ipb.perturb.frame import Frame, shared_range
from ipb.perturb.values import Grid

__all__ = ["SAMPLES", "EXACT_LIMIT", "Check", "constraint_checks", "checks_without_pending", "era_checks",
           "feasible_intervals", "redraw_if_broken"]

#: Grids with at most this many values are checked value by value.
EXACT_LIMIT = 64
#: Evenly spaced probes (both ends included) on a longer grid before bisection.
SAMPLES = 65
#: Feasible sets remembered per frame before the memo is cleared (memory stays flat in N).
MEMO_LIMIT = 4096
#: ``(count, near)`` pairs whose probe indices :func:`feasible_intervals` remembers per process (:func:`_probe_points`).
PROBE_MEMO = 4096

Check = Callable[[Mapping[str, Any]], Any]


def constraint_checks(frame: Frame, name: str) -> tuple[tuple[Check, frozenset[str]], ...]:
    """The constraints input ``name`` reaches (card rules and deck rules), each as a check and the names it reads.

    Parameters
    ----------
    frame:
        The frame whose cards' ``constraints:`` and deck rules (``frame.deck``) are read.
    name:
        An input of the frame.

    Returns
    -------
    tuple of (check, names)
        One pair per constraint that reads ``name`` directly or through a derived input: ``check(env)``
        takes a scenario (input name -> engine value) and returns False when the rule is broken (True or
        None otherwise); ``names`` is the frozenset of drawn inputs it reads (derived inputs replaced by
        their sources). Empty when no constraint reaches ``name``. Remembered per frame and input.
    """
    memo = frame.memo.setdefault("feasible_checks", {})
    if name in memo:
        return memo[name]  # type: ignore[no-any-return]
    found: tuple[tuple[Check, frozenset[str]], ...]
    if frame._requires() is False:
        # a derived input (recomputed from the drawn ones) or a name outside the card's inputs: the general
        # path of Frame.violations, one check per constraint that ``name`` reaches
        found = _through_derived(frame, name)
    else:
        found = tuple((k.expr.fn, k.expr.names) for c in frame.cards for k in c.card.constraints
                      if name in k.expr.names) + tuple((k.expr.fn, k.expr.names) for k in frame.deck
                                                       if name in k.expr.names)
    memo[name] = found
    return found


def _through_derived(frame: Frame, name: str) -> tuple[tuple[Check, frozenset[str]], ...]:
    """Checks for a frame some constraint of which derives an input, as :meth:`Frame.violations` reads them.

    ``name`` reaches a constraint that reads it or an input derived (directly or through another derived
    input) from it. Each check recomputes the derived inputs (:meth:`Frame.complete`, remembered by their
    sources) and reads the card's own facts; a reached ``derive`` checks that its value stays in the derived
    input's declared range (the other ``derive`` constraints hold by construction once recomputed, except an
    input two constraints derive, which the generator still checks). The names a check reads are the drawn
    ones (derived inputs replaced by their sources), so a pending input's draw still defers it.
    """
    sources = {k.derive: k.expr.names for c in frame.cards for k in c.card.constraints if k.derive is not None}

    def drawn(names: frozenset[str]) -> frozenset[str]:
        out: set[str] = set()
        todo, seen = list(names), set()
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in sources:
                todo.extend(sources[n])
            else:
                out.add(n)
        return frozenset(out)

    found: list[tuple[Check, frozenset[str]]] = []
    derived = frame.derived
    check: Check
    for i, c in enumerate(frame.cards):
        mine = frame._card_inputs[i]
        for k in c.card.constraints:
            reads = drawn(frozenset([k.derive]) if k.derive is not None else k.expr.names)
            if name not in reads:
                continue
            # A rule that reads only the card's own inputs reads the same values from the whole scenario as from
            # the card's share of it (Frame.facts_for), so it is given the scenario without the copy (s35speed: the
            # copies were 6% of a Greenblatt run, ~2,000 an item). Constants are folded into the compiled rule.
            if k.derive is None:
                def card_share(env: Mapping[str, Any], i: int = i, fn: Check = k.expr.fn) -> Any:
                    return fn(frame.facts_for(i, env))
                rule = k.expr.fn if k.expr.names <= mine else card_share
                # a rule reading no derived input is asked as it is: complete() would change none of the values it
                # reads (s34slow: the derived value is no longer computed for a probe such a rule already refuses)
                check = rule if k.expr.names.isdisjoint(derived) else _completing(frame, rule)
            else:
                # every card's range, not the deriving card's alone (s62 new user N2: ipb verify holds the fact to
                # each range another card of an L8 frame declares for it)
                rng = shared_range(frame, k.derive)
                if rng is None:
                    continue

                def on_range(full: Mapping[str, Any], d: str = k.derive, lo: Any = rng[0], hi: Any = rng[1]) -> Any:
                    value = full.get(d)  # the derived input is the card's own (its range is read above)
                    return None if value is None else lo <= value <= hi
                check = _completing(frame, on_range)
            found.append((check, reads))
    for k in frame.deck:  # the base scenario's constraints read the whole (completed) scenario
        reads = drawn(k.expr.names)
        if name in reads:
            found.append((_completing(frame, k.expr.fn), reads))
    return tuple(found)


def _completing(frame: Frame, on_complete: Check) -> Check:
    """``env -> on_complete(frame.complete(env))``, with ``on_complete`` kept as the check's ``on_complete``
    attribute so that :func:`_all_hold` completes a scenario once for all the checks that need it."""
    def check(env: Mapping[str, Any]) -> Any:
        return on_complete(frame.complete(env))
    check.on_complete = on_complete  # type: ignore[attr-defined]
    return check


def _all_hold(frame: Frame, checks: Sequence[Check]) -> Callable[[Mapping[str, Any]], bool]:
    """``env -> all(fn(env) is not False for fn in checks)``, computed with fewer derived values.

    The checks that read no derived input run first, and the derived inputs are recomputed
    (:meth:`Frame.complete`) once, only when those all hold. The answer is the same as the plain
    conjunction in any order: each check is a pure function of the scenario, and "no check is False" does
    not depend on the order they are asked in (s34slow: Greenblatt's place, a long exact expression, was
    recomputed for every probe of a feasible-set search, ~230 times an item, most of it for probes a
    cheap rule refuses).
    """
    plain = tuple(fn for fn in checks if getattr(fn, "on_complete", None) is None)
    full = tuple(fn.on_complete for fn in checks if getattr(fn, "on_complete", None) is not None)  # type: ignore[attr-defined]
    # plain loops, not all() over a generator: a probe of a feasible-set search is a few checks, and the
    # generator's frame cost as much as a check (s37speed)
    if not full:
        def hold_plain(env: Mapping[str, Any]) -> bool:
            for fn in plain:
                if fn(env) is False:
                    return False
            return True
        return hold_plain

    def hold(env: Mapping[str, Any]) -> bool:
        for fn in plain:
            if fn(env) is False:
                return False
        done = frame.complete(env)
        for fn in full:
            if fn(done) is False:
                return False
        return True
    return hold


def _hold_for(frame: Frame, checks: Sequence[tuple[Check, frozenset[str]]]) -> Callable[[Mapping[str, Any]], bool]:
    """:func:`_all_hold` of the checks of ``checks`` (pairs of check and names), made once per frame and tuple (the
    tuples come from the memos of :func:`constraint_checks` and :func:`checks_without_pending`; held with the
    function, so an id is not reused while remembered)."""
    memo = frame.memo.setdefault("feasible_hold", {})
    held = memo.get(id(checks))
    if held is None or held[0] is not checks:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        held = memo[id(checks)] = (checks, _all_hold(frame, [fn for fn, _ in checks]))
    return held[1]  # type: ignore[no-any-return]


def era_checks(frame: Frame, name: str, day: int | dt.date | None) -> tuple[tuple[Check, frozenset[str]], ...]:
    """The era bounds on a quotient that reads ``name`` (``multiples`` of ``frameworks/regimes.yaml`` with ``of``)
    as checks on a scenario dated ``day``, each with the inputs it reads (s42anchor, issue 18 bar line 7).

    A check is False when the scenario states the quotient outside its era's bounds on ``day``
    (:func:`ipb.perturb.multiples.ratio_anachronisms`: both inputs stated, the bound's conditions met, the
    denominator above zero), as generation's dated refusal finds it: 2024's price of subscription-software
    growth (``ev_to_arr / revenue_growth`` at least 15x, 20x from $2B of revenue), a large consumer-staples
    company's EV/EBIT in the autumn of 2008. Empty when ``day`` is None or no such bound reads ``name`` or
    bounds anything on ``day``; remembered per frame, ``name`` and ``day``.
    """
    if day is None or not frame.regimes.multiples:
        return ()
    memo = frame.memo.setdefault("era_checks", {})
    key = (name, day)
    held = memo.get(key)
    if held is None:
        from ipb.perturb.multiples import ratio_outside

        def check_for(bound: Any) -> Check:
            one = (bound,)
            return lambda env: not ratio_outside(one, env, day)

        bounds = [m for m in frame.regimes.multiples if len(m.of) == 2 and name in m.reads
                  and (m.bound(day) is not None or m.floor(day) is not None)]
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        held = memo[key] = tuple((check_for(m), frozenset(m.reads)) for m in bounds)
    return held  # type: ignore[no-any-return]


def _with_era(frame: Frame, name: str, day: int | dt.date,
              checks: tuple[tuple[Check, frozenset[str]], ...]) -> tuple[tuple[Check, frozenset[str]], ...]:
    """``checks`` (:func:`constraint_checks` of ``name``) and :func:`era_checks` of ``name`` on ``day``, one tuple
    remembered per frame, ``name`` and ``day`` (so the memos keyed by a checks tuple see one object)."""
    era = era_checks(frame, name, day)
    if not era:
        return checks
    memo = frame.memo.setdefault("checks_with_era", {})
    key = (name, day)
    held = memo.get(key)
    if held is None or held[0] is not checks:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        held = memo[key] = (checks, checks + era)
    return held[1]  # type: ignore[no-any-return]


def checks_without_pending(frame: Frame, name: str, pending: tuple[str, ...],
                           checks: tuple[tuple[Check, frozenset[str]], ...]) -> tuple[tuple[Check, frozenset[str]], ...]:
    """``checks`` (:func:`constraint_checks` of ``name``) less those that read an input of ``pending``.

    Parameters
    ----------
    name:
        The input ``checks`` belong to (the memo key, with ``pending``).
    pending:
        Inputs drawn later in the same step: a rule reading one is left to that input's draw.
    checks:
        ``constraint_checks(frame, name)``, pairs of (check, names read).

    Returns
    -------
    tuple of (check, names)
        The pairs whose names read no input of ``pending``, in their order; remembered per frame, ``name``
        and ``pending``.
    """
    memo = frame.memo.setdefault("feasible_without", {})
    key = (name, pending, id(checks))  # with or without a day's era checks (s42anchor): held with them
    held = memo.get(key)
    if held is None or held[0] is not checks:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        held = memo[key] = (checks, tuple(c for c in checks if not c[1].intersection(pending)))
    return held[1]  # type: ignore[no-any-return]


def feasible_intervals(ok: Callable[[int], bool], count: int,
                       near: int | Sequence[int] | None = None) -> list[tuple[int, int]]:
    """The index intervals ``[lo, hi]`` (inclusive, ascending) of ``range(count)`` where ``ok`` holds.

    Exact for ``count <= EXACT_LIMIT``; otherwise exact at every change of
    ``ok`` between the probes (located by bisection), blind to a change and
    its reversal that both fall between two probes. The probes are
    ``SAMPLES`` evenly spaced indices, plus, when ``near`` is given, ``near``
    itself and ``near ± 2**j``: a narrow stretch around the current value
    (a price within five times a $60 value on a $1-$700K grid) is found at
    any scale. ``near`` may be several indices (each probed so).

    Examples
    --------
    >>> feasible_intervals(lambda k: 3 <= k <= 5 or k == 9, 10)
    [(3, 5), (9, 9)]
    >>> feasible_intervals(lambda k: 40_000 <= k < 55_000, 700_000)
    [(40000, 54999)]
    >>> feasible_intervals(lambda k: 11 <= k < 300, 700_000)  # between two probes: missed
    []
    >>> feasible_intervals(lambda k: 11 <= k < 300, 700_000, near=109)
    [(11, 299)]
    >>> feasible_intervals(lambda k: 11 <= k < 300, 700_000, near=[650_000, 109])
    [(11, 299)]
    """
    if count <= 0:
        return []
    probes = _probe_points(count, near if near is None or isinstance(near, int) else tuple(near))
    results = [ok(k) for k in probes]
    out: list[tuple[int, int]] = []
    start = probes[0] if results[0] else None
    for (a, ra), (b, rb) in zip(zip(probes, results), zip(probes[1:], results[1:])):
        if ra == rb:
            continue
        lo, hi = a, b  # ok(lo) == ra, ok(hi) == rb: the change lies in (lo, hi]
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ok(mid) == ra:
                lo = mid
            else:
                hi = mid
        if ra:
            assert start is not None
            out.append((start, lo))
            start = None
        else:
            start = hi
    if start is not None:
        out.append((start, probes[-1]))
    return out


@lru_cache(maxsize=PROBE_MEMO)
def _probe_points(count: int, near: int | tuple[int, ...] | None) -> tuple[int, ...]:
    """The ascending indices :func:`feasible_intervals` probes first on ``range(count)`` (``count`` > 0), per process.

    Every index when ``count <= EXACT_LIMIT``; otherwise ``SAMPLES`` evenly spaced indices, plus each index of
    ``near`` inside the range and ``near ± 2**j``. A pure function of ``count`` and ``near``: building the set took
    about as long as the probes it answers (65-100 us a search on the bench machine, a search per redrawn anchor
    input; s64speed, issue 18 item 7). At most ``PROBE_MEMO`` pairs are held (memory flat in N).

    >>> _probe_points(5, None), _probe_points(200, 100)[:4], len(_probe_points(200, 100))
    ((0, 1, 2, 3, 4), (0, 3, 6, 9), 74)
    """
    if count <= EXACT_LIMIT:
        return tuple(range(count))
    found = {(i * (count - 1)) // (SAMPLES - 1) for i in range(SAMPLES)}
    for at in ((near,) if isinstance(near, int) else (near or ())):
        if not 0 <= at < count:
            continue
        found.add(at)
        step = 1
        while step < count:
            found.update(k for k in (at - step, at + step) if 0 <= k < count)
            step *= 2
    return tuple(sorted(found))


def _intervals(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid,
               checks: Sequence[tuple[Check, frozenset[str]]], near: int | None) -> list[tuple[int, int]]:
    """:func:`feasible_intervals` of ``name`` with the other facts fixed, remembered by what the checks read."""
    # the names the checks read besides ``name``, sorted, once per frame, name and checks tuple (the tuples come
    # from per-frame memos and are held here with their names, so an id is not reused while remembered; s41speed)
    by_checks = frame.memo.setdefault("feasible_reads", {})
    held_reads = by_checks.get((name, id(checks)))
    if held_reads is None or held_reads[0] is not checks:
        if len(by_checks) >= MEMO_LIMIT:
            by_checks.clear()
        held_reads = by_checks[(name, id(checks))] = (
            checks, tuple(sorted(set().union(*(names for _, names in checks)) - {name})))
    # the checks read these names (a tuple per checks tuple): two sets of checks on the same facts, such as those
    # with a day's era bounds and those without (s42anchor), are not one feasible set
    key = (name, near, held_reads[1], tuple(map(facts.get, held_reads[1])), len(checks))
    memo = frame.memo.setdefault("feasible", {})
    held = memo.get(key)
    if held is None:
        held = feasible_intervals(_ok(frame, facts, name, grid, checks), grid.count, near)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = held
    return held  # type: ignore[no-any-return]


def _ok(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid,
        checks: Sequence[tuple[Check, frozenset[str]]]) -> Callable[[int], bool]:
    """``ok(k)`` of a feasible-set search: the constraints whose comparisons are monotone in ``name`` answered from
    their exact set (:func:`ipb.perturb.monotone.exact_spans`, a few evaluations per comparison instead of one per
    probe), the others asked at each probe (:func:`_probe`). Every probe gets the answer of asking every check, so
    the search finds the same intervals (s62speed, issue 18 item 7: the probes of a search were ~70 a search, 2,559
    searches at 3,000 bench items)."""
    from ipb.perturb.monotone import exact_spans, inside

    if any(getattr(fn, "on_complete", None) is not None for fn, _ in checks):
        return _probe(frame, facts, name, grid, checks)
    exact = exact_spans(frame, facts, name, grid, checks)
    if exact is None:
        return _probe(frame, facts, name, grid, checks)
    spans, rest = exact
    held = inside(spans)
    if not rest:
        return held
    asked = _probe(frame, facts, name, grid, rest)

    def ok(k: int) -> bool:
        return held(k) and asked(k)
    return ok


#: Rows of :func:`_probe` (one check's answers along one input's grid, the check's other inputs fixed) remembered
#: per frame, twice over (:func:`aged_row`; memory stays flat in N; a row holds at most a grid's values).
ROW_LIMIT = 1024


def aged_row(memo: dict[str, Any], slot: str, limit: int, key: Any) -> dict[Any, bool]:
    """The row of remembered answers under ``key`` in ``memo[slot]``, made empty when new; two generations.

    ``memo[slot]`` holds the young rows and ``memo[slot + "_old"]`` the ones before them: a row found among the
    old is moved to the young; when the young hold ``limit`` rows they become the old (the old ones are
    dropped). So at most ``2 * limit`` rows are held (memory flat in N), and the rows a long run keeps asking
    survive a turnover (s61speed: the rows were all dropped at once, 7 times in 2,000 bench items). Which rows
    are held changes only how often an answer is computed, never the answer (the checks are pure).

    >>> memo = {}
    >>> a = aged_row(memo, "rows", 2, "a"); a[1] = True
    >>> _ = aged_row(memo, "rows", 2, "b"); _ = aged_row(memo, "rows", 2, "c")  # the young were full: "a" is old
    >>> aged_row(memo, "rows", 2, "a") is a, sorted(memo["rows"]), sorted(memo["rows_old"])
    (True, ['a', 'c'], ['b'])
    """
    young = memo.get(slot)
    if young is None:
        young = memo[slot] = {}
    row = young.get(key)
    if row is not None:
        return row  # type: ignore[no-any-return]
    old = memo.get(slot + "_old")
    row = old.pop(key, None) if old else None
    if len(young) >= limit:
        memo[slot + "_old"] = young
        young = memo[slot] = {}
    if row is None:
        row = {}
    young[key] = row
    return row  # type: ignore[no-any-return]


def _probe(frame: Frame, facts: Mapping[str, Any], name: str, grid: Grid,
           checks: Sequence[tuple[Check, frozenset[str]]]) -> Callable[[int], bool]:
    """``ok(k)``: whether every check of ``checks`` holds with ``name`` at grid index ``k`` and the other facts as
    in ``facts``, for :func:`feasible_intervals`.

    Each check's answers along the grid are remembered per frame by the check and the values of the other
    inputs it reads (s57speedgen: a flip's anchors move one to three inputs of the run's base, so most checks of
    a feasible-set search read the same other values as some search before, though the whole set of facts the
    checks read seldom repeats: 1,221 searches in 10,000 bench items, none repeated, stop 39). The checks are
    asked in their order and the probe stops at the first broken one, as :func:`_all_hold`'s plain loop; a check
    that completes derived inputs (``on_complete``) sends the whole probe through :func:`_all_hold` as before.
    """
    env = dict(facts)
    if any(getattr(fn, "on_complete", None) is not None for fn, _ in checks):
        hold = _hold_for(frame, checks)

        def ok_whole(k: int) -> bool:
            env[name] = grid.value(k)
            return hold(env)
        return ok_whole
    reads = frame.memo.setdefault("probe_reads", {})
    mine = []
    for fn, names in checks:
        others = reads.get((fn, name))
        if others is None:
            others = reads[(fn, name)] = tuple(sorted(names - {name}))
        mine.append((fn, aged_row(frame.memo, "probe_rows", ROW_LIMIT, (fn, name, tuple(map(facts.get, others))))))
    value = grid.value
    if len(mine) == 1:
        fn1, row1 = mine[0]

        def ok_one(k: int) -> bool:
            broken = row1.get(k)
            if broken is None:
                env[name] = value(k)
                broken = row1[k] = fn1(env) is False
            return not broken
        return ok_one
    rows_of = [row for _, row in mine]
    last = [0]  # the position in ``mine`` of the check that broke the last probe computed (asked first next time)

    def ok(k: int) -> bool:
        # s61speed: the answers remembered are read first, all of them, and a check is computed only when none of
        # them is broken; the checks to compute start at the one that broke the last computed probe (neighbouring
        # probes of a bisection mostly break the same rule). The answer is the plain loop's (every check is a pure
        # function of the facts, and "none is False" does not depend on the order they are asked in); only which
        # answers get remembered differs (probe_rows). Before, the checks were computed in their order up to the
        # first broken one, with a remembered broken answer behind them: 178,502 probes and ~950,000 rule
        # closures at 3,000 bench items.
        unknown = False
        for row in rows_of:
            broken = row.get(k)
            if broken is None:
                unknown = True
            elif broken:
                return False
        if not unknown:
            return True
        env[name] = value(k)
        start = last[0]
        count = len(mine)
        for i in range(count):
            j = start + i
            if j >= count:
                j -= count
            fn, row = mine[j]
            if k in row:
                continue  # known, and not broken (read above)
            broken = row[k] = fn(env) is False
            if broken:
                last[0] = j
                return False
        return True
    return ok


def redraw_if_broken(frame: Frame, facts: Mapping[str, Any], name: str, rng: random.Random, avoid: Any,
                     pending: Sequence[str] = (), day: int | dt.date | None = None,
                     within: Grid | None = None) -> Decimal:
    """``facts[name]`` (a uniform draw) if it keeps the constraints, else a uniform draw of the values that do.

    Parameters
    ----------
    facts:
        The scenario's facts with ``name`` at its new, uniformly drawn value
        (inputs drawn earlier in the same step already hold theirs); not
        modified.
    avoid:
        The value ``name`` had before the draw; never drawn again.
    pending:
        Inputs the same step draws after ``name``: a constraint that reads
        one of them is left to that input's draw (it is checked there, with
        ``name`` fixed).
    day:
        The scenario's date (a day or a year), or None: the era bounds on a quotient that reads ``name`` on
        that date (:func:`era_checks`) count as constraints too, so a draw is made inside the era's floor
        instead of refused by generation after it (s42anchor: 2024's price of subscription-software growth).
    within:
        The part of the input's grid the first draw was made on (a sector's range clipped to the card's,
        on the card's step), or None for the whole grid: a redraw stays on it too, so a sector move whose
        draw broke a card rule is drawn again inside the sector's range, not over the card's whole range
        (s53rfix, s52review kind 6: a Lynch utility moved to enterprise software was redrawn to a 4x P/E and
        a 5% yield, the sector's 20-60x and 0-2% left; 15 of 250 sector items).

    Returns
    -------
    Decimal
        ``facts[name]`` when every constraint that reads ``name`` (and no
        pending input) holds with it, or when no other grid value would (the
        candidate is then rejected by the generator, as before); otherwise a
        value drawn uniformly on the feasible grid values other than ``avoid``.
        No random number is consumed unless the draw breaks a constraint, so
        a card whose draws keep its constraints gets the same items as with
        plain draws.
    """
    value: Decimal = facts[name]
    checks = constraint_checks(frame, name)
    if day is not None:
        checks = _with_era(frame, name, day, checks)
    if not checks:
        return value
    if pending:
        checks = checks_without_pending(frame, name, tuple(pending), checks)
        if not checks:
            return value
    if _hold_for(frame, checks)(facts):
        return value
    grid = frame.grids[name]
    skip = grid.index_of(avoid) if isinstance(avoid, Decimal) else None
    intervals = _intervals(frame, facts, name, grid, checks, skip)
    if within is not None:  # the same step: the clipped grid's values are a run of indices of the whole one
        first = grid.below(within.lo)
        last = first + within.count - 1
        intervals = [(max(lo, first), min(hi, last)) for lo, hi in intervals if hi >= first and lo <= last]
    total = sum(hi - lo + 1 for lo, hi in intervals)
    if skip is not None and any(lo <= skip <= hi for lo, hi in intervals):
        total -= 1
    if total <= 0:
        return value
    k = rng.randrange(total)
    for lo, hi in intervals:
        for_here = hi - lo + 1
        if skip is not None and lo <= skip <= hi:
            if k < for_here - 1:
                index = lo + k
                return grid.value(index + 1 if index >= skip else index)
            k -= for_here - 1
        else:
            if k < for_here:
                return grid.value(lo + k)
            k -= for_here
    raise AssertionError("unreachable: k < total")  # pragma: no cover
