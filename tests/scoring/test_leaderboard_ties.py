"""On equal means the model that answered more ranks first (s34user).

Under ``--exclude-failures`` a model refusing half the items, right on the rest, has the means of a model right on
every item; the leaderboard broke the tie by name and put "hedger" above "right" at rank 1. Coverage now breaks it.
"""

from __future__ import annotations

from ipb.scoring.summary import leaderboard


def _group(coverage: float, composite: float = 0.85, strict: float = 0.708) -> dict:
    return {"n": 80, "n_scored": int(80 * coverage), "n_parse_failures": 0, "n_refusals": 80 - int(80 * coverage),
            "coverage": coverage, "metrics": {"layer_composite": {"mean": composite, "low": composite, "high": composite},
                                               "basp_strict": {"mean": strict, "low": strict, "high": strict}}}


def test_equal_means_rank_by_coverage_before_name():
    summary = {"groups": {"model": {"hedger": _group(0.525), "right": _group(1.0), "also-right": _group(1.0)}}}
    assert [r["model"] for r in leaderboard(summary)] == ["also-right", "right", "hedger"]


def test_a_higher_mean_still_ranks_first_whatever_its_coverage():
    summary = {"groups": {"model": {"hedger": _group(0.525, composite=0.9), "right": _group(1.0)}}}
    assert [r["model"] for r in leaderboard(summary)] == ["hedger", "right"]
