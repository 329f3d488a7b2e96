"""On equal means the model that answered more ranks first (s34user).

Under ``--exclude-failures`` a model refusing half the items, right on the rest, has the means of a model right on
every item; the leaderboard broke the tie by name and put "hedger" above "right" at rank 1. Coverage now breaks it.

s43user: the tie was broken by BASP-strict before coverage, and BASP-strict is also a mean over the answered items
only, so a refuser (13 of 20 answered, right on each) tying a right model at composite 0.550 took rank 1 with
BASP-strict 0.305 over its subset against 0.301. Coverage now comes before BASP-strict.
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


def test_a_refuser_with_a_higher_strict_mean_on_its_subset_does_not_win_a_tie():
    # the s43user figures: composite 0.55 each; BASP-strict 0.305361 over the refuser's 13 answers, 0.301313 over 20
    summary = {"groups": {"model": {"refuser-model": _group(0.65, composite=0.55, strict=0.305361),
                                    "good-model": _group(1.0, composite=0.55, strict=0.301313)}}}
    assert [r["model"] for r in leaderboard(summary)] == ["good-model", "refuser-model"]


def test_on_equal_composite_and_coverage_basp_strict_still_decides():
    summary = {"groups": {"model": {"a-loose": _group(1.0, strict=0.6), "b-strict": _group(1.0, strict=0.7)}}}
    assert [r["model"] for r in leaderboard(summary)] == ["b-strict", "a-loose"]
