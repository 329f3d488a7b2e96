"""A new user's pass (s52newuser, ``tests/fixtures/new_user52/``: their Fisher card and a scenario of it, and a
covenant screen with a kill criterion), regression tests for what they tripped over.

Finding 7, bug kind: a scenario given where the card belongs. ``ipb run buy.yaml`` read the scenario as a card and
printed 13 card-schema errors ("'gates' is a required property"); now it says the file is a scenario and runs it
with the card its ``card:`` field names.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
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


# Finding 3, bug kind: a kill criterion that silently does not kill. On the user's 2-of-3 covenant screen the size
# gate REJECTs (kill: too_small) and the card still says APPROVE (threshold_met_2_of_3); nothing said so.
COVENANT = HERE / "covenant_screen.yaml"
VETO = HERE / "covenant_screen_veto.yaml"
SMALL = ["--set", "ebitda=$20M", "--set", "debt=$40M", "--set", "coverage=5x", "--format", "json"]


def test_check_warns_where_a_kill_criterion_cannot_stop_a_threshold_card():
    result = runner.invoke(app, ["check", str(COVENANT)])
    assert result.exit_code == 0, result.output
    # line 34, column 5: the size gate's 'kill_criterion: too_small'
    assert f"{COVENANT}:34:5: warning: gate 'size' has kill_criterion 'too_small'" in result.output
    # hand-worked veto for 3 gates, 2 of 3: the size gate weighs 2 (the other two together), min_weight 2 + 1 = 3
    assert "weight: 2 on this gate and min_weight: 3" in result.output
    assert "kill-not-veto 1" in result.output


def test_the_engine_semantics_are_unchanged_and_the_weighted_veto_stops_the_card():
    # debt $40M / EBITDA $20M = 2 <= 4 PROCEED, cover 5x >= 3x PROCEED, EBITDA $20M < $50M REJECT
    plain = json.loads(runner.invoke(app, ["run", str(COVENANT), *SMALL]).output)
    assert [g["verdict"] for g in plain["gold_program"]] == ["PROCEED", "PROCEED", "REJECT"]
    assert (plain["investment_verdict"], plain["verdict_trigger"]) == ("APPROVE", "threshold_met_2_of_3")
    # with the veto: PROCEED weight 1 + 1 = 2 < min_weight 3, so the size REJECT declines the loan
    veto = json.loads(runner.invoke(app, ["run", str(VETO), *SMALL]).output)
    assert [g["verdict"] for g in veto["gold_program"]] == ["PROCEED", "PROCEED", "REJECT"]
    assert veto["investment_verdict"] == "DECLINE"
    checked = runner.invoke(app, ["check", str(VETO)])
    assert checked.exit_code == 0 and "kill-not-veto" not in checked.output, checked.output


def test_no_bundled_card_gets_the_kill_not_veto_warning():
    result = runner.invoke(app, ["check", *map(str, sorted((ROOT / "frameworks").glob("*.yaml")))])
    assert "kill-not-veto" not in result.output


# Finding 8, bug kind: errors hidden behind the first kind. A gate missing 'required_elements' (a schema error)
# stopped ipb check before the expressions were compiled; two typos in other gates showed only after the fix.
def test_check_lists_schema_and_expression_errors_in_one_run():
    card = HERE / "fisher_three_errors.yaml"
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1
    assert f"{card}:29:5: load error: 'required_elements' is a required property (at gates/0)" in result.output
    assert f"{card}:35:34: compile error: unknown name 'revenu'" in result.output
    assert f"{card}:45:34: compile error: 'evasiv' is not a value of 'management_candor'" in result.output
    assert "checked 1 file(s): 3 error(s)" in result.output


# (edit to the user's good card, errors expected in the output, text that must not appear)
PAST_SCHEMA = [
    pytest.param(("    proceed: sales_growth >= min_growth", "    procede: sales_growth >= min_growth"),
                 ["unknown field 'procede'", "has no criterion", "'evasiv' is not a value"], [], id="typo-field"),
    pytest.param(("inputs:", "inputz:"), ["'inputs' is a required property"], ["evasiv"], id="no-inputs-no-second-pass"),
    pytest.param(("    compute:\n      rnd_intensity", "    compute: 5\n    computex:\n      rnd_intensity"),
                 ["a mapping (key: value lines) is expected", "'evasiv' is not a value"], ["rnd_intensity"],
                 id="broken-gate-stands-in"),
]


@pytest.mark.parametrize(("edit", "said", "unsaid"), PAST_SCHEMA)
def test_check_compiles_what_a_schema_error_leaves_alone(tmp_path, edit, said, unsaid):
    text = (HERE / "fisher_five_points.yaml").read_text(encoding="utf-8")
    assert edit[0] in text
    card = tmp_path / "card.yaml"
    card.write_text(text.replace(edit[0], edit[1]).replace('== "evasive"', '== "evasiv"'), encoding="utf-8")
    result = runner.invoke(app, ["check", str(card)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    for text_ in said:
        assert text_ in result.output
    for text_ in unsaid:
        assert text_ not in result.output.split("checked 1 file")[0].replace("computex", "")


# Finding 9, bug kind: a unit guessed silently. A bare number for a money input ran as dollars (--set rnd_spend=600:
# R&D $600 of $8B, "R&D over sales 0%", gate 2 REJECT) while a ratio written 18 was refused with a hint.
FISHER, BUY = HERE / "fisher_five_points.yaml", HERE / "buy.yaml"


@pytest.mark.parametrize(("given", "hint"), [("600", "$600M"), ("600M", "$600M"), ("-2.5B", "-$2.5B"), ("(7M)", "($7M)")])
def test_set_refuses_a_money_input_without_its_currency(given, hint):
    result = runner.invoke(app, ["run", str(FISHER), str(BUY), "--set", f"rnd_spend={given}"])
    assert result.exit_code == 1
    assert f"rnd_spend is money; '{given}' has no currency" in result.output
    assert f"did you mean '{hint}'?" in result.output


def test_money_with_its_currency_and_a_bare_zero_still_run():
    # R&D $600M over revenue $8B = 7.5% >= 3%: every gate PROCEEDs (the scenario's note)
    result = runner.invoke(app, ["run", str(FISHER), str(BUY), "--set", "rnd_spend=$600M", "--format", "json"])
    assert json.loads(result.output)["investment_verdict"] == "BUY"
    # $0 of R&D is 0% < 3%: gate 2 REJECTs; 0 needs no currency
    result = runner.invoke(app, ["run", str(FISHER), str(BUY), "--set", "rnd_spend=0", "--format", "json"])
    assert json.loads(result.output)["verdict_trigger"] == "gate_2_reject"


def test_a_scenario_file_refuses_a_bare_money_fact_with_its_position(tmp_path):
    scenario = tmp_path / "bare.yaml"
    scenario.write_text(BUY.read_text(encoding="utf-8").replace("rnd_spend: $600M", "rnd_spend: 600"), encoding="utf-8")
    for command in (["run", str(FISHER), str(scenario)], ["check", str(FISHER), str(scenario)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1
        # line 11 'rnd_spend: 600', the value at column 14
        assert f"{scenario}:11:14: load error: rnd_spend is money; 600 has no currency (write $600 if you mean 600 " \
               "dollars) (did you mean '$600M'?)" in result.output


@given(st.integers(min_value=1, max_value=10**12), st.sampled_from(["", "K", "M", "B"]))
def test_any_bare_amount_is_refused_and_its_hint_reads_back_as_money(amount, scale):
    from ipb.engine.scenario import parse_assignment
    from ipb.errors import LoadError

    card = _fisher()
    with pytest.raises(LoadError) as caught:
        parse_assignment(f"rnd_spend={amount}{scale}", card)
    hint = caught.value.suggestion
    assert hint == f"${amount}{scale or 'M'}"
    factor = {"": 10**6, "K": 10**3, "M": 10**6, "B": 10**9}[scale]
    assert parse_assignment(f"rnd_spend={hint}", card)[1] == amount * factor


def _fisher():
    from ipb.engine.registry import compiled_card

    return compiled_card(str(FISHER)).card


# Finding 12, bug kind: noise that buries the signal.
def test_check_notes_a_missing_translations_sidecar_only_when_asked():
    quiet = runner.invoke(app, ["check", str(FISHER)])
    assert quiet.exit_code == 0 and "gate names in other languages" not in quiet.output
    verbose = runner.invoke(app, ["check", str(FISHER), "--verbose"])
    assert "note: card 'fisher_five_points' has no gate names in other languages" in verbose.output


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("scored52")
    items = tmp / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(FISHER), "--base", str(BUY), "--n", "3", "--ops", "metric",
                               "--seed", "52", "--out", str(items)])
    assert made.exit_code == 0, made.output
    ids = [json.loads(line)["id"] for line in items.read_text(encoding="utf-8").splitlines()]
    answers = {"a-model-with-a-name-of-thirty-chars": "Final verdict: BUY", "terse": "Final verdict: AVOID"}
    (tmp / "responses.jsonl").write_text("".join(
        json.dumps({"item_id": i, "model": m, "condition": "A", "response": text}) + "\n"
        for i in ids for m, text in answers.items()), encoding="utf-8")
    return tmp


def _score(tmp: Path, columns: str) -> str:
    result = runner.invoke(app, ["score", "--items", str(tmp / "items.jsonl"), "--responses",
                                 str(tmp / "responses.jsonl"), "--out", str(tmp / "results"), "--no-embeddings",
                                 "--no-progress", "--resamples", "100"], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("columns", "width"), [("", 100), ("160", 160), ("90", 90)])
def test_the_leaderboard_fits_the_width_and_cuts_no_figure(scored, columns, width):
    text = _score(scored, columns)
    board = text[text.index("ipb score: leaderboard"):text.index("refusals and parse failures by model")]
    assert max(len(line) for line in board.splitlines()) <= width  # was 200 whatever the output
    assert "…" not in board
    # a long model name folds (at 100 columns) but is whole when read down its column
    lines = board.splitlines()
    header = next(line for line in lines if " model " in line)
    start = header.index(" model ") + 1
    end = header.index(" n ", start) + 1
    column = "".join(line[start:end].strip() for line in lines[lines.index(header) + 1:])
    assert "a-model-with-a-name-of-thirty-chars" in column and "terse" in column
    assert "of 3" in board  # the last column, 'composite over', is there, not cropped


def test_the_report_says_the_failure_rule_once_and_links_to_it(scored):
    import re

    _score(scored, "")
    page = scored / "report.html"
    result = runner.invoke(app, ["report", str(scored / "results"), "--out", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    # the full rule (its sentence on skipped items' run errors is in the full text only) is on the page once
    assert html.count("Skipped items (asked and never answered: run errors") == 1
    assert html.count('id="failures"') == 1
    captions = re.findall(r"<(?:caption|figcaption)>(.*?)</(?:caption|figcaption)>", html, re.S)
    ruled = [c for c in captions if "Refusals and parse failures count in each mean" in c]
    assert len(ruled) >= 4  # layers, topology, the two profiles, Figure 6
    assert all('<a href="#failures">How failures count</a>' in c for c in ruled)
    assert all(len(re.sub(r"<[^>]+>", "", c)) < 1500 for c in ruled)  # each caption said ~900 characters of rule
