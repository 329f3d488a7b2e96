"""Regression (bad output paths and absurd values of ipb perturb / ipb verify): found by the s56 break review.

House rule: bad input gives one clear error naming the flag and the file, never a traceback, a hang or a
changed file. Before the fix:

- ``--report /proc/r.json`` failed only after ``--out`` had been replaced by the new items (an existing
  items file lost, ``ipb-cards/`` written);
- an operating-system write error did not name the flag (``write error: cannot write /proc/x.jsonl``);
- ``--n 10000000000000000000`` was taken and ran until killed;
- ``ipb verify --card ID=missing.yaml`` reported every record as unreadable instead of one error.

``/proc`` refuses new files even to root, so these paths cannot be written whoever runs the tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.perturb.generation import MAX_ITEMS
from perturb_support import CARDS, FIXTURES

CARD = CARDS / "new_author_screen.yaml"
BASE = FIXTURES / "new_author_base.yaml"
runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_an_unwritable_report_leaves_an_existing_items_file_unchanged(tmp_path: Path) -> None:
    """Bug kind: partial output. The old items file must keep its bytes and no card copies appear."""
    items = tmp_path / "keep.jsonl"
    items.write_bytes(b"old items\n")
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", items, "--report", "/proc/r.json")
    assert result.exit_code == 1, result.output
    assert "--report: write error: cannot write /proc/r.json" in result.output, result.output
    assert items.read_bytes() == b"old items\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.jsonl"]
    assert "Traceback" not in result.output


def test_an_unwritable_out_names_the_flag(tmp_path: Path) -> None:
    """Bug kind: message. The operating system's refusal is labelled with --out, as the folder case is."""
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", "/proc/x.jsonl")
    assert result.exit_code == 1, result.output
    assert "--out: write error: cannot write /proc/x.jsonl" in result.output, result.output


def test_a_report_in_a_missing_folder_below_proc_is_refused_before_the_items(tmp_path: Path) -> None:
    """A missing folder is made later, so the probe is made in its nearest existing parent (/proc here)."""
    items = tmp_path / "x.jsonl"
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", items,
                    "--report", "/proc/no_such_folder/r.json")
    assert result.exit_code == 1, result.output
    assert "--report: write error" in result.output, result.output
    assert not items.exists() and not (tmp_path / "ipb-cards").exists()


def test_an_absurd_n_is_refused_at_once(tmp_path: Path) -> None:
    """Bug kind: hang. 10**19 items is refused before any card is read; the cap is 10,000,000."""
    assert MAX_ITEMS == 10_000_000
    items = tmp_path / "x.jsonl"
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 10**19, "--out", items)
    assert result.exit_code == 1, result.output
    assert "--n: argument error: --n must be at most 10,000,000, not 10,000,000,000,000,000,000" in result.output
    assert not items.exists()


def test_a_count_one_past_the_cap_is_refused_by_the_library_too() -> None:
    from ipb.errors import PerturbError
    from ipb.perturb.generation import GenerationRun, Job

    job = Job((str(CARD),), str(BASE), 0, ())
    with pytest.raises(PerturbError, match="at most 10,000,000, not 10,000,001"):
        GenerationRun(job, MAX_ITEMS + 1)


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("items") / "i.jsonl"
    result = invoke("perturb", "-c", CARD, "-b", BASE, "--n", 5, "--out", path)
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("given, words", [
    ("missing.yaml", "no such card file: missing.yaml"),
    ("/proc", "/proc is not a regular file"),
])
def test_verify_names_a_bad_card_argument_once(items: Path, given: str, words: str) -> None:
    """Bug kind: misleading count. One error about --card, not one "unreadable" per record."""
    result = invoke("verify", items, "--card", f"new_author_screen={given}")
    assert result.exit_code == 1, result.output
    assert f"--card: load error: --card new_author_screen={given}: {words}" in result.output, result.output
    assert "unreadable" not in result.output and "record" not in result.output, result.output
    assert result.output.count("\n") == 1, result.output


def test_verify_with_a_good_card_argument_still_verifies(items: Path) -> None:
    result = invoke("verify", items, "--card", f"new_author_screen={CARD}")
    assert result.exit_code == 0, result.output
    assert "verified 5 of 5 item(s)" in result.output, result.output
