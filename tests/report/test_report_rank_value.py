"""The report ranks each model by the ``rank_value`` of ``ipb score``'s leaderboard row, never by a value of its own.

Same run as test_report_run_errors_rank: "zz-right" answers four L7 items at 0.85 (ranks on 0.85), "aaa-flaky"
answers one at 0.95 and fails on three (ranks on 0.95 x 1/4 = 0.2375). When the row says otherwise (here 0.9 for
"aaa-flaky", above 0.85) the report follows the row; a second computation from the counts would keep "zz-right" first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ipb.scoring.summary as score_summary
from ipb.report.data import load_results
from ipb.scoring.options import ScoreOptions
from ipb.scoring.summary import summarize
from test_report_run_errors_rank import _record


def _run(tmp_path: Path) -> dict[str, Any]:
    records = [_record(n, "zz-right", 0.85) for n in range(1, 5)]
    records += [_record(n, "aaa-flaky", c) for n, c in zip(range(5, 9), [0.95, None, None, None])]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False))
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp_path / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return summary


def test_the_rows_rank_values_are_the_hand_worked_ones(tmp_path: Path) -> None:
    summary = _run(tmp_path)
    values = {r["model"]: r["rank_value"] for r in score_summary.leaderboard(summary)}
    assert values["zz-right"] == pytest.approx(0.85)
    assert values["aaa-flaky"] == pytest.approx(0.2375)
    assert [r.model for r in load_results(tmp_path).leaderboard] == ["zz-right", "aaa-flaky"]


def test_a_row_whose_rank_value_differs_from_the_recomputation_is_ranked_by_the_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(tmp_path)
    original = score_summary.leaderboard

    def edited(summary: Any) -> list[dict[str, Any]]:
        rows = original(summary)
        for row in rows:
            if row["model"] == "aaa-flaky":
                row["rank_value"] = 0.9
        return rows

    monkeypatch.setattr(score_summary, "leaderboard", edited)
    board = load_results(tmp_path).leaderboard
    assert [r.model for r in board] == ["aaa-flaky", "zz-right"]
    # the means shown are the summary's, whatever the rank read
    assert [r.basp.value for r in board] == pytest.approx([0.95, 0.85])
