"""Compile a card into its decision graph and check its structure.

The graph is a :class:`networkx.DiGraph` whose nodes are

* ``"start"`` (kind ``start``),
* one node per gate, keyed by gate id (kind ``gate``: number, name,
  kill_criterion, classifier flag),
* ``"join"`` for an n-of-m or parallel join (kind ``join``, label such as
  ``"4 of 7 REJECT"``),
* one node per final verdict, keyed ``"outcome:INVEST"`` (kind ``outcome``),

and whose edges carry ``kind``: ``sequence`` (advance), ``kill`` (a REJECT
ends the chain), ``trigger`` (a trigger card's gate REJECTs: the trigger fired), ``branch``
(label: the regime), ``join`` (into an n-of-m join), ``result`` (join or last
gate to an outcome) and ``reentry`` (a declared, bounded loop back). The kill
and sequence edges out of a gate on two or more branches name the regime
(``"safe: z_falling_fast"``, ``"grey: PROCEED"``): its branches may fail into
different verdicts.

Structural checks, each an error at the card's file:line:col:

* ``topology_type`` and ``gate_logic`` agree with each other and with the
  declared structure (threshold block, classifier, branches, re-entry);
* ``weighted_threshold_N_of_M`` has N equal to ``threshold.n`` and M equal to
  the number of gates;
* every gate is reachable from ``start``;
* the graph has no cycle other than declared re-entry loops, which must point
  back to an earlier gate.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import networkx as nx

from ipb.engine.card import Card, Gate, weights_count
from ipb.errors import CompileError, ErrorGroup, IpbError

__all__ = ["CompiledCard", "compile_card", "build_graph", "parse_gate_logic"]

_WEIGHTED = re.compile(r"^weighted_threshold_(\d+)_of_(\d+)$")

_ALLOWED_LOGIC = {
    "linear_sequential": ("conjunction", "disjunction"),
    "parallel_threshold": ("conjunction", "disjunction", "weighted_threshold"),
    "conditional_branch": ("regime_dependent",),
}


def parse_gate_logic(gate_logic: str) -> tuple[str, int | None, int | None]:
    """Split a gate logic name into (family, N, M).

    >>> parse_gate_logic("weighted_threshold_4_of_7")
    ('weighted_threshold', 4, 7)
    >>> parse_gate_logic("conjunction")
    ('conjunction', None, None)
    """
    m = _WEIGHTED.match(gate_logic)
    if m:
        return "weighted_threshold", int(m.group(1)), int(m.group(2))
    return gate_logic, None, None


@dataclass
class CompiledCard:
    """A card with its decision graph and execution plan.

    ``prefix`` lists the gates run in sequence before a classifier (all gates
    for linear and parallel cards); ``classifier`` is the regime gate of a
    conditional_branch card, or None.
    """

    card: Card
    graph: nx.DiGraph
    family: str
    prefix: tuple[Gate, ...]
    classifier: Gate | None

    @property
    def id(self) -> str:
        return self.card.id


class _Errors:
    def __init__(self, card: Card) -> None:
        self.card = card
        self.items: list[IpbError] = []

    def add(self, message: str, path: tuple[Any, ...], rule: str, *, key: bool = False, **fields: Any) -> None:
        err = CompileError(message, rule=rule, **fields)
        doc = self.card.doc
        if doc is not None:
            line, column = doc.locate_key(path) if key else doc.locate(path)
            err.with_location(doc.file, line, column, doc.source_line(line))
        else:
            err.with_location(self.card.file)
        self.items.append(err)


def compile_card(card: Card) -> CompiledCard:
    """Build the decision graph of ``card`` and check its structure.

    Returns
    -------
    CompiledCard
        Graph plus execution plan; compiling the same card twice gives equal
        graphs (same nodes, edges and attributes, in the same order).

    Raises
    ------
    ErrorGroup
        Every structural error: topology/gate-logic disagreement, a threshold
        that contradicts the N-of-M name, unreachable gates, cycles that are
        not declared re-entry loops.
    """
    errors = _Errors(card)
    family, n, m = parse_gate_logic(card.gate_logic)
    gindex = {g.id: i for i, g in enumerate(card.gates)}

    allowed = _ALLOWED_LOGIC[card.topology_type]
    if family not in allowed:
        errors.add(
            f"gate_logic {card.gate_logic!r} does not fit topology_type {card.topology_type!r}; "
            f"it allows: {', '.join(a if a != 'weighted_threshold' else 'weighted_threshold_N_of_M' for a in allowed)}",
            ("gate_logic",),
            "topology",
        )
    if family == "weighted_threshold":
        if card.threshold is None:
            errors.add(f"{card.gate_logic} needs a 'threshold' block (count, at_least)", ("gate_logic",), "topology")
        elif card.threshold.n != n:
            errors.add(
                f"threshold.at_least is {card.threshold.n} but gate_logic says {n} of {m}",
                ("threshold", "at_least"),
                "topology",
            )
        if m != len(card.gates):
            errors.add(
                f"gate_logic says {n} of {m} but the card has {len(card.gates)} gates", ("gate_logic",), "topology"
            )
        if n is not None and m is not None and n > m:
            errors.add(f"{card.gate_logic}: N ({n}) cannot exceed M ({m})", ("gate_logic",), "topology")
    elif card.threshold is not None:
        errors.add(
            f"a 'threshold' block only applies to weighted_threshold_N_of_M, not {card.gate_logic!r}",
            ("threshold",),
            "topology",
            key=True,
        )

    classifiers = [g for g in card.gates if g.is_classifier]
    if card.topology_type == "conditional_branch":
        if not classifiers:
            errors.add(
                "a conditional_branch card needs one classifying gate (with 'classify' rules and 'branches')",
                ("topology_type",),
                "topology",
            )
        for extra in classifiers[1:]:
            errors.add("only one gate may classify the regime", ("gates", extra.number - 1, "classify"), "topology", key=True)
        for g in classifiers[:1]:
            if not g.branches:
                errors.add(f"classifying gate {g.id!r} has no 'branches'", ("gates", g.number - 1, "classify"), "topology", key=True)
    else:
        for g in classifiers:
            errors.add(
                f"gate {g.id!r} classifies a regime, which only a conditional_branch card may do "
                f"(this card is {card.topology_type})",
                ("gates", g.number - 1, "classify"),
                "topology",
                key=True,
            )

    for g in card.gates:
        if g.reentry is None:
            continue
        path = ("gates", g.number - 1, "reentry")
        if card.topology_type != "linear_sequential":
            errors.add("re-entry loops are only defined for linear_sequential cards", path, "reentry", key=True)
        target = gindex.get(g.reentry.to)
        if target is not None and target >= g.number - 1:
            errors.add(
                f"re-entry from {g.id!r} must loop back to an earlier gate, not {g.reentry.to!r}",
                path + ("to",),
                "reentry",
            )

    if errors.items:
        raise ErrorGroup(errors.items)

    classifier = classifiers[0] if classifiers else None
    if classifier is not None:
        prefix = tuple(card.gates[: classifier.number - 1])
        for g in prefix:
            for regime, branch in classifier.branches.items():
                if g.id in branch.gates:
                    errors.add(
                        f"branch {regime!r} lists gate {g.id!r}, which comes before the classifier",
                        ("gates", classifier.number - 1, "branches", regime),
                        "branch",
                        key=True,
                    )
    else:
        prefix = tuple(card.gates)

    graph = build_graph(card, family, n, classifier)

    reachable = nx.descendants(graph, "start")
    for g in card.gates:
        if g.id not in reachable:
            errors.add(
                f"gate {g.id!r} is unreachable: no sequence, branch or join leads to it",
                ("gates", g.number - 1, "id"),
                "unreachable",
                name=g.id,
            )
    acyclic = nx.DiGraph((u, v) for u, v, d in graph.edges(data=True) if d["kind"] != "reentry")
    try:
        cycle = nx.find_cycle(acyclic)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        first = cycle[0][0]
        loop = " -> ".join([u for u, _ in cycle] + [first])
        errors.add(
            f"the gates form a cycle ({loop}); only a declared 'reentry' with max_iterations may loop",
            ("gates", card.gate(first).number - 1, "id") if first in gindex else ("gates",),
            "cycle",
        )
    if errors.items:
        raise ErrorGroup(errors.items)
    return CompiledCard(card, graph, family, prefix, classifier)


def build_graph(card: Card, family: str, n: int | None, classifier: Gate | None) -> nx.DiGraph:
    """The decision graph of ``card`` (see the module docstring for its shape)."""
    graph = nx.DiGraph(card=card.id, topology_type=card.topology_type, gate_logic=card.gate_logic)

    def add_edge(u: str, v: str, kind: str, label: str, **attrs: Any) -> None:
        """Add an edge; a second route along it (shared branch gates) joins its label."""
        if graph.has_edge(u, v):
            data = graph.edges[u, v]
            labels = [part for part in str(data["label"]).split(", ") if part]
            if label and label not in labels:
                data["label"] = ", ".join(labels + [label])
            return
        graph.add_edge(u, v, kind=kind, label=label, **attrs)

    graph.add_node("start", kind="start", label="start")
    for g in card.gates:
        graph.add_node(
            g.id,
            kind="gate",
            number=g.number,
            label=g.name,
            kill_criterion=g.kill_criterion,
            classifier=g.is_classifier,
            weight=str(g.weight),
        )
    outcomes = [card.outcomes["pass"], card.outcomes["fail"]]
    if classifier is not None:
        for branch in classifier.branches.values():
            outcomes += [branch.pass_outcome, branch.fail_outcome]
    for name in dict.fromkeys(outcomes):
        graph.add_node(f"outcome:{name}", kind="outcome", label=name)
    passed, failed = f"outcome:{card.outcomes['pass']}", f"outcome:{card.outcomes['fail']}"

    def chain(gates: list[Gate], head: str, head_label: str, ok: str, bad: str, disjunctive: bool) -> None:
        previous, label = head, head_label
        for g in gates:
            add_edge(previous, g.id, kind="sequence", label=label)
            if disjunctive:
                # A trigger card (§7.3 convention): REJECT = the trigger fired.
                add_edge(g.id, bad, kind="trigger", label=g.kill_criterion or "REJECT")
                label = "not triggered"
            else:
                add_edge(g.id, bad, kind="kill", label=g.kill_criterion or "REJECT")
                label = "PROCEED"
            previous = g.id
        add_edge(previous, ok, kind="result", label="no trigger fired" if disjunctive else "cleared")

    if card.topology_type == "linear_sequential":
        chain(list(card.gates), "start", "", passed, failed, family == "disjunction")
        for g in card.gates:
            if g.reentry is not None:
                add_edge(
                    g.id, g.reentry.to, kind="reentry", label=f"while {g.reentry.condition.source}",
                    max_iterations=g.reentry.max_iterations,
                )
    elif card.topology_type == "parallel_threshold":
        if family == "weighted_threshold" and card.threshold is not None:
            label = f"{card.threshold.n} of {len(card.gates)} {card.threshold.count}"
            if weights_count(card):
                label += f", weight >= {card.threshold.min_weight}"  # (a veto by weight shows, s53newuser)
        else:
            label = "all" if family == "conjunction" else "any"
        graph.add_node("join", kind="join", label=label)
        for g in card.gates:
            add_edge("start", g.id, kind="sequence", label="")
            add_edge(g.id, "join", kind="join", label=f"weight {g.weight}")
        if family == "conjunction":
            add_edge("join", passed, kind="result", label="no REJECT")
            add_edge("join", failed, kind="result", label="any REJECT")
        elif family == "disjunction":
            # A trigger card (§7.3 convention): any trigger (REJECT) fires the fail verdict.
            add_edge("join", passed, kind="result", label="no trigger fired")
            add_edge("join", failed, kind="result", label="any trigger fired")
        else:
            # Counting REJECTs (a bubble gauge), reaching the threshold sinks the card.
            counts_rejects = card.threshold is not None and card.threshold.count == "REJECT"
            add_edge("join", failed if counts_rejects else passed, kind="result", label="met")
            add_edge("join", passed if counts_rejects else failed, kind="result", label="not met")
    else:
        assert classifier is not None
        prefix = card.gates[: classifier.number - 1]
        previous = "start"
        for g in prefix:
            add_edge(previous, g.id, kind="sequence", label="PROCEED" if previous != "start" else "")
            add_edge(g.id, failed, kind="kill", label=g.kill_criterion or "REJECT")
            previous = g.id
        add_edge(previous, classifier.id, kind="sequence", label="PROCEED" if previous != "start" else "")
        if classifier.reject is not None or classifier.proceed is not None:
            add_edge(classifier.id, failed, kind="kill", label=classifier.kill_criterion or "REJECT")
        by_id = {g.id: g for g in card.gates}
        # a gate on two or more branches says on each edge out of it which regime takes it (s42user: a falling Z
        # led to REVIEW on the safe branch and to DECLINE on the grey one, both edges labelled z_falling_fast)
        shared_gates = Counter(gid for branch in classifier.branches.values() for gid in dict.fromkeys(branch.gates))
        for regime, branch in classifier.branches.items():
            ok, bad = f"outcome:{branch.pass_outcome}", f"outcome:{branch.fail_outcome}"
            previous, label = classifier.id, regime
            for gid in branch.gates:
                if gid not in by_id:
                    continue
                kind = "branch" if previous == classifier.id else "sequence"
                add_edge(previous, gid, kind=kind, label=label)
                whose = f"{regime}: " if shared_gates[gid] > 1 else ""
                add_edge(gid, bad, kind="kill", label=whose + (by_id[gid].kill_criterion or "REJECT"))
                previous, label = gid, whose + "PROCEED"
            if previous == classifier.id:
                add_edge(previous, ok, kind="branch", label=regime)
            else:
                add_edge(previous, ok, kind="result", label=f"{regime}: cleared")
    return graph
