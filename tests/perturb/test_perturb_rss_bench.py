"""``bench/perturb_rss.py`` (issue 18 bar, line 4): a child's peak resident memory is its own, not the largest
of every child the script started (``ru_maxrss`` of ``RUSAGE_CHILDREN`` would be)."""

from __future__ import annotations

import sys

from tests.scoring.bench_support import load_bench


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
