"""A new user's pass over the item side (issue 18, branch s30user18): Pabrai's Dhandho checklist cut to
four gates (``tests/fixtures/new_user18/pabrai_dhandho_checklist.yaml``: a category input, money
inputs with descriptions, a ``require`` rule and a ``derive``d leverage) taken through check ->
perturb -> verify from the README and docs alone. Each test pins one finding; the notes are in
/work/notes/s30user18.md.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.expressions import MONEY
from ipb.engine.card import InputSpec
from ipb.perturb.render import input_label

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user18"
CARD = HERE / "pabrai_dhandho_checklist.yaml"
BASE = HERE / "pabrai_base.yaml"


# --- a description's list cut at its first comma (bug kind: a question stating a different fact) ----------------

def test_a_list_in_a_description_is_not_cut_at_its_first_comma():
    # before: "The earnings before interest are $400M." for an EBITDA input: a different figure
    spec = InputSpec("ebitda", "money", MONEY,
                     "Earnings before interest, taxes, depreciation and amortisation over the last year.")
    assert input_label(spec) == "earnings before interest, taxes, depreciation and amortisation over the last year"


def test_a_clause_before_an_aside_is_still_the_label():
    spec = InputSpec("arr", "money", MONEY, "Annual recurring revenue, the run rate.")
    assert input_label(spec) == "annual recurring revenue"
    spec = InputSpec("liabilities", "money", MONEY, "All liabilities, current and long-term, including bonds and bank debt.")
    assert input_label(spec) == "all liabilities"


def test_perturbed_question_names_ebitda_whole(tmp_path):
    out = tmp_path / "items.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(CARD), "--base", str(BASE), "--n", "20", "--seed", "7",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    questions = [json.loads(line)["question"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert all("The earnings before interest, taxes, depreciation and amortisation over the last year are $"
               in q for q in questions)
    assert not any("The earnings before interest are" in q for q in questions)
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output


# --- ipb check CARD SCENARIO with a broken card (bug kind: an error that tells the user to do what they did) -----

def test_check_names_the_broken_card_given_beside_the_scenario(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text(CARD.read_text(encoding="utf-8").replace("  - id: sizing\n", "  - id: position_size\n"),
                    encoding="utf-8")
    result = runner.invoke(app, ["check", str(card), str(BASE)])
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "gate id 'position_size' clashes with an input or value name" in out
    assert f"card 'pabrai_dhandho_checklist' is {card}, checked here, which has errors" in out
    # before: "... is neither a card file nor a known card id ...; or check the card and the scenario together:
    # ipb check CARD.yaml BASE", which is the command the user had just run
    assert "neither a card file nor a known card id" not in out


def test_check_of_a_good_card_and_its_base_passes():
    result = runner.invoke(app, ["check", str(CARD), str(BASE)])
    assert result.exit_code == 0, result.output


# --- the L8 run summary (bug kind: a summary a reader cannot read) ------------------------------------------------

L8_BASE = HERE / "l8_deck_base.yaml"
L8_CARDS = ["--card", str(CARD), "--card", "greenblatt_magic_formula_screen", "--card", "munger_business_quality_price"]


def test_l8_summary_lists_one_verdict_combination_a_line(tmp_path):
    out = tmp_path / "l8.jsonl"
    result = runner.invoke(app, ["perturb", *L8_CARDS, "--base", str(L8_BASE), "--n", "40", "--seed", "7",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    combos = {json.dumps([g["investment_verdict"] for g in json.loads(x)["golds"]])
              for x in out.read_text(encoding="utf-8").splitlines()}
    head = next(line for line in lines if line.startswith("wrote "))
    # before: every combination on this one line ("verdicts: pabrai_dhandho_checklist: DECLINE | ... 394, ...")
    assert f"verdicts: {len(combos)} combination(s) of 3 cards' verdicts, below" in head and " | " not in head
    rows = [line for line in lines if " x pabrai_dhandho_checklist: " in line]
    assert len(rows) == len(combos)
    assert sum(int(r.split(" x ")[0]) for r in rows) == 40
    assert runner.invoke(app, ["check", str(L8_BASE), *L8_CARDS]).exit_code == 0


def test_l8_deck_rules_hold_in_every_item(tmp_path):
    out = tmp_path / "l8.jsonl"
    assert runner.invoke(app, ["perturb", *L8_CARDS, "--base", str(L8_BASE), "--n", "40", "--seed", "7",
                               "--out", str(out)]).exit_code == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        facts = json.loads(line)["scenario"]["facts"]
        assert facts["market_value"] == facts["market_cap"]
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


# --- --balance against --mix shares (bug kind: a summary that names the wrong cause) ------------------------------

def test_balance_says_it_took_a_recipes_share(tmp_path):
    out = tmp_path / "b.jsonl"
    result = runner.invoke(app, ["perturb", "--card", str(CARD), "--base", str(BASE), "--n", "200", "--seed", "7",
                                 "--mix", "metric=0.5,flip=0.2,isolate=0.3", "--min-changed", "2", "--balance",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    metric = next(line for line in result.output.splitlines() if line.startswith("  metric:"))
    # before: "N fewer than its share, made up by the other recipes", though metric had items to spare
    assert "--balance chose other recipes' items to even the verdicts" in metric, metric
    assert "made up by the other recipes" not in metric
    assert "DECLINE 100, INVEST 100" in result.output
