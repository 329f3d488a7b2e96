"""Connecting to Ray, and the one error family of this layer.

Ray is an optional extra (``pip install 'ipb[ray]'``): nothing in this module
imports it at import time, so ``import ipb.distributed`` works without it and
the CLI says how to install it when ``--backend ray`` is asked for.
"""

from __future__ import annotations

import os
from typing import Any

from ipb.errors import IpbError

__all__ = ["DistributedError", "require_ray", "connect", "ray_available"]


class DistributedError(IpbError):
    """A distributed run failed: Ray missing or unreachable, or shards that failed their retries.

    ``failed`` lists the keys of the shards that failed (empty for a connection problem).
    """

    phase = "distributed error"

    def __init__(self, message: str, *, failed: list[str] | None = None, rule: str | None = None,
                 name: str | None = None) -> None:
        super().__init__(message, rule=rule, name=name)
        self.failed = list(failed or [])


def ray_available() -> bool:
    """True when the ``ray`` package can be imported (checked without importing it)."""
    from importlib.util import find_spec

    return find_spec("ray") is not None


def require_ray() -> Any:
    """Import and return the ``ray`` module.

    Raises
    ------
    DistributedError
        Rule ``ray-missing``: ray is not installed (the message says how to install the extra).
    """
    try:
        import ray
    except ImportError:
        raise DistributedError("--backend ray needs Ray: install the optional extra with "
                               "pip install 'ipb[ray]' (or pip install ray)", rule="ray-missing") from None
    return ray


def _reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail fast, with the address in the message, when nothing listens at ``[ray://]HOST:PORT``.

    ``ray.init`` itself waits minutes for an unreachable head before it gives up.
    """
    import socket

    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        raise DistributedError(f"--ray-address must be HOST:PORT (or auto, local), not {address!r}",
                               rule="ray-connect", name=address)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        raise DistributedError(f"cannot reach the Ray head at {address}: {exc.strerror or exc}; start it with "
                               "'ray start --head' or check --ray-address / RAY_ADDRESS", rule="ray-connect",
                               name=address) from None


def cluster_lost(ray: Any, timeout_s: float = 2.0) -> str | None:
    """Why the connected Ray cluster looks gone (its GCS or this node's raylet refuses connections), else None.

    Ray's own driver ends the process (exit 1, after 60 s) when its GCS is
    gone, with no Python exception; the shard loops ask this while they wait
    so that ipb can say what happened first. Anything that cannot be asked
    (an older Ray, a stand-in) counts as alive.
    """
    import socket

    try:
        places = [("GCS", ray.get_runtime_context().gcs_address)]
        node = ray._private.worker.global_worker.node
        places.append(("raylet", f"{node.node_ip_address}:{node.node_manager_port}"))
    except Exception:  # noqa: BLE001 - not a real, connected Ray: nothing to check
        return None
    for what, address in places:
        host, _, port = str(address).rpartition(":")
        try:
            with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
                pass
        except ConnectionRefusedError as exc:
            return f"its {what} at {address} refuses connections: {exc.strerror or exc}"
        except (OSError, ValueError):
            continue  # slow or odd: not proof that it is gone
    return None


def _auth_hint(message: str) -> str:
    """A hint to add to a failed connection to a head that answered: the usual cause is token authentication.

    Ray 2.59+ turns token authentication on when a head is started with
    ``ray start``; a client without ``RAY_AUTH_MODE=token`` then gets
    ``InvalidAuthToken`` (logged by Ray, not raised) and only "Failed to
    connect". The token is read from ``RAY_AUTH_TOKEN``, the file named by
    ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token`` (Ray's token-auth guide).
    """
    if os.environ.get("RAY_AUTH_MODE", "").strip().lower() != "token":
        return ("; if the head was started with token authentication (Ray 2.59 and later turn it on at "
                "'ray start'), run 'export RAY_AUTH_MODE=token' (the token is read from RAY_AUTH_TOKEN, "
                "RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token) and rerun")
    lowered = message.lower()
    if "auth" in lowered or "token" in lowered:
        return ("; the head refused this client's token: RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token "
                "must hold the head's token")
    return ""


#: ``worker_niceness`` of a local Ray instance this package starts: 0, the driver's own (Ray's default is 15).
WORKER_NICENESS = 0


def connect(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """Connect this process to a Ray cluster (once) and return the ``ray`` module.

    Parameters
    ----------
    address : str, optional
        ``HOST:PORT`` of a running head (``ray start --head``), ``"auto"``, or
        ``"local"`` for a fresh single-machine instance. Default: the
        ``RAY_ADDRESS`` environment variable, else a fresh local instance.
    num_cpus : int, optional
        CPUs of a fresh local instance (ignored when joining a cluster).

    Notes
    -----
    Ray runs its worker processes at ``nice`` 15 by default, so they wait
    for every nice-0 process of their scheduling group: the driver, raylet,
    GCS and agents, and the whole machine where the kernel does not group
    processes by session (no autogroup, one shared cgroup); there, on a
    2-core machine with one other busy process, two niced workers share one
    core while local worker processes get a fair share of both. A fresh
    local instance is therefore started with
    ``worker_niceness`` 0 (:data:`WORKER_NICENESS`: the workers run at the
    driver's niceness, so ``nice ipb ...`` still lowers them), unless the
    environment sets ``RAY_worker_niceness``. Nodes started with
    ``ray start`` keep Ray's setting; start them with
    ``RAY_worker_niceness=0`` for the same behaviour (docs/scale-out.md).

    The local instance has no dashboard (``include_dashboard=False``), but
    its raylet still starts ``ray::DashboardAgent`` and
    ``ray::RuntimeEnvAgent`` (Ray 2.60 has no option to leave them out).
    A driver killed with SIGKILL leaves those two behind;
    docs/scale-out.md says how to remove them.

    Raises
    ------
    DistributedError
        Ray is not installed (``ray-missing``) or the address cannot be
        reached (``ray-connect``).
    """
    ray = require_ray()
    if ray.is_initialized():
        return ray
    address = address or os.environ.get("RAY_ADDRESS") or None
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR",
                              "configure_logging": False}
    if address not in (None, "local", "auto"):
        _reachable(address)
    ray_error = getattr(getattr(ray, "exceptions", None), "RayError", RuntimeError)  # AuthenticationError is one
    try:
        if address in (None, "local"):
            if "RAY_worker_niceness" not in os.environ:
                kwargs["_system_config"] = {"worker_niceness": WORKER_NICENESS}
            ray.init(address="local", num_cpus=num_cpus, **kwargs)
        else:
            ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError, ray_error) as exc:
        hint = "" if address in (None, "local") else _auth_hint(str(exc))
        raise DistributedError(f"cannot connect to the Ray cluster at {address}: {exc}{hint}", rule="ray-connect",
                               name=address) from None
    return ray
