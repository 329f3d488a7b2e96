"""Regression (a "±" that was neither side): the terminal leaderboard prints the bootstrap interval itself.

newuser3: alice's composite was shown as "0.469 ± 0.312" while docs/scoring.md
promised the CI half-width. Her composites were 0.7, 0.625, 0.55 and a refusal
at 0; the 95% percentile-bootstrap interval is [0.15625, 0.6625], which is not
symmetric about the mean 0.46875: 0.3125 below, 0.19375 above. max(mean-low,
high-mean) = 0.312 overstates the upper side; the half-width (high-low)/2 =
0.253 would describe [0.216, 0.722], not the interval. So the leaderboard
prints ``mean [low,high]`` and the docs say so.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from ipb.cli._app import SafeConsole
from ipb.cli.commands.score import print_leaderboard
from ipb.scoring.summary import mean_ci

ROOT = Path(__file__).resolve().parents[2]
ALICE = [0.7, 0.625, 0.55, 0.0]  # three composites and a refusal scored 0


def test_alices_interval_is_asymmetric_and_its_bounds_are_resample_means() -> None:
    ci = mean_ci(ALICE, n_resamples=2000, seed=0)
    assert ci == {"mean": 0.46875, "low": 0.15625, "high": 0.6625, "n": 4}
    # by hand: every bootstrap mean is the mean of 4 draws with replacement; both bounds are such means
    means = {round(sum(c) / 4, 6) for c in itertools.combinations_with_replacement(ALICE, 4)}
    assert 0.15625 in means and 0.6625 in means  # (0 + 0 + 0 + 0.625) / 4 and (0.7 + 0.7 + 0.625 + 0.625) / 4
    assert ci["mean"] - ci["low"] == pytest.approx(0.3125) and ci["high"] - ci["mean"] == pytest.approx(0.19375)


def _printed(summary: dict) -> str:
    sink = io.StringIO()
    print_leaderboard(summary, SafeConsole(width=200, file=sink, highlight=False))
    return sink.getvalue()


def test_the_leaderboard_prints_the_interval_not_a_plus_minus() -> None:
    composite = {"mean": 0.46875, "low": 0.15625, "high": 0.6625, "n": 4, "n_failures": 1}
    verdict = {"mean": 0.75, "low": 0.25, "high": 1.0, "n": 4, "n_failures": 1}
    summary = {"failures": {"policy": "count", "note": "refusals count"},
               "groups": {"model": {"alice": {"n": 4, "n_scored": 3, "n_parse_failures": 0, "n_refusals": 1,
                                              "coverage": 0.75,
                                              "metrics": {"layer_composite": composite, "verdict_acc": verdict}}}}}
    text = _printed(summary)
    assert "0.469 [0.156,0.662]" in text  # the composite: mean, then the interval as it is
    assert "0.750 [0.250,1.000]" in text  # VerdictAcc: 0.25 below, 0.25 above
    assert "±" not in text and "0.312" not in text and "0.253" not in text
    assert "mean [95% bootstrap CI]" in text


def test_the_docs_describe_the_interval_the_tool_prints() -> None:
    text = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    assert "half-width of the 95% CI" not in text
    assert "`mean [low,high]`" in text
