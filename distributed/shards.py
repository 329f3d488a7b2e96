"""Shards: work split by a stable key, run as Ray tasks, checkpointed, merged in key order.

A *shard* is ``(key, function, arguments)``: the key names the work
independently of the cluster (``recipe 2 attempts 4096-6144``, ``records
1-500``, ``model m / condition A / bucket 3``), the function is a plain
module-level function of the library, and its result depends on the key and
the run's inputs only, never on the worker or the order of completion. That
makes every shard idempotent: a task that Ray retries after its worker died
returns the same value, and the driver keeps the first copy it receives per
key, so nothing is lost or counted twice.

Streaming. :func:`stream_shards` sends every shard at once and yields the
results in shard order, each as soon as it and the shards before it are
done, so the driver merges while the workers compute. A worker returns its
result already packed (:func:`pack`, a data-only format, not pickle); the
driver writes those bytes to the checkpoint as they are and unpacks them once. On a small machine the
driver, the raylet and the GCS share the cores with the workers, so the
driver's own work per shard is kept to that.

Checkpoints. The driver writes each finished shard's result to a
:class:`ShardStore` (one file per key, written to a temporary file and
renamed into place) under a folder beside the output, with the run's
fingerprint (a hash of the inputs and options) and a digest binding each
payload to the run and its key. A rerun with the same fingerprint loads the
finished shards whose digests hold and sends only the rest; a different
fingerprint empties the folder first. After a successful run the folder is
removed. Workers never write checkpoints, so the folder need not be on a
shared file system.

Failures. A shard whose task raised, or whose worker died more often than
``max_retries``, is *failed*: :func:`stream_shards` waits for the others (so
their results are checkpointed), then raises :class:`DistributedError`
naming every failed key. The caller writes nothing to the output path.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ipb.distributed import _codec
from ipb.distributed._ray import DistributedError, cluster_lost

__all__ = ["Shard", "ShardStore", "ShardRun", "run_shards", "stream_shards", "pack", "unpack", "fingerprint", "FAULT_ENV", "checkpoint_dir",
           "writable_checkpoint_dir"]

#: Fault injection for tests and drills: ``crash-once:DIR:TEXT`` makes the first attempt of every
#: shard whose key contains TEXT kill its worker process (a marker file in DIR remembers the
#: attempt); ``crash-always:TEXT`` kills it on every attempt; ``raise:TEXT`` raises in the task.
FAULT_ENV = "IPB_DISTRIBUTED_FAULT"
#: Seconds the shard loop waits for a result before it checks that the cluster is still there.
WAIT_S = 2.0
#: Checkpoint format; a store written by another version is discarded.
STORE_VERSION = 3


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
    """The checkpoint folder of an output path: ``OUT.ipb-shards`` beside it (never inside it).

    ``out`` is made absolute and normalised first, so ``.``, ``..`` and ``a/..``
    name the folder they mean (``-o .`` keeps ``../<cwd>.ipb-shards``), as the local
    backend accepts them. Called before Ray starts (breaker 3, finding 7).

    Raises
    ------
    LoadError
        Rule ``file``: ``out`` is the root folder, which has nothing beside it.

    >>> checkpoint_dir("/data/run1").as_posix()
    '/data/run1.ipb-shards'
    >>> checkpoint_dir("/data/run1/..").as_posix()
    '/data.ipb-shards'
    """
    from ipb.errors import LoadError

    full = Path(os.path.abspath(out))
    if not full.name:
        raise LoadError(f"cannot write {out}: the ray backend keeps its checkpoints in a folder beside the output "
                        f"(OUT.ipb-shards), and {full} has nothing beside it; give a folder below it",
                        file=str(out), rule="file")
    return full.with_name(full.name + ".ipb-shards")


def writable_checkpoint_dir(out: str | Path) -> Path:
    """:func:`checkpoint_dir` of ``out``, after checking that it can be created or written; before Ray starts.

    The nearest folder of the checkpoint path that exists must be a folder in
    which ipb can create one (probed with a temporary folder, removed at
    once), so that a shard's result is never computed only to fail at its
    first checkpoint (``-o /proc/x``, ``-o FILE/x``).

    Raises
    ------
    WriteError
        Rule ``file``: the checkpoint folder cannot be created or written; the
        message names ``out`` as given and the reason.
    """
    from ipb.errors import WriteError

    shards = checkpoint_dir(out)
    place = shards
    while not os.path.lexists(place) and place.parent != place:
        place = place.parent
    reason = None
    if not place.is_dir():
        reason = f"{place} is not a folder"
    else:
        try:
            os.rmdir(tempfile.mkdtemp(prefix=".ipb-probe.", dir=place))
        except OSError as exc:
            reason = f"{place}: {exc.strerror or exc}"
    if reason is not None:
        raise WriteError(f"cannot write {out}: the ray backend keeps its checkpoints in {shards}, which cannot be "
                         f"created there ({reason})", file=str(out), rule="file")
    return shards


class ShardStore:
    """Finished shard results of one run, on the driver's local disk, each checked before it is used.

    A checkpoint file is ``MAGIC``, two little-endian 64-bit lengths, a JSON
    header and the result as the worker packed it (:func:`pack`, a data-only
    format, see :mod:`ipb.distributed._codec`; never pickle, so a file planted in the folder cannot run
    code in the driver). The header names the format version, the run's
    fingerprint, the shard key and ``digest``: the SHA-256 of
    :func:`_identity` (version, run, key) and the payload. A file is used
    only when all of them match and the payload decodes; otherwise it is
    *discarded* (deleted and counted in :attr:`discarded` by reason) and the
    shard is computed again. Files other than ``run.json`` and ``*.shard``
    are never opened. The digest catches damage and files of another run or
    key; it is not a signature, so whoever can write the folder can still
    forge a result that passes (see docs/scale-out.md).

    Files are written to a temporary name and renamed, without ``fsync``: a
    file cut short by a crash of the machine fails its lengths or digest and
    is computed again. Results are not kept in memory: the caller holds what
    it still needs.

    Parameters
    ----------
    directory : path or None
        Folder of the checkpoints; None keeps none (no resume).
    run : str
        The run's fingerprint; a folder holding another run's shards is emptied (counted as ``"another run"``).
    """

    def __init__(self, directory: str | Path | None, run: str) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.run = run
        self.done: set[str] = set()
        #: Checkpoint files not used, by reason ("another run", "damaged", "not a checkpoint" for other files).
        self.discarded: dict[str, int] = {}
        self._ready = False
        if self.directory is None:
            return
        manifest = self.directory / "run.json"
        try:
            old = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        self._ready = old == {"run": run, "version": STORE_VERSION}
        try:
            names = [p.name for p in self.directory.iterdir()]
        except OSError:
            names = []
        strays = [n for n in names if n != "run.json" and not n.endswith(".shard")]
        # a write cut off by a crash leaves a .tmp- file: expected, removed without a word
        self._discard("not a checkpoint", sum(1 for n in strays if not n.startswith(".tmp-")))
        if not self._ready:
            self._discard("another run", sum(1 for n in names if n.endswith(".shard") and not n.startswith(".")))
            shutil.rmtree(self.directory, ignore_errors=True)  # another run's shards; created again on first put
        else:
            for name in strays:  # never opened; removed so that they cannot pile up
                path = self.directory / name
                try:
                    shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
                except OSError:
                    pass

    def _discard(self, why: str, count: int = 1) -> None:
        if count:
            self.discarded[why] = self.discarded.get(why, 0) + count

    def note(self) -> str | None:
        """One line for the user when checkpoint files were not used, saying how many and why; else None."""
        if not self.discarded:
            return None
        total = sum(self.discarded.values())
        why = ", ".join(f"{n} {reason}" for reason, n in sorted(self.discarded.items()))
        return (f"ray: discarded {total} file(s) in {self.directory} that could not be resumed ({why}: "
                f"checksum, run or format did not match); their shards were computed again")

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / (hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + ".shard")

    @staticmethod
    def _atomic(path: Path, *parts: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                for part in parts:
                    handle.write(part)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def get(self, key: str) -> tuple[bool, Any]:
        """``(True, result)`` for a finished shard whose checkpoint passes its checks, else ``(False, None)``."""
        found, blob = self.get_packed(key)
        return (True, unpack(blob)) if found else (False, None)

    def get_packed(self, key: str) -> tuple[bool, bytes]:
        """``(True, packed result)`` for a finished shard whose checkpoint passes every check, else ``(False, b"")``.

        A file that exists and fails a check is deleted and counted in :attr:`discarded`.
        """
        if self.directory is None:
            return False, b""
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return False, b""
        why = self._check(key, data)
        if why is not None:
            self._discard(why)
            try:
                path.unlink()
            except OSError:
                pass
            return False, b""
        self.done.add(key)
        return True, data[len(_MAGIC) + 16 + struct.unpack_from("<Q", data, len(_MAGIC))[0]:]

    def _check(self, key: str, data: bytes) -> str | None:
        """None when ``data`` is a whole, matching checkpoint of ``key`` in this run, else the reason it is not."""
        if len(data) < len(_MAGIC) + 16 or not data.startswith(_MAGIC):
            return "damaged"
        size_head, size_blob = struct.unpack_from("<QQ", data, len(_MAGIC))
        start = len(_MAGIC) + 16
        if len(data) != start + size_head + size_blob:
            return "damaged"
        try:
            head = json.loads(data[start:start + size_head].decode("utf-8"))
        except ValueError:
            return "damaged"
        if not isinstance(head, dict):
            return "damaged"
        if head.get("version") != STORE_VERSION or head.get("run") != self.run:
            return "another run"
        blob = data[start + size_head:]
        if head.get("key") != key or head.get("digest") != _digest(self.run, key, blob):
            return "damaged"
        try:
            unpack(blob)  # the digest held, so only a forged file can fail here; it still never runs code
        except (ValueError, TypeError, OverflowError, RecursionError, UnicodeError):
            return "damaged"
        return None

    def put(self, key: str, value: Any) -> None:
        """Keep a finished shard's result (the first one kept per key wins)."""
        self.put_packed(key, pack(value))

    def put_packed(self, key: str, blob: bytes) -> None:
        """Keep a finished shard's packed result (:func:`pack`) as it is; the first one kept per key wins."""
        if key in self.done:
            return
        self.done.add(key)
        if self.directory is not None:
            if not self._ready:
                self.directory.mkdir(parents=True, exist_ok=True)
                self._atomic(self.directory / "run.json",
                             json.dumps({"run": self.run, "version": STORE_VERSION}).encode("utf-8"))
                self._ready = True
            head = json.dumps({"version": STORE_VERSION, "run": self.run, "key": key,
                               "digest": _digest(self.run, key, blob)}, sort_keys=True).encode("utf-8")
            self._atomic(self._path(key), _MAGIC, struct.pack("<QQ", len(head), len(blob)), head, blob)

    def remove(self) -> None:
        """Delete the checkpoint folder (after the output is written)."""
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)


_MAGIC = b"ipb-shard v3\n"


def _identity(run: str, key: str) -> bytes:
    """What a checkpoint's digest binds its payload to: the format version, the run's fingerprint (inputs' hashes,
    options, code) and the shard key, as canonical JSON."""
    return json.dumps([STORE_VERSION, run, key], separators=(",", ":")).encode("utf-8")


def _digest(run: str, key: str, blob: bytes) -> str:
    """SHA-256 (hex) of :func:`_identity`, a NUL byte and the packed result."""
    digest = hashlib.sha256(_identity(run, key))
    digest.update(b"\0")
    digest.update(blob)
    return digest.hexdigest()


def pack(value: Any) -> bytes:
    """A shard result as the bytes that travel back and are checkpointed (:func:`ipb.distributed._codec.dumps`)."""
    return _codec.dumps(value)


def unpack(blob: bytes) -> Any:
    """The result :func:`pack` packed (plain data only: nothing is imported or called by name)."""
    return _codec.loads(blob)


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


def _run_shard(function: Callable[..., Any], key: str, args: tuple[Any, ...], fault: str | None) -> bytes:
    """Worker side: the shard's result, packed (:func:`pack`): the driver checkpoints these bytes as they are."""
    _fault(fault, key)
    return pack(function(*args))


_REMOTE: dict[tuple[int, int], Any] = {}


def _remote(ray: Any, max_retries: int) -> Any:
    key = (id(ray), max_retries)
    if key not in _REMOTE:
        _REMOTE[key] = ray.remote(max_retries=max_retries, retry_exceptions=False)(_run_shard)
    return _REMOTE[key]


def _why(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None)
    if cause is not None:
        return f"{type(cause).__name__}: {cause}"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def stream_shards(
    ray: Any,
    shards: Sequence[Shard],
    store: ShardStore,
    *,
    max_retries: int = 3,
    on_done: Callable[[int, int], None] | None = None,
    run: ShardRun | None = None,
) -> Iterator[Any]:
    """Run every shard not already in ``store`` as a Ray task; yield the results in shard order, each as soon
    as it and every shard before it have finished.

    All tasks are sent at once, so the workers keep computing later shards
    while the caller handles the earlier ones (the driver's work overlaps
    the workers'). Each result arrives packed (:func:`pack`, on the
    worker), is written to ``store`` as it is and unpacked once, when it is
    yielded.

    Parameters
    ----------
    ray : module
        The connected ``ray`` module (:func:`ipb.distributed.connect`).
    shards : sequence of Shard
        Distinct keys. Ray starts them in this order.
    store : ShardStore
        Finished shards are read from it first and every new result is written to it.
    max_retries : int
        Times a task is run again after its worker process dies.
    on_done : callable, optional
        ``on_done(finished, total)`` after each shard (in the order they finish).
    run : ShardRun, optional
        Filled with the keys computed and resumed (``results`` is left alone).

    Raises
    ------
    DistributedError
        Rule ``shard-failed``: some shards raised or lost their workers more
        than ``max_retries`` times; ``failed`` lists their keys and the
        message gives each key and why. Nothing after the first failed shard
        is yielded; every other shard has finished and is checkpointed.
        Rule ``ray-lost``: the cluster's GCS or this node's raylet refused
        connections on two checks :data:`WAIT_S` apart while no result came
        (:func:`~ipb.distributed._ray.cluster_lost`); the finished shards are
        checkpointed.
    """
    keys = [s.key for s in shards]
    if len(set(keys)) != len(keys):
        raise ValueError("shard keys must be distinct")
    fault = os.environ.get(FAULT_ENV) or None
    run = run if run is not None else ShardRun([])
    pending: dict[Any, int] = {}
    ready: dict[int, bytes] = {}
    remote = _remote(ray, max_retries)
    for index, shard in enumerate(shards):
        found, blob = store.get_packed(shard.key)
        if found:
            ready[index] = blob
            run.resumed.append(shard.key)
        else:
            pending[remote.remote(shard.function, shard.key, shard.args, fault)] = index
    failed: list[tuple[str, str]] = []
    finished = len(run.resumed)
    next_index = 0
    lost = 0
    try:
        while True:
            while not failed and next_index in ready:
                value = unpack(ready.pop(next_index))
                next_index += 1
                yield value
            if not pending:
                break
            done, _ = ray.wait(list(pending), num_returns=1, timeout=WAIT_S)
            if not done:
                why = cluster_lost(ray)
                lost = lost + 1 if why else 0
                if lost >= 2:  # refused twice, WAIT_S apart: gone, not restarting
                    pending.clear()  # nothing to cancel on a cluster that is gone
                    kept = (f"the {len(store.done)} finished shard(s) are kept in {store.directory}; restart the "
                            "cluster and rerun the same command to resume" if store.directory is not None else
                            "this command keeps no checkpoints; restart the cluster and rerun it")
                    raise DistributedError(  # store.done: every shard of the run, not only of this call's batch
                        f"the Ray cluster stopped mid-run ({why}); nothing was written; {kept}",
                        rule="ray-lost")
                continue
            lost = 0  # a result: the cluster is there
            for ref in done:
                index = pending.pop(ref)
                key = shards[index].key
                try:
                    blob = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - a task error or a lost worker: reported by key
                    failed.append((key, _why(exc)))
                    continue
                store.put_packed(key, blob)
                ready[index] = blob
                run.computed.append(key)
                finished += 1
                if on_done is not None:
                    on_done(finished, len(shards))
    finally:
        for ref in pending:  # the caller stopped early: tasks it will never read are not worth finishing
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001 - best effort
                pass
    if failed:
        failed.sort()
        listing = "; ".join(f"{k} ({why})" for k, why in failed[:10])
        more = f"; and {len(failed) - 10} more" if len(failed) > 10 else ""
        raise DistributedError(
            f"{len(failed)} of {len(shards)} shard(s) failed: {listing}{more} (a shard is run again when its worker "
            f"dies, up to {max_retries} times, not when it raises). "
            f"Nothing was written; the {finished} finished shard(s) are kept and a rerun resumes from them",
            failed=[k for k, _ in failed], rule="shard-failed")


def run_shards(
    ray: Any,
    shards: Sequence[Shard],
    store: ShardStore,
    *,
    max_retries: int = 3,
    on_done: Callable[[int, int], None] | None = None,
) -> ShardRun:
    """:func:`stream_shards`, collected: every result in shard order, and the keys computed and resumed.

    Raises
    ------
    DistributedError
        As :func:`stream_shards`.
    """
    run = ShardRun([])
    run.results = list(stream_shards(ray, shards, store, max_retries=max_retries, on_done=on_done, run=run))
    return run
