"""Execute a compiled card on a scenario: gate verdicts, final verdict, GRP.

The five gate logics (paper Table 5, §7.3):

* **linear_sequential + conjunction**: gates run in order and the chain stops
  at the first REJECT (its kill criterion fires); later gates are N/A with
  ``terminated_by_gate_K``. INCONCLUSIVE does not stop the chain (§7.3,
  Table 9 Perturbation B). Any REJECT gives the card's fail verdict, with
  trigger ``gate_K_reject``; otherwise the pass verdict, ``all_gates_cleared`` —
  unless a gate declared ``decisive`` is INCONCLUSIVE (``gate_K_inconclusive``)
  or no gate PROCEEDed at all (``no_gate_decided``): then INCONCLUSIVE.
  A decisive INCONCLUSIVE gate keeps every gate logic below from its pass
  verdict in the same way (a card states ``decisive_default`` and each gate
  its own ``decisive`` with a ``decisive_reason``).
* A gate that cannot compute a value a later gate reads (an input is unknown
  or a divisor zero) never PROCEEDs: what would be PROCEED is INCONCLUSIVE; a
  REJECT its criteria decide without it stands. The gate's own criteria
  follow three-valued logic (an unknown decides nothing), and values computed
  for display only (a premium, a ratio in the GRP) hold nothing back.
* **parallel_threshold + conjunction**: every gate runs; any REJECT fails.
* **disjunction** (a trigger card, e.g. Lynch's sell triggers): each gate
  checks one trigger, with §7.3's meaning of the verdicts: REJECT = the
  trigger fired (its kill criterion), PROCEED = checked and not fired. Any
  one trigger gives the fail verdict (``gate_K_trigger``; a linear chain
  stops there); the pass verdict (``no_trigger_fired``) needs every trigger
  checked and not fired, so an unchecked trigger leaves the card
  INCONCLUSIVE (``undetermined``). The bubble gauge follows the same
  convention (signal present = REJECT).
* **weighted_threshold_N_of_M**: every gate runs; with ``count: PROCEED`` the
  card passes when the PROCEED weight reaches the threshold; with ``count:
  REJECT`` it fails when the REJECT weight does. INCONCLUSIVE only when the
  INCONCLUSIVE gates could still change the outcome.
* **regime_dependent** (conditional_branch): gates before the classifier run
  as a conjunction chain; the classifier's first matching rule selects a
  regime; that branch's gates run as a conjunction chain and decide the
  branch's own pass/fail verdicts. Gates off the branch are N/A.

``diagnostic=True`` also evaluates every gate the chain did not reach and
reports what it would have given (paper Table 9, Perturbation C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Match, NamedTuple, Sequence

from ipb.engine._deciders import Decide
from ipb.engine._deciders import classifier as _classifier
from ipb.engine._deciders import decider as _decider
from ipb.engine._exact import as_fraction, public
from ipb.engine._number_text import SCIENTIFIC_DIGITS as _SCIENTIFIC_DIGITS
from ipb.engine._number_text import scientific as _scientific
from ipb.engine._number_text import thousands as _thousands
from ipb.engine._number_text import trim as _trim
from ipb.engine._scene import _Scene
from ipb.engine.card import ELEMENT_FIELD, Card, Gate, weights_count
from ipb.engine.logic import Verdict

if TYPE_CHECKING:  # annotations only: importing the graph module loads networkx (a third of a second)
    from ipb.engine.graph import CompiledCard

__all__ = ["GateResult", "Trace", "execute", "execute_many", "BatchResult", "format_value", "shown_names", "program_key", "weight_note"]

PROCEED, REJECT, INCONCLUSIVE, NOT_REACHED = (
    Verdict.PROCEED,
    Verdict.REJECT,
    Verdict.INCONCLUSIVE,
    Verdict.NOT_REACHED,
)
INCONCLUSIVE_OUTCOME = "INCONCLUSIVE"


# --------------------------------------------------------------------------- plan


@dataclass
class _Plan:
    """Everything prepared once per compiled card (cached on it)."""

    deciders: tuple[Decide, ...]
    classify: Callable[[dict[str, Any]], tuple[Verdict, str | None]] | None
    reentry: dict[int, tuple[int, Callable[[Mapping[str, Any]], Any], int]]
    weights: tuple[Decimal, ...]
    base_env: dict[str, Any]
    fast: Callable[[dict[str, Any]], tuple[list[Verdict], str, str, int | None]] | None
    reads: tuple[tuple[str, ...], ...]
    constants: dict[str, Any]
    units: dict[str, str | None]
    decisive: tuple[int, ...]
    #: GRP entries already rendered (:meth:`Trace.to_grp`) and the names each gate's entry shows.
    entries: dict[tuple[Any, ...], dict[str, Any]] = field(default_factory=dict)
    shown: dict[tuple[int, str], tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    #: Every name a GRP entry can show (:func:`shown_names`), and whole gold programs already rendered
    #: (:meth:`Trace.to_grp`), keyed by :func:`program_key`; each holds the remembered entries themselves.
    names: tuple[str, ...] = ()
    programs: dict[tuple[Any, ...], list[dict[str, Any]]] = field(default_factory=dict)


#: GRP entries kept per card before the memo is emptied.
ENTRY_MEMO_LIMIT = 4_000


def _plan(compiled: CompiledCard) -> _Plan:
    cached = getattr(compiled, "_plan", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    card = compiled.card
    index = {g.id: i for i, g in enumerate(card.gates)}
    reentry = {
        i: (index[g.reentry.to], g.reentry.condition.fn, g.reentry.max_iterations)
        for i, g in enumerate(card.gates)
        if g.reentry is not None
    }
    # Constants are folded into the compiled criteria; only a re-entry loop
    # needs a value in the environment (its iteration count).
    base_env: dict[str, Any] = {"iteration": Decimal(0)} if reentry else {}
    used = _used_values(card)
    deciders = tuple(_decider(g, used) for g in card.gates)
    plan = _Plan(
        deciders=deciders,
        classify=_classifier(compiled.classifier, used) if compiled.classifier is not None else None,
        reentry=reentry,
        weights=tuple(g.weight for g in card.gates),
        base_env=base_env,
        fast=_fast_runner(compiled, deciders) if not reentry else None,
        reads=tuple(tuple(sorted(n for n in g.reads if n != "iteration")) for g in card.gates),
        constants={name: value for name, (value, _) in card.constants.items()},
        units={name: t.unit for name, t in card.symbols.items()},
        decisive=tuple(g.number - 1 for g in card.gates if g.decisive),
        names=shown_names(card),
    )
    compiled._plan = plan  # type: ignore[attr-defined]
    return plan


def _used_values(card: Card) -> frozenset[str]:
    """Computed names that a later gate reads (in a criterion, a compute or a regime rule).

    These are the values a gate computes *for the card*: it cannot PROCEED
    without them. A value only the gate's own criteria read needs no rule
    (three-valued logic already keeps an unknown from deciding them), and one
    no expression reads (``premium``, ``current_ratio``: shown in the GRP
    only) never holds a gate back.
    """
    used: set[str] = set()
    later: set[str] = set()
    for g in reversed(card.gates):
        used |= set(g.compute) & later
        for expr in g.expressions():
            later |= expr.names
    return frozenset(used)


def shown_names(card: Card) -> tuple[str, ...]:
    """Every name some gate's GRP entry can show, in a fixed order (first use in card order).

    These are the gates' computed values, a classifier gate's own value
    (the regime it selected) and the fields of its required-element
    templates for any verdict (``{price}`` in "price {price}"). Apart from
    these names' values and the run's verdicts, a GRP (paper §6.3,
    Appendix E) shows nothing that varies between scenarios of one card.
    Public as :func:`ipb.engine.grp_view.grp_names`.

    Examples
    --------
    >>> from ipb.engine.registry import compiled_card
    >>> names = shown_names(compiled_card("buffett_acquisition_checklist").card)
    >>> "intrinsic_value" in names and len(names) == len(set(names))
    True
    """
    names: list[str] = []
    for g in card.gates:
        names += list(g.compute)
        if g.is_classifier:
            names.append(g.id)
        for templates in (g.required_elements, *g.elements_by_verdict.values()):
            for template in templates:
                names += ELEMENT_FIELD.findall(template)
    return tuple(dict.fromkeys(names))


#: The value of a name the environment does not hold in a :func:`program_key` (distinct from None).
_ABSENT = object()


def program_key(run: _Run, env: Mapping[str, Any], names: Sequence[str]) -> tuple[Any, ...]:
    """A hashable key of what one card's gold program (the GRP's gate entries) shows for ``run`` in ``env``.

    The run (verdicts, outcome, trigger, terminating gate, regime, gates off
    the branch, re-entry count) and, for each of ``names`` (the card's
    :func:`shown_names`), the environment's value with its type, or its
    absence. Two runs of one compiled card with equal keys render equal GRPs
    for the same ``scenario_id`` and ``layer`` (not in diagnostic mode):
    an entry shows only its gate's verdict, why it was not reached, the
    computed values and the template fields, each formatted from its type
    and value alone. Raises TypeError when a shown value cannot be hashed.
    """
    get = env.get
    values = tuple([(v.__class__, v) for v in [get(n, _ABSENT) for n in names]])
    return (tuple(run.verdicts), run.outcome, run.trigger, run.terminated_by, run.regime, run.off_branch,
            run.iterations, values)


def _fast_runner(
    compiled: CompiledCard, deciders: tuple[Decide, ...]
) -> Callable[[dict[str, Any]], tuple[list[Verdict], str, str, int | None]] | None:
    """A loop specialised for the two commonest shapes (conjunction chains).

    It returns (verdicts, outcome, trigger, index of the terminating gate).
    """
    card = compiled.card
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]
    n = len(deciders)
    triggers = tuple(f"gate_{i + 1}_reject" for i in range(n))
    decisive = tuple(g.number - 1 for g in card.gates if g.decisive)
    if card.topology_type == "linear_sequential" and compiled.family == "conjunction":

        def linear(env: dict[str, Any]) -> tuple[list[Verdict], str, str, int | None]:
            verdicts = [NOT_REACHED] * n
            i = 0
            for decide in deciders:
                v = decide(env)
                verdicts[i] = v
                if v is REJECT:
                    return verdicts, bad, triggers[i], i
                i += 1
            return (verdicts, *_cleared(verdicts, decisive, ok), None)

        return linear
    if card.topology_type == "parallel_threshold" and compiled.family == "conjunction":

        def parallel(env: dict[str, Any]) -> tuple[list[Verdict], str, str, int | None]:
            verdicts = [decide(env) for decide in deciders]
            for i, v in enumerate(verdicts):
                if v is REJECT:
                    return verdicts, bad, triggers[i], None
            return (verdicts, *_cleared(verdicts, decisive, ok), None)

        return parallel
    return None


# --------------------------------------------------------------------------- core

#: Deciders and a regime classifier standing in for a card's own (:func:`_run`'s ``given``).
_Given = tuple[Sequence[Decide], Callable[[dict[str, Any]], tuple[Verdict, "str | None"]] | None]


class _Run:
    """The bare result of one execution (no per-gate objects)."""

    __slots__ = ("verdicts", "outcome", "trigger", "terminated_by", "regime", "off_branch", "iterations")

    def __init__(
        self,
        verdicts: list[Verdict],
        outcome: str,
        trigger: str,
        terminated_by: int | None = None,
        regime: str | None = None,
        off_branch: frozenset[int] = frozenset(),
        iterations: int = 0,
    ) -> None:
        self.verdicts = verdicts
        self.outcome = outcome
        self.trigger = trigger
        self.terminated_by = terminated_by
        self.regime = regime
        self.off_branch = off_branch
        self.iterations = iterations


def _chain(
    deciders: Sequence[Decide],
    order: Sequence[int],
    verdicts: list[Verdict],
    env: dict[str, Any],
    stop_on: Verdict,
    reentry: Mapping[int, tuple[int, Callable[[Mapping[str, Any]], Any], int]] | None = None,
) -> tuple[int | None, int]:
    """Run gates ``order`` in sequence until one gives ``stop_on``; returns (stopper, loops)."""
    pos = 0
    loops = 0
    while pos < len(order):
        i = order[pos]
        v = deciders[i](env)
        verdicts[i] = v
        if v is stop_on:
            return i, loops
        if reentry and i in reentry:
            to, cond, bound = reentry[i]
            if loops < bound and cond(env) is True:
                loops += 1
                env["iteration"] = Decimal(loops)
                pos = order.index(to)
                continue
        pos += 1
    return None, loops


def _run(compiled: CompiledCard, env: dict[str, Any], given: "_Given | None" = None) -> _Run:
    """One execution; ``given`` (deciders, classifier) replaces the gates' own, with no re-entry loop
    (:func:`ipb.engine.stated.outcome_of_verdicts`: the gate logic on verdicts an answer stated)."""
    plan = _plan(compiled)
    if plan.fast is not None and given is None:
        verdicts, outcome, trigger, stopper = plan.fast(env)
        return _Run(verdicts, outcome, trigger, stopper)
    card = compiled.card
    deciders, classify = (plan.deciders, plan.classify) if given is None else given
    reentry = plan.reentry if given is None else None
    n = len(deciders)
    verdicts = [NOT_REACHED] * n
    ok, bad = card.outcomes["pass"], card.outcomes["fail"]
    family = compiled.family
    topology = card.topology_type

    if topology == "linear_sequential":
        stopper, loops = _chain(deciders, range(n), verdicts, env, REJECT, reentry)
        if family == "disjunction":
            if stopper is not None:
                return _Run(verdicts, bad, f"gate_{stopper + 1}_trigger", stopper, iterations=loops)
            return _disjunction_none_fired(verdicts, ok, loops)
        if stopper is not None:
            return _Run(verdicts, bad, f"gate_{stopper + 1}_reject", stopper, iterations=loops)
        return _Run(verdicts, *_cleared(verdicts, plan.decisive, ok), iterations=loops)

    if topology == "parallel_threshold":
        for i in range(n):
            verdicts[i] = deciders[i](env)
        if family == "conjunction":
            for i, v in enumerate(verdicts):
                if v is REJECT:
                    return _Run(verdicts, bad, f"gate_{i + 1}_reject")
            return _Run(verdicts, *_cleared(verdicts, plan.decisive, ok))
        if family == "disjunction":
            for i, v in enumerate(verdicts):
                if v is REJECT:
                    return _Run(verdicts, bad, f"gate_{i + 1}_trigger")
            return _disjunction_none_fired(verdicts, ok, 0)
        return _guard(_threshold(compiled, verdicts, plan.weights, ok, bad), plan.decisive, ok)

    # conditional_branch / regime_dependent
    classifier = compiled.classifier
    assert classifier is not None and classify is not None
    prefix = [g.number - 1 for g in compiled.prefix]
    stopper, _ = _chain(deciders, prefix, verdicts, env, REJECT)
    if stopper is not None:
        return _Run(verdicts, bad, f"gate_{stopper + 1}_reject", stopper)
    ci = classifier.number - 1
    verdict, regime = classify(env)
    verdicts[ci] = verdict
    if verdict is REJECT:
        return _Run(verdicts, bad, f"gate_{ci + 1}_reject", ci)
    if regime is None:
        return _Run(verdicts, INCONCLUSIVE_OUTCOME, "regime_undetermined", ci)
    branch = classifier.branches[regime]
    index = {g.id: g.number - 1 for g in card.gates}
    order = [index[gid] for gid in branch.gates]
    off = frozenset(i for i in range(n) if i != ci and i not in order and i not in prefix)
    stopper, _ = _chain(deciders, order, verdicts, env, REJECT)
    if stopper is not None:
        return _Run(verdicts, branch.fail_outcome, f"regime_{regime}_gate_{stopper + 1}_reject", stopper, regime, off)
    outcome, trigger = _cleared(verdicts, plan.decisive, branch.pass_outcome)
    if outcome == INCONCLUSIVE_OUTCOME:
        return _Run(verdicts, outcome, f"regime_{regime}_{trigger}", None, regime, off)
    return _Run(verdicts, outcome, f"regime_{regime}", None, regime, off)


def _cleared(verdicts: Sequence[Verdict], decisive: Sequence[int], ok: str) -> tuple[str, str]:
    """Outcome and trigger of a conjunction with no REJECT.

    INCONCLUSIVE gates do not stop a chain (paper §7.3), but the card is not
    cleared when a gate declared ``decisive`` is INCONCLUSIVE, nor when no
    gate at all PROCEEDed: then the final verdict is INCONCLUSIVE.
    """
    for i in decisive:
        if verdicts[i] is INCONCLUSIVE:
            return INCONCLUSIVE_OUTCOME, f"gate_{i + 1}_inconclusive"
    if PROCEED not in verdicts:
        return INCONCLUSIVE_OUTCOME, "no_gate_decided"
    return ok, "all_gates_cleared"


def _guard(run: _Run, decisive: Sequence[int], ok: str) -> _Run:
    """Keep ``run`` from the pass verdict ``ok`` while a decisive gate is INCONCLUSIVE.

    The rule of :func:`_cleared` for an n-of-m join (a disjunction needs
    every gate decided anyway): the pass verdict becomes INCONCLUSIVE with
    trigger ``gate_K_inconclusive`` (K: the first such gate).
    """
    if run.outcome != ok:
        return run
    for i in decisive:
        if run.verdicts[i] is INCONCLUSIVE:
            run.outcome, run.trigger = INCONCLUSIVE_OUTCOME, f"gate_{i + 1}_inconclusive"
            return run
    return run


def _disjunction_none_fired(verdicts: list[Verdict], ok: str, loops: int) -> _Run:
    """No trigger fired: the pass verdict when every trigger was checked, else INCONCLUSIVE."""
    if all(v is PROCEED for v in verdicts):
        return _Run(verdicts, ok, "no_trigger_fired", iterations=loops)
    return _Run(verdicts, INCONCLUSIVE_OUTCOME, "undetermined", iterations=loops)


def _threshold(
    compiled: CompiledCard, verdicts: list[Verdict], weights: Sequence[Decimal], ok: str, bad: str
) -> _Run:
    threshold = compiled.card.threshold
    assert threshold is not None
    counted = PROCEED if threshold.count == "PROCEED" else REJECT
    # Exact sums (issue 16: three weights of 1/3 make exactly 1); weights are bounded to 10^±100 at load.
    hit = sum((as_fraction(w) for v, w in zip(verdicts, weights) if v is counted), Fraction(0))
    open_ = sum((as_fraction(w) for v, w in zip(verdicts, weights) if v is INCONCLUSIVE), Fraction(0))
    need = as_fraction(threshold.min_weight)
    count = sum(1 for v in verdicts if v is counted)
    m = len(verdicts)
    met_outcome, unmet_outcome = (ok, bad) if counted is PROCEED else (bad, ok)
    if hit >= need:
        return _Run(verdicts, met_outcome, f"threshold_met_{count}_of_{m}")
    if hit + open_ < need:
        # enough gates counted but too little weight (a veto by weight, s53newuser): said so, not "threshold"
        reason = "weight" if count >= threshold.n else "threshold"
        return _Run(verdicts, unmet_outcome, f"{reason}_not_met_{count}_of_{m}")
    return _Run(verdicts, INCONCLUSIVE_OUTCOME, f"threshold_undecided_{count}_of_{m}")


def weight_note(trace: "Trace") -> str | None:
    """For a weighted-threshold verdict whose weights decided it: the counted weight against ``min_weight``.

    ``weight_not_met_3_of_4`` (three gates counted, as ``at_least`` asks, their weights 3 short of
    ``min_weight: 4``) reads ``weight 3 < min_weight 4``; None where the weights do not matter (every weight 1 and
    ``min_weight`` equal to ``at_least``) or the card has no threshold.
    """
    threshold = trace.card.threshold
    if threshold is None or not trace.trigger.startswith(("threshold_", "weight_")):
        return None
    if not weights_count(trace.card):
        return None
    weights = [as_fraction(g.weight) for g in trace.card.gates]
    counted = threshold.count
    hit = sum((w for r, w in zip(trace.gates, weights) if r.verdict.value == counted), Fraction(0))
    sign = ">=" if hit >= as_fraction(threshold.min_weight) else "<"
    return f"weight {format_value(public(hit))} {sign} min_weight {format_value(threshold.min_weight)}"


# --------------------------------------------------------------------------- traces


class GateResult:
    """One gate in a trace.

    ``verdict`` is N/A for a gate the chain did not reach; then
    ``na_reason`` says why (``terminated_by_gate_K``, ``not_on_branch_R``)
    and, in diagnostic mode, ``diagnostic_verdict`` holds what it would have
    given. ``computed`` maps the gate's computed value names to numbers
    (Decimal, or None when unknown); ``values`` maps every name the gate's
    criteria read to its value in this scenario.
    """

    __slots__ = ("gate", "verdict", "kill_triggered", "na_reason", "diagnostic_verdict", "_trace")

    def __init__(
        self,
        gate: Gate,
        verdict: Verdict,
        kill_triggered: bool,
        na_reason: str | None,
        trace: "Trace | _Scene",
    ) -> None:
        self.gate = gate
        self.verdict = verdict
        self.kill_triggered = kill_triggered
        self.na_reason = na_reason
        self.diagnostic_verdict: Verdict | None = None
        self._trace = trace

    def _env(self) -> dict[str, Any]:
        trace = self._trace
        if self.verdict is NOT_REACHED and trace.diagnostic_env is not None:
            return trace.diagnostic_env
        return trace.env

    @property
    def computed(self) -> dict[str, Any]:
        if self.verdict is NOT_REACHED and self.diagnostic_verdict is None:
            return {}
        env = self._env()
        values = {name: public(env.get(name)) for name in self.gate.compute}
        if self.gate.is_classifier:
            values[self.gate.id] = env.get(self.gate.id)
        return values

    @property
    def values(self) -> dict[str, Any]:
        env = self._env()
        constants = self._trace._plan.constants
        return {
            name: public(env[name] if name in env else constants.get(name))
            for name in self._trace._plan.reads[self.gate.number - 1]
        }

    def __repr__(self) -> str:
        return f"GateResult({self.gate.number}, {self.gate.id!r}, {self.verdict.value})"


class Trace:
    """The executed gold reasoning program of one card on one scenario.

    ``gates`` holds one :class:`GateResult` per gate in card order;
    ``outcome`` is the final verdict in the card's vocabulary (or
    INCONCLUSIVE) and ``trigger`` what decided it (``gate_5_reject``,
    ``all_gates_cleared``, ``threshold_met_4_of_7``, ``regime_hot``...).
    """

    def __init__(
        self,
        compiled: CompiledCard,
        run: "_Run",
        env: dict[str, Any],
        *,
        diagnostic: bool = False,
        scenario_id: str | None = None,
        layer: str | None = None,
    ) -> None:
        self.card = compiled.card
        self._plan = _plan(compiled)
        self.outcome = run.outcome
        self.trigger = run.trigger
        self.regime = run.regime
        self.iterations = run.iterations
        self.diagnostic = diagnostic
        self.scenario_id = scenario_id
        self.layer = layer
        self._scene = _Scene(env, self._plan)
        self._run = run

    @property
    def env(self) -> dict[str, Any]:
        """The environment the gates ran in (the facts and every computed value)."""
        return self._scene.env

    @env.setter
    def env(self, env: dict[str, Any]) -> None:
        self._scene.env = env

    @property
    def diagnostic_env(self) -> dict[str, Any] | None:
        """The environment in which diagnostic mode ran the skipped gates."""
        return self._scene.diagnostic_env

    @diagnostic_env.setter
    def diagnostic_env(self, env: dict[str, Any] | None) -> None:
        self._scene.diagnostic_env = env

    @cached_property
    def gates(self) -> list[GateResult]:
        """One :class:`GateResult` per gate, in card order (built on first use)."""
        run = self._run
        results = []
        for i, (g, v) in enumerate(zip(self.card.gates, run.verdicts)):
            na_reason = self._na_reason(i) if v is NOT_REACHED else None
            results.append(GateResult(g, v, v is REJECT and g.kill_criterion is not None, na_reason, self._scene))
        return results

    def gate(self, key: str | int) -> GateResult:
        """A gate's result by id or 1-based number."""
        for r in self.gates:
            if r.gate.id == key or r.gate.number == key:
                return r
        raise KeyError(key)

    def verdicts(self) -> list[str]:
        """Every gate's verdict in card order: PROCEED, REJECT, INCONCLUSIVE or N/A."""
        return [v.value for v in self._run.verdicts]

    def _elements(self, r: GateResult) -> list[str]:
        if r.verdict is NOT_REACHED:
            return []
        elements = r.gate.elements_for(r.verdict.value)
        if not any("{" in e for e in elements):
            return list(elements)
        # the environment before the constants (as {**constants, **env}), looked up per field, not merged per call
        env, constants, units = self.env, self._plan.constants, self._plan.units

        def shown(m: Match[str]) -> str:
            name = m.group(1)
            return format_value(env[name] if name in env else constants.get(name), units.get(name))

        return [ELEMENT_FIELD.sub(shown, e) for e in elements]

    def _entry(self, r: GateResult) -> dict[str, Any]:
        g = r.gate
        if r.verdict is NOT_REACHED:
            kill = r.na_reason
        else:
            kill = g.kill_criterion if r.kill_triggered else None
        entry: dict[str, Any] = {
            "gate": g.number,
            "name": g.name,
            "verdict": r.verdict.value,
            "kill_criterion": kill,
            "required_elements": self._elements(r),
            "kill_triggered": r.kill_triggered,
            "computed_value": _computed_text(r),
        }
        if r.diagnostic_verdict is not None:
            entry["diagnostic_verdict"] = r.diagnostic_verdict.value
        return entry

    def _entry_key(self, r: GateResult) -> tuple[Any, ...]:
        """What a gate's GRP entry depends on: its verdicts and the values its computed text and elements show."""
        if r.verdict is NOT_REACHED:
            return (r.gate.number, r.verdict, r.na_reason, r.diagnostic_verdict)
        return self._shown_key(r.gate, r.verdict, r.kill_triggered, r.diagnostic_verdict)

    def _na_reason(self, i: int) -> str:
        """Why gate ``i`` (0-based) was not reached (as :attr:`gates` gives it)."""
        run = self._run
        if i in run.off_branch:
            return f"not_on_branch_{run.regime}"
        if run.terminated_by is not None:
            return f"terminated_by_gate_{run.terminated_by + 1}"
        return "not_reached"

    def _shown_key(self, g: Gate, verdict: Verdict, kill_triggered: bool,
                   diagnostic_verdict: Verdict | None) -> tuple[Any, ...]:
        """:meth:`_entry_key` of a reached gate."""
        names = self._plan.shown.get((g.number, verdict.value))
        if names is None:
            fields = [f for e in g.elements_for(verdict.value) for f in ELEMENT_FIELD.findall(e)]
            names = self._plan.shown[(g.number, verdict.value)] = (
                tuple(g.compute) + ((g.id,) if g.is_classifier else ()), tuple(dict.fromkeys(fields)))
        env = self.env
        computed = tuple([(v.__class__, v) for v in map(env.get, names[0])])
        if names[1]:
            constants = self._plan.constants
            shown = tuple([(v.__class__, v) for v in (env[n] if n in env else constants.get(n) for n in names[1])])
        else:
            shown = ()
        return (g.number, verdict, kill_triggered, diagnostic_verdict, computed, shown)

    def to_grp(self, shared: bool = False) -> dict[str, Any]:
        """The GRP in the schema of paper §6.3 / Appendix E (Table E.1).

        A gate's entry is remembered per card, keyed by its verdicts and the
        exact values (with their types) that its computed text and required
        elements show, so many scenarios sharing a gate's values (perturbed
        items of one base) render it once. ``shared``: a remembered entry
        is given as the memo's own dict, not a copy (for a caller that only
        serialises the GRP and drops it; the value is the same).
        """
        program = []
        memo = self._plan.entries
        if "gates" in self.__dict__ or self.diagnostic_env is not None:
            for r in self.gates:
                key = self._entry_key(r)
                entry = memo.get(key)
                if entry is None:
                    if len(memo) >= ENTRY_MEMO_LIMIT:
                        memo.clear()
                    entry = memo[key] = self._entry(r)
                program.append({**entry, "required_elements": list(entry["required_elements"])})
        else:
            # The whole program, remembered by everything it shows (program_key): one lookup for most scenarios
            # of a perturbed run; else each entry by the same keys as _entry_key, from the run's verdicts, without
            # building the GateResult objects (they are built only when an entry is not remembered).
            run = self._run
            plan = self._plan
            programs = plan.programs
            whole: tuple[Any, ...] | None
            try:
                whole = program_key(run, self.env, plan.names)
                remembered = programs.get(whole)
            except TypeError:  # a shown value that cannot be a key: the loop below raises as it always did
                whole = remembered = None
            if remembered is None:
                remembered = []
                for i, (g, v) in enumerate(zip(self.card.gates, run.verdicts)):
                    if v is NOT_REACHED:
                        key = (g.number, v, self._na_reason(i), None)
                    else:
                        key = self._shown_key(g, v, v is REJECT and g.kill_criterion is not None, None)
                    entry = memo.get(key)
                    if entry is None:
                        if len(memo) >= ENTRY_MEMO_LIMIT:
                            memo.clear()
                        entry = memo[key] = self._entry(self.gates[i])
                    remembered.append(entry)
                if whole is not None:
                    if len(programs) >= ENTRY_MEMO_LIMIT:
                        programs.clear()
                    programs[whole] = remembered
            program = list(remembered) if shared else [
                {**entry, "required_elements": list(entry["required_elements"])} for entry in remembered]
        grp: dict[str, Any] = {}
        if self.scenario_id is not None:
            grp["question_id"] = self.scenario_id
        if self.layer is not None:
            grp["layer"] = self.layer
        grp["framework"] = self.card.id
        grp["gold_program"] = program
        grp["investment_verdict"] = self.outcome
        grp["verdict_trigger"] = self.trigger
        if self.regime is not None:
            grp["regime"] = self.regime
        if any(g.reentry is not None for g in self.card.gates):
            grp["iterations"] = self.iterations
        if self.diagnostic:
            grp["diagnostic"] = True
        return grp


def _render_element(template: str, env: Mapping[str, Any], units: Mapping[str, str | None]) -> str:
    return ELEMENT_FIELD.sub(lambda m: format_value(env.get(m.group(1)), units.get(m.group(1))), template)


def _computed_text(r: GateResult) -> str | None:
    if r.verdict is NOT_REACHED:
        return None
    if r.gate.is_classifier:
        return None if r.computed.get(r.gate.id) is None else str(r.computed[r.gate.id])
    items = [(n, v) for n, v in r.computed.items()]
    if not items:
        return None
    units = r._trace._plan.units
    if len(items) == 1:
        return format_value(items[0][1], units[items[0][0]])
    return "; ".join(f"{n} = {format_value(v, units[n])}" for n, v in items)


def format_value(value: Any, unit: str | None = None) -> str:
    """Human form of a value: money as $25B / $1.25B (under $1M in full: $1,107), ratios as 25%, multiples as 20x.

    >>> format_value(Decimal("25000000000"), "money"), format_value(Decimal("0.955"), "ratio")
    ('$25B', '95.5%')
    >>> format_value(None)
    'unknown'
    """
    if value is None:
        return "unknown"
    key = (value.__class__, value, unit)
    try:
        return _FORMATTED[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable value
        return _format_value(value, unit)
    if len(_FORMATTED) >= _FORMATTED_LIMIT:
        _FORMATTED.clear()
    text = _FORMATTED[key] = _format_value(value, unit)
    return text


#: :func:`format_value` remembers at most this many texts (its output depends only on the value's type, its
#: numeric value, not how it is written (a Decimal is quantized and normalized), and the unit).
_FORMATTED_LIMIT = 2048
_FORMATTED: dict[tuple[Any, Any, str | None], str] = {}


def _format_value(value: Any, unit: str | None) -> str:
    value = public(value)  # an exact Fraction from the engine, shown to 28 digits
    if isinstance(value, bool):
        return "true" if value else "false"
    if not isinstance(value, Decimal):
        return str(value)
    if unit == "ratio":
        return _trim(value * 100) + "%"
    if unit == "multiple":
        return _trim(value) + "x"
    if unit == "money":
        sign = "-" if value < 0 else ""
        mag = abs(value)
        if mag.adjusted() >= _SCIENTIFIC_DIGITS + 12:  # more than 15 digits of trillions: $9e99, not $9000...000T
            return f"{sign}${_scientific(mag)}"
        for suffix, scale in (("T", Decimal(10) ** 12), ("B", Decimal(10) ** 9), ("M", Decimal(10) ** 6)):
            if mag >= scale:
                return f"{sign}${_trim(mag / scale)}{suffix}"
        if mag >= 1000:
            return f"{sign}${_thousands(mag)}"
        return f"{sign}${_trim(mag)}"
    return _trim(value)


def _env_for(compiled: CompiledCard, facts: Mapping[str, Any]) -> dict[str, Any]:
    env = dict(_plan(compiled).base_env)
    env.update(facts)
    return env


def execute(
    compiled: CompiledCard,
    facts: Mapping[str, Any],
    *,
    diagnostic: bool = False,
    scenario_id: str | None = None,
    layer: str | None = None,
) -> Trace:
    """Execute ``compiled`` on one scenario's facts and return the full trace.

    Parameters
    ----------
    compiled:
        From :func:`ipb.engine.graph.compile_card`.
    facts:
        Input name -> value (Decimal for numbers: ratios in [0, 1], money in
        USD; bool; category string; ``datetime.date``). A missing name is
        unknown. Use :func:`ipb.engine.scenario.load_scenario` to read and
        check a scenario file.
    diagnostic:
        Also evaluate gates the chain never reached, and report what they
        would have given (``diagnostic_verdict``; their verdict stays N/A).

    Returns
    -------
    Trace
        Gate verdicts, computed values, the final verdict and its trigger;
        ``Trace.to_grp()`` is the paper's GRP (§6.3, Appendix E).

    References
    ----------
    Paper §7.3 (PROCEED / REJECT / INCONCLUSIVE; a chain terminates at the
    first REJECT), §6.3 (GRP), Table 9 (diagnostic view of Perturbation C).
    """
    env = _env_for(compiled, facts)
    trace = Trace(compiled, _run(compiled, env), env, diagnostic=diagnostic, scenario_id=scenario_id, layer=layer)
    if diagnostic:
        # The skipped gates run in a copy, so nothing they compute changes
        # what the gates that did run report.
        trace.diagnostic_env = dict(env)
        _diagnose(compiled, trace.diagnostic_env, trace.gates)
    return trace


def _diagnose(compiled: CompiledCard, env: dict[str, Any], results: list[GateResult]) -> None:
    """Evaluate each unreached gate in order, as if the chain had continued."""
    plan = _plan(compiled)
    for i, r in enumerate(results):
        if r.verdict is not NOT_REACHED:
            continue
        g = r.gate
        if g.is_classifier and plan.classify is not None:
            verdict, _ = plan.classify(env)
        else:
            verdict = plan.deciders[i](env)
        r.diagnostic_verdict = verdict


class BatchResult(NamedTuple):
    """Compact result of one scenario in :func:`execute_many`."""

    outcome: str
    trigger: str
    verdicts: tuple[Verdict, ...]


def execute_many(compiled: CompiledCard, scenarios: Iterable[Mapping[str, Any]]) -> Iterator[BatchResult]:
    """Execute one card on many scenarios' facts, yielding verdicts only.

    The perturbation workload: no per-gate trace objects are built, so it runs
    close to a hand-written function. Results equal :func:`execute`'s outcome,
    trigger and verdicts for every scenario; the facts mappings are not
    modified.
    """
    plan = _plan(compiled)
    base = plan.base_env
    fast = plan.fast
    if fast is not None:
        for facts in scenarios:
            verdicts, outcome, trigger, _ = fast(dict(facts))
            yield BatchResult(outcome, trigger, tuple(verdicts))
        return
    for facts in scenarios:
        run = _run(compiled, {**base, **facts})
        yield BatchResult(run.outcome, run.trigger, tuple(run.verdicts))
