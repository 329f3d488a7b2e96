"""The fixed part of a perturbation: the cards, their merged inputs, the base scenario.

Perturbation changes the scenario and never the framework (paper §6.5: gate
set, kill criteria and ordering stay fixed). A :class:`Frame` holds what
stays fixed: one card for an L7 item, several investors' cards for an L8 item
(Appendix A.3: one novel scenario, a gold trace per investor), with the
union of their inputs. A fact shared by name between cards is one value of
one world, so a shared input must have one type in every card; its plausible
range is the intersection of the cards' ranges and its category values the
intersection of their values.

A :class:`PScenario` is a scenario in engine values plus what perturbation
tracks beside the facts: the decision date, the sector and regime context,
and the publication date of each macro fact.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field, replace
from operator import ne
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Mapping, Sequence

from ipb.engine._json import canonical_json
from ipb.engine._yaml import load_yaml_file
from ipb.engine.card import Card, Constraint, InputSpec
from ipb.engine.execute import INCONCLUSIVE_OUTCOME, execute, execute_many
from ipb.engine.expressions import category
from ipb.engine.graph import CompiledCard, compile_card
from ipb.engine.registry import compiled_card
from ipb.engine.logic import Verdict
from ipb.engine.sweep import Constant, dependent_gates, line_runner, prepare
from ipb.engine.sweep import line_key as sweep_key, prepared_outcome
from ipb.engine.scenario import typed_facts
from ipb.errors import ErrorGroup, LoadError, PerturbError, did_you_mean
from ipb.perturb.partial_derived import stated_partial
from ipb.perturb.deck import deck_errors, set_deck
from ipb.perturb.derive_rules import refuse_two_derive_rules
from ipb.perturb.derive_rounding import base_constraint_errors, rounds_across
from ipb.perturb.gate_lines import profile_line, verdict_line
from ipb.perturb.undecided import undecided_on_stated_facts
from ipb.perturb.registries import RegimeRegistry, SectorRegistry, bundled_regimes, bundled_sectors
from ipb.perturb.sector_registry import base_states, omission_checks
from ipb.perturb.values import Grid, consumed_inputs, input_grid, literal, read_inputs
from ipb.perturb.vintage import Window, date_problem, framework_window

_REJECT = Verdict.REJECT

__all__ = ["PScenario", "Frame", "build_frame", "load_base", "base_from_facts", "card_outcomes", "relevant_key",
           "held_by_reject_of", "shared_range", "narrower_derived", "exempt_violations"]


@dataclass(frozen=True)
class PScenario:
    """A scenario as perturbation works on it.

    Attributes
    ----------
    facts:
        Input name -> engine value (Decimal, bool, category str, date);
        a missing name is unknown.
    as_of:
        The decision date, or None.
    id, title:
        Of the base scenario.
    sector, regime:
        Registry ids of the sector and macro regime the scenario is placed
        in, when an operator placed it there.
    published:
        Fact name -> the date its value was published (macro facts set by
        temporal displacement).
    """

    facts: Mapping[str, Any]
    as_of: dt.date | None = None
    id: str = "scenario"
    title: str = ""
    sector: str | None = None
    regime: str | None = None
    published: Mapping[str, dt.date] = field(default_factory=dict)

    def with_facts(self, facts: Mapping[str, Any], **changes: Any) -> "PScenario":
        """A copy with ``facts`` (a fact whose value changed loses its publication date)."""
        published = {k: d for k, d in self.published.items() if facts.get(k) == self.facts.get(k)}
        if "published" in changes:
            published.update(changes.pop("published"))
        if not changes:  # the common case, without dataclasses.replace's field walk
            return PScenario(dict(facts), self.as_of, self.id, self.title, self.sector, self.regime, published)
        if changes.keys() <= {"as_of", "sector", "regime"}:
            return PScenario(dict(facts), changes.get("as_of", self.as_of), self.id, self.title,
                             changes.get("sector", self.sector), changes.get("regime", self.regime), published)
        return replace(self, facts=dict(facts), published=published, **changes)


#: :meth:`Frame.complete` remembers at most this many derived values per frame (then starts again; memory flat in N).
DERIVED_MEMO_LIMIT = 1 << 16


@dataclass
class Frame:
    """What a perturbation holds fixed.

    ``cards`` in the order given; ``inputs`` their merged inputs in first-seen
    order; ``grids`` the plausible grid of each numeric input with a range;
    ``consumers`` each input that some gate reads -> ``card_id/gate_id``
    strings; ``windows`` each card's vintage window.
    """

    cards: tuple[CompiledCard, ...]
    inputs: dict[str, InputSpec]
    grids: dict[str, Grid]
    consumers: dict[str, tuple[str, ...]]
    windows: tuple[Window, ...]
    sectors: SectorRegistry
    regimes: RegimeRegistry
    fm6_probe: bool = False
    _card_inputs: tuple[frozenset[str], ...] = ()
    #: The L8 base scenario's own ``constraints:`` over the deck's inputs (``require`` only; set by
    #: :func:`load_base`), labelled ``deck/ID``; ``deck_record`` is what the manifest records of them.
    deck: tuple[Constraint, ...] = ()
    deck_record: dict[str, Any] | None = None
    #: Operators' per-frame caches (what depends only on the cards and registries).
    memo: dict[Any, Any] = field(default_factory=dict)

    @property
    def layer(self) -> str:
        """``L7`` for one card, ``L8`` for several investors' cards."""
        return "L7" if len(self.cards) == 1 else "L8"

    @property
    def card_ids(self) -> tuple[str, ...]:
        return tuple(c.card.id for c in self.cards)

    def facts_for(self, index: int, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The facts card ``index`` declares (an L8 scenario may hold facts other cards read)."""
        names = self._card_inputs[index]
        return {k: v for k, v in facts.items() if k in names}

    def outcomes(self, facts: Mapping[str, Any]) -> tuple[str, ...]:
        """The final verdict of every card on ``facts``."""
        return self.outcomes_many([facts])[0]

    @property
    def derived(self) -> frozenset[str]:
        """Inputs some card computes from others (``constraints: - derive:``); operators never draw them."""
        found = self.memo.get("derived")
        if found is None:
            found = self.memo["derived"] = frozenset(k.derive for c in self.cards for k in c.card.constraints
                                                     if k.derive is not None)
        return found  # type: ignore[no-any-return]

    def derived_closure(self, names: Iterable[str], *, every: bool) -> frozenset[str]:
        """``names`` and the derived inputs that follow from them through ``derive:`` constraints, to a fixed point (in
        an L8 frame one card's derived input may be another's plain input that it derives from, in either order).
        ``every``: one joins once every input of its card that its ``value`` reads is in the set (what a scenario
        stating ``names`` states); else once its ``value`` reads any of them (what moving ``names`` may move).

        >>> f = build_frame(["dalio_debt_supercycle_navigation"])  # yield_curve_slope = long_bond_yield - policy_rate
        >>> sorted(f.derived_closure(["long_bond_yield"], every=False)), sorted(f.derived_closure(["long_bond_yield"], every=True))
        (['long_bond_yield', 'yield_curve_slope'], ['long_bond_yield'])
        """
        rules = self.memo.get("derive_reads")
        if rules is None:  # (derived input, the inputs of its card its value reads): read once per frame
            rules = self.memo["derive_reads"] = tuple((k.derive, k.expr.names & self._card_inputs[i]) for i, c in
                                                      enumerate(self.cards) for k in c.card.constraints if k.derive)
        found = set(names)
        while more := {t for t, reads in rules if t not in found and (reads <= found if every else reads & found)}:
            found |= more
        return frozenset(found)

    @property
    def relevant(self) -> tuple[str, ...]:
        """The card-relevant inputs, in input order: those some gate, computed value or constraint of
        some card reads (:func:`ipb.perturb.values.read_inputs`). The others are labels only."""
        found = self.memo.get("relevant")
        if found is None:
            read = frozenset().union(*(read_inputs(c.card) for c in self.cards))
            found = self.memo["relevant"] = tuple(n for n in self.inputs if n in read)
        return found  # type: ignore[no-any-return]

    def changed(self, base: PScenario, scenario: PScenario) -> int:
        """How many card-relevant facts of ``scenario`` differ from ``base`` (``--min-changed`` counts these).

        A fact stated in one and not the other differs. A label no card
        reads (a context sector, a regime name, an unread input) does not
        count; the decision date counts as one only in an FM-6 probe frame,
        where the date is what the item tests.
        """
        new, old = scenario.facts, base.facts
        names = self.relevant
        n = sum(map(ne, map(new.get, names), map(old.get, names)))  # ne(a, b) is a != b
        return n + (self.fm6_probe and scenario.as_of != base.as_of)

    def complete(self, facts: Mapping[str, Any]) -> Mapping[str, Any]:
        """``facts`` with every derived input recomputed from the others (unchanged when none is derived).

        A derived input whose sources are not all known is left out, unless ``facts`` state it: it is then kept as
        stated, never derived from an unknown source (:func:`ipb.perturb.partial_derived.stated_partial`, s62 new user N9).
        """
        if not self.derived:
            return facts
        out = dict(facts)
        # a derived value is remembered by how its sources are written (str, so 0.5 and 0.50 stay apart and the
        # value's own form never depends on which was seen first): a flip search or a constraint check asks for
        # the same sources again and again (s25green: Greenblatt's place, a long expression, ~3 asks per value)
        memo = self.memo.get("derived_values")
        if memo is None or len(memo) >= DERIVED_MEMO_LIMIT:
            memo = self.memo["derived_values"] = {}
        plan = self.memo.get("derive_plan")
        if plan is None:  # the derive constraints, sources first (derive_order), each with its sources sorted
            plan = self.memo["derive_plan"] = derive_order([(c.card.id, k, tuple(sorted(k.expr.names)))
                                                            for c in self.cards for k in c.card.constraints
                                                            if k.derive is not None])
        for card_id, k, names in plan:
            key = (card_id, k.id, tuple([str(out.get(n)) for n in names]))
            value = memo.get(key, memo)
            if value is memo:
                value = memo[key] = k.value_for(out)
            if value is None and not stated_partial(out, k.derive, names, self.inputs):
                out.pop(k.derive, None)
            elif value is not None:
                out[k.derive] = value
        return out

    def outcomes_many(self, many: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
        """Final verdicts of every card for many fact sets (the engine's batch mode; derived inputs recomputed)."""
        if self.derived:
            many = [self.complete(f) for f in many]
        per_card = [
            [r.outcome for r in execute_many(c, [self.facts_for(i, f) for f in many])]
            for i, c in enumerate(self.cards)
        ]
        return list(zip(*per_card))

    def line(self, facts: Mapping[str, Any], name: str) -> Callable[[Sequence[Any]], list[tuple[str, ...]]]:
        """``values -> outcomes_many([{**facts, name: v} for v in values])``, computed faster.

        Each card evaluates only the gates that depend on ``name``
        (:func:`ipb.engine.sweep.line_runner`); a card that does not read it
        gives one verdict for all values (a :class:`ConstantLine` when no
        card's verdict moves: no flip along ``name``). Falls back to :meth:`outcomes_many`
        when some input is derived (moving ``name`` may move a derived input)
        or a card cannot be swept.
        """
        runs: list[Callable[[Sequence[Any]], list[str]]] = []
        if self.derived:
            # moving ``name`` may move a derived input: the cards' gates that read either run per value
            for i, c in enumerate(self.cards):
                run = verdict_line(self, facts, i, name)
                if run is None:
                    return lambda values: self.outcomes_many([{**facts, name: v} for v in values])
                runs.append(run)
            return lambda values: list(zip(*(run(values) for run in runs)))
        held = self._prepared(facts)
        for i, c in enumerate(self.cards):
            mine, prepared = held[1][i], held[2][i]
            if name not in self._card_inputs[i]:
                runs.append(Constant(next(iter(execute_many(c, [mine]))).outcome))
                continue
            run = line_runner(c, mine, name, prepared)
            if run is None:
                run = verdict_line(self, facts, i, name)
            if run is None:
                return lambda values: self.outcomes_many([{**facts, name: v} for v in values])
            runs.append(run)
        if all(isinstance(run, Constant) for run in runs):
            return ConstantLine(tuple(run.outcome for run in runs))  # type: ignore[attr-defined]
        if len(runs) == 1:
            only = runs[0]
            return lambda values: [(o,) for o in only(values)]
        return lambda values: list(zip(*(run(values) for run in runs)))

    def _prepared(self, facts: Mapping[str, Any]) -> tuple[Any, ...]:
        """``(facts, each card's facts, each card's prepared sweep)`` of the last scenario swept."""
        held = self.memo.get("line")
        if held is None or held[0] is not facts:
            # the same scenario is swept along several inputs: its gates are evaluated once
            mines = [self.facts_for(i, facts) for i in range(len(self.cards))]
            held = self.memo["line"] = (facts, mines, [prepare(c, m) for c, m in zip(self.cards, mines)])
        return held  # type: ignore[no-any-return]

    def swept_outcomes(self, facts: Mapping[str, Any]) -> tuple[str, ...]:
        """:meth:`outcomes` of ``facts`` from the gates :meth:`line` evaluates once per scenario
        (:func:`ipb.engine.sweep.prepared_outcome`), so a flip search runs them once; the same verdicts."""
        if self.derived:
            return self.outcomes(facts)
        held = self._prepared(facts)
        if any(p is None for p in held[2]):
            return self.outcomes(facts)
        return tuple(prepared_outcome(c, p) for c, p in zip(self.cards, held[2]))

    def held_by_reject(self, facts: Mapping[str, Any], name: str) -> bool:
        """True when, in every card that reads ``name``, a gate whose verdict cannot depend on it rejects.

        Then no value of ``name`` moves any card's final verdict (a chain
        stops at that REJECT wherever it lies; a parallel join fails on it),
        so :meth:`line` along ``name`` is a :class:`ConstantLine` of the
        scenario's own outcomes and there is no flip to search for. Decided
        from the gates :meth:`line` evaluates once per scenario; False
        whenever :meth:`line` would not sweep (a derived input, a card that
        cannot be swept), so the caller searches as before.
        """
        return held_by_reject_of(self, facts, (name,))  # one input is the tied case with no partners

    def line_key(self, facts: Mapping[str, Any], name: str) -> tuple[Any, ...] | None:
        """A hashable key of :meth:`line` along ``name``: two scenarios with the same key give the same
        outcomes at every value of ``name`` (:func:`ipb.engine.sweep.line_key`). None when :meth:`line`
        falls back to full execution (a derived input, a card that cannot be swept) or a value is unhashable.
        """
        if self.derived:
            return None
        held = self._prepared(facts)
        parts: list[Any] = []
        for i, c in enumerate(self.cards):
            mine, prepared = held[1][i], held[2][i]
            if name not in self._card_inputs[i]:
                parts.append(next(iter(execute_many(c, [mine]))).outcome)
                continue
            if prepared is None:
                return None
            key = sweep_key(c, name, prepared)
            if key is None:
                return None
            parts.append(key)
        out = tuple(parts)
        try:
            hash(out)
        except TypeError:
            return None
        return out

    def violations(self, facts: Mapping[str, Any]) -> list[str]:
        """``card_id/constraint_id`` of every card constraint that ``facts`` break (empty: all hold).

        A constraint reading an unknown fact holds (Kleene: it cannot be shown false). Derived inputs are recomputed
        first; one outside its input's range breaks its constraint, one outside another card's :func:`narrower_derived`
        (s65). A fact the stated model or sector omits breaks ``sectors/omits`` (:func:`omission_checks`; and so on).
        """
        checks = self._requires()
        if checks is not False:
            # no derived input: each constraint is a ``require`` reading only its card's inputs, so it reads
            # the same values from ``facts`` as from the card's own facts (Constraint.broken: false breaks it)
            return [label for label, fn in checks if fn(facts) is False]
        out: list[str] = []
        facts = self.complete(facts)
        # an input only one constraint derives was just set to its value by complete(): that constraint holds
        derives = [k.derive for c in self.cards for k in c.card.constraints if k.derive is not None]
        for i, c in enumerate(self.cards):
            if c.card.constraints:
                mine = self.facts_for(i, facts)
                out.extend(f"{c.card.id}/{k.id}" for k in c.card.constraints
                           if (k.derive is None or derives.count(k.derive) > 1) and k.broken(mine))
                for k in c.card.constraints:
                    rng = c.card.inputs[k.derive].range if k.derive is not None else None
                    value = mine.get(k.derive) if k.derive is not None else None
                    if rng is not None and value is not None and not rng[0] <= value <= rng[1]:
                        out.append(f"{c.card.id}/{k.id} (derived {k.derive} outside its range)")
                    if value is not None and derives.count(k.derive) == 1 and rounds_across(c, mine, k):
                        out.append(f"{c.card.id}/{k.id} (derived {k.derive} rounds across a gate line)")
        out.extend(f"deck/{k.id}" for k in self.deck if k.broken(facts))
        out.extend(label for label, fn, _ in omission_checks(self) if fn(facts) is False)
        out.extend(narrower_derived(self, facts))  # s65: a rule of the scenario alone, as its callers all added it
        return out

    def violations_from(self, reference: Mapping[str, Any], facts: Mapping[str, Any],
                        moved: Iterable[str]) -> list[str]:
        """:meth:`violations` of ``facts`` that differ from ``reference`` only at ``moved`` (the same list).

        A constraint that reads none of ``moved`` gives on ``facts`` what it gives on ``reference`` (its expression
        reads only its card's inputs and constants), so only the others are evaluated; ``reference``'s answers are
        remembered for the last few references seen (by identity: a run draws its candidates from the same base).
        Falls back to :meth:`violations` when some constraint derives an input.
        """
        entry = self._reference_entry(reference)
        if entry is None:
            return exempt_violations(self, reference, facts)
        held = entry[1]
        moved = frozenset(moved)
        return [label for label, fn, names, was in held
                if (was if names.isdisjoint(moved) else fn(facts) is False)]

    def _reference_entry(self, reference: Mapping[str, Any]) -> tuple[Any, list[Any], bool, tuple[int, ...]] | None:
        """``(reference, answers, whether any is broken, places of the rules it exempts)``, the answers ``(label, fn,
        names read, broken on reference)`` per constraint, remembered for the last few references (None when
        :meth:`violations` must take its general path). The flag is worked out once per reference (s37speed)."""
        checks = self._requires()
        if checks is False:
            return None
        recent = self.memo.setdefault("reference_breaks", {})
        held = recent.get(id(reference))
        if held is None or held[0] is not reference:
            if len(recent) >= 8:
                recent.clear()
            reads = [k.expr.names for c in self.cards for k in c.card.constraints] + [k.expr.names for k in self.deck]
            reads.extend(names for _, _, names in omission_checks(self))
            # the reference is held with its answers, so its id is not reused while it is remembered
            answers = [base_states((label, fn, names, fn(reference) is False)) for (label, fn), names in zip(checks, reads)]
            held = recent[id(reference)] = (reference, answers, any(was for _, _, _, was in answers),
                                            tuple(i for i, (_, _, names, _) in enumerate(answers) if not names))
        return held  # type: ignore[no-any-return]

    def breaks_constraint(self, reference: Mapping[str, Any], facts: Mapping[str, Any], moved: Iterable[str]) -> bool:
        """``bool(self.violations_from(reference, facts, moved))``, stopping at the first broken one."""
        entry = self._reference_entry(reference)
        if entry is None:
            return bool(exempt_violations(self, reference, facts))
        held = entry[1]
        moved = frozenset(moved)
        if entry[2]:
            # the reference itself breaks one: whether a moved input mends it decides (rare: check them all)
            return any((was if names.isdisjoint(moved) else fn(facts) is False) for _, fn, names, was in held)
        # none is broken on the reference: only those reading a moved input can be broken now
        reading = self.memo.get("constraints_reading")
        if reading is None:
            reading = self.memo["constraints_reading"] = {}
        fns = reading.get(key := (moved, entry[3]))  # s65: and by the rules the reference exempts (base_states)
        if fns is None:
            if len(reading) >= 4096:
                reading.clear()
            fns = reading[key] = tuple(fn for _, fn, names, _ in held if not names.isdisjoint(moved))
        for fn in fns:
            if fn(facts) is False:
                return True
        return False

    def _requires(self) -> list[tuple[str, Callable[[Mapping[str, Any]], Any]]] | Literal[False]:
        """``(card_id/constraint_id, expression fn)`` of every constraint in :meth:`violations` order, or False
        when some constraint derives an input or reads a name outside its card's inputs and constants (then the general path).
        Worked out once per frame (``memo["requires"]``)."""
        held = self.memo.get("requires")
        if held is not None:
            return held  # type: ignore[no-any-return]
        checks: list[tuple[str, Callable[[Mapping[str, Any]], Any]]] = []
        for i, c in enumerate(self.cards):
            for k in c.card.constraints:
                if k.derive is not None or not k.expr.names <= self._card_inputs[i] | set(c.card.constants):
                    self.memo["requires"] = False
                    return False
                checks.append((f"{c.card.id}/{k.id}", k.expr.fn))
        # a deck constraint reads inputs of several cards: the scenario's facts hold them all
        checks.extend((f"deck/{k.id}", k.expr.fn) for k in self.deck)
        checks.extend((label, fn) for label, fn, _ in omission_checks(self))  # stop 62, REVIEW_s61 F7
        self.memo["requires"] = checks
        return checks

    def profile(self, facts: Mapping[str, Any]) -> tuple[str, ...]:
        """Every gate's verdict, a gate the chain skipped evaluated as if reached (diagnostic mode).

        Entries are ordered card by card, gate by gate, matching :meth:`gate_keys`.
        """
        out: list[str] = []
        facts = self.complete(facts)
        for i, c in enumerate(self.cards):
            trace = execute(c, self.facts_for(i, facts), diagnostic=True)
            for r in trace.gates:
                v = r.diagnostic_verdict if r.diagnostic_verdict is not None else r.verdict
                out.append(v.value)
        return tuple(out)

    def profile_line(self, facts: Mapping[str, Any], name: str) -> Callable[[Sequence[Any]], list[tuple[str, ...]]]:
        """``values -> [profile({**facts, name: v}) for v in values]``, computed faster
        (:func:`ipb.perturb.gate_lines.profile_line`: only the gates that depend on ``name`` run per value)."""
        return profile_line(self, facts, name)

    def gate_keys(self) -> tuple[str, ...]:
        """``card_id/gate_id`` of every gate, in :meth:`profile` order."""
        return tuple(f"{c.card.id}/{g.id}" for c in self.cards for g in c.card.gates)

    def dated_anachronisms(self, facts: Mapping[str, Any], timed: frozenset[str], year: int | dt.date
                           ) -> list[str]:
        """``regimes.anachronisms`` of those of ``facts`` named in ``timed`` (in ``facts`` order) at ``year`` (a
        year, or the scenario's day, which a multiple's dated rows read: s41gb3), remembered per frame by it and those facts' names, types and values (a candidate or an item asks
        about the few timed facts, whose values recur across a run; the messages depend on nothing else)."""
        memo = self.memo.get("dated_anachronisms")
        if memo is None:
            memo = self.memo["dated_anachronisms"] = {}
        stated = [(n, v.__class__, v) for n, v in facts.items() if n in timed]
        key = (year, timed, tuple(stated))
        try:
            found = memo.get(key)
        except TypeError:  # a value that cannot be a key
            return self.regimes.anachronisms(self.inputs, {n: v for n, _, v in stated}, year)
        if found is None:
            if len(memo) >= DATED_MEMO_LIMIT:
                memo.clear()
            found = memo[key] = self.regimes.anachronisms(self.inputs, {n: v for n, _, v in stated}, year)
        return list(found)

    def anachronisms(self, day: dt.date | None) -> list[str]:
        """Why ``day`` is outside each card's window (empty when inside every one, or undated)."""
        if day is None:
            return []
        key = ("anachronisms", day)
        found = self.memo.get(key)
        if found is None:
            found = [p for p in (date_problem(w, day) for w in self.windows) if p is not None]
            self.memo[key] = found
        return list(found)


DeriveRule = tuple[str, Constraint, tuple[str, ...]]


def derive_order(plan: Sequence[DeriveRule]) -> tuple[DeriveRule, ...]:
    """``plan``'s derive rules ``(card id, constraint, sources)`` in card order, except that a rule reading another
    rule's derived input comes after it (in an L8 frame one card may derive what another card derives from). Stable:
    each step takes the first rule, in card order, none of whose sources a rule still waiting derives; in a cycle,
    the first one waiting. One card alone is already in order (the loader refuses deriving from a derived input).

    >>> from types import SimpleNamespace as N
    >>> [k.derive for _, k, _ in derive_order([("d", N(derive="b"), ("a",)), ("u", N(derive="a"), ("p",))])]
    ['a', 'b']
    """
    waiting, done = list(plan), []
    while waiting:
        targets = {k.derive for _, k, _ in waiting}
        at = next((i for i, r in enumerate(waiting) if not targets.intersection(r[2]) - {r[1].derive}), 0)
        done.append(waiting.pop(at))
    return tuple(done)


class ConstantLine:
    """:meth:`Frame.line` along an input that no card's verdict can move along: ``outcomes`` at every value."""

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: tuple[str, ...]) -> None:
        self.outcomes = outcomes

    def __call__(self, values: Sequence[Any]) -> list[tuple[str, ...]]:
        return [self.outcomes] * len(values)


def held_by_reject_of(frame: Frame, facts: Mapping[str, Any], names: tuple[str, ...]) -> bool:
    """:meth:`Frame.held_by_reject` for inputs that move together (a tied flip's input and its partners,
    s57speedgen): True when, in every card that reads one of ``names``, a gate whose verdict can depend on none
    of them rejects, so no values of them move any card's final verdict; False whenever :meth:`Frame.line`
    would not sweep (a derived input, a card that cannot be swept)."""
    if frame.derived:
        return False
    fixed: dict[tuple[str, ...], list[tuple[int, tuple[int, ...] | None]]] = frame.memo.setdefault(
        "fixed_gates_of", {})
    parts = fixed.get(names)
    if parts is None:
        # per card that reads one of ``names``: the gates whose verdict depends on none of them (None: no sweep)
        parts = fixed[names] = []
        for i, c in enumerate(frame.cards):
            deps = [dependent_gates(c, n) for n in names if n in frame._card_inputs[i]]
            if deps:  # a card that reads none of them keeps its outcome at every value
                parts.append((i, None if any(d is None for d in deps) else tuple(
                    g for g in range(len(deps[0])) if not any(d[g] for d in deps))))  # type: ignore[index]
    held = frame._prepared(facts)[2]
    for i, gates in parts:
        prepared = held[i]
        if gates is None or prepared is None:
            return False
        verdicts = prepared.verdicts
        if not any(verdicts[g] is _REJECT for g in gates):
            return False
    return True


def card_outcomes(card: Card | CompiledCard) -> list[str]:
    """The final verdicts ``card`` can give on the facts a scenario states: pass, fail, each branch's, and
    INCONCLUSIVE where the card can end there.

    Disjunctions, thresholds and regime cards can end INCONCLUSIVE. A conjunction (linear or parallel) ends
    INCONCLUSIVE when a decisive gate is INCONCLUSIVE or no gate PROCEEDs (paper section 7.3; issue 15's
    decisive gates); with every input stated, when a decisive gate (or every gate) can be undecided on stated
    values (:func:`ipb.perturb.undecided.undecided_on_stated_facts`: a value between a ``proceed`` and a
    ``reject`` criterion, a divisor zero). An undisclosed input can leave any card undecided: the question
    offers INCONCLUSIVE then too (``ipb.perturb.render.undecidable``). Until stop 33 this said a conjunction
    never ends INCONCLUSIVE, and 68 of 504 sampled INCONCLUSIVE golds were asked without it.

    >>> from ipb.engine.registry import compiled_card
    >>> card_outcomes(compiled_card("buffett_acquisition_checklist"))
    ['INVEST', 'DECLINE']
    >>> card_outcomes(compiled_card("nbim_gpfg_exclusion_screen"))  # a decision still pending
    ['HOLD', 'DIVEST', 'INCONCLUSIVE']
    """
    plain = card.card if isinstance(card, CompiledCard) else card
    names = [plain.outcomes["pass"], plain.outcomes["fail"]]
    for g in plain.gates:
        for b in g.branches.values():
            names += [b.pass_outcome, b.fail_outcome]
    conjunction = plain.gate_logic == "conjunction" and plain.topology_type in ("linear_sequential",
                                                                                 "parallel_threshold")
    if not conjunction or undecided_on_stated_facts(card if isinstance(card, CompiledCard) else compile_card(plain)):
        names.append(INCONCLUSIVE_OUTCOME)
    return list(dict.fromkeys(names))


def shared_range(frame: Frame, name: str) -> tuple[Any, Any] | None:
    """The intersection of the ranges every card of the frame declares for input ``name`` (engine values, the
    input's own unit), the range a shared fact must keep (module docstring); None when no card declares one.

    >>> f = build_frame(["dalio_debt_supercycle_navigation"])
    >>> shared_range(f, "yield_curve_slope") == f.cards[0].card.inputs["yield_curve_slope"].range
    True
    """
    held = frame.memo.setdefault("shared_range", {})
    if name not in held:
        ranges = [c.card.inputs[name].range for c in frame.cards if name in c.card.inputs]
        found = [r for r in ranges if r is not None]
        held[name] = (max(r[0] for r in found), min(r[1] for r in found)) if found else None
    return held[name]  # type: ignore[no-any-return]


def exempt_violations(frame: Frame, reference: Mapping[str, Any], facts: Mapping[str, Any]) -> list[str]:
    """:meth:`Frame.violations` of ``facts`` less the registry rules ``reference`` breaks itself: the exemption
    :func:`~ipb.perturb.sector_registry.base_states` gives on the fast path, on the general one (a card deriving an
    input). s65sector: the general path had none, so every move of a base that broke a registry rule itself was
    refused (the bundled L8 deck base's utility pays a 6.5% dividend, above the sector's 3-5%)."""
    out = frame.violations(facts)
    rules = {label: fn for label, fn, _ in omission_checks(frame)}
    if not any(label in rules for label in out):
        return out
    return [label for label in out if label not in rules or rules[label](reference) is not False]


def narrower_derived(frame: Frame, facts: Mapping[str, Any]) -> list[str]:
    """``card_id/constraint_id (...)`` of every ``derive`` constraint whose recomputed value lies inside the
    deriving card's own range but outside the range another card of an L8 frame declares for that input (its
    :func:`shared_range`): ``ipb verify`` holds a fact to every card's range (s62 new user N2: a margin derived on
    [-50%, 50%] and drawn by another card on [0%, 30%] was written at 46.2%). Empty when no card narrows a
    derived input (every L7 frame), without recomputing anything. Outside its own range is :meth:`Frame.violations`'.
    """
    plan = frame.memo.get("narrower_derived")
    if plan is None:
        plan = frame.memo["narrower_derived"] = [
            (f"{c.card.id}/{k.id}", k.derive, c.card.inputs[k.derive].range, shared_range(frame, k.derive))
            for c in frame.cards for k in c.card.constraints
            if k.derive is not None and shared_range(frame, k.derive) not in (None, c.card.inputs[k.derive].range)]
    if not plan:
        return []
    full = frame.complete(facts)
    out: list[str] = []
    for label, name, own, shared in plan:
        value = full.get(name)
        if value is not None and (own is None or own[0] <= value <= own[1]) and not shared[0] <= value <= shared[1]:
            out.append(f"{label} (derived {name} outside the range another card declares for it)")
    return out


def _no_value_in_common(where: str, name: str, first: Card, second: Card) -> PerturbError:
    """The L8 clash of a category input ``name`` whose values in ``first`` and ``second`` share none, with both
    lists, at the ``values:`` of ``second``'s input in its file (s64 new user F9: the message named neither a place
    nor the values)."""
    def shown(card: Card) -> str:
        return f"{card.id} allows [{', '.join(map(str, card.inputs[name].values or ()))}]"

    error = PerturbError(f"{where} has no category value in common ({shown(first)}, {shown(second)}): an L8 scenario "
                         "states one value for both cards; give the cards a value in common", rule="shared-input",
                         name=name)
    doc = second.doc
    if doc is None:
        return error
    try:
        line, column = doc.locate_key(("inputs", name, "values"))
    except (KeyError, IndexError, TypeError, ValueError):
        return error
    error.with_location(doc.file, line, column, doc.source_line(line))
    return error


def build_frame(
    cards: Sequence[str | CompiledCard],
    *,
    fm6_probe: bool = False,
    sectors: SectorRegistry | None = None,
    regimes: RegimeRegistry | None = None,
) -> Frame:
    """Build the frame for one card (L7) or several investors' cards (L8).

    Parameters
    ----------
    cards:
        Card files, bundled card ids or compiled cards.
    fm6_probe:
        Allow scenarios dated outside a card's vintage; every such item is
        marked as an FM-6 probe.

    Raises
    ------
    LoadError
        An unknown card (with a "did you mean").
    PerturbError
        Rule ``cards``: no card, or the same card twice; rule ``shared-input``:
        an input shared by two cards with different types or disjoint ranges
        or values, or derived by two cards by different rules (s61 new user N9).
    """
    if not cards:
        raise PerturbError("perturbation needs at least one card", rule="cards")
    compiled = tuple(c if isinstance(c, CompiledCard) else compiled_card(c) for c in cards)
    ids = [c.card.id for c in compiled]
    if len(set(ids)) != len(ids):
        raise PerturbError(f"a card is named twice: {', '.join(ids)}", rule="cards")
    inputs: dict[str, InputSpec] = {}
    grids: dict[str, Grid] = {}
    owners: dict[str, str] = {}
    for c in compiled:
        for name, spec in c.card.inputs.items():
            grid = input_grid(spec)
            if name not in inputs:
                inputs[name] = spec
                owners[name] = c.card.id
                if grid is not None:
                    grids[name] = grid
                continue
            first = inputs[name]
            where = f"input {name!r} of cards {owners[name]} and {c.card.id}"
            if first.type != spec.type:
                raise PerturbError(f"{where} has two types ({first.type}, {spec.type}); an L8 scenario shares one value",
                                   rule="shared-input", name=name)
            if spec.values is not None and first.values is not None:
                values = tuple(v for v in first.values if v in spec.values)
                if not values:
                    raise _no_value_in_common(where, name, compiled[ids.index(owners[name])].card, c.card)
                inputs[name] = replace(first, values=values, expr_type=category(values))
            if grid is not None:
                if name in grids:
                    clipped = grids[name].clip(grid.lo, grid.hi)
                    if clipped is None:
                        raise PerturbError(f"{where} has disjoint ranges", rule="shared-input", name=name)
                    grids[name] = clipped
                else:
                    grids[name] = grid
    refuse_two_derive_rules(compiled)
    consumers: dict[str, list[str]] = {}
    for c in compiled:
        for name, gates in consumed_inputs(c.card).items():
            consumers.setdefault(name, []).extend(f"{c.card.id}/{g}" for g in gates)
    return Frame(
        cards=compiled,
        inputs=inputs,
        grids=grids,
        consumers={name: tuple(consumers[name]) for name in inputs if name in consumers},
        windows=tuple(framework_window(c.card) for c in compiled),
        sectors=sectors if sectors is not None else bundled_sectors(),
        regimes=regimes if regimes is not None else bundled_regimes(),
        fm6_probe=fm6_probe,
        _card_inputs=tuple(frozenset(c.card.inputs) for c in compiled),
    )


def load_base(path: str | Path, frame: Frame) -> PScenario:
    """Read a base scenario file and type its facts against the frame's cards.

    For an L8 frame the file's facts are shared: each fact must be an input
    of at least one card, and each card reads the facts it declares.

    Raises
    ------
    LoadError, ErrorGroup
        A missing or malformed file, a schema violation, a fact no card
        declares (with a "did you mean"), a value that does not fit its input,
        or a ``card`` field naming another card; each with file:line:col.
        Rule ``constraint``: the base breaks a card's ``constraints:`` (a
        ``require`` that is false, or a stated derived input that differs from
        its ``value``), at the first fact the rule reads, as ``ipb check`` says.
    PerturbError
        Rule ``vintage``: the base is dated outside a card's vintage and the
        frame is not making FM-6 probes.
    """
    doc = load_yaml_file(path, collect=True)
    facts, as_of = typed_facts(doc, frame.inputs, frame.card_ids)
    set_deck(frame, doc)
    # as ipb check reports them (s60fix: check asked for "2x", which was then refused here): a broken constraint, or
    # a derived value whose rounding decides a gate (s58 F-W2), where every draw would be refused
    broken = [e for i, c in enumerate(frame.cards) for e in base_constraint_errors(c, frame.facts_for(i, facts), doc)]
    broken += deck_errors(frame, facts, doc)
    if broken:
        raise ErrorGroup(broken)
    data = doc.data
    base = PScenario(facts=facts, as_of=as_of, id=data.get("id") or Path(path).stem, title=data.get("title", ""))
    try:
        check_base(frame, base, str(path))
    except PerturbError as exc:  # a date outside the vintage, or a fact the date rules out: point at the date
        if "as_of" in data:
            line, column = doc.locate(("as_of",))
            exc.with_location(str(path), line, column, doc.source_line(line))
        raise
    return base


def base_from_facts(frame: Frame, facts: Mapping[str, Any], *, as_of: dt.date | None = None,
                    id: str = "scenario", title: str = "") -> PScenario:
    """A base scenario from engine values (for callers that build scenarios in code)."""
    unknown = [n for n in facts if n not in frame.inputs]
    if unknown:
        raise PerturbError(f"{unknown[0]!r} is not an input of card {' or '.join(frame.card_ids)}", rule="fact-name",
                           name=unknown[0], suggestion=did_you_mean(unknown[0], list(frame.inputs)))
    base = PScenario(facts={k: v for k, v in facts.items() if v is not None}, as_of=as_of, id=id, title=title)
    check_base(frame, base, id)
    return base


def check_base(frame: Frame, base: PScenario, where: str) -> None:
    """Refuse a base that states a fact its date rules out, or is dated outside a card's vintage
    unless the frame makes FM-6 probes."""
    if base.as_of is not None:
        stale = frame.regimes.anachronisms(frame.inputs, base.facts, base.as_of)
        if stale:
            raise PerturbError(f"the base scenario states facts that could not hold on {base.as_of.isoformat()}: "
                               + ", ".join(stale) + f" (since in {frame.regimes.file})", file=where, rule="anachronism")
    problems = frame.anachronisms(base.as_of)
    if problems and not frame.fm6_probe:
        # s61 new user N13: a date inside the card's vintage but outside the investor's career (paper §11.6, the
        # registry's active period: both apply, perturb/vintage.py) was called "outside the framework's vintage"
        career = any("outside the career of investor" in p for p in problems)
        vintage = any("outside the framework vintage" in p for p in problems)
        what = ("the framework's vintage and the investor's career" if career and vintage else
                "the investor's career (the registry's active period, which applies with the card's vintage)"
                if career else "the framework's vintage")
        inside = "inside both" if career else "inside the vintage"
        raise PerturbError(
            f"the base scenario is dated outside {what} (" + "; ".join(problems) + "); "
            f"perturb it only as an FM-6 probe (--fm6-probe), or give it a date {inside}",
            file=where, rule="vintage",
        )


#: Entries kept in a frame's value-text caches before they are emptied.
CACHE_LIMIT = 200_000
#: :meth:`Frame.dated_anachronisms` remembers at most this many sets of timed facts per frame (then starts again).
DATED_MEMO_LIMIT = 4096


def cached_text(frame: Frame, kind: str, name: str, value: Any, make: Any) -> Any:
    """``make(frame.inputs[name], value)``, remembered per frame (grid values recur in many items)."""
    cache = frame.memo.setdefault(kind, {})
    key = (name, value, type(value))
    try:
        return cache[key]
    except KeyError:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        text = cache[key] = make(frame.inputs[name], value)
        return text


def fact_literals(frame: Frame, scenario: PScenario) -> dict[str, Any]:
    """The scenario's facts as exact literals, in the frame's input order."""
    facts = scenario.facts
    cache = frame.memo.setdefault("literal", {})
    out: dict[str, Any] = {}
    for k in frame.inputs:
        if k in facts:
            value = facts[k]
            text = cache.get((k, value, type(value)))
            out[k] = text if text is not None else cached_text(frame, "literal", k, value, literal)
    return out


def scenario_key(frame: Frame, scenario: PScenario, literals: Mapping[str, Any] | None = None) -> str:
    """A canonical text of what makes two scenarios the same item (facts, date, context)."""
    facts = literals if literals is not None else fact_literals(frame, scenario)
    doc = {
        "cards": list(frame.card_ids),
        "facts": facts,
        "as_of": scenario.as_of.isoformat() if scenario.as_of else None,
        "sector": scenario.sector,
        "regime": scenario.regime,
    }
    return canonical_json(doc)


def relevant_key(frame: Frame, scenario: PScenario, literals: Mapping[str, Any] | None = None) -> str:
    """A canonical text of what makes two scenarios the same item to the cards: the card-relevant facts
    (:attr:`Frame.relevant`), plus the decision date in an FM-6 probe frame.

    Two scenarios with the same relevant key get the same gold from every
    card and differ at most in labels no card reads, so a run keeps only the
    first (and never one with the base's relevant key).
    """
    facts = literals if literals is not None else fact_literals(frame, scenario)
    doc: dict[str, Any] = {"cards": list(frame.card_ids), "facts": {k: facts[k] for k in frame.relevant if k in facts}}
    if frame.fm6_probe:
        doc["as_of"] = scenario.as_of.isoformat() if scenario.as_of else None
    return canonical_json(doc)


def digest(text: str) -> str:
    """SHA-256 hex digest of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ordered_inputs(frame: Frame, names: Iterable[str]) -> list[str]:
    """``names`` in the frame's input order (each once; a name that is not an input is left out)."""
    position = frame.memo.get("input_position")
    if position is None:
        position = frame.memo["input_position"] = {n: i for i, n in enumerate(frame.inputs)}
    return sorted({n for n in names if n in position}, key=position.__getitem__)
