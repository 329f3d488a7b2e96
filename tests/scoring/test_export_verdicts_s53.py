"""Regression (a table missing what it is read for, s53newuser finding 12): ``ipb export`` had no gold and no parsed
final-verdict column, so "which model got which final verdict wrong" needed the items file beside the table. Each
target row now carries ``gold_verdict`` (the GRP's investment_verdict, stored in the score record's target) and
``final_verdict`` (read from the answer for that card).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app
from ipb.engine.registry import use_cards
from ipb.scoring.export import BASE_COLUMNS, export_rows
from test_rank_no_composite_s53 import _KLARMAN, _MUNGER, _PABRAI

ITEM = Path(__file__).resolve().parents[1] / "fixtures" / "new_user53" / "l8_item.jsonl"


def test_export_has_gold_and_parsed_final_verdicts_per_card(tmp_path: Path) -> None:
    item_id = json.loads(ITEM.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = tmp_path / "answers.jsonl"
    records = [{"item_id": item_id, "model": "wrong", "condition": "A",
                "response": _PABRAI + _KLARMAN + _MUNGER.format(final="DECLINE")},
               {"item_id": item_id, "model": "refuser", "condition": "A", "response": "I cannot help with that."}]
    answers.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    runner = CliRunner()
    try:
        result = runner.invoke(app, ["score", "--items", str(ITEM), "--responses", str(answers), "--out",
                                     str(tmp_path / "res"), "--no-embeddings", "--resamples", "20", "--no-leaderboard"])
    finally:
        use_cards()  # ipb score set the card search to the items' copies
    assert result.exit_code == 0, result.output
    assert BASE_COLUMNS[-2:] == ("gold_verdict", "final_verdict")
    rows = export_rows(tmp_path / "res")
    got = [(r["model"], r["card"], r["gold_verdict"], r["final_verdict"]) for r in rows]
    # golds of the deck item: Pabrai BUY (4 of 4), Klarman INVEST, Munger INVEST (3 of 5 lenses); the wrong model
    # wrote DECLINE for Munger; the refusal read no verdict, its golds are still there
    assert got == [("wrong", "pabrai_dhandho_checklist", "BUY", "BUY"),
                   ("wrong", "klarman_downside_first_process", "INVEST", "INVEST"),
                   ("wrong", "munger_opportunity_evaluation", "INVEST", "DECLINE"),
                   ("refuser", "pabrai_dhandho_checklist", "BUY", None),
                   ("refuser", "klarman_downside_first_process", "INVEST", None),
                   ("refuser", "munger_opportunity_evaluation", "INVEST", None)]
    assert [r["target.verdict_acc"] for r in rows[:3]] == [1.0, 1.0, 0.0]
    out = tmp_path / "t.csv"
    assert runner.invoke(app, ["export", str(tmp_path / "res"), "--out", str(out), "--format", "csv"]).exit_code == 0
    table = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["gold_verdict"], r["final_verdict"]) for r in table[:3]] == [("BUY", "BUY"), ("INVEST", "INVEST"),
                                                                            ("INVEST", "DECLINE")]
