"""One scenario with one input moved to many values: gate verdicts and final verdicts, computed faster.

The flip search (:func:`ipb.perturb.targeted.find_flip`) and gate isolation
(:func:`ipb.perturb.targeted.gate_isolation`) look at one scenario with a
single input moved to many values. :meth:`ipb.perturb.frame.Frame.line` takes
the engine's sweep (:func:`ipb.engine.sweep.line_runner`) for conjunction
cards; this module covers what that sweep does not:

* :func:`verdict_line`: the final verdicts along an input for a card whose
  gates all run in card order on one environment but whose gate logic is not
  a conjunction (a disjunction of triggers, an n-of-m threshold), and for any
  such card once an input is derived;
* :func:`profile_line`: the diagnostic profile (every gate's verdict, a
  skipped gate as if reached) along an input, for gate isolation.

Both run, for each value, only the gates whose verdict can depend on the
moved inputs (:func:`ipb.engine.sweep.dependent_gates`); every other gate
keeps the verdict it has on the scenario. They give exactly what full
execution gives (``tests/perturb/test_perturb_shortcuts.py`` checks both
against :meth:`Frame.outcomes_many` and :meth:`Frame.profile` on every
bundled card and on L8 frames).

Why the shortcut is exact, for a card with no regime classifier and no
re-entry loop whose gates read no value a later gate computes: a linear chain
runs gates 1..K until its first REJECT exactly as running every gate in card
order on one environment does, and diagnostic mode runs K+1... afterwards on
the same environment; a parallel join runs every gate in order. A value
computed for display only (left out by :func:`ipb.engine.sweep.outcome_deciders`)
is read by no gate. The card's final verdict is then a function of the vector
of every gate's verdict (a chain's verdicts to its first REJECT are a prefix
of it; a threshold sums weights the card fixes), so :func:`verdict_line`
reads it from a table filled by one full execution per new vector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ipb.engine.execute import execute, execute_many
from ipb.engine.logic import Verdict
from ipb.engine.sweep import dependent_gates, outcome_deciders

if TYPE_CHECKING:
    from ipb.perturb.frame import Frame

__all__ = ["all_gates", "verdict_line", "profile_line", "card_profile", "VERDICT_TABLE_LIMIT"]

_TEXT = {v: v.value for v in Verdict}
#: Vectors of gate verdicts whose final verdict :func:`verdict_line` remembers per frame and card (then emptied).
VERDICT_TABLE_LIMIT = 4096


def all_gates(frame: Frame, index: int, mine: Mapping[str, Any], names: Sequence[str]) -> tuple[Any, ...] | None:
    """``(environment, verdicts, moving gates)``: every gate of card ``index`` run once in card order on its facts
    ``mine``, and the ``(gate number - 1, decider)`` pairs whose verdict can depend on one of ``names``.

    None unless the card runs its gates in card order on one environment: a
    linear chain or a parallel join (any gate logic) with no regime
    classifier, no re-entry loop, and no gate reading a value a later gate
    computes. The run is remembered for the last ``mine`` seen (by identity).
    """
    c = frame.cards[index]
    card = c.card
    if (card.topology_type not in ("linear_sequential", "parallel_threshold") or c.classifier is not None
            or any(g.reentry is not None for g in card.gates)):
        return None
    moving: set[int] = set()
    for name in names:
        dep = dependent_gates(c, name)
        if dep is None:
            return None
        moving.update(g for g, d in enumerate(dep) if d)
    deciders = outcome_deciders(c)
    last = frame.memo.get(("all_gates", index))
    if last is None or last[0] is not mine:
        # the same facts are moved along several inputs: the gates run once (``mine`` is held, so its id stays)
        env = dict(mine)
        last = frame.memo["all_gates", index] = (mine, env, [decide(env) for decide in deciders])
    return last[1], last[2], tuple((g, deciders[g]) for g in sorted(moving))


def _follows(frame: Frame, name: str) -> tuple[str, ...]:
    """The derived inputs whose value can depend on ``name`` (their ``value`` reads it, or reads one that does),
    sorted; per frame."""
    memo = frame.memo.setdefault("follows", {})
    found = memo.get(name)
    if found is None:
        found = memo[name] = tuple(sorted(frame.derived_closure((name,), every=False) - {name}))
    return found  # type: ignore[no-any-return]


def _moved(frame: Frame, index: int, name: str) -> tuple[str, ...]:
    """The inputs of card ``index`` that moving ``name`` may move: ``name`` and the derived inputs that follow it."""
    mine = frame._card_inputs[index]
    return tuple(n for n in (name, *_follows(frame, name)) if n in mine)


def _completed(frame: Frame, facts: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[dict[str, Any]]]:
    """``facts`` with derived inputs recomputed, and each card's part of them (remembered for the last ``facts``)."""
    held = frame.memo.get("completed")
    if held is None or held[0] is not facts:
        full = frame.complete(facts)
        held = frame.memo["completed"] = (facts, full, [frame.facts_for(i, full) for i in range(len(frame.cards))])
    return held[1], held[2]


def _setter(frame: Frame, facts: Mapping[str, Any], name: str, moved: tuple[str, ...]) -> Callable[[Any], Any]:
    """``value -> (what to write into a card's environment, the moved scenario's facts)``."""
    if name not in frame.derived and not _follows(frame, name):
        # no derived input reads ``name`` (nor is it one): completing {**facts, name: v} gives {**complete(facts), name: v}
        return lambda value: ({name: value}, None)

    def moved_values(value: Any) -> tuple[dict[str, Any], Mapping[str, Any]]:
        full = frame.complete({**facts, name: value})
        return {n: full.get(n) for n in moved}, full  # a derived input left out is unknown: None to every gate

    return moved_values


def verdict_line(frame: Frame, facts: Mapping[str, Any], index: int, name: str) -> Callable[[Sequence[Any]], list[str]] | None:
    """Card ``index``'s final verdicts along input ``name`` from its gates' verdicts, or None (see the module).

    ``values -> [outcome of card index on frame.complete({**facts, name: v}) for v in values]``.
    """
    full, mines = _completed(frame, facts)
    mine = mines[index]
    moved = _moved(frame, index, name)
    held = all_gates(frame, index, mine, moved)
    if held is None:
        return None
    env0, verdicts0, moving = held
    table = frame.memo.setdefault(("verdict_outcomes", index), {})
    if len(table) > VERDICT_TABLE_LIMIT:
        table.clear()
    compiled = frame.cards[index]
    setter = _setter(frame, facts, name, moved)

    def run(values: Sequence[Any]) -> list[str]:
        out = []
        for value in values:
            writes, moved_facts = setter(value)
            env = dict(env0)
            for n in moved:
                env[n] = writes[n]
            verdicts = list(verdicts0)
            for g, decide in moving:
                verdicts[g] = decide(env)
            key = tuple(verdicts)
            outcome = table.get(key)
            if outcome is None:
                scenario = frame.facts_for(index, moved_facts) if moved_facts is not None else {**mine, **{n: writes[n] for n in moved}}
                outcome = table[key] = next(iter(execute_many(compiled, [scenario]))).outcome
            out.append(outcome)
        return out

    return run


def card_profile(frame: Frame, index: int, mine: Mapping[str, Any]) -> tuple[str, ...]:
    """:meth:`Frame.profile`'s entries of card ``index`` on its own (complete) facts ``mine``."""
    trace = execute(frame.cards[index], mine, diagnostic=True)
    return tuple(_TEXT[r.diagnostic_verdict if r.diagnostic_verdict is not None else r.verdict] for r in trace.gates)


def profile_line(frame: Frame, facts: Mapping[str, Any], name: str) -> Callable[[Sequence[Any]], list[tuple[str, ...]]]:
    """``values -> [frame.profile({**facts, name: v}) for v in values]``, computed faster (see the module).

    A card that reads none of the moved inputs keeps its profile; a card
    :func:`all_gates` does not accept (a regime classifier, a re-entry loop)
    is executed in diagnostic mode for each value.
    """
    full, mines = _completed(frame, facts)
    parts: list[Any] = []  # per card: a fixed profile, or a function of (writes, moved facts)
    for i in range(len(frame.cards)):
        moved = _moved(frame, i, name)
        held = all_gates(frame, i, mines[i], moved)
        if held is None:
            if not moved:
                parts.append(card_profile(frame, i, mines[i]))
            else:
                parts.append(lambda writes, moved_facts, i=i, moved=moved: card_profile(
                    frame, i, frame.facts_for(i, moved_facts) if moved_facts is not None else {**mines[i], **{n: writes[n] for n in moved}}))
            continue
        env0, verdicts0, moving = held
        fixed = [_TEXT[v] for v in verdicts0]
        if not moving:
            parts.append(tuple(fixed))
            continue

        def run(writes: Mapping[str, Any], moved_facts: Any, env0: dict[str, Any] = env0, fixed: list[str] = fixed,
                moving: tuple[Any, ...] = moving, keep: tuple[str, ...] = moved) -> tuple[str, ...]:
            env = dict(env0)
            for n in keep:
                env[n] = writes[n]
            out = list(fixed)
            for g, decide in moving:
                out[g] = _TEXT[decide(env)]
            return tuple(out)

        parts.append(run)
    setter = _setter(frame, facts, name, (name, *_follows(frame, name)))

    def line(values: Sequence[Any]) -> list[tuple[str, ...]]:
        out = []
        for value in values:
            writes, moved_facts = setter(value)
            out.append(sum((p if isinstance(p, tuple) else p(writes, moved_facts) for p in parts), ()))
        return out

    return line
