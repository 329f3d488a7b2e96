"""Joint moves across an L8 deck's rules: tied inputs move together (issue 18, stop 30).

An L8 base's ``constraints:`` (:mod:`ipb.perturb.deck`) tie inputs of different
cards: the dividend card's ``sector`` to Graham's ``company_type``, its
``debt_to_equity`` to Graham's ``long_term_debt`` over ``stock_equity``. The
operators move one input at a time, and every draw had to keep every rule with
the other facts fixed, so a tied input could only move as far as its partners
allowed: on the bundled deck base no item moved the sector or the company type
(the sector operator was exhausted) and the debt-to-equity ratio moved in 6 of
1,000 items.

Here, when an operator moves an input (``metric``, ``sector`` and ``temporal``;
``isolate`` states a one-input change and keeps the rules by its own search;
``flip``'s partners follow each value its search probes, :func:`follow`, stop 31)
and a deck rule reading it
is now false, the rule's other inputs move with it so that the rule holds again:

* the partners are the rule's other inputs that the operator did not move itself
  (nor will: inputs later in the same step are left to their own draw), taken in
  an order drawn from the attempt's generator, so either side of a tie can give;
* a partner whose value still keeps every constraint that reads it (card and deck
  rules, the partners after it left to their own turn) is kept; the last partner
  of a rule is therefore the one that is moved to satisfy it;
* a numeric partner is drawn uniformly among the values of its grid that keep
  every such constraint (:func:`ipb.perturb.feasible.feasible_intervals`, exact
  on grids of up to 64 values); on a longer grid the search also probes around
  the value the rule gives when the tie is a ratio or a sum (the partner scaled
  by, or shifted by, the mover's change), so a narrow band such as a debt-to-equity
  ratio within $5M of the debt over the equity is found; where the rule pins one
  grid value, that value is the draw (the derived value);
* a category or bool partner is drawn uniformly among its other values that keep
  them (the declared order);
* when some partner has no such value, the partners are tried once more in the
  reverse order (the other side of the tie gives); when that fails too, or a rule
  still breaks, nothing moves jointly and the operator's candidate is what it was
  before (its own redraw, or the generator's rejection).

Only frames with a deck use random numbers here, so every other run makes the
same bytes. The step's ``details.tied`` records each partner's new value, and the
run summary counts the items with a joint move (``tied_moves``).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any, Callable, Collection, Mapping, Sequence

from ipb.perturb.feasible import _hold_for, _ok, aged_row, checks_without_pending, constraint_checks, feasible_intervals
from ipb.perturb.frame import Frame
from ipb.perturb.values import Grid

__all__ = ["move_tied", "move_tied_or_redraw", "untie", "follow", "follower", "deck_tied", "tied_rules", "TIE_REDRAWS"]

#: Draws of a metric input tried before its partners can follow it through the deck rules (stop 31).
TIE_REDRAWS = 32


def tied_rules(frame: Frame) -> tuple[Any, ...]:
    """The relations whose inputs move together: the L8 deck's rules, then each card's ``tie: true`` constraints
    (s47rfix: a yes/no answer and its count). Remembered per frame (``frame.memo``, emptied when the deck changes)."""
    found = frame.memo.get("tied_rules")
    if found is None:
        found = frame.memo["tied_rules"] = frame.deck + tuple(k for c in frame.cards for k in c.card.constraints
                                                              if k.tie)
    return found  # type: ignore[no-any-return]


def _movable(frame: Frame, name: str) -> bool:
    spec = frame.inputs.get(name)
    if spec is None or name in frame.derived:
        return False
    if name in frame.grids:
        return True
    return spec.type == "bool" or (spec.type == "category" and bool(spec.values))


def _index_near(grid: Grid, value: Any) -> int | None:
    if not isinstance(value, Decimal) or not value.is_finite():
        return None
    k = int((value - grid.lo) / grid.step)
    return min(max(k, 0), grid.count - 1)


def _guesses(grid: Grid, current: Any, changes: Mapping[str, tuple[Any, Any]]) -> list[int]:
    """Grid indices to probe around: the current value, and the value scaled by / shifted by each mover's change."""
    out: list[int] = []
    seeds: list[Any] = [current]
    if isinstance(current, Decimal):
        for old, new in changes.values():
            if not (isinstance(old, Decimal) and isinstance(new, Decimal)):
                continue
            if old != 0 and new != 0:
                seeds.extend((current * new / old, current * old / new))
            seeds.extend((current + (new - old), current - (new - old)))
    for v in seeds:
        k = _index_near(grid, v)
        if k is not None and k not in out:
            out.append(k)
    return out


def _draw(frame: Frame, env: dict[str, Any], name: str, checks: Sequence[Any], rng: random.Random,
          changes: Mapping[str, tuple[Any, Any]]) -> Any:
    """A value of ``name`` other than its current one under which every check holds, or None."""
    current = env.get(name)
    fns = [fn for fn, _ in checks]

    def ok_with(value: Any) -> bool:
        env[name] = value
        return all(fn(env) is not False for fn in fns)

    try:
        grid = frame.grids.get(name)
        if grid is not None:
            skip = grid.index_of(current) if isinstance(current, Decimal) else None
            # s65speed: the probes are answered as redraw_if_broken's are (_ok: exact spans of the monotone
            # comparisons, remembered rows for the rest), the same answer as ``ok_with`` at every index
            intervals = feasible_intervals(_ok(frame, env, name, grid, checks), grid.count,
                                           _guesses(grid, current, changes))
            picks = [(lo, hi) for lo, hi in intervals]
            total = sum(hi - lo + 1 for lo, hi in picks) - (
                1 if skip is not None and any(lo <= skip <= hi for lo, hi in picks) else 0)
            if total <= 0:
                return None
            k = rng.randrange(total)
            for lo, hi in picks:
                for index in range(lo, hi + 1):
                    if index == skip:
                        continue
                    if k == 0:
                        return grid.value(index)
                    k -= 1
            raise AssertionError("unreachable")  # pragma: no cover
        spec = frame.inputs[name]
        values: Sequence[Any] = (False, True) if spec.type == "bool" else tuple(spec.values or ())
        fitting = [v for v in values if v != current and ok_with(v)]
        return rng.choice(fitting) if fitting else None
    finally:
        env[name] = current


def move_tied(frame: Frame, facts: Mapping[str, Any], moved: Sequence[str], rng: random.Random, *,
              fixed: Collection[str] = (), pending: Sequence[str] = (),
              before: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The inputs tied to ``moved`` by a deck rule the move broke, at values that keep the rules again.

    Parameters
    ----------
    facts:
        The scenario with ``moved`` at their new values (engine values); not modified.
    moved:
        The inputs the operator changed.
    fixed:
        Inputs that are never moved jointly (the operator's own choices).
    pending:
        Inputs the operator draws later in the same step: a rule that reads one is left to that draw.
    before:
        The moved inputs' values before the move (for the probes around a ratio or sum tie).

    Returns
    -------
    dict
        Partner -> new engine value; empty when no deck rule reading ``moved`` is broken, or when
        some partner has no value that keeps the rules (then nothing moves jointly).
    """
    if not tied_rules(frame):
        return {}
    moved_set = set(moved)
    skip = set(pending)
    env_for_rules = frame.complete(facts) if frame.derived else facts
    broken = [k for k in tied_rules(frame) if k.expr.names & moved_set and not k.expr.names & skip
              and k.expr.fn(env_for_rules) is False]
    if not broken:
        return {}
    names = {n for k in broken for n in k.expr.names}
    partners = [n for n in frame.inputs if n in names and n not in moved_set and n not in fixed
                and n in facts and _movable(frame, n)]
    if not partners:
        return {}
    rng.shuffle(partners)
    far = _chained(frame, facts, partners, moved_set | set(fixed), skip, rng)
    changes = {m: ((before or {}).get(m), facts.get(m)) for m in moved}
    # the drawn order first; if some partner has no value there, the reverse order (the other side gives);
    # the chained inputs come last in both, so the far end of a chain gives last
    orders = (partners + far, partners[::-1] + far) if len(partners) > 1 else (partners + far,)
    for order in orders:
        out = _move_in_order(frame, facts, order, pending, rng, changes)
        if out is not None:
            work = {**facts, **out}
            env = frame.complete(work) if frame.derived else work
            if all(k.expr.fn(env) is not False for k in broken):
                return out
    return {}


def _chained(frame: Frame, facts: Mapping[str, Any], partners: Sequence[str], excluded: Collection[str],
             skip: Collection[str], rng: random.Random) -> list[str]:
    """The inputs of deck rules chained to ``partners`` (A ties B, B ties C: C), nearest first, each
    ring in an order drawn from ``rng``; [] (no random number drawn) when no rule chains.

    A partner is drawn with every input it is tied to fixed, so with a second rule on it the last
    partner had to meet two narrow bands at once and seldom could (stop 30: a balance-sheet rule on
    the debt and the equity left the sector recipe 6 of its 100 items). The far inputs move after
    the partners, each kept when its rules still hold, so the chain's far end gives last.
    """
    seen = set(partners) | set(excluded)
    ring, out = list(partners), []
    while ring:
        reached = set()
        for k in tied_rules(frame):
            if k.expr.names & set(ring) and not k.expr.names & set(skip):
                reached |= k.expr.names
        ring = [n for n in frame.inputs if n in reached and n not in seen and n in facts and _movable(frame, n)]
        rng.shuffle(ring)
        seen.update(ring)
        out.extend(ring)
    return out


def _move_in_order(frame: Frame, facts: Mapping[str, Any], partners: Sequence[str], pending: Sequence[str],
                   rng: random.Random, changes: Mapping[str, tuple[Any, Any]]) -> dict[str, Any] | None:
    """Each partner in turn, kept or drawn among the values that keep its constraints; None if one has none."""
    work = dict(facts)
    out: dict[str, Any] = {}
    for i, name in enumerate(partners):
        checks = constraint_checks(frame, name)
        later = tuple(partners[i + 1:]) + tuple(pending)
        if checks and later:
            checks = checks_without_pending(frame, name, later, checks)
        if not checks or all(fn(work) is not False for fn, _ in checks):
            continue
        value = _draw(frame, work, name, checks, rng, changes)
        if value is None:
            return None
        work[name] = out[name] = value
    return out


def deck_tied(frame: Frame, name: str) -> bool:
    """True when some deck rule of ``frame`` reads input ``name`` (its partners may have to follow its moves)."""
    return any(name in k.expr.names for k in tied_rules(frame))


def follow(frame: Frame, facts: Mapping[str, Any], name: str, value: Any, base: Any) -> dict[str, Any] | None:
    """The partners that follow input ``name`` from ``base`` to ``value`` through the deck rules (``flip``, stop 31).

    The verdict-flip search moves one input along its grid; on an L8 deck whose rules tie that input to others
    (a debt-to-equity ratio to the debt and the equity), every value it probes broke the tie and 67% of the
    flip's attempts on the bundled deck base were rejected. Here each partner of a broken rule takes the value
    the rule gives it (:func:`_follow_by_rule`: the partner scaled by, or shifted by, the mover's change, on its
    grid), with no random number, so a value's partners are a pure function of ``facts``, ``name`` and
    ``value``: the search's boundary and the value one step short are each executed with their own partners,
    and the item states the boundary's. (:func:`move_tied`'s uniform draw over the partner's whole grid was
    tried here too: it found partners for a few more values but made the flip recipe 2.5x slower.)

    Parameters
    ----------
    facts:
        The scenario before the move (engine values); not modified.
    name, value, base:
        The moved input, its new engine value and its value in ``facts``.

    Returns
    -------
    dict or None
        Partner -> engine value (empty when no deck rule reading ``name`` breaks at ``value``); None when a
        rule stays broken (no partner value keeps it) or a constraint reading ``name`` or a partner breaks:
        the value is not one a scenario of the deck can state.
    """
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
    # the partners' own constraints were asked on these facts by :func:`_follow_by_rule` (its last check): only the
    # moved input's are asked here (s61speed: a partner's were asked twice)
    if not _holds_for(frame, name)(moved):
        return None
    return out


#: Rows of :func:`follower` (one rule's answers along one input's values, the rule's other inputs fixed)
#: remembered per frame, twice over (:func:`~ipb.perturb.feasible.aged_row`; memory stays flat in N; a row holds at most
#: a grid's values).
FOLLOW_ROW_LIMIT = 1024


def follower(frame: Frame, facts: Mapping[str, Any], name: str, base: Any
             ) -> Callable[[Any], dict[str, Any] | None]:
    """``at(value)``: :func:`follow` ``(frame, facts, name, value, base)``, for the many values of one line.

    The tied flip search (:func:`~ipb.perturb.flip_search._find_tied_flip`) asks :func:`follow` at every value
    it probes along ``name``, the other facts fixed. Most values break no tie rule, and :func:`follow` then
    only asks the constraints that read ``name``; each such rule's answer along the line depends on the value
    and on the few other inputs the rule reads. Here each rule (the tie rules reading ``name`` and the
    constraints of ``name``) has a row of answers per value, remembered per frame by the rule, ``name`` and the
    values of its other inputs (as the feasible-set probes' rows, :func:`~ipb.perturb.feasible._probe`): a
    flip's anchors move one to three inputs of the run's base, so most rules read the same other values as a
    line searched before. A value at which some tie rule is broken (its partners must move) goes through
    :func:`follow` itself. The same answer as :func:`follow` at every value (each rule is a pure function of
    the facts it reads; tests/perturb/test_perturb_follow_rows.py); a frame with derived inputs (whose rules
    read recomputed values) or a rule that completes derived inputs uses :func:`follow` throughout (s61speed).

    Parameters
    ----------
    facts:
        The scenario before the move (engine values); not modified.
    name, base:
        The moved input and its value in ``facts``.

    Returns
    -------
    callable
        ``value -> partners`` (a dict, empty when none moves) or None, exactly as :func:`follow`.
    """
    checks = constraint_checks(frame, name)
    if frame.derived or any(getattr(fn, "on_complete", None) is not None for fn, _ in checks):
        return lambda value: follow(frame, facts, name, value, base)
    reads = frame.memo.setdefault("follow_reads", {})

    def rows_for(rules: Sequence[tuple[Callable[[Mapping[str, Any]], Any], frozenset[str]]]
                 ) -> list[tuple[Callable[[Mapping[str, Any]], Any], dict[Any, bool]]]:
        out = []
        for fn, names in rules:
            others = reads.get((fn, name))
            if others is None:
                others = reads[(fn, name)] = tuple(sorted(names - {name}))
            out.append((fn, aged_row(frame.memo, "follow_rows", FOLLOW_ROW_LIMIT,
                                     (fn, name, tuple(map(facts.get, others))))))
        return out

    tied = rows_for([(k.expr.fn, k.expr.names) for k in _tied_reading(frame, name)])
    held = rows_for(checks)
    env = dict(facts)

    def at(value: Any) -> dict[str, Any] | None:
        env[name] = value
        for fn, row in tied:
            broken = row.get(value)
            if broken is None:
                broken = row[value] = fn(env) is False
            if broken:
                return follow(frame, facts, name, value, base)
        for fn, row in held:
            broken = row.get(value)
            if broken is None:
                broken = row[value] = fn(env) is False
            if broken:
                return None
        return {}
    return at


def _tied_reading(frame: Frame, name: str) -> tuple[Any, ...]:
    """:func:`tied_rules` that read ``name``, in their order, remembered per frame (s57speedgen: :func:`follow`
    asked every rule for every value a tied flip search probes)."""
    memo = frame.memo.setdefault("tied_reading", {})
    found = memo.get(name)
    if found is None:
        found = memo[name] = tuple(k for k in tied_rules(frame) if name in k.expr.names)
    return found  # type: ignore[no-any-return]


def _holds_for(frame: Frame, name: str) -> Callable[[Mapping[str, Any]], bool]:
    """``env -> no constraint reading name is False on env`` (:func:`~ipb.perturb.feasible.constraint_checks`
    of ``name``), as the feasible-set probes' plain loop (:func:`~ipb.perturb.feasible._hold_for`), per frame;
    the same answer as ``not any(fn(env) is False ...)`` over the checks (s57speedgen)."""
    return _hold_for(frame, constraint_checks(frame, name))


def _follow_by_rule(frame: Frame, moved: dict[str, Any], name: str, value: Any, base: Any,
                    broken: Sequence[Any]) -> dict[str, Any] | None:
    """The partners at the values the broken rules give them, or None (then :func:`follow` draws as :func:`move_tied`).

    In input order, each numeric partner that a still-broken rule reads is tried at the grid values around
    its current value scaled by, and shifted by, the changes so far (a ratio or a sum tie: ``_guesses``),
    each with its two grid neighbours, nearest the current value first; the first under which every rule it
    reads that was broken holds is taken. None unless, at the end, every broken rule and every constraint
    reading a moved partner holds. Cheap (a few evaluations per partner, no search of the grid), and a partner
    moves by what the rule asks, not by a draw. A bool partner of a card's ``tie: true`` rule (a yes/no answer
    tied to its count, s47rfix) takes its other value when that keeps the rule.
    """
    names = {n for k in broken for n in k.expr.names} - {name}
    changes: dict[str, tuple[Any, Any]] = {name: (base, value)}
    out: dict[str, Any] = {}

    def holds(rules: Sequence[Any]) -> bool:
        env = frame.complete(moved) if frame.derived else moved
        return all(k.expr.fn(env) is not False for k in rules)

    saved = {n: moved.get(n) for n in names}
    try:
        for partner in frame.inputs:
            if partner not in names or partner not in moved or not _movable(frame, partner):
                continue
            mine = [k for k in broken if partner in k.expr.names]
            grid = frame.grids.get(partner)
            current = moved[partner]
            if holds(mine):
                continue
            if isinstance(current, bool) and any(k.tie for k in mine):
                # a card's tie (s47rfix): a yes/no answer follows its count, the one other value, no draw
                moved[partner] = not current
                if holds(mine):
                    out[partner] = moved[partner]
                else:
                    moved[partner] = current
                continue
            if grid is None or not isinstance(current, Decimal):
                continue
            ks = sorted({j for k in _guesses(grid, current, changes)[1:] for j in (k - 1, k, k + 1)
                         if 0 <= j < grid.count}, key=lambda j: abs(grid.value(j) - current))
            for j in ks:
                moved[partner] = grid.value(j)
                if holds(mine):
                    out[partner] = moved[partner]
                    changes[partner] = (current, moved[partner])
                    break
            else:
                moved[partner] = current
        if not out or not holds(broken):
            return None
        for n in out:
            if any(fn(moved) is False for fn, _ in constraint_checks(frame, n)):
                return None
        return out
    finally:
        for n, v in saved.items():
            moved[n] = v


def move_tied_or_redraw(frame: Frame, facts: dict[str, Any], name: str, old: Any, draw: Callable[[], Any],
                        rng: random.Random, *, fixed: Collection[str], pending: Sequence[str]) -> dict[str, Any]:
    """:func:`move_tied` for one drawn input, drawing it again (``draw()``) while no partner can follow it.

    The metric operator draws an input uniformly on its grid; when a deck rule ties it to an input with a
    narrower range (the three-rule deck's ``market_value == market_cap``: $100M to $500B against $50M to
    $50B) most draws lie where the partner cannot follow, and the input's own redraw against the fixed
    partner could only give back its old value: 40% of metric attempts on that deck were rejected (stop 31).
    Up to ``TIE_REDRAWS`` draws are tried; the first whose broken rules the partners can mend (or that breaks
    none) is kept. ``facts[name]`` holds the kept draw (the last one when none is); ``facts`` is otherwise
    not modified. Random numbers are drawn only while a rule stays broken.

    Returns
    -------
    dict
        Partner -> new engine value, as :func:`move_tied` (empty when nothing moved jointly).
    """
    skip = set(pending)
    for attempt in range(TIE_REDRAWS):
        jointly = move_tied(frame, facts, (name,), rng, fixed=fixed, pending=pending, before={name: old})
        if jointly:
            return jointly
        env = frame.complete(facts) if frame.derived else facts
        if not any(name in k.expr.names and not k.expr.names & skip and k.expr.fn(env) is False
                   for k in tied_rules(frame)):
            return {}
        if attempt + 1 < TIE_REDRAWS:
            value = draw()
            if value is None:
                return {}
            facts[name] = value
    return {}


def untie(frame: Frame, chosen: Sequence[str]) -> list[str]:
    """``chosen`` less each input a deck rule ties to an input before it (that one moves, this one follows).

    Two inputs of one rule drawn in the same metric step were drawn independently, the second against the
    first's new value: an equality (``market_value == market_cap``) pins one grid value, which the draw's
    probes seldom found (stop 31). The later one is left to follow the earlier through :func:`move_tied`.
    """
    kept: list[str] = []
    for name in chosen:
        if not any(name in k.expr.names and k.expr.names & set(kept) for k in tied_rules(frame)):
            kept.append(name)
    return kept
