"""``ipb perturb --near-duplicates fill|defer|strict`` (issue 18 item 4, branch s58fill): the flag, its default and
how it goes with ``--no-near-duplicates`` and ``--balance``.

Marks's cycle card from ``hot_defensive_2007`` at ``--n 200 --seed 5701`` (its default operators metric, flip,
isolate) has 117 visibly new items: ``strict`` (``--no-near-duplicates``) stops there, or with ``--allow-short``
writes those 117 and no near duplicate. ``fill`` writes the same 117 lines first, then 200 - 117 = 83 of the near
duplicates it kept aside. ``defer``, the default, takes each near duplicate as it comes: 123 of its 200 items are
near duplicates, written after its 77 visibly new ones. (s58fill made ``fill`` the default; the stop-58 merge put
``defer`` back after ``bench/perturb.py`` measured fill at 19 times the CPU of defer at 10,000 bench items.)

Fail before the change: the flag did not exist (every CLI test here exits 2), ``Job`` had no ``near`` field, and
no mode could be asked for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ipb.perturb.generation as gen
from ipb.cli import app
from ipb.errors import PerturbError
from ipb.perturb import Job, generate
from perturb_support import SCENARIOS

MARKS = "marks_market_cycle_positioning"
BASE = SCENARIOS / MARKS / "hot_defensive_2007.yaml"
runner = CliRunner()


def run(tmp_path: Path, name: str, *flags: str):
    out = tmp_path / f"{name}.jsonl"
    result = runner.invoke(app, ["perturb", "--card", MARKS, "--base", str(BASE), "--n", "200", "--seed", "5701",
                                 "--out", str(out), *flags])
    return result, (out.read_bytes() if out.exists() else b"")


def near_written(output: str) -> int:
    found = re.search(r"WARNING: (\d+) of 200 items are within a visible step", output)
    return int(found.group(1)) if found else 0


def test_each_mode_writes_its_count_of_near_duplicates(tmp_path):
    plain, plain_bytes = run(tmp_path, "plain")
    fill, fill_bytes = run(tmp_path, "fill", "--near-duplicates", "fill")
    defer, defer_bytes = run(tmp_path, "defer", "--near-duplicates", "defer")
    strict, strict_bytes = run(tmp_path, "strict", "--near-duplicates", "strict", "--allow-short")
    old, old_bytes = run(tmp_path, "old", "--no-near-duplicates", "--allow-short")
    assert [r.exit_code for r in (plain, fill, defer, strict, old)] == [0] * 5, plain.output
    assert plain_bytes == defer_bytes  # defer is the default
    assert strict_bytes == old_bytes  # --no-near-duplicates is strict
    strict_lines = strict_bytes.splitlines()
    assert len(strict_lines) == 117 and near_written(strict.output) == 0
    assert fill_bytes.splitlines()[:117] == strict_lines  # the visibly new items first, as strict writes them
    assert near_written(fill.output) == 200 - 117 == 83
    assert near_written(defer.output) == 123
    assert len(set(defer_bytes.splitlines())) == len(set(fill_bytes.splitlines())) == 200


def test_the_library_default_is_defer_and_job_near_picks_a_mode():
    assert gen.DEFAULT_NEAR == "defer"
    job = Job((MARKS,), str(BASE), 5701, ())
    default = generate(job, 200)
    assert sum(r.near_admitted for r in default.recipes) == 123
    filled = generate(Job(job.cards, job.base, 5701, (), near="fill"), 200)
    assert sum(r.near_admitted for r in filled.recipes) == 83
    assert generate(Job(job.cards, job.base, 5701, (), near="defer"), 200).lines == default.lines


@pytest.mark.parametrize("flags, message", [
    (("--no-near-duplicates", "--near-duplicates", "defer"),
     "--no-near-duplicates is --near-duplicates strict: it cannot go with --near-duplicates defer"),
    (("--near-duplicates", "fill", "--balance"),
     "--balance keeps near duplicates where they fall: of --near-duplicates only strict applies with it, not fill"),
], ids=["strict-and-defer", "fill-with-balance"])
def test_modes_that_cannot_go_together_are_refused_before_any_work(tmp_path, flags, message):
    result, written = run(tmp_path, "bad", *flags)
    assert result.exit_code == 1 and written == b""
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_an_unknown_mode_is_a_clear_error():
    result = runner.invoke(app, ["perturb", "--card", MARKS, "--base", str(BASE), "--n", "5", "--out", "x.jsonl",
                                 "--near-duplicates", "loose"])
    assert result.exit_code == 2 and "'loose' is not one of" in result.output
    with pytest.raises(PerturbError, match="must be one of fill, defer, strict, not 'loose'"):
        generate(Job((MARKS,), str(BASE), 1, (), near="loose"), 5)
