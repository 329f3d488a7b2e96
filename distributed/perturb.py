"""``ipb perturb`` and ``ipb verify`` on Ray (paper §6.5 items, made or checked on a cluster).

Perturbation. :func:`ipb.perturb.generation.generate` runs in rounds; each
round asks for ranges of attempts ``(recipe, first, stop)`` and attempt ``j``
of recipe ``R`` depends only on ``(seed, R, j)``. :class:`RayRunner` cuts
every range into shards of at most ``chunk`` attempts, keyed
``recipe R attempts A-B``, runs them as Ray tasks (one
:class:`~ipb.perturb.generation.Generator` per worker process, built on its
first shard and kept) and hands the candidates back in task order, so the
selection on the driver, and the file, are the local run's byte for byte.

Verification. The records of the items file are cut into consecutive slices
keyed ``records A-B``; each is checked with
:func:`ipb.perturb.verify.verify_lines` and only the checks worth reporting
travel back; they are merged in record order.

Paths. For ``perturb``, the card files (``--card ID=PATH``, or found in
``--cards``) and the base scenario are opened by the workers: on a cluster
they must exist at the same path on every node (a shared read-only folder,
or the bundled cards). ``verify`` ships its card files to the workers
(:class:`CardSources`): ``--card ID=PATH``, ``--cards DIR`` and the items'
own copies need exist on the driver only.
"""

from __future__ import annotations

import hashlib
import os
from array import array
from collections import abc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, Mapping, Sequence, Tuple

from ipb._files import check_target, file_sha256
from ipb.distributed._ray import connect
from ipb.distributed.shards import (Shard, ShardRun, ShardStore, fingerprint, pack, run_shards, stream_shards,
                                    unpack, writable_checkpoint_dir)
from ipb.perturb.generation import Candidate, Generation, Generator, Job, write_items
from ipb.perturb.keyset import KeySet
from ipb.perturb.verify import RecordCheck, Verification, mark_repeated_ids, reportable, verify_lines

__all__ = ["RayRunner", "generate_ray", "verify_ray", "CardSources", "PERTURB_CHUNK", "VERIFY_CHUNK"]

#: Attempts per perturbation shard, at most (a round is cut into about eight shards per CPU).
PERTURB_CHUNK = 2000
#: Attempts per perturbation shard, at least (a task costs the driver and the raylet a few milliseconds).
MIN_CHUNK = 100
#: Records per verification shard.
VERIFY_CHUNK = 2000

_GENERATORS: dict[Job, Generator] = {}


def _generator(job: Job) -> Generator:
    gen = _GENERATORS.get(job)
    if gen is None:
        _GENERATORS.clear()
        gen = _GENERATORS[job] = Generator(job)
    return gen


#: What a perturbation shard returns (plain data, no object per candidate): the attempts' keys, labels, lines,
#: errors and changed-fact counts as columns, and their raw points packed once (:func:`ipb.distributed.shards.pack`),
#: read on the driver only for the few items the diversity sample places (:class:`_Points`).
Columns = Tuple[list, list, list, list, list, bytes]

_SEEN: dict[str, frozenset[int]] = {}


def _seen(ref: list[Any] | None) -> frozenset[int] | None:
    """Worker side: the keys the driver had taken before this round (one copy per process and round)."""
    if ref is None:
        return None
    name = ref[0].hex() if hasattr(ref[0], "hex") else str(id(ref[0]))
    found = _SEEN.get(name)
    if found is None:
        import ray

        blob = ray.get(ref[0])
        found = frozenset(array("Q", blob))
        _SEEN.clear()
        _SEEN[name] = found
    return found


def _attempts(job: Job, recipe: int, start: int, stop: int, build: bool = True,
              seen: list[Any] | None = None) -> Columns:
    """Worker side: attempts ``[start, stop)`` of ``recipe`` (one Generator per job and process), as columns.

    ``seen`` (a reference to the driver's keys before this round, :meth:`RayRunner.map`) spares building
    the items of scenarios the driver already took: their line is None, as a local run leaves it, and the
    driver counts them as repeats whatever their line. The generator's own record of scenarios it built
    is cleared per shard: shards reach a worker in any order and across runs, and only the driver, which
    sees every candidate in attempt order, may decide which copy of a scenario is the first (a worker
    that skipped building a "repeat" of this round would leave the driver's first copy without its item).
    """
    gen = _generator(job)
    gen.built.clear()
    gen.built.add(gen.base_int)
    cands = list(gen.run([(recipe, start, stop)], seen=_seen(seen), build=build))
    return ([c.key for c in cands], [c.label for c in cands], [c.line for c in cands], [c.error for c in cands],
            [c.changed for c in cands], pack([c.point for c in cands]))


class _Points:
    """The raw points of one shard, unpacked on first use (only the diversity sample's first items read one)."""

    __slots__ = ("blob", "values")

    def __init__(self, blob: bytes) -> None:
        self.blob = blob
        self.values: list[tuple[Any, ...]] | None = None

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        if self.values is None:
            self.values = unpack(self.blob)
        return self.values[i]


class _Point(abc.Sequence):  # type: ignore[type-arg]
    """Candidate ``i``'s raw point (:func:`ipb.perturb.runs.raw_point`), read from its shard's :class:`_Points`
    when first looked at; a sequence equal to the tuple the worker made."""

    __slots__ = ("points", "i")

    def __init__(self, points: _Points, i: int) -> None:
        self.points, self.i = points, i

    def __getitem__(self, k: Any) -> Any:
        return self.points[self.i][k]

    def __len__(self) -> int:
        return len(self.points[self.i])

    def __iter__(self) -> Iterator[Any]:
        return iter(self.points[self.i])

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, (_Point, tuple)) else other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def _candidates(recipe: int, start: int, columns: Columns) -> Iterator[Candidate]:
    """Driver side: the Candidates of one shard's columns, in attempt order."""
    keys, labels, lines, errors, changed, points = columns
    lazy = _Points(points)
    for i, (key, label, line, error, moved) in enumerate(zip(keys, labels, lines, errors, changed)):
        yield Candidate(recipe, start + i, key, label, line, error, moved, _Point(lazy, i))  # type: ignore[arg-type]


def _lines(job: Job, chosen: list[tuple[int, int]]) -> list[str]:
    """Worker side: the item lines of chosen ``(recipe, attempt)`` pairs."""
    gen = _generator(job)
    return [gen.line(r, j) for r, j in chosen]


def _finer_tail(plan: list[tuple[int, int, int]], cpus: int) -> list[tuple[int, int, int]]:
    """The shards of a round with its last ``cpus`` shards cut in up to four (of at least :data:`MIN_CHUNK` attempts).

    The next round is planned from this one's results, so a CPU that finishes early idles until the
    round's last shard is done; Ray starts the shards in order, and ending on small ones keeps that wait
    to about an eighth of a shard instead of half of one. The plan depends only on the round and the
    cluster's size, as the shard keys must.

    >>> _finer_tail([(0, 0, 1000), (0, 1000, 2000), (1, 0, 250)], 2)
    [(0, 0, 1000), (0, 1000, 1250), (0, 1250, 1500), (0, 1500, 1750), (0, 1750, 2000), (1, 0, 125), (1, 125, 250)]
    >>> _finer_tail([(2, 0, 25), (2, 25, 50)], 4)  # shards below MIN_CHUNK stay as they are
    [(2, 0, 25), (2, 25, 50)]
    """
    head, tail = plan[:-cpus], plan[-cpus:]
    for r, start, stop in tail:
        pieces = max(1, min(4, (stop - start) // MIN_CHUNK))
        cuts = [start + k * (stop - start) // pieces for k in range(pieces + 1)]
        head.extend((r, a, b) for a, b in zip(cuts, cuts[1:]))
    return head


class RayRunner:
    """Runs attempt ranges of a perturbation job as Ray tasks (the ``runner`` of :func:`generate`).

    Parameters
    ----------
    ray : module
        Connected ``ray``.
    job : Job
    store : ShardStore
        Checkpoints: shards finished by an earlier, failed run are not sent again.
    chunk : int
        Attempts per shard, at most; a round of attempts is cut into about
        eight shards per CPU of the cluster (at least :data:`MIN_CHUNK`
        attempts each), so the CPUs finish it together, and its last shards
        are cut finer (:func:`_finer_tail`). The shard keys
        therefore depend on the cluster's size: a rerun on another cluster
        size resumes nothing and computes every shard again.
    max_retries : int
        Retries of a shard whose worker died.
    """

    def __init__(self, ray: Any, job: Job, store: ShardStore, *, chunk: int = PERTURB_CHUNK,
                 max_retries: int = 3, build: bool = True, generator: Generator | None = None) -> None:
        self.ray = ray
        self.build = build
        self._job = job
        self.generator = generator
        self.store = store
        self.chunk = chunk
        self.max_retries = max_retries
        self.computed = 0
        self.resumed = 0
        self._cpus: int | None = None

    @property
    def job(self) -> Job:
        """The job the workers run: the driver generator's, once it has filled in the default recipes (a job
        that names no ``--ops`` has none until then, and a worker would index recipes it does not have)."""
        return self.generator.job if self.generator is not None else self._job

    def _chunk(self, total: int) -> int:
        """Attempts per shard for a round of ``total`` attempts: about eight shards per CPU of the cluster, so the
        CPUs finish a round close together, between :data:`MIN_CHUNK` and ``chunk``."""
        if self._cpus is None:
            try:
                self._cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
            except Exception:  # noqa: BLE001 - a cluster that cannot say: assume one CPU
                self._cpus = 1
        return max(min(self.chunk, MIN_CHUNK), min(self.chunk, -(-total // (8 * self._cpus))))

    def map(self, tasks: Sequence[tuple[int, int, int]], *, seen: Any = None, wanted: Any = None) -> Iterator[Candidate]:
        """Candidates of ``tasks`` in task order, streamed as the shards finish.

        ``seen`` (the keys the run has taken) is sent once per call (``ray.put``, 8 bytes a key): the workers
        do not build the items of those scenarios, which the driver would drop. ``wanted`` is a hint a local
        pool uses; the workers build every other attempt, and the driver drops what it does not need.
        """
        size = self._chunk(sum(stop - start for _, start, stop in tasks))
        seen_ref = None
        if isinstance(seen, KeySet) and len(seen) > 1:
            seen_ref = [self.ray.put(array("Q", iter(seen)).tobytes())]  # in a list: passed on as a reference
        plan = _finer_tail([(r, s, min(s + size, stop)) for r, start, stop in tasks for s in range(start, stop, size)],
                           self._cpus or 1)
        shards = [Shard(f"recipe {r} attempts {s}-{e}", _attempts, (self.job, r, s, e, self.build, seen_ref))
                  for r, s, e in plan]
        for position, columns in enumerate(self._run(shards)):
            yield from _candidates(plan[position][0], plan[position][1], columns)

    def lines(self, chosen: Sequence[tuple[int, int]]) -> Iterator[str]:
        """The item lines of chosen attempts (balanced runs), in order, built on the workers."""
        chosen = list(chosen)
        size = self._chunk(len(chosen))
        shards = [Shard(f"lines {i}-{min(i + size, len(chosen))}", _lines,
                        (self.job, chosen[i:i + size])) for i in range(0, len(chosen), size)]
        for block in self._run(shards):
            yield from block

    def _run(self, shards: list[Shard]) -> Iterator[Any]:
        """Each shard's result, in shard order, as it arrives."""
        run = ShardRun([])
        try:
            yield from stream_shards(self.ray, shards, self.store, max_retries=self.max_retries, run=run)
        finally:
            self.computed += len(run.computed)
            self.resumed += len(run.resumed)

    def close(self) -> None:
        pass


def _job_fingerprint(job: Job, n: int, balance: bool, allow_short: bool) -> str:
    files = [file_sha256(Path(c)) if os.path.exists(c) else c for c in job.cards]
    return fingerprint("perturb", [job.cards, files, job.base, file_sha256(Path(job.base)), job.seed,
                                   [r.text for r in job.recipes], job.fm6_probe, job.weights, job.min_changed], n, balance,
                       allow_short)


def generate_ray(job: Job, n: int, out: str | Path, *, balance: bool = False, allow_short: bool = False,
                 address: str | None = None, chunk: int = PERTURB_CHUNK, max_retries: int = 3,
                 stage: Any = None) -> tuple[Generation, RayRunner]:
    """:func:`~ipb.perturb.generation.write_items` with the candidates computed on Ray: the items are
    written to ``out`` as the driver chooses them, the same bytes as a local run.

    The checkpoints live in ``OUT.ipb-shards`` beside ``out`` until the
    caller calls ``runner.store.remove()``.

    Returns
    -------
    (Generation, RayRunner)
        The same Generation as a local run; the runner says how many shards
        were computed and how many resumed from checkpoints.

    Raises
    ------
    DistributedError
        Ray missing or unreachable; shards that failed their retries (by key).
    PerturbError, LoadError
        As :func:`generate`.
    """
    check_target(out)  # the local backend's refusal (a folder, a FIFO), before Ray starts
    shards_dir = writable_checkpoint_dir(out)
    ray = connect(address)
    store = ShardStore(shards_dir, _job_fingerprint(job, n, balance, allow_short))
    gen = Generator(job)
    runner = RayRunner(ray, job, store, chunk=chunk, max_retries=max_retries, build=not balance, generator=gen)
    result = write_items(out, job, n, balance=balance, allow_short=allow_short, generator=gen, runner=runner,
                         stage=stage)
    return result, runner


#: A folder's card files as shipped: path relative to the folder -> bytes.
FolderFiles = Dict[str, bytes]


def _folder_files(folder: Path) -> FolderFiles:
    """The files of ``folder`` the card search reads (``*.yaml``/``*.yml`` at any depth), relative path -> bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.suffix in (".yaml", ".yml") and p.is_file()}


@dataclass(frozen=True)
class CardSources:
    """The card files a verification reads, shipped from the driver to the workers.

    ``--card ID=PATH`` files, the ``--cards DIR`` folders (their ``*.yaml`` /
    ``*.yml`` files) and the items' own copies (``ipb-cards/`` beside the items
    file), each with its path on the driver. A worker whose file system holds
    the same files at the same paths (one machine, or a shared folder) uses
    them in place, so every message names the user's paths; any other worker
    writes the shipped bytes into a temporary folder of its own and searches
    that, in the same order. Either way a worker finds the cards the driver
    would, and the report is the local one.
    """

    files: Tuple[Tuple[str, str, bytes], ...]  # (card id, path, bytes)
    folders: Tuple[Tuple[str, FolderFiles], ...]  # (path, files)
    items: str
    copies: FolderFiles  # the ipb-cards/ folder beside ``items``

    @classmethod
    def gather(cls, cards: Mapping[str, str], dirs: Sequence[str | Path], items: str | Path) -> "CardSources":
        """Read the sources on the driver.

        Raises
        ------
        LoadError
            A ``--cards`` folder does not exist (rule ``cards``, as locally) or
            a ``--card`` file cannot be read (rule ``card``).
        """
        from ipb.engine.registry import CARD_COPIES, CARDS_ENV
        from ipb.errors import LoadError

        files = []
        for ident, path in cards.items():
            try:
                files.append((ident, path, Path(path).read_bytes()))
            except OSError as exc:
                raise LoadError(f"--card {ident}={path}: {exc.strerror or exc}", file=path, rule="card") from None
        folders = []
        for d in dirs:
            if not Path(d).is_dir():
                raise LoadError(f"--cards {d}: no such folder", file=str(d), rule="cards")
            folders.append((str(d), _folder_files(Path(d))))
        # then the driver's IPB_CARDS folders, where the local run looks next (a worker's own IPB_CARDS comes after)
        for d in os.environ.get(CARDS_ENV, "").split(os.pathsep):
            if d.strip() and Path(d).is_dir():
                folders.append((d, _folder_files(Path(d))))
        copies = Path(items).parent / CARD_COPIES
        return cls(tuple(files), tuple(folders), str(items), _folder_files(copies) if copies.is_dir() else {})

    def digest(self) -> str:
        """SHA-256 of every path and byte: names the sources on the workers."""
        h = hashlib.sha256()
        for ident, path, data in self.files:
            h.update(f"file\0{ident}\0{path}\0{len(data)}\0".encode("utf-8", "surrogatepass") + data)
        for path, files in self.folders:
            h.update(f"folder\0{path}\0{len(files)}\0".encode("utf-8", "surrogatepass"))
            for name, data in files.items():
                h.update(f"{name}\0{len(data)}\0".encode("utf-8", "surrogatepass") + data)
        h.update(f"items\0{self.items}\0{len(self.copies)}\0".encode("utf-8", "surrogatepass"))
        for name, data in self.copies.items():
            h.update(f"{name}\0{len(data)}\0".encode("utf-8", "surrogatepass") + data)
        return h.hexdigest()

    def place(self, root: Path | Callable[[], Path]) -> tuple[dict[str, str], list[str], str]:
        """Worker side: ``(--card files, --cards folders, items path)`` to search, in place or under ``root``.

        ``root`` may be a function that makes the folder: it is called once, and only when a file must be
        written (a worker that sees every file in place makes no folder at all).
        """
        from ipb.engine.registry import CARD_COPIES

        made: list[Path] = []

        def under() -> Path:
            if not made:
                made.append(root() if callable(root) else root)
            return made[0]

        def same_file(path: str, data: bytes) -> bool:
            try:
                return Path(path).read_bytes() == data
            except OSError:
                return False

        def same_folder(path: Path, files: FolderFiles) -> bool:
            try:
                return path.is_dir() and _folder_files(path) == files
            except OSError:
                return False

        def write(folder: Path, files: FolderFiles) -> None:
            for name, data in files.items():
                target = folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)

        cards = {}
        for k, (ident, path, data) in enumerate(self.files):
            if not same_file(path, data):
                target = under() / f"card-{k}" / (Path(path).name or "card.yaml")
                write(target.parent, {target.name: data})
                path = str(target)
            cards[ident] = path
        dirs = []
        for k, (path, files) in enumerate(self.folders):
            if not same_folder(Path(path), files):
                write(under() / f"cards-{k}", files)
                path = str(under() / f"cards-{k}")
            dirs.append(path)
        items = self.items
        if self.copies and not same_folder(Path(items).parent / CARD_COPIES, self.copies):
            write(under() / "items" / CARD_COPIES, self.copies)
            items = str(under() / "items" / (Path(items).name or "items.jsonl"))
        return cards, dirs, items


_PLACED: dict[str, tuple[dict[str, str], list[str], str]] = {}


def _placed(sources: CardSources, digest: str) -> tuple[dict[str, str], list[str], str]:
    """Worker side: the sources placed once per process.

    A temporary folder is made only when a file must be written there (the worker does not see the driver's
    file at its path), and removed at exit. Making it up front left one empty ``ipb-cards-*`` folder in the
    temporary directory per worker process and run: a Ray worker is stopped without running ``atexit``.
    """
    found = _PLACED.get(digest)
    if found is None:
        import atexit
        import shutil
        import tempfile

        def make() -> Path:
            root = Path(tempfile.mkdtemp(prefix="ipb-cards-"))
            atexit.register(shutil.rmtree, root, True)
            return root

        found = _PLACED[digest] = sources.place(make)
    return found


def _verify_slice(records: list[tuple[int, int, str]], sources_ref: list[Any], digest: str,
                  schema: bool) -> tuple[list[RecordCheck], list[tuple[int, int, str]]]:
    """Worker side: the checks of one slice that a Verification keeps (problems and changed cards), and where each
    item id was seen (repeated ids are found on the driver, across slices).

    The card search is set for every slice (:func:`ipb.engine.registry.use_cards`, as the local run sets
    it once): a worker process also runs other jobs' tasks.
    """
    import ray

    from ipb.engine.registry import use_cards

    sources = ray.get(sources_ref[0])
    cards, dirs, items = _placed(sources, digest)
    use_cards(dirs, items)
    return reportable(verify_lines(records, cards=cards, schema=schema))


def verify_ray(path: str | Path, *, cards: Mapping[str, str] | None = None, schema: bool = True,
               card_dirs: Sequence[str | Path] = (), address: str | None = None, chunk: int = VERIFY_CHUNK,
               max_retries: int = 3) -> Verification:
    """:func:`~ipb.perturb.verify.verify_items` with the slices checked on Ray; the same Verification.

    The card files (``cards``, the ``card_dirs`` folders and the items' own
    copies) are read on the driver and shipped to the workers
    (:class:`CardSources`), so they need not exist on the other nodes.
    Verification writes no file, so no checkpoint is kept: a failed run is
    simply run again.

    Raises
    ------
    LoadError
        As :func:`verify_items` (the file and the card sources are read on the driver).
    DistributedError
        Ray missing or unreachable; slices that failed their retries (by key).
    """
    from ipb.errors import LoadError
    from ipb.perturb.verify import _file_records

    name = str(path)
    try:
        records = list(_file_records(Path(path)))
    except OSError as exc:
        raise LoadError(f"cannot read {name}: {exc.strerror or exc}", file=name, rule="file") from exc
    except UnicodeDecodeError as exc:
        raise LoadError(f"{name} is not valid UTF-8", file=name, rule="encoding") from exc
    sources = CardSources.gather(dict(cards or {}), card_dirs, path)
    if not records:
        raise LoadError(f"{name} holds no items", file=name, rule="empty")
    ray = connect(address)
    sources_ref = [ray.put(sources)]  # in a list: Ray passes it on as a reference, not the value
    digest = sources.digest()
    shards = [Shard(f"records {records[i][0]}-{records[min(i + chunk, len(records)) - 1][0]}", _verify_slice,
                    (records[i:i + chunk], sources_ref, digest, schema)) for i in range(0, len(records), chunk)]
    run = run_shards(ray, shards, ShardStore(None, ""), max_retries=max_retries)
    checks = [c for part, _ in run.results for c in part]
    result = Verification(name, len(records), mark_repeated_ids(checks, [i for _, ids in run.results for i in ids]))
    # which card each of the items' cards was checked against, as verify_items reports it (s53nufix), from the driver
    from ipb.engine.registry import use_cards
    from ipb.perturb.verify_cards import card_sources

    use_cards(card_dirs, path)
    result.cards = card_sources(path, cards)
    return result
