"""Faults a new user met (branch s52user, issues 13 and 18 hardening); each test here fails without its fix.

1. Bug kind: an empty input scored as a result. ``ipb score --responses EMPTY.jsonl`` (0 bytes, or blank lines
   only) printed an empty leaderboard, "scored 0 of 0", wrote ``responses.jsonl`` and ``summary.json`` and exited 0,
   where the same file beside another one stopped the run. It now stops the same way: exit 1 (the CLI's status for
   an input file it refuses, as for several files; 2 is kept for option errors), the file named, nothing written.
   ``ipb report`` and ``ipb export`` of a folder holding no results already stopped (exit 1, the file named).

3. Bug kind: the same, on the items side (found using ipb from the README with a card of one's own). ``ipb score
   --items EMPTY.jsonl`` (or the responses file given as ``--items``, the two swapped) wrote a results folder in
   which every answer was an unusable "unknown item" record, and exited 1 with one line per record; ``ipb respond``
   and ``ipb verify`` refuse such a file. ``ipb score`` now refuses it too, naming the file and its first bad line,
   with nothing written.

The lint of contradicting tests (issue item 2) is tested beside its code: tests/engine/test_lint_intervals_s52.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ipb.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "frameworks" / "scenarios" / "graham_net_net_screen" / "net_net_bargain.yaml"


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("items") / "items.jsonl"
    made = runner.invoke(app, ["perturb", "--card", "graham_net_net_screen", "--base", str(BASE), "--n", "2",
                               "--seed", "1", "--out", str(path)])
    assert made.exit_code == 0, made.output
    return path


@pytest.mark.parametrize("content", [b"", b"\n  \n\n"], ids=["zero-bytes", "blank-lines"])
def test_one_empty_responses_file_stops_the_run_with_nothing_written(items: Path, tmp_path: Path, content: bytes):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(content)
    out = tmp_path / "results"
    result = runner.invoke(app, ["score", "--items", str(items), "--responses", str(empty), "--out", str(out),
                                 "--no-embeddings", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert f"{empty} holds no response record (an empty file, or a log without samples): nothing to score, " \
           "nothing written" in result.output
    assert "0 of 0" not in result.output and "leaderboard" not in result.output
    assert not out.exists()


def test_report_and_export_of_a_folder_without_results_name_what_is_missing(tmp_path: Path):
    # what an empty results folder gives (checked, unchanged): exit 1, the missing file named, nothing written
    folder = tmp_path / "results"
    folder.mkdir()
    page, table = tmp_path / "r.html", tmp_path / "e.csv"
    report = runner.invoke(app, ["report", str(folder), "--out", str(page)])
    assert report.exit_code == 1 and "summary.json" in report.output and not page.exists()
    export = runner.invoke(app, ["export", str(folder), "--out", str(table), "--format", "csv"])
    assert export.exit_code == 1 and "no responses.jsonl in" in export.output and not table.exists()


def _one_answer(tmp_path: Path, items: Path) -> Path:
    import json

    first = json.loads(items.read_text(encoding="utf-8").splitlines()[0])["id"]
    path = tmp_path / "responses.jsonl"
    path.write_text(json.dumps({"item_id": first, "model": "m", "condition": "A", "response": "Final verdict: DECLINE"})
                    + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("swapped", [False, True], ids=["empty-items", "responses-given-as-items"])
def test_an_items_file_with_no_item_stops_the_run_with_nothing_written(items: Path, tmp_path: Path, swapped: bool):
    responses = _one_answer(tmp_path, items)
    if swapped:
        given_items, given_responses = responses, items
        why = "(item on line 1 has no string 'id')"
    else:
        given_items, given_responses = tmp_path / "none.jsonl", responses
        given_items.write_bytes(b"\n\n")
        why = "(an empty file, or only blank lines)"
    out = tmp_path / "results"
    result = runner.invoke(app, ["score", "--items", str(given_items), "--responses", str(given_responses),
                                 "--out", str(out), "--no-embeddings", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert f"{given_items} holds no item {why}: nothing to score the answers against, nothing written; --items takes " \
           "the file ipb perturb wrote" in " ".join(result.output.split())
    assert not out.exists()
