"""Past one machine: ``ipb perturb``, ``verify``, ``score`` and ``respond`` on a Ray cluster (issue 20).

This folder sits on top of ``engine``, ``perturb``, ``respond`` and
``scoring`` and calls their library functions on shards of the work:

- :mod:`ipb.distributed.shards`: stable shard keys, Ray tasks with retries,
  checkpoints a rerun resumes from, failures reported by key;
- :mod:`ipb.distributed.perturb`: perturbation attempts and verification
  slices as shards;
- :mod:`ipb.distributed.score`: response records by (model, condition,
  item or question group), the sentence encoder in a pool of actors;
- :mod:`ipb.distributed.respond`: model runs, the response cache behind the
  driver (see its docstring for why);
- :mod:`ipb.distributed.embed_cache`: the on-disk embedding cache keyed by
  model and text hash.

Every backend writes the bytes the local single-process run writes. Ray is
an optional extra (``pip install 'ipb[ray]'``) and is imported only when a
``ray`` backend runs. See docs/scale-out.md.
"""

from __future__ import annotations

from enum import Enum

from ipb.distributed._ray import DistributedError, connect, ray_available, require_ray

__all__ = ["Backend", "DistributedError", "connect", "ray_available", "require_ray"]


class Backend(str, Enum):
    """Where the work runs: this machine's processes, or a Ray cluster."""

    local = "local"
    ray = "ray"
