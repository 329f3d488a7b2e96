"""Final verdicts along one input: the same scenario with one input set to many values.

The verdict-flip search (:mod:`ipb.perturb.targeted`) asks for the final
verdict of one scenario with a single input moved to many grid values. A gate
that does not read that input (directly, or through a value an earlier gate
computes from it) gives the same verdict at every value, so
:func:`line_runner` evaluates those gates once and only the gates that depend
on the input at each value. The outcomes equal :func:`ipb.engine.execute.execute_many`'s
for every value (``tests/engine/test_sweep.py`` checks this on every bundled
card); the speed-up is the share of gates that do not read the input.

Only the two conjunction shapes with a fast runner (linear chain, parallel
threshold) are swept this way; for other cards :func:`line_runner` returns
None and the caller executes each value in full.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from dataclasses import replace

from ipb.engine.execute import _cleared, _decider, _plan, _used_values
from ipb.engine.graph import CompiledCard
from ipb.engine.logic import Verdict

__all__ = ["line_runner", "dependent_gates", "prepare", "Prepared", "outcome_deciders", "Constant", "external_reads",
           "line_key", "prepared_outcome"]

REJECT = Verdict.REJECT


def dependent_gates(compiled: CompiledCard, name: str) -> tuple[bool, ...] | None:
    """For each gate, whether its verdict can depend on input ``name`` (cached per card and input).

    A gate depends on ``name`` when one of its expressions reads it or reads
    a value computed by a gate that depends on it. None when a gate reads a
    value that a *later* gate computes (then evaluating gates out of order
    could differ from a run, so no sweep is made).
    """
    cache = compiled.__dict__.setdefault("_sweep_dependent", {})
    if name in cache:
        return cache[name]  # type: ignore[no-any-return]
    gates = compiled.card.gates
    made_by: dict[str, int] = {}
    for i, g in enumerate(gates):
        for value in g.compute:
            made_by[value] = i
    moved: set[str] = {name}
    found: list[bool] = []
    result: tuple[bool, ...] | None
    for i, g in enumerate(gates):
        reads = g.reads
        if any(made_by.get(r, -1) > i for r in reads):
            result = None
            break
        depends = bool(reads & moved)
        if depends:
            moved |= set(g.compute)
        found.append(depends)
    else:
        result = tuple(found)
    cache[name] = result
    return result


class Constant:
    """A sweep whose final verdict is the same at every value (``outcome``): no value can flip it."""

    __slots__ = ("outcome",)

    def __init__(self, outcome: str) -> None:
        self.outcome = outcome

    def __call__(self, values: Sequence[Any]) -> list[str]:
        return [self.outcome] * len(values)


def outcome_deciders(compiled: CompiledCard) -> tuple[Any, ...]:
    """The card's gate deciders without the values no expression reads (cached per card).

    A value only shown in the GRP (Buffett's ``premium``) cannot change a
    verdict: it is never one of the values a gate needs (those are read by
    later expressions), so leaving it out gives the same verdicts, faster.
    """
    cached = compiled.__dict__.get("_sweep_deciders")
    if cached is None:
        card = compiled.card
        read: set[str] = set()
        for g in card.gates:
            for expr in g.expressions():
                read |= expr.names
        used = _used_values(card)
        full = _plan(compiled).deciders
        cached = tuple(
            decide if all(k in read for k in g.compute)
            else _decider(replace(g, compute={k: v for k, v in g.compute.items() if k in read}), used)
            for g, decide in zip(card.gates, full))
        compiled.__dict__["_sweep_deciders"] = cached
    return cached  # type: ignore[no-any-return]


class Prepared:
    """One scenario with every gate evaluated once, shared by the sweeps of its inputs (:func:`prepare`)."""

    __slots__ = ("env", "verdicts")

    def __init__(self, env: dict[str, Any], verdicts: list[Verdict]) -> None:
        self.env = env
        self.verdicts = verdicts


def prepare(compiled: CompiledCard, facts: Mapping[str, Any]) -> Prepared | None:
    """Every gate's decider run once, in card order, on ``facts`` (None when the card cannot be swept).

    The deciders are :func:`outcome_deciders`: ``env`` holds every computed
    value some expression reads, not those computed for display only.

    A gate that does not depend on the input a sweep moves gives this
    verdict at every value of it, whatever the chain would have reached.
    """
    plan = _plan(compiled)
    card = compiled.card
    if plan.fast is None or compiled.family != "conjunction":
        return None
    if card.topology_type not in ("linear_sequential", "parallel_threshold"):
        return None
    env = dict(plan.base_env)
    env.update(facts)
    # the deciders of the sweeps: a value computed for display only changes no verdict and is never read
    return Prepared(env, [decide(env) for decide in outcome_deciders(compiled)])


def line_runner(compiled: CompiledCard, facts: Mapping[str, Any], name: str,
                prepared: Prepared | None = None) -> Callable[[Sequence[Any]], list[str]] | None:
    """A function from values of input ``name`` to the card's final verdict on ``facts`` with that value.

    Parameters
    ----------
    facts:
        The scenario's facts (input name -> engine value), as for
        :func:`ipb.engine.execute.execute`; its own value of ``name`` is ignored.
    name:
        The input to move.
    prepared:
        :func:`prepare` of the same ``compiled`` and ``facts``, when several
        inputs of one scenario are swept.

    Returns
    -------
    callable or None
        ``run(values) -> [outcome, ...]``, one final verdict (the card's
        vocabulary or INCONCLUSIVE) per value, equal to
        ``[r.outcome for r in execute_many(compiled, [{**facts, name: v} for v in values])]``;
        None when the card has no fast runner (regime, disjunction, threshold
        logic, re-entry loops) or reads computed values out of order; a
        :class:`Constant` when the verdict cannot move along ``name``.
    """
    if prepared is None:
        prepared = prepare(compiled, facts)
    if prepared is None:
        return None
    dep = dependent_gates(compiled, name)
    if dep is None:
        return None
    plan = _plan(compiled)
    card = compiled.card
    deciders = outcome_deciders(compiled)
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]
    decisive = plan.decisive
    base = prepared.env
    fixed: list[Verdict | None] = [None if d else v for d, v in zip(dep, prepared.verdicts)]
    if REJECT in fixed:
        # a gate that does not move rejects: whatever the moving gates give, the conjunction fails
        return Constant(bad)
    moving = tuple((i, deciders[i]) for i, v in enumerate(fixed) if v is None)

    def run(values: Sequence[Any]) -> list[str]:
        out: list[str] = []
        for value in values:
            env = dict(base)
            env[name] = value
            verdicts = list(fixed)
            outcome = None
            for i, decide in moving:
                v = verdicts[i] = decide(env)
                if v is REJECT:  # a chain stops here; a parallel join fails on any REJECT
                    outcome = bad
                    break
            out.append(outcome if outcome is not None else _cleared(verdicts, decisive, ok)[0])  # type: ignore[arg-type]
        return out

    return run


def external_reads(compiled: CompiledCard, name: str) -> tuple[str, ...] | None:
    """The names :func:`line_runner`'s run along ``name`` reads from the prepared environment (cached per card).

    Every name an expression of a gate that depends on ``name`` reads, except
    ``name`` itself and the values such a gate computes before the read (in
    gate order, and in compute order within a gate): those the run writes
    for each value. The run's outcomes are therefore a function of the
    moved value, these names' values in the prepared environment, and the
    verdicts of the gates that do not depend on ``name``. None when
    :func:`dependent_gates` is None.
    """
    cache = compiled.__dict__.setdefault("_sweep_reads", {})
    if name in cache:
        return cache[name]  # type: ignore[no-any-return]
    dep = dependent_gates(compiled, name)
    result: tuple[str, ...] | None = None
    if dep is not None:
        written: set[str] = {name}
        reads: list[str] = []

        def read(names: frozenset[str]) -> None:
            for n in sorted(names):
                if n not in written and n not in reads:
                    reads.append(n)

        for g, d in zip(compiled.card.gates, dep):
            if not d:
                continue
            for value, expr in g.compute.items():
                read(expr.names)
                written.add(value)
            for expr in (g.reject, g.proceed):
                if expr is not None:
                    read(expr.names)
        result = tuple(reads)
    cache[name] = result
    return result


def line_key(compiled: CompiledCard, name: str, prepared: Prepared) -> tuple[Any, ...] | None:
    """A key of :func:`line_runner`'s outcomes along ``name`` from ``prepared``: two prepared scenarios with
    the same key give the same outcome at every value of ``name`` (None when the card cannot be swept).

    The key holds the verdicts of the gates that do not depend on ``name``
    and the prepared values of :func:`external_reads` with their types
    (``1`` and ``True`` hash alike). An expression reads a name with
    ``env.get``, so a missing name and None are the same to it.
    """
    cache = compiled.__dict__.setdefault("_sweep_key_parts", {})
    parts = cache.get(name)
    if parts is None:
        dep = dependent_gates(compiled, name)
        reads = external_reads(compiled, name)
        parts = cache[name] = (None, None) if dep is None or reads is None else (
            tuple(i for i, d in enumerate(dep) if not d), reads)
    fixed_at, reads = parts
    if reads is None:
        return None
    verdicts = prepared.verdicts
    values = tuple(map(prepared.env.get, reads))
    return tuple([verdicts[i] for i in fixed_at]), values, tuple(map(type, values))


def prepared_outcome(compiled: CompiledCard, prepared: Prepared) -> str:
    """The card's final verdict on the scenario ``prepared`` holds, equal to :func:`ipb.engine.execute.execute_many`'s.

    A chain stops at its first REJECT; every gate before it ran on the same
    environment in :func:`prepare`, so a REJECT anywhere fails the card, and
    with none every verdict is the chain's (a parallel join runs every gate).
    """
    card = compiled.card
    verdicts = prepared.verdicts
    if REJECT in verdicts:
        return card.outcomes["fail"]  # type: ignore[no-any-return]
    return _cleared(verdicts, _plan(compiled).decisive, card.outcomes["pass"])[0]
