"""A Ray cluster that dies mid-run (raylet and GCS killed) ends the run with one clear line, the finished shards
checkpointed (newuser4, issue 20: the driver exited 1 with no message at all, killed by Ray's own 60 s GCS timeout)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
from _fake_ray import FakeRay  # tests/distributed is on sys.path (no __init__.py)

import ipb.distributed.shards as shards_module
from ipb.distributed import DistributedError
from ipb.distributed._ray import cluster_lost
from ipb.distributed.shards import Shard, ShardStore, run_shards


def _double(x):
    return 2 * x


class DyingRay(FakeRay):
    """The first ``alive`` results arrive; then every wait times out, as when the raylet and GCS are gone."""

    def __init__(self, alive):
        super().__init__()
        self.alive, self.empty = alive, 0

    def wait(self, refs, num_returns=1, timeout=None):
        if len(self.finished) < self.alive:
            return super().wait(refs, num_returns)
        self.empty += 1
        if self.empty > 20:
            raise AssertionError("the shard loop kept waiting on a cluster that is gone")
        return [], list(refs)


def test_a_lost_cluster_ends_the_run_with_one_line_and_keeps_the_finished_shards(tmp_path, monkeypatch):
    monkeypatch.setattr(shards_module, "cluster_lost", lambda ray: "its GCS at 10.0.0.1:6389 refuses connections")
    ray = DyingRay(alive=2)
    store = ShardStore(tmp_path / "out.ipb-shards", "run-1")
    with pytest.raises(DistributedError) as caught:
        run_shards(ray, [Shard(f"k{i}", _double, (i,)) for i in range(5)], store)
    message = str(caught.value)
    assert caught.value.rule == "ray-lost" and "\n" not in message
    assert message == ("distributed error: the Ray cluster stopped mid-run (its GCS at 10.0.0.1:6389 refuses "
                       "connections); nothing was written; the 2 finished shard(s) are kept in "
                       f"{tmp_path / 'out.ipb-shards'}; restart the cluster and rerun the same command to resume")
    assert ray.empty == 2  # two refusals in a row, not one
    again = ShardStore(tmp_path / "out.ipb-shards", "run-1")
    assert [again.get_packed(f"k{i}")[0] for i in range(5)] == [True, True, False, False, False]


def test_a_lost_cluster_under_verify_promises_no_resume(monkeypatch):
    monkeypatch.setattr(shards_module, "cluster_lost", lambda ray: "its raylet at 10.0.0.1:4000 refuses connections")
    with pytest.raises(DistributedError) as caught:
        run_shards(DyingRay(alive=1), [Shard(f"k{i}", _double, (i,)) for i in range(3)], ShardStore(None, "verify"))
    assert str(caught.value).endswith("nothing was written; this command keeps no checkpoints; restart the cluster "
                                      "and rerun it")


def test_a_refusal_between_results_is_not_a_lost_cluster(monkeypatch):
    monkeypatch.setattr(shards_module, "cluster_lost", lambda ray: "refused")  # a result between refusals wins

    class Slow(FakeRay):
        def __init__(self):
            super().__init__()
            self.turn = 0

        def wait(self, refs, num_returns=1, timeout=None):
            self.turn += 1
            return super().wait(refs, num_returns) if self.turn % 2 == 0 else ([], list(refs))

    run = run_shards(Slow(), [Shard(f"k{i}", _double, (i,)) for i in range(3)], ShardStore(None, "r"))
    assert run.results == [0, 2, 4]


def _ray_at(gcs, raylet_port):
    node = SimpleNamespace(node_ip_address="127.0.0.1", node_manager_port=raylet_port)
    return SimpleNamespace(get_runtime_context=lambda: SimpleNamespace(gcs_address=gcs),
                           _private=SimpleNamespace(worker=SimpleNamespace(global_worker=SimpleNamespace(node=node))))


def test_cluster_lost_asks_the_gcs_and_the_raylet():
    with socket.socket() as up, socket.socket() as gone:
        up.bind(("127.0.0.1", 0))
        up.listen()
        gone.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused
        live, dead = up.getsockname()[1], gone.getsockname()[1]
        assert cluster_lost(_ray_at(f"127.0.0.1:{live}", live)) is None
        assert cluster_lost(_ray_at(f"127.0.0.1:{dead}", live)).startswith(f"its GCS at 127.0.0.1:{dead} refuses")
        assert cluster_lost(_ray_at(f"127.0.0.1:{live}", dead)).startswith(f"its raylet at 127.0.0.1:{dead} refuses")
    assert cluster_lost(FakeRay()) is None  # nothing to ask: alive


class _RefusingInit:
    """A ``ray`` whose ``init`` fails as Ray 2.60 does for a client without RAY_AUTH_MODE=token at a token head."""

    def __init__(self, message):
        self.message = message

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        raise ConnectionError(self.message)


@pytest.mark.parametrize("mode, message, hint", [
    (None, "Failed to connect to Ray cluster at 192.0.2.2:6389", "export RAY_AUTH_MODE=token"),
    ("disabled", "Failed to connect to Ray cluster at 192.0.2.2:6389", "export RAY_AUTH_MODE=token"),
    ("token", "InvalidAuthToken: the token does not match", "must hold the head's token"),
    ("token", "Failed to connect to Ray cluster at 192.0.2.2:6389", None),  # token mode already: no guess
])
def test_a_failed_connection_to_a_head_hints_at_token_authentication(monkeypatch, mode, message, hint):
    from ipb.distributed import _ray

    monkeypatch.setattr(_ray, "require_ray", lambda: _RefusingInit(message))
    monkeypatch.setattr(_ray, "_reachable", lambda address: None)  # the head answers on its port
    if mode is None:
        monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    else:
        monkeypatch.setenv("RAY_AUTH_MODE", mode)
    with pytest.raises(DistributedError) as caught:
        _ray.connect("127.0.0.1:6389")
    text = str(caught.value)
    assert text.startswith(f"distributed error: cannot connect to the Ray cluster at 127.0.0.1:6389: {message}")
    assert "\n" not in text
    if hint is None:
        assert text.endswith(message)
    else:
        assert hint in text


def test_a_fresh_local_instance_gets_no_authentication_hint(monkeypatch):
    from ipb.distributed import _ray

    monkeypatch.setattr(_ray, "require_ray", lambda: _RefusingInit("no room"))
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with pytest.raises(DistributedError) as caught:
        _ray.connect("local")
    assert str(caught.value).endswith("cannot connect to the Ray cluster at local: no room")
