"""Perturbation shards travel as columns, their points are read lazily, and the run's keys spare builds (issue 20).

No Ray needed: the worker function (``_attempts``) and the driver's rebuilding (``_candidates``) are called in
this process, against the candidates :meth:`Generator.run` makes, which a local run uses.
"""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from ipb.distributed import perturb as dp
from ipb.distributed.shards import pack, unpack
from ipb.perturb.generation import Generator, Job, parse_recipes

ROOT = Path(__file__).resolve().parents[2]
CARD = "buffett_acquisition_checklist"
BASE = ROOT / "frameworks" / "scenarios" / CARD / "ipb_p_011_base.yaml"


@pytest.fixture(scope="module")
def job():
    return Job((CARD,), str(BASE), 3, parse_recipes("metric,sector"))


class _Ref:
    """Stands for the ObjectRef of a ``ray.put`` snapshot: the test puts the keys in the worker's cache itself."""

    def __init__(self, name):
        self.name = name

    def hex(self):
        return self.name


def test_columns_give_back_the_local_candidates_points_included(job):
    # sector attempts 600-799 hold constraint rejections (609, 665, 690, 723, 778) and items; metric draws no longer
    # break a constraint on this card (s25cards: they are redrawn inside the rules), so its attempts have no failure;
    # since s43items the sector move redraws its ranged values inside the rules too, and the rejections of attempts
    # 340-539 this test read before (384, 401, 413) became items: the first sector rejection is now attempt 609
    want = list(Generator(job).run([(1, 600, 800)]))
    got = list(dp._candidates(1, 600, unpack(pack(dp._attempts(job, 1, 600, 800)))))
    assert [tuple(c[:7]) for c in got] == [tuple(c[:7]) for c in want]
    assert [c.attempt for c in got] == list(range(600, 800))
    assert any(c.error for c in want) and any(c.line for c in want)  # failed attempts and items both travel
    assert [tuple(c.point) for c in got] == [c.point for c in want]
    point = next(c.point for c in got if c.key is not None)
    assert len(point) > 3 and list(point) == list(tuple(point)) and point[0] == tuple(point)[0]


def test_points_are_unpacked_only_when_one_is_read(job, monkeypatch):
    calls = []
    monkeypatch.setattr(dp, "unpack", lambda blob: calls.append(1) or unpack(blob))
    got = list(dp._candidates(0, 0, dp._attempts(job, 0, 0, 50)))
    assert calls == []
    tuple(got[10].point), tuple(got[20].point)
    assert calls == [1]  # once per shard


def test_the_runs_keys_spare_building_their_items_and_nothing_else(job):
    first = list(Generator(job).run([(0, 0, 300)]))
    taken = sorted({c.key for c in first if c.key is not None})[::2]
    dp._SEEN.clear()
    dp._SEEN["round"] = frozenset(array("Q", array("Q", taken).tobytes()))
    plain = list(dp._candidates(0, 300, dp._attempts(job, 0, 300, 600)))
    spared = list(dp._candidates(0, 300, dp._attempts(job, 0, 300, 600, True, [_Ref("round")])))
    dp._SEEN.clear()
    assert [tuple(c[:3]) + (c.error, c.changed) for c in spared] == [tuple(c[:3]) + (c.error, c.changed) for c in plain]
    skipped = [(p, s) for p, s in zip(plain, spared) if p.line is not None and s.line is None]
    # the items (and labels) of taken scenarios are not built, as a local run leaves them; nothing else changes
    assert skipped and all(p.key in taken and s.label is None for p, s in skipped)
    assert all((s.label, s.line) == (p.label, p.line) for p, s in zip(plain, spared) if p.key not in taken)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 2500)), min_size=1, max_size=12), st.integers(1, 6))
def test_a_finer_tail_covers_the_same_attempts_in_the_same_order(sizes, cpus):
    plan, at = [], {}
    for r, size in sizes:
        start = at.get(r, 0)
        plan.append((r, start, start + size))
        at[r] = start + size
    finer = dp._finer_tail(list(plan), cpus)
    assert [(r, j) for r, s, e in finer for j in range(s, e)] == [(r, j) for r, s, e in plan for j in range(s, e)]
    assert finer[:max(0, len(plan) - cpus)] == plan[:max(0, len(plan) - cpus)]  # only the last shards are cut
    for r, s, e in plan[-cpus:]:
        pieces = [p for p in finer if p[0] == r and s <= p[1] < e]
        assert len(pieces) <= 4 and (len(pieces) == 1 or all(p[2] - p[1] >= dp.MIN_CHUNK for p in pieces))
