"""Regression (an unexplained "—", s53newuser finding 12): a model whose answers state only final verdicts showed "—"
for FM-3 and FM-5 in the report with nothing saying why. Such an answer is scored on its verdict (VerdictAcc) and is
flagged by no detector (as a parse failure is not): the FMDP cell's note and the table's caption now say so, citing
§7.11. Models with no such answer get no such note.
"""

from __future__ import annotations

import json
from pathlib import Path

from ipb.engine.registry import use_cards, use_items
from ipb.report.data import UNREAD_FLAG_RULE, load_results
from ipb.scoring.run import ScoreOptions, run_score

ITEM = Path(__file__).resolve().parents[1] / "fixtures" / "new_user53" / "l8_item.jsonl"


def test_final_only_model_gets_the_note_beside_its_dashes(tmp_path: Path) -> None:
    item_id = json.loads(ITEM.read_text(encoding="utf-8").splitlines()[0])["id"]
    answers = tmp_path / "a.jsonl"
    # one line per investor, a verdict and nothing else (golds BUY, INVEST, INVEST): VerdictAcc 3 of 3, no gate read
    answers.write_text(json.dumps({"item_id": item_id, "model": "bare", "condition": "A",
                                   "response": "Mohnish Pabrai: BUY.\nSeth Klarman: INVEST.\nCharlie Munger: INVEST.\n"})
                       + "\n", encoding="utf-8")
    use_cards()
    use_items(ITEM)
    try:
        result = run_score(ITEM, answers, tmp_path / "out", ScoreOptions(embeddings=False, n_resamples=20))
    finally:
        use_cards()
    group = result.summary["groups"]["model"]["bare"]
    assert group["n_trace_unread"] == 1 and group["metrics"]["verdict_acc"]["mean"] == 1.0
    assert group["flags"]["FM-3"] is None and group["flags"]["FM-5"] is None
    data = load_results(tmp_path / "out")
    assert data.fmdp is not None
    for fm in ("FM-3", "FM-5"):
        cell = data.fmdp.get(fm, "bare")
        assert cell.value is None and cell.note == UNREAD_FLAG_RULE
    assert "§7.11" in UNREAD_FLAG_RULE and "final verdict alone" in UNREAD_FLAG_RULE
    assert data.fmdp.caption.endswith(UNREAD_FLAG_RULE)
