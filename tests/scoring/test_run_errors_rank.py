"""A run that failed never outranks one that answered (break44 #7; the rule 'a figure users rank by never rewards
failing').

Run errors stay out of the mean shown (tests/scoring/test_run_errors_in_coverage.py), but the leaderboard ranks by the
composite with each unanswered item as a 0: mean * n / (n + n_run_errors).
"""

from __future__ import annotations

from ipb.scoring.summary import leaderboard


def _group(n: int, n_scored: int, mean: float, n_run_errors: int) -> dict:
    return {"n": n, "n_scored": n_scored, "n_parse_failures": 0, "n_refusals": 0, "n_run_errors": n_run_errors,
            "coverage": n_scored / n, "metrics": {"layer_composite": {"mean": mean, "low": 0.0, "high": 1.0, "n": n_scored}}}


def test_a_model_right_on_its_one_answer_with_four_run_errors_ranks_below_one_right_on_four_of_five() -> None:
    # flaky: 1 answered right (1.000), 4 unanswered -> ranks as 1.0 * 1 / 5 = 0.2; steady: 0.96 over 5 answered
    summary = {"groups": {"model": {"flaky": _group(5, 1, 1.0, 4), "steady": _group(5, 5, 0.96, 0)}}}
    rows = leaderboard(summary)
    assert [r["model"] for r in rows] == ["steady", "flaky"]
    assert rows[1]["layer_composite"]["mean"] == 1.0  # the mean shown is still over the answered item


def test_run_errors_rank_as_zeros_not_as_a_disqualification() -> None:
    # few errors: 0.95 * 19 / 20 = 0.9025 still ranks above a complete 0.90
    summary = {"groups": {"model": {"mostly": _group(20, 19, 0.95, 1), "complete": _group(20, 20, 0.90, 0)}}}
    assert [r["model"] for r in leaderboard(summary)] == ["mostly", "complete"]
