"""s51break: ``--out`` naming the ``--items`` file replaced the items with the responses.

``ipb respond -i I.jsonl -o I.jsonl --synthetic --overwrite`` wrote its 40 response records over the 4 items
(rc 0); ``ipb judge -i I.jsonl -r R.jsonl -o I.jsonl --overwrite`` did the same, and a symbolic link to the items
file as --out did too. Without --overwrite the run stopped, but only saying the items were "not a valid response
record". Now each is refused before anything is written, and the items file is left as it was.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from ipb.cli import app

DATA = Path(__file__).parent / "data"


def _copy_items(tmp_path: Path) -> tuple[Path, bytes]:
    items = tmp_path / "items.jsonl"
    shutil.copyfile(DATA / "items.jsonl", items)
    shutil.copytree(DATA / "ipb-cards", tmp_path / "ipb-cards")
    return items, items.read_bytes()


def _refused(result, items: Path, before: bytes) -> None:
    assert result.exit_code == 1, result.output
    assert "is the items file" in result.output
    assert "Traceback" not in result.output
    assert items.read_bytes() == before


def test_respond_synthetic_out_is_items_is_refused(tmp_path: Path) -> None:
    items, before = _copy_items(tmp_path)
    result = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(items), "--synthetic", "--overwrite"])
    _refused(result, items, before)


def test_respond_out_is_a_link_to_items_is_refused(tmp_path: Path) -> None:
    items, before = _copy_items(tmp_path)
    link = tmp_path / "answers.jsonl"
    link.symlink_to(items)
    result = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(link), "--synthetic", "--overwrite"])
    _refused(result, items, before)
    assert link.is_symlink()


def test_respond_model_run_out_is_items_is_refused(tmp_path: Path) -> None:
    items, before = _copy_items(tmp_path)
    result = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(items), "--model", "m",
                                      "--base-url", "http://127.0.0.1:9/v1", "-c", "A", "--overwrite", "--no-cache",
                                      "--retries", "0", "--timeout", "2"])
    _refused(result, items, before)


def test_judge_out_is_items_is_refused(tmp_path: Path) -> None:
    items, before = _copy_items(tmp_path)
    answers = tmp_path / "answers.jsonl"
    made = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(answers), "--synthetic",
                                    "--corruptions", "none"])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(app, ["judge", "-i", str(items), "-r", str(answers), "-o", str(items), "--overwrite",
                                      "--model", "j", "--base-url", "http://127.0.0.1:9/v1", "--retries", "0",
                                      "--timeout", "2", "--no-cache"])
    _refused(result, items, before)


def test_another_out_still_writes(tmp_path: Path) -> None:
    items, before = _copy_items(tmp_path)
    answers = tmp_path / "answers.jsonl"
    result = CliRunner().invoke(app, ["respond", "-i", str(items), "-o", str(answers), "--synthetic",
                                      "--corruptions", "none"])
    assert result.exit_code == 0, result.output
    assert len(answers.read_text(encoding="utf-8").splitlines()) == 4  # 4 items x condition A x one corruption
    assert items.read_bytes() == before
