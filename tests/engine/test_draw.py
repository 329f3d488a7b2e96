"""``ipb graph``: DOT, Mermaid, SVG and PNG of every bundled card, with and without a scenario.

The pure-Python renderer is tested whatever the machine has (CI has no
Graphviz); the Graphviz renderer only where ``dot`` is installed.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pydot
import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.draw import DrawError, draw, graphviz_binary, layout
from ipb.engine.execute import execute
from ipb.engine.registry import bundled_card_paths, compiled_card
from ipb.engine.render import VERDICT_COLOURS
from ipb.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
CARDS = [compiled_card(str(p)).id for p in bundled_card_paths()]
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def _ids(svg: bytes) -> set[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return {e.get("id") or "" for e in root.iter()}


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.mark.parametrize("card", CARDS)
def test_graph_dot_of_every_card_parses(card: str) -> None:
    result = runner.invoke(app, ["graph", card, "--format", "dot"])
    assert result.exit_code == 0, result.output
    graphs = pydot.graph_from_dot_data(result.stdout)
    assert graphs and len(graphs) == 1
    compiled = compiled_card(card)
    names = {n.get_name() for n in graphs[0].get_nodes()}
    for g in compiled.card.gates:
        assert any(g.id.replace("-", "_") == name.strip('"') for name in names), g.id


@pytest.mark.parametrize("card", CARDS)
def test_builtin_svg_of_every_card_is_valid_and_names_every_node(card: str) -> None:
    compiled = compiled_card(card)
    drawing = draw(compiled, format="svg", renderer="python")
    assert drawing.renderer == "python" and drawing.format == "svg"
    ids = _ids(drawing.data)
    for node in compiled.graph.nodes:
        safe = "".join(c if c.isalnum() or c == "_" else "_" for c in node)
        assert f"node-{safe}" in ids, node
    for u, v in compiled.graph.edges:
        assert any(i.startswith("edge-") for i in ids)


def test_layout_is_layered_and_boxes_do_not_overlap() -> None:
    for card in CARDS:
        compiled = compiled_card(card)
        lay = layout(compiled)
        for u, v, d in compiled.graph.edges(data=True):
            if d["kind"] != "reentry":
                assert lay.nodes[v].layer > lay.nodes[u].layer, (card, u, v)
                assert lay.nodes[v].y < lay.nodes[u].y, (card, u, v)
        boxes = list(lay.nodes.values())
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = a.right <= b.left or b.right <= a.left or a.top <= b.bottom or b.top <= a.bottom
                assert apart, (card, a.key, b.key)


def test_a_linear_chain_stays_in_one_column() -> None:
    lay = layout(compiled_card("buffett_acquisition_checklist"))
    xs = {round(lay.nodes[n].x, 6) for n in ("start", "circle_of_competence", "economic_moat", "management_integrity",
                                             "intrinsic_value", "margin_of_safety", "holding_period", "outcome:INVEST")
          if n in lay.nodes}
    assert len(xs) == 1


def test_scenario_colours_gates_by_verdict() -> None:
    compiled = compiled_card("buffett_acquisition_checklist")
    scen = load_scenario(ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml", compiled.card)
    trace = execute(compiled, scen.facts, scenario_id=scen.id)
    svg = draw(compiled, trace, format="svg", renderer="python").data.decode()
    root = ET.fromstring(svg)
    fills: dict[str, str] = {}
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id") or ""
        if gid.startswith("node-"):
            path = g.find(f"{SVG}path")
            style = path.get("style", "") if path is not None else ""
            fills[gid] = next((p.split(":")[1].strip() for p in style.split(";") if p.strip().startswith("fill:")), "")
    verdicts = {r.gate.id: r.verdict.value for r in trace.gates}
    for gate_id, verdict in verdicts.items():
        assert fills[f"node-{gate_id}"].lower() == VERDICT_COLOURS[verdict].lower(), (gate_id, verdict)
    assert "legend-PROCEED" in _ids(svg.encode())


def test_drawings_are_deterministic() -> None:
    compiled = compiled_card("dalio_bubble_detection_gauge")
    for fmt in ("svg", "png"):
        assert draw(compiled, format=fmt, renderer="python").data == draw(compiled, format=fmt, renderer="python").data


@pytest.mark.parametrize("card", ["buffett_acquisition_checklist", "lynch_six_category_framework",
                                  "dalio_bubble_detection_gauge", "soros_reflexive_hypothesis_trade_construction"])
def test_cli_writes_svg_and_png(card: str, tmp_path: Path) -> None:
    svg, png = tmp_path / "card.svg", tmp_path / "card.png"
    for fmt, path in (("svg", svg), ("png", png)):
        result = runner.invoke(app, ["graph", card, "--format", fmt, "--renderer", "python", "--out", str(path)])
        assert result.exit_code == 0, result.output
    _ids(svg.read_bytes())
    width, height = _png_size(png.read_bytes())
    assert width > 200 and height > 200


def test_cli_svg_to_stdout_with_a_scenario(tmp_path: Path) -> None:
    scenario = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_c.yaml"
    result = runner.invoke(app, ["graph", "buffett_acquisition_checklist", "-f", "svg", "-r", "python", "-s", str(scenario)])
    assert result.exit_code == 0, result.output
    _ids(result.stdout_bytes)


def test_auto_falls_back_to_python_without_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IPB_GRAPHVIZ_DOT", "")
    assert graphviz_binary() is None
    drawing = draw(compiled_card("graham_net_net_screen"), format="png")
    assert drawing.renderer == "python"
    with pytest.raises(DrawError, match="needs the 'dot' program"):
        draw(compiled_card("graham_net_net_screen"), format="svg", renderer="graphviz")


def test_a_failing_graphviz_falls_back_with_a_note(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho 'Error: syntax error in line 1' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("IPB_GRAPHVIZ_DOT", str(fake))
    drawing = draw(compiled_card("graham_net_net_screen"), format="svg")
    assert drawing.renderer == "python" and drawing.note and "status 3" in drawing.note
    with pytest.raises(DrawError, match="status 3"):
        draw(compiled_card("graham_net_net_screen"), format="svg", renderer="graphviz")


@pytest.mark.parametrize("kwargs, message", [({"format": "svgz"}, "did you mean .svg"), ({"renderer": "pythn"}, "did you mean .python")],
                         ids=["format", "renderer"])
def test_unknown_options_are_errors_with_suggestions(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(DrawError, match=message):
        draw(compiled_card("graham_net_net_screen"), **kwargs)


@pytest.mark.skipif(graphviz_binary() is None, reason="Graphviz's dot is not installed (Debian package graphviz)")
@pytest.mark.parametrize("card", CARDS)
def test_graphviz_svg_of_every_card(card: str) -> None:
    drawing = draw(compiled_card(card), format="svg", renderer="graphviz")
    assert drawing.renderer == "graphviz"
    _ids(drawing.data)
