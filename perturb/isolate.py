"""The gate-isolation operator ``isolate`` (paper §6.5): a change of one input that moves exactly one named gate.

Split out of :mod:`ipb.perturb.targeted` (s44items) with no change; :mod:`ipb.perturb.targeted` imports this
module at its end (so the operator is registered), and :func:`gate_isolation` and :data:`UNREACHED` stay importable
from there. The anchor of an attempt above 0 is :func:`ipb.perturb.targeted._anchor`, read through the module so a
profiler's or a test's replacement of it is seen.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

import ipb.perturb.targeted as targeted
from ipb.engine.execute import execute
from ipb.engine.logic import Verdict
from ipb.errors import PerturbError, did_you_mean
from ipb.perturb.frame import Frame, PScenario
from ipb.perturb.operators import Step, _not_applicable, operator
from ipb.perturb.values import literal

__all__ = ["gate_isolation", "UNREACHED", "ISOLATE_SAMPLES"]


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
        moved, anchor = targeted._anchor(frame, scenario, rng, ())
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
