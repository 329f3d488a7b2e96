"""Bug kind: a picture that hides its labels (branch s53lint, s53newuser finding 6).

A gate whose id is a DOT keyword (Thorp's classify gate ``edge``) was written ``edge [label="1. Edge",
fontcolor="white", ...]``: Graphviz reads that line as the default attributes of every edge, so every edge label was
white on the white page, and the gate became an unstyled ellipse named "edge" with no number or colour. Node ids are
now never a keyword and each edge states its label colour. The DOT tests fail without the fix (the node ``edge``).
"""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal

import pydot
import pytest

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute
from ipb.engine.graph import compile_card
from ipb.engine.render import to_dot

CARD = """\
id: s53_regime
investor: Test Investor
name: Regime picture
topology_type: conditional_branch
gate_logic: regime_dependent
decisive_default: true
topology_rationale: The edge decides which test applies.
vintage: {start: 2000}
sources: [{tier: 1, document: Notes, year: 2000}]
outcomes: {pass: BET, fail: NO_BET}
inputs:
  edge_size: {type: ratio}
  stake: {type: ratio}
gates:
  - id: edge
    name: Edge
    classify:
      - {regime: negative, when: edge_size <= 0%}
      - {regime: clear}
    branches:
      negative: {gates: [], pass: NO_BET, fail: NO_BET}
      clear: {gates: [node], pass: BET, fail: NO_BET}
    required_elements: [edge]
  - id: node
    name: Stake at most half the edge
    proceed: stake <= edge_size / 2
    kill_criterion: overbetting
    required_elements: [stake]
"""

KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _dot() -> tuple[str, pydot.Dot]:
    compiled = compile_card(load_card_text(CARD, "s53_regime.yaml"))
    trace = execute(compiled, {"edge_size": Decimal("0.1"), "stake": Decimal("0.02")})
    text = to_dot(compiled, trace)
    (graph,) = pydot.graph_from_dot_data(text)
    return text, graph


def test_no_node_is_named_by_a_dot_keyword():
    text, graph = _dot()
    names = {n.get_name().strip('"') for n in graph.get_nodes()}
    assert not {n.lower() for n in names} & KEYWORDS, names
    # no line sets the default attributes of edges or nodes (what "edge [...]" did)
    assert not [line for line in text.splitlines()[1:] if line.split(" ", 1)[0] in KEYWORDS], text  # (1: "digraph")


def test_the_branch_gate_carries_its_number_and_verdict_colour():
    _, graph = _dot()
    (gate,) = [n for n in graph.get_nodes() if n.get_name() == "edge_"]
    assert gate.get("label").strip('"').startswith("1. Edge")
    assert gate.get("shape").strip('"') == "box" and gate.get("fillcolor").strip('"') == "#2e7d32"  # PROCEED green


def test_every_edge_label_is_black_on_the_white_page():
    _, graph = _dot()
    edges = graph.get_edges()
    assert edges and all(e.get("fontcolor").strip('"') == "black" for e in edges)
    labels = {e.get("label").strip('"') for e in edges}
    assert {"negative", "clear"} <= labels


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graphviz_draws_the_edge_labels_dark():
    text, _ = _dot()
    svg = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True, check=True).stdout
    # the regime names on the edges: drawn without a white fill (black is Graphviz's default text fill)
    for label in (">negative<", ">clear<"):
        line = next(x for x in svg.splitlines() if label in x)
        assert 'fill="white"' not in line, line
    assert ">1. Edge<" in svg
