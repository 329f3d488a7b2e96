"""Execute a card for its GRP alone: the verdicts and the values a GRP shows, without a full :class:`Trace`.

:func:`grp_view` is the entry point for callers that execute many scenarios
of one card and need only what the gold reasoning program (paper §6.3,
Appendix E, Table E.1) shows: ``ipb verify`` re-executes every published
item and compares its GRP. It runs the same executor as
:func:`ipb.engine.execute.execute` (``diagnostic=False``) and keeps the bare
run (per-gate verdicts, outcome, trigger, the terminating gate, regime,
gates off the branch, re-entry count) and the scenario's environment; no
per-gate objects are built. What it returns can say, cheaply,

* :attr:`GrpView.key`: a hashable value such that two views of one compiled
  card with equal keys render equal GRPs (for the same ``scenario_id`` and
  ``layer``): the run and, with their types, the values of every name a GRP
  entry can show (:func:`grp_names`);
* :meth:`GrpView.entry_key`: the same for one gate's entry;

and renders, when asked, exactly what ``execute(...).to_grp()`` gives
(:meth:`GrpView.to_grp`, :meth:`GrpView.header`, :meth:`GrpView.entry`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ipb.engine.execute import (ENTRY_MEMO_LIMIT, NOT_REACHED, REJECT, GateResult, Trace, _env_for, _plan, _run, _Run,
                                program_key, shown_names)

if TYPE_CHECKING:  # annotations only (the graph module loads networkx)
    from ipb.engine.graph import CompiledCard

__all__ = ["GrpView", "grp_view", "grp_names", "forget_rendered"]

#: Every name some gate's GRP entry can show, in a fixed order: :func:`ipb.engine.execute.shown_names`.
grp_names = shown_names


class GrpView:
    """One execution of a card on a scenario, kept for its GRP (built by :func:`grp_view`).

    Attributes
    ----------
    card:
        The executed card.
    verdicts:
        One :class:`~ipb.engine.logic.Verdict` per gate, in card order
        (``NOT_REACHED`` for N/A); length ``len(card.gates)``.
    outcome, trigger:
        The final verdict (the card's vocabulary, or INCONCLUSIVE) and what
        decided it, as :class:`~ipb.engine.execute.Trace` gives them.
    key:
        Hashable; equal for two views of one compiled card exactly when
        their runs are equal and every name of :func:`grp_names` has an
        equal value of the same type (or is absent in both). Equal keys
        imply equal :meth:`to_grp` for equal ``scenario_id`` and ``layer``.
        Do not compare keys across cards.
    """

    __slots__ = ("card", "verdicts", "outcome", "trigger", "key", "_compiled", "_run", "_env", "_trace")

    def __init__(self, compiled: CompiledCard, run: _Run, env: dict[str, Any], names: tuple[str, ...]) -> None:
        self.card = compiled.card
        self._compiled = compiled
        self._run = run
        self._env = env
        self._trace: Trace | None = None
        self.key = program_key(run, env, names)
        self.verdicts = self.key[0]  # tuple(run.verdicts), made once for the key
        self.outcome = run.outcome
        self.trigger = run.trigger

    def _traced(self) -> Trace:
        trace = self._trace
        if trace is None:
            trace = self._trace = Trace(self._compiled, self._run, self._env)
        return trace

    def to_grp(self, scenario_id: str | None = None, layer: str | None = None) -> dict[str, Any]:
        """The GRP, equal to ``execute(compiled, facts, scenario_id=..., layer=...).to_grp()`` (paper §6.3)."""
        trace = Trace(self._compiled, self._run, self._env, scenario_id=scenario_id, layer=layer)
        grp = trace.to_grp()
        trace.__dict__.pop("gates", None)  # the trace and its gates refer to each other: free them without the GC
        return grp

    def header(self) -> dict[str, Any]:
        """The GRP's fields other than ``question_id``, ``layer`` and ``gold_program``, as :meth:`to_grp` gives them.

        ``framework``, ``investment_verdict``, ``verdict_trigger``, and
        ``regime`` (a regime card) and ``iterations`` (a card with re-entry)
        where :meth:`to_grp` has them.
        """
        run = self._run
        out: dict[str, Any] = {"framework": self.card.id, "investment_verdict": run.outcome,
                               "verdict_trigger": run.trigger}
        if run.regime is not None:
            out["regime"] = run.regime
        if any(g.reentry is not None for g in self.card.gates):
            out["iterations"] = run.iterations
        return out

    def entry_key(self, i: int) -> tuple[Any, ...]:
        """A hashable key of gate ``i``'s (0-based) GRP entry: equal keys of one card's gate, equal entries.

        It is the key :meth:`Trace.to_grp` remembers the entry by: the gate's
        verdict, why it was not reached (N/A), and the values its computed
        text and its required elements for that verdict show.
        """
        trace = self._traced()
        g = self.card.gates[i]
        v = self.verdicts[i]
        if v is NOT_REACHED:
            return (g.number, v, trace._na_reason(i), None)
        return trace._shown_key(g, v, v is REJECT and g.kill_criterion is not None, None)

    def entry(self, i: int) -> dict[str, Any]:
        """Gate ``i``'s (0-based) entry of :meth:`to_grp`'s ``gold_program`` (a fresh dict).

        Rendered through the same per-card memo of entries as :meth:`Trace.to_grp`.
        """
        trace = self._traced()
        key = self.entry_key(i)
        memo = trace._plan.entries
        entry = memo.get(key)
        if entry is None:
            if len(memo) >= ENTRY_MEMO_LIMIT:
                memo.clear()
            g = self.card.gates[i]
            v = self.verdicts[i]
            # the one gate's result, as Trace.gates builds it (without the list of all of them, which would make
            # a reference cycle between the trace and its gates)
            result = GateResult(g, v, v is REJECT and g.kill_criterion is not None,
                                trace._na_reason(i) if v is NOT_REACHED else None, trace)
            entry = memo[key] = trace._entry(result)
        return {**entry, "required_elements": list(entry["required_elements"])}


def grp_view(compiled: CompiledCard, facts: Mapping[str, Any]) -> GrpView:
    """Execute ``compiled`` on one scenario's facts and keep only what its GRP shows.

    The same execution as :func:`ipb.engine.execute.execute` without
    diagnostic mode (paper §7.3: a chain stops at its first REJECT), minus
    the :class:`~ipb.engine.execute.Trace` and its per-gate objects, which
    are built only if the GRP is rendered.

    Parameters
    ----------
    compiled:
        From :func:`ipb.engine.graph.compile_card`.
    facts:
        Input name -> engine value (Decimal for numbers: ratios in [0, 1],
        money in USD; bool; category string; ``datetime.date``); a missing
        name is unknown. Not modified.

    Returns
    -------
    GrpView
        Verdicts, outcome, trigger and :attr:`GrpView.key`;
        ``grp_view(c, f).to_grp(sid, layer) == execute(c, f, scenario_id=sid,
        layer=layer).to_grp()`` for every card and scenario.

    References
    ----------
    Paper §6.3 and Appendix E (the GRP), §7.3 (gate verdicts).

    Examples
    --------
    >>> from decimal import Decimal
    >>> from ipb.engine.registry import compiled_card
    >>> from ipb.engine.execute import execute
    >>> c = compiled_card("buffett_acquisition_checklist")
    >>> facts = {"price": Decimal("5E10"), "net_income": Decimal("1E9")}
    >>> v = grp_view(c, facts)
    >>> v.outcome == execute(c, facts).outcome, v.to_grp("q1", "L7") == execute(c, facts, scenario_id="q1", layer="L7").to_grp()
    (True, True)
    """
    env = _env_for(compiled, facts)
    return GrpView(compiled, _run(compiled, env), env, _plan(compiled).names)


def forget_rendered(compiled: CompiledCard) -> int:
    """Empty the whole gold programs ``compiled`` remembers (:meth:`Trace.to_grp`'s memo by
    :func:`~ipb.engine.execute.program_key`, at most ``ENTRY_MEMO_LIMIT``); returns how many were held.

    No result changes: a later GRP is rendered again, the same. The gate entries stay: :class:`GrpView` (``ipb
    verify``) reads them, and never the whole programs. A generation run calls this when it ends
    (:meth:`ipb.perturb._pool._Pool.close`): the compiled card outlives the run (the registry keeps it), and the
    programs were carried into an ``ipb verify`` in the same process (s60speed: a 10,000-item run then its
    verification in one process peaked at 90.2 MiB, 88.2 with them dropped; verification's CPU time the same).

    Examples
    --------
    >>> from decimal import Decimal
    >>> from ipb.engine.registry import compiled_card
    >>> from ipb.engine.execute import execute
    >>> c = compiled_card("buffett_acquisition_checklist")
    >>> facts = {"price": Decimal("5E10"), "net_income": Decimal("1E9")}
    >>> grp = execute(c, facts, scenario_id="q1", layer="L7").to_grp()
    >>> forget_rendered(c) > 0, forget_rendered(c)
    (True, 0)
    >>> execute(c, facts, scenario_id="q1", layer="L7").to_grp() == grp
    True
    """
    plan = getattr(compiled, "_plan", None)
    if plan is None:
        return 0
    held = len(plan.programs)
    plan.programs.clear()
    return held
