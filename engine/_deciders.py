"""The per-gate closures the executor runs (:mod:`ipb.engine.execute`): a gate's computed values and verdict.

A gate's verdict follows paper §7.3 with three-valued criteria: a REJECT
criterion that holds rejects; a gate PROCEEDs only when its criteria say so
and every value it computes for a later gate is known; anything else is
INCONCLUSIVE (a gate with only a PROCEED criterion rejects when it fails).
Each closure is specialised to its gate's shape, so that the commonest
gates (no computed values) make no call but their criteria's.
"""

from __future__ import annotations

from typing import Any, Callable

from ipb.engine.card import Gate
from ipb.engine.logic import Verdict

__all__ = ["Decide", "decider", "classifier"]

PROCEED, REJECT, INCONCLUSIVE = Verdict.PROCEED, Verdict.REJECT, Verdict.INCONCLUSIVE

Decide = Callable[[dict[str, Any]], Verdict]


def decider(gate: Gate, used: frozenset[str] = frozenset()) -> Decide:
    """One closure per gate: computes its values, then derives its verdict.

    ``used`` names the computed values later gates rely on; when one of
    those is unknown the gate does not PROCEED. A value computed only for
    display (a ratio in the GRP) does not hold the gate back.

    The closure is specialised to the gate's shape (which criteria it has,
    whether it computes values), so that a gate without computed values (most
    gates) makes no call but its criteria's; every shape gives the verdict of
    the one rule above (``tests/engine/test_fast_paths.py``).
    """
    computes = tuple((name, expr.fn, name in used) for name, expr in gate.compute.items())
    P = gate.proceed.fn if gate.proceed is not None else None
    R = gate.reject.fn if gate.reject is not None else None
    run_computes = _computes_runner(computes)

    # A value the gate cannot compute leaves it unable to PROCEED (a gate
    # never clears on a value it does not have); REJECT may still be decided.
    if run_computes is None:
        return _plain_decider(P, R)
    if P is not None and R is not None:

        def both(env: dict[str, Any]) -> Verdict:
            known = run_computes(env)
            r = R(env)
            if r is True:
                return REJECT
            if r is False and P(env) is True:
                return PROCEED if known else INCONCLUSIVE
            return INCONCLUSIVE

        return both
    if R is not None:

        def reject_only(env: dict[str, Any]) -> Verdict:
            known = run_computes(env)
            r = R(env)
            return REJECT if r is True else PROCEED if r is False and known else INCONCLUSIVE

        return reject_only
    if P is not None:

        def proceed_only(env: dict[str, Any]) -> Verdict:
            known = run_computes(env)
            p = P(env)
            return PROCEED if p is True and known else REJECT if p is False else INCONCLUSIVE

        return proceed_only

    def compute_only(env: dict[str, Any]) -> Verdict:
        return PROCEED if run_computes(env) else INCONCLUSIVE

    return compute_only


def _computes_runner(computes: tuple[tuple[str, Any, bool], ...]) -> Callable[[dict[str, Any]], bool] | None:
    """A closure that writes a gate's computed values into ``env`` in order and says whether every value a
    later gate needs is known (None: the gate computes nothing)."""
    if not computes:
        return None
    if len(computes) == 1:
        ((name, fn, needed),) = computes
        if needed:

            def one_needed(env: dict[str, Any]) -> bool:
                value = env[name] = fn(env)
                return value is not None

            return one_needed

        def one_shown(env: dict[str, Any]) -> bool:
            env[name] = fn(env)
            return True

        return one_shown

    def run_computes(env: dict[str, Any]) -> bool:
        known = True
        for name, fn, needed in computes:
            value = env[name] = fn(env)
            if value is None and needed:
                known = False
        return known

    return run_computes


def _plain_decider(P: Callable[[Any], Any] | None, R: Callable[[Any], Any] | None) -> Decide:
    """The decider of a gate that computes nothing (its values are all known, so only its criteria decide)."""
    if P is not None and R is not None:

        def both(env: dict[str, Any]) -> Verdict:
            r = R(env)
            if r is True:
                return REJECT
            if r is False and P(env) is True:
                return PROCEED
            return INCONCLUSIVE

        return both
    if R is not None:

        def reject_only(env: dict[str, Any]) -> Verdict:
            r = R(env)
            return REJECT if r is True else PROCEED if r is False else INCONCLUSIVE

        return reject_only
    if P is not None:

        def proceed_only(env: dict[str, Any]) -> Verdict:
            p = P(env)
            return PROCEED if p is True else REJECT if p is False else INCONCLUSIVE

        return proceed_only

    def compute_only(env: dict[str, Any]) -> Verdict:
        return PROCEED

    return compute_only


def classifier(
    gate: Gate, used: frozenset[str] = frozenset()
) -> Callable[[dict[str, Any]], tuple[Verdict, str | None]]:
    """The regime gate: its own criteria (if any) first, then the first matching rule."""
    base = decider(gate, used) if (gate.proceed or gate.reject or gate.compute) else None
    rules = tuple((regime, when.fn if when is not None else None) for regime, when in gate.classify)
    gid = gate.id

    def classify(env: dict[str, Any]) -> tuple[Verdict, str | None]:
        verdict = PROCEED
        if base is not None:
            verdict = base(env)
            if verdict is REJECT:
                return REJECT, None
        for regime, when in rules:
            holds = True if when is None else when(env)
            if holds is True:
                env[gid] = regime
                # An undecided own criterion stays INCONCLUSIVE; the branch still runs.
                return verdict, regime
            if holds is None:
                return INCONCLUSIVE, None
        return INCONCLUSIVE, None

    return classify
