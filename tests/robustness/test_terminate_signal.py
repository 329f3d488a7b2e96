"""A run stopped by SIGTERM or SIGHUP (``kill``, ``timeout``, a batch scheduler) cleans up as Ctrl-C does.

Stop 32's breaker ran ``ipb perturb -n 1000000000000`` and stopped it with
``kill``: Python's default SIGTERM action ended the process at once and the
hidden ``.items.jsonl.XXXX.tmp`` it was streaming into (hundreds of MB) stayed
until the next write of the same target. ``ipb.cli._app.stop_on_terminate``
turns the signal into ``SystemExit(128 + signum)``, so the atomic write's
clean-up removes the temporary file and no partial target appears.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "frameworks/scenarios/buffett_acquisition_checklist/ipb_p_011_base.yaml"


def _start_endless_perturb(out: Path, *extra: str) -> subprocess.Popen[bytes]:
    args = ["perturb", "--card", "buffett_acquisition_checklist", "--base", str(BASE),
            "--n", "10000000", "--seed", "7", "--out", str(out), *extra]  # the cap (s56fixrep); hours of work
    return subprocess.Popen([sys.executable, "-c", "from ipb.cli import main; main()", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_for_temporary(folder: Path, proc: subprocess.Popen[bytes], limit_s: float = 120.0) -> list[Path]:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        found = [p for p in folder.iterdir() if p.name.startswith(".items.jsonl.") and p.name.endswith(".tmp")]
        if found and all(p.stat().st_size > 0 for p in found):
            return found
        if proc.poll() is not None:
            pytest.fail(f"ipb perturb ended before writing: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        time.sleep(0.1)
    proc.kill()
    pytest.fail("ipb perturb wrote no temporary file within the limit")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_run_leaves_no_temporary_file_and_no_target(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "items.jsonl"
    proc = _start_endless_perturb(out)
    try:
        before = _wait_for_temporary(tmp_path, proc)
        assert len(before) == 1
        proc.send_signal(signum)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 128 + signum  # as a shell reports a command ended by that signal
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # neither the temporary file nor a partial target


@pytest.mark.parametrize("signals", [(signal.SIGTERM,), (signal.SIGTERM, signal.SIGHUP)], ids=["term", "term-then-hup"])
def test_a_terminated_run_with_workers_ends_them_and_cleans_up(tmp_path: Path, signals: tuple[int, ...]) -> None:
    """With --workers 2 the stopped run ends its workers instead of waiting for their queued tasks (it hung, the
    workers' results filling memory, before stop 33's breaker); a second signal of the other kind during the clean-up
    changes nothing."""
    out = tmp_path / "items.jsonl"
    proc = _start_endless_perturb(out, "--workers", "2")
    try:
        _wait_for_temporary(tmp_path, proc)
        for signum in signals:
            proc.send_signal(signum)
            time.sleep(0.05)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 128 + signals[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def _child_end_after_sigterm(before_fork: str) -> list[str]:
    """Install the handler, run ``before_fork``, fork a sleeping child, SIGTERM it: how it ended, as
    ``[signalled?, signal or exit status]``. The child exits 3 only if the signal became an exception in it."""
    code = ("import os, signal, time\n"
            "from ipb.cli._app import stop_on_terminate\n"
            "stop_on_terminate()\n"
            f"{before_fork}\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    try:\n"
            "        time.sleep(60)\n"
            "    finally:\n"
            "        os._exit(3)\n"
            "time.sleep(0.3)\n"
            "os.kill(pid, signal.SIGTERM)\n"
            "_, status = os.waitpid(pid, 0)\n"
            "print(os.WIFSIGNALED(status), os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=90).stdout.split()


def test_a_forked_worker_keeps_the_default_action() -> None:
    """In a process forked after the handler is installed, SIGTERM still ends it at once (status -SIGTERM)."""
    assert _child_end_after_sigterm("pass") == ["True", str(int(signal.SIGTERM))]


def test_a_worker_forked_during_the_clean_up_still_ends_on_sigterm() -> None:
    """The clean-up ignores further signals; a pool worker forked then (a pool replacing a worker) would inherit the
    ignored SIGTERM and outlive ``Pool.terminate()``. The at-fork hook gives every child the default action."""
    ignore = "signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as the handler leaves it while cleaning up"
    assert _child_end_after_sigterm(ignore) == ["True", str(int(signal.SIGTERM))]
