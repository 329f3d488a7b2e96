"""The report ranks a run that failed as ``ipb score`` does: unanswered items as 0 (break44 #7).

"aaa-flaky" answers one of four L7 items (composite 0.95) and its server fails on three (``sample_error``); "zz-right"
answers all four at 0.85. The means shown are 0.95 and 0.85; the ranks read 0.95 x 1/4 = 0.2375 and 0.85.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ipb.report.data import load_results
from ipb.scoring.options import ScoreOptions
from ipb.scoring.summary import leaderboard, summarize


def _record(n: int, model: str, composite: float | None) -> dict[str, Any]:
    base = {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"G7-{n % 4}", "model": model, "condition": "A", "condition_key": "A", "layer": "L7",
            "flags": {}, "error": None}
    target = {"card": "graham_seven_tests_defensive", "investor": "Benjamin Graham", "topology": "linear_sequential",
              "flags": {}}
    if composite is None:  # asked, never answered: ipb respond's status:error record
        return dict(base, status="unscored", outcome="unusable", reason_code="sample_error", reason="server: HTTP 500",
                    metrics={}, targets=[dict(target, status="unscored", outcome="unusable", reason_code="sample_error",
                                              metrics={})])
    metrics = {"layer_composite": composite, "basp_strict": 0.7, "gra": 1.0, "ogrs_k": 1.0, "verdict_acc": 1.0}
    return dict(base, status="scored", outcome="scored", reason_code=None, reason=None, metrics=metrics,
                targets=[dict(target, status="scored", outcome="scored", metrics=dict(metrics))])


def test_a_model_with_three_run_errors_ranks_below_one_that_answered_every_item(tmp_path: Path) -> None:
    records = [_record(n, "zz-right", 0.85) for n in range(1, 5)]
    records += [_record(n, "aaa-flaky", c) for n, c in zip(range(5, 9), [0.95, None, None, None])]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False))
    assert summary["groups"]["model"]["aaa-flaky"]["n_run_errors"] == 3
    assert summary["groups"]["model"]["aaa-flaky"]["metrics"]["layer_composite"]["mean"] == 0.95
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp_path / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert [r["model"] for r in leaderboard(summary)] == ["zz-right", "aaa-flaky"]
    assert [r.model for r in load_results(tmp_path).leaderboard] == ["zz-right", "aaa-flaky"]
