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

Paths. Card files (``--card ID=PATH``) and the base scenario are opened by
the workers: on a cluster they must exist at the same path on every node
(a shared read-only folder, or the bundled cards).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ipb._files import file_sha256
from ipb.distributed._ray import connect
from ipb.distributed.shards import Shard, ShardStore, checkpoint_dir, fingerprint, run_shards
from ipb.perturb.generation import Candidate, Generation, Generator, Job, key_int, write_items
from ipb.perturb.verify import RecordCheck, Verification, mark_repeated_ids, reportable, verify_lines

__all__ = ["RayRunner", "generate_ray", "verify_ray", "PERTURB_CHUNK", "VERIFY_CHUNK"]

#: Attempts per perturbation shard.
PERTURB_CHUNK = 2000
#: Records per verification shard.
VERIFY_CHUNK = 2000

_GENERATORS: dict[Job, Generator] = {}


def _generator(job: Job) -> Generator:
    gen = _GENERATORS.get(job)
    if gen is None:
        _GENERATORS.clear()
        gen = _GENERATORS[job] = Generator(job)
    return gen


def _attempts(job: Job, recipe: int, start: int, stop: int, build: bool = True) -> list[Candidate]:
    """Worker side: candidates of attempts ``[start, stop)`` of ``recipe`` (one Generator per job and process).

    The generator's own record of scenarios it built is cleared per shard: shards reach a worker in
    any order and across runs, and only the driver, which sees every candidate in attempt order,
    may decide which copy of a scenario is the first (a worker that skipped building a "repeat"
    would leave the driver's first copy without its item).
    """
    gen = _generator(job)
    gen.built.clear()
    gen.built.add(key_int(gen.base_key))
    return list(gen.run([(recipe, start, stop)], build=build))


def _lines(job: Job, chosen: list[tuple[int, int]]) -> list[str]:
    """Worker side: the item lines of chosen ``(recipe, attempt)`` pairs."""
    gen = _generator(job)
    return [gen.line(r, j) for r, j in chosen]


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
        Attempts per shard.
    max_retries : int
        Retries of a shard whose worker died.
    """

    def __init__(self, ray: Any, job: Job, store: ShardStore, *, chunk: int = PERTURB_CHUNK,
                 max_retries: int = 3, build: bool = True) -> None:
        self.ray = ray
        self.build = build
        self.job = job
        self.store = store
        self.chunk = chunk
        self.max_retries = max_retries
        self.computed = 0
        self.resumed = 0

    def map(self, tasks: Sequence[tuple[int, int, int]], *, seen: Any = None, wanted: Any = None) -> Iterator[Candidate]:
        """Candidates of ``tasks`` in task order (``seen``/``wanted`` are hints a local pool uses to skip
        building items it would drop; the workers build every attempt, and the driver drops them)."""
        shards = [Shard(f"recipe {r} attempts {s}-{min(s + self.chunk, stop)}", _attempts,
                        (self.job, r, s, min(s + self.chunk, stop), self.build))
                  for r, start, stop in tasks for s in range(start, stop, self.chunk)]
        yield from self._run(shards)

    def lines(self, chosen: Sequence[tuple[int, int]]) -> Iterator[str]:
        """The item lines of chosen attempts (balanced runs), in order, built on the workers."""
        chosen = list(chosen)
        shards = [Shard(f"lines {i}-{min(i + self.chunk, len(chosen))}", _lines,
                        (self.job, chosen[i:i + self.chunk])) for i in range(0, len(chosen), self.chunk)]
        yield from self._run(shards)

    def _run(self, shards: list[Shard]) -> Iterator[Any]:
        run = run_shards(self.ray, shards, self.store, max_retries=self.max_retries)
        self.computed += len(run.computed)
        self.resumed += len(run.resumed)
        for chunk in run.results:
            yield from chunk

    def close(self) -> None:
        pass


def _job_fingerprint(job: Job, n: int, balance: bool, allow_short: bool) -> str:
    files = [file_sha256(Path(c)) if os.path.exists(c) else c for c in job.cards]
    return fingerprint("perturb", [job.cards, files, job.base, file_sha256(Path(job.base)), job.seed,
                                   [r.text for r in job.recipes], job.fm6_probe, job.weights, job.min_changed], n, balance,
                       allow_short)


def generate_ray(job: Job, n: int, out: str | Path, *, balance: bool = False, allow_short: bool = False,
                 address: str | None = None, chunk: int = PERTURB_CHUNK, max_retries: int = 3) -> tuple[Generation, RayRunner]:
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
    ray = connect(address)
    store = ShardStore(checkpoint_dir(out), _job_fingerprint(job, n, balance, allow_short))
    runner = RayRunner(ray, job, store, chunk=chunk, max_retries=max_retries, build=not balance)
    result = write_items(out, job, n, balance=balance, allow_short=allow_short, runner=runner)
    return result, runner


def _verify_slice(records: list[tuple[int, int, str]], cards: Mapping[str, str],
                  schema: bool) -> tuple[list[RecordCheck], list[tuple[int, int, str]]]:
    """Worker side: the checks of one slice that a Verification keeps (problems and changed cards), and where each
    item id was seen (repeated ids are found on the driver, across slices)."""
    return reportable(verify_lines(records, cards=cards, schema=schema))


def verify_ray(path: str | Path, *, cards: Mapping[str, str] | None = None, schema: bool = True,
               address: str | None = None, chunk: int = VERIFY_CHUNK, max_retries: int = 3) -> Verification:
    """:func:`~ipb.perturb.verify.verify_items` with the slices checked on Ray; the same Verification.

    Verification writes no file, so no checkpoint is kept: a failed run is
    simply run again.

    Raises
    ------
    LoadError
        As :func:`verify_items` (the file is read on the driver).
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
    if not records:
        raise LoadError(f"{name} holds no items", file=name, rule="empty")
    ray = connect(address)
    overrides = dict(cards or {})
    shards = [Shard(f"records {records[i][0]}-{records[min(i + chunk, len(records)) - 1][0]}", _verify_slice,
                    (records[i:i + chunk], overrides, schema)) for i in range(0, len(records), chunk)]
    run = run_shards(ray, shards, ShardStore(None, ""), max_retries=max_retries)
    checks = [c for part, _ in run.results for c in part]
    return Verification(name, len(records), mark_repeated_ids(checks, [i for _, ids in run.results for i in ids]))
