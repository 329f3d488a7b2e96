"""A new user's pass (s52newuser, ``tests/fixtures/new_user52/``: their Fisher card and a scenario of it, and a
covenant screen with a kill criterion), regression tests for what they tripped over.

Finding 7, bug kind: a scenario given where the card belongs. ``ipb run buy.yaml`` read the scenario as a card and
printed 13 card-schema errors ("'gates' is a required property"); now it says the file is a scenario and runs it
with the card its ``card:`` field names.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user52"
ROOT = Path(__file__).resolve().parents[1]
BUFFETT_BASE = ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml"


def test_a_scenario_given_alone_runs_with_its_card_field():
    alone = runner.invoke(app, ["run", str(BUFFETT_BASE), "--format", "json"])
    both = runner.invoke(app, ["run", "buffett_acquisition_checklist", str(BUFFETT_BASE), "--format", "json"])
    assert alone.exit_code == 0 and both.exit_code == 0, alone.output
    assert "is a scenario, not a card" in alone.output and "required property" not in alone.output
    grp = json.loads(alone.output[alone.output.index("{"):])
    assert grp == json.loads(both.output)
    # paper Appendix A.2: the SaaS at 10x ARR clears gates 1-4 and is rejected at gate 5 (price)
    assert (grp["investment_verdict"], grp["verdict_trigger"]) == ("DECLINE", "gate_5_reject")


def test_a_scenario_of_a_card_of_ones_own_runs_with_cards_dir():
    result = runner.invoke(app, ["run", str(HERE / "buy.yaml"), "--cards", str(HERE), "--format", "json"])
    assert result.exit_code == 0, result.output
    grp = json.loads(result.output[result.output.index("{"):])
    # 18% growth, R&D $600M of $8B = 7.5% over 3%, margin 22%, open management, dilution 1%: all five PROCEED
    assert grp["investment_verdict"] == "BUY"


def test_explain_takes_a_scenario_alone_too():
    result = runner.invoke(app, ["explain", str(BUFFETT_BASE)])
    assert result.exit_code == 0, result.output
    assert "is a scenario, not a card" in result.output and "required property" not in result.output


def test_a_scenario_naming_no_card_says_to_give_the_card(tmp_path):
    scenario = tmp_path / "no_card.yaml"
    scenario.write_text("id: x\nfacts:\n  sales_growth: 18%\n", encoding="utf-8")
    result = runner.invoke(app, ["run", str(scenario)])
    assert result.exit_code == 1
    assert "is a scenario" in result.output and f"ipb run CARD {scenario}" in result.output
    assert "required property" not in result.output and "Traceback" not in result.output
