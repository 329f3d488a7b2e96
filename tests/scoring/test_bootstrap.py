"""Seeded percentile bootstrap CIs, checked against ``scipy.stats.bootstrap``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import bootstrap

from ipb.errors import ScoreError
from ipb.scoring.bootstrap import bootstrap_ci, bootstrap_delta_ci, clean_values


def test_matches_scipy_percentile_bootstrap():
    values = np.random.default_rng(7).beta(2, 3, size=150)
    ours = bootstrap_ci(values, n_resamples=20_000, seed=3)
    ref = bootstrap((values,), np.mean, method="percentile", n_resamples=20_000, random_state=11,
                    confidence_level=0.95).confidence_interval
    assert ours is not None
    # different random streams: the bounds agree to Monte-Carlo error (~0.1 of the half-width)
    tolerance = 0.1 * (ref.high - ref.low) / 2
    assert ours.low == pytest.approx(ref.low, abs=tolerance)
    assert ours.high == pytest.approx(ref.high, abs=tolerance)
    assert ours.estimate == pytest.approx(values.mean())


def test_matches_scipy_for_the_median():
    values = np.random.default_rng(1).uniform(size=80)
    ours = bootstrap_ci(values, statistic=np.median, n_resamples=20_000, seed=5)
    ref = bootstrap((values,), np.median, method="percentile", n_resamples=20_000, random_state=5).confidence_interval
    assert ours is not None
    tolerance = 0.15 * (ref.high - ref.low) / 2
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=tolerance)


def test_seeded_and_deterministic():
    values = [0.1, 0.5, 0.9, 0.3, 0.7]
    a = bootstrap_ci(values, n_resamples=5000, seed=42)
    b = bootstrap_ci(values, n_resamples=5000, seed=42)
    c = bootstrap_ci(values, n_resamples=5000, seed=43)
    assert a == b
    assert a != c


def test_none_and_nan_are_excluded_and_counted():
    ci = bootstrap_ci([1.0, None, float("nan"), 0.0, 1.0], n_resamples=500)
    assert ci is not None and (ci.n, ci.n_excluded) == (3, 2)
    assert ci.estimate == pytest.approx(2 / 3)
    assert bootstrap_ci([None, None]) is None
    assert clean_values([])[1] == 0


def test_constant_values_give_a_point_interval():
    ci = bootstrap_ci([0.5] * 10, n_resamples=100)
    assert ci is not None and (ci.low, ci.estimate, ci.high) == (0.5, 0.5, 0.5) and ci.half_width == 0.0


@pytest.mark.parametrize(
    "values, kwargs",
    [([1.0], {"confidence": 1.0}), ([1.0], {"n_resamples": 0}), ([float("inf")], {}), (["x"], {})],
    ids=["confidence_1", "no_resamples", "infinite_value", "not_a_number"],
)
def test_bad_arguments(values, kwargs):
    with pytest.raises(ScoreError):
        bootstrap_ci(values, **kwargs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.integers(0, 1000))
def test_interval_brackets_within_the_data_range(values, seed):
    ci = bootstrap_ci(values, n_resamples=300, seed=seed)
    assert ci is not None
    assert min(values) - 1e-12 <= ci.low <= ci.high <= max(values) + 1e-12


def test_paired_delta():
    a = [0.9, 0.8, 0.7, 0.95, None]
    b = [0.5, 0.6, 0.4, 0.55, 0.3]
    ci = bootstrap_delta_ci(a, b, n_resamples=4000, seed=1)
    assert ci is not None and ci.n == 4 and ci.n_excluded == 1
    assert ci.estimate == pytest.approx(np.mean([0.4, 0.2, 0.3, 0.4]))
    assert 0 < ci.low <= ci.estimate <= ci.high
    with pytest.raises(ScoreError):
        bootstrap_delta_ci([1.0], [1.0, 2.0])


def test_unpaired_delta_matches_scipy_two_sample():
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.4, 1.0, 60), rng.uniform(0.2, 0.8, 90)
    ours = bootstrap_delta_ci(a, b, paired=False, n_resamples=20_000, seed=2)

    def diff(x, y, axis=-1):
        return np.mean(x, axis=axis) - np.mean(y, axis=axis)

    ref = bootstrap((a, b), diff, method="percentile", n_resamples=20_000, random_state=2).confidence_interval
    assert ours is not None
    tolerance = 0.1 * (ref.high - ref.low) / 2
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), abs=tolerance)
    assert bootstrap_delta_ci([None], [1.0], paired=False) is None
