"""Text renderings of a card's decision graph: Graphviz DOT and Mermaid.

DOT is produced with ``pydot`` from the networkx graph of
:func:`ipb.engine.graph.compile_card`; Mermaid is a flowchart written here.
With a trace, gates are coloured by verdict (PROCEED green, REJECT red,
INCONCLUSIVE amber, N/A grey).
"""

from __future__ import annotations

import re
from typing import Any

import networkx as nx
import pydot

from ipb.engine.execute import Trace
from ipb.engine.graph import CompiledCard

__all__ = ["to_dot", "to_mermaid", "VERDICT_COLOURS"]

VERDICT_COLOURS = {
    "PROCEED": "#2e7d32",
    "REJECT": "#c62828",
    "INCONCLUSIVE": "#f9a825",
    "N/A": "#9e9e9e",
}

_SHAPES = {"start": "circle", "gate": "box", "join": "diamond", "outcome": "doubleoctagon"}
_EDGE_STYLES = {"kill": "dashed", "trigger": "bold", "reentry": "dotted"}


def _gate_label(graph: nx.DiGraph, node: str) -> str:
    data = graph.nodes[node]
    if data["kind"] != "gate":
        return str(data["label"])
    label = f"{data['number']}. {data['label']}"
    if data.get("kill_criterion"):
        label += f"\\nkill: {data['kill_criterion']}"
    return label


def to_dot(compiled: CompiledCard, trace: Trace | None = None) -> str:
    """The decision graph as Graphviz DOT text (parses with ``pydot.graph_from_dot_data``)."""
    graph = compiled.graph
    verdicts = {r.gate.id: r.verdict.value for r in trace.gates} if trace else {}
    dot = pydot.Dot(graph_name=_dot_id(compiled.id), graph_type="digraph", rankdir="TB",
                    label=f"{compiled.card.name} ({compiled.card.topology_type}, {compiled.card.gate_logic})",
                    labelloc="t", fontname="Helvetica")
    ids = _dot_ids(graph.nodes)
    for node, data in graph.nodes(data=True):
        attrs: dict[str, Any] = {
            "label": _gate_label(graph, node),
            "shape": _SHAPES[data["kind"]],
            "fontname": "Helvetica",
        }
        if node in verdicts:
            attrs.update(style="filled", fillcolor=VERDICT_COLOURS[verdicts[node]], fontcolor="white")
            attrs["label"] += f"\\n[{verdicts[node]}]"
        elif trace is not None and data["kind"] == "outcome" and data["label"] == trace.outcome:
            attrs.update(style="filled", fillcolor="#1565c0", fontcolor="white")
        dot_node = pydot.Node(ids[node])
        for key, value in attrs.items():
            dot_node.set(key, _quote(value))
        dot.add_node(dot_node)
    for u, v, data in graph.edges(data=True):
        # (the label's colour is stated: a gate's fontcolor must never reach it, s53newuser finding 6)
        edge: dict[str, Any] = {"label": data.get("label", ""), "fontcolor": "black", "fontname": "Helvetica"}
        if data["kind"] in _EDGE_STYLES:
            edge["style"] = _EDGE_STYLES[data["kind"]]
        if data["kind"] == "reentry":
            edge["label"] += f" (max {data['max_iterations']})"
        dot_edge = pydot.Edge(ids[u], ids[v])
        for key, value in edge.items():
            dot_edge.set(key, _quote(value))
        dot.add_edge(dot_edge)
    return str(dot.to_string())


#: DOT's keywords (case-insensitive): a node named ``edge`` was written ``edge [label="1. Edge", fontcolor="white",
#: ...]``, which Graphviz reads as the default attributes of every edge (white labels on white), and the gate itself
#: became an unstyled ellipse named "edge" (s53newuser finding 6: Thorp's classify gate ``edge``).
_DOT_KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})


def _dot_id(name: str) -> str:
    """A DOT identifier for ``name``: letters, digits and ``_``, not starting with a digit, never a DOT keyword.

    >>> _dot_id("edge"), _dot_id("Node"), _dot_id("p/e test"), _dot_id("3rd")
    ('edge_', 'Node_', 'p_e_test', 'n_3rd')
    """
    text = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not text or text[0].isdigit():
        text = "n_" + text
    return text + "_" if text.lower() in _DOT_KEYWORDS else text


def _dot_ids(nodes: Any) -> dict[str, str]:
    """Each node's DOT identifier, distinct (``a-b`` and ``a_b`` would both be ``a_b``: the later one gets a
    number)."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for node in nodes:
        base = candidate = _dot_id(node)
        k = 2
        while candidate.lower() in taken:
            candidate, k = f"{base}_{k}", k + 1
        ids[node] = candidate
        taken.add(candidate.lower())
    return ids


def _quote(value: str) -> str:
    return '"' + str(value).replace('"', '\\"') + '"'


def to_mermaid(compiled: CompiledCard, trace: Trace | None = None) -> str:
    """The decision graph as a Mermaid flowchart."""
    graph = compiled.graph
    lines = ["flowchart TD"]
    ids = {node: f"n{i}" for i, node in enumerate(graph.nodes)}
    brackets = {"start": ("((", "))"), "gate": ("[", "]"), "join": ("{", "}"), "outcome": ("[[", "]]")}
    for node, data in graph.nodes(data=True):
        left, right = brackets[data["kind"]]
        label = _gate_label(graph, node).replace("\\n", "<br/>")
        lines.append(f'    {ids[node]}{left}"{_mermaid_text(label)}"{right}')
    arrows = {"kill": "-.->", "reentry": "-.->", "trigger": "==>"}
    for u, v, data in graph.edges(data=True):
        arrow = arrows.get(data["kind"], "-->")
        label = data.get("label", "")
        if data["kind"] == "reentry":
            label += f" (max {data['max_iterations']})"
        text = f'|"{_mermaid_text(label)}"|' if label else ""
        lines.append(f"    {ids[u]} {arrow}{text} {ids[v]}")
    if trace is not None:
        for verdict, colour in VERDICT_COLOURS.items():
            cls = "na" if verdict == "N/A" else verdict.lower()
            lines.append(f"    classDef {cls} fill:{colour},color:#fff")
        for r in trace.gates:
            cls = "na" if r.verdict.value == "N/A" else r.verdict.value.lower()
            lines.append(f"    class {ids[r.gate.id]} {cls}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;")
