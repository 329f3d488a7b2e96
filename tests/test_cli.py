"""The ipb command line, end to end through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pydot
import pytest
from typer.testing import CliRunner

from ipb.cli import app

ROOT = Path(__file__).resolve().parents[1]
BASE = str(ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_base.yaml")
CARD = "buffett_acquisition_checklist"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_run_table_shows_each_gate_and_the_verdict():
    result = invoke("run", CARD, BASE)
    assert result.exit_code == 0
    for text in ("Circle of", "INCONCLUSIVE", "REJECT", "N/A", "Final verdict: DECLINE", "gate_5_reject"):
        assert text in result.output


def test_run_table_has_a_computed_column_only_for_a_card_that_computes():
    """A new user (stop 32) saw an empty Computed column on a card with no ``compute``; Buffett's computes values."""
    assert "Computed" in invoke("run", CARD, BASE).output
    pif = ROOT / "frameworks" / "scenarios" / "pif_dual_kill_investment_screen"  # a card with no compute
    result = invoke("run", "pif_dual_kill_investment_screen", str(sorted(pif.glob("*.yaml"))[0]))
    assert result.exit_code == 0 and "Final verdict" in result.output and "Computed" not in result.output


def test_run_json_is_the_grp():
    result = invoke("run", CARD, BASE, "--format", "json")
    grp = json.loads(result.output)
    assert grp["investment_verdict"] == "DECLINE"
    assert [g["verdict"] for g in grp["gold_program"]] == ["PROCEED", "PROCEED", "INCONCLUSIVE", "PROCEED", "REJECT", "N/A"]


def test_set_overrides_facts_and_flips_the_verdict():
    result = invoke("run", CARD, BASE, "--set", "ev_to_arr=3x", "--set", "revenue_growth=15%", "-f", "json")
    grp = json.loads(result.output)
    assert grp["investment_verdict"] == "INVEST"
    assert grp["gold_program"][4]["required_elements"] == ["price $15B", "intrinsic ~$20B", "0.75x premium"]


def test_set_unknown_fact_suggests_the_input():
    result = runner.invoke(app, ["run", CARD, BASE, "--set", "ev_to_ar=3x"])
    assert result.exit_code == 1
    assert "did you mean 'ev_to_arr'" in result.output


def test_set_with_a_wrong_unit_is_an_error():
    result = runner.invoke(app, ["run", CARD, BASE, "--set", "revenue_retention=$5B"])
    assert result.exit_code == 1
    assert "revenue_retention is a ratio" in result.output


def test_diagnostic_mode_shows_the_skipped_gate():
    c = str(ROOT / "frameworks" / "scenarios" / "buffett_acquisition_checklist" / "ipb_p_011_c.yaml")
    grp = json.loads(invoke("run", CARD, c, "--diagnostic", "-f", "json").output)
    assert grp["gold_program"][5]["diagnostic_verdict"] == "REJECT"


def test_check_passes_on_the_bundled_cards():
    result = invoke("check")
    assert result.exit_code == 0, result.output
    assert "error" not in result.output


def test_check_reports_every_error_with_file_line_col(tmp_path):
    card = (ROOT / "frameworks" / "buffett_acquisition_checklist.yaml").read_text()
    card = card.replace("reject: price > (1 - required_margin) * intrinsic_value",
                        "reject: price > (1 - required_margin) * intrinsic_valu")
    card = card.replace("proceed: management_record == \"candid_owner_oriented\"", "proceed: management_record > 3")
    path = tmp_path / "broken.yaml"
    path.write_text(card)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    lines = card.splitlines()
    row = next(i for i, text in enumerate(lines, 1) if "intrinsic_valu\n" in text + "\n")
    col = lines[row - 1].index("intrinsic_valu") + 1
    assert f"broken.yaml:{row}:{col}: compile error: unknown name 'intrinsic_valu'" in result.output
    assert "did you mean 'intrinsic_value'" in result.output
    assert "cannot order 'management_record'" in result.output
    assert "2 error(s)" in result.output


def test_check_scenario_with_a_value_outside_the_category(tmp_path):
    text = Path(BASE).read_text().replace("macro_regime: expansion", "macro_regime: boom")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    row = next(i for i, t in enumerate(text.splitlines(), 1) if "macro_regime: boom" in t)
    assert f"s.yaml:{row}:17: load error: 'boom' is not an allowed value of macro_regime" in result.output


def test_catalog_json_has_the_table_5_columns():
    rows = json.loads(invoke("catalog", "--format", "json").output)
    buffett = next(r for r in rows if r["id"] == CARD)
    assert buffett == {
        "id": CARD,
        "kind": "practitioner",
        "investor": "Warren Buffett",
        "name": "Buffett Acquisition Checklist",
        "topology_type": "linear_sequential",
        "gate_logic": "conjunction",
        "gates": 6,
        "kill_gates": 6,
    }


@pytest.mark.parametrize("scenario", [None, BASE])
def test_graph_dot_parses(scenario):
    args = ["graph", CARD] + (["--scenario", scenario] if scenario else [])
    text = invoke(*args).output
    (graph,) = pydot.graph_from_dot_data(text)
    names = {n.get_name() for n in graph.get_nodes()}
    assert {"circle_of_competence", "margin_of_safety", "outcome_DECLINE"} <= names
    edges = {(e.get_source(), e.get_destination()) for e in graph.get_edges()}
    assert ("margin_of_safety", "outcome_DECLINE") in edges


def test_graph_mermaid():
    text = invoke("graph", CARD, "--format", "mermaid").output
    assert text.startswith("flowchart TD\n")
    assert "Margin of Safety<br/>kill: price_exceeds_intrinsic_value" in text


def test_unknown_card_id_suggests_a_bundled_one():
    result = runner.invoke(app, ["run", "buffett_acquisition_checklst", BASE])
    assert result.exit_code == 1
    assert "did you mean 'buffett_acquisition_checklist'" in result.output


def test_check_warns_when_the_investor_is_not_in_the_registry(tmp_path):
    """A card for an investor the registry lacks runs, but FM-4 and condition B cannot apply: check says so."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "frameworks" / "graham_net_net_screen.yaml").read_text(encoding="utf-8")
    card = tmp_path / "piotroski_like.yaml"
    card.write_text(source.replace("id: graham_net_net_screen", "id: piotroski_like", 1)
                    .replace("investor: Benjamin Graham", "investor: Joseph Piotroski", 1), encoding="utf-8")
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 0, result.output
    assert f"{card}:4:11: warning: investor 'Joseph Piotroski' is not in the investor registry" in result.output
    assert "(unknown-investor 1)" in result.output
    assert runner.invoke(app, ["check", str(card), "--strict"]).exit_code == 1


def test_check_never_opens_a_path_a_scenario_gives_as_its_card(tmp_path):
    """A scenario's card is an id; a path there (/etc/shadow) is refused at the card line, not opened or echoed."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("card: /etc/shadow\nfacts:\n  price: $1M\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(scenario)])
    assert result.exit_code == 1
    assert f"{scenario}:1:7:" in result.output and "not a path: '/etc/shadow'" in result.output
    assert "root:" not in result.output
