"""A ``summary.json`` holding NaN or Infinity (s47break): ``ipb report`` refuses it at the number.

``ipb score`` never writes NaN or Infinity (it writes with ``allow_nan=False``), and ``ipb report`` refused them in
``responses.jsonl`` with a located error; in ``summary.json`` they were read as floats and every such mean was
shown as "-" in the leaderboard and tables, with no word: a results file edited by hand or written by another
tool could hide a model's figures. The line and column below are counted in the file as the test writes it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app
from ipb.errors import LoadError
from ipb.report.data import load_results

runner = CliRunner()


def _broken(run_dir: Path, tmp_path: Path, word: str) -> tuple[Path, int]:
    """A copy of the results with the first "mean" of the summary replaced by ``word``; returns the folder and
    the 1-based line of that mean."""
    folder = tmp_path / "results"
    shutil.copytree(run_dir / "results", folder)
    lines = (folder / "summary.json").read_text(encoding="utf-8").split("\n")
    row = next(i for i, line in enumerate(lines) if line.lstrip().startswith('"mean": '))
    lines[row] = lines[row].split('"mean": ')[0] + '"mean": ' + word + ","
    (folder / "summary.json").write_text("\n".join(lines), encoding="utf-8")
    return folder, row + 1


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_summary_with_a_non_finite_mean_is_refused_at_it(run_dir: Path, tmp_path: Path, word: str) -> None:
    folder, line = _broken(run_dir, tmp_path, word)
    with pytest.raises(LoadError) as info:
        load_results(folder)
    error = info.value
    assert error.line == line
    source = (folder / "summary.json").read_text(encoding="utf-8").split("\n")[line - 1]
    assert error.column == source.index(word) + 1
    assert f"{word.lstrip('-')} is not a JSON number" in str(error)


def test_the_cli_says_so_and_writes_no_page(run_dir: Path, tmp_path: Path) -> None:
    folder, line = _broken(run_dir, tmp_path, "NaN")
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["report", str(folder), "-o", str(out)])
    assert result.exit_code != 0
    assert f"summary.json:{line}:" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_a_summary_as_score_wrote_it_still_loads(run_dir: Path) -> None:
    results = load_results(run_dir / "results")
    assert json.loads((run_dir / "results" / "summary.json").read_text(encoding="utf-8"))["kind"] == "ipb.score.summary"
    assert results is not None


@pytest.mark.parametrize("name", ["responses.jsonl", "summary.json"])
def test_out_over_a_results_file_is_refused_and_the_file_kept(run_dir: Path, tmp_path: Path, name: str) -> None:
    # `ipb report results -o results/responses.jsonl` (a slip of the finger) replaced the scored records with
    # the page; the next report then failed on the SHA-256 and the run was lost
    folder = tmp_path / "results"
    shutil.copytree(run_dir / "results", folder)
    target = folder / name
    before = target.read_bytes()
    result = runner.invoke(app, ["report", str(folder), "-o", str(target)])
    assert result.exit_code == 1
    assert "exists and is not an HTML page" in result.output
    assert target.read_bytes() == before
    again = runner.invoke(app, ["report", str(folder), "-o", str(tmp_path / "page.html")])
    assert again.exit_code == 0, again.output


def test_out_over_an_earlier_report_or_an_empty_file_is_written(run_dir: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    for _ in range(2):  # the second run replaces the first page
        result = runner.invoke(app, ["report", str(run_dir / "results"), "-o", str(page)])
        assert result.exit_code == 0, result.output
    assert page.read_bytes().lstrip().lower().startswith(b"<!doctype html")
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert runner.invoke(app, ["report", str(run_dir / "results"), "-o", str(empty)]).exit_code == 0
    assert empty.stat().st_size > 0
