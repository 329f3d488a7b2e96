"""``write_items(progress=...)``: the CLI's local path is ``write_items`` itself (s61 tidy: ``ipb perturb`` repeated
its four lines to count the lines on their way). The items keep their bytes; the counter sees each of them."""

from __future__ import annotations

import io

from perturb_support import BUFFETT, BUFFETT_BASE

from ipb.perturb._progress import RunProgress
from ipb.perturb.generation import Job, parse_recipes, write_items


def test_write_items_counts_its_lines_and_keeps_their_bytes(tmp_path):
    job = Job((BUFFETT,), str(BUFFETT_BASE), 7, parse_recipes("metric"))
    plain, counted = tmp_path / "plain.jsonl", tmp_path / "counted.jsonl"
    write_items(plain, job, 12)
    progress = RunProgress(12, io.StringIO(), clock=lambda: 0.0)
    write_items(counted, job, 12, progress=progress)
    assert counted.read_bytes() == plain.read_bytes()
    assert len(plain.read_text(encoding="utf-8").splitlines()) == 12
    assert progress.written == 12 and progress.made == 12
    assert progress.put_off is not None and progress.put_off() == 0  # the spool is drained once the run ends
