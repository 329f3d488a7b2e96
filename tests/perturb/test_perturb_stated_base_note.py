"""The run summary says why a threshold card's items are never INCONCLUSIVE when the base states every fact (s46user).

A new user's nine-signal F-score card, perturbed from a base stating all eight facts, printed "evenness 0.00" and
"never produced: INCONCLUSIVE" beside BUY 24 and AVOID 36, with nothing to say that no item could be INCONCLUSIVE.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()

CARD = """\
id: two_of_three_screen
investor: Joseph Piotroski
name: Two of Three Screen
topology_type: parallel_threshold
gate_logic: weighted_threshold_2_of_3
decisive_default: false
topology_rationale: Three independent signals; two positive ones buy.
vintage: {start: 2000, end: null}
sources:
  - {tier: 1, document: "Value Investing", year: 2000}
outcomes: {pass: BUY, fail: AVOID}
threshold: {count: PROCEED, at_least: 2}
inputs:
  roa: {type: ratio, label: return on assets, range: [-10%, 10%], step: 1%}
  margin_change: {type: ratio, label: change in gross margin, range: [-5%, 5%], step: 1%}
  shares_issued: {type: bool, label: new shares issued}
gates:
  - id: profitable
    name: Positive return on assets
    proceed: roa > 0%
    required_elements: ["return on assets {roa}"]
  - id: margin
    name: Rising gross margin
    proceed: margin_change > 0%
    required_elements: ["change in gross margin {margin_change}"]
  - id: no_dilution
    name: No equity issued
    proceed: not shares_issued
    required_elements: [no new shares]
"""

NOTE = "no item can be INCONCLUSIVE: the base states every input"


def _run(tmp_path, facts: str):
    card = tmp_path / "card.yaml"
    card.write_text(CARD, encoding="utf-8")
    base = tmp_path / "base.yaml"
    base.write_text(f"id: b\ncard: two_of_three_screen\nas_of: \"2015-06-30\"\nfacts:\n{facts}", encoding="utf-8")
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["perturb", "--card", str(card), "--base", str(base), "--n", "8", "--seed", "3",
                                 "--ops", "metric", "--out", str(tmp_path / "items.jsonl"), "--report", str(report)])
    assert result.exit_code == 0, result.output
    return result.output, json.loads(report.read_text(encoding="utf-8"))


def test_a_base_stating_every_fact_says_why_no_item_is_inconclusive(tmp_path):
    # shares issued: BUY needs roa and margin_change both above 0%, every other draw is AVOID, none undecided
    output, report = _run(tmp_path, "  roa: 4%\n  margin_change: 1%\n  shares_issued: true\n")
    assert "INCONCLUSIVE" not in report["verdicts"] and "INCONCLUSIVE" in report["missing"]
    # s63join (s62 new user N14): the evenness leaves out the verdict no item can have; it was 0.0 here, counting
    # INCONCLUSIVE as 0 beside the note that says no item can be INCONCLUSIVE. Seed 3: AVOID 6, BUY 2 -> 2 / 6
    assert report["verdicts"] == {"AVOID": 6, "BUY": 2} and report["evenness"] == 0.3333
    assert "verdicts: AVOID 6, BUY 2 (evenness 0.33)" in output
    assert report["missing_why"].startswith(NOTE)
    assert f"never produced: AVOID, INCONCLUSIVE ({NOTE}" in output or f"never produced: INCONCLUSIVE ({NOTE}" in output


def test_a_base_leaving_a_fact_out_gets_no_such_note(tmp_path):
    # shares_issued unknown: roa 4% PROCEEDs, so a margin_change at or below 0% leaves the count at 1 of 2 with one
    # gate open (INCONCLUSIVE) -- the note would be false here
    output, report = _run(tmp_path, "  roa: 4%\n  margin_change: 1%\n")
    assert NOTE not in output and not (report["missing_why"] or "").startswith(NOTE)
    # s60fix (s59break B11): a verdict reported missing always says why; this one the card can reach
    if report["missing"]:
        assert report["missing_why"].startswith("the card can give it, but no item this run kept reached it")
