"""One Ray cluster for the distributed tests: a head and a second node (a worker raylet) on 127.0.0.1.

The cluster is started once per test module (Ray takes seconds to start on a
shared machine) with one CPU per node, so shards really run in two places, and
shut down after it: later tests fork worker processes, which must not inherit
Ray's threads.
Every test is skipped, with the reason, when ray is not installed.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the Ray backend needs the optional extra: pip install 'ipb[ray]'")
    from ray.cluster_utils import Cluster

    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    # workers at the driver's niceness, as ipb's own local instance runs them (Ray's default, 15, makes them
    # wait for the test process and Ray's own processes: ipb.distributed._ray.WORKER_NICENESS)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False,
                                                            "_system_config": {"worker_niceness": 0}})
    cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             configure_logging=False)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()
