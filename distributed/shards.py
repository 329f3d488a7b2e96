"""Shards: work split by a stable key, run as Ray tasks, checkpointed, merged in key order.

A *shard* is ``(key, function, arguments)``: the key names the work
independently of the cluster (``recipe 2 attempts 4096-6144``, ``records
1-500``, ``model m / condition A / bucket 3``), the function is a plain
module-level function of the library, and its result depends on the key and
the run's inputs only, never on the worker or the order of completion. That
makes every shard idempotent: a task that Ray retries after its worker died
returns the same value, and the driver keeps the first copy it receives per
key, so nothing is lost or counted twice.

Checkpoints. The driver writes each finished shard's result to a
:class:`ShardStore` (one pickle per key, written to a temporary file and
renamed into place) under a folder beside the output, with the run's
fingerprint (a hash of the inputs and options). A rerun with the same
fingerprint loads the finished shards and sends only the rest; a different
fingerprint empties the folder first. After a successful run the folder is
removed. Workers never write checkpoints, so the folder need not be on a
shared file system.

Failures. A shard whose task raised, or whose worker died more often than
``max_retries``, is *failed*: :func:`run_shards` waits for the others (so
their results are checkpointed), then raises :class:`DistributedError`
naming every failed key. The caller writes nothing to the output path.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ipb.distributed._ray import DistributedError

__all__ = ["Shard", "ShardStore", "ShardRun", "run_shards", "fingerprint", "FAULT_ENV", "checkpoint_dir"]

#: Fault injection for tests and drills: ``crash-once:DIR:TEXT`` makes the first attempt of every
#: shard whose key contains TEXT kill its worker process (a marker file in DIR remembers the
#: attempt); ``crash-always:TEXT`` kills it on every attempt; ``raise:TEXT`` raises in the task.
FAULT_ENV = "IPB_DISTRIBUTED_FAULT"
#: Checkpoint format; a store written by another version is discarded.
STORE_VERSION = 1


@dataclass(frozen=True)
class Shard:
    """One unit of work: a stable ``key``, a module-level ``function`` and its ``args``."""

    key: str
    function: Callable[..., Any]
    args: tuple[Any, ...] = ()


def fingerprint(*parts: Any) -> str:
    """A hex digest naming a run: JSON-able parts (file hashes, options, the shard plan) and the code.

    The code is :func:`code_fingerprint`, so checkpoints made before an
    upgrade, a parser change or an edit of a bundled card are never reused.
    """
    text = json.dumps([code_fingerprint(), parts], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_CODE: list[str] = []


def code_fingerprint() -> str:
    """SHA-256 of every ``.py``, ``.yaml``, ``.json``, ``.lark`` and ``.txt`` file of the installed ``ipb`` packages.

    Computed once per process (a few hundred kilobytes).
    """
    if not _CODE:
        from importlib.util import find_spec

        digest = hashlib.sha256()
        for name in ("ipb", "ipb.engine", "ipb.perturb", "ipb.respond", "ipb.scoring", "ipb.frameworks",
                     "ipb.grammar", "ipb.distributed"):
            spec = find_spec(name)  # the folder, without running the package's imports
            if spec is None or not spec.submodule_search_locations:
                continue
            folder = Path(list(spec.submodule_search_locations)[0])
            for path in sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".yaml", ".json", ".lark", ".txt")):
                digest.update(f"{name}/{path.relative_to(folder).as_posix()}\0".encode("utf-8"))
                digest.update(path.read_bytes())
        _CODE.append(digest.hexdigest())
    return _CODE[0]


def checkpoint_dir(out: str | Path) -> Path:
    """The checkpoint folder of an output path: ``OUT.ipb-shards`` beside it (never inside it)."""
    out = Path(out)
    return out.with_name(out.name + ".ipb-shards")


class ShardStore:
    """Finished shard results of one run, on the driver's local disk.

    Parameters
    ----------
    directory : path or None
        Folder of the checkpoints; None keeps them in memory only (no resume).
    run : str
        The run's fingerprint; a folder holding another run's shards is emptied.
    """

    def __init__(self, directory: str | Path | None, run: str) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.run = run
        self.memory: dict[str, Any] = {}
        self._ready = False
        if self.directory is None:
            return
        manifest = self.directory / "run.json"
        try:
            old = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        self._ready = old == {"run": run, "version": STORE_VERSION}
        if not self._ready:
            shutil.rmtree(self.directory, ignore_errors=True)  # another run's shards; created again on first put

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / (hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + ".pkl")

    @staticmethod
    def _atomic(path: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def get(self, key: str) -> tuple[bool, Any]:
        """``(True, result)`` for a finished shard, else ``(False, None)`` (a damaged file counts as missing)."""
        if key in self.memory:
            return True, self.memory[key]
        if self.directory is None:
            return False, None
        try:
            stored_key, value = pickle.loads(self._path(key).read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
            return False, None
        if stored_key != key:
            return False, None
        self.memory[key] = value
        return True, value

    def put(self, key: str, value: Any) -> None:
        """Keep a finished shard's result (the first one kept per key wins)."""
        if key in self.memory:
            return
        self.memory[key] = value
        if self.directory is not None:
            if not self._ready:
                self.directory.mkdir(parents=True, exist_ok=True)
                self._atomic(self.directory / "run.json",
                             json.dumps({"run": self.run, "version": STORE_VERSION}).encode("utf-8"))
                self._ready = True
            self._atomic(self._path(key), pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL))

    def remove(self) -> None:
        """Delete the checkpoint folder (after the output is written)."""
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)


@dataclass
class ShardRun:
    """What :func:`run_shards` did: results in shard order and how many were computed or resumed."""

    results: list[Any]
    computed: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)


def _fault(spec: str | None, key: str) -> None:
    """Apply :data:`FAULT_ENV` inside a task (no-op when unset)."""
    if not spec:
        return
    kind, _, rest = spec.partition(":")
    if kind == "crash-once":
        folder, _, text = rest.partition(":")
        if text in key:
            marker = Path(folder) / hashlib.sha256(key.encode("utf-8")).hexdigest()
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.close(fd)
            os._exit(1)
    elif kind == "crash-always" and rest in key:
        os._exit(1)
    elif kind == "raise" and rest in key:
        raise RuntimeError(f"fault injected into shard {key}")


def _run_shard(function: Callable[..., Any], key: str, args: tuple[Any, ...], fault: str | None) -> Any:
    _fault(fault, key)
    return function(*args)


_REMOTE: dict[int, Any] = {}


def _remote(ray: Any, max_retries: int) -> Any:
    if max_retries not in _REMOTE:
        _REMOTE[max_retries] = ray.remote(max_retries=max_retries, retry_exceptions=False)(_run_shard)
    return _REMOTE[max_retries]


def _why(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None)
    if cause is not None:
        return f"{type(cause).__name__}: {cause}"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def run_shards(
    ray: Any,
    shards: Sequence[Shard],
    store: ShardStore,
    *,
    max_retries: int = 3,
    on_done: Callable[[int, int], None] | None = None,
) -> ShardRun:
    """Run every shard not already in ``store`` as a Ray task; results in shard order.

    Parameters
    ----------
    ray : module
        The connected ``ray`` module (:func:`ipb.distributed.connect`).
    shards : sequence of Shard
        Distinct keys.
    store : ShardStore
        Finished shards are read from it first and every new result is written to it.
    max_retries : int
        Times a task is run again after its worker process dies.
    on_done : callable, optional
        ``on_done(finished, total)`` after each shard.

    Raises
    ------
    DistributedError
        Rule ``shard-failed``: some shards raised or lost their workers more
        than ``max_retries`` times; ``failed`` lists their keys and the
        message gives each key and why. Every other shard has finished and
        is checkpointed.
    """
    keys = [s.key for s in shards]
    if len(set(keys)) != len(keys):
        raise ValueError("shard keys must be distinct")
    fault = os.environ.get(FAULT_ENV) or None
    run = ShardRun([None] * len(shards))
    pending: dict[Any, int] = {}
    remote = _remote(ray, max_retries)
    for index, shard in enumerate(shards):
        found, value = store.get(shard.key)
        if found:
            run.results[index] = value
            run.resumed.append(shard.key)
        else:
            pending[remote.remote(shard.function, shard.key, shard.args, fault)] = index
    failed: list[tuple[str, str]] = []
    finished = len(run.resumed)
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            index = pending.pop(ref)
            key = shards[index].key
            try:
                value = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - a task error or a lost worker: reported by key
                failed.append((key, _why(exc)))
                continue
            store.put(key, value)
            run.results[index] = value
            run.computed.append(key)
            finished += 1
            if on_done is not None:
                on_done(finished, len(shards))
    if failed:
        failed.sort()
        listing = "; ".join(f"{k} ({why})" for k, why in failed[:10])
        more = f"; and {len(failed) - 10} more" if len(failed) > 10 else ""
        raise DistributedError(
            f"{len(failed)} of {len(shards)} shard(s) failed: {listing}{more} (a shard is run again when its worker "
            f"dies, up to {max_retries} times, not when it raises). "
            f"Nothing was written; the {finished} finished shard(s) are kept and a rerun resumes from them",
            failed=[k for k, _ in failed], rule="shard-failed")
    return run
