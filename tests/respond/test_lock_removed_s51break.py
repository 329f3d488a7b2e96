"""s49break leftover 4: every ``ipb respond`` run left ``OUT.lock`` beside the responses file.

The lock file is now removed when the run ends, while it is still locked; a second writer is still refused while
the first holds it, and a run after the first locks a fresh file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.respond.records import RunError, output_lock

DATA = Path(__file__).parent / "data"


def test_a_synthetic_run_leaves_no_lock_file(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    shutil.copyfile(DATA / "items.jsonl", items)
    shutil.copytree(DATA / "ipb-cards", tmp_path / "ipb-cards")
    out = tmp_path / "answers.jsonl"
    result = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(out), "--synthetic", "--corruptions", "none"])
    assert result.exit_code == 0, result.output
    assert out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("answers")] == ["answers.jsonl"]


def test_the_lock_is_held_during_the_run_and_gone_after(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    lock = tmp_path / "r.jsonl.lock"
    with output_lock(out):
        assert lock.exists()
        with pytest.raises(RunError, match="another run is writing"):
            with output_lock(out):
                pass  # pragma: no cover - refused
    assert not lock.exists()
    with output_lock(out):  # a later run locks a new file
        assert lock.exists()
    assert not lock.exists()


def test_a_refused_run_leaves_the_holders_lock_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    lock = tmp_path / "r.jsonl.lock"
    with output_lock(out):
        with pytest.raises(RunError):
            with output_lock(out):
                pass  # pragma: no cover - refused
        assert lock.exists()  # the refused run did not remove the file the first one holds
        with pytest.raises(RunError):  # and the holder still excludes a third
            with output_lock(out):
                pass  # pragma: no cover - refused
