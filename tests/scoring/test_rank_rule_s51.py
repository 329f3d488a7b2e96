"""The board's rank line says what the 'ranked on' column is and how ties fall (s51user).

On the new user's Bogle card (tests/fixtures/new_user51), four items: a respondent right on 2 of them that skipped the
other 2 showed composite 1.000 and ranked on 0.500, below a respondent wrong on every final verdict (0.640); and four
respondents equal on every figure (1.000, coverage 100%) were numbered 1 to 4 in name order. The line under the board
said only "rank: by the mean §7.13 layer composite", which neither row's rank follows without the rest.
"""

from __future__ import annotations

from ipb.scoring.summary import RANK_RULE, leaderboard, rank_note


def _group(mean: float, n: int, coverage: float, strict: float, unanswered: int = 0, items: int = 4) -> dict:
    return {"n": n, "n_scored": n, "n_parse_failures": 0, "n_refusals": 0, "coverage": coverage,
            "n_items_unanswered": unanswered, "n_items": items,
            "metrics": {"layer_composite": {"mean": mean, "low": mean, "high": mean, "n": n},
                        "basp_strict": {"mean": strict, "low": strict, "high": strict, "n": n}}}


SUMMARY = {"groups": {"model": {
    "table": _group(1.0, 4, 1.0, 1.0),
    "good": _group(1.0, 4, 1.0, 1.0),
    "chatty": _group(1.0, 4, 1.0, 1.0),
    "wrong": _group(0.640, 4, 1.0, 0.539),
    "skips": _group(1.0, 2, 0.5, 1.0, unanswered=2),
}}}


def test_the_order_follows_the_ranked_on_value_then_coverage_strict_and_name():
    rows = leaderboard(SUMMARY)
    # by hand: the three faultless tie on 1.0, coverage 1.0, BASP-strict 1.0: name order; wrong 0.640; skips
    # 1.0 x (4 - 2) / 4 = 0.5
    assert [r["model"] for r in rows] == ["chatty", "good", "table", "wrong", "skips"]
    assert [r["rank_value"] for r in rows] == [1.0, 1.0, 1.0, 0.640, 0.5]


def test_the_rank_line_names_the_ranked_on_column_and_the_tie_order():
    line = rank_note(SUMMARY, leaderboard(SUMMARY)).splitlines()[0]
    assert line == RANK_RULE
    assert "with each item of the items file a model has no answer to and each run error counted 0" in line
    assert "(the 'ranked on' column" in line
    assert "then the higher BASP-strict, then the model's name" in line
