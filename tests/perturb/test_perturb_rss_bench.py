"""``bench/perturb_rss.py`` (issue 18 bar, line 4): a child's peak resident memory is its own, not the largest
of every child the script started (``ru_maxrss`` of ``RUSAGE_CHILDREN`` would be)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.scoring.bench_support import load_bench

BENCH_FILE = Path(__file__).resolve().parents[2] / "bench" / "perturb_rss.py"


def test_each_child_reports_its_own_peak() -> None:
    bench = load_bench("perturb_rss.py")
    big = bench.run_child([sys.executable, "-c", "x = bytearray(160 * 2**20); x[::4096] = b'1' * len(x[::4096])"])
    small = bench.run_child([sys.executable, "-c", "pass"])
    assert big["rc"] == 0 and small["rc"] == 0
    assert big["peak_mib"] >= 160  # the 160 MiB it touched
    assert small["peak_mib"] < 100  # not the big child's peak, run before it


def test_a_failing_child_gives_its_status_and_stderr() -> None:
    bench = load_bench("perturb_rss.py")
    got = bench.run_child([sys.executable, "-c", "import sys; sys.exit('no such card: x')"])
    assert got["rc"] == 1 and "no such card: x" in got["stderr"]


def test_a_small_child_of_a_large_parent_reports_its_own_peak() -> None:
    """CI found the small child at 1,234 MiB: a child forked from the test runner starts with its resident pages.
    The parent here touches 300 MiB and then measures ``python -c pass`` (609 MiB before, ~11 MiB now)."""
    script = ("import sys, importlib.util\n"
              "x = bytearray(300 * 2**20); x[::4096] = b'1' * len(x[::4096])\n"
              f"spec = importlib.util.spec_from_file_location('b', {str(BENCH_FILE)!r})\n"
              "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
              "print(b.run_child([sys.executable, '-c', 'pass'])['peak_mib'])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert float(out.stdout) < 100
