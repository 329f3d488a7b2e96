"""A new user's pass with a framework of their own (branch s47user): John Neff's total return ratio screen
(``tests/fixtures/new_user47/``: the card and its two scenarios), taken through check -> run -> perturb -> score.

Bug kind: items answered by no record vanish from the figures. ``ipb score`` with an items file of 40 items and
answers to 8 of them showed every model at coverage 100% and "8 of 8" beside its composite, and said nothing of the
32 items no model answered; a model that skipped the items it would get wrong ranks as if it had answered all.
``ipb score`` now names, per model, how many of the file's items it answered when that is fewer than all.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
HERE = Path(__file__).resolve().parent / "fixtures" / "new_user47"
CARD = HERE / "neff_total_return_ratio.yaml"


def test_the_card_and_its_scenarios_check():
    result = runner.invoke(app, ["check", str(CARD), str(HERE / "buy.yaml"), str(HERE / "pass.yaml")])
    assert result.exit_code == 0, result.output


def test_run_gives_the_hand_worked_total_return_ratio():
    # (10% growth + 5% yield) x 100 / P/E 6 = 2.5, above the ratio of 2; P/E 6x under 60% of 12x (7.2x)
    result = runner.invoke(app, ["run", str(CARD), str(HERE / "buy.yaml"), "--format", "json"])
    assert result.exit_code == 0, result.output
    grp = json.loads(result.output)
    assert grp["investment_verdict"] == "BUY"
    assert [g["verdict"] for g in grp["gold_program"]] == ["PROCEED"] * 4


def _score(tmp_path: Path, answered: int) -> str:
    items = tmp_path / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", str(CARD), "--base", str(HERE / "buy.yaml"), "--n", "3",
                               "--ops", "metric", "--seed", "47", "--out", str(items)])
    assert made.exit_code == 0, made.output
    ids = [json.loads(line)["id"] for line in items.read_text(encoding="utf-8").splitlines()]
    assert len(ids) == 3
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps({"item_id": i, "model": "m", "condition": "A",
                                             "response": "Gate 1 - Low P/E against the market: PROCEED.\n"
                                                         "Final verdict: BUY"}) + "\n" for i in ids[:answered]),
                         encoding="utf-8")
    scored = runner.invoke(app, ["score", "--items", str(items), "--responses", str(responses),
                                 "--out", str(tmp_path / "results"), "--no-embeddings", "--no-leaderboard"])
    assert scored.exit_code == 0, scored.output
    return scored.output


def test_score_names_the_items_a_model_left_unanswered(tmp_path):
    out = _score(tmp_path, answered=1)
    assert "items answered, by model: m 1 of 3" in out  # before: not a word of the two unanswered items


def test_score_says_nothing_when_every_item_is_answered(tmp_path):
    assert "items answered, by model" not in _score(tmp_path, answered=3)
