"""``ipb respond`` on Ray: model calls on the workers, the response cache and the file behind the driver.

A model run is bound by the endpoint, not by this machine: what a cluster
adds is more network clients (and, for a local vLLM fleet, requests sent
from the nodes next to the servers). So only the call itself moves:
:class:`RayChatClient` stands in for :class:`~ipb.respond.client.ChatClient`
in :func:`ipb.respond.run.run_respond`; each ``complete`` runs as a Ray task
on a worker, which holds one ``ChatClient`` per process (retries with
back-off, Retry-After pauses and error classification as in a local run).

Kept on the driver, by design:

- **the concurrency limit per endpoint**: the driver's ``run_jobs`` threads
  wait on the task, and a semaphore of ``--concurrency`` slots on the driver
  is taken for each call, so at most that many requests are in flight
  across all workers, however many there are;
- **the response cache** (SQLite): it stays a single file on the driver's
  local disk, read before a request is sent and written when the answer
  comes back. SQLite's locking is not reliable on network file systems
  (NFS, SMB) and per-worker cache shards would need a merge step and could
  answer the same request twice in parallel; the driver sees every request
  anyway, so putting the cache behind it costs nothing extra;
- **the output file and its resume**: records are appended by the driver
  only, so the resume logic of :func:`~ipb.respond.run.run_jobs` (a cut-off
  last line dropped, failed records redone, finished ones skipped) is
  unchanged. A worker killed during a call: Ray runs the task again
  (``max_retries``); a call that still fails becomes an error record, which
  the next run redoes.

The API key is read on the driver from ``IPB_API_KEY`` / ``OPENAI_API_KEY``
and sent to the workers as a task argument (inside the cluster only): run
the cluster on a private network, as Ray's own docs require.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping, Sequence

from ipb.respond.client import ChatClient, Completion, RequestFailed, RetryPolicy, Secrets, api_key_from_env

__all__ = ["RayChatClient"]

_CLIENTS: dict[tuple[Any, ...], ChatClient] = {}


def _complete(spec: tuple[str, float, RetryPolicy], api_key: str | None, model: str,
              messages: list[dict[str, str]], params: dict[str, Any], key: str) -> tuple[str, Any]:
    """Worker side: one call through this process's ChatClient; a failure comes back as data."""
    client = _CLIENTS.get(spec)
    if client is None:
        base_url, timeout_s, policy = spec
        client = _CLIENTS[spec] = ChatClient(base_url, api_key=api_key, timeout_s=timeout_s, concurrency=1 << 16,
                                             policy=policy)
    try:
        return "ok", client.complete(model, messages, params, key)
    except RequestFailed as failure:
        return "failed", (failure.message, dict(vars(failure)))


class RayChatClient:
    """A :class:`ChatClient` look-alike whose calls run as Ray tasks (see the module docstring).

    Parameters
    ----------
    ray : module
        Connected ``ray``.
    base_url, timeout_s, concurrency, policy :
        As :class:`ChatClient`; ``concurrency`` is the limit for the whole cluster.
    max_retries : int
        Retries of a call whose worker died.
    """

    def __init__(self, ray: Any, base_url: str, *, timeout_s: float = 120.0, concurrency: int = 4,
                 policy: RetryPolicy | None = None, api_key: str | None = None, max_retries: int = 3) -> None:
        self.ray = ray
        self.spec = (base_url, timeout_s, policy or RetryPolicy())
        self.secrets = Secrets()
        self._key = api_key if api_key is not None else api_key_from_env()
        self.secrets.add(self._key)
        self._slots = threading.BoundedSemaphore(max(1, concurrency))
        self._remote = ray.remote(max_retries=max_retries, retry_exceptions=False)(_complete)
        self.calls = 0

    def complete(self, model: str, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any], key: str) -> Completion:
        """As :meth:`ChatClient.complete`, run on a worker; raises the same :class:`RequestFailed`."""
        with self._slots:
            ref = self._remote.remote(self.spec, self._key, model, [dict(m) for m in messages], dict(params), key)
            try:
                status, value = self.ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - a lost worker after its retries: an error record, redone next run
                raise RequestFailed(self.secrets.scrub(f"the Ray worker running this call failed: {type(exc).__name__}"),
                                    kind="worker", retryable=False) from None
            self.calls += 1
        if status == "ok":
            return value  # type: ignore[no-any-return]
        message, fields = value
        failure = RequestFailed(self.secrets.scrub(message), kind=fields.get("kind", "unknown"))
        failure.__dict__.update(fields)
        failure.message = self.secrets.scrub(message)
        raise failure
