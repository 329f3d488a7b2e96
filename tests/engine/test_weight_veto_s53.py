"""Bug kind: a veto by weight not explained (branch s53lint, s53newuser finding 7).

Pabrai's card counts 3 of 4 PROCEEDs with ``min_weight: 4`` and weight 2 on the downside test. With that test
REJECTed, three gates PROCEED (``at_least`` met) but their weight is 3 < 4: the card PASSes, and ``run``, ``explain``
and the picture said ``threshold_not_met_3_of_4``, which reads as too few gates. The trigger is now
``weight_not_met_3_of_4`` and each view adds ``weight 3 < min_weight 4``. Fails without the fix (old trigger).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.card import load_card_text
from ipb.engine.columnar import execute_columns
from ipb.engine.execute import execute, weight_note
from ipb.engine.explain import explain
from ipb.engine.graph import compile_card

runner = CliRunner()

CARD = """\
id: s53_veto
investor: Test Investor
name: Veto by weight
topology_type: parallel_threshold
gate_logic: weighted_threshold_3_of_4
decisive_default: true
topology_rationale: Four tests side by side; the heavy one vetoes.
vintage: {start: 2000}
sources: [{tier: 1, document: Notes, year: 2000}]
outcomes: {pass: BUY, fail: PASS}
inputs:
  a: {type: bool}
  b: {type: bool}
  c: {type: bool}
  d: {type: bool}
threshold: {count: PROCEED, at_least: 3, min_weight: 4}
gates:
  - {id: ga, name: A, proceed: a, required_elements: [a]}
  - {id: gb, name: B, weight: 2, proceed: b, required_elements: [b]}
  - {id: gc, name: C, proceed: c, required_elements: [c]}
  - {id: gd, name: D, proceed: d, required_elements: [d]}
"""

VETO = {"a": True, "b": False, "c": True, "d": True}  # weights 1 + 1 + 1 = 3 PROCEED, b's 2 REJECTed


def _compiled():
    return compile_card(load_card_text(CARD, "s53_veto.yaml"))


def test_the_trigger_says_the_weight_fell_short():
    trace = execute(_compiled(), VETO)
    assert (trace.outcome, trace.trigger) == ("PASS", "weight_not_met_3_of_4")
    assert weight_note(trace) == "weight 3 < min_weight 4"
    # too few gates is still a threshold miss: a and b REJECT, c and d PROCEED (count 2 < 3, weight 2 < 4)
    trace = execute(_compiled(), {"a": False, "b": False, "c": True, "d": True})
    assert (trace.trigger, weight_note(trace)) == ("threshold_not_met_2_of_4", "weight 2 < min_weight 4")
    # all four: weight 1 + 2 + 1 + 1 = 5 >= 4
    trace = execute(_compiled(), dict.fromkeys("abcd", True))
    assert (trace.outcome, trace.trigger, weight_note(trace)) == ("BUY", "threshold_met_4_of_4", "weight 5 >= min_weight 4")


def test_the_columnar_engine_names_it_alike():
    cols = {k: np.array([v]) for k, v in VETO.items()}
    assert execute_columns(_compiled(), cols).row(0)[:2] == ("PASS", "weight_not_met_3_of_4")


def test_explain_and_run_show_the_weights(tmp_path: Path):
    assert explain(_compiled(), VETO).lines()[-1] == (
        "Final verdict: PASS (trigger: weight_not_met_3_of_4; weight 3 < min_weight 4)")
    card = tmp_path / "veto.yaml"
    card.write_text(CARD, encoding="utf-8")
    scenario = tmp_path / "sc.yaml"
    scenario.write_text("card: s53_veto\nfacts: {a: true, b: false, c: true, d: true}\n", encoding="utf-8")
    out = runner.invoke(app, ["run", str(card), str(scenario)]).output
    assert "(trigger: weight_not_met_3_of_4; weight 3 < min_weight 4)" in out, out


def test_the_picture_shows_the_weight_rule_and_the_shortfall(tmp_path: Path):
    compiled = _compiled()
    assert compiled.graph.nodes["join"]["label"] == "3 of 4 PROCEED, weight >= 4"
    card = tmp_path / "veto.yaml"
    card.write_text(CARD, encoding="utf-8")
    scenario = tmp_path / "sc.yaml"
    scenario.write_text("card: s53_veto\nfacts: {a: true, b: false, c: true, d: true}\n", encoding="utf-8")
    svg = tmp_path / "v.svg"
    result = runner.invoke(app, ["graph", str(card), "-f", "svg", "-r", "python", "-o", str(svg), "--scenario", str(scenario)])
    assert result.exit_code == 0, result.output
    text = svg.read_text(encoding="utf-8")
    assert "weight_not_met_3_of_4" in text and "weight 3 &lt; min_weight 4" in text
