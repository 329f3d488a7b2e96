"""Shards stream back in key order while later ones still run; the driver keeps the workers' bytes (no Ray needed).

A stand-in for the ``ray`` module runs each task when the test says it
finishes, so the order of completion is chosen by the test, and records
what the driver saw at each step.
"""

from __future__ import annotations

import pickle

import pytest
from _fake_ray import FakeRay  # tests/distributed is on sys.path (no __init__.py)
from ipb.distributed import DistributedError
from ipb.distributed.shards import (
    Shard,
    ShardStore,
    pack,
    run_shards,
    stream_shards,
    unpack,
)


def _double(x):
    return 2 * x


def _boom(x):
    raise ValueError(f"no {x}")


def test_results_come_in_shard_order_as_soon_as_the_shards_before_them_are_done():
    ray = FakeRay([1, 0, 3, 2])
    shards = [Shard(f"s{i}", _double, (i,)) for i in range(4)]
    seen = []
    for value in stream_shards(ray, shards, ShardStore(None, "")):
        seen.append((value, list(ray.finished)))
    # s0 is handed over when s1 and s0 are done, before s2 and s3 have finished: the driver works meanwhile
    assert seen == [(0, ["s1", "s0"]), (2, ["s1", "s0"]), (4, ["s1", "s0", "s3", "s2"]),
                    (6, ["s1", "s0", "s3", "s2"])]


def test_the_checkpoint_holds_the_bytes_the_worker_sent_and_a_rerun_sends_nothing(tmp_path):
    ray = FakeRay([2, 1, 0])
    shards = [Shard(f"s{i}", _double, (i,)) for i in range(3)]
    store = ShardStore(tmp_path / "c", "run")
    assert run_shards(ray, shards, store).results == [0, 2, 4]
    again = ShardStore(tmp_path / "c", "run")
    assert [again.get_packed(s.key) for s in shards] == [(True, pack(2 * i)) for i in range(3)]
    rerun = FakeRay([])
    run = run_shards(rerun, shards, ShardStore(tmp_path / "c", "run"))
    assert run.results == [0, 2, 4] and run.resumed == ["s0", "s1", "s2"] and rerun.sent == []


def test_a_failed_shard_stops_the_stream_there_and_the_others_are_kept(tmp_path):
    ray = FakeRay([0, 1, 2, 3])
    shards = [Shard("s0", _double, (0,)), Shard("s1", _boom, (1,)), Shard("s2", _double, (2,)),
              Shard("s3", _double, (3,))]
    store = ShardStore(tmp_path / "c", "run")
    got = []
    with pytest.raises(DistributedError) as caught:
        for value in stream_shards(ray, shards, store):
            got.append(value)
    assert got == [0]  # nothing after the failed shard reaches the caller
    assert caught.value.failed == ["s1"] and "ValueError: no 1" in str(caught.value)
    # every other shard finished and is checkpointed, so a rerun resumes from them
    assert [ShardStore(tmp_path / "c", "run").get(k) for k in ("s0", "s1", "s2", "s3")] == \
        [(True, 0), (False, None), (True, 4), (True, 6)]


def test_a_caller_that_stops_early_cancels_the_tasks_it_will_not_read():
    ray = FakeRay([0, 1, 2])
    stream = stream_shards(ray, [Shard(f"s{i}", _double, (i,)) for i in range(3)], ShardStore(None, ""))
    assert next(stream) == 0
    stream.close()
    assert ray.cancelled == [1, 2]


@pytest.mark.parametrize("damage", ["cut", "other key", "not a shard"])
def test_a_damaged_checkpoint_counts_as_not_done(tmp_path, damage):
    store = ShardStore(tmp_path / "c", "r")
    store.put("k", list(range(100)))
    (path,) = [p for p in (tmp_path / "c").iterdir() if p.name != "run.json"]
    data = path.read_bytes()
    if damage == "cut":
        data = data[:-1]
    elif damage == "other key":  # another shard's file under this name
        other = ShardStore(tmp_path / "d", "r")
        other.put("j", list(range(100)))
        (data,) = [p.read_bytes() for p in (tmp_path / "d").iterdir() if p.name != "run.json"]
    else:
        data = pickle.dumps(("k", list(range(100))))  # a checkpoint of the first format
    path.write_bytes(data)
    assert ShardStore(tmp_path / "c", "r").get("k") == (False, None)
    assert unpack(pack({"a": [1.5, None]})) == {"a": [1.5, None]}


class _Cluster:
    def __init__(self, cpus):
        self.cpus = cpus

    def cluster_resources(self):
        return {"CPU": float(self.cpus)}


@pytest.mark.parametrize("cpus, total, chunk, size", [
    (2, 100_000, 2000, 2000),  # a big round: shards of the largest size
    (2, 8000, 2000, 500),      # eight per CPU
    (16, 8000, 2000, 100),     # never below MIN_CHUNK
    (2, 1000, 25, 25),         # a chunk below MIN_CHUNK is taken as given (tests cut tiny shards)
])
def test_perturb_shards_are_cut_about_eight_per_cpu(cpus, total, chunk, size):
    from ipb.distributed.perturb import RayRunner

    runner = RayRunner(_Cluster(cpus), None, ShardStore(None, ""), chunk=chunk)
    assert runner._chunk(total) == size


class _FakeInit:
    def __init__(self):
        self.calls = []

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        self.calls.append(kwargs)


@pytest.mark.parametrize("address, env, expected", [
    ("local", None, {"worker_niceness": 0}),
    (None, None, {"worker_niceness": 0}),
    ("local", "15", None),   # the user's RAY_worker_niceness wins
    ("auto", None, None),    # a running cluster keeps its own setting
])
def test_a_local_instance_runs_its_workers_at_the_drivers_niceness(monkeypatch, address, env, expected):
    from ipb.distributed import _ray

    fake = _FakeInit()
    monkeypatch.setattr(_ray, "require_ray", lambda: fake)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    if env is None:
        monkeypatch.delenv("RAY_worker_niceness", raising=False)
    else:
        monkeypatch.setenv("RAY_worker_niceness", env)
    _ray.connect(address)
    (call,) = fake.calls
    assert call.get("_system_config") == expected
