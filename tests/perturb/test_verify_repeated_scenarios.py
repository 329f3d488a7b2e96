"""Regression (a release that asks one question twice): ``ipb verify`` reports an item whose scenario an earlier
item of another id already has.

An item's id is its base's id plus 16 hex digits of the SHA-256 of its scenario, so runs of one card over
several bases can make the same scenario under two ids. s43user built a Marks release from the card's seven
bundled bases (150 items each, seed 7) and concatenated them as docs/perturbation.md's "Publishing a benchmark"
suggests for one folder: 193 of 1,050 lines repeated an earlier line's question word for word, and ``ipb verify``
said "verified 1050 of 1050". Both copies are scored, so such a question counted twice. Such a line is now a
``duplicate`` (exit 1), as a repeated id already was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb import Job
from ipb.perturb.generation import write_items
import ipb.perturb.verify as verify_mod
from ipb.perturb.verify import REPEATED_SCENARIO, verify_items
from perturb_support import SCENARIOS

MARKS = "marks_market_cycle_positioning"
BASES = ("hot_aggressive_reduce_risk", "neutral_balanced_2016")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """Two 30-item runs of the Marks card from two of its bases, alone and written into one file."""
    tmp = tmp_path_factory.mktemp("repeated")
    parts = []
    for stem in BASES:
        out = tmp / f"{stem}.jsonl"
        write_items(out, Job((MARKS,), str(SCENARIOS / MARKS / f"{stem}.yaml"), 7, ()), 30)
        parts.append(out)
    both = tmp / "release" / "items.jsonl"
    both.parent.mkdir()
    both.write_bytes(b"".join(p.read_bytes() for p in parts))
    return both, parts


def _digest(item: dict) -> str:
    return str(item["id"]).rsplit("-", 1)[1]


def test_each_run_alone_repeats_nothing(two_runs):
    _, parts = two_runs
    for part in parts:
        result = verify_items(part)
        assert result.ok and not result.duplicates


@pytest.mark.parametrize("workers", [1, 2])
def test_the_concatenated_runs_report_each_repeated_question(two_runs, monkeypatch, workers):
    both, parts = two_runs
    monkeypatch.setattr(verify_mod, "POOL_MIN", 0)  # two workers verify the file in blocks, ids logged apart
    first = [json.loads(line) for line in parts[0].read_text(encoding="utf-8").splitlines()]
    second = [json.loads(line) for line in parts[1].read_text(encoding="utf-8").splitlines()]
    seen = {_digest(item): item for item in first}
    # the lines of the second run whose scenario the first run made (7 at this seed and size), found by the digest
    # and each checked to ask the first run's question word for word under another id
    repeats = [30 + n for n, item in enumerate(second, start=1) if _digest(item) in seen]
    assert len(repeats) == 7
    for line in repeats:
        item = second[line - 31]
        assert item["question"] == seen[_digest(item)]["question"] and item["id"] != seen[_digest(item)]["id"]
    result = verify_items(both, workers=workers)
    assert not result.ok
    assert [c.line for c in result.duplicates] == repeats
    assert all(c.problems == [REPEATED_SCENARIO] for c in result.duplicates)
    assert not result.gold_mismatched and not result.inconsistent and not result.errors


def test_the_command_counts_them_and_exits_1(two_runs):
    both, _ = two_runs
    result = CliRunner().invoke(app, ["verify", str(both)])
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "verified 53 of 60 item(s)" in text and "7 repeating an earlier item's id or scenario" in text
    assert "repeats the scenario of an earlier item under another base's id" in text and "Traceback" not in text
