"""Where a generation run's attempts are computed: in this process or in worker processes, results in task order.

Split from :mod:`ipb.perturb.generation` (module size limit), which re-exports
:data:`COLLECT_EVERY`; the other names keep their leading underscore. The
worker-process state (``_WORKER``, ``_BUILD``) lives here, beside the functions
the workers run. Whether a round is big enough to be worth the workers is
:data:`ipb.perturb.generation.POOL_MIN`, read by the run when it makes its
``_Pool`` (so a test that sets it there still reaches the pool).
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from math import ceil
from typing import TYPE_CHECKING, Any, Callable, Container, Iterator

from ipb.engine.grp_view import forget_rendered

if TYPE_CHECKING:
    from ipb.perturb.generation import Candidate, Generator, Job

__all__ = ["COLLECT_EVERY"]

#: Attempts made between two collections of young cyclic garbage while the collector's own passes are off
#: (:func:`_collected`).
COLLECT_EVERY = 4096

_WORKER: Generator | None = None
_BUILD = True


def _quiet_worker() -> None:
    """A worker process ignores SIGINT: a Ctrl-C reaches the terminal's whole process group, and the main process
    alone stops the run (it ends the workers, ``_Pool.terminate``). Before, each worker busy with a task printed
    "Process ForkPoolWorker-N:" and its KeyboardInterrupt traceback under the run's stop line (s64 new user F5)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _init_worker(job: Job, build: bool) -> None:
    from ipb.perturb.generation import Generator  # here, not at the top: generation imports this module

    global _WORKER, _BUILD
    _quiet_worker()
    _WORKER = Generator(job)
    _BUILD = build


def _run_task(task: tuple[int, int, int]) -> list[Candidate]:
    assert _WORKER is not None
    return list(_collected(_WORKER.run([task], build=_BUILD)))


def _collected(items: Iterator[Any]) -> Iterator[Any]:
    """``items``, made while the cyclic garbage collector does not run by itself.

    An attempt makes a few hundred containers that reference counting frees,
    so the collector's automatic passes (a full one walks every object of the
    process: cards, memos) were about 3% of generation's CPU with nothing to
    gain. Young cyclic garbage is collected every :data:`COLLECT_EVERY` items
    instead (``gc.collect(1)``), so memory stays flat in N; the collector's
    state is restored when ``items`` ends or is closed. Changes no output byte.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for n, item in enumerate(items, start=1):
            yield item
            if n % COLLECT_EVERY == 0:
                gc.collect(1)
    finally:
        if was_enabled:
            gc.enable()


#: The most attempts (or chosen lines) one worker task holds. Results come back a whole task at a time, in task
#: order, so nothing of a round is counted (``--progress``, the count a Ctrl-C reports) before its first task
#: returns: s64 new user F2, ``--n 1000000 --workers 2``: a round of ~275k attempts of one recipe cut into 8 tasks
#: of ~34k, no progress line in 27 s and "184 of 1,000,000 items made". Each attempt depends only on its
#: (recipe, attempt) and the tasks are read in order, so the bound changes no output byte.
TASK_MAX = 1024


def _task_size(count: int, workers: int) -> int:
    """How many of ``count`` attempts (or lines) one worker task holds: ``workers`` x 4 tasks or more, each of 32 to
    :data:`TASK_MAX`.

    >>> _task_size(100, 2), _task_size(20_000, 2), _task_size(275_000, 2)
    (32, 1024, 1024)
    """
    return max(32, min(TASK_MAX, ceil(count / (workers * 4))))


def _split(r: int, start: int, stop: int, workers: int) -> list[tuple[int, int, int]]:
    """The worker tasks ``(r, first, stop)`` that make recipe ``r``'s attempts ``start`` to ``stop - 1``, in order,
    each of at most :func:`_task_size` attempts (one task with one worker: it runs in this process).

    >>> _split(0, 0, 3000, 2)
    [(0, 0, 375), (0, 375, 750), (0, 750, 1125), (0, 1125, 1500), (0, 1500, 1875), (0, 1875, 2250), (0, 2250, 2625), (0, 2625, 3000)]
    >>> len(_split(1, 64, 275_064, 2)), _split(1, 64, 275_064, 2)[0]
    (269, (1, 64, 1088))
    """
    if workers == 1:
        return [(r, start, stop)]
    size = _task_size(stop - start, workers)
    return [(r, s, min(s + size, stop)) for s in range(start, stop, size)]


def _line_task(task: list[tuple[int, int]]) -> list[str]:
    assert _WORKER is not None
    return list(_collected(_WORKER.line(r, j) for r, j in task))


class _Pool:
    """Runs attempt ranges in this process or in worker processes, results in task order."""

    def __init__(self, job: Job, gen: Generator, workers: int, build: bool = True, *, pool_min: int) -> None:
        self.gen = gen
        #: Fewer attempts (or chosen lines) than this are made in this process even with workers.
        self.pool_min = pool_min
        self.workers = workers
        self.build = build
        self._pool: Any = None
        self.job = job

    def _start(self) -> Any:
        if self._pool is None:
            global _WORKER, _BUILD
            if "fork" in multiprocessing.get_all_start_methods():
                _WORKER, _BUILD = self.gen, self.build  # forked workers inherit the loaded cards and base
                self._pool = multiprocessing.get_context("fork").Pool(self.workers, initializer=_quiet_worker)
            else:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ctx.Pool(self.workers, initializer=_init_worker, initargs=(self.job, self.build))
        return self._pool

    def map(self, tasks: list[tuple[int, int, int]], *, seen: Container[int] | None = None,
            wanted: Callable[[int], bool] | None = None) -> Iterator[Candidate]:
        """Candidates of ``tasks`` in order; in this process, ``seen`` and ``wanted`` spare building items
        that would be dropped (workers skip only the duplicates they built themselves)."""
        total = sum(stop - start for _, start, stop in tasks)
        if self.workers == 1 or total < self.pool_min:
            yield from _collected(self._local(tasks, seen, wanted))
            return
        for chunk in self._start().imap(_run_task, tasks):
            yield from chunk

    def _local(self, tasks: list[tuple[int, int, int]], seen: Container[int] | None,
               wanted: Callable[[int], bool] | None) -> Iterator[Candidate]:
        for r, start, stop in tasks:
            for j in range(start, stop):
                want = wanted is None or wanted(r)
                yield self.gen.attempt(r, j, seen=seen, build=self.build and want, label=want)

    def lines(self, chosen: list[tuple[int, int]]) -> Iterator[str]:
        """The item lines of chosen attempts, in order (built in workers when there are many)."""
        if self.workers == 1 or len(chosen) < self.pool_min:
            yield from _collected(self.gen.line(r, j) for r, j in chosen)
            return
        size = _task_size(len(chosen), self.workers)
        blocks = [chosen[i:i + size] for i in range(0, len(chosen), size)]
        for block in self._start().imap(_line_task, blocks):
            yield from block

    def close(self) -> None:
        """End the workers once their tasks are done, and drop the whole GRPs the run's cards remember: they serve
        only the run's own items (:func:`ipb.engine.grp_view.forget_rendered`; memory flat in N, s60speed)."""
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None
        for compiled in self.gen.frame.cards:
            forget_rendered(compiled)

    def terminate(self) -> None:
        """End the workers at once, their queued tasks dropped (a stopped run)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
