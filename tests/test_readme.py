"""The card shown in README.md loads, compiles and behaves as the README says."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from ipb.engine.card import load_card_text
from ipb.engine.execute import execute
from ipb.engine.graph import compile_card
from ipb.engine.scenario import check_expected, load_scenario_text

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_card() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Writing a framework card", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_readme_card_runs():
    compiled = compile_card(load_card_text(readme_card(), "README.md"))
    facts = {"price": Decimal(200), "ncav": Decimal(300), "earnings_positive": True}
    assert execute(compiled, facts).outcome == "INVEST"
    facts["price"] = Decimal(201)
    trace = execute(compiled, facts)
    assert (trace.outcome, trace.trigger) == ("DECLINE", "gate_1_reject")
    trace = execute(compiled, {"price": Decimal(200), "ncav": Decimal(300)})
    assert trace.verdicts() == ["PROCEED", "INCONCLUSIVE"] and trace.outcome == "INVEST"


def readme_scenario() -> str:
    """The scenario with an ``expected:`` block that README.md shows for its card."""
    section = README.read_text(encoding="utf-8").split("For the card above:", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_readme_scenario_expected_block_holds_for_the_readme_card():
    card = load_card_text(readme_card(), "README.md")
    scenario = load_scenario_text(readme_scenario(), card, "README.md")
    trace = execute(compile_card(card), scenario.facts)
    # worked by hand: $250M > 2/3 * $300M = $200M, so gate 1 rejects and the linear card stops
    assert (trace.outcome, trace.trigger, trace.verdicts()) == ("DECLINE", "gate_1_reject", ["REJECT", "N/A"])
    assert scenario.expected["note"] and check_expected(scenario, trace.outcome, trace.trigger, trace.verdicts()) == []


def test_readme_lists_every_expected_field_of_the_schema():
    text = README.read_text(encoding="utf-8")
    table = text.split("Its fields (no others are accepted):", 1)[1].split("For the card above:", 1)[0]
    listed = re.findall(r"^\| `(\w+)`", table, re.M)
    schema = json.loads((README.parent / "grammar" / "scenario.schema.json").read_text(encoding="utf-8"))
    expected = schema["properties"]["expected"]
    assert sorted(listed) == sorted(expected["properties"])
    assert "`verdict` (required)" in table and expected["required"] == ["verdict"]


def readme_regime_card() -> str:
    """The regime card of README.md's "A regime card" section."""
    section = README.read_text(encoding="utf-8").split("### A regime card", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_readme_regime_card_gives_the_triggers_its_section_lists():
    compiled = compile_card(load_card_text(readme_regime_card(), "README.md"))
    D = Decimal

    def run(**facts):
        trace = execute(compiled, facts)
        return trace.outcome, trace.trigger

    # worked by hand: safe above 2.99 with no gates on its branch; 2.99 itself is grey, where 2.5x < 3x cover
    # rejects gate 2 and 3x meets it; 1.5 is distress with the collateral unknown; no Z-score, no regime
    assert run(z_score=D(3)) == ("EXTEND_CREDIT", "regime_safe")
    assert run(z_score=D("2.99"), interest_coverage=D("2.5")) == ("DECLINE", "regime_grey_gate_2_reject")
    assert run(z_score=D("2.99"), interest_coverage=D(3)) == ("EXTEND_WITH_COVENANTS", "regime_grey")
    assert run(z_score=D("1.5")) == ("INCONCLUSIVE", "regime_distress_gate_3_inconclusive")
    assert run(z_score=D("1.5"), collateral_cover=D("1.5")) == ("LEND_SECURED", "regime_distress")
    assert run(interest_coverage=D(5)) == ("INCONCLUSIVE", "regime_undetermined")
