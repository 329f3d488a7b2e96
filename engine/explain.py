"""Why each gate gave its verdict: the sub-expressions that decided it, with their values.

:func:`explain` executes a card on a scenario (with the diagnostic view, so a
gate the chain never reached is explained too) and, for every gate, breaks
each criterion into its ``and`` / ``or`` / ``not`` structure down to the
comparisons, evaluating each part in the gate's own environment::

    reject: retention < 90%: true
      retention 85% < 90%: true

An operand that is not a literal is followed by its value; a fact the
scenario does not give is shown as ``?`` and listed as unknown. For an
INCONCLUSIVE gate, :func:`explain` also says which missing facts would decide
it: each unknown input the gate depends on (directly or through a value an
earlier gate computes) is tried, alone, at the ends and the middle of its
declared range (both values of a bool, every value of a category), by
re-executing the card; the facts for which some value decides the gate are
listed with the verdict each value gives. A value that, with the known facts,
breaks one of the card's ``constraints:`` describes no scenario the card
admits: it is not tried, it is listed as refused with the constraints it
breaks, and (for an input with a range and step) the admissible grid value
nearest to it takes its place (found by bisection from a value that holds). Nothing here changes a verdict: the
explanation is read off the same engine that produced the trace (paper §7.3,
three-valued gate verdicts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from lark import Token, Tree

from ipb.engine.card import Card, Gate
from ipb.engine.execute import Trace, execute, format_value, weight_note
from ipb.engine.expressions import CompiledExpression, compile_expression, get_parser
from ipb.engine.graph import CompiledCard
from ipb.engine._trials import _admissible_trials, _boundaries, _gate_verdict

__all__ = ["Part", "GateExplanation", "Explanation", "explain"]

_LITERALS = {"percent", "multiple", "money", "scaled", "decimal", "number", "string", "true", "false", "set_"}
_BOOL_NODES = {"or_": "or", "and_": "and", "not_": "not"}


@dataclass
class Part:
    """One evaluated piece of a criterion: its source text, the text with values, its value, its parts."""

    source: str
    shown: str
    value: Any
    unit: str | None = None
    parts: list["Part"] = field(default_factory=list)

    def lines(self, depth: int = 0) -> list[str]:
        """``shown: value`` indented by depth, then each part one level deeper."""
        out = ["  " * depth + f"{self.shown}: {_show(self.value, self.unit)}"]
        for p in self.parts:
            out.extend(p.lines(depth + 1))
        return out


@dataclass
class GateExplanation:
    """The explanation of one gate: its verdict, each criterion broken down, unknowns and what would decide it.

    ``deciders`` maps a missing input to ``[(value literal, verdict), ...]`` for the
    values tried that decide the gate; empty when no single missing fact does.
    ``refused`` maps a missing input to ``[(value literal, [constraint id, ...]), ...]``:
    trial values that break a card constraint with the known facts, so not tried.
    """

    number: int
    id: str
    name: str
    verdict: str
    note: str | None
    criteria: list[tuple[str, Part]]
    computed: list[Part]
    unknown: list[str]
    deciders: dict[str, list[tuple[str, str]]]
    refused: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)
    #: A missing ranged input -> each place its grid switches the gate between two tried values: ``[(value
    #: literal, verdict), (the next grid value, its verdict)]`` (the threshold an author looks for, stop 33).
    boundaries: dict[str, list[tuple[tuple[str, str], tuple[str, str]]]] = field(default_factory=dict)
    #: INCONCLUSIVE with both ``reject`` and ``proceed`` false on the facts: a gap between the criteria, which no
    #: missing fact explains (s53newuser; ``ipb check`` rule ``criteria-gap``).
    neither: bool = False

    def lines(self) -> list[str]:
        head = f"Gate {self.number} {self.name} [{self.id}]: {self.verdict}" + (f" ({self.note})" if self.note else "")
        out = [head]
        for p in self.computed:
            out.extend("  " + line for line in p.lines())
        for label, part in self.criteria:
            sub = part.lines(0)
            out.append(f"  {label}: " + sub[0])
            out.extend("  " + line for line in sub[1:])
        if self.unknown:
            out.append("  unknown facts: " + ", ".join(self.unknown))
        if self.neither:
            out.append("  neither criterion held: reject and proceed are both false on these facts, so the gate is "
                       "INCONCLUSIVE by a gap between its criteria (ipb check, rule criteria-gap), not for a missing fact")
        if self.verdict == "INCONCLUSIVE":
            if self.deciders:
                for name, outcomes in self.deciders.items():
                    out.append(f"  knowing {name} would decide it: " + "; ".join(f"{name} = {v} -> {r}" for v, r in outcomes))
            elif len(self.unknown) > 1:
                out.append("  no single missing fact decides it; it needs several of: " + ", ".join(self.unknown))
            elif self.unknown and self.unknown[0] not in self.refused:
                out.append(f"  no value tried for {self.unknown[0]} decides it on its own")
            for name, pairs in self.boundaries.items():
                out.extend(f"  {name} switches it between neighbouring values of its grid: {name} = {a} -> {ra}; "
                           f"{name} = {b} -> {rb}" for (a, ra), (b, rb) in pairs)
            # a lone unknown whose every probe value breaks the constraints: the line below says so
            for name, values in self.refused.items():
                out.append(f"  not tried for {name} (the card's constraints rule them out with the known facts): "
                           + "; ".join(f"{v} (breaks {', '.join(ids)})" for v, ids in values))
        return out


@dataclass
class Explanation:
    """Every gate's explanation, the final verdict and its trigger."""

    card: str
    outcome: str
    trigger: str
    gates: list[GateExplanation]
    #: A weighted threshold's counted weight against its ``min_weight`` (``weight 3 < min_weight 4``), or None.
    weight: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (values as the card's literals, unknown as null)."""
        def part(p: Part) -> dict[str, Any]:
            return {"source": p.source, "shown": p.shown, "value": None if p.value is None else _show(p.value, p.unit),
                    "parts": [part(q) for q in p.parts]}
        return {"card": self.card, "investment_verdict": self.outcome, "verdict_trigger": self.trigger,
                "weight": self.weight,
                "gates": [{"gate": g.number, "id": g.id, "name": g.name, "verdict": g.verdict, "note": g.note,
                           "computed": [part(p) for p in g.computed],
                           "criteria": [{"criterion": label, **part(p)} for label, p in g.criteria],
                           "unknown": g.unknown, "neither_held": g.neither,
                           "decided_by": {n: [{"value": v, "verdict": r} for v, r in o] for n, o in g.deciders.items()},
                           "refused": {n: [{"value": v, "breaks": ids} for v, ids in o] for n, o in g.refused.items()},
                           "boundaries": {n: [[{"value": v, "verdict": r} for v, r in pair] for pair in o]
                                          for n, o in g.boundaries.items()}}
                          for g in self.gates]}

    def lines(self) -> list[str]:
        out: list[str] = []
        for g in self.gates:
            out.extend(g.lines())
        out.append(f"Final verdict: {self.outcome} (trigger: {self.trigger}{'; ' + self.weight if self.weight else ''})")
        return out

    def text(self) -> str:
        return "\n".join(self.lines()) + "\n"


def _show(value: Any, unit: str | None = None) -> str:
    if value is None:
        return "unknown"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return format_value(value, unit)


@lru_cache(maxsize=4096)
def _tree(source: str) -> Tree:
    return get_parser().parse(source)


class _Explainer:
    def __init__(self, card: Card) -> None:
        self.card = card
        self.symbols = card.symbols
        self.constants = {n: v for n, (v, _) in card.constants.items()}
        self.cache: dict[str, CompiledExpression | None] = {}

    def compiled(self, text: str) -> CompiledExpression | None:
        if text not in self.cache:
            try:
                self.cache[text] = compile_expression(text, self.symbols, constants=self.constants)
            except Exception:  # a fragment that does not stand alone (never expected): shown without a value
                self.cache[text] = None
        return self.cache[text]

    def value(self, text: str, env: Mapping[str, Any]) -> tuple[Any, str | None]:
        expr = self.compiled(text)
        if expr is None:
            return None, None
        return expr(dict(env)), expr.type.unit

    def part(self, source: str, node: Tree | Token, env: Mapping[str, Any]) -> Part:
        text = _text(source, node)
        if isinstance(node, Tree) and node.data in _BOOL_NODES:
            parts = [self.part(source, c, env) for c in node.children if isinstance(c, (Tree, Token))]
            value, unit = self.value(text, env)
            return Part(text, text, value, unit, parts)
        value, unit = self.value(text, env)
        return Part(text, self.substituted(source, node, env), value, unit)

    def substituted(self, source: str, node: Tree | Token, env: Mapping[str, Any]) -> str:
        """The comparison's text with each non-literal operand followed by its value (``?`` when unknown)."""
        if not (isinstance(node, Tree) and node.data == "comparison"):
            return self.operand(source, node, env)
        pieces = []
        for child in node.children:
            if isinstance(child, Tree) and child.data == "comp_op":
                pieces.append(" ".join(str(t) for t in child.children))
            else:
                pieces.append(self.operand(source, child, env))
        return " ".join(pieces)

    def operand(self, source: str, node: Tree | Token, env: Mapping[str, Any]) -> str:
        text = _text(source, node)
        if _is_literal(node):
            return text
        value, unit = self.value(text, env)
        if isinstance(value, bool) and isinstance(node, Tree) and node.data not in ("name", "call"):
            return text
        return f"{text} {_show(value, unit) if value is not None else '?'}"


def _is_literal(node: Tree | Token) -> bool:
    if isinstance(node, Token):
        return node.type != "NAME"
    if node.data in _LITERALS:
        return True
    if node.data == "neg":
        return all(_is_literal(c) for c in node.children if isinstance(c, (Tree, Token)))
    return False


def _text(source: str, node: Tree | Token) -> str:
    if isinstance(node, Token):
        return source[node.start_pos:node.end_pos] if node.start_pos is not None else str(node)
    meta = node.meta
    if getattr(meta, "empty", True):
        return source
    return source[meta.start_pos:meta.end_pos]


def _criteria(gate: Gate) -> list[tuple[str, CompiledExpression]]:
    out: list[tuple[str, CompiledExpression]] = []
    if gate.reject is not None:
        out.append(("reject", gate.reject))
    if gate.proceed is not None:
        out.append(("proceed", gate.proceed))
    for regime, when in gate.classify:
        if when is not None:
            out.append((f"classify {regime} when", when))
    return out


def _inputs_behind(card: Card, names: Sequence[str]) -> list[str]:
    """The card inputs that ``names`` read, through computed values of any gate."""
    computes: dict[str, CompiledExpression] = {n: e for g in card.gates for n, e in g.compute.items()}
    seen: set[str] = set()
    out: list[str] = []
    todo = list(names)
    while todo:
        n = todo.pop(0)
        if n in seen:
            continue
        seen.add(n)
        if n in card.inputs:
            out.append(n)
        elif n in computes:
            todo.extend(sorted(computes[n].names))
    return sorted(out)


def explain(compiled: CompiledCard, facts: Mapping[str, Any], *, scenario_id: str | None = None) -> Explanation:
    """Explain every gate of ``compiled`` on ``facts`` (engine values, as :func:`~ipb.engine.execute.execute` takes).

    Returns
    -------
    Explanation
        Per gate: the verdict, each criterion as a tree of evaluated parts,
        the computed values, the unknown inputs it depends on, and for an
        INCONCLUSIVE gate the missing inputs that would decide it.

    Examples
    --------
    >>> from decimal import Decimal
    >>> from ipb.engine.registry import compiled_card
    >>> card = compiled_card("graham_net_net_screen")
    >>> facts = {"market_value": Decimal(25e6), "current_assets": Decimal(45e6),
    ...          "total_liabilities": Decimal(12e6), "preferred_stock": Decimal(3e6)}
    >>> e = explain(card, facts)
    >>> print("\\n".join(e.gates[0].lines()[:5]))
    Gate 1 Price at Most Two-Thirds of Net Current Asset Value [two_thirds_of_ncav]: REJECT (kill: price_above_two_thirds_ncav)
      ncav = current_assets - total_liabilities - preferred_stock: $30M
      price_ceiling = 2/3 * ncav: $20M
      proceed: market_value $25M <= 2/3 * ncav $20M: false
    >>> print("\\n".join(e.gates[1].lines()))
    Gate 2 Current Assets Not Dissipated by Losses [no_asset_dissipation]: N/A (terminated_by_gate_1; would be INCONCLUSIVE)
      reject: net_income ? < $0: unknown
      unknown facts: net_income
    """
    trace = execute(compiled, facts, diagnostic=True, scenario_id=scenario_id)
    card = compiled.card
    ex = _Explainer(card)
    gates: list[GateExplanation] = []
    for r in trace.gates:
        env = r._env()
        verdict = r.verdict.value
        note = None
        if r.kill_triggered:
            note = f"kill: {r.gate.kill_criterion}"
        elif verdict == "N/A":
            note = r.na_reason
            if r.diagnostic_verdict is not None:
                note = f"{note}; would be {r.diagnostic_verdict.value}"
        criteria = [(label, ex.part(expr.source, _tree(expr.source), env)) for label, expr in _criteria(r.gate)]
        computed = [Part(e.source, f"{n} = {e.source}", env.get(n), e.type.unit) for n, e in r.gate.compute.items()]
        names = sorted({n for _, e in _criteria(r.gate) for n in e.names} | {n for e in r.gate.compute.values() for n in e.names})
        unknown = [n for n in _inputs_behind(card, names) if facts.get(n) is None]
        deciders: dict[str, list[tuple[str, str]]] = {}
        refused: dict[str, list[tuple[str, list[str]]]] = {}
        boundaries: dict[str, list[tuple[tuple[str, str], tuple[str, str]]]] = {}
        effective = r.diagnostic_verdict.value if verdict == "N/A" and r.diagnostic_verdict is not None else verdict
        if effective == "INCONCLUSIVE":
            for name in unknown:
                found = []
                trials, ruled_out = _admissible_trials(card, facts, name)
                if ruled_out:
                    refused[name] = [(_show(v, card.inputs[name].expr_type.unit), ids) for v, ids in ruled_out]
                unit = card.inputs[name].expr_type.unit
                tried: list[tuple[Any, str]] = []
                for v in trials:
                    got = _gate_verdict(compiled, {**facts, name: v}, r.gate.number)
                    tried.append((v, got))
                    if got in ("PROCEED", "REJECT"):
                        found.append((_show(v, unit), got))
                if found:
                    deciders[name] = found
                pairs = _boundaries(compiled, facts, name, r.gate.number, tried)
                if pairs:
                    boundaries[name] = [((_show(a, unit), ra), (_show(b, unit), rb)) for (a, ra), (b, rb) in pairs]
        labels = {label: part.value for label, part in criteria}
        neither = effective == "INCONCLUSIVE" and labels.get("reject") is False and labels.get("proceed") is False
        gates.append(GateExplanation(r.gate.number, r.gate.id, r.gate.name, verdict, note, criteria, computed,
                                     unknown, deciders, refused, boundaries, neither))
    return Explanation(card.id, trace.outcome, trace.trigger, gates, weight_note(trace))
