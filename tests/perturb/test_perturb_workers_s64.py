"""Findings F2 and F5 of s64's new user (/work/notes/NEWUSER_s64.md); bug kinds: unbounded work unit, noisy stop.

F2: ``ipb perturb --n 1000000 --workers 2 --progress`` printed no progress line in 27 s and stopped at "184 of
1,000,000 items made" (``--workers 1``: 7,688): ``_split`` cut a round of ~275k attempts of one recipe into
workers x 4 tasks with no upper bound (8 tasks of ~34k attempts), and nothing is counted before a whole task
returns. Tasks now hold at most ``TASK_MAX`` attempts; the bytes do not move (each attempt depends only on its
recipe and attempt index, and tasks are read in order). ``--workers`` above the cores this process may use is
lowered to them, with a note. F5: a Ctrl-C (SIGINT to the whole process group) made each busy worker print
"Process ForkPoolWorker-N:" and a traceback: workers now ignore SIGINT, and the main process ends them.
"""

from __future__ import annotations

import os
import signal
import subprocess

from hypothesis import given, settings, strategies as st

import ipb.perturb._pool as pool_mod
import ipb.perturb.generation as gen
from ipb.perturb import Job, generate, parse_recipes
from ipb.perturb._pool import TASK_MAX, _Pool, _split
from ipb.perturb.generation import Generator
from perturb_support import BUFFETT, BUFFETT_BASE, IPB_COMMAND, ROOT


def _job() -> Job:
    return Job((BUFFETT,), str(BUFFETT_BASE), 4, parse_recipes("metric,flip"))


def test_the_users_round_is_cut_into_bounded_tasks():
    # the user's second round, worked by hand: 275,000 attempts of recipe 1 from attempt 64 with 2 workers were
    # 8 tasks of ceil(275000 / 8) = 34,375 attempts; now ceil(275000 / 1024) = 269 tasks, 268 of 1,024 and one of 568
    tasks = _split(1, 64, 275_064, 2)
    assert TASK_MAX == 1024
    assert len(tasks) == 269 and tasks[0] == (1, 64, 1088) and tasks[-1] == (1, 274_496, 275_064)
    assert max(stop - start for _, start, stop in tasks) == 1024
    # small rounds are cut as before: workers x 4 tasks, at least 32 attempts each
    assert _split(0, 0, 3000, 2) == [(0, s, s + 375) for s in range(0, 3000, 375)]
    assert _split(0, 0, 100, 2) == [(0, 0, 32), (0, 32, 64), (0, 64, 96), (0, 96, 100)]
    assert _split(2, 5, 9_000_005, 1) == [(2, 5, 9_000_005)]  # one worker: one range, made in this process


@settings(max_examples=200, deadline=None)
@given(r=st.integers(0, 9), start=st.integers(0, 10**6), count=st.integers(1, 10**7), workers=st.integers(2, 512))
def test_tasks_cover_the_range_in_order_each_bounded(r, start, count, workers):
    tasks = _split(r, start, start + count, workers)
    assert tasks[0][1] == start and tasks[-1][2] == start + count
    assert all(a[2] == b[1] for a, b in zip(tasks, tasks[1:]))
    assert all(t[0] == r and 0 < t[2] - t[1] <= max(32, TASK_MAX) for t in tasks)


def test_tiny_tasks_give_the_same_bytes_as_one_process(monkeypatch):
    one = generate(_job(), 120).lines
    monkeypatch.setattr(gen, "POOL_MIN", 0)  # worker processes even for a small run
    monkeypatch.setattr(pool_mod, "TASK_MAX", 32)  # every round and every line block cut into 32s
    assert generate(_job(), 120, workers=3).lines == one


def test_workers_ignore_sigint():
    # the parent's Ctrl-C handler is set here: a runner started in the background (``cmd &`` in a script, as a CI
    # job may be) inherits SIGINT ignored, and a forked worker would then ignore it without the fix
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        pool = _Pool(_job(), Generator(_job()), 2, pool_min=0)
        try:
            assert pool._start().apply(signal.getsignal, (signal.SIGINT,)) == signal.SIG_IGN
        finally:
            pool.close()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # this process still stops on Ctrl-C
    finally:
        signal.signal(signal.SIGINT, before)


def test_workers_above_the_cores_are_lowered_with_a_note(tmp_path):
    cores = len(os.sched_getaffinity(0))
    out = tmp_path / "items.jsonl"
    proc = subprocess.run([*IPB_COMMAND, "perturb", "--card", BUFFETT, "--base", str(BUFFETT_BASE), "--n", "5",
                           "--seed", "4", "--workers", "100000", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 0, said
    assert (f"note: --workers 100000 is more than the {cores} CPU core(s) this process may use: {cores} worker "
            "process(es) are started (more would only share the cores; the items do not depend on --workers)") in said
    assert len(out.read_text(encoding="utf-8").splitlines()) == 5
