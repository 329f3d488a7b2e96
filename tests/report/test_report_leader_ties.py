"""The report's leaderboard breaks ties as ``ipb score`` does: BASP-strict, then coverage, then name (s34break).

s34user made the terminal leaderboard rank equal means by coverage (under ``--exclude-failures`` a model that refuses
half the items and is right on the rest ties a model right on all of them). ``ipb report`` sorted its own rows by the
composite, then by name, so the same summary put "aaa-refuser" above "zz-right" on the page. Three models answer the
same four L7 items with the same figures where they answer; the refuser declines two, the unreadable one's two other
answers are parse failures. Every expected order is worked by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipb.report.data import load_results
from ipb.scoring.options import ScoreOptions
from ipb.scoring.summary import leaderboard, summarize

OWED = {"layer_composite": 0.0, "gra": 0.0, "ogrs_k": 0.0, "verdict_acc": 0.0, "ned": 1.0, "kendall_tau": -1.0}
RIGHT = {"layer_composite": 0.85, "basp_strict": 0.708, "gra": 1.0, "ogrs_k": 1.0, "verdict_acc": 1.0}
ANSWERS = {"zz-right": ["ok"] * 4, "aaa-refuser": ["ok", "refusal", "ok", "refusal"],
           "mm-unreadable": ["ok", "parse_failure", "parse_failure", "ok"]}


def _record(n: int, model: str, answer: str) -> dict[str, Any]:
    base = {"kind": "ipb.score.response", "version": 1, "record": n, "source": f"responses.jsonl:{n}",
            "item_id": f"G7-{n % 4}", "model": model, "condition": "A", "condition_key": "A", "layer": "L7",
            "flags": {}, "error": None}
    target = {"card": "graham_seven_tests_defensive", "investor": "Benjamin Graham", "topology": "linear_sequential",
              "flags": {}}
    if answer != "ok":
        outcome = "refusal" if answer == "refusal" else "parse_failure"
        code = outcome  # the reason codes of scoring/outcome.py (an unknown code is "unusable": not a failure)
        return dict(base, status="unscored", outcome=outcome, reason_code=code, reason="unscored", metrics={},
                    owed=dict(OWED), targets=[dict(target, status="unscored", outcome=outcome, reason_code=code,
                                                   metrics={}, owed=dict(OWED))])
    return dict(base, status="scored", outcome="scored", reason_code=None, reason=None, metrics=dict(RIGHT),
                targets=[dict(target, status="scored", outcome="scored", metrics=dict(RIGHT))])


def _folder(tmp: Path, failures: str) -> tuple[Path, dict[str, Any]]:
    records = [_record(k + 1, m, a) for k, (m, a) in enumerate((m, a) for m, ans in ANSWERS.items() for a in ans)]
    summary = summarize(records, options=ScoreOptions(seed=0, n_resamples=200, embeddings=False, failures=failures))
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return tmp, summary


@pytest.mark.parametrize("failures, order", [
    # failures counted: 0.85 against 0.85 x 2/4 for the other two, which tie again, then coverage ties, then names
    ("count", ["zz-right", "aaa-refuser", "mm-unreadable"]),
    # failures left out: all three at 0.85 and 0.708; coverage 1.0 > 0.5 = 0.5; then names
    ("exclude", ["zz-right", "aaa-refuser", "mm-unreadable"]),
])
def test_report_and_terminal_rank_the_same_and_a_right_model_first(tmp_path: Path, failures: str, order: list[str]) -> None:
    folder, summary = _folder(tmp_path / failures, failures)
    assert [r["model"] for r in leaderboard(summary)] == order
    assert [r.model for r in load_results(folder).leaderboard] == order
