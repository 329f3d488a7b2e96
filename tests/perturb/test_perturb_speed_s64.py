"""s64speed (issue 18 item 7): two pure computations of generation remembered per process, with the same answers.

* :func:`ipb.perturb.feasible._probe_points`: the indices a feasible-set search probes first, a function of the
  grid's size and the ``near`` index alone, were built again for every search (65-100 us, about as long as the
  probes themselves).
* :func:`ipb.perturb.near._bucket_part`: a numeric fact's visible-step bucket for :func:`~ipb.perturb.near.near_key`,
  two 28-digit Decimal divisions (about 13 us) per numeric fact per candidate.

Each is checked against the code it replaced (copied here) and against hand-worked values; the memo itself is
checked by identity and by the cache's hit count, which fail on the code before the change. Byte identity of whole
runs is test_perturb_bytes.py's.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from ipb.perturb.feasible import EXACT_LIMIT, SAMPLES, _probe_points, feasible_intervals
from ipb.perturb.near import VISIBLE_BUCKETS, _bucket_part, near_key


def _old_probes(count, near):
    """feasible_intervals' probe set before s64speed, verbatim."""
    if count <= EXACT_LIMIT:
        return list(range(count))
    found = {(i * (count - 1)) // (SAMPLES - 1) for i in range(SAMPLES)}
    for at in ((near,) if isinstance(near, int) else (near or ())):
        if not 0 <= at < count:
            continue
        found.add(at)
        step = 1
        while step < count:
            found.update(k for k in (at - step, at + step) if 0 <= k < count)
            step *= 2
    return sorted(found)


def test_probe_points_hand_worked():
    assert _probe_points(5, None) == (0, 1, 2, 3, 4)  # a short grid: every index
    assert _probe_points(5, 3) == (0, 1, 2, 3, 4)
    points = _probe_points(200, 100)
    # 65 evenly spaced indices i * 199 // 64: 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 31, ... 199
    assert points[:11] == (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 31) and points[-1] == 199
    # near 100 and 100 +- 1, 2, 4, ..., 64 (+-128 fall outside 0..199); 36, 84 and 92 are not on the sample grid
    for k in (99, 100, 101, 98, 102, 96, 104, 92, 108, 84, 116, 68, 132, 36, 164):
        assert k in points
    assert len(points) == 74 and list(points) == sorted(set(points))
    assert _probe_points(200, 500) == _probe_points(200, None)  # a near index off the grid adds nothing


def test_probe_points_are_remembered():
    # the same tuple object for the same (count, near): built once per process (a fresh set each search before)
    assert _probe_points(70_001, 123) is _probe_points(70_001, 123)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3_000), st.one_of(st.none(), st.integers(-5, 3_005),
                                        st.lists(st.integers(-5, 3_005), max_size=3)))
def test_probe_points_equal_the_old_probes(count, near):
    key = near if near is None or isinstance(near, int) else tuple(near)
    assert list(_probe_points(count, key)) == _old_probes(count, near)


def test_feasible_intervals_with_a_list_of_near_indices():
    # a list (unhashable) is taken as the tuple of its indices: the docstring's example, and one near index alone
    assert feasible_intervals(lambda k: 11 <= k < 300, 700_000, near=[650_000, 109]) == [(11, 299)]
    assert feasible_intervals(lambda k: 11 <= k < 300, 700_000, near=(109,)) == [(11, 299)]
    assert feasible_intervals(lambda k: 11 <= k < 300, 700_000) == []


def _old_bucket(lo, hi, value):
    """near_key's bucket text before s64speed, verbatim."""
    bucket = int((value - lo) / (hi - lo) * VISIBLE_BUCKETS)
    return f"#{min(max(bucket, 0), VISIBLE_BUCKETS - 1)}"


def test_bucket_part_hand_worked():
    lo, hi = Decimal(0), Decimal("0.2")
    assert _bucket_part(lo, hi, Decimal("0.051")) == "#5"  # 0.051 / 0.2 * 20 = 5.1
    assert _bucket_part(lo, hi, Decimal("0.059")) == "#5"
    assert _bucket_part(lo, hi, Decimal("0.061")) == "#6"
    assert _bucket_part(lo, hi, Decimal("0.2")) == "#19"  # the top of the range in the last bucket
    assert _bucket_part(lo, hi, Decimal("-1")) == "#0"  # below the range: the first
    assert _bucket_part(Decimal(-50), Decimal(50), Decimal("0.50")) == "#10"  # 50.5 / 100 * 20 = 10.1
    assert _bucket_part(Decimal(-50), Decimal(50), Decimal("0.5")) == "#10"  # an equal Decimal, the same entry


def test_bucket_part_is_remembered():
    lo, hi, value = Decimal("1.25"), Decimal("977.5"), Decimal("333.75")
    _bucket_part(lo, hi, value)
    hits = _bucket_part.cache_info().hits
    assert _bucket_part(lo, hi, value) == _old_bucket(lo, hi, value) == "#6"  # 332.5 / 976.25 * 20 = 6.81
    assert _bucket_part.cache_info().hits == hits + 1


@settings(max_examples=300, deadline=None)
@given(st.decimals(-10**6, 10**6, places=3, allow_nan=False, allow_infinity=False),
       st.decimals(Decimal("0.001"), 10**6, places=3, allow_nan=False, allow_infinity=False),
       st.decimals(-2 * 10**6, 2 * 10**6, places=4, allow_nan=False, allow_infinity=False))
def test_bucket_part_equals_the_old_formula(lo, width, value):
    assert _bucket_part(lo, lo + width, value) == _old_bucket(lo, lo + width, value)


def test_near_key_unchanged_on_a_hand_built_point():
    # recipe 2; a numeric fact in bucket 5, a category, an unstated fact, one column that does not count
    spans = [(Decimal(0), Decimal("0.2")), None, None, (Decimal(0), Decimal(100))]
    raw = [Decimal("0.051"), "moat_wide", None, Decimal(7)]
    import hashlib
    text = "\x1f".join(["2", "#5", "'moat_wide'", "None"])
    expected = int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], 16)
    assert near_key(2, spans, raw, [True, True, True, False]) == expected
