"""Which undisclosed inputs a question names "not disclosed" (stop 61 review F6, issue 18 bar line 2).

An undisclosed input is left out of the sentence when the stated business model or sector omits it
(``frameworks/sectors.yaml``), or when no gate needs it given the stated facts (every gate reading it is decided
under the engine's three-valued logic). :func:`needed_undisclosed`; paper section 4.3.
"""

from __future__ import annotations

from typing import Any, Mapping

from decimal import Decimal
from itertools import combinations, product

from ipb.engine.card import Gate
from ipb.engine.execute import execute
from ipb.engine.graph import CompiledCard
from ipb.engine.logic import Verdict
from ipb.perturb.frame import Frame
from ipb.perturb.sector_registry import stated_omissions
from ipb.perturb.undecided import gate_marks

__all__ = ["PAIR_LIMIT", "UNKNOWN_LIMIT", "needed_undisclosed", "probe_values", "withheld_market", "withheld_reason"]

#: The question renderer and :func:`needed_undisclosed` remember at most this many entries of each memo per frame
#: (the undisclosed-inputs sentence per set of inputs; the gates and verdicts per set and stated values).
UNKNOWN_LIMIT = 1024
#: A gate no single undisclosed input can change is probed on pairs of them (``cash >= bank_debt`` with both
#: undisclosed) for at most this many scenarios; past it, or when no pair changes it, all its inputs are named.
PAIR_LIMIT = 512


_UNSTATED = object()


def needed_undisclosed(frame: Frame, facts: Mapping[str, Any], missing: tuple[str, ...],
                       sector: str | None = None) -> tuple[str, ...]:
    """The inputs of ``missing`` (undisclosed, in card order) the question names "not disclosed" (issue 18 bar
    line 2, stop 61 review F6): those left out are

    * an input the stated business model or sector omits (``frameworks/sectors.yaml`` ``models:`` and
      ``sectors:`` ``omits:``, by input name or by the registry metric it stands for; ``sector`` is the
      scenario's context sector, None when none; the sector operator drops the same facts: a retailer or a bank
      reports no subscription revenue retention), and
    * an input no gate needs given the stated facts: every gate that reads it (directly or through computed
      values, :attr:`Frame.consumers`) reaches PROCEED or REJECT under the engine's three-valued (Kleene) logic
      with every undisclosed input unknown (every gate evaluated, reached or not: ``execute(diagnostic=True)``).
      Klarman's "the catalyst is not identified" decides the catalyst gate, so the time until it is not asked.

    ``facts`` maps input -> value (engine units); the answer keeps ``missing``'s order. Remembered per frame and
    per (``missing``, the values of the inputs the reading gates read), at most :data:`UNKNOWN_LIMIT` of each.
    The rule reads the card and the stated facts, never the item's gold beyond what the stated facts decide.
    Paper section 4.3 (the question states the scenario's facts; an unknown is named as such).

    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["klarman_deep_value_identification"])
    >>> needed_undisclosed(frame, {"catalyst": "none"}, ("catalyst_months",))
    ()
    >>> needed_undisclosed(frame, {"catalyst": "spinoff"}, ("catalyst_months",))
    ('catalyst_months',)
    """
    omitted = stated_omissions(frame, facts, sector)
    names = tuple(n for n in missing if n not in omitted) if omitted else missing
    if not names:
        return ()
    reads = frame.memo.setdefault("undisclosed_reads", {})
    held = reads.get(names)
    if held is None:  # the gates reading ``names`` and every input those gates read: once per frame and set
        if len(reads) >= UNKNOWN_LIMIT:
            reads.clear()
        gates = frozenset(g for n in names for g in frame.consumers.get(n, ()))
        # the inputs those gates read, and those the card constraints reading ``names`` read (the probe's filter)
        bound = {m for c in frame.cards for k in c.card.constraints if k.expr.names.intersection(names)
                 for m in k.expr.names}
        relevant = tuple(m for m, gs in frame.consumers.items() if gates.intersection(gs)) + \
            tuple(m for m in frame.inputs if m in bound and not gates.intersection(frame.consumers.get(m, ())))
        held = reads[names] = (gates, relevant)
    gates, relevant = held
    if not gates:
        return names
    if frame.derived:
        facts = frame.complete(facts)
    needed = frame.memo.setdefault("undisclosed_needed", {})
    key = (names, tuple(facts.get(m, _UNSTATED) for m in relevant))
    found = needed.get(key)
    if found is None:
        if len(needed) >= UNKNOWN_LIMIT:
            needed.clear()
        open_: set[str] = set()
        for i, c in enumerate(frame.cards):
            if not any(g.startswith(c.card.id + "/") for g in gates):
                continue
            for r in execute(c, frame.facts_for(i, facts), diagnostic=True).gates:
                verdict = r.diagnostic_verdict if r.verdict is Verdict.NOT_REACHED else r.verdict
                if verdict not in (Verdict.PROCEED, Verdict.REJECT):
                    open_.add(f"{c.card.id}/{r.gate.id}")
        read = tuple(n for n in names if any(g in open_ for g in frame.consumers.get(n, ())))
        found = needed[key] = _can_change(frame, facts, read, open_, names) if read else ()
    return found  # type: ignore[no-any-return]


def probe_values(frame: Frame, name: str, marks: tuple[Decimal, ...]) -> tuple[Any, ...]:
    """The values of input ``name`` probed for a gate comparing it with ``marks`` (stop 63, issue 18 bar line 2):
    a bool both, a category every declared value, a number with a grid (:attr:`Frame.grids`) its range's ends and,
    for each mark inside the range, the grid points at and just either side of it; () for an input with no such
    values (a date, an unbounded number: it is always named).

    >>> from ipb.perturb.frame import build_frame
    >>> frame = build_frame(["lynch_six_category_framework"])
    >>> probe_values(frame, "turnaround_plan", ())
    (True, False)
    >>> [str(v) for v in probe_values(frame, "debt_share", (Decimal("0.25"),))]
    ['0.00', '0.24', '0.25', '0.26', '1.00']
    """
    spec = frame.inputs[name]
    if spec.type == "bool":
        return (True, False)
    if spec.type == "category":
        return tuple(spec.values or ())
    grid = frame.grids.get(name)
    if grid is None:
        return ()
    ks = {0, grid.count - 1}
    for mark in marks:
        if grid.lo <= mark <= grid.hi:
            k = int((mark - grid.lo) // grid.step)
            ks.update(j for j in (k - 1, k, k + 1) if 0 <= j < grid.count)
    return tuple(grid.value(k) for k in sorted(ks))


def _verdicts(c: CompiledCard, facts: Mapping[str, Any], gates: frozenset[str]) -> dict[str, Verdict]:
    out = {}
    for r in execute(c, facts, diagnostic=True).gates:
        if r.gate.id in gates:
            out[r.gate.id] = r.diagnostic_verdict if r.verdict is Verdict.NOT_REACHED else r.verdict
    return out


def _can_change(frame: Frame, facts: Mapping[str, Any], read: tuple[str, ...], open_: set[str],
                missing: tuple[str, ...]) -> tuple[str, ...]:
    """The inputs of ``read`` (undisclosed, read by a gate of ``open_`` that the stated ``facts`` leave undecided)
    some value of which changes such a gate's verdict, every other undisclosed input unknown (stop 63: Lynch's
    story check on an asset play does not ask the cycle position or the recovery plan). A probe value
    (:func:`probe_values`) of a bool or category that breaks a card constraint reading the input, given the stated
    facts, is not one the scenario could state and is skipped (a company stated not to be cyclical has no cycle position:
    ``cycle_position_is_of_a_cyclical``). A gate that no single input changes is probed on pairs
    (:data:`PAIR_LIMIT`: Lynch's ``cash >= bank_debt``); one no pair changes names those of its inputs that change
    it once the inputs already named (for an earlier gate) are set (:func:`_change_beside`: Lynch's battered and
    cyclical questions, then the asset play's total debt), and failing that all its undisclosed inputs, as before
    stop 63 (three inputs needed together: Lynch's growth, yield and P/E), except a bool or category of which the
    stated facts admit no value."""
    keep: set[str] = set()
    for i, c in enumerate(frame.cards):
        prefix = c.card.id + "/"
        gates = frozenset(g[len(prefix):] for g in open_ if g.startswith(prefix))
        mine = [n for n in read if n in frame._card_inputs[i] and
                any(g.startswith(prefix) and g[len(prefix):] in gates for g in frame.consumers.get(n, ()))]
        if not mine:
            continue
        own = frame.facts_for(i, facts)
        base = _verdicts(c, own, gates)
        by_gate = {g.id: g for g in c.card.gates if g.id in gates}
        probes: dict[str, tuple[Any, ...]] = {}
        for n in mine:
            values = probe_values(frame, n, _marks(c, by_gate, n, own))
            if values:
                probes[n] = _admissible(frame, c, own, n, values)
            else:
                keep.add(n)  # no probe values (a date, an unbounded number): named as before
        changed: dict[str, set[str]] = {g: set() for g in gates}
        for n in probes:
            todo = {g for g in gates if n in _reads(frame, c, g)}
            for value in probes[n]:  # until every undecided gate reading it is shown to change, or no value is left
                got = _verdicts(c, _with(frame, own, {n: value}), gates)
                moved = {g for g in todo if got.get(g) != base.get(g)}
                if moved:
                    keep.add(n)
                    for g in moved:
                        changed[g].add(n)
                    todo -= moved
                    if not todo:
                        break
        for g in (x.id for x in c.card.gates if x.id in gates):  # card order: earlier gates first
            if changed[g]:
                continue
            reads = _reads(frame, c, g)
            theirs = [n for n in probes if n in reads and probes[n]]
            if not theirs:
                continue
            found = _pair_change(frame, c, own, g, theirs, probes) or \
                _change_beside(frame, c, own, g, [n for n in theirs if n in keep], theirs, probes)
            keep.update(found or theirs)  # nothing found (or past the limit): all its inputs, as before stop 63
    return tuple(n for n in missing if n in keep)


def _reads(frame: Frame, c: CompiledCard, gate: str) -> frozenset[str]:
    key = c.card.id + "/" + gate
    held = frame.memo.setdefault("undisclosed_gate_reads", {})
    found = held.get(key)
    if found is None:
        found = held[key] = frozenset(n for n, gs in frame.consumers.items() if key in gs)
    return found  # type: ignore[no-any-return]


def _marks(c: CompiledCard, by_gate: Mapping[str, Gate], name: str, facts: Mapping[str, Any]) -> tuple[Decimal, ...]:
    """The numbers the undecided gates reading ``name`` compare it with: their constants and literals
    (:func:`gate_marks`) and the stated numeric values they read."""
    out: set[Decimal] = set()
    for gate in by_gate.values():
        marks, names = gate_marks(c.card, gate)
        if name in names:
            out.update(marks)
            out.update(v for m in names if isinstance(v := facts.get(m), Decimal))
    return tuple(sorted(out))


def _with(frame: Frame, facts: Mapping[str, Any], changes: Mapping[str, Any]) -> Mapping[str, Any]:
    out = {**facts, **changes}
    return frame.complete(out) if frame.derived else out


def _admissible(frame: Frame, c: CompiledCard, facts: Mapping[str, Any], name: str,
                values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``values`` of ``name`` that break no constraint of card ``c`` reading it, given ``facts`` (Kleene: one
    reading an unknown input holds). Only a bool or a category is filtered: its probe is every value it can
    take, while a number's few probe points can all miss the narrow band its constraints leave (Lynch's total debt
    is pinned by its debt share and the market value), so a number keeps them all."""
    rules = [k for k in c.card.constraints if k.derive is None and name in k.expr.names]
    if not rules or frame.inputs[name].type not in ("bool", "category"):
        return values
    return tuple(v for v in values if not any(k.broken(_with(frame, facts, {name: v})) for k in rules))


def _pair_change(frame: Frame, c: CompiledCard, facts: Mapping[str, Any], gate: str, names: list[str],
                 probes: Mapping[str, tuple[Any, ...]]) -> set[str]:
    """The inputs of ``names`` that change ``gate``'s verdict once one other of them is set (a number
    probed at its range's ends only, a bool or category at each admissible value); empty when no pair does or the
    probe would pass :data:`PAIR_LIMIT` scenarios."""
    ends = {n: (v if frame.inputs[n].type in ("bool", "category") else (v[0], v[-1])) for n, v in probes.items()
            if n in names and v}
    pairs = list(combinations([n for n in names if n in ends], 2))
    if not pairs or sum(len(ends[a]) * len(ends[b]) for a, b in pairs) > PAIR_LIMIT:
        return set()
    one = frozenset({gate})
    alone = {(n, v): _verdicts(c, _with(frame, facts, {n: v}), one).get(gate) for n in ends for v in ends[n]}
    found: set[str] = set()
    for a, b in pairs:
        for x in ends[a]:
            for y in ends[b]:
                if a in found and b in found:
                    break
                both = _verdicts(c, _with(frame, facts, {a: x, b: y}), one).get(gate)
                if both != alone[(b, y)]:  # a changes the gate beside b = y
                    found.add(a)
                if both != alone[(a, x)]:
                    found.add(b)
    return found


def _ends(frame: Frame, name: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
    return values if frame.inputs[name].type in ("bool", "category") or len(values) < 2 else (values[0], values[-1])


def _change_beside(frame: Frame, c: CompiledCard, facts: Mapping[str, Any], gate: str, named: list[str],
                   names: list[str], probes: Mapping[str, tuple[Any, ...]]) -> set[str]:
    """The inputs of ``names`` not in ``named`` that change ``gate``'s verdict, alone or once one other of them is
    set (:func:`_pair_change`), when the inputs ``named`` (already named for another gate) are set to some
    combination of their values (a number at its range's ends); empty when none does, none is named or the
    combinations pass :data:`PAIR_LIMIT`."""
    rest = [n for n in names if n not in named]
    if not named or not rest:
        return set()
    combos = list(product(*[_ends(frame, n, probes[n]) for n in named]))
    if len(combos) * (1 + sum(len(probes[n]) for n in rest)) > PAIR_LIMIT:
        return set()
    found: set[str] = set()
    one = frozenset({gate})
    for combo in combos:
        given = _with(frame, facts, dict(zip(named, combo)))
        before = _verdicts(c, given, one).get(gate)
        alone = {n for n in rest if any(_verdicts(c, _with(frame, given, {n: v}), one).get(gate) != before
                                        for v in probes[n])}
        found |= alone or _pair_change(frame, c, given, gate, rest, probes)
    return found


def withheld_market(frame: Frame, facts: Mapping[str, Any], sector: str | None = None) -> tuple[str, ...]:
    """The inputs describing the market at the date (``RegimeRegistry.describes_the_date``; not derived, not a regime
    category such as ``cycle_position``, a label the temporal operator sets) that ``facts`` leave unknown and a
    question names "not disclosed" (:func:`needed_undisclosed`), in card order.

    s64review (s63 review R7, issue 18 bar line 2): Graham intrinsic-value items dated 31 December 1974 said "The
    current yield on AAA corporate bonds is not disclosed", a public figure of that day, with the yield gate's gold
    INCONCLUSIVE. No file keeps every day's market figures to state it from, so generation undates an item that kept
    its base's date and withholds one of these (paper section 6.5: a dated scenario is a claim about history).
    """
    dated = frame.memo.get("withheld_candidates")
    if dated is None:
        regimes = frame.regimes
        dated = frame.memo["withheld_candidates"] = tuple(
            n for n, spec in frame.inputs.items()
            if regimes.describes_the_date(spec) and n not in frame.derived and n not in regimes.inputs)
    missing = tuple(n for n in dated if n not in facts)
    return needed_undisclosed(frame, facts, missing, sector) if missing else ()


def withheld_reason(frame: Frame, facts: Mapping[str, Any], sector: str | None = None) -> str:
    """Why a dated item withholding a market figure of its date is undated (:func:`withheld_market`), for the run
    summary: ``"aaa_yield not disclosed (it describes the day)"``; "" when it withholds none."""
    withheld = withheld_market(frame, facts, sector)
    return f"{withheld[0]} not disclosed (it describes the day)" if withheld else ""
